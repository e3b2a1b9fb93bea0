"""Anonymiser and instrumenter, checked by running the code (in the sandbox), not by reading it."""

import ast
import builtins
import re

import pytest

from ifforge.families.logicif.codeops.describe.narrate import Undescribable, describe, holds_code, uncovered
from ifforge.families.logicif.codeops.instrument.anonymise import anonymise
from ifforge.families.logicif.codeops.instrument.trackers import NothingToTrack, instrument
from ifforge.core.sandbox.execution import run_cases

TRICKY = {
    "closures_and_nonlocal": ('''
def tally_events(events, bonus):
    score = 0
    seen = []
    def record(points, label="x"):
        nonlocal score
        score += points
        seen.append(label)
    def double_last():
        nonlocal score
        score *= 2
    for kind, points in events:
        if kind == "hit":
            record(points, label=kind)
        elif kind == "double":
            double_last()
    return score + bonus, seen
''', [[[["hit", 3], ["double", 0], ["hit", 1]], 2], [[], 5], [[["double", 0]], 1]]),
    "recursion_and_helpers_calling_helpers": ('''
def depth_of(node):
    return 0 if not node else 1 + max(depth_of(child) for child in node)

def weight(node, factor=2):
    return factor * depth_of(node) + len(node)

def tree_summary(forest):
    return [weight(tree, factor=3) for tree in forest], depth_of(forest)
''', [[[[], [[]], [[], [[]]]]], [[]], [[[[[]]]]]]),
    "shadowed_builtins_and_comprehensions": ('''
def shadows(values):
    sum = 0
    len_seen = {}
    for max in values:
        sum += max
        len_seen[max] = len([v for v in values if v == max])
    pairs = [(a, b) for a in values for b in values if a < b and b - a == 1]
    total = __name__ if False else None
    return sum, sorted(len_seen.items()), pairs, {k: v for k, v in len_seen.items() if v > 1}
''', [[[1, 2, 2, 3]], [[]], [[5, 4, 5]]]),
    "global_and_defaults_and_keywords": ('''
import math
from collections import Counter
LIMIT = 10
calls = 0

def clamp(value, low=0, high=LIMIT):
    global calls
    calls += 1
    return max(low, min(value, high))

def normalise(numbers, scale=1, *extra, sep="-", **options):
    global calls
    calls = 0
    clamped = [clamp(n * scale, high=options.get("high", LIMIT)) for n in numbers]
    common = Counter(clamped).most_common(1)
    return sep.join(str(c) for c in clamped), math.floor(sum(clamped) / 3), common, calls, extra
''', [[[1, 20, -3], 2], [[], 1], [[4, 4, 9], 3, 7, 8]]),
    "lambda_walrus_try_while": ('''
def parse_tokens(tokens):
    out = []
    key = lambda item, weight=1: (len(item) * weight, item)
    index = 0
    while (token := tokens[index] if index < len(tokens) else None) is not None:
        index += 1
        try:
            number = int(token)
        except ValueError as error:
            out.append(("word", token, str(error)[:10]))
            continue
        else:
            out.append(("number", number, ""))
        finally:
            out.sort(key=key)
    return out, index
''', [[["3", "x", "10"]], [[]], [["abc", "-4"]]]),
    "walrus_in_a_comprehension_match_and_a_later_clause": ('''
def summarise(rows, cut):
    items = list(rows)[:cut]
    total = sum((last := row) * 0 + row for row in items)
    match items:
        case [first, *rest]:
            head = first
        case _:
            head, rest = None, []
    above = [value for group in [rest, items] for value in group if head is not None and value > head]
    return [total, last if items else None, head, len(rest), above]
''', [[[3, 1, 4, 1, 5], 3], [[2], 5], [[], 2], [[7, 9, 8], 2]]),
    "a_class_made_with_keyword_arguments": ('''
class Node:
    def __init__(self, weight, char=None, left=None, **extra):
        self.weight = weight
        self.char = char
        self.left = left
        self.extra = sorted(extra)

def chain(pairs):
    node = None
    for char, weight in pairs:
        node = Node(weight, char=char, left=node, extra=weight)
    out = []
    while node is not None:
        out.append([node.char, node.weight, node.extra])
        node = node.left
    return out
''', [[[["a", 1], ["b", 2]]], [[]], [[["x", 5]]]]),
}


