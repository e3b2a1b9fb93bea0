"""Changes for a seed the inputs stage would drop: every working call gave one output, or none ran.

Random values and the search's usual changes (`codeops.inputs.mutate`) seldom make the inputs a
check needs all at once: a text holding every letter the code looks for, a text made only of the
characters a table it looks them up in holds, a value that is a key or an item of another argument
(a word and a list holding its anagram, a state that is a key of the chain), mappings whose inner
keys name its own keys (a graph's edges), a grid as large as the `range(K)` loops that index it,
a grid whose rows, columns and blocks each hold 1..K once, an argument equal to a constant the code
compares it with whatever type it was drawn as (`side == "?"`), the item at a position or key
another argument names made the constant the code compares it with (`s[i] == "("`,
`table.get(key) == "DG"`), a list argument made a copy of a module-level list the code compares
with (`fields[:n] != DEFAULT_FIELDS`), the constants compared at fixed places or the code points
of range tables (`codeops.inputs.exact`), or an argument of another JSON
kind (a list that was meant to be a number, a float that was meant to be a whole one). These
changes are read from the code, never from a function's name, and are used only where the search
left one output or no working call (`stages.inputs.rescue`), so every other seed keeps its inputs.
Nothing here runs code.
"""

from __future__ import annotations

import ast
import copy
import math
import random
import string
from dataclasses import dataclass, field

from ifforge.core import pyast
from ifforge.families.logicif.codeops.inputs import exact
from ifforge.families.logicif.codeops.inputs.candidates import Signature
from ifforge.families.logicif.codeops.inputs.kinds import another
from ifforge.families.logicif.codeops.inputs.mutate import _get, _lists, _paths, _set, compared_constants, mutate

# the alphabets of the `string` module, by name: code that looks for each of them in a text
ALPHABETS = {name: getattr(string, name) for name in ("ascii_lowercase", "ascii_uppercase", "ascii_letters",
                                                      "digits", "hexdigits", "octdigits")}
MAX_SIDE = 12  # a `range(K)` bound larger than this is no grid side


@dataclass
class Clues:
    """What the code says its inputs must hold, read once per seed."""

    numbers: list[int]  # constants the code compares with (`mutate.compared_constants`)
    texts: list[str]
    alphabets: list[str]  # strings whose every character the code may look for in a text
    keys: list[str]  # one-character keys of the dict literals the code looks characters up in
    sides: list[int]  # bounds of the `range(K)` loops: the side of a grid they index
    compared: list  # the constants of the comparisons alone (`x == "?"`, `n in (1, 2)`)
    # (container, index, offset, constants): `s[i + 1] == "x"` with s and i the parameters at those places
    placed: list[tuple[int, int, int, list]] = field(default_factory=list)
    lists: list[list] = field(default_factory=list)  # module-level lists of constants the code compares with
    tested: list[int] = field(default_factory=list)  # the positions of the arguments whose kind the code tests
    # lengths a text with a check character may have (`len(x) != 10`, `range(12)`); None: no check in the code
    checked: list[int] | None = None
    # (argument, position, constants): `h[1] in b"14"`, `s[:2] == "0x"` (`codeops.inputs.exact`)
    places: list[tuple[int, int, list]] = field(default_factory=list)
    points: list[int] = field(default_factory=list)  # code points the code compares `ord(...)` with


