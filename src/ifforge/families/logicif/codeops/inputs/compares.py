"""Inputs the code asks for while it runs: the operands of its comparisons, put back into the input.

A check such as `word.lower() in TABLE`, `key == prefix + "x"`, `s.startswith(MARKS[k])`,
`table.get(name)` or `d[k]` compares a piece of the input with a value that may exist only at run
time (made from a module table, a slice, a lowered copy), so no static reading of the code finds it.
Fuzzers call the remedy input-to-state correspondence: run the code once on a candidate recording
both operands of every comparison; where one operand is a value of the input (or its lowered,
upper-cased, stripped, `int` or `str` copy, `ord` of a character, a piece of a text, or a length), put
the other operand in its place. A text split at run time (`s.split(s[k])`) is recorded with its number
of parts, and a comparison of that number with another (`len(parts) != 5`) gives the text with as
many parts (`_parted`: numbered fields put in after the first part, or fields taken out). An expression the code compiles or matches (`re.compile` of a
character class made from a table's ranges, say) is recorded too, and gives texts it matches.

`probe_source` rewrites a copy of the seed with `ast` (the copy is only run, never shown): every
comparison (`==`, `<`, `in`, ... ; `is` left alone), the substring methods (`startswith`, `endswith`,
`find`, `index`, `count`, `split`, `partition`, `replace`), `get` and `d[k]` lookups that miss, and
the `re` calls call a recorder first; a wrapper entry calls the seed's entry, swallows what it raises and returns the
recorded (kind, operand, operand) triples, JSON values only and capped in number and size. The probe
runs in the sandbox like any call (`stages.inputs.correspond`). `suggestions` turns a call's record
into new calls to run, in this process on JSON data alone. Whatever they return is found by running
them on the unchanged seed; the probe only proposes.
"""

from __future__ import annotations

import ast
import copy
import functools
import random
import re
from typing import Any

from ifforge.core import pyast
from ifforge.families.logicif.codeops.inputs.mutate import _get, _paths_all, _set
from ifforge.families.logicif.codeops.inputs.texts import _parse, matching

PROBE = "_ifp_probe"  # the wrapper entry of the rewritten copy
ORDERS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
          ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}
TEXT_METHODS = {"startswith": "startswith", "endswith": "endswith", "removeprefix": "startswith",
                "removesuffix": "endswith", "find": "in", "rfind": "in", "index": "in", "rindex": "in",
                "count": "in", "split": "in", "rsplit": "in", "partition": "in", "rpartition": "in",
                "replace": "in"}
# the `re` functions and pattern methods whose expression and text are recorded (the expression may be made
# at run time: a character class of a table's ranges)
REGEX_METHODS = {"compile", "match", "search", "fullmatch", "findall", "finditer", "split"}
PER_CALL = 64  # new calls drawn from one call's record
TOGETHER = 4  # calls with two recorded comparisons' values at once, first of a call's suggestions
SPLITS = ("split", "rsplit")  # whose number of parts is recorded, as ["split", text, [separator, parts]]
MOST_PARTS = 16  # a count of parts compared with a larger number is no field count
KINDS = {*(o for o in ORDERS.values() if not o.startswith("is")), "startswith", "endswith"}