UNDESCRIBABLE = {"lambda_walrus_try_while": "keeps the error object",  # the walrus itself is said (issue 38)
                 "walrus_in_a_comprehension_match_and_a_later_clause": "Match"}


def _assert_same_behaviour(original, entry, other, other_entry, inputs, tracked=False):
    expected = run_cases(original, entry, inputs)
    got = run_cases(other, other_entry, inputs, tracked=tracked)
    assert all(r.ok for r in expected), [r.error for r in expected]
    assert all(r.ok for r in got), [r.error for r in got]
    assert [r.output for r in got] == [r.output for r in expected]
    assert [r.output_type for r in got] == [r.output_type for r in expected]
    return got


def _user_names(source):
    """Names the author chose (those that look like generated ones cannot be told apart)."""
    tree = ast.parse(source)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    shadowed = {"sum", "max"} & names
    return {n for n in (names - set(dir(builtins))) | shadowed if not re.fullmatch(r"[a-z]|[vgp]\d+", n)}


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_anonymiser_keeps_behaviour_and_hides_names(name):
    source, inputs = TRICKY[name]
    entry = [n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)][-1]
    result = anonymise(source, entry)
    _assert_same_behaviour(source, entry, result.source, "f", inputs)
    left = {n.id for n in ast.walk(ast.parse(result.source)) if isinstance(n, ast.Name)}
    left |= {a.arg for a in ast.walk(ast.parse(result.source)) if isinstance(a, ast.arg)}
    assert not (_user_names(source) & left), _user_names(source) & left
    assert "f" in {n.name for n in ast.parse(result.source).body if isinstance(n, ast.FunctionDef)}
    # imports, attributes and strings are left alone
    for kept in ("Counter(", ".most_common(", "math.floor(", '"hit"', ".append("):
        if kept in source:
            assert kept in result.source


def test_keywords_bound_by_functools_partial_follow_the_renamed_parameters():
    source = '''
import functools
from functools import partial

def scaled(value, factor=1, offset=0):
    return value * factor + offset

def rescale(values, factor, shift):
    step = functools.partial(scaled, factor=factor, offset=shift)
    other = partial(scaled, offset=1)
    return [step(v) for v in values] + [other(v) for v in values]
'''
    result = anonymise(source, "rescale")
    assert "factor=" not in result.source and "offset=" not in result.source
    _assert_same_behaviour(source, "rescale", result.source, "f", [[[1, 2], 3, 4], [[], 1, 0], [[5], -1, 2]])


def test_a_class_body_that_rebinds_a_module_name_reads_the_renamed_one():
    """`LIMIT = LIMIT + 1` in a class body reads the module's LIMIT; `@size.setter` the class's own."""
    source = '''
LIMIT = 3

class Box:
    LIMIT = LIMIT + 1

    def __init__(self, items):
        self.items = items

    @property
    def size(self):
        return len(self.items)

    @size.setter
    def size(self, value):
        self.items = self.items[:value]

def pack(items, cut):
    box = Box(list(items))
    box.size = cut
    return [box.size, Box.LIMIT, LIMIT]
'''
    result = anonymise(source, "pack")
    _assert_same_behaviour(source, "pack", result.source, "f", [[[1, 2, 3], 2], [[], 1]])
    assert "LIMIT = v1 + 1" in result.source and "@size.setter" in result.source


def test_a_name_both_imported_and_assigned_is_left_alone():
    """Renaming the assignment but not the import would break one of the two branches."""
    source = '''
try:
    from math import isqrt
except ImportError:
    isqrt = None

def root(number):
    return isqrt(number) if isqrt is not None else int(number ** 0.5)
'''
    result = anonymise(source, "root")
    _assert_same_behaviour(source, "root", result.source, "f", [[10], [0]])
    assert result.source.count("isqrt") == 4 and "number" not in result.source


def test_a_name_an_f_string_prints_is_refused_with_the_reason():
    with pytest.raises(ValueError, match=r"prints the name count itself \({count=}\)"):
        anonymise("def show(count):\n    return f'{count=}'\n", "show")


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_instrumenter_keeps_the_output_and_adds_one_to_three_trackers(name):
    source, inputs = TRICKY[name]
    entry = [n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)][-1]
    anonymised = anonymise(source, entry).source
    code, trackers = instrument(anonymised)
    assert 1 <= len(trackers) <= 3
    results = _assert_same_behaviour(source, entry, code, "f", inputs, tracked=True)
    for result in results:
        assert list(result.stats) == [t.name for t in trackers]
        assert all(isinstance(v, int) for v in result.stats.values())


