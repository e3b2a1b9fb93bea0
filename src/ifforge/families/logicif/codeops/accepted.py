"""Values the functions a parameter is passed to accept, read from the code (never run here).

Drawn at random, text rarely gets past `int(s)`, `s.encode(enc)`, `base64.b64decode(s)` or
`PATTERN.match(s).group(1)`, and a dict rarely holds the keys `spec["width"]` reads: every
candidate raises on the same line. The code says what the callee wants. A parameter (or a name
holding it after `.strip()`, a slice or `.split(sep)[k]`) passed to `int()` / `float()` gets texts of
digits; to `.encode()` / `.decode()` / `codecs.lookup()` as the encoding, encoding names; to a
base64, base32 or hex decoder, texts of a valid length and alphabet; to `fromisoformat`, ISO dates
and times; to a regular expression whose match is used without a None test, texts it matches. A
text whose characters the code compares at fixed places (`s[4] == "-"`, `s[:3] == "257"`) gets
texts with those characters there, as long as the lengths it compares with; items that become
characters (`chr(c)`, `bytes((c,))`) compared with one-character constants, lists of those code
points; the left side of `text % values`, printf formats; a parameter read as `p["k"]`, a dict
holding every key read, each value by how its name is used. `with_accepted` mixes these into candidates drawn
otherwise (`codeops.candidates`), so the other parameters keep their values; everything random
comes from one `random.Random` seeded by the caller, and every value is JSON.
"""

from __future__ import annotations

import ast
import base64
import random
import re
import string
from collections import defaultdict

from ifforge.core import pyast
from ifforge.families.logicif.codeops.candidates import Candidate
from ifforge.families.logicif.codeops.texts import matching

try:  # Python 3.11+
    from re import _parser as _parse
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse as _parse  # type: ignore[no-redef]

ENCODINGS = ["utf-8", "ascii", "latin-1", "utf-16", "cp1252"]
DECODERS = {  # a decoder's name -> how to make a text it accepts from some bytes
    "b64decode": base64.b64encode, "standard_b64decode": base64.b64encode, "a2b_base64": base64.b64encode,
    "decodebytes": base64.b64encode, "urlsafe_b64decode": base64.urlsafe_b64encode,
    "b32decode": base64.b32encode, "b16decode": base64.b16encode, "a2b_hex": base64.b16encode,
    "unhexlify": base64.b16encode, "fromhex": lambda raw: raw.hex().encode(),
}
ENCODING_TAKERS = {"encode": 0, "decode": 0, "lookup": 0}  # method or function -> the argument that is an encoding
ISO_TEXTS = {  # by the class whose fromisoformat reads them
    "date": ["2024-01-31", "1999-12-05", "2024-02-29", "0001-01-01", "2023-07-04"],
    "time": ["12:05", "23:59:59", "00:00", "08:30:15.250", "10:00:00+02:00"],
    "datetime": ["2024-01-31", "2024-02-29T13:45:00", "2023-07-04T08:30", "2024-01-31 10:00:00+02:00",
                 "1999-12-31T23:59:59"]}
FORMATS = ["%d", "%5d", "%-4d", "%.2f", "%8.3f", "%e", "%g", "%s", "%x", "%i", "%u", "%03d", "%.0f"]
NUMERIC_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Pow)
SHARE = 4  # one candidate in SHARE of those drawn otherwise gets a twin with accepted values
TEXT_FILL = string.digits  # what fills a text around the characters the code checks: parsers read digits