def read_clues(source: str, entry: str | None = None) -> Clues:
    """The clues of the code; with `entry`, the entry's arguments whose kind it tests too."""
    numbers, texts = compared_constants(source)
    tree = pyast.parse(source)
    placed, lists = _placed_constants(tree, entry), _compared_lists(tree)
    alphabets, keys, sides, compared = set(), set(), set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                for part in side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]:
                    if isinstance(part, ast.Constant) and type(part.value) in (int, float, str):
                        compared.add(part.value)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and 5 <= len(node.value) <= 64 \
                and len(set(node.value)) == len(node.value) and node.value.isprintable():
            alphabets.add(node.value)  # distinct characters: a set of them, not a sentence
        elif isinstance(node, ast.Name) and node.id in ALPHABETS:
            alphabets.add(ALPHABETS[node.id])
        elif isinstance(node, ast.Attribute) and node.attr in ALPHABETS and isinstance(node.value, ast.Name) \
                and node.value.id == "string":
            alphabets.add(ALPHABETS[node.attr])
        elif isinstance(node, ast.Dict):
            keys.update(k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)
                        and len(k.value) == 1)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range" and node.args:
            bounds = [a.value if isinstance(a, ast.Constant) and type(a.value) is int else None for a in node.args[:2]]
            if len(bounds) == 1 and bounds[0] is not None:  # `range(9)`: 9 rows
                sides.add(bounds[0])
            elif len(bounds) == 2 and None not in bounds:  # `range(1, 10)`: 9 values
                sides.add(bounds[1] - bounds[0])
        elif isinstance(node, (ast.List, ast.Tuple)) and 2 <= len(node.elts) <= MAX_SIDE \
                and [getattr(e, "value", None) for e in node.elts] == list(range(1, len(node.elts) + 1)):
            sides.add(len(node.elts))  # `[1, 2, ..., 9]`: what a row is compared with
    # blocks of K x K cells (`i * 3 + k`, both in `range(3)`) make a side of K * K
    sides = {side for side in sides if 2 <= side <= MAX_SIDE}
    sides |= {side * side for side in sides if side * side <= MAX_SIDE}
    tested = [i for i, p in enumerate(Signature(source, entry).parameters) if p.tested] if entry else []
    return Clues(numbers, texts, sorted(alphabets), sorted(keys), sorted(sides), sorted(compared, key=repr),
                 placed, lists, tested, _check_lengths(tree), exact.places(tree, _parameters(tree, entry)),
                 exact.points(tree))


DIGIT_TESTS = {"isdigit", "isdecimal", "isnumeric"}


def _check_lengths(tree: ast.Module) -> list[int] | None:
    """The lengths a text with a check character may have, when the code signals one: a remainder by a
    constant (`total % 11`) and digits read from a text (`int(...)`, `.isdigit()`), or the characters
    of a text kept when a constant holding every digit has them and its length compared. None otherwise."""
    modulus = digits = alphabet = False
    lengths = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.right, ast.Constant) \
                and type(node.right.value) is int and 7 <= node.right.value <= 97:
            modulus = True
        elif isinstance(node, ast.Call) and (isinstance(node.func, ast.Name) and node.func.id in ("int", "ord")
                                             or isinstance(node.func, ast.Attribute) and node.func.attr in DIGIT_TESTS):
            digits = True
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and set(string.digits) <= set(node.value):
            alphabet = True
        if isinstance(node, ast.Compare):
            measured = any(isinstance(side, ast.Call) and isinstance(side.func, ast.Name) and side.func.id == "len"
                           for side in (node.left, *node.comparators))
            for side in (node.left, *node.comparators) if measured else ():
                for part in side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]:
                    if isinstance(part, ast.Constant) and type(part.value) is int and 4 <= part.value <= 32:
                        lengths.add(part.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range" \
                and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) \
                and type(node.args[0].value) is int and 4 <= node.args[0].value <= 32:
            lengths.add(node.args[0].value)  # `for idx in range(12): c = value[idx]`
    return sorted(lengths) if modulus and digits or alphabet and lengths else None


def _parameters(tree: ast.Module, entry: str | None) -> list[str]:
    functions = [s for s in tree.body if isinstance(s, ast.FunctionDef) and (entry is None or s.name == entry)]
    if not functions:
        return []
    arguments = functions[-1].args
    return [a.arg for a in [*arguments.posonlyargs, *arguments.args]]


def _position(node: ast.AST, names: list[str]) -> tuple[int, int] | None:
    """(parameter index, offset) of `i`, `i + 2`, `i - 1` with `i` a parameter."""
    if isinstance(node, ast.Name) and node.id in names:
        return names.index(node.id), 0
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)) and isinstance(node.left, ast.Name) \
            and node.left.id in names and isinstance(node.right, ast.Constant) and type(node.right.value) is int:
        return names.index(node.left.id), node.right.value * (1 if isinstance(node.op, ast.Add) else -1)
    return None


