"""Texts that reach a function's paths, built from what its code tests text against.

Random letters rarely take a parser's branches: `unquote` never sees a `%`, a regular expression
never matches, so every tracker stays constant. The code says what it looks for: the regular
expressions it compiles or calls (`re.compile(r"(\\d+)-(\\d+)")`, `re.match(P, s)`), the characters
and strings it tests (`c in "%+"`, `c == "["`, `s.startswith("0x")`, `"=" in s`), the separators it
splits and joins with, the character classes it asks about (`ch.isdigit()`, `ch.isspace()`), the
`/` that leads an absolute path when it calls a path function (`os.path.isabs(p)`), the code points
`ord(c)` is compared with, and how it checks a text starts or ends (`s[:3] == "227"`).
`Texts.draw` makes one string of these: a text matching one of the expressions (generated from
its parsed form, repeats bounded), a near miss of one (a character dropped, changed or added), or
a run of the code's pieces with short runs of its characters between them, often led by a prefix
it checks. Everything random comes from the caller's `random.Random`; a text is at most
`MAX_TEXT` characters long. A drawn text is checked against the seed's expression here only where
that match tries few ways (`matching`): the seed's code never runs here, and neither does a pattern
that could backtrack without end.
"""

from __future__ import annotations

import ast
import random
import re
import string
from dataclasses import dataclass, field

try:  # Python 3.11+
    from re import _constants as _sre, _parser as _parse
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _sre  # type: ignore[no-redef]
    import sre_parse as _parse  # type: ignore[no-redef]

MAX_TEXT = 60
EXTRA_REPEATS = 3  # `x*` repeats 0 to 3 times, `x{2,}` 2 to 5
MAX_PATTERN = 400  # longer expressions are left alone
MAX_WAYS = 10_000  # ways a match may try before a drawn text goes unchecked (`matching`)
RE_FUNCTIONS = {"compile", "match", "search", "fullmatch", "findall", "finditer", "split", "sub", "subn"}
# str methods whose constant arguments are pieces of the text the code expects
PIECE_METHODS = {"startswith", "endswith", "split", "rsplit", "partition", "rpartition", "find", "rfind", "index",
                 "rindex", "count", "replace", "strip", "lstrip", "rstrip", "removeprefix", "removesuffix"}
CLASS_CHARS = {"isdigit": "0123456789", "isdecimal": "0123456789", "isnumeric": "0123456789",
               "isalpha": "abcXYZ", "isalnum": "a1Z", "isspace": " \t\n", "isupper": "ABZ", "islower": "abz",
               "isidentifier": "a_b", "isprintable": "\x07", "isascii": "\u00e9", "istitle": "Ab"}
PATH_MODULES = {"posixpath", "ntpath", "genericpath"}  # besides `os.path`: their functions take paths
PRINTABLE = [c for c in string.printable if c not in "\x0b\x0c\r"]
SMALL_DIGITS = "0011223456789"  # 0-2 twice as often: a month, day or hour written with `\d\d` is valid more often
CATEGORY_CHARS = {
    _sre.CATEGORY_DIGIT: SMALL_DIGITS, _sre.CATEGORY_NOT_DIGIT: string.ascii_letters + " _-.",
    _sre.CATEGORY_SPACE: " \t\n", _sre.CATEGORY_NOT_SPACE: string.ascii_letters + string.digits + "_-.",
    _sre.CATEGORY_WORD: string.ascii_letters + string.digits + "_", _sre.CATEGORY_NOT_WORD: " -.,:;/",
    _sre.CATEGORY_LINEBREAK: "\n", _sre.CATEGORY_NOT_LINEBREAK: string.ascii_letters,
}


@dataclass
class Hints:
    """What the code tests text against: its expressions (compiled), pieces and character classes."""

    patterns: list = field(default_factory=list)  # [(compiled, parsed)] of each constant pattern
    pieces: set = field(default_factory=set)  # strings and characters it looks for
    classes: set = field(default_factory=set)  # characters standing for the classes it asks about
    prefixes: set = field(default_factory=set)  # what it checks a text starts with: `s[:3] == "227"`
    suffixes: set = field(default_factory=set)  # and ends with: `s.endswith("/")`, `s[-1] == ")"`

    def __bool__(self) -> bool:
        return bool(self.patterns or self.pieces or self.classes or self.prefixes or self.suffixes)


def _strings(node: ast.AST) -> list[str]:
    """The string constants of a literal: a string, or a tuple / list / set of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [v for element in node.elts for v in _strings(element)]
    return []


def _flags(node: ast.AST | None) -> int:
    """The value of `re.I | re.X` written in the code (0 for what it cannot read)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _flags(node.left) | _flags(node.right)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re":
        flag = getattr(re, node.attr, 0)
        return int(flag) if isinstance(flag, re.RegexFlag) else 0
    return 0