class _Reader(ast.NodeVisitor):
    """Which names reach which callees, for one function and the module constants beside it."""

    def __init__(self, patterns: dict[str, str]):
        self.source_of: dict[str, str] = {}  # a name holding a parameter's text -> that parameter
        self.split: dict[str, tuple[str, str]] = {}  # parts = p.split(sep) -> (p, sep)
        self.offers: dict[str, list] = defaultdict(list)  # a parameter -> kinds of value it is offered
        self.keys: dict[str, dict[str, str]] = defaultdict(dict)  # p["k"] read into v: p -> {k: v}
        self.places: dict[str, dict[int, str]] = defaultdict(dict)  # p[i] == "c": p -> {i: c}
        self.lengths: dict[str, set[int]] = defaultdict(set)
        self.length_names: dict[str, str] = {}  # n = len(p) -> p
        self.patterns = patterns  # NAME = re.compile("...") at module level -> the pattern text
        self.constants: dict[str, object] = {}  # separator = "-": a local name for a constant
        self.modulo: set[str] = set()  # names on the left of `%` with a right side that is no number
        self.numeric: set[str] = set()  # names an arithmetic operator is given
        self.items: dict[str, str] = {}  # for c in p: c -> p
        self.characters: dict[str, str] = {}  # ch = chr(c) or bytes((c,)) of an item c of p -> p
        self.codes: dict[str, set[int]] = defaultdict(set)  # p -> code points its items' characters meet

    def origin(self, node: ast.AST) -> str | None:
        """The parameter an expression is the text of: `p`, `p.strip()`, `p[1:]`, `parts[2]` of a split."""
        if isinstance(node, ast.Name):
            return self.source_of.get(node.id)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args \
                and node.func.attr in ("strip", "lstrip", "rstrip", "lower", "upper"):
            return self.origin(node.func.value)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return self.origin(node.value)
        return None

    def visit_For(self, node: ast.For) -> None:
        if isinstance(node.target, ast.Name) and isinstance(node.iter, ast.Name) and node.iter.id in self.source_of:
            self.items[node.target.id] = self.source_of[node.iter.id]
        self.generic_visit(node)

    def _code_of(self, node: ast.AST) -> str | None:
        """The parameter whose item an expression turns into a character: `chr(c)`, `bytes((c,))`."""
        if isinstance(node, ast.Name):
            return self.characters.get(node.id)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            inner = node.args[0]
            if node.func.id == "bytes" and isinstance(inner, (ast.Tuple, ast.List)) and len(inner.elts) == 1:
                inner = inner.elts[0]
            elif node.func.id != "chr":
                return None
            return self.items.get(inner.id) if isinstance(inner, ast.Name) else None
        return None

    def visit_Assign(self, node: ast.Assign) -> None:
        self.generic_visit(node)
        for target in node.targets:
            if isinstance(target, ast.Name) and self._code_of(node.value):
                self.characters[target.id] = self._code_of(node.value)
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            return
        name, value = node.targets[0].id, node.value
        if isinstance(value, ast.Constant):
            self.constants[name] = value.value
        holder = self.origin(value)
        if holder:
            self.source_of[name] = holder
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "split" \
                and self.origin(value.func.value) and value.args and isinstance(value.args[0], ast.Constant) \
                and isinstance(value.args[0].value, str):
            self.split[name] = (self.origin(value.func.value), value.args[0].value)
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "len" \
                and value.args and self.origin(value.args[0]):
            self.length_names[name] = self.origin(value.args[0])
        elif isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) \
                and value.value.id in self.source_of and isinstance(value.slice, ast.Constant) \
                and isinstance(value.slice.value, str):
            self.keys[self.source_of[value.value.id]][value.slice.value] = name

    def _text(self, node: ast.AST) -> tuple[str, tuple | None] | None:
        """(parameter, (separator, part index) when it is one part of a split) for a text expression."""
        holder = self.origin(node)
        if holder:
            return holder, None
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in self.split \
                and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int:
            holder, sep = self.split[node.value.id]
            return holder, (sep, node.slice.value)
        return None

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        arguments = list(node.args)
        if called in ("int", "float") and arguments:
            found = self._text(arguments[0])
            base = arguments[1].value if len(arguments) > 1 and isinstance(arguments[1], ast.Constant) else 10
            if found and isinstance(base, int):
                self.offers[found[0]].append(("number", called, base, found[1]))
        if called in ENCODING_TAKERS and isinstance(func, ast.Attribute):
            for argument in [*arguments[:1], *(k.value for k in node.keywords if k.arg == "encoding")]:
                found = self._text(argument)
                if found:
                    self.offers[found[0]].append(("encoding",))
        if called in DECODERS and arguments:
            found = self._text(arguments[0] if not (called == "fromhex" and isinstance(func, ast.Attribute)
                                                    and self._text(func.value)) else func.value)
            if found is None and isinstance(arguments[0], ast.Call) and isinstance(arguments[0].func, ast.Attribute) \
                    and arguments[0].func.attr == "encode":  # a2b_base64(s.encode("ascii"))
                found = self._text(arguments[0].func.value)
            if found:
                self.offers[found[0]].append(("decoded", called))
        if called == "fromisoformat" and arguments and isinstance(func, ast.Attribute):
            found = self._text(arguments[0])
            owner = func.value.attr if isinstance(func.value, ast.Attribute) else getattr(func.value, "id", "")
            if found:
                self.offers[found[0]].append(("iso", owner if owner in ISO_TEXTS else "datetime"))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        # PATTERN.match(p).group(...): the match is used as it is, so the text must match
        value = node.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and value.func.attr in ("match", "fullmatch", "search") and value.args:
            owner = value.func.value
            text, found = None, None
            if isinstance(owner, ast.Name) and owner.id in self.patterns:
                text, found = self.patterns[owner.id], self._text(value.args[0])
            elif isinstance(owner, ast.Name) and owner.id == "re" and len(value.args) > 1 \
                    and isinstance(value.args[0], ast.Constant) and isinstance(value.args[0].value, str):
                text, found = value.args[0].value, self._text(value.args[1])
            if text is not None and found:
                self.offers[found[0]].append(("pattern", text))
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        # `fmt % values` where fmt is only ever a format: `n % 2` and a name also added or
        # multiplied are numbers
        if isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Name) and node.left.id in self.source_of \
                and not (isinstance(node.right, ast.Constant) and isinstance(node.right.value, (int, float))):
            self.modulo.add(node.left.id)
        if isinstance(node.op, NUMERIC_OPERATORS):
            self.numeric.update(side.id for side in (node.left, node.right) if isinstance(side, ast.Name))
        self.generic_visit(node)

    def formats(self) -> None:
        """Offer printf formats to each parameter only ever used as one."""
        for name in sorted(self.modulo - self.numeric):
            self.offers[self.source_of[name]].append(("format",))

    def visit_Compare(self, node: ast.Compare) -> None:
        self.generic_visit(node)
        sides = [node.left, *node.comparators]
        for left, op, right in zip(sides, node.ops, sides[1:]):
            if not isinstance(op, (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)):
                continue
            for one, other in ((left, right), (right, left)):
                self._place(one, other)
                owner = self._code_of(one)
                if owner and isinstance(other, ast.Constant) and isinstance(other.value, (str, bytes)) \
                        and len(other.value) == 1:
                    point = ord(other.value)
                    self.codes[owner].update(p for p in (point - 1, point, point + 1) if 0 <= p < 256)
                if isinstance(one, ast.Name) and one.id in self.length_names and isinstance(other, ast.Constant) \
                        and type(other.value) is int and 0 <= other.value <= 40:
                    self.lengths[self.length_names[one.id]].add(other.value)
                if isinstance(one, ast.Call) and isinstance(one.func, ast.Name) and one.func.id == "len" \
                        and one.args and self.origin(one.args[0]) and isinstance(other, ast.Constant) \
                        and type(other.value) is int and 0 <= other.value <= 40:
                    self.lengths[self.origin(one.args[0])].add(other.value)

    def _place(self, one: ast.AST, other: ast.AST) -> None:
        """`p[4] == "-"`, `p[:3] != "257"`, `p[3:5] == ' "'`: those characters at those places."""
        if isinstance(other, ast.Name) and other.id in self.constants:
            other = ast.Constant(self.constants[other.id])
        if not (isinstance(one, ast.Subscript) and isinstance(one.value, ast.Name) and one.value.id in self.source_of
                and isinstance(other, ast.Constant) and isinstance(other.value, str) and other.value):
            return
        holder, index, text = self.source_of[one.value.id], one.slice, other.value
        if isinstance(index, ast.Constant) and type(index.value) is int and 0 <= index.value < 40 and len(text) == 1:
            self.places[holder].setdefault(index.value, text)
        elif isinstance(index, ast.Slice) and index.step is None and isinstance(index.upper, ast.Constant):
            start = index.lower.value if isinstance(index.lower, ast.Constant) else 0 if index.lower is None else None
            if type(start) is int and type(index.upper.value) is int and index.upper.value - start == len(text) \
                    and 0 <= start < 40:
                for offset, char in enumerate(text):
                    self.places[holder].setdefault(start + offset, char)


