"""Values the functions a parameter is passed to accept, read from the code (never run here).

Drawn at random, text rarely gets past `int(s)`, `s.encode(enc)`, `base64.b64decode(s)` or
`PATTERN.match(s).group(1)`, and a dict rarely holds the keys `spec["width"]` reads: every
candidate raises on the same line. The code says what the callee wants. A parameter (or a name holding
it after `.strip()`, a slice or `.split(sep)[k]`) passed to `int()` / `float()` gets texts of digits; to
`.encode()` / `.decode()` / `codecs.lookup()` as the encoding, encoding names; to a base64, base32 or
hex decoder, texts of a valid length and alphabet; to `fromisoformat`, ISO dates and times; to an
`ipaddress` reader, addresses; to a printf float conversion (`"%.2f" % p`, also through a helper's
`fmt % value`), floats; to a regular expression whose match is used without a None test, texts it matches. A
text whose characters the code compares at fixed places (`s[4] == "-"`, `s[:3] == "257"`) gets texts
with those characters there, as long as the lengths it compares with; items that become characters
(`chr(c)`, `bytes((c,))`) compared with one-character constants, lists of those code points; the left
side of `text % values`, printf formats; a parameter read as `p["k"]`, a dict holding every key read,
each value by how its name is used. A length computed from a parameter (`len(s) - a - b`,
`len(repr(v))`) compared with a constant gets texts longer than it; items sorted inside a `try` that
catches the error get items of two kinds that cannot be ordered. A table looked up with a group of a
match on a text (`table.get(m.group(1))`) and that text get values that agree. A text read field
by field (`for x in p.split("+")`, a comprehension too) whose fields reach one of these callees gets
one to four accepted fields joined by that separator; a character given to `unicodedata.category`
(or a text whose items are, in a loop or a comprehension, also over `unicodedata.normalize(form, p)`,
or whose character at a place is: `p[i]`), characters of the categories the code names and ASCII letters;
a text whose items (also `i, c in enumerate(p)`) the code finds in a known text (`DIGITS.index(c)`,
`.find`), characters of that text. What a helper of the module asks of its parameter (read the same
way) is offered to the argument the caller passes it (a list of such when the caller passes each item);
a list whose items the code splits (`for line in p: n, *rest = line.split(sep)`) gets items with the
parts it reads; members tested with `startswith`/`endswith` come with and without the affix (a dict
when the code reads p by key); a dict whose listed items are looked up in it again (`for e in g[k]:
walk(g, e)`) is a graph, node to list of nodes, and k one of its nodes. `with_accepted` mixes
these into candidates drawn otherwise (`codeops.inputs.candidates`), so the other parameters keep their values;
everything random comes from one `random.Random` seeded by the caller, and every value is JSON.
"""

from __future__ import annotations

import ast
import base64
import random
import re
import string
import unicodedata
from collections import defaultdict

from ifforge.core import pyast
from ifforge.families.logicif.codeops.inputs.candidates import Candidate, module_constants
from ifforge.families.logicif.codeops.inputs.texts import matching

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
ALPHABET_LOOKUPS = {"index", "find", "rindex", "rfind"}  # `TEXT.index(c)`: where c stands in a known text
ENCODING_TAKERS = {"encode": 0, "decode": 0, "lookup": 0}  # method or function -> the argument that is an encoding
ISO_TEXTS = {  # by the class whose fromisoformat reads them
    "date": ["2024-01-31", "1999-12-05", "2024-02-29", "0001-01-01", "2023-07-04"],
    "time": ["12:05", "23:59:59", "00:00", "08:30:15.250", "10:00:00+02:00"],
    "datetime": ["2024-01-31", "2024-02-29T13:45:00", "2023-07-04T08:30", "2024-01-31 10:00:00+02:00",
                 "1999-12-31T23:59:59"]}
IP_TAKERS = {"ip_address": "any", "ip_interface": "any", "ip_network": "any", "IPv4Address": "4",
             "IPv6Address": "6", "IPv4Interface": "4", "IPv6Interface": "6"}  # ipaddress readers -> version
FORMATS = ["%d", "%5d", "%-4d", "%.2f", "%8.3f", "%e", "%g", "%s", "%x", "%i", "%u", "%03d", "%.0f"]
NUMERIC_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Pow)
CONVERSION = re.compile(r"%(?:\([^)]*\))?[-+ #0]*\d*(?:\.\d+)?([a-zA-Z%])")  # the letter of each printf conversion
ORDERING = {"sorted", "min", "max"}  # built-ins that compare a collection's items with each other
MAX_LONGER = 200  # a computed length compared with a larger constant is left alone
ITEM = "[]"  # p + ITEM stands for each item of a list p the code reads as a text (`for line in p: line.split(sep)`)
SHARE = 4  # one candidate in SHARE of those drawn otherwise gets a twin with accepted values
EVERY = "every"  # the part index of a split's fields read one by one (`for x in p.split(sep)`)
TEXT_FILL = string.digits  # what fills a text around the characters the code checks: parsers read digits