def test_tracker_values_count_what_they_say():
    source = '''
def walk(steps, limit):
    position = 0
    visited = []
    for step in steps:
        if step > 0:
            position += step
        visited.append(position)
        if len(visited) > limit:
            visited.pop(0)
    return position
'''
    code, trackers = instrument(anonymise(source, "walk").source)
    assert [t.kind for t in trackers] == ["loop_iterations", "branch_taken", "peak_size"]
    [result] = run_cases(code, "f", [[[1, -2, 3, 4, -1], 2]], tracked=True)
    assert result.output == 8
    assert result.stats == {"loop_iterations": 5, "branch_hits": 3, "peak_size": 3}


def test_recursive_entry_counts_every_call():
    source = '''
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
'''
    code, trackers = instrument(anonymise(source, "fib").source)
    results = _assert_same_behaviour(source, "fib", code, "f", [[0], [1], [6]], tracked=True)
    assert [r.stats["recursive_calls"] for r in results] == [1, 1, 25]
    assert [r.stats["branch_hits"] for r in results] == [1, 1, 13]


def test_helper_calls_count_every_run_of_the_helper():
    """The helper moves into f and counts itself, so calls in conditions and generators count too."""
    source = '''
def double(x):
    return 2 * x

def run(values):
    total = double(1) + double(2)
    if values and double(values[0]) > 100:
        total = 0
    return total + sum(double(v) for v in values)
'''
    code, trackers = instrument(anonymise(source, "run").source)
    assert "helper_calls" in [t.name for t in trackers]
    [result] = _assert_same_behaviour(source, "run", code, "f", [[[1, 2]]], tracked=True)
    assert result.stats["helper_calls"] == 5  # two in the first line, one in the condition, two in the sum


def test_a_function_with_nothing_to_count_is_refused():
    with pytest.raises(NothingToTrack):
        instrument(anonymise("def add(a, b):\n    return a + b\n", "add").source)


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_description_mentions_every_parameter_tracker_and_constant(name):
    source, _ = TRICKY[name]
    entry = [n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)][-1]
    code, trackers = instrument(anonymise(source, entry).source)
    if name in UNDESCRIBABLE:  # said plainly or not at all: these name what English cannot carry
        with pytest.raises(Undescribable, match=UNDESCRIBABLE[name]):
            describe(code, trackers, {}, "int")
        return
    text = describe(code, trackers, {}, "int")
    assert text.startswith("INPUTS:") and "\n\nLOGICS:" in text and "\n\nOUTPUTS:" in text
    assert uncovered(text, code, trackers) == [] and holds_code(text) == []


# ---- trackers chosen by running the cases (the instrument stage) ------------------------------------
def _stage(source, inputs, **settings):
    from ifforge.families.logicif.configs import TrackerConfig, from_settings
    from ifforge.families.logicif.records import SeedFunction, TestInput
    from ifforge.families.logicif.settings import LogicIFSettings
    from ifforge.families.logicif.stages import instrument as stage

    entry = [n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)][-1]
    seed = SeedFunction(task_id="t", source=source, entry=entry, origin="test",
                        inputs=[TestInput(args=args) for args in inputs])
    return stage.run(seed, from_settings(TrackerConfig, LogicIFSettings(**settings)))


def _gold(outcome, inputs):
    """Each tracker's values over the cases, after checking f still gives the seed's outputs."""
    function = outcome.kept
    expected = run_cases(function.original_source, function.original_entry, inputs)
    got = run_cases(function.instrumented_source, "f", inputs, tracked=True)
    assert [r.output for r in got] == [r.output for r in expected], [r.error for r in got]
    return {t.name: [r.stats[t.name] for r in got] for t in function.trackers}