RECORDER = '''
import re as _ifp_re
_ifp_log = []
_ifp_seen = set()
_ifp_size = [0]
_ifp_no = object()
_IFP_OPS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
            "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
            "is": lambda a, b: a is b, "is not": lambda a, b: a is not b}


def _ifp_json(value, inner=False):
    kind = type(value)
    if value is None or kind is bool:
        return value
    if kind is int:
        return value if -2 ** 53 < value < 2 ** 53 else _ifp_no
    if kind is float:
        return value if value == value and abs(value) < 1e300 else _ifp_no
    if kind is str:
        return value if len(value) <= (100 if inner else 400) else _ifp_no
    if not inner and kind in (list, tuple, set, frozenset, dict, range):
        found = []
        for item in value:
            item = _ifp_json(item, True)
            if item is not _ifp_no:
                found.append(item)
                if len(found) >= 32:
                    break
        return found
    return _ifp_no


def _ifp_note(kind, left, right):
    if len(_ifp_log) >= 300 or _ifp_size[0] > 200000:
        return
    left, right = _ifp_json(left), _ifp_json(right)
    if left is _ifp_no or right is _ifp_no:
        return
    key = repr((kind, left, right))
    if key not in _ifp_seen:
        _ifp_seen.add(key)
        _ifp_size[0] += len(key)
        _ifp_log.append([kind, left, right])


def _ifp_compare(operands, ops):
    for number, op in enumerate(ops):
        left, right = operands[number], operands[number + 1]
        if op not in ("is", "is not"):
            _ifp_note(op, left, right)
        if not _IFP_OPS[op](left, right):
            return False
    return True


def _ifp_key(container, key):
    if isinstance(container, dict) and key not in container:
        _ifp_note("in", key, container)
    return container[key]


def _ifp_get(container, *args, **kwargs):
    if isinstance(container, dict) and args and args[0] not in container:
        _ifp_note("in", args[0], container)
    return container.get(*args, **kwargs)


def _ifp_regex(name, receiver, args, kwargs):
    if isinstance(receiver, _ifp_re.Pattern):
        pattern, subject, flags = receiver.pattern, args[0] if args else None, receiver.flags
    elif args and isinstance(args[0], (str, _ifp_re.Pattern)) and not isinstance(receiver, str):
        pattern, subject = args[0], None if name == "compile" else args[1] if len(args) > 1 else None
        flags = args[1 if name == "compile" else 2] if len(args) > (1 if name == "compile" else 2) else 0
        if isinstance(pattern, _ifp_re.Pattern):
            pattern, flags = pattern.pattern, pattern.flags
        flags = kwargs.get("flags", flags)
    else:
        return
    if type(pattern) is str and len(pattern) <= 5000 and (subject is None or type(subject) is str and len(subject) <= 400) \
            and len(_ifp_log) < 300 and _ifp_size[0] < 200000:
        key = repr((subject, pattern))
        if key not in _ifp_seen:
            _ifp_seen.add(key)
            _ifp_size[0] += len(key)
            _ifp_log.append(["regex", subject, [pattern, int(flags)]])


def _ifp_parts(receiver, args, kwargs, parts):
    sep = args[0] if args else kwargs.get("sep")
    if type(receiver) is str and len(receiver) <= 400 and type(parts) is list and (sep is None or type(sep) is str) \
            and len(_ifp_log) < 300 and _ifp_size[0] < 200000:
        key = repr(("split", receiver, sep))
        if key not in _ifp_seen:
            _ifp_seen.add(key)
            _ifp_size[0] += len(key)
            _ifp_log.append(["split", receiver, [sep, len(parts)]])


def _ifp_text(kind, receiver, args):
    if args and isinstance(receiver, str):
        wanted = args[0]
        for one in (wanted if isinstance(wanted, tuple) else (wanted,)):
            if kind == "in":
                _ifp_note("in", one, receiver)
            else:
                _ifp_note(kind, receiver, one)
'''

WRAPPER = '''

def _ifp_probe(*args):
    try:
        {entry}(*args)
    except Exception:
        pass
    return _ifp_log
'''


def _method(name: str) -> str:
    records = (f"    _ifp_text({TEXT_METHODS[name]!r}, receiver, args)\n" if name in TEXT_METHODS else "") \
        + (f"    _ifp_regex({name!r}, receiver, args, kwargs)\n" if name in REGEX_METHODS else "")
    if name in SPLITS:  # the number of parts too: `len(parts) != 5` then says how many the text should have
        return (f"\n\ndef _ifp_m_{name}(receiver, *args, **kwargs):\n{records}"
                f"    made = receiver.{name}(*args, **kwargs)\n    _ifp_parts(receiver, args, kwargs, made)\n    return made\n")
    return f"\n\ndef _ifp_m_{name}(receiver, *args, **kwargs):\n{records}    return receiver.{name}(*args, **kwargs)\n"


