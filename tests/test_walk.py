"""codeops.common.walk: the same visitor calls as libcst's own visit, in the same order, with no node rebuilt."""

import libcst as cst

from ifforge.families.logicif.codeops.common.walk import walk

SOURCE = '''
from os.path import *
from collections import (deque, Counter as C)
import heapq as hq

@decorate(1)
class Box(Base, metaclass=Meta):
    size: int = 3

    def grow(self, /, n=2, *rest, key=None, **more) -> "Box":
        global total
        total += n
        return self

def solve(items, limit=10):
    """Docstring."""
    seen = {x: [y for y in range(x) if y % 2] for x in items if x}
    pairs = [(a, b) for a in items for b in items if a < b]
    lam = lambda p, *q: p + len(q)
    value = f"{limit!r:>{limit}} and {'nested'}"
    try:
        first, *others = sorted(items, key=lambda v: -v)
    except (ValueError, TypeError) as error:
        raise RuntimeError("no") from error
    else:
        pass
    finally:
        del pairs[0]
    while limit > 0 and not seen:
        limit -= 1
        if limit == 3: break
        elif limit < 0: continue
        else: limit = limit ** 2
    with open("x") as handle, open("y"):
        assert handle, "open"
    match limit:
        case 0 | 1:
            out = ...
        case [a, *_] if a:
            out = {**seen, 1: a}
        case {"k": v}:
            out = v
        case Box(size=s):
            out = s
    x = y = items[1:2:1][::-1]
    async def inner():
        async with lock:
            await thing
        async for z in gen():
            yield z
    return out if out else (yield from inner())
'''


class Recorder(cst.CSTVisitor):
    """Records every on_visit/on_leave, by node identity; skips the children of `skip` kinds."""

    def __init__(self, skip=()):
        self.calls = []
        self.skip = skip

    def on_visit(self, node):
        self.calls.append(("visit", id(node), type(node).__name__))
        super().on_visit(node)
        return not isinstance(node, self.skip)

    def on_leave(self, node):
        self.calls.append(("leave", id(node), type(node).__name__))
        super().on_leave(node)


def _both(node, **kwargs):
    mine, libcsts = Recorder(**kwargs), Recorder(**kwargs)
    walk(node, mine)
    node.visit(libcsts)
    return mine.calls, libcsts.calls


def test_walk_makes_the_calls_libcst_makes_in_its_order():
    module = cst.parse_module(SOURCE)
    mine, libcsts = _both(module)
    assert len(mine) > 1000
    assert mine == libcsts


def test_walk_skips_children_when_on_visit_says_so_and_still_leaves():
    module = cst.parse_module(SOURCE)
    mine, libcsts = _both(module, skip=(cst.FunctionDef,))
    assert mine == libcsts
    kinds = {kind for _, _, kind in mine}
    assert "FunctionDef" in kinds and "Lambda" not in kinds  # every lambda is inside a function


def test_walk_on_a_subtree_and_the_visit_methods_it_dispatches():
    module = cst.parse_module(SOURCE)
    function = next(s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == "solve")

    class Names(cst.CSTVisitor):
        def __init__(self):
            self.seen, self.left = [], 0

        def visit_Name(self, node):
            self.seen.append(node.value)

        def leave_FunctionDef(self, node):
            self.left += 1

    mine, libcsts = Names(), Names()
    walk(function.body, mine)
    function.body.visit(libcsts)
    assert mine.seen == libcsts.seen and "handle" in mine.seen
    assert mine.left == libcsts.left == 1  # `inner`, not `solve`: the walk began below it


def test_the_first_node_of_a_kind_seen_does_not_decide_which_fields_later_ones_have(monkeypatch):
    """An f-string field without a format spec learned first (libcst skips the empty spec): a later
    field with one still has its spec walked."""
    from ifforge.families.logicif.codeops.common import walk as walk_module

    monkeypatch.setattr(walk_module, "_FIELD_ORDER", {})  # nothing learned yet, whatever ran before
    walk(cst.parse_module('x = f"{a}"\n'), Recorder())
    mine, libcsts = _both(cst.parse_module('y = f"{b:>{width}}"\n'))
    assert mine == libcsts
    assert sum(kind == "Name" for call, _, kind in mine if call == "visit") == 3  # y, b and width