def test_a_function_whose_loops_are_all_comprehensions_gets_trackers():
    source = '''
def pairs(values, limit):
    small = [v * v for v in values if v < limit]
    return small, sum(1 for v in values for w in values if v < w)
'''
    inputs = [[[1, 5, 2], 3], [[4, 4], 9], [[3, 1, 2, 0], 2], [[], 1], [[7, 1], 8]]
    outcome = _stage(source, inputs)
    assert outcome.kept is not None, outcome.dropped
    values = _gold(outcome, inputs)
    assert values["item_checks"] == [9, 4, 16, 0, 4]  # the nested generator's steps: len(values) squared
    assert values["items_kept"] == [3, 0, 6, 0, 1]  # the pairs it counts


GUARDED = '''
def walk(steps, start):
    if not isinstance(steps, list):
        raise TypeError("steps must be a list")
    position = start
    for step in steps:
        if step > 0:
            position += step
    return position
'''
GUARDED_INPUTS = [[[1, -2, 3], 0], [[-1, -1], 5], [[4, 4, 4, 1], 2], [[], 3], [[2], 1]]


def test_an_input_guard_that_never_fires_is_not_a_tracker():
    outcome = _stage(GUARDED, GUARDED_INPUTS)
    anchors = [t.anchor for t in outcome.kept.trackers]
    assert not any("isinstance" in anchor for anchor in anchors)
    assert _gold(outcome, GUARDED_INPUTS) == {"branch_hits": [2, 0, 4, 0, 1]}


def test_a_tracker_equal_to_an_inputs_length_is_not_chosen():
    outcome = _stage(GUARDED, GUARDED_INPUTS)
    assert "loop_iterations" not in [t.kind for t in outcome.kept.trackers]  # the loop runs len(steps) times
    for values in _gold(outcome, GUARDED_INPUTS).values():
        assert values != [len(args[0]) for args in GUARDED_INPUTS]


def test_identical_candidates_yield_one_tracker():
    source = '''
def evens(numbers):
    kept = []
    for n in numbers:
        if n % 2 == 0:
            kept.append(n)
    return kept
'''
    inputs = [[[1, 2, 4]], [[3]], [[2, 2, 2, 5]], [[]], [[6, 1]]]
    outcome = _stage(source, inputs)
    assert len(outcome.kept.trackers) == 1  # times the branch is taken == largest size of the list
    assert list(_gold(outcome, inputs).values()) == [[2, 0, 3, 0, 1]]


def test_a_re_sub_callback_is_counted():
    source = '''
import re

def shout(text, least):
    def loud(match):
        word = match.group(0)
        return word.upper() if len(word) >= least else word
    return re.sub(r"[a-z]+", loud, text) + re.sub(r"[0-9]+", lambda m: str(int(m.group(0)) * 2), text)
'''
    inputs = [["ab cde f", 2], ["x1 y22", 1], ["", 3], ["hello 7 world 8 and 9", 4], ["q", 1]]
    outcome = _stage(source, inputs)
    values = _gold(outcome, inputs)
    counted = {t.anchor: values[t.name] for t in outcome.kept.trackers if t.kind == "helper_calls"}
    assert [3, 2, 0, 3, 1] in counted.values()  # the inner function runs once per word
    assert [0, 2, 0, 3, 0] in counted.values()  # the lambda once per number


def test_a_helper_called_through_an_alias_is_counted():
    source = '''
def bump(x):
    return x + 1

def climb(values):
    step = bump
    total = step(0)
    for v in values:
        if v > 2:
            total = step(step(total))
    return total
'''
    inputs = [[[1, 5, 3]], [[0]], [[9, 9, 9]], [[]], [[4, 1, 1, 1]]]
    outcome = _stage(source, inputs)
    values = _gold(outcome, inputs)
    helper = next(t for t in outcome.kept.trackers if t.kind == "helper_calls")
    assert values[helper.name] == [5, 1, 7, 1, 3]  # 1 + 2 per value above 2


def test_a_function_where_nothing_varies_is_dropped_with_the_reason():
    source = '''
def total(values):
    result = 0
    for v in values:
        result += v
    return result
'''
    outcome = _stage(source, [[[1, 2]], [[3]], [[4, 5, 6]]])
    assert outcome.kept is None
    [drop] = outcome.dropped
    assert drop.reason == "no_informative_tracker" and "argument 1's length" in drop.detail


def test_a_tracker_reaching_the_case_limit_is_not_chosen():
    source = '''
def spin(n, m):
    count = 0
    for i in range(n * 10):
        if i % m == 0:
            count += 1
    return count
'''
    inputs = [[1, 3], [2, 4], [6, 5], [3, 2]]
    outcome = _stage(source, inputs)
    assert [t.kind for t in outcome.kept.trackers] == ["branch_taken"]  # the loop reaches 60
    assert _gold(outcome, inputs) == {"branch_hits": [4, 5, 12, 15]}