class _Recording(ast.NodeTransformer):
    """Calls the recorder at every comparison, substring method, `get` and subscript read inside functions."""

    def __init__(self):
        self.depth = 0

    def visit_FunctionDef(self, node):
        node.returns = None
        for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg, node.args.kwarg]:
            if arg is not None:
                arg.annotation = None
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1
        return node

    def visit_AnnAssign(self, node):
        if node.value is not None:
            node.value = self.visit(node.value)
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        if not self.depth or all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):
            return node
        call = ast.Call(ast.Name("_ifp_compare", ast.Load()),
                        [ast.List([node.left, *node.comparators], ast.Load()),
                         ast.List([ast.Constant(ORDERS[type(op)]) for op in node.ops], ast.Load())], [])
        return ast.copy_location(call, node)

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if not self.depth or not isinstance(node.ctx, ast.Load) \
                or any(isinstance(part, ast.Slice) for part in [node.slice, *getattr(node.slice, "elts", [])]):
            return node
        return ast.copy_location(ast.Call(ast.Name("_ifp_key", ast.Load()), [node.value, node.slice], []), node)

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if not self.depth or not isinstance(func, ast.Attribute) or func.attr not in (*TEXT_METHODS, *REGEX_METHODS, "get"):
            return node
        name = "_ifp_get" if func.attr == "get" else f"_ifp_m_{func.attr}"
        return ast.copy_location(ast.Call(ast.Name(name, ast.Load()), [func.value, *node.args], node.keywords), node)


def probe_source(source: str, entry: str) -> str | None:
    """A copy of `source` whose functions record their comparisons, with `PROBE(*args)` calling
    `entry` and returning the record; None when the source cannot be read or rewritten."""
    try:
        tree = pyast.parse(source)
        tree = ast.fix_missing_locations(_Recording().visit(tree))
        body = ast.unparse(tree)
    except (SyntaxError, ValueError, RecursionError, TypeError, AttributeError):
        return None
    lines = body.splitlines()
    futures = 0
    for number, line in enumerate(lines):  # `from __future__` stays first
        if line.startswith("from __future__"):
            futures = number + 1
    prelude = RECORDER + "".join(_method(name) for name in sorted({*TEXT_METHODS, *REGEX_METHODS}))
    return "\n".join([*lines[:futures], prelude, *lines[futures:], WRAPPER.format(entry=entry)])


# -- from a record to new calls (JSON data only) ---------------------------------------------------

def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _same(leaf: Any, operand: Any) -> bool:
    """The operand is the leaf itself (same JSON kind, equal)."""
    if _number(leaf) and _number(operand):
        return leaf == operand
    return type(leaf) is type(operand) and leaf == operand


def _whole(text: str) -> int | None:
    try:
        return int(text) if len(text) < 16 else None
    except ValueError:
        return None


def _resized(leaf: str | list):
    """Bring a length back to the leaf: cut it, or repeat its last item (a letter when empty)."""
    def back(other):
        if not (_number(other) and other == int(other) and 0 <= other <= 64):
            return None
        other, filler = int(other), leaf[-1:] or ("a" if isinstance(leaf, str) else [0])
        return leaf[:other] + filler * (other - len(leaf)) if other > len(leaf) else leaf[:other]
    return back


def _character(other):
    if _number(other) and other == int(other) and 0 <= other < 0x110000 and not 0xD800 <= other < 0xE000:
        return chr(int(other))
    return None


def _copies(leaf: Any) -> list[tuple[Any, Any, bool]]:
    """(what the code may have made of the leaf, how to bring a value of that kind back to the leaf's
    kind, whether the match is weak): lowered, upper-cased, stripped, `int` of a text of digits, `str` of
    a number, `ord` of a character; weak: the length of a text or list (small numbers are everywhere)."""
    found = []
    if isinstance(leaf, str):
        for made in (leaf.lower(), leaf.upper(), leaf.strip(), leaf.casefold()):
            if made != leaf:
                found.append((made, lambda other: other if isinstance(other, str) else None, False))
        if _whole(leaf) is not None:
            found.append((_whole(leaf), lambda other: str(int(other)) if _number(other) and other == int(other)
                          and abs(other) < 1e15 else None, False))
        if len(leaf) == 1:
            found.append((ord(leaf), _character, False))
    elif _number(leaf) and leaf == int(leaf) and abs(leaf) < 1e15:
        found.append((str(int(leaf)), lambda other: _whole(other) if isinstance(other, str) else None, False))
    if isinstance(leaf, (str, list)):
        found.append((len(leaf), _resized(leaf), True))
    return found


