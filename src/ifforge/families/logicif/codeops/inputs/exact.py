"""Exact values the code compares a part of an argument with, for a seed the search left at one output.

Two kinds of check recur in any library and are all but never met by random values:
- a fixed place of an argument compared with constants: a file header's magic bytes
  (`h[0] == ord(b'P') and h[1] in b'14'`), a flag character (`s[0] in "+-"`), a prefix
  (`s[:2] == "0x"`, `s[:2] in PREFIXES`): `places` reads (argument, position, constants) and
  `at_places` writes a text or a list of whole numbers holding one of the constants at each place
  (a byte string's items are the numbers a JSON list can carry);
- a code point compared with ranges (`lo <= ord(ch) <= hi`, tables of ranges): `points` reads the
  whole numbers in the code that are characters beyond ASCII, where it calls `ord`, and `code_point`
  puts such a character, or its neighbour just outside the range, into a text.
Both are read from the code alone (never a function's name) and are used by the rescue only when the
code has them (`codeops.inputs.rescue`): other seeds draw as before. Nothing here runs code.
"""

from __future__ import annotations

import ast
import random
import string

from ifforge.families.logicif.codeops.inputs.mutate import _collections, _get, _paths, _set

MAX_PLACE = 16  # a constant index beyond this is no header field
MAX_POINTS = 64  # code points kept, the first in the code's order
OUTSIDE_ASCII = 0x80


def _values(node: ast.AST, membership: bool, named: dict) -> list | None:
    """The constants `node` stands for: a number, a text, `ord("P")`, a tuple, list or set of them, a
    module-level collection's items; on the right of `in`, a text's characters or a byte string's
    numbers too. None when it is anything else."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ord" \
            and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, (str, bytes)) and len(node.args[0].value) == 1:
        return [ord(node.args[0].value)]
    if isinstance(node, ast.Constant) and isinstance(node.value, bytes) and membership:
        return list(node.value)
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and membership and len(node.value) <= 32:
        return list(node.value)
    if isinstance(node, ast.Constant) and type(node.value) in (int, str):
        return [node.value]
    items = named.get(node.id) if isinstance(node, ast.Name) else \
        node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else None
    if items is None:
        return None
    found = []
    for item in items:
        inner = _values(item, False, {})
        if inner is None:
            return None
        found += inner
    return found or None


def _place(node: ast.AST, names: list[str]) -> tuple[int, int, bool] | None:
    """(argument, position, whole) when `node` reads a parameter at a constant place: `h[1]` (one
    item) or `s[:2]` (a stretch from the start, `whole` False: the constant is a prefix)."""
    if not isinstance(node, ast.Subscript) or not isinstance(node.value, ast.Name) or node.value.id not in names:
        return None
    index = node.slice
    if isinstance(index, ast.Constant) and type(index.value) is int and 0 <= index.value < MAX_PLACE:
        return names.index(node.value.id), index.value, True
    if isinstance(index, ast.Slice) and index.step is None and isinstance(index.upper, ast.Constant) \
            and type(index.upper.value) is int and 0 < index.upper.value <= MAX_PLACE:
        lower = index.lower.value if isinstance(index.lower, ast.Constant) and type(index.lower.value) is int \
            else 0 if index.lower is None else None
        if lower is not None and 0 <= lower < index.upper.value:
            return names.index(node.value.id), lower, False
    return None


def places(tree: ast.Module, names: list[str]) -> list[tuple[int, int, list]]:
    """(argument, position, constants) for each comparison of a parameter's item or prefix at a
    constant place with constants (`==`, `!=`, `in`, `not in`), in the code's order; `names` are the
    entry's parameters."""
    named = _collections(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1 \
                or not isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
            continue
        membership = isinstance(node.ops[0], (ast.In, ast.NotIn))
        for side, other, right in ((node.left, node.comparators[0], True), (node.comparators[0], node.left, False)):
            where = _place(side, names)
            values = _values(other, membership and right, named) if where else None
            if not values:
                continue
            argument, position, whole = where
            if whole or all(isinstance(v, str) for v in values):
                found.append((argument, position, values))
    return found


def points(tree: ast.Module) -> list[int]:
    """The whole numbers in the code that are characters beyond ASCII (no surrogates), where it
    calls `ord`: the ends of the ranges it tests a code point against."""
    if not any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "ord" for n in ast.walk(tree)):
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and type(node.value) is int and OUTSIDE_ASCII <= node.value <= 0x10FFFF \
                and not 0xD800 <= node.value <= 0xDFFF and node.value not in found:
            found.append(node.value)
    return found[:MAX_POINTS]


def at_places(args: list, rng: random.Random, clues) -> list:
    """One argument made a value holding one of the compared constants at each place the code
    reads (at times one place left as it was): a text when the constants are texts, else a list of
    whole numbers; the rest kept from the value it was, or filled."""
    argument = rng.choice(sorted({a for a, _, _ in clues.places}))
    if argument >= len(args):
        return args
    mine = [(position, values) for a, position, values in clues.places if a == argument]
    text = all(isinstance(v, str) for _, values in mine for v in values)
    end = max(position + (len(v) if isinstance(v, str) else 1) for position, values in mine for v in values)
    old = args[argument]
    if text:
        value = old if isinstance(old, str) else ""
        value += "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(end - len(value)))
    else:
        numbers = [v for _, values in mine for v in values if type(v) is int]
        value = [v for v in old if type(v) is int] if isinstance(old, list) else []
        value += [rng.choice(numbers) for _ in range(end - len(value))]
    for _ in range(rng.choice((0, 0, 1, 2))):  # at times more than the code reads
        value += rng.choice(string.ascii_lowercase) if text else [rng.randint(0, 127)]
    for position, values in mine:
        if rng.random() < 0.15:
            continue
        constant = rng.choice(values)
        if text and isinstance(constant, str):
            value = value[:position] + constant + value[position + len(constant):]
        elif not text and type(constant) is int and position < len(value):
            value[position] = constant
    args[argument] = value
    return args


def code_point(args: list, rng: random.Random, clues) -> list:
    """A character at a code point the code compares with, or just outside it, made a text
    argument (a one-character one) or put into one."""
    point = rng.choice(clues.points) + rng.choice((-1, 0, 0, 1))
    if not OUTSIDE_ASCII <= point <= 0x10FFFF or 0xD800 <= point <= 0xDFFF:
        return args
    char = chr(point)
    leaves = [p for p, v in _paths(args) if p and isinstance(v, str)] or [(i,) for i in range(len(args))]
    if not leaves:
        return args
    path = rng.choice(leaves)
    old = _get(args, path)
    if not isinstance(old, str) or len(old) <= 1 or rng.random() < 0.3:
        return _set(args, path, char)
    at = rng.randrange(len(old) + 1)
    return _set(args, path, old[:at] + char + old[at:])