class _Reader(ast.NodeVisitor):
    """Which names reach which callees, for one function and the module constants beside it."""

    def __init__(self, patterns: dict[str, str], formatters: dict[str, list[tuple[int, int]]] | None = None):
        self.source_of: dict[str, str] = {}  # a name holding a parameter's text -> that parameter
        self.split: dict[str, tuple[str, str]] = {}  # parts = p.split(sep) -> (p, sep)
        self.offers: dict[str, list] = defaultdict(list)  # a parameter -> kinds of value it is offered
        self.keys: dict[str, dict[str, str]] = defaultdict(dict)  # p["k"] read into v: p -> {k: v}
        self.places: dict[str, dict[int, str]] = defaultdict(dict)  # p[i] == "c": p -> {i: c}
        self.lengths: dict[str, set[int]] = defaultdict(set)
        self.length_names: dict[str, str] = {}  # n = len(p) -> p
        self.patterns = patterns  # NAME = re.compile("...") at module level -> the pattern text
        self.constants: dict[str, object] = {}  # separator = "-": a local name for a constant
        self.texts: dict[str, str] = {}  # NAME = "..." at module level
        self.modulo: set[str] = set()  # names on the left of `%` with a right side that is no number
        self.numeric: set[str] = set()  # names an arithmetic operator is given
        self.items: dict[str, str] = {}  # for c in p: c -> p
        self.characters: dict[str, str] = {}  # ch = chr(c) or bytes((c,)) of an item c of p -> p
        self.codes: dict[str, set[int]] = defaultdict(set)  # p -> code points its items' characters meet
        self.formatters = formatters or {}  # helper -> (format position, value position) of its `fmt % value`
        self.searched: dict[str, tuple[str, str]] = {}  # m = re.search(PATTERN, p): m -> (pattern text, p)
        self.rendered: dict[str, str] = {}  # r = repr(p) or str(p): r -> p
        self.reduced: dict[str, str] = {}  # n = len(p) - a - b: n -> p
        self.longer: dict[str, set[int]] = defaultdict(set)  # p -> constants a length computed from p meets
        self.fields: dict[str, tuple[str, str]] = {}  # for x in p.split(sep): x -> (p, sep)
        self.parts: dict[str, tuple[str, tuple]] = {}  # a, *rest = p.split(sep): a -> (p, (sep, 0))
        self.members: dict[str, str] = {}  # for k in p (also list(p), sorted(p), p.keys(), k, v in p.items()): k -> p
        self.edges: dict[str, tuple[str, str]] = {}  # for e in g[k]: e -> (g, k), both parameters
        self.entry: str | None = None  # the function read, whose calls of itself pass a node on
        self.params: list[str] = []  # its positional parameters
        self.helpers: dict[str, dict[int, list]] = {}  # a helper of the module -> position -> kinds it offers there

    def origin(self, node: ast.AST) -> str | None:
        """The parameter an expression is the text of: `p`, `p.strip()`, `p[1:]`, `parts[2]` of a split."""
        if isinstance(node, ast.Name):
            return self.source_of.get(node.id)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args \
                and node.func.attr in ("strip", "lstrip", "rstrip", "lower", "upper"):
            return self.origin(node.func.value)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return self.origin(node.value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "normalize" \
                and len(node.args) == 2 and not node.keywords:  # unicodedata.normalize("NFD", p): p's text, recomposed
            return self.origin(node.args[1])
        return None

    def _item_of(self, node: ast.AST) -> str | None:
        """The parameter an expression is one item of: `c` of `for c in p`, also `c.lower()`, `c[1:]`."""
        while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args \
                and node.func.attr in ("strip", "lstrip", "rstrip", "lower", "upper") \
                or isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            node = node.func.value if isinstance(node, ast.Call) else node.value
        return self.items.get(node.id) if isinstance(node, ast.Name) else None

    def _passed(self, node: ast.Call) -> None:
        """`helper(p)` or `helper(c)` for an item c of p, the helper a function of the module: what the
        helper's code offers its parameter, p is offered (for an item, as a list of one to four such)."""
        if not isinstance(node.func, ast.Name) or node.func.id not in self.helpers:
            return
        for position, argument in enumerate(node.args):
            if isinstance(argument, ast.Starred):
                return
            kinds = self.helpers[node.func.id].get(position, ())
            holder, item = self.origin(argument), self._item_of(argument)
            for kind in kinds:
                if holder and kind not in self.offers[holder]:
                    self.offers[holder].append(kind)
                elif item and not holder and ("each", kind) not in self.offers[item]:
                    self.offers[item].append(("each", kind))

    def _member(self, target: ast.AST, iterated: ast.AST) -> None:
        """`for k in p`, `list(p)`, `sorted(p)`, `p.keys()`, `for k, v in p.items()`: k is a member of p."""
        if isinstance(target, ast.Tuple) and len(target.elts) == 2 and isinstance(iterated, ast.Call) \
                and isinstance(iterated.func, ast.Attribute) and iterated.func.attr == "items" and not iterated.args:
            target, iterated = target.elts[0], iterated.func.value
        elif isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Attribute) \
                and iterated.func.attr == "keys" and not iterated.args:
            iterated = iterated.func.value
        elif isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Name) \
                and iterated.func.id in ("list", "sorted", "tuple", "set") and len(iterated.args) == 1:
            iterated = iterated.args[0]
        if isinstance(target, ast.Name) and isinstance(iterated, ast.Name) and iterated.id in self.source_of:
            self.members[target.id] = self.source_of[iterated.id]

    def _prefixed(self, node: ast.Call) -> None:
        """`k.startswith(PREFIX)` (or endswith, a tuple of them) for a member k of p: p holds members with
        that prefix (or suffix) and members without."""
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr in ("startswith", "endswith") and len(node.args) == 1
                and isinstance(func.value, ast.Name) and func.value.id in self.members):
            return
        given = node.args[0].elts if isinstance(node.args[0], ast.Tuple) else [node.args[0]]
        known = [g.value if isinstance(g, ast.Constant) else self.constants.get(g.id, self.texts.get(g.id))
                 if isinstance(g, ast.Name) else None for g in given]
        known = [k for k in known if isinstance(k, str) and k]
        if known:
            kind = ("prefixed", tuple(known), func.attr == "startswith")
            if kind not in self.offers[self.members[func.value.id]]:
                self.offers[self.members[func.value.id]].append(kind)

    def _edge(self, target: ast.AST, iterated: ast.AST) -> None:
        """`for e in g[k]` with g and k parameters: e is one of the nodes g lists for the node k."""
        if isinstance(target, ast.Name) and isinstance(iterated, ast.Subscript) and isinstance(iterated.value, ast.Name) \
                and isinstance(iterated.slice, ast.Name) and iterated.value.id in self.source_of \
                and iterated.slice.id in self.source_of and iterated.value.id != iterated.slice.id:
            self.edges[target.id] = (self.source_of[iterated.value.id], self.source_of[iterated.slice.id])

    def _walked(self, node: ast.AST) -> None:
        """A node e of g[k] looked up in g again (`g[e]`, or passed where k goes in a call of the function
        itself): g is a graph, each node to a list of nodes, and k one of its nodes."""
        found = None
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Name) \
                and node.slice.id in self.edges and self.source_of.get(node.value.id) == self.edges[node.slice.id][0]:
            found = self.edges[node.slice.id]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == self.entry:
            for position, argument in enumerate(node.args):
                if isinstance(argument, ast.Name) and argument.id in self.edges \
                        and self.params[position:position + 1] == [self.edges[argument.id][1]]:
                    found = self.edges[argument.id]
        if found:
            graph, start = found
            for holder, kind in ((graph, ("graph", graph)), (start, ("node", graph))):
                if kind not in self.offers[holder]:
                    self.offers[holder].append(kind)

    def visit_For(self, node: ast.For) -> None:
        if isinstance(node.target, ast.Name) and isinstance(node.iter, ast.Name) and node.iter.id in self.source_of:
            self.items[node.target.id] = self.source_of[node.iter.id]
        self._edge(node.target, node.iter)
        self._member(node.target, node.iter)
        self._counted(node.target, node.iter)
        self._fields(node.target, node.iter)
        self.generic_visit(node)

    def visit_comprehension(self, node: ast.comprehension) -> None:
        self._items(node.target, node.iter)
        self._edge(node.target, node.iter)
        self._member(node.target, node.iter)
        self._fields(node.target, node.iter)
        self.generic_visit(node)

    def _items(self, target: ast.AST, iterated: ast.AST) -> None:
        """A comprehension's `c for c in normalize("NFD", p)`: c is one of p's characters."""
        if isinstance(target, ast.Name) and self.origin(iterated):
            self.items[target.id] = self.origin(iterated)
        self._counted(target, iterated)

    def _counted(self, target: ast.AST, iterated: ast.AST) -> None:
        """`for i, c in enumerate(p)`: c is an item of p."""
        if isinstance(target, ast.Tuple) and len(target.elts) == 2 and isinstance(target.elts[1], ast.Name) \
                and isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Name) \
                and iterated.func.id == "enumerate" and len(iterated.args) == 1 and self.origin(iterated.args[0]):
            self.items[target.elts[1].id] = self.origin(iterated.args[0])

    def _generators_first(self, node: ast.AST) -> None:
        """A comprehension over a split's fields or a parameter's items reads its loops before what it
        makes of each item (`int(x) for x in p.split(",")`, `DIGITS.index(c) for c in p`); any other
        is read in the usual order."""
        before = dict(self.fields), dict(self.items)
        for generator in node.generators:
            self._fields(generator.target, generator.iter)
            self._items(generator.target, generator.iter)
        if (self.fields, self.items) == before:
            self.generic_visit(node)
            return
        for generator in node.generators:
            self.visit(generator)
        for name in ("key", "value", "elt"):
            if hasattr(node, name):
                self.visit(getattr(node, name))

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _generators_first

    def _fields(self, target: ast.AST, iterated: ast.AST) -> None:
        """`for x in p.split("+")`: each x is one field of a text the code reads field by field."""
        found = self._split_of(iterated)
        if isinstance(target, ast.Name) and found and len(iterated.args) == 1 and found[1]:
            self.fields[target.id] = found

    def _split_of(self, node: ast.AST) -> tuple[str, str] | None:
        """(holder, separator) for `p.split(sep)` of a parameter's text, or of an item of a list p read
        as a text (`for line in p: line.split(sep)`; the holder is then p + ITEM)."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "split"
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            return None
        owner = node.func.value
        holder = self.origin(owner) or (self.items[owner.id] + ITEM if isinstance(owner, ast.Name)
                                        and owner.id in self.items else None)
        return (holder, node.args[0].value) if holder else None

    def _unpacked(self, target: ast.AST, value: ast.AST) -> None:
        """`a, *rest = p.split(sep)`, `a, b = line.split(sep)`: each name is the part at its place."""
        found = self._split_of(value)
        if not (found and found[1] and isinstance(target, (ast.Tuple, ast.List))):
            return
        elements = target.elts
        star = next((i for i, e in enumerate(elements) if isinstance(e, ast.Starred)), None)
        for i, element in enumerate(elements):
            if isinstance(element, ast.Name):
                place = i if star is None or i < star else i - len(elements)
                self.parts[element.id] = (found[0], (found[1], place))

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
        if len(node.targets) == 1:
            self._unpacked(node.targets[0], node.value)
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            return
        name, value = node.targets[0].id, node.value
        tried = value.values if isinstance(value, ast.BoolOp) else [value]  # re.search(A, s) or re.search(B, s)
        found = next(filter(None, map(self._search, tried)), None)
        if found:
            self.searched[name] = found
        if isinstance(value, ast.Constant):
            self.constants[name] = value.value
        holder = self.origin(value)
        if holder:
            self.source_of[name] = holder
        elif self._split_of(value):
            self.split[name] = self._split_of(value)
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "len" \
                and value.args and self.origin(value.args[0]):
            self.length_names[name] = self.origin(value.args[0])
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("repr", "str") \
                and len(value.args) == 1 and self.origin(value.args[0]):
            self.rendered[name] = self.origin(value.args[0])
        elif isinstance(value, ast.BinOp) and self._computed_length(value):
            self.reduced[name] = self._computed_length(value)
        elif isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) \
                and value.value.id in self.source_of and isinstance(value.slice, ast.Constant) \
                and isinstance(value.slice.value, str):
            self.keys[self.source_of[value.value.id]][value.slice.value] = name

    def _category(self, argument: ast.AST) -> None:
        """`unicodedata.category(c)` of a parameter (a character) or of its items (a text): `c` taken
        from it by a loop, or `p[i]`, one of its characters at a place worked out."""
        found = self._text(argument)
        if found and found[1] is None:
            self.offers[found[0]].append(("classed", False))
        elif isinstance(argument, ast.Name) and argument.id in self.items:
            self.offers[self.items[argument.id]].append(("classed", True))
        elif isinstance(argument, ast.Subscript) and not isinstance(argument.slice, ast.Slice) \
                and self.origin(argument.value):
            self.offers[self.origin(argument.value)].append(("classed", True))

    def _search(self, node: ast.AST) -> tuple[str, str] | None:
        """(pattern text, parameter) for `re.search(PATTERN, p)` or `COMPILED.search(p)` (also match)."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("search", "match", "fullmatch") and node.args):
            return None
        owner, arguments = node.func.value, node.args
        if isinstance(owner, ast.Name) and owner.id == "re" and len(arguments) > 1:
            pattern, text = arguments[0], arguments[1]
            pattern = pattern.value if isinstance(pattern, ast.Constant) else \
                self.patterns.get(pattern.id) if isinstance(pattern, ast.Name) else None
        elif isinstance(owner, ast.Name) and owner.id in self.patterns:
            pattern, text = self.patterns[owner.id], arguments[0]
        else:
            return None
        holder = self.origin(text)
        return (pattern, holder) if isinstance(pattern, str) and holder else None

    def _group_key(self, table: ast.AST, key: ast.AST) -> None:
        """`q.get(m.group(k))`, `q[m.group(k)]`: q maps what group k of the match on p holds."""
        if isinstance(table, ast.Name) and table.id in self.source_of and isinstance(key, ast.Call) \
                and isinstance(key.func, ast.Attribute) and key.func.attr == "group" \
                and isinstance(key.func.value, ast.Name) and key.func.value.id in self.searched:
            index = 0 if not key.args else key.args[0].value if isinstance(key.args[0], ast.Constant) else None
            if type(index) is int:
                pattern, holder = self.searched[key.func.value.id]
                self.offers[holder].append(("matched", pattern, index))
                self.offers[self.source_of[table.id]].append(("lookup", pattern, index))

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self._group_key(node.value, node.slice)
        self._walked(node)
        self.generic_visit(node)

    def _computed_length(self, node: ast.AST) -> str | None:
        """The parameter whose length an expression computes other than as `len(p)` itself: the length
        of its repr, or a length less other values (`len(s) - prefixlen - suffixlen`)."""
        if isinstance(node, ast.Name):
            return self.reduced.get(node.id)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
            left = node.left
            if isinstance(left, ast.Name) and left.id in self.length_names:
                return self.length_names[left.id]
            if isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "len" and left.args \
                    and self.origin(left.args[0]):
                return self.origin(left.args[0])
            return self._computed_length(left)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and node.args \
                and isinstance(node.args[0], ast.Name) and node.args[0].id in self.rendered:
            return self.rendered[node.args[0].id]
        return None

    def visit_Try(self, node: ast.Try) -> None:
        # `try: sorted(p) except TypeError:`: the handler runs only for items that cannot be ordered
        catches = [h.type for h in node.handlers]
        if any(t is None or isinstance(t, ast.Name) and t.id in ("Exception", "TypeError", "BaseException")
               for t in catches):
            for inner in (n for statement in node.body for n in ast.walk(statement)):
                if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id in ORDERING \
                        and inner.args and self.origin(inner.args[0]):
                    self.offers[self.origin(inner.args[0])].append(("mixed",))
                elif isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) \
                        and inner.func.attr == "sort" and self.origin(inner.func.value):
                    self.offers[self.origin(inner.func.value)].append(("mixed",))
        self.generic_visit(node)

    def _text(self, node: ast.AST) -> tuple[str, tuple | None] | None:
        """(parameter, (separator, part index) when it is one part of a split) for a text expression."""
        holder = self.origin(node)
        if holder:
            return holder, None
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in self.split \
                and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int:
            holder, sep = self.split[node.value.id]
            return holder, (sep, node.slice.value)
        if isinstance(node, ast.Name) and node.id in self.fields:
            holder, sep = self.fields[node.id]
            return holder, (sep, EVERY)
        if isinstance(node, ast.Name) and node.id in self.parts:
            return self.parts[node.id]
        return None

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        self._passed(node)
        self._prefixed(node)
        self._walked(node)
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        arguments = list(node.args)
        if called in ("int", "float") and arguments:
            found = self._text(arguments[0])
            base = arguments[1].value if len(arguments) > 1 and isinstance(arguments[1], ast.Constant) else 10
            if found and isinstance(base, int) and found[1] is not None and found[1][1] == EVERY:
                self.offers[found[0]].append(("fields", ("number", called, base, None), found[1][0]))
            elif found and isinstance(base, int):
                self.offers[found[0]].append(("number", called, base, found[1]))
        if called == "get" and isinstance(func, ast.Attribute) and arguments:
            self._group_key(func.value, arguments[0])
        for format_at, value_at in self.formatters.get(called, ()) if isinstance(func, ast.Name) else ():
            if value_at < len(arguments) and format_at < len(arguments):
                self._formatted(arguments[format_at], arguments[value_at])
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
        if called in IP_TAKERS and arguments and self._text(arguments[0]):
            self.offers[self._text(arguments[0])[0]].append(("address", IP_TAKERS[called]))
        if called == "category" and isinstance(func, ast.Attribute) and len(arguments) == 1:
            self._category(arguments[0])
        if called in ALPHABET_LOOKUPS and isinstance(func, ast.Attribute) and len(arguments) == 1 \
                and isinstance(arguments[0], ast.Name) and arguments[0].id in self.items:
            alphabet = func.value.value if isinstance(func.value, ast.Constant) else \
                self.constants.get(func.value.id, self.texts.get(func.value.id)) if isinstance(func.value, ast.Name) \
                else None
            if isinstance(alphabet, str) and len(set(alphabet)) > 1:  # `DIGITS.index(c)`: c is one of DIGITS
                self.offers[self.items[arguments[0].id]].append(("alphabet", alphabet))
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
            if text is not None and found and found[1] is not None and found[1][1] == EVERY:
                self.offers[found[0]].append(("fields", ("pattern", text), found[1][0]))
            elif text is not None and found:
                self.offers[found[0]].append(("pattern", text))
        self.generic_visit(node)

    def _formatted(self, form: ast.AST, values: ast.AST) -> None:
        """`"%.2f" % p`: a parameter a float conversion formats takes floats (an int prints no point)."""
        if not (isinstance(form, ast.Constant) and isinstance(form.value, str)):
            return
        conversions = [c for c in CONVERSION.findall(form.value) if c != "%"]
        given = values.elts if isinstance(values, ast.Tuple) else [values]
        for value, conversion in zip(given, conversions):
            if conversion in "eEfFgG" and self.origin(value):
                self.offers[self.origin(value)].append(("float",))

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if isinstance(node.op, ast.Mod):
            self._formatted(node.left, node.right)
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
                bound = ast.Constant(self.constants[other.id]) if isinstance(other, ast.Name) \
                    and other.id in self.constants else other
                if self._computed_length(one) and isinstance(bound, ast.Constant) and type(bound.value) is int \
                        and 0 < bound.value <= MAX_LONGER:
                    self.longer[self._computed_length(one)].add(bound.value)
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