def _others(kind: str, other: Any, rng: random.Random) -> list:
    """The values to try in the leaf's place, given the comparison's other operand."""
    if kind == "in" and isinstance(other, list):
        return rng.sample(other, min(len(other), 6))
    if kind == "in" and isinstance(other, str):
        pieces = [other] + [other[i:i + 1] for i in range(min(len(other), 40))]
        return list(dict.fromkeys(rng.sample(pieces, min(len(pieces), 4)) + [other]))
    if kind in ("<", "<=", ">", ">=") and _number(other):
        return [other, other + 1, other - 1]
    return [other]


def _texts_with(leaf: str, piece: str, kind: str, other: Any) -> list[str]:
    """The leaf text with the part the code compared (`piece`, found in it) given the other operand:
    replaced by it, or for a prefix or suffix test, with it put before or after that part."""
    found = []
    starts = [i for i in range(len(leaf)) if leaf.startswith(piece, i)][:3]
    for start in starts:
        end = start + len(piece)
        if kind == "startswith" and isinstance(other, str):
            found += [leaf[:start] + other + leaf[start:], leaf[:start] + other + leaf[end:]]
        elif kind == "endswith" and isinstance(other, str):
            found += [leaf[:end] + other + leaf[end:], leaf[:start] + other + leaf[end:]]
        elif isinstance(other, str):
            found.append(leaf[:start] + other + leaf[end:])
    return found