POINTS_PER_TABLE = 6  # characters taken from a table of code points the code looks a character up in


def _points(node: ast.AST) -> list[int]:
    """The code points a table literal holds: a dict's int keys, a set's or list's ints, range bounds."""
    found = []
    for part in ast.walk(node):
        items = part.keys if isinstance(part, ast.Dict) else part.elts if isinstance(part, (ast.Set, ast.List, ast.Tuple)) \
            else part.args if isinstance(part, ast.Call) and isinstance(part.func, ast.Name) and part.func.id == "range" \
            else []
        found += [item.value for item in items if isinstance(item, ast.Constant) and type(item.value) is int]
    return sorted({p for p in found if 0 < p < 0x110000 and not 0xD800 <= p < 0xE000})


class _Reader(ast.NodeVisitor):
    def __init__(self, tables: dict[str, list[int]] | None = None):
        self.hints = Hints()
        self.named: dict[str, str] = {}  # NAME = "pattern text": names later passed to re.compile
        self.ordinals: set[str] = set()  # names holding a code point: c = ord(ch)
        self.sources: list[tuple[str, int]] = []  # (pattern text, flags) of every constant pattern
        self.tables = tables or {}  # module names bound to tables of code points: {0xb5: "mu", ...}

    def _looked_up(self, table: ast.AST, key: ast.AST) -> None:
        """`TABLE.get(ord(c))`, `TABLE[ord(c)]`, `ord(c) in TABLE`: some characters the table holds."""
        if isinstance(table, ast.Name) and table.id in self.tables and _is_ord(key, self.ordinals):
            points = self.tables[table.id]
            step = max(1, len(points) // POINTS_PER_TABLE)
            self.hints.classes.update(chr(p) for p in points[::step][:POINTS_PER_TABLE])

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self._looked_up(node.value, node.slice)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            self.named.update((t.id, node.value.value) for t in node.targets if isinstance(t, ast.Name))
        if _is_ord(node.value, set()):
            self.ordinals.update(t.id for t in node.targets if isinstance(t, ast.Name))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "re" \
                and func.attr in RE_FUNCTIONS and node.args:
            pattern = node.args[0]
            text = pattern.value if isinstance(pattern, ast.Constant) else \
                self.named.get(pattern.id) if isinstance(pattern, ast.Name) else None
            flags = next((k.value for k in node.keywords if k.arg == "flags"), None)
            if flags is None:
                position = 1 if func.attr == "compile" else 3 if func.attr in ("sub", "subn") else 2
                flags = node.args[position] if len(node.args) > position else None
            if isinstance(text, str) and len(text) <= MAX_PATTERN:
                self.sources.append((text, _flags(flags)))
        if isinstance(func, ast.Attribute) and func.attr == "get" and node.args:
            self._looked_up(func.value, node.args[0])
        if _path_function(func) and node.args:  # `os.path.isabs(p)`: p is a path, absolute when it starts with "/"
            self.hints.pieces.add("/")
            self.hints.prefixes.add("/")
        if isinstance(func, ast.Attribute):
            if func.attr in PIECE_METHODS:
                for arg in node.args[:1]:
                    found = [s for s in _strings(arg) if 0 < len(s) <= 20]
                    self.hints.pieces.update(found)
                    if func.attr in ("startswith", "removeprefix"):
                        self.hints.prefixes.update(found)
                    elif func.attr in ("endswith", "removesuffix"):
                        self.hints.suffixes.update(found)
            elif func.attr == "join" and isinstance(func.value, ast.Constant) and isinstance(func.value.value, str) \
                    and 0 < len(func.value.value) <= 5:
                self.hints.pieces.add(func.value.value)
            elif func.attr in CLASS_CHARS and not node.args:
                self.hints.classes.update(CLASS_CHARS[func.attr])
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, (ast.In, ast.NotIn)):
                self._looked_up(right, left)
            if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, ast.Constant) \
                    and isinstance(right.value, str) and len(right.value) <= 40:
                self.hints.pieces.update(right.value)  # `c in "%+"`: each character is looked for
            else:
                self.hints.pieces.update(s for s in _strings(right) if 0 < len(s) <= 20)
            self.hints.pieces.update(s for s in _strings(left) if 0 < len(s) <= 20)
            if isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) and _end(left):
                found = [s for s in _strings(right) if 0 < len(s) <= 20]
                (self.hints.prefixes if _end(left) == "start" else self.hints.suffixes).update(found)
            for side, other in ((left, right), (right, left)):
                if _is_ord(side, self.ordinals) and isinstance(other, ast.Constant) and type(other.value) is int:
                    for point in (other.value - 1, other.value, other.value + 1):  # both sides of `ord(c) < 128`
                        if 0 < point < 0x110000 and not 0xD800 <= point < 0xE000:
                            self.hints.classes.add(chr(point))
            left = right
        self.generic_visit(node)