CATEGORIES = {"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf",
              "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn"}
COMMON_CATEGORIES = ["Lu", "Ll", "Mn", "Nd", "Po", "Zs", "Sm"]
PER_CATEGORY = 3


def _of_category(category: str) -> list[str]:
    """The first few characters of a Unicode category at or past U+00A0 (ASCII is drawn otherwise)."""
    if category not in _CATEGORY_CHARS:
        found = []
        for point in range(0xA0, 0x30000):
            if 0xD800 <= point < 0xE000:
                continue
            if unicodedata.category(chr(point)) == category:
                found.append(chr(point))
                if len(found) == PER_CATEGORY:
                    break
        _CATEGORY_CHARS[category] = found
    return _CATEGORY_CHARS[category]


_CATEGORY_CHARS: dict[str, list[str]] = {}


def _module_texts(tree: ast.Module) -> dict[str, str]:
    """NAME = "..." at the top of the module, bound once: name -> the text."""
    bound = [t.id for s in tree.body if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign))
             for t in (s.targets if isinstance(s, ast.Assign) else [s.target]) if isinstance(t, ast.Name)]
    return {s.targets[0].id: s.value.value for s in tree.body if isinstance(s, ast.Assign) and len(s.targets) == 1
            and isinstance(s.targets[0], ast.Name) and bound.count(s.targets[0].id) == 1
            and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)}


