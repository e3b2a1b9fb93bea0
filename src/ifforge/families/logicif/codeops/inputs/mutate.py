"""One random change to a working call, so coverage can tell what the code needs (never runs code).

The changes a function's domain often asks for and random values seldom hit: relations between
parameters (a number equal to another parameter's length or to an index inside it, lists of equal
length, a square matrix, a permutation of one set, digits below a base) and the constants the code
compares with placed inside containers, texts and grids, not only as whole values; plus growing a
value so loops run longer. Where the code asks the kind of a value it read by subscript
(`isinstance(v[i], str)`, or of a name bound to `v[k]`), the values at one depth of an argument are
wrapped in lists, or unwrapped, all at once (`nesting`): every other code draws as before. Which change helps is not decided here: the search keeps a mutant only
if running it reaches arcs no kept call reached, or runs deeper.
"""

from __future__ import annotations

import ast
import copy
import random
import re
from typing import Any

from ifforge.core import pyast


TEXT_TESTS = {"startswith", "endswith", "find", "rfind", "index", "rindex", "count", "split", "rsplit", "partition",
              "rpartition", "removeprefix", "removesuffix"}  # a text argument of these is a text the code looks for


def _collections(tree: ast.Module) -> dict[str, list]:
    """Module-level names bound to a literal list, tuple or set of constants (or a dict's constant
    keys): `_monthnames = ['jan', ...]`, what `mm not in _monthnames` compares with."""
    found = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                and isinstance(statement.targets[0], ast.Name):
            value = statement.value
            items = value.keys if isinstance(value, ast.Dict) else getattr(value, "elts", None) \
                if isinstance(value, (ast.List, ast.Tuple, ast.Set)) else None
            if items and len(items) <= 64 and all(isinstance(item, ast.Constant) for item in items):
                found[statement.targets[0].id] = items
    return found


def _fragments(text: str) -> list[str]:
    """The fixed parts of a format template (`'_%s__'`, `'{}:{}'`): the text the code builds around a value."""
    parts = [p for p in re.split(r"%[sdr]|\{[^{}]*\}", text) if p] if re.search(r"%[sdr]|\{[^{}]*\}", text) else []
    return [p for p in parts if len(p) <= 8]