def _patterns(tree: ast.Module) -> dict[str, str]:
    """NAME = re.compile("...") at the top of the module: name -> pattern text."""
    found = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call) \
                and isinstance(statement.value.func, ast.Attribute) and statement.value.func.attr == "compile" \
                and statement.value.args and isinstance(statement.value.args[0], ast.Constant) \
                and isinstance(statement.value.args[0].value, str):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = statement.value.args[0].value
    return found


class Offers:
    """What one function's callees accept, per parameter, drawn with one `random.Random`."""

    def __init__(self, source: str, entry: str, lessons=None):
        tree = pyast.parse(source)
        function = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == entry)
        arguments = function.args
        self.names = [a.arg for a in [*arguments.posonlyargs, *arguments.args]]
        self.reader = _Reader(_patterns(tree))
        self.reader.source_of.update((name, name) for name in self.names)
        self.reader.visit(function)
        self.reader.formats()
        self.compiled: dict[str, tuple] = {}
        self.function = function
        for name, kinds in (getattr(lessons, "accepts", None) or {}).items():  # what callees' errors asked for
            for kind in sorted(kinds):
                if kind[0] == "key":
                    self.reader.keys[name].setdefault(kind[1], None)
                elif kind not in self.reader.offers[name]:
                    self.reader.offers[name].append(kind)

    def __bool__(self) -> bool:
        return any(self.kinds(name) for name in self.names)

    def kinds(self, name: str) -> list:
        reader = self.reader
        found = list(reader.offers.get(name, ()))
        if reader.keys.get(name):
            found.append(("keys",))
        if reader.places.get(name):
            found.append(("places",))
        if reader.codes.get(name):
            found.append(("codes",))
        return found

    def value(self, name: str, rng: random.Random):
        """One value for the parameter that its callees accept, or None when the code says nothing."""
        kinds = self.kinds(name)
        if not kinds:
            return None
        kind = rng.choice(kinds)
        return getattr(self, f"_{kind[0]}")(name, rng, *kind[1:])

    def _number(self, name, rng, called, base, part):
        digits = (string.digits + "abcdef")[:base] if 2 <= base <= 16 else string.digits
        def one() -> str:
            text = "".join(rng.choice(digits) for _ in range(rng.randint(1, 3))).lstrip("0") or "0"
            if called == "float" and rng.random() < 0.4:
                text += "." + rng.choice(string.digits)
            return ("-" if rng.random() < 0.2 else "") + text
        if part is None:
            return one()
        separator, index = part
        count = index + 1 if index >= 0 else -index
        return separator.join(one() for _ in range(count + rng.choice((0, 0, 1))))

    def _encoding(self, name, rng):
        return rng.choice(ENCODINGS)

    def _decoded(self, name, rng, called):
        raw = bytes(rng.randrange(32, 127) for _ in range(rng.randint(0, 7)))
        return DECODERS[called](raw).decode("ascii")

    def _iso(self, name, rng, owner):
        return rng.choice(ISO_TEXTS[owner])

    def _format(self, name, rng):
        return rng.choice(FORMATS)

    def _pattern(self, name, rng, text):
        if text not in self.compiled:
            try:
                self.compiled[text] = (re.compile(text), _parse.parse(text))
            except (re.error, RecursionError, OverflowError, ValueError):
                self.compiled[text] = None
        if self.compiled[text] is None:
            return None
        return matching(*self.compiled[text], rng)

    def _places(self, name, rng):
        """A text with the characters the code checks at their places (a random share of them), as
        long as a length the code compares with (or just past the last place), digits elsewhere."""
        places = self.reader.places[name]
        lengths = sorted(self.reader.lengths.get(name, ()))
        sizes = [n + d for n in lengths for d in (0, 1)] or [max(places) + 1 + rng.randint(0, 4)]
        size = rng.choice(sizes)
        kept = {i: c for i, c in places.items() if rng.random() < 0.7}
        return "".join(kept.get(i, rng.choice(TEXT_FILL)) for i in range(size))

    def _codes(self, name, rng):
        """Items that are the code points of the characters the code compares each item's character with
        (`bytes((c,)) <= b"9"`), and between two of them: a list of ints standing for bytes."""
        points = sorted(self.reader.codes[name])
        def one() -> int:
            if len(points) > 1 and rng.random() < 0.5:
                low = rng.randrange(len(points) - 1)
                return rng.randint(points[low], points[low + 1])
            return rng.choice(points)
        return [one() for _ in range(rng.randint(0, 5))]

    def _keys(self, name, rng):
        return {key: self._field_value(bound, rng) for key, bound in self.reader.keys[name].items()}

    def _field_value(self, bound: str, rng: random.Random):
        """A value for the name a key's value is read into, by how the function uses that name."""
        compared, arithmetic, repeated = [], False, False
        for node in ast.walk(self.function):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(isinstance(s, ast.Name) and s.id == bound for s in sides):
                    compared += [s.value for s in sides if isinstance(s, ast.Constant)
                                 and isinstance(s.value, (str, int)) and not isinstance(s.value, bool)]
            if isinstance(node, ast.BinOp):
                sides = (node.left, node.right)
                if any(isinstance(s, ast.Name) and s.id == bound for s in sides):
                    if isinstance(node.op, ast.Mult):
                        repeated = True
                    elif isinstance(node.op, (ast.Sub, ast.FloorDiv, ast.Mod)):
                        arithmetic = True
        if compared:
            return rng.choice(compared)
        if arithmetic:
            return rng.randint(0, 12)
        if repeated:  # `fill * n`: a text repeated by a count
            return rng.choice(("*", " ", "0", "-"))
        return rng.randint(0, 9)


def with_accepted(source: str, entry: str, made: list[Candidate], seed: int, lessons=None) -> list[Candidate]:
    """`made` and, for about one in SHARE of them, a twin whose parameters the callees read get
    values those callees accept (as the code shows, or as their errors said: `lessons.accepts`);
    nothing added when the code passes no parameter to such a callee."""
    try:
        offers = Offers(source, entry, lessons)
    except (SyntaxError, StopIteration, RecursionError):
        return list(made)
    if not offers:
        return list(made)
    rng = random.Random(seed)
    twins = []
    for candidate in made[: max(8, len(made) // SHARE)]:
        args = list(candidate.args)
        for index, name in enumerate(offers.names[: len(args)]):
            value = offers.value(name, rng)
            if value is not None:
                args[index] = value
        if args != candidate.args:
            twins.append(Candidate(args, f"{candidate.origin}, accepted by a callee"))
    return [*twins, *made]