def _patterns(tree: ast.Module) -> dict[str, str]:
    """NAME = re.compile("...") (or NAME = "...", given to re's functions) at the top of the module:
    name -> pattern text."""
    found = {target.id: statement.value.value for statement in tree.body if isinstance(statement, ast.Assign)
             and isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, str)
             for target in statement.targets if isinstance(target, ast.Name)}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call) \
                and isinstance(statement.value.func, ast.Attribute) and statement.value.func.attr == "compile" \
                and statement.value.args and isinstance(statement.value.args[0], ast.Constant) \
                and isinstance(statement.value.args[0].value, str):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = statement.value.args[0].value
    return found


def _formatters(tree: ast.Module) -> dict[str, list[tuple[int, int]]]:
    """Top-level helpers that format one parameter with another (`percent % value`, `percent % (value,)`):
    helper -> (format position, value position); a call giving a float format says the value is a float."""
    found: dict[str, list[tuple[int, int]]] = {}
    for helper in tree.body:
        if not isinstance(helper, ast.FunctionDef):
            continue
        positions = {a.arg: i for i, a in enumerate([*helper.args.posonlyargs, *helper.args.args])}
        for node in ast.walk(helper):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Name) \
                    and node.left.id in positions:
                for value in [node.right, *getattr(node.right, "elts", ())]:
                    if isinstance(value, ast.Name) and value.id in positions and value.id != node.left.id:
                        found.setdefault(helper.name, []).append((positions[node.left.id], positions[value.id]))
    return found