def test_a_peak_size_sees_growth_through_a_helper():
    """The running max is taken after every line naming the container, not only after its own appends."""
    from ifforge.families.logicif.codeops.instrument.trackers import build, propose

    source = '''
def add_all(target, values):
    for v in values:
        target.append(v)

def run(values):
    seen = []
    seen.append(0)
    add_all(seen, values)
    return len(seen) * 2
'''
    probe = propose(anonymise(source, "run").source)
    code, trackers = build(probe, [c for c in probe.candidates if c.role == "peak"])
    inputs = [[[1, 2]], [[]], [[5, 5, 5, 5]]]
    results = _assert_same_behaviour(source, "run", code, "f", inputs, tracked=True)
    assert [r.stats["peak_size"] for r in results] == [3, 1, 5]


def test_a_generator_nested_in_a_comprehension_or_a_lambda_is_counted():
    from ifforge.families.logicif.codeops.instrument.trackers import build, propose

    source = '''
def count(grid, mark):
    per_row = [sum(1 for c in row if c == mark) for row in grid if row]
    return per_row, sorted(grid, key=lambda r: sum(x == mark for x in r))
'''
    probe = propose(anonymise(source, "count").source)
    nested = [c for c in probe.candidates if len(c.needs) == 2]  # inside the comprehension, inside the lambda
    assert sorted(c.role for c in nested) == ["again", "again", "falsy", "falsy", "iter", "iter", "kept"]
    inputs = [[["ab#", "##", ""], "#"], [["x"], "x"], [[], "#"]]
    for candidate in nested:
        code, [tracker] = build(probe, [candidate])
        results = _assert_same_behaviour(source, "count", code, "f", inputs, tracked=True)
        counted = [r.stats[tracker.name] for r in results]
        # kept: the marks found; iterations: the characters looked at, in rows kept or in every sort key;
        # false items: none of the 1s counted, the characters of sort keys that are not the mark; items
        # made before: the second 1 of the row "##", a repeat in each sort key of "ab#" and "##"
        expected = {"kept": [3, 1, 0], "iter": [5, 1, 0], "falsy": [0, 0, 0] if candidate.order < 2 else [2, 0, 0],
                    "again": [1, 0, 0] if candidate.order < 2 else [2, 0, 0]}
        assert counted == expected[candidate.role], candidate


def test_the_choice_is_the_same_on_every_run():
    first, second = _stage(GUARDED, GUARDED_INPUTS), _stage(GUARDED, GUARDED_INPUTS)
    assert first.model_dump() == second.model_dump()


def test_a_generator_read_whole_becomes_a_list_and_one_cut_short_stays_lazy():
    from ifforge.families.logicif.codeops.instrument.trackers import build, propose

    source = '''
def scan(values):
    return any(v > 2 for v in values), sum(v for v in values if v > 0)
'''
    probe = propose(anonymise(source, "scan").source)
    code, trackers = build(probe, [c for c in probe.candidates if c.role == "iter"])
    assert code.count("yield") == 1  # any() stops at the first hit; sum() reads every item anyway
    inputs = [[[1, 5, 2, 9]], [[0, 1]], [[3]]]
    results = _assert_same_behaviour(source, "scan", code, "f", inputs, tracked=True)
    assert [[r.stats[t.name] for t in trackers] for r in results] == [[2, 4], [2, 2], [1, 1]]


def test_cases_with_different_argument_counts_and_a_bytes_default_do_not_break_instrument():
    source = '''
def scan(values, limit=3, tag=b"x"):
    kept = 0
    for v in values:
        if v > limit:
            kept += v
    return kept
'''
    inputs = [[[1, 5, 2]], [[4, 4], 1], [[9, 1, 7, 2], 5], [[], 2], [[8, 6]]]
    outcome = _stage(source, inputs)
    assert outcome.kept is not None, outcome.dropped
    import json

    from ifforge.families.logicif.codeops.inputs.candidates import candidates

    made = candidates(source, "scan", seed=1, count=20)  # the bytes default is no input to reuse
    assert made and all(json.dumps(c.args) for c in made)