class Hooks(cst.CSTVisitor):
    """Hooks on a few classes only, one of which stops the walk below it (a nested function)."""

    def __init__(self):
        self.calls = []

    def visit_Name(self, node):
        self.calls.append(("Name", id(node)))

    def visit_FunctionDef(self, node):
        self.calls.append(("def", id(node)))
        return node.name.value != "inner"

    def leave_FunctionDef(self, node):
        self.calls.append(("left def", id(node)))

    def leave_Call(self, node):
        self.calls.append(("left call", id(node)))


def test_an_indexed_module_walks_as_libcst_visits_it_whole_and_below():
    """Walks over a module noted by `index` (the hooks only, children skipped, a slice for a part
    of it, a visitor with its own on_visit) make libcst's calls: a wrong partner or a missed
    class in the record would drop or add some."""
    from ifforge.families.logicif.codeops.common import walk as walk_module

    module = walk_module.index(cst.parse_module(SOURCE))
    assert walk_module._indexed(module) is not None
    solve = next(s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == "solve")
    small = solve.body.body[2]  # one line: read straight, not chosen from the record
    inner = next(s for s in solve.body.body if isinstance(s, cst.FunctionDef))  # small, and skipped below
    for node in (module, solve, solve.body, small, inner):
        assert walk_module._indexed(node) is not None
        mine, libcsts = Hooks(), Hooks()
        walk(node, mine)
        node.visit(libcsts)
        assert mine.calls == libcsts.calls
    whole = Hooks()
    walk(module, whole)
    assert any(kind == "left call" for kind, _ in whole.calls) and any(kind == "def" for kind, _ in whole.calls)
    mine, libcsts = _both(solve, skip=(cst.Lambda,))  # an on_visit of its own: every event, in order
    assert mine == libcsts and any(kind == "Lambda" for _, _, kind in mine)


def test_an_index_lets_go_of_old_modules_and_a_part_of_a_new_tree_walks_without_one():
    from ifforge.families.logicif.codeops.common import walk as walk_module

    first = walk_module.index(cst.parse_module(SOURCE))
    for _ in range(walk_module._INDEXES.maxlen):
        walk_module.index(cst.parse_module("x = 1\n"))
    assert walk_module._indexed(first) is None  # let go: its ids may be anyone's now
    mine, libcsts = Hooks(), Hooks()
    walk(first, mine)
    first.visit(libcsts)
    assert mine.calls == libcsts.calls


def test_walks_in_threads_while_others_index_new_modules():
    """Threads stand in for worker processes inside Dask: one thread's walks must not trip over
    another's new index (iterating a deque while it grows raises)."""
    import sys
    import threading

    from ifforge.families.logicif.codeops.common import walk as walk_module

    small = [cst.parse_module("x = 1\n") for _ in range(50)]
    module = cst.parse_module(SOURCE)
    done = threading.Event()

    def indexing():
        while not done.is_set():
            for tree in small:
                walk_module.index(tree)

    def walking():
        for _ in range(3000):  # every walk first looks through the indexes
            walk(module.body[0], Hooks())

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch as often as they can: the race shows at once
    errors = []
    try:
        indexer = threading.Thread(target=indexing)
        indexer.start()
        walkers = [threading.Thread(target=lambda: errors.extend(_failures(walking))) for _ in range(3)]
        for thread in walkers:
            thread.start()
        for thread in walkers:
            thread.join()
    finally:
        done.set()
        indexer.join()
        sys.setswitchinterval(interval)
    assert errors == []


def _failures(function):
    try:
        function()
    except Exception as error:  # noqa: BLE001 - the test reports what a thread met
        return [repr(error)]
    return []