HELPER_ROUNDS = 2  # a helper's offers read through helpers it calls in turn, this many deep


def _helpers(tree: ast.Module, entry: str, patterns: dict, formatters: dict) -> dict[str, dict[int, list]]:
    """Top-level functions of the module other than the entry: helper -> positional parameter's place ->
    the kinds of value its own code offers that parameter (an `int(word)`, a `category(c) for c in word`)."""
    found: dict[str, dict[int, list]] = {}
    texts, numbers = _module_texts(tree), {n: v for n, v in module_constants(tree).items() if type(v) is int}
    defined = [s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name != entry]
    for _ in range(HELPER_ROUNDS):
        for helper in defined:
            names = [a.arg for a in [*helper.args.posonlyargs, *helper.args.args]]
            reader = _Reader(patterns, formatters)
            reader.source_of.update((name, name) for name in names)
            reader.entry, reader.params = helper.name, names
            reader.constants.update(numbers)
            reader.texts = texts
            reader.helpers = {k: v for k, v in found.items() if k != helper.name}
            reader.visit(helper)
            reader.formats()
            kinds = {i: list(reader.offers[name]) for i, name in enumerate(names) if reader.offers.get(name)}
            if kinds:
                found[helper.name] = kinds
    return found


class Offers:
    """What one function's callees accept, per parameter, drawn with one `random.Random`."""

    def __init__(self, source: str, entry: str, lessons=None):
        tree = pyast.parse(source)
        function = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == entry)
        arguments = function.args
        self.names = [a.arg for a in [*arguments.posonlyargs, *arguments.args]]
        self.reader = _Reader(_patterns(tree), _formatters(tree))
        self.reader.source_of.update((name, name) for name in self.names)
        self.reader.entry, self.reader.params = entry, list(self.names)
        self.reader.constants.update({name: value for name, value in module_constants(tree).items()
                                      if type(value) is int})  # what a length may be compared with by name
        self.reader.texts = _module_texts(tree)  # an alphabet a character may be looked up in
        self.reader.helpers = _helpers(tree, entry, self.reader.patterns, self.reader.formatters)
        self.reader.visit(function)
        self.reader.formats()
        self.compiled: dict[str, tuple] = {}
        self.twin: dict[tuple, list[str]] = {}  # (pattern, group) -> group texts shared by one twin's values
        self.function = function
        self.tree = tree
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
        if reader.longer.get(name):
            found.append(("longer",))
        found += [("each", kind) for kind in reader.offers.get(name + ITEM, ()) if ("each", kind) not in found]
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

    def _fields(self, name, rng, kind, separator):
        """One to four values of a kind joined by the separator the code splits the text into fields at."""
        values = [getattr(self, f"_{kind[0]}")(name, rng, *kind[1:]) for _ in range(rng.randint(1, 4))]
        return None if None in values else separator.join(values)

    def _each(self, name, rng, kind):
        """A list of one to four values of the kind a helper the code passes each item to takes."""
        values = [getattr(self, f"_{kind[0]}")(name, rng, *kind[1:]) for _ in range(rng.randint(1, 4))]
        return None if None in values else values

    def _prefixed(self, name, rng, affixes, front):
        """One to five words, about half of them with a prefix (or suffix) the code tests its members for:
        a dict of them (to small numbers) when the code reads the parameter by key, else a list."""
        words = []
        for _ in range(rng.randint(1, 5)):
            word = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(1, 4)))
            if rng.random() < 0.5:
                affix = rng.choice(affixes)
                word = affix + word if front else word + affix
            words.append(word)
        keyed = any(isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.value, ast.Name)
                    and n.value.id == name and (isinstance(n, ast.Subscript) or n.attr in ("keys", "items", "get", "pop"))
                    for n in ast.walk(self.function))
        return {word: rng.randint(0, 9) for word in words} if keyed else list(dict.fromkeys(words))

    def _drawn_graph(self, rng, graph) -> dict[str, list[str]]:
        """Two to six nodes (JSON keys: letters), each to up to three others, the same for one twin."""
        if ("graph", graph) not in self.twin:
            nodes = list("abcdef"[: rng.randint(2, 6)])
            self.twin[("graph", graph)] = {n: rng.sample([m for m in nodes if m != n], rng.randint(0, min(3, len(nodes) - 1)))
                                           for n in nodes}
        return self.twin[("graph", graph)]

    def _graph(self, name, rng, graph):
        """A graph as a dict, each node to the list of nodes it leads to (the code walks g[k] and looks
        each of those up in g again)."""
        return {n: list(m) for n, m in self._drawn_graph(rng, graph).items()}

    def _node(self, name, rng, graph):
        """A node of the twin's graph, now and then one it does not hold."""
        nodes = list(self._drawn_graph(rng, graph))
        return rng.choice(nodes) if rng.random() < 0.85 else "z"

    def _alphabet(self, name, rng, alphabet):
        """One to eight characters of the text the code finds each of them in (`DIGITS.index(c)`), now
        and then its first one (found at 0)."""
        return "".join(alphabet[0] if rng.random() < 0.2 else rng.choice(alphabet) for _ in range(rng.randint(1, 8)))

    def _classed(self, name, rng, text):
        """A character (or a text of a few) of the Unicode categories the code names, else of a few
        common ones, now and then an ASCII letter: what `unicodedata.category(c) in (...)` tells apart."""
        named = sorted({n.value for n in ast.walk(self.tree) if isinstance(n, ast.Constant) and n.value in CATEGORIES})
        pool = [c for category in named or COMMON_CATEGORIES for c in _of_category(category)] + ["a", "Z"]
        if not text:
            return rng.choice(pool)
        return "".join(rng.choice(pool) for _ in range(rng.randint(1, 5)))

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

    def new_twin(self) -> None:
        """Forget the matches drawn for the last twin: a text and the table its groups are looked up in agree."""
        self.twin = {}

    def _groups(self, rng, text, index) -> list[tuple[str, str]]:
        """(matching text, its group) pairs, the same for every parameter of one twin."""
        if (text, index) not in self.twin:
            pairs = []
            for _ in range(rng.randint(1, 2)):
                whole = self._pattern(None, rng, text)
                match = re.match(text, whole) if whole is not None else None
                if match and index <= (match.re.groups or 0) and match.group(index):
                    pairs.append((whole, match.group(index)))
            self.twin[(text, index)] = pairs
        return self.twin[(text, index)]

    def _matched(self, name, rng, text, index):
        """Matches of the pattern with letters around them: the text a table is looked up from."""
        pairs = self._groups(rng, text, index)
        if not pairs:
            return None
        filler = lambda: "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(0, 3)))
        return filler() + "".join(whole + filler() for whole, _ in pairs)

    def _lookup(self, name, rng, text, index):
        """A table holding what the matches' group reads, each to a short word."""
        pairs = self._groups(rng, text, index)
        return {group: "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(1, 4)))
                for _, group in pairs} or None

    def _longer(self, name, rng):
        """A text longer than a constant a length computed from it meets (`len(s) - a - b > 12`,
        `len(repr(v)) < 80`), by up to as much again: what is subtracted may be as large."""
        bound = rng.choice(sorted(self.reader.longer[name]))
        return "".join(rng.choice(string.ascii_lowercase + string.digits)
                       for _ in range(bound + rng.randint(1, bound + 1)))

    def _address(self, name, rng, version):
        """An IPv4 or IPv6 address text (either when the reader takes both), some of them special."""
        four = version == "4" or version == "any" and rng.random() < 0.5
        if four:
            return rng.choice(["127.0.0.1", "0.0.0.0", ".".join(str(rng.randrange(256)) for _ in range(4))])
        groups = [format(rng.randrange(0x10000), "x") if rng.random() < 0.6 else "0" for _ in range(8)]
        text = ":".join(groups)
        return rng.choice([text, "::1", "::", "fe80::" + groups[0], text.replace(":0:0:", "::", 1)])

    def _float(self, name, rng):
        return round(rng.uniform(-1000, 1000) / rng.choice((1, 10, 100)), rng.choice((1, 2, 3)))

    def _mixed(self, name, rng):
        """Items of two kinds that cannot be ordered with each other (numbers and texts), in any order."""
        items = [rng.randint(0, 9), rng.choice(string.ascii_lowercase)]
        items += [rng.choice((rng.randint(0, 9), rng.choice(string.ascii_lowercase))) for _ in range(rng.randint(0, 3))]
        rng.shuffle(items)
        return items

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
        offers.new_twin()
        args = list(candidate.args)
        for index, name in enumerate(offers.names[: len(args)]):
            value = offers.value(name, rng)
            if value is not None:
                args[index] = value
        if args != candidate.args:
            twins.append(Candidate(args, f"{candidate.origin}, accepted by a callee"))
    return [*twins, *made]