IN_PLACE = {  # source, entry, arguments, the parameters it changes
    "swap_and_recurse": ('''
def sift(arr, n, i) -> None:
    top = i
    left = 2 * i + 1
    if left < n and arr[left] > arr[top]:
        top = left
    if top == i:
        return
    arr[i], arr[top] = arr[top], arr[i]
    sift(arr, n, top)
''', "sift", [[1, 5, 3, 4], 4, 0], ["arr"]),
    "method_through_an_item_and_an_alias": ('''
def add(table, key, extra=''):
    rows = table
    if key in rows:
        rows[key][-1] += extra
    else:
        rows.setdefault(key, []).append(extra)
''', "add", [{"a": ["x"]}, "a", "y"], ["table"]),
    "a_helper_and_a_closure": ('''
def _mark(grid, i, j):
    if 0 <= i < len(grid) and 0 <= j < len(grid[i]) and grid[i][j] == 1:
        grid[i][j] = 2
        _mark(grid, i + 1, j)
        _mark(grid, i, j + 1)

def fill(grid, out):
    def note(v):
        out.append(v)
    for row in grid:
        for j in range(len(row)):
            if row[j] == 1:
                note(j)
                _mark(grid, 0, j)
                return None
''', "fill", [[[0, 1], [1, 1]], []], ["grid", "out"]),
}

NOT_IN_PLACE = {
    "returns_a_value": "def f(a):\n    a.append(1)\n    return len(a)\n",
    "rebinds_it": "def f(a):\n    a = sorted(a)\n    a.append(1)\n",
    "a_slice_is_a_copy": "def f(a):\n    b = a[1:]\n    b[0] = 9\n    a[:2].sort()\n",
    "only_a_global": "SEEN = []\n\ndef f(a):\n    for x in a:\n        if x:\n            SEEN.append(x)\n",
    "only_prints": "def f(a):\n    for x in a:\n        print(x)\n",
    "its_value_read_by_a_recursive_call":
        "def f(a, n):\n    if n:\n        a[n - 1] = 0\n        if f(a, n - 1):\n            a.pop()\n",
    "a_generator": "def f(a):\n    a.append(1)\n    yield a\n",
    "an_inner_function_binds_the_name": "def f(a):\n    def g(a=[]):\n        a.append(1)\n    g()\n",
}


@pytest.mark.parametrize("name", sorted(IN_PLACE))
def test_a_function_that_changes_an_argument_and_returns_nothing_returns_that_argument(name):
    from ifforge.families.logicif.codeops.instrument.changed_arguments import changed_parameters, return_changed
    source, entry, args, changed = IN_PLACE[name]
    assert changed_parameters(source, entry) == changed
    before = {}
    exec(source, before)
    given = [__import__("copy").deepcopy(a) for a in args]
    assert before[entry](*given) is None  # the original: nothing returned, the arguments changed
    rewritten = return_changed(source, entry)
    after = {}
    exec(rewritten, after)
    names = ast.parse(source).body[-1].args.args
    left = [given[[p.arg for p in names].index(c)] for c in changed]
    assert after[entry](*args) == (left[0] if len(left) == 1 else left) and args != [] and left[0] is not None
    assert "-> None" not in rewritten


@pytest.mark.parametrize("name", sorted(NOT_IN_PLACE))
def test_a_function_that_returns_a_value_or_changes_nothing_of_its_own_stays_as_it_is(name):
    from ifforge.families.logicif.codeops.instrument.changed_arguments import changed_parameters, return_changed
    source = NOT_IN_PLACE[name]
    assert changed_parameters(source, "f") == [] and return_changed(source, "f") == source


def test_the_stage_falls_back_on_items_that_count_as_false_when_nothing_else_tells():
    source = "def digits(text):\n    return [int(x) for x in text]\n"  # one walk of the argument, no branch
    inputs = [["10"], ["5"], ["100"], ["2200"], ["07"]]
    outcome = _stage(source, inputs)
    assert outcome.kept is not None, outcome.dropped
    assert _gold(outcome, inputs) == {"false_items": [1, 0, 2, 2, 1]}
    nothing = _stage(source, [["12"], ["5"], ["345"], ["6789"]])  # no zero: every counter tells nothing
    assert nothing.kept is None and "none of 1 candidate" in nothing.dropped[0].detail
