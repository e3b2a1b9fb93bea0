"""Patterns a module builds from written texts when it loads (`'[{}]+'.format(''.join(WSP))`).

Such a pattern is as fixed as a written one, so it is folded to its text and said the same way,
with one catch: a set's order of items changes from run to run. A pattern built from sets is
folded for every order of every set (small sets only) and kept only when every order parses to
the same expression once the members of each character class are sorted; the text said is the
one built from the sets' items in sorted order, so the wording is the same on every run.

The folding reads `+`, `%` (over a tuple or a dictionary), a compiled pattern's `.pattern` (its text), `str.format`, `join`, f-strings, `re.escape`,
`map(re.escape, ...)`, `sorted(..., key=len, reverse=True)` and a one-`for` comprehension over fixed
items; `fixed_text` gives the same folding to any text the code reads (a `str.format` or `%` template,
a `re.sub` replacement), so every reader sees the text Python builds.
"""

from __future__ import annotations

import ast
import math
import re
import string
from itertools import permutations, product
from re import _constants as c  # noqa: the parser's opcodes
from re import _parser

import libcst as cst

from ifforge.core import pyast
from ifforge.families.logicif.codeops.common.source import dotted_name
from ifforge.families.logicif.codeops.describe.errors import Undescribable

# the texts of the string module: the same in every Python version and on every host
STRING_TEXTS = {f"string.{name}": getattr(string, name) for name in (
    "ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits", "octdigits", "punctuation",
    "whitespace", "printable")}
HOLES = 0xE000  # the first character standing for a text known only at run time
_ORDERS = 720  # at most this many orders of the sets are tried (one set of 6 items)


class _NotFixed(Exception):
    """The expression is not built only from written texts and small sets of characters."""