def _read_at(node: ast.AST, names: list[str]) -> tuple[int, int, int] | None:
    """(container, index, offset) when `node` reads a parameter at a place another names: `s[i]`,
    `s[i + 1:]`, `s[i:i + 3]`, `table.get(key)`."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in names:
        index = node.slice.lower if isinstance(node.slice, ast.Slice) else node.slice
        where = _position(index, names) if index is not None else None
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and isinstance(node.func.value, ast.Name) and node.func.value.id in names and node.args:
        where = _position(node.args[0], names)
        node = node.func
    else:
        return None
    container = names.index(node.value.id)
    return (container, *where) if where and where[0] != container else None


def _placed_constants(tree: ast.Module, entry: str | None) -> list[tuple[int, int, int, list]]:
    """Where the entry function compares the item at a place another parameter names with constants."""
    names = _parameters(tree, entry)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1 \
                or not isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
            continue
        for side, other in ((node.left, node.comparators[0]), (node.comparators[0], node.left)):
            where = _read_at(side, names)
            items = other.elts if isinstance(other, (ast.Tuple, ast.List, ast.Set)) else [other]
            constants = [i.value for i in items if isinstance(i, ast.Constant) and type(i.value) in (str, int)]
            if where and constants and len(constants) == len(items):
                found.append((*where, constants))
    return found


def _compared_lists(tree: ast.Module) -> list[list]:
    """Module-level lists or tuples of texts or numbers that the code compares a value with."""
    named = {s.targets[0].id: [i.value for i in s.value.elts] for s in tree.body
             if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
             and isinstance(s.value, (ast.List, ast.Tuple)) and 0 < len(s.value.elts) <= 64
             and all(isinstance(i, ast.Constant) and type(i.value) in (str, int) for i in s.value.elts)}
    aliases = {t.id: s.value.id for s in ast.walk(tree) if isinstance(s, ast.Assign) and isinstance(s.value, ast.Name)
               for t in s.targets if isinstance(t, ast.Name)}  # `defaults = DEFAULT_FIELDS`
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            for side in (node.left, *node.comparators):
                name = aliases.get(side.id, side.id) if isinstance(side, ast.Name) else None
                if name in named and named[name] not in found:
                    found.append(named[name])
    return found


def _text_leaves(args: list) -> list[tuple]:
    """Paths of the texts inside the arguments; the top-level arguments when none is a text."""
    found = [p for p, v in _paths(args) if p and isinstance(v, str)]
    return found or [(i,) for i in range(len(args))]


def _cover(args: list, rng: random.Random, clues: Clues) -> list:
    """A text holding every character of one of the code's alphabets, shuffled; at times one
    character short, in upper case or with spaces between words: both answers of a pangram test."""
    if not clues.alphabets or not args:
        return args
    chars = list(rng.choice(clues.alphabets))
    rng.shuffle(chars)
    if rng.random() < 0.3:
        chars.pop(rng.randrange(len(chars)))
    for _ in range(rng.choice((0, 0, 2, 4))):
        chars.insert(rng.randrange(len(chars) + 1), " ")
    text = "".join(chars)
    return _set(args, rng.choice(_text_leaves(args)), text.upper() if rng.random() < 0.2 else text)


def _keyed(args: list, rng: random.Random, clues: Clues) -> list:
    """A text made only of the keys of a table the code looks characters up in (and digits, which
    `int()` takes before a table is asked): hex digits for a `{'A': 10, ...}` table."""
    if not clues.keys or not args:
        return args
    pool = clues.keys + (list(string.digits) if rng.random() < 0.6 else [])
    text = "".join(rng.choice(pool) for _ in range(rng.randint(1, 5)))
    return _set(args, rng.choice(_text_leaves(args)), text)


def _parts(value) -> list:
    """What another argument offers: itself, its dict keys, its items and leaves."""
    found = [value]
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found += list(item)
            stack += list(item.values())
        elif isinstance(item, list):
            found += item
            stack += item
    return found


def _piece(text: str, rng: random.Random) -> str:
    """A stretch of a text: a pattern that occurs in it."""
    start = rng.randrange(len(text))
    return text[start:rng.randint(start + 1, len(text))]


def _member(args: list, rng: random.Random, clues: Clues) -> list:
    """A scalar argument made a key or an item of another argument, or a stretch of another text:
    a start that is a node of the graph, a state of the chain, a number the list holds, a pattern
    the text holds."""
    if len(args) < 2:
        return args
    target, source = rng.sample(range(len(args)), 2)
    value = args[source]
    if isinstance(args[target], (list, dict)) or not value:
        return args
    if isinstance(value, str):
        args[target] = _piece(value, rng)
        return args
    parts = [part for part in _parts(value)[1:] if not isinstance(part, (list, dict))] \
        if isinstance(value, (list, dict)) else []
    if parts:
        args[target] = rng.choice(parts)
    return args


def _cross(args: list, rng: random.Random, clues: Clues) -> list:
    """One value made equal to a part of another argument (the argument, a key, an item), or to a
    text's letters shuffled: a word whose anagram the list holds; a text parameter at times becomes
    a list holding the value (code that reads it item by item may want words, not characters)."""
    if len(args) < 2:
        return args
    source = rng.randrange(len(args))
    targets = [p for p, _ in _paths(args) if p and p[0] != source]
    if not targets:
        return args
    parts = _parts(args[source])
    pick = copy.deepcopy(rng.choice(parts))
    if isinstance(pick, str) and len(pick) > 1 and rng.random() < 0.6:
        letters = list(pick)
        rng.shuffle(letters)
        pick = "".join(letters) if rng.random() < 0.5 else _piece(pick, rng)
    target = rng.choice(targets)
    old = _get(args, target)
    if isinstance(old, str) and len(target) == 1 and rng.random() < 0.3:
        pick = [pick, old]
    return _set(args, target, pick)


def _dicts(value) -> list[dict]:
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.append(item)
            stack += list(item.values())
        elif isinstance(item, list):
            stack += item
    return found


def _keys_agree(args: list, rng: random.Random, clues: Clues) -> list:
    """The dicts and texts inside a dict's values made to name its own keys, or the numbers inside a
    list's items its own indexes (a graph whose edges lead to its nodes), their values kept."""
    outers = [d for d in _dicts(args) if d and any(isinstance(v, (dict, list)) for v in d.values())]
    lists = [v for _, v in _lists(args) if v and all(isinstance(item, list) for item in v)]
    if lists and (not outers or rng.random() < 0.5):
        outer = rng.choice(lists)
        for path, leaf in _paths(outer):
            if type(leaf) is int and rng.random() < 0.6:
                _set(outer, path, rng.randrange(len(outer)))
        return args
    if not outers:
        return args
    outer = rng.choice(outers)
    names = list(outer)
    for key, inner in list(outer.items()):
        if isinstance(inner, dict):
            outer[key] = {rng.choice(names): value for value in inner.values()}
        elif isinstance(inner, list):
            outer[key] = [rng.choice(names) if isinstance(item, str) else item for item in inner]
    return args