def _containing(leaf: Any, kind: str, wanted: Any) -> list:
    """A leaf the code searched for `wanted` in (`x in leaf`, `leaf.startswith(x)`): it holding `wanted`."""
    if isinstance(leaf, str) and isinstance(wanted, str) and wanted and wanted not in leaf:
        if kind == "startswith":
            return [wanted + leaf, wanted]
        if kind == "endswith":
            return [leaf + wanted, wanted]
        return [wanted, wanted + leaf, leaf + wanted, leaf[:len(leaf) // 2] + wanted + leaf[len(leaf) // 2:]]
    if isinstance(leaf, list) and kind == "in" and wanted not in leaf and not isinstance(wanted, list):
        return [[*leaf, wanted], [wanted, *leaf]]
    if isinstance(leaf, dict) and kind == "in" and isinstance(wanted, str) and wanted not in leaf:
        # a key the code looked up and missed (`d[k]`, `d.get(k)`, `k in d`): it added, with a value the
        # dict holds already (the kind the code reads there) or a small number
        values = [value for value in leaf.values() if not isinstance(value, (list, dict))][:1]
        return [{**leaf, wanted: copy.deepcopy(value)} for value in [*values, *([1] if 1 not in values else [])]]
    return []


def _keys_of(leaf: Any, right: Any) -> bool:
    """The recorded container is this dict: the recorder keeps a dict as the list of its keys."""
    return isinstance(leaf, dict) and isinstance(right, list) and list(leaf)[:32] == right


def _from_entry(kind: str, left: Any, right: Any, leaf: Any, rng: random.Random) -> tuple[list, list, list]:
    """The values to put in place of one leaf from one recorded triple: (exact, copies, pieces)."""
    exact, copied, pieces = [], [], []
    kind = "in" if kind == "not in" else kind
    if kind in ("startswith", "endswith"):  # left: the text tested; right: the prefix or suffix
        if _same(leaf, left) or any(_same(made, left) for made, _, weak in _copies(leaf) if not weak):
            exact += _containing(leaf, kind, right)
        elif isinstance(leaf, str) and isinstance(left, str) and left and left in leaf:
            pieces += _texts_with(leaf, left, kind, right)
        return exact, copied, pieces
    sides = [(left, right, kind)]
    if kind == "in":  # left: what is looked for; right: where (a text, or a container's items or keys)
        if _same(leaf, right) or _keys_of(leaf, right) or isinstance(leaf, str) and any(
                _same(made, right) for made, _, weak in _copies(leaf) if not weak):
            exact += _containing(leaf, kind, left)
    else:
        sides.append((right, left, {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(kind, kind)))
    for mine, other, how in sides:
        if _same(leaf, mine):
            exact += _others(how, other, rng)
            continue
        for made, back, weak in _copies(leaf):
            if _same(made, mine):
                (pieces if weak else copied).extend(back(new) for new in _others(how, other, rng))
        if isinstance(leaf, str) and isinstance(mine, str) and mine and mine != leaf and mine in leaf:
            pieces += [text for new in _others(how, other, rng) for text in _texts_with(leaf, mine, how, new)]
        if isinstance(leaf, str) and len(leaf) > 1 and _number(mine) and mine == int(mine) and 0 <= mine < 0x110000 \
                and chr(int(mine)) in leaf:  # the code point of one of its characters (`ord(s[i]) < 128`)
            pieces += [text for new in _others(how, other, rng) if _character(new)
                       for text in _texts_with(leaf, chr(int(mine)), "==", _character(new))]
    return exact, copied, pieces


def _places(args: list) -> list[tuple[tuple, Any, bool]]:
    """(path, value, is a key) of every value inside the arguments, and of every key of their dicts."""
    found = []
    for path, value in _paths_all(args)[1:]:
        found.append((path, value, False))
        if isinstance(value, dict):
            found += [((*path, key), key, True) for key in list(value)[:16]]
    return found


def _with(args: list, path: tuple, new: Any, key: bool) -> list | None:
    """A copy of the arguments with the value (or the dict key) at `path` made `new`."""
    args = copy.deepcopy(args)
    if not key:
        return _set(args, path, copy.deepcopy(new))
    table = _get(args, path[:-1])
    if not isinstance(new, str) or new in table:
        return None
    renamed = {new if name == path[-1] else name: value for name, value in table.items()}
    return _set(args, path[:-1], renamed)


@functools.lru_cache(maxsize=64)
def _expression(pattern: str, flags: int):
    """The compiled and parsed expression (as `codeops.inputs.texts` generates texts from), or None."""
    try:
        return re.compile(pattern, flags), _parse.parse(pattern, flags)
    except (re.error, ValueError, TypeError, OverflowError, RecursionError):
        return None


def _matched(leaf: Any, subject: Any, expression: list, rng: random.Random) -> tuple[list, list, list]:
    """Texts the recorded expression matches, for a text leaf that was its subject (or a copy of it,
    or held it), or for any text leaf when only the expression's making was seen (`re.compile`)."""
    if not isinstance(leaf, str) or not (isinstance(expression, list) and len(expression) == 2
                                          and isinstance(expression[0], str) and isinstance(expression[1], int)):
        return [], [], []
    made = _expression(*expression)
    texts = [] if made is None else list(dict.fromkeys(
        text for text in (matching(*made, rng) for _ in range(3)) if text is not None))
    if subject is None:
        return [], [], [*texts, *(leaf + text for text in texts)]
    if _same(leaf, subject) or any(_same(copied, subject) for copied, _, weak in _copies(leaf) if not weak):
        return texts, [], []
    if isinstance(subject, str) and subject and subject in leaf:
        return [], [], [text for new in texts for text in _texts_with(leaf, subject, "==", new)]
    return [], [], []


def _parted(text: str, sep: str | None, count: int) -> str | None:
    """The text split at `sep` (None: white space) made to have `count` parts: numbered fields put
    in (after the first part, so what the code checks at both ends stays) or fields taken out."""
    joiner = " " if sep is None else sep
    parts = text.split(sep)
    if not joiner or not 1 <= count <= MOST_PARTS or count == len(parts):
        return None
    if count < len(parts):
        return joiner.join(parts[:count - 1] + parts[-1:] if count > 1 else parts[:1])
    digits = [str(n) for n in range(1, 10) if str(n) not in joiner]
    fill = [digits[n % len(digits)] if digits else "a" for n in range(count - len(parts))]
    return joiner.join(parts[:1] + fill + parts[1:])


def _split_counts(record: list, rng: random.Random) -> list[tuple[str, str]]:
    """(a text the code split, the same text with the number of parts a comparison asked for) from
    a record: a split giving k parts and a comparison of k with a number (`len(parts) != 5`)."""
    numbers = [(entry[0], entry[1], entry[2]) for entry in record if isinstance(entry, list) and len(entry) == 3
               and entry[0] in ORDERS.values() and _number(entry[1]) and _number(entry[2])]
    found = []
    for entry in record:
        if not (isinstance(entry, list) and len(entry) == 3 and entry[0] == "split" and isinstance(entry[1], str)
                and isinstance(entry[2], list) and len(entry[2]) == 2 and (entry[2][0] is None or
                                                                            isinstance(entry[2][0], str))):
            continue
        text, (sep, count) = entry[1], entry[2]
        for kind, left, right in numbers:
            for mine, other, how in ((left, right, kind), (right, left, kind)):
                if mine == count:
                    for wanted in _others(how, other, rng):
                        made = _parted(text, sep, int(wanted)) if wanted == int(wanted) else None
                        if made is not None:
                            found.append((text, made))
    return list(dict.fromkeys(found))


def _first_exact(args: list, places: list, entry: list, rng: random.Random) -> tuple | None:
    """(path, key, value) of the first place in the arguments one recorded comparison asks an exact value
    for, and the first such value; None when it asks for none."""
    for path, leaf, key in places:
        for new in _from_entry(*entry, leaf, rng)[0]:
            if not (new is None and leaf is not None) and isinstance(new, bool) == isinstance(leaf, bool) \
                    and not _same(leaf, new):
                return path, key, new
    return None


def _together(args: list, record: list, rng: random.Random) -> list[list]:
    """Calls with the values two comparisons recorded one after the other ask for put in at once, each at
    the first place it fits: checks that must pass together (`k in (kind, "*") and s in (sub, "*")`) pass
    for no call that changes one value, and such checks are recorded next to each other."""
    places = [(path, leaf, key) for path, leaf, key in _places(args)]
    asked = [_first_exact(args, places, entry, rng) for entry in record
             if isinstance(entry, list) and len(entry) == 3 and entry[0] in KINDS]
    asked = [one for one in asked if one is not None]
    found = []
    for first, second in zip(asked, asked[1:]):
        if first[0][:len(second[0])] == second[0] or second[0][:len(first[0])] == first[0]:
            continue  # one place, or one inside the other
        (path, key, new), (other, other_key, other_new) = first, second
        made = _with(args, path, new, key)
        made = made and _with(made, other, other_new, other_key)
        if made and made not in found:
            found.append(made)
        if len(found) >= TOGETHER:
            break
    return found


def suggestions(args: list, record: list, rng: random.Random, limit: int = PER_CALL) -> list[list]:
    """New calls from one call's record: for every (kind, left, right) triple, each value of the
    arguments (or key of their dicts) that one operand is (or a copy of it, or a piece of a text) with
    the other operand in its place, at every place that value occurs; the exact matches first, then
    copies, then pieces and lengths."""
    groups: tuple[list, list, list] = ([], [], [])
    counted = _split_counts(record, rng)
    for path, leaf, key in _places(args):
        for text, made in counted if isinstance(leaf, str) and not key else ():
            if leaf == text:
                groups[0].append((path, leaf, key, made))
            elif text and text in leaf:
                groups[2].extend((path, leaf, key, new) for new in _texts_with(leaf, text, "==", made))
        for entry in record:
            if not (isinstance(entry, list) and len(entry) == 3 and entry[0] in (*KINDS, "regex")) \
                    or key and entry[0] == "regex":
                continue
            made = _matched(leaf, entry[1], entry[2], rng) if entry[0] == "regex" else _from_entry(*entry, leaf, rng)
            for group, values in zip(groups, made):
                group += [(path, leaf, key, value) for value in values]
    found, seen = [], set()
    for group in groups:
        rng.shuffle(group)
    found += _together(args, record, random.Random(len(record)))  # its own draws: the others' stay as they were
    for group in groups:
        for path, leaf, key, new in group:
            if new is None and leaf is not None or isinstance(new, bool) != isinstance(leaf, bool) \
                    or _same(leaf, new) or (path, key, repr(new)) in seen:
                continue
            seen.add((path, key, repr(new)))
            made = _with(args, path, new, key)
            if made is not None:
                found.append(made)
                if len(found) >= limit:
                    break
    return found