class _Folder:
    """Folds one expression, giving the sets it meets the items in `orders` (sorted when not given)."""

    def __init__(self, constants: dict[str, cst.BaseExpression], orders: tuple = (), hole=None):
        self.constants, self.orders, self.sets = constants, orders, []
        self.hole, self.marks = hole, {}  # hole: a value known only at run time -> its words, or None
        self.bound: dict[str, object] = {}  # a comprehension's name -> the item it holds now

    def fold(self, node: cst.BaseExpression, seen: frozenset = frozenset()):
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)) and isinstance(node.evaluated_value, str):
            return node.evaluated_value
        if isinstance(node, cst.FormattedString):
            return self._formatted(node, seen)
        if isinstance(node, cst.Attribute) and dotted_name(node) in STRING_TEXTS:  # `string.punctuation`
            return STRING_TEXTS[dotted_name(node)]
        if isinstance(node, cst.Name) and node.value in self.bound:
            return self.bound[node.value]
        if isinstance(node, cst.Name) and node.value in self.constants and node.value not in seen:
            return self.fold(self.constants[node.value], seen | {node.value})
        if isinstance(node, cst.Attribute) and node.attr.value == "pattern" and isinstance(node.value, cst.Name) \
                and node.value.value not in seen and _compiled_text(self.constants.get(node.value.value)):
            return self.text(_compiled_text(self.constants[node.value.value]), seen | {node.value.value})  # `P.pattern`
        if isinstance(node, (cst.List, cst.Tuple)):
            return tuple(self.text(e.value, seen) for e in node.elements if not isinstance(e, cst.StarredElement))
        if isinstance(node, cst.Set) or isinstance(node, cst.Call) and isinstance(node.func, cst.Name) \
                and node.func.value in ("set", "frozenset") and len(node.args) == 1 and not node.args[0].keyword:
            return self._set(node, seen)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
            return self.text(node.left, seen) + self.text(node.right, seen)
        if isinstance(node, (cst.GeneratorExp, cst.ListComp)):
            return self._comprehension(node, seen)
        if isinstance(node, cst.Dict):  # `"%(num)s" % {"num": r"\d+"}`
            if not all(isinstance(e, cst.DictElement) for e in node.elements):
                raise _NotFixed
            return {self.text(e.key, seen): self.text(e.value, seen) for e in node.elements}
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
            values = self.fold(node.right, seen)
            return self.text(node.left, seen) % (values if isinstance(values, (tuple, dict)) else (values,))
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and \
                node.func.attr.value in ("join", "format"):
            owner = self.text(node.func.value, seen)
            if any(a.star for a in node.args):
                raise _NotFixed
            if node.func.attr.value == "join" and len(node.args) == 1 and not node.args[0].keyword:
                items = self.fold(node.args[0].value, seen)
                return owner.join(items if isinstance(items, tuple) else tuple(items))
            if node.func.attr.value == "format":
                args = [self.text(a.value, seen) for a in node.args if a.keyword is None]
                keywords = {a.keyword.value: self.text(a.value, seen) for a in node.args if a.keyword is not None}
                return owner.format(*args, **keywords)
        if isinstance(node, cst.Call) and dotted_name(node.func) in ("map", "sorted"):
            return self._listed(node, seen)
        if isinstance(node, cst.Call) and dotted_name(node.func) == "re.escape" and len(node.args) == 1 \
                and not node.args[0].keyword and not node.args[0].star:
            try:
                return re.escape(self.text(node.args[0].value, seen))
            except _NotFixed:
                pass
        words = self.hole(node) if self.hole is not None else None
        if words is None:
            raise _NotFixed
        mark = chr(HOLES + len(self.marks))  # a character of the private use area holds its place
        self.marks[mark] = words
        return mark

    def _formatted(self, node: cst.FormattedString, seen: frozenset) -> str:
        """An f-string whose every field is a plain `{text}`: its written parts as Python reads them
        (escapes and all, by Python's own parser), each field folded."""
        fields = [p for p in node.parts if isinstance(p, cst.FormattedStringExpression)]
        if any(f.conversion is not None or f.format_spec is not None or f.equal is not None for f in fields):
            raise _NotFixed
        read = pyast.parse(cst.Module([]).code_for_node(node), mode="eval").body
        if not isinstance(read, ast.JoinedStr):
            raise _NotFixed
        values = iter(fields)
        return "".join(part.value if isinstance(part, ast.Constant) else self.text(next(values).expression, seen)
                       for part in read.values)

    def _comprehension(self, node, seen: frozenset) -> tuple:
        """`(re.escape(w) for w in WORDS)`: one `for` over fixed items, no condition, a name as its target."""
        loop = node.for_in
        if loop.inner_for_in is not None or loop.ifs or loop.asynchronous or not isinstance(loop.target, cst.Name) \
                or loop.target.value in self.bound:
            raise _NotFixed
        items, name = self._items(loop.iter, seen), loop.target.value
        made = []
        for item in items:
            self.bound[name] = item
            try:
                made.append(self.fold(node.elt, seen))
            finally:
                del self.bound[name]
        return tuple(made)

    def _listed(self, node: cst.Call, seen: frozenset) -> tuple:
        """`map(re.escape, WORDS)`, and `sorted(WORDS)` (by `key=len`, `reverse=True` too), as a
        pattern of choices is often built longest first: the items in the order they come."""
        args = [a for a in node.args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        if any(a.star for a in node.args) or len(args) != (2 if dotted_name(node.func) == "map" else 1):
            raise _NotFixed
        if dotted_name(node.func) == "map":
            if keywords or dotted_name(args[0].value) != "re.escape":
                raise _NotFixed
            return tuple(re.escape(self._item(item)) for item in self._items(args[1].value, seen))
        key = keywords.pop("key", None)
        reverse = keywords.pop("reverse", None)
        if keywords or key is not None and dotted_name(key) != "len" or reverse is not None and \
                dotted_name(reverse) not in ("True", "False"):
            raise _NotFixed
        return tuple(sorted(map(self._item, self._items(args[0].value, seen)), key=len if key is not None else None,
                            reverse=dotted_name(reverse) == "True"))

    def _items(self, node: cst.BaseExpression, seen: frozenset) -> tuple:
        items = self.fold(node, seen)  # a set's items come in each order `pattern_text` tries
        if not isinstance(items, tuple):
            raise _NotFixed
        return items

    @staticmethod
    def _item(item) -> str:
        if not isinstance(item, str):
            raise _NotFixed
        return item

    def text(self, node: cst.BaseExpression, seen: frozenset) -> str:
        value = self.fold(node, seen)
        if not isinstance(value, str):
            raise _NotFixed
        return value

    def _set(self, node, seen: frozenset) -> tuple:
        if isinstance(node, cst.Set):
            members = [self.text(e.value, seen) for e in node.elements if not isinstance(e, cst.StarredElement)]
            if len(members) != len(node.elements):
                raise _NotFixed
        else:
            members = list(self.fold(node.args[0].value, seen))
        if not all(isinstance(m, str) and len(m) == 1 for m in members):
            raise _NotFixed
        members = tuple(sorted(set(members)))
        index = len(self.sets)
        self.sets.append(members)
        return self.orders[index] if index < len(self.orders) else members


def _compiled_text(value: cst.BaseExpression | None) -> cst.BaseExpression | None:
    """The text given to `re.compile(text[, flags])`, which the pattern keeps as its `pattern`, else None."""
    if isinstance(value, cst.Call) and dotted_name(value.func) == "re.compile" and 1 <= len(value.args) <= 2 \
            and not any(a.keyword or a.star for a in value.args):
        return value.args[0].value
    return None


def pattern_text(node: cst.BaseExpression, constants: dict[str, cst.BaseExpression], flags: int = 0) -> str | None:
    """The text of a pattern built from written texts (and small sets of characters, when their order
    cannot change what it matches), or None when it is not built that way."""
    first = _Folder(constants)
    try:
        text = first.fold(node)
    except (_NotFixed, TypeError, ValueError, IndexError, KeyError):
        return None
    if not isinstance(text, str):
        return None
    if not first.sets:
        return text
    if math.prod(math.factorial(len(s)) for s in first.sets) > _ORDERS:
        raise Undescribable("a regular expression built from a set too large to try in every order")
    meaning = _meaning(text, flags)
    for orders in product(*(permutations(s) for s in first.sets)):
        if _meaning(_Folder(constants, orders).fold(node), flags) != meaning:
            raise Undescribable("a regular expression built from a set whose order changes what it matches")
    return text


def fixed_text(node: cst.BaseExpression, constants: dict[str, cst.BaseExpression]) -> str | None:
    """The text of a value built only from written texts (module constants traced, no sets), or None."""
    folder = _Folder(constants)
    try:
        text = folder.fold(node)
    except (_NotFixed, TypeError, ValueError, IndexError, KeyError):
        return None
    return text if isinstance(text, str) and not folder.sets else None


# where a text put into a pattern would not stay plain characters of its own: after a backslash or an
# escape it may continue (`\\x`, `\\1`, `\\N{`), or inside a repeat's braces (`a{`)
_OPEN = re.compile(r"(?<!\\)(?:\\\\)*\\(?:[xuU0-9]\w*|N\{[^}]*)?$|\{\d*(?:,\d*)?$")


def with_holes(node: cst.BaseExpression, constants: dict[str, cst.BaseExpression], hole) -> tuple[str, dict[str, str]] | None:
    """A pattern built from written texts and texts known only at run time whose every character is
    matched as itself (`hole`: such a value -> its words, else None): its text with a private-use
    character in each such text's place, and those characters' words; None when it is not built so.
    Where a repeat or a character class would take only part of such a text, `regex.gloss` refuses."""
    folder = _Folder(constants, hole=hole)
    try:
        text = folder.fold(node)
    except (_NotFixed, TypeError, ValueError, IndexError, KeyError):
        return None
    if not isinstance(text, str) or folder.sets or not folder.marks:
        return None
    if any(_OPEN.search(text[:text.index(mark)]) for mark in folder.marks):
        return None  # the text would join an escape or a repeat's count
    return text, folder.marks


def _meaning(text: str, flags: int):
    """The parsed pattern with each character class's members sorted (their order matches the same)."""
    try:
        parsed = _parser.parse(text, flags)
    except re.error:
        return None
    return parsed.state.flags, parsed.state.groups, _sorted_classes(parsed)


def _sorted_classes(value):
    if isinstance(value, _parser.SubPattern):
        return [(op, _members(av) if op is c.IN else _sorted_classes(av)) for op, av in value.data]
    if isinstance(value, (list, tuple)):
        return type(value)(map(_sorted_classes, value))
    return value


def _members(items: list) -> list:
    """A character class's members in sorted order, a leading "none of" kept first."""
    negate = items[:1] if items and items[0][0] is c.NEGATE else []
    return negate + sorted(items[len(negate):], key=repr)