def _path_function(func: ast.AST) -> bool:
    """Whether a call's function is one of a path module's (`os.path.join`, `posixpath.isabs`)."""
    owner = func.value if isinstance(func, ast.Attribute) else None
    if isinstance(owner, ast.Attribute):
        return owner.attr == "path" and isinstance(owner.value, ast.Name) and owner.value.id == "os"
    return isinstance(owner, ast.Name) and owner.id in PATH_MODULES


def _is_ord(node: ast.AST, ordinals: set[str]) -> bool:
    """Whether the expression is a code point: `ord(ch)` or a name bound to one."""
    if isinstance(node, ast.Name):
        return node.id in ordinals
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ord"


def _end(node: ast.AST) -> str | None:
    """Which end of a text a subscript reads: "start" for `s[0]`, `s[:3]`; "end" for `s[-1]`, `s[-2:]`."""
    if not isinstance(node, ast.Subscript):
        return None
    index = node.slice
    if isinstance(index, ast.Slice) and index.step is None:
        if index.lower is None and index.upper is not None:
            return "start"
        if index.upper is None and isinstance(index.lower, ast.UnaryOp) and isinstance(index.lower.op, ast.USub):
            return "end"
        return None
    if isinstance(index, ast.Constant) and index.value == 0:
        return "start"
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub) and isinstance(index.operand, ast.Constant) \
            and index.operand.value == 1:
        return "end"
    return None


def read_hints(tree: ast.AST) -> Hints:
    """The hints of a whole seed: the function, its helpers and the module constants it brings."""
    tables = {}
    for statement in getattr(tree, "body", []):
        if isinstance(statement, ast.Assign) and not isinstance(statement.value, ast.Constant):
            points = _points(statement.value)
            tables.update((t.id, points) for t in statement.targets if isinstance(t, ast.Name) and points)
    reader = _Reader(tables)
    reader.visit(tree)
    hints = reader.hints
    for text, flags in dict.fromkeys(reader.sources):
        try:
            hints.patterns.append((re.compile(text, flags), _parse.parse(text, flags)))
        except (re.error, RecursionError, OverflowError, ValueError):
            continue  # not a pattern Python compiles: no texts from it
    return hints


# ---- a text matching a parsed expression


class _Generator:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.groups: dict[int, str] = {}
        self.budget = MAX_TEXT * 4  # characters and steps: a pathological expression stops early

    def sequence(self, items, depth: int = 0) -> str:
        return "".join(self.item(op, av, depth) for op, av in items)

    def item(self, op, av, depth: int) -> str:
        rng = self.rng
        self.budget -= 1
        if self.budget <= 0 or depth > 30:
            return ""
        if op is _sre.LITERAL:
            return chr(av)
        if op is _sre.NOT_LITERAL:
            return rng.choice([c for c in PRINTABLE if ord(c) != av])
        if op is _sre.ANY:
            return rng.choice(string.ascii_letters + string.digits + " ")
        if op is _sre.IN:
            return self.one_of(av)
        if op is _sre.BRANCH:
            return self.sequence(rng.choice(av[1]), depth + 1)
        if op is _sre.SUBPATTERN:
            group, body = av[0], av[-1]
            text = self.sequence(body, depth + 1)
            if group is not None:
                self.groups[group] = text
            return text
        if op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", None)):
            low, high, body = av
            high = low + EXTRA_REPEATS if high == _sre.MAXREPEAT else min(high, low + EXTRA_REPEATS)
            return "".join(self.sequence(body, depth + 1) for _ in range(rng.randint(low, max(low, high))))
        if op is _sre.GROUPREF:
            return self.groups.get(av, "")
        if op is _sre.GROUPREF_EXISTS:
            group, yes, no = av
            return self.sequence(yes if group in self.groups else (no or []), depth + 1)
        if op is getattr(_sre, "ATOMIC_GROUP", None):
            return self.sequence(av, depth + 1)
        if op is _sre.CATEGORY:
            return rng.choice(CATEGORY_CHARS.get(av, string.ascii_letters))
        return ""  # anchors and look-arounds take no characters

    def one_of(self, items) -> str:
        rng = self.rng
        if items and items[0][0] is _sre.NEGATE:
            allowed = [c for c in PRINTABLE if not _member(items[1:], c)]
            return rng.choice(allowed or PRINTABLE)
        op, av = rng.choice(items)
        if op is _sre.LITERAL:
            return chr(av)
        if op is _sre.RANGE:
            low, high = av
            if (low, high) == (ord("0"), ord("9")):
                return rng.choice(SMALL_DIGITS)
            return chr(rng.randint(low, min(high, max(low, 0x2FF))))
        if op is _sre.CATEGORY:
            return rng.choice(CATEGORY_CHARS.get(av, string.ascii_letters))
        return rng.choice(string.ascii_letters)