def _constant(args: list, rng: random.Random, clues: Clues) -> list:
    """An argument made a constant the code compares with (`side == "?"`), whatever its drawn type."""
    if not clues.compared or not args:
        return args
    args[rng.randrange(len(args))] = rng.choice(clues.compared)
    return args


def _grids(args: list) -> list[int]:
    return [i for i, a in enumerate(args) if isinstance(a, list)]


def _sized_grid(args: list, rng: random.Random, clues: Clues) -> list:
    """A list argument made a K x K grid, K a bound of the code's `range(K)` loops: its own cells
    kept where they fit, the rest small numbers (zeros at times: the empty cells of a puzzle)."""
    lists = _grids(args)
    if not clues.sides or not lists:
        return args
    side = rng.choice(clues.sides)
    index = rng.choice(lists)
    cells = [leaf for _, leaf in _paths(args[index]) if type(leaf) is int] or [0]
    zeros = rng.random() < 0.5
    args[index] = [[0 if zeros and rng.random() < 0.2 else rng.choice(cells) if rng.random() < 0.3
                    else rng.randint(1, side) for _ in range(side)] for _ in range(side)]
    return args


def _latin(args: list, rng: random.Random, clues: Clues) -> list:
    """A list argument made a K x K grid whose every row and column holds 1..K once, and every
    block too when K is a square (rows shifted by the block width): a solved puzzle to check."""
    lists = _grids(args)
    if not clues.sides or not lists:
        return args
    side = rng.choice(clues.sides)
    block = math.isqrt(side) if math.isqrt(side) ** 2 == side else 1
    symbols = list(range(1, side + 1))
    if rng.random() < 0.5:
        rng.shuffle(symbols)
    args[rng.choice(lists)] = [[symbols[(block * (row % block) + row // block + column) % side]
                                for column in range(side)] for row in range(side)]
    return args


def _retype(args: list, rng: random.Random, clues: Clues) -> list:
    """One argument made another JSON kind: a list a whole number or a text of digits, a float a
    whole number, a number a text of digits, a dict the list of its values, a text a list of its
    characters."""
    if not args:
        return args
    index = rng.randrange(len(args))
    value = args[index]
    if isinstance(value, list) or type(value) is bool:
        args[index] = rng.randint(0, 99) if rng.random() < 0.5 else str(rng.randint(0, 9999))
    elif isinstance(value, float):
        args[index] = int(abs(value)) + rng.choice((0, 1))
    elif type(value) is int:
        args[index] = str(abs(value))
    elif isinstance(value, dict):
        args[index] = [copy.deepcopy(v) for v in value.values()]
    elif isinstance(value, str):
        args[index] = list(value)
    return args


def _rekind(args: list, rng: random.Random, clues: Clues) -> list:
    """An argument whose kind the code tests (`isinstance`, `callable`, a caught TypeError) made a
    value of another JSON kind: a type predicate answers by kind alone (`codeops.inputs.kinds`)."""
    places = [i for i in clues.tested if i < len(args)]
    if places:
        index = rng.choice(places)
        args[index] = another(args[index], rng, clues.texts, clues.numbers)
    return args


def _filled(args: list, rng: random.Random, clues: Clues) -> list:
    """The empty lists and dicts among a list's items made copies of a non-empty sibling: a node
    with no edges, a row with no cells, the loop over it never runs."""
    lists = [v for _, v in _lists(args) if any(not item for item in v if isinstance(item, (list, dict)))
             and any(item for item in v if isinstance(item, (list, dict)))]
    if not lists:
        return args
    value = rng.choice(lists)
    full = [item for item in value if isinstance(item, (list, dict)) and item]
    for index, item in enumerate(value):
        if isinstance(item, (list, dict)) and not item and rng.random() < 0.7:
            value[index] = copy.deepcopy(rng.choice(full))
    return args


def _negative(args: list, rng: random.Random, clues: Clues) -> list:
    """Some numbers of an argument made negative (a graph's negative cycle, a loss among gains)."""
    places = [p for p, v in _paths(args) if p and isinstance(v, (int, float)) and type(v) is not bool and v > 0]
    for path in places:
        if rng.random() < 0.5:
            args = _set(args, path, -_get(args, path))
    return args


def _joined(args: list, rng: random.Random, clues: Clues) -> list:
    """A list argument of numbers or texts made one text of them (`[0, 4, 2]` -> "042"): code that
    compares items one by one takes a text too, and texts share characters where lists drawn as
    numbers seldom share items."""
    lists = [i for i, a in enumerate(args) if isinstance(a, list) and a and all(isinstance(v, (int, str)) for v in a)]
    if lists:
        index = rng.choice(lists)
        args[index] = "".join(str(v).lstrip("-") for v in args[index])
    return args


def _at_place(args: list, rng: random.Random, clues: Clues) -> list:
    """The item at the place one argument names in another made a constant the code compares it
    with: `s[i] == "("` gets a "(" at i (i moved into the text when it was not a place in it),
    `table.get(key) == "DG"` gets "DG" under key (key made a text when it was not one)."""
    container, index, offset, constants = rng.choice(clues.placed)
    if max(container, index) >= len(args):
        return args
    value, constant = args[container], rng.choice(constants)
    if isinstance(value, dict):
        if offset or not isinstance(args[index], str):
            args[index] = rng.choice(list(value) or ["a"]) if not offset else args[index]
        if isinstance(args[index], str):
            value[args[index]] = constant
        return args
    if not isinstance(value, (str, list)) or isinstance(value, str) and not isinstance(constant, str):
        return args
    place = args[index] + offset if type(args[index]) is int else -1
    if not 0 <= place <= len(value) - (1 if isinstance(value, list) else 0):
        place = rng.randint(max(0, offset), len(value) - (1 if isinstance(value, list) else 0))
        args[index] = place - offset
    if isinstance(value, str):
        args[container] = value[:place] + constant + value[place + len(constant):]
    elif place < len(value):
        value[place] = constant
    return args


def _listed(args: list, rng: random.Random, clues: Clues) -> list:
    """A list argument made a copy of a module-level list the code compares a value with, at times
    with one item more or one item changed: fields to check against the defaults."""
    lists = _grids(args)
    if not lists:
        return args
    new = list(rng.choice(clues.lists))
    roll = rng.random()
    if roll < 0.3:
        new.append(copy.deepcopy(rng.choice(new)))
    elif roll < 0.45:
        new[rng.randrange(len(new))] = copy.deepcopy(rng.choice(new))
    args[rng.choice(lists)] = new
    return args


def _pools(clues: Clues) -> list[str]:
    """The alphabets a check character is drawn from: digits, the code's alphabets, and the single
    letters it compares with (`== 'X'`)."""
    letters = "".join(sorted({c for c in clues.compared if isinstance(c, str) and len(c) == 1 and c.isalpha()}))
    return [string.digits, *clues.alphabets, *([letters] if letters else [])]


def _check_char(args: list, rng: random.Random, clues: Clues) -> list:
    """A text whose one character (the last more often) is tried against a character of its
    alphabet, where the code takes a remainder: about one try in 10 to 36 satisfies a check digit.
    A text of a length the code asks for is kept, at times with one more digit changed (one change
    alone never keeps a check valid); another is replaced by digits of such a length, its first one
    or two letters where the code compares characters with "A" (a country code)."""
    leaves = [p for p, v in _paths(args) if p and isinstance(v, str)]
    if not args:
        return args
    # mostly a text argument, or any argument: a list may have been drawn where a text was meant
    texts = [i for i, a in enumerate(args) if isinstance(a, str)] if rng.random() < 0.7 else []
    path = rng.choice(leaves) if leaves and rng.random() < 0.3 else (rng.choice(texts or range(len(args))),)
    old = _get(args, path)
    pools = _pools(clues)
    lengths = clues.checked or list(range(8, 14))
    if isinstance(old, str) and len(old) in lengths and sum(c.isdigit() for c in old) * 2 > len(old) \
            and rng.random() < 0.7:
        if rng.random() < 0.5:
            other = rng.randrange(len(old))
            if old[other].isdigit():
                old = old[:other] + rng.choice(string.digits) + old[other + 1:]
    else:
        length = rng.choice(lengths)
        prefixes = [t for t in clues.compared if isinstance(t, str) and t.isdigit() and len(t) < length]
        letters = rng.choice((0, 1, 2, 2)) if "A" in clues.compared else 0
        start = rng.choice(prefixes) if prefixes and rng.random() < 0.5 else \
            "".join(rng.choice(string.ascii_uppercase) for _ in range(letters))
        old = start + "".join(rng.choice(string.digits) for _ in range(length - len(start)))
    place = len(old) - 1 if rng.random() < 0.6 else rng.randrange(len(old))
    return _set(args, path, old[:place] + rng.choice(rng.choice(pools)) + old[place + 1:])


FLIPS = (_cover, _keyed, _member, _cross, _keys_agree, _filled, _negative, _constant, _sized_grid, _latin, _joined)
TRIES = 6  # draws of a change that alters the value, before one that does not is taken


def rescue_mutant(args: list, rng: random.Random, clues: Clues, repair: bool) -> list:
    """One to three rescue changes to a copy of `args` (a negative weight and a start that is a key:
    what a check needs often takes two at once), each drawn among those that alter the value (the
    others have nothing to work on here); at times followed by one of the search's usual changes
    (a near miss of a pangram, a grid with two cells made equal). `repair` (no call ran yet) makes
    another kind of argument twice as likely."""
    new = copy.deepcopy(args)
    if clues.checked is not None and rng.random() < 0.5:  # only then: every other seed's rescue draws as before
        return _check_char(new, rng, clues)
    changes = (*FLIPS, _retype) if repair else FLIPS
    changes += (_at_place,) * bool(clues.placed) + (_listed,) * bool(clues.lists)  # only where the code asks
    if clues.checked is None:  # a check character's texts start with the compared prefixes already
        changes += (exact.at_places,) * bool(clues.places) + (exact.code_point,) * bool(clues.points)
    if clues.tested:  # only then: every other seed's rescue draws as before
        changes = (*changes, _rekind)
    for _ in range(rng.choice((1, 2, 2, 3))):
        for _ in range(TRIES):
            try:
                changed = rng.choice(changes)(copy.deepcopy(new), rng, clues)
            except (ValueError, IndexError, TypeError, KeyError):  # a change that does not fit this value
                continue
            if changed != new:
                new = changed
                break
    if rng.random() < 0.25:
        new = mutate(new, rng, clues.numbers, clues.texts)
    return new