def compared_constants(source: str) -> tuple[list[int], list[str]]:
    """The numbers and the texts the code compares, tests membership in (a module-level collection's
    items too), looks for in a text (`s.find('+')`, `s.split(':')`), or indexes with; and the fixed
    parts of the format templates it builds texts with."""
    numbers, texts = set(), set()
    tree = pyast.parse(source)
    named = _collections(tree)
    for node in ast.walk(tree):
        parts = []
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
        elif isinstance(node, ast.Subscript):
            parts = [node.slice]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in TEXT_TESTS:
            parts = [a for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            texts.update(_fragments(node.value))
        for part in parts:
            values = named.get(part.id, []) if isinstance(part, ast.Name) else \
                [part] if not isinstance(part, (ast.Tuple, ast.List, ast.Set)) else part.elts
            for value in values:
                if isinstance(value, ast.Constant):
                    if isinstance(value.value, str) and 0 < len(value.value) <= 8:
                        texts.add(value.value)
                        texts.update(value.value if len(value.value) <= 4 else ())
                    elif type(value.value) is int and abs(value.value) <= 1000:
                        numbers.add(value.value)
    return sorted(numbers), sorted(texts)


def _paths(value: Any, path: tuple = ()) -> list[tuple[tuple, Any]]:
    """(path, leaf) of every scalar inside a value, strings counted as leaves too."""
    if isinstance(value, list):
        return [p for i, item in enumerate(value) for p in _paths(item, (*path, i))]
    if isinstance(value, dict):
        return [p for key, item in value.items() for p in _paths(item, (*path, key))]
    return [(path, value)]


def _get(args: list, path: tuple) -> Any:
    """The value at `path` inside the arguments (list positions and dict keys, outermost first)."""
    for step in path:
        args = args[step]
    return args


def _set(args: list, path: tuple, new: Any) -> list:
    if not path:
        return new
    target = args
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return args


def _plant(args: list, rng: random.Random, numbers: list, texts: list) -> list:
    """A compared constant in place of one leaf of its kind (a character inside a text too)."""
    leaves = [(p, v) for p, v in _paths(args) if p]
    if not leaves:
        return args
    path, leaf = rng.choice(leaves)
    if isinstance(leaf, str) and texts:
        pick = rng.choice(texts)
        if leaf and len(pick) == 1 and rng.random() < 0.7:
            at = rng.randrange(len(leaf))
            return _set(args, path, leaf[:at] + pick + leaf[at + 1:])
        return _set(args, path, pick)
    if type(leaf) is int and numbers and (not texts or rng.random() < 0.7):
        return _set(args, path, rng.choice(numbers))
    if texts and len(path) > 1:  # the code may compare the items of a container with texts
        return _set(args, path, rng.choice(texts))
    return args


def _paint(args: list, rng: random.Random, numbers: list, texts: list) -> list:
    """Every cell of a list, grid or text redrawn from two or three compared constants: a grid of
    '#' and '.', a list of the values the code looks for."""
    lists = [(p, v) for p, v in _lists(args) if v]
    texts_in = [i for i, a in enumerate(args) if isinstance(a, str) and a]
    chars = [t for t in texts if len(t) == 1]
    if not lists and not texts_in:
        return args
    if texts_in and chars and (not lists or rng.random() < 0.3):
        index = rng.choice(texts_in)
        palette = rng.sample(chars, min(len(chars), rng.choice((2, 3))))
        args[index] = "".join(rng.choice(palette) for _ in args[index])
        return args
    if not lists:
        return args
    path, value = rng.choice(lists)
    pool = [*(texts if texts and rng.random() < 0.6 else numbers or [0, 1])]
    palette = rng.sample(pool, min(len(pool), rng.choice((2, 3))))
    if len(palette) < 2:  # one constant: the cells that are not it say something too
        palette.append("." if isinstance(palette[0], str) else palette[0] + 1)
    rows_as_text = all(isinstance(row, str) for row in value)
    for index, cell in enumerate(value):
        if isinstance(cell, list):
            value[index] = [rng.choice(palette) for _ in cell]
        elif rows_as_text and all(len(p) == 1 for p in palette if isinstance(p, str)) and chars:
            value[index] = "".join(rng.choice([p for p in palette if isinstance(p, str)] or chars) for _ in cell)
        else:
            value[index] = rng.choice(palette)
    return args


def _lists(args: list) -> list[tuple[tuple, list]]:
    found = []

    def walk(value, path):
        if isinstance(value, list):
            found.append((path, value))
            for i, item in enumerate(value):
                walk(item, (*path, i))
    for i, arg in enumerate(args):
        walk(arg, (i,))
    return found


def _grow(args: list, rng: random.Random, numbers: list, texts: list) -> list:
    """A list or text twice as long (its own items repeated, shuffled), or a number a step larger."""
    places = [(p, v) for p, v in _paths(args) if p and isinstance(v, (str, int)) and type(v) is not bool]
    lists = _lists(args)
    if lists and rng.random() < 0.6:
        path, value = rng.choice(lists)
        if value:
            extra = copy.deepcopy(value)
            rng.shuffle(extra)
            value.extend(extra[: max(1, len(extra))])
        return args
    if not places:
        return args
    path, leaf = rng.choice(places)
    if isinstance(leaf, str):
        return _set(args, path, leaf + "".join(rng.sample(leaf, len(leaf))) if leaf else rng.choice(texts or ["a"]))
    return _set(args, path, leaf + rng.choice((1, 2, 3, max(1, abs(leaf)))))


def _length_of(args: list, rng: random.Random, numbers: list, texts: list) -> list:
    """A number parameter set to another parameter's length, or to an index inside it."""
    ints = [i for i, a in enumerate(args) if type(a) is int]
    sized = [i for i, a in enumerate(args) if isinstance(a, (list, str)) and a]
    if not ints or not sized:
        return args
    target, source = rng.choice(ints), rng.choice(sized)
    value = args[source]
    if isinstance(value, list) and isinstance(value[0], (list, str)) and value[0] and rng.random() < 0.5:
        value = value[0]  # a grid's width, not only its height
    size = len(value)
    if rng.random() < 0.5:
        args[target] = size
    else:
        args[target] = rng.randrange(size)
    return args


def _same_length(args: list, rng: random.Random, numbers: list, texts: list) -> list:
    """Lists of equal length: parameters to one another, or rows of a grid (square when asked)."""
    lists = [i for i, a in enumerate(args) if isinstance(a, (list, str))]
    grids = [i for i, a in enumerate(args) if isinstance(a, list) and a and all(isinstance(r, (list, str)) for r in a)]
    if grids and rng.random() < 0.6:
        grid = args[rng.choice(grids)]
        size = len(grid) if rng.random() < 0.5 else max(len(r) for r in grid)
        for index, row in enumerate(grid):
            filler = row[-1:] * size if row else (" " if isinstance(row, str) else [0]) * size
            grid[index] = (row + filler)[:size] if row else filler[:size]
        while len(grid) < size:
            grid.append(copy.deepcopy(grid[rng.randrange(len(grid))]))
        del grid[size:]
        return args
    if len(lists) < 2:
        return args
    size = len(args[rng.choice(lists)])
    for index in lists:
        value = args[index]
        if len(value) >= size:
            args[index] = value[:size]
        elif value:
            args[index] = (value * (size // len(value) + 1))[:size]
    return args


def _permutation(args: list, rng: random.Random, numbers: list, texts: list) -> list:
    """A list of numbers made a shuffled 0..n-1 or 1..n (permutations, parent arrays, indexes)."""
    lists = [(p, v) for p, v in _lists(args) if v and all(type(x) is int for x in v)]
    if not lists:
        return args
    path, value = rng.choice(lists)
    start = rng.choice((0, 1))
    order = list(range(start, start + len(value)))
    rng.shuffle(order)
    value[:] = order
    return args


def _small(args: list, rng: random.Random, numbers: list, texts: list) -> list:
    """Numbers brought below a small bound (digits below a base, values within a list's indexes)."""
    ints = [(p, v) for p, v in _paths(args) if type(v) is int]
    if not ints:
        return args
    bound = rng.choice([2, 3, 10, *(n for n in numbers if 1 < n <= 64)])
    for path, value in ints:
        if rng.random() < 0.7:
            args = _set(args, path, abs(value) % bound)
    return args


def _collide(args: list, rng: random.Random, numbers: list, texts: list) -> list:
    """One item copied onto another, so equalities and repeats the code looks for happen."""
    lists = [(p, v) for p, v in _lists(args) if len(v) >= 2]
    if not lists:
        return args
    _, value = rng.choice(lists)
    a, b = rng.sample(range(len(value)), 2)
    value[b] = copy.deepcopy(value[a])
    return args


def _world(args: list, rng: random.Random, numbers: list, texts: list) -> list:
    """All parameters made to agree at once: one height h and width w; every grid h rows of w cells
    (texts or lists) painted from one palette, every list of records h records of small numbers,
    every flat list h (or h + 1, for code indexing 1..n) items, numbers set to h or w. The common
    shape of puzzle, matrix and graph code (`f(n, m, grid_a, grid_b)`, `f(n, parents, weights)`),
    which single changes rarely reach together."""
    h, w = rng.randint(2, 5), rng.randint(2, 5)
    if rng.random() < 0.4:
        w = h
    length = h + rng.choice((0, 1))
    indexing = rng.random() < 0.6  # numbers in lists that index the others: 0..h
    chars = [t for t in texts if len(t) == 1]
    palette_text = rng.sample(chars, min(len(chars), 2)) + ["."] if chars else None
    palette_numbers = (rng.sample(numbers, min(len(numbers), 2)) if numbers else []) + [0, 1]
    small = lambda: rng.randint(0, h) if rng.random() < 0.7 else rng.choice(palette_numbers)  # noqa: E731
    sizes = [h, w]
    for index, arg in enumerate(args):
        if arg == [] and rng.random() < 0.7:  # an empty list says nothing of its items: numbers or pairs
            arg = [0] if rng.random() < 0.5 else [[0, 0]]
        if type(arg) is int:
            args[index] = sizes.pop(0) if sizes else rng.choice((h, w))
        elif isinstance(arg, list) and arg and all(isinstance(r, (list, str)) for r in arg):
            as_text = all(isinstance(r, str) for r in arg)
            widths = {len(r) for r in arg}
            cell = [c for r in arg for c in r][:1]
            if not as_text and len(widths) == 1 and 1 < min(widths) <= 3 and not (cell and isinstance(cell[0], str)):
                args[index] = [[small() for _ in range(min(widths))] for _ in range(length)]  # records
                continue
            textual = as_text or (cell and isinstance(cell[0], str)) or rng.random() < 0.5
            palette = palette_text if textual and palette_text else palette_numbers
            rows = [[rng.choice(palette) for _ in range(w)] for _ in range(h)]
            args[index] = ["".join(map(str, r)) for r in rows] if as_text else rows
        elif isinstance(arg, list) and arg and not isinstance(arg[0], (list, dict)):
            numeric = all(type(x) is int for x in arg)
            args[index] = [small() if numeric and (indexing or rng.random() < 0.5) else copy.deepcopy(rng.choice(arg))
                           for _ in range(length)]
    return args


def _retype(args: list, rng: random.Random, numbers: list, texts: list) -> list:
    """One slot of every record made another kind (numbers to short texts, texts to numbers): the
    slot `[name, amount]` a guess filled with numbers, changed in every record at once."""
    leaves = [(p, v) for p, v in _paths(args) if len(p) > 1 and type(v) in (int, str)]
    if not leaves:
        return args
    path, leaf = rng.choice(leaves)
    words = [t for t in texts if t] or ["a", "b", "c"]
    for other, value in leaves:
        if len(other) == len(path) and other[0] == path[0] and other[-1] == path[-1] and type(value) is type(leaf):
            if isinstance(value, int):
                new = rng.choice(words) if texts and rng.random() < 0.5 else "abcde"[abs(value) % 5]
            else:
                new = len(value)
            args = _set(args, other, new)
    return args


def _case(args: list, rng: random.Random, numbers: list, texts: list) -> list:
    """A text's letters made upper case, title case or swapped, or a space or digit put in: the
    classes text code asks about (`isupper`, `isdigit`, `isspace`) that random letters never are."""
    leaves = [(p, v) for p, v in _paths(args) if isinstance(v, str) and v]
    if not leaves:
        return args
    path, leaf = rng.choice(leaves)
    how = rng.randrange(5)
    if how < 3:
        return _set(args, path, (str.upper, str.title, str.swapcase)[how](leaf))
    at = rng.randrange(len(leaf) + 1)
    return _set(args, path, leaf[:at] + rng.choice(" 0123456789" if how == 3 else "ABC .,-") + leaf[at:])


def _embed(args: list, rng: random.Random, numbers: list, texts: list) -> list:
    """One text parameter made of another one with the code's texts around it (`'_' + cls + '__x'`):
    code that builds a text from one parameter and looks for it in another."""
    sized = [i for i, a in enumerate(args) if isinstance(a, str)]
    if len(sized) < 2:
        return args
    target, source = rng.sample(sized, 2)
    around = lambda: rng.choice(texts) if texts and rng.random() < 0.8 else ""  # noqa: E731
    args[target] = around() + args[source] + around() + rng.choice(("", "x", "ab", *texts[:4]))
    return args


def _phrase(args: list, rng: random.Random, numbers: list, texts: list) -> list:
    """A text of a few words, one or two of them the code's words and the rest numbers, some joined
    by the code's separators (`'1 jan 2000 10:30'`): what code that splits a text and reads its
    parts asks for, and random letters never are."""
    leaves = [(p, v) for p, v in _paths(args) if isinstance(v, str)]
    words = [t for t in texts if len(t) > 1 and t.strip() == t]
    if not leaves or not words:  # code that looks for no word reads no phrase
        return args
    separators = [t for t in texts if len(t) == 1 and not t.isalnum() and not t.isspace()] or [":"]
    number = lambda: str(rng.randint(0, 59) if rng.random() < 0.6 else rng.randint(60, 2030))  # noqa: E731
    parts = [number() if rng.random() < 0.5 else rng.choice(separators).join(number() for _ in range(rng.choice((2, 3))))
             for _ in range(rng.randint(2, 5))]
    for _ in range(rng.choice((1, 1, 2))):
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(words))
    path, _ = rng.choice(leaves)
    return _set(args, path, " ".join(parts))

def _nest(args: list, rng: random.Random, numbers: list, texts: list) -> list:
    """The values at one depth of an argument (each of its kind, all at once) wrapped in a list once or
    twice with a sibling of their kind (`"ab"` -> `[["ab", "c"]]`), or lists there replaced by their
    first item: code that asks `isinstance(v, str)` of what it reads at some depth takes its other
    branch only when another kind is there."""
    inner = [(p, v) for p, v in _paths_all(args) if len(p) > 1]
    if not inner:
        return args
    path, value = rng.choice(inner)
    same = [p for p, v in inner if len(p) == len(path) and p[0] == path[0] and type(v) is type(value)]
    unwrap = isinstance(value, list) and rng.random() < 0.5
    times = rng.choice((1, 2))
    for place in same:
        new = _get(args, place)
        if unwrap:
            args = _set(args, place, new[0]) if new else args
            continue
        for _ in range(times):
            sibling = rng.choice(texts) if isinstance(new, str) and texts else copy.deepcopy(new)
            new = [new, sibling] if rng.random() < 0.7 else [new]
        args = _set(args, place, new)
    return args


def _paths_all(value: Any, path: tuple = ()) -> list[tuple[tuple, Any]]:
    """(path, value) of every value inside `value`, containers as well as leaves."""
    found = [(path, value)]
    if isinstance(value, list):
        found += [p for i, item in enumerate(value) for p in _paths_all(item, (*path, i))]
    elif isinstance(value, dict):
        found += [p for key, item in value.items() for p in _paths_all(item, (*path, key))]
    return found


def nesting(source: str) -> tuple:
    """(_nest,) when the code asks the kind of a value it read by subscript (`isinstance(v[i], str)`,
    or of a name bound to `v[k]`), else nothing: other code draws its mutants as before."""
    tree = pyast.parse(source)
    read = {t.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript)
            for t in node.targets if isinstance(t, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
                and node.args and (isinstance(node.args[0], ast.Subscript)
                                   or isinstance(node.args[0], ast.Name) and node.args[0].id in read):
            return (_nest,)
    return ()


CHANGES = (_case, _retype, _embed, _phrase, _world, _plant, _plant, _paint, _grow, _length_of, _same_length,
           _permutation, _small, _collide)


def mutate(args: list, rng: random.Random, numbers: list, texts: list, extra: tuple = ()) -> list:
    """One to three random changes to a copy of `args` (of CHANGES and the `extra` ones the code asks for)."""
    new = copy.deepcopy(args)
    changes = CHANGES + extra
    for _ in range(rng.choice((1, 1, 2, 3))):
        change = rng.choice(changes)
        try:
            new = change(copy.deepcopy(new), rng, numbers, texts)
        except (ValueError, IndexError, TypeError, KeyError):  # a change that does not fit this value
            continue
    return new