def _member(items, char: str) -> bool:
    point = ord(char)
    for op, av in items:
        if op is _sre.LITERAL and av == point:
            return True
        if op is _sre.RANGE and av[0] <= point <= av[1]:
            return True
        if op is _sre.CATEGORY and char in CATEGORY_CHARS.get(av, ""):
            return True
    return False


def matching(compiled: re.Pattern, parsed, rng: random.Random, tries: int = 4) -> str | None:
    """A text the expression matches from its start (None when a few tries find none this short).

    The expression is the seed's, so checking a drawn text against it runs the seed's pattern here:
    that is done only where the match can try few ways (`_few_ways`); any other drawn text is taken as
    drawn, since it was built from the expression and a check could backtrack for hours (`(a+)+b`)."""
    checked = _few_ways(parsed)
    for _ in range(tries):
        text = _Generator(rng).sequence(parsed)
        if len(text) <= MAX_TEXT and (not checked or compiled.match(text)):
            return text
    return None


def _few_ways(parsed) -> bool:
    """Whether a backtracking match on a text of `MAX_TEXT` characters has at most `MAX_WAYS` ways to
    try: each repeat of a one-way body tries as many counts as it may take, a choice the sum of its
    branches, a repeat of a many-way body that many ways to the power of its count (nesting is what
    makes a match exponential)."""
    try:
        return _ways(parsed) <= MAX_WAYS
    except RecursionError:
        return False


def _ways(items) -> int:
    total = 1
    for op, av in items:
        total *= _item_ways(op, av)
        if total > MAX_WAYS:
            return MAX_WAYS + 1
    return total


def _item_ways(op, av) -> int:
    if op is _sre.BRANCH:
        return sum(_ways(branch) for branch in av[1])
    if op is _sre.SUBPATTERN:
        return _ways(av[-1])
    if op in (_sre.ASSERT, _sre.ASSERT_NOT):
        return _ways(av[1])
    if op is getattr(_sre, "ATOMIC_GROUP", None):
        return _ways(av)
    if op is _sre.GROUPREF_EXISTS:
        return _ways(av[1]) + _ways(av[2] or [])
    if op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", None)):
        low, high, body = av
        counts = max(1, min(high, MAX_TEXT) - low + 1)
        each = _ways(body)
        return counts if each == 1 else min(each, MAX_WAYS + 1) ** min(high, MAX_TEXT) + counts
    return 1  # a character, a class, an anchor, a back-reference: one way


def near_miss(text: str, rng: random.Random) -> str:
    """The text with one character dropped, changed or added, or cut short: the other side of a check."""
    if not text:
        return rng.choice(PRINTABLE)
    at = rng.randrange(len(text))
    how = rng.randrange(4)
    if how == 0:
        return text[:at] + text[at + 1:]
    if how == 1:
        return text[:at] + rng.choice(PRINTABLE) + text[at + 1:]
    if how == 2:
        return text[:at] + rng.choice(PRINTABLE) + text[at:]
    return text[:at]


class Texts:
    """Strings drawn from a seed's hints with one `random.Random`."""

    def __init__(self, hints: Hints, rng: random.Random, letters: list[str]):
        self.hints, self.rng = hints, rng
        self.pieces = sorted(hints.pieces)
        self.classes = sorted(hints.classes)
        self.runs = list(letters or string.ascii_lowercase[:6]) + list(string.digits)

    def run(self) -> str:
        """One to three characters, half of them of the classes the code asks about."""
        rng = self.rng
        return "".join(rng.choice(self.classes if self.classes and rng.random() < 0.5 else self.runs)
                       for _ in range(rng.randint(1, 3)))

    def draw(self) -> str:
        """A text matching one of the code's expressions, a near miss of one, or a run of its pieces;
        often starting and ending the way the code checks."""
        rng = self.rng
        text = None
        if self.hints.patterns and rng.random() < 0.6:
            compiled, parsed = rng.choice(self.hints.patterns)
            text = matching(compiled, parsed, rng)
            if text is not None and rng.random() < 0.25:
                text = near_miss(text, rng)
        if text is None:
            text = "".join(rng.choice(self.pieces) if self.pieces and rng.random() < 0.5 else self.run()
                           for _ in range(rng.randint(1, 5)))
        if self.hints.prefixes and rng.random() < 0.5:
            text = rng.choice(sorted(self.hints.prefixes)) + rng.choice(("", " ")) + text
        if self.hints.suffixes and rng.random() < 0.4:
            text += rng.choice(sorted(self.hints.suffixes))
        return text[:MAX_TEXT]

    def char(self) -> str:
        ones = [p for p in self.pieces if len(p) == 1] + self.classes
        return self.rng.choice(ones or self.runs)
