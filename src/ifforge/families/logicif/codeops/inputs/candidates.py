"""Candidate inputs for a seed function that came without any, read from its code (never run here).

The entry function's parameters get a shape (int, float, str, bool, list of X, a fixed-length
record, dict) from their annotations, defaults and how the code uses them (`for x in v`, `v[0]`,
`a, b = v`, `len(v)`, `range(v)`, `ord(v[i])`, comparisons, string and list methods), else from
their names; `Signature(..., wider=True)` adds the rules of `codeops.inputs.wider` (for a seed otherwise dropped).
Values come from pools the code itself suggests: each constant a value is compared with, and its
neighbours (c-1, c, c+1), strings the code compares with, lengths compared with `len(v)`; plus
empty, one-element and several-element containers, plain random values, and, for text, texts
made of what the code tests text against (`codeops.inputs.texts`: its patterns, characters, prefixes).
Everything random comes from one `random.Random` seeded by the caller, so a seed value gives the
same candidates and another gives others. Each candidate says where it came from (`origin`).
"""

from __future__ import annotations

import ast
import random
import string
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ifforge.core import pyast
from ifforge.families.logicif.codeops.inputs import wider as widened
from ifforge.families.logicif.codeops.inputs.kinds import another
from ifforge.families.logicif.codeops.inputs.texts import Texts, read_hints

Shape = tuple  # ("int",) ("float",) ("str",) ("char",) ("bool",) ("list", elem) ("record", (slots...)) ("dict", k, v) ("any",)
INT, FLOAT, STR, CHAR, BOOL, ANY = ("int",), ("float",), ("str",), ("char",), ("bool",), ("any",)

STR_METHODS = {"split", "lower", "upper", "strip", "lstrip", "rstrip", "isdigit", "isalpha", "isalnum", "isspace",
               "startswith", "endswith", "replace", "find", "join", "title", "isupper", "islower", "encode",
               "capitalize", "swapcase", "zfill", "partition", "splitlines"}
LIST_METHODS = {"append", "pop", "sort", "extend", "insert", "remove", "reverse", "copy"}
DICT_METHODS = {"items", "keys", "values", "get", "setdefault", "update"}
# every method only one JSON kind has: `s.isascii()` says str as surely as `s.lower()`
_PUBLIC = {kind: {m for m in dir(kind) if not m.startswith("_")} for kind in (str, list, dict)}
STR_METHODS |= _PUBLIC[str] - _PUBLIC[list] - _PUBLIC[dict]
LIST_METHODS |= _PUBLIC[list] - _PUBLIC[str] - _PUBLIC[dict]
DICT_METHODS |= _PUBLIC[dict] - _PUBLIC[str] - _PUBLIC[list] - {"copy", "pop"}
# str methods whose arguments are text too: `s.replace(old, new)` says old and new are
STR_ARGUMENTS = {"replace", "startswith", "endswith", "find", "rfind", "split", "rsplit", "partition", "rpartition",
                 "removeprefix", "removesuffix", "strip", "lstrip", "rstrip", "encode", "decode", "index", "rindex",
                 "count"}
# what `isinstance(x, T)` says x may be, for the JSON kinds
ISINSTANCE_KINDS = {"str": "str", "int": "int", "float": "number", "list": "iterable", "tuple": "iterable",
                    "dict": "dict"}
# calls whose arguments are text: the `re` functions and a compiled pattern's methods, path functions
TEXT_CALLS = {"match", "search", "fullmatch", "findall", "finditer", "sub", "subn", "fspath", "basename", "dirname",
              "splitext", "normpath", "normcase", "isabs", "splitdrive", "quote", "unquote", "category", "path.join"}
# calls that ask a value's kind, and errors caught around code that may meet the wrong kind
KIND_TESTS = {"isinstance", "type", "callable", "hasattr", "getattr"}
KIND_ERRORS = {"TypeError", "AttributeError"}
ITERATING = {"zip", "deque", "Counter", "frozenset", "tuple", "any", "all", "map", "filter", "heapify"}
OTHER_KIND = 0.35  # the share of an open-kind parameter's values drawn as another JSON kind
EXACT_SHARE = 0.4  # the share of a number's values drawn from its `exact` ones, where the wider reading has them
NAME_HINTS = [  # (name pieces, shape): used only when the code says nothing
    (("grid", "board", "matrix", "maze", "field"), ("list", ("list", INT))),
    (("text", "word", "name", "string", "key", "pattern", "line", "char", "code", "msg", "message", "s", "source",
      "expr", "expression", "sentence", "goal", "src"), STR),
    (("flag", "strict", "enabled", "verbose", "allow", "is", "has", "use"), BOOL),
    (("rate", "ratio", "price", "factor", "weight", "prob"), FLOAT),
    (("list", "items", "values", "nums", "numbers", "arr", "array", "seq", "data", "events", "ops", "queue",
      "stack", "scores", "costs", "points", "xs"), ("list", INT)),
]


@dataclass
class Candidate:
    args: list
    origin: str  # "defaults", "literal boundary", "edge shape", "random", "llm", "given"


@dataclass
class Facts:
    """What the code says about one name: its kind, its element, its record slots, its constants."""

    kinds: set = field(default_factory=set)
    element: set = field(default_factory=set)  # names bound to its elements
    slots: dict = field(default_factory=lambda: defaultdict(set))  # index -> names bound to that slot
    width: int = 0  # fixed length seen (unpacking or the largest constant index + 1)
    keys: set = field(default_factory=set)
    values: set = field(default_factory=set)
    constants: set = field(default_factory=set)  # numbers and strings it is compared with
    lengths: set = field(default_factory=set)  # numbers len(it) is compared with
    fields: set = field(default_factory=set)  # string keys it is read with: v["host"], v.get("port")
    nullable: bool = False  # the code asks whether it is None: `if v is None`
    tested: bool = False  # the code asks its kind: isinstance, type, callable, hasattr, a caught TypeError
    rebound: bool = False  # the name is set anew (`n = int(n)`): a normaliser's input, not a predicate's
    exact: set = field(default_factory=set)  # the wider reading: values that bring its arithmetic out round

    def absorb(self, other: Facts) -> None:
        """Take in what the code says about another name that holds the same value."""
        for name in ("kinds", "element", "keys", "values", "constants", "lengths", "fields"):
            getattr(self, name).update(getattr(other, name))
        self.width = max(self.width, other.width)
        self.nullable |= other.nullable
        self.tested |= other.tested
        self.rebound |= other.rebound
        self.exact |= other.exact
        for index, names in other.slots.items():
            self.slots[index] |= names


class _Reader(ast.NodeVisitor):
    def __init__(self, named: dict | None = None, tables: dict | None = None, wider: bool = False):
        self.named = named or {}  # module constants by name: `LIMIT = 1 << 8` compares like 256
        self.tables = tables or {}  # module-level literal tables by name -> (keys, a mapping) (`codeops.inputs.wider`)
        self.wider = wider  # the wider reading: the rules of `codeops.inputs.wider` too
        self.joined: list[tuple[ast.AST, ast.AST]] = []  # (left, right) of each `+`: text on one side, text on both
        self.facts: dict[str, Facts] = defaultdict(Facts)
        self.aliases: list[tuple[str, str]] = []  # (copy, original): x = sorted(v), list(v), v[:], v.copy()
        self.ints: set[int] = set()
        self.strings: set[str] = set()
        self.passed: list[tuple[str, int, str]] = []  # (function called, position, name passed there)

    # ---- bindings: for x in v, a, b = v, a = v[0]
    def _bind(self, target: ast.AST, source: ast.AST) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(source, ast.Subscript) and isinstance(source.value, ast.Name) \
                    and not isinstance(source.slice, ast.Slice):  # x, y = v[i]: v's items are records
                self._element_record(source.value.id)
                self._bind(target, ast.Name(id=f"{source.value.id}[*]"))
                return
            if isinstance(source, ast.Name):
                facts = self.facts[source.id]
                facts.width = max(facts.width, len(target.elts))
                facts.kinds.add("record")
                for index, element in enumerate(target.elts):
                    if isinstance(element, ast.Name):
                        facts.slots[index].add(element.id)
            return
        if not isinstance(target, ast.Name):
            return
        alias = _copied(source)
        if alias is not None:
            self.aliases.append((target.id, alias))
            return
        if isinstance(source, ast.Subscript) and isinstance(source.value, ast.Subscript) \
                and isinstance(source.value.value, ast.Name) and isinstance(source.slice, ast.Constant) \
                and type(source.slice.value) is int and 0 <= source.slice.value < 8:
            element = self._element_record(source.value.value.id)
            element.slots[source.slice.value].add(target.id)
            return
        if isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute) and source.func.attr == "get" \
                and isinstance(source.func.value, ast.Name) and source.args:  # x = d.get("k", ""): a value of d
            self.facts[source.func.value.id].values.add(target.id)
            if len(source.args) > 1 and isinstance(source.args[1], ast.Constant) and isinstance(source.args[1].value, str):
                self.facts[target.id].kinds.add("str")
            return
        if isinstance(source, ast.Subscript) and isinstance(source.value, ast.Name):
            index = source.slice
            if isinstance(index, ast.Constant) and isinstance(index.value, str):  # x = d["k"]: a value of d
                self.facts[source.value.id].values.add(target.id)
            if isinstance(index, ast.Constant) and type(index.value) is int and 0 <= index.value < 8:
                self.facts[source.value.id].slots[index.value].add(target.id)
            elif not isinstance(index, ast.Slice):
                self.facts[source.value.id].element.add(target.id)

    def _loop(self, target: ast.AST, iterable: ast.AST) -> None:
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.args:
            if iterable.func.id == "enumerate" and isinstance(target, ast.Tuple) and len(target.elts) == 2:
                self._loop(target.elts[1], iterable.args[0])
                return
            if iterable.func.id == "zip" and isinstance(target, ast.Tuple) and len(target.elts) == len(iterable.args):
                for part, source in zip(target.elts, iterable.args):  # `for a, b in zip(x, y)`: a is x's
                    self._loop(part, source)
                return
            if iterable.func.id in ("sorted", "reversed", "list", "tuple"):
                self._loop(target, iterable.args[0])
                return
            if iterable.func.id == "range":
                for arg in iterable.args:
                    if isinstance(arg, ast.Name):
                        self.facts[arg.id].kinds.add("int")
                    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "len" \
                            and arg.args and isinstance(arg.args[0], ast.Name):
                        self.facts[arg.args[0].id].kinds.add("container")
                return
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute) \
                and isinstance(iterable.func.value, ast.Name) and iterable.func.attr == "items":
            owner = self.facts[iterable.func.value.id]
            owner.kinds.add("dict")
            if isinstance(target, ast.Tuple) and len(target.elts) == 2:
                for part, into in zip(target.elts, (owner.keys, owner.values)):
                    if isinstance(part, ast.Name):
                        into.add(part.id)
            return
        if isinstance(iterable, ast.Name):
            facts = self.facts[iterable.id]
            facts.kinds.add("iterable")
            if isinstance(target, ast.Name):
                facts.element.add(target.id)
            elif isinstance(target, ast.Tuple):
                record = f"{iterable.id}[*]"
                facts.element.add(record)
                self._bind(target, ast.Name(id=record))

    def visit_For(self, node: ast.For) -> None:
        self._loop(node.target, node.iter)
        self.generic_visit(node)

    def visit_comprehension(self, node: ast.comprehension) -> None:
        self._loop(node.target, node.iter)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._bind(target, node.value)
            if isinstance(target, ast.Name):
                self.facts[target.id].rebound = True
        self.generic_visit(node)

    def _element_record(self, name: str) -> Facts:
        """The facts of `name`'s elements as records (`v[i][0]`), under the pseudo-name `v[*]`."""
        self.facts[name].element.add(f"{name}[*]")
        self.facts[name].kinds.add("iterable")
        record = self.facts[f"{name}[*]"]
        record.kinds.add("record")
        return record

    def _part(self, node: ast.AST) -> str | None:
        """The pseudo-name of a part read by subscript, `v[1]` (a slot) or `v[i]` (an element), else None."""
        if not isinstance(node, ast.Subscript) or not isinstance(node.value, ast.Name) \
                or isinstance(node.slice, ast.Slice):
            return None
        name, index = node.value.id, node.slice
        if isinstance(index, ast.Constant) and type(index.value) is int and 0 <= index.value < 8:
            self.facts[name].slots[index.value].add(f"{name}[{index.value}]")
            return f"{name}[{index.value}]"
        if isinstance(index, ast.Constant) and isinstance(index.value, str):
            return None  # a mapping's value: `_looked_up` reads those
        self.facts[name].element.add(f"{name}[*]")
        return f"{name}[*]"

    def _text(self, node: ast.AST) -> None:
        """`node` is used as text: a name, or a part of one (`pairs[1].join(...)`, `s.split(seps[0])`)."""
        if isinstance(node, ast.Name):
            self.facts[node.id].kinds.add("str")
        elif self._part(node):
            self.facts[self._part(node)].kinds.add("str")

    def merge_aliases(self) -> None:
        """What the code does with a copy (`events = sorted(v)`) tells about the original too."""
        if self.wider:
            widened.finish(self)
        for copy, original in reversed(self.aliases):
            self.facts[original].absorb(self.facts[copy])

    # ---- uses
    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.value, ast.Subscript) and isinstance(node.value.value, ast.Name) \
                and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int and 0 <= node.slice.value < 8:
            record = self._element_record(node.value.value.id)
            record.width = max(record.width, node.slice.value + 1)
        if isinstance(node.value, ast.Name):
            facts = self.facts[node.value.id]
            facts.kinds.add("indexed")
            index = node.slice
            if isinstance(index, ast.Constant) and type(index.value) is int and 0 <= index.value < 8:
                facts.width = max(facts.width, index.value + 1)
            elif isinstance(index, ast.Constant) and isinstance(index.value, str):
                facts.kinds.add("dict")
                facts.fields.add(index.value)
        if isinstance(node.value, ast.Subscript) and isinstance(node.value.value, ast.Name):
            self.facts[node.value.value.id].kinds.add("nested")
        if self.wider:
            widened.subscript(self, node)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name) and node.func.id == "ord" and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str) and len(node.args[0].value) == 1:
            self.ints.add(ord(node.args[0].value))  # `ord(" ")`: a code point the code writes as a character
        if isinstance(node.func, ast.Name) and node.func.id in ITERATING:
            for arg in node.args:
                if isinstance(arg, ast.Name):
                    self.facts[arg.id].kinds.add("iterable")
        if isinstance(node.func, ast.Name) and node.func.id == "len" and node.args and self._part(node.args[0]):
            self.facts[self._part(node.args[0])].kinds.add("container")  # `len(v[-1])`: v holds containers
        if isinstance(node.func, ast.Name) and node.args and isinstance(node.args[0], ast.Name):
            name = node.args[0].id
            if node.func.id == "len":
                self.facts[name].kinds.add("container")
            elif node.func.id in ("abs", "range", "chr", "bin", "hex"):
                self.facts[name].kinds.add("int")
            elif node.func.id in ("sum", "max", "min", "sorted", "set", "enumerate", "reversed", "list") \
                    and len(node.args) == 1:
                self.facts[name].kinds.add("iterable")
            elif node.func.id in ("max", "min"):
                for arg in node.args:
                    if isinstance(arg, ast.Name):
                        self.facts[arg.id].kinds.add("number")
            elif node.func.id == "ord":
                self.facts[name].kinds |= {"str", "char"}  # ord takes one character and nothing else
        if isinstance(node.func, ast.Name) and node.func.id == "ord" and len(node.args) == 1 \
                and isinstance(node.args[0], ast.Subscript) and isinstance(node.args[0].value, ast.Name) \
                and not isinstance(node.args[0].slice, ast.Slice):
            self.facts[node.args[0].value.id].kinds.add("str")  # `ord(s[i])`: its items are characters
        if isinstance(node.func, ast.Name) and node.func.id in KIND_TESTS and node.args \
                and isinstance(node.args[0], ast.Name):
            self.facts[node.args[0].id].tested = True
        if isinstance(node.func, ast.Name) and node.func.id == "isinstance" and len(node.args) == 2 \
                and isinstance(node.args[0], ast.Name):
            kinds = [k.id for k in (node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]])
                     if isinstance(k, ast.Name)]
            if kinds and kinds[0] in ISINSTANCE_KINDS:  # the first type named is the one it is written for
                self.facts[node.args[0].id].kinds.add(ISINSTANCE_KINDS[kinds[0]])
        if isinstance(node.func, ast.Name):
            self.passed.extend((node.func.id, i, arg.id) for i, arg in enumerate(node.args) if isinstance(arg, ast.Name))
        called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if called == "join" and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Attribute) \
                and node.func.value.attr == "path":
            called = "path.join"  # os.path.join(a, b): a and b are text, unlike the items of "-".join(v)
        if called in TEXT_CALLS:
            for arg in node.args:
                self._text(arg)
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Subscript) \
                and node.func.attr in STR_METHODS and self._part(node.func.value):
            self._text(node.func.value)
            if node.func.attr in STR_ARGUMENTS:
                for arg in node.args:
                    self._text(arg)
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            name, method = node.func.value.id, node.func.attr
            if method in STR_METHODS:
                self.facts[name].kinds.add("str")
                if method in STR_ARGUMENTS:
                    for arg in node.args:
                        self._text(arg)
            elif method in LIST_METHODS:
                self.facts[name].kinds.add("iterable")
            elif method in DICT_METHODS:
                self.facts[name].kinds.add("dict")
                if method == "get" and node.args and isinstance(node.args[0], ast.Constant) \
                        and isinstance(node.args[0].value, str):
                    self.facts[name].fields.add(node.args[0].value)
        if isinstance(node.func, ast.Attribute) and node.func.attr in STR_METHODS \
                and isinstance(node.func.value, ast.Call) and isinstance(node.func.value.func, ast.Name) \
                and node.func.value.func.id == "str" and len(node.func.value.args) == 1 \
                and isinstance(node.func.value.args[0], ast.Name):  # str(v).partition(";"): v is text to split
            self.facts[node.func.value.args[0].id].kinds.add("str")
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Subscript) \
                and isinstance(node.func.value.value, ast.Name) and isinstance(node.func.value.slice, ast.Slice) \
                and node.func.attr in STR_METHODS:  # `v[:2].lower()`: a slice of v is text, so v is
            self.facts[node.func.value.value.id].kinds.add("str")
        if self.wider:
            widened.call(self, node)
        self.generic_visit(node)

    def visit_Try(self, node: ast.Try) -> None:
        """Names a `try` uses whose handler catches a TypeError (`try: iter(x) except TypeError`):
        the code expects values of more than one kind there."""
        caught = [n for handler in node.handlers if handler.type is not None
                  for n in (handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type])]
        if any(isinstance(n, ast.Name) and n.id in KIND_ERRORS for n in caught):
            for name in {n.id for statement in node.body for n in ast.walk(statement) if isinstance(n, ast.Name)}:
                self.facts[name].tested = True
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        for side, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(side, ast.Subscript) and isinstance(side.value, ast.Name) and isinstance(side.slice, ast.Slice) \
                    and isinstance(other, ast.Constant) and isinstance(other.value, str):
                self.facts[side.value.id].kinds.add("str")  # `text[:n] + "..."`: a slice of text is text
            if isinstance(side, ast.Name):
                if isinstance(other, ast.Constant) and isinstance(other.value, str):
                    self.facts[side.id].kinds.add("str")
                elif isinstance(node.op, (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.BitAnd, ast.BitOr,
                                          ast.LShift, ast.RShift)) or (
                        isinstance(other, ast.Constant) and type(other.value) in (int, float)):
                    self.facts[side.id].kinds.add("number")
        if self.wider:
            widened.binop(self, node)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.target, ast.Name):
            self.facts[node.target.id].rebound = True
        if isinstance(node.value, ast.Name) and isinstance(node.op, (ast.Add, ast.Sub)):
            self.facts[node.value.id].kinds.add("number")
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        operands = [node.left, *node.comparators]
        for left, op, right in zip(operands, node.ops, operands[1:]):
            for side, other in ((left, right), (right, left)):
                if isinstance(side, ast.Name) and isinstance(other, ast.Constant) and other.value is None:
                    self.facts[side.id].nullable = True  # `v is None`: None takes the other side
                    continue
                values = _constants(other, self.named)
                if values is None:
                    continue
                if isinstance(side, ast.Name):
                    facts = self.facts[side.id]
                    facts.constants |= values
                    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(other, (ast.Tuple, ast.List, ast.Set)):
                        continue
                    if isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) and all(
                            type(v) is int for v in values):
                        facts.kinds.add("int")
                elif _looked_up(side):  # d.get("k") in ("yes", "on"): what d's values are compared with
                    owner = self.facts[_looked_up(side)]
                    owner.kinds.add("dict")
                    owner.values.add(f"{_looked_up(side)}[.]")
                    self.facts[f"{_looked_up(side)}[.]"].constants |= values
                elif isinstance(side, ast.Call) and isinstance(side.func, ast.Name) and side.func.id == "len" \
                        and side.args and isinstance(side.args[0], ast.Name):
                    self.facts[side.args[0].id].lengths |= {v for v in values if type(v) is int}
                    self.facts[side.args[0].id].kinds.add("container")
                elif self._part(side):  # `v[0] == "x"`, `s[i] == " "`, `s[-1] in "eEf"`: what its parts are
                    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(other, ast.Constant) \
                            and isinstance(other.value, str):
                        values = set(other.value)  # one character of the text
                    self.facts[self._part(side)].constants |= values
        if self.wider:
            widened.compare(self, node)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if type(node.value) is int and abs(node.value) <= 10_000:
            self.ints.add(node.value)
        elif isinstance(node.value, str) and len(node.value) <= 20 and "\n" not in node.value:
            self.strings.add(node.value)
        elif isinstance(node.value, bytes) and len(node.value) <= 8:
            self.ints.update(node.value)  # `b"-!*"`: bytes are whole numbers the code may meet items as


def _looked_up(node: ast.AST) -> str | None:
    """The mapping a value is read from by a constant string key (`d.get("k")`, `d["k"]`), else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and isinstance(node.func.value, ast.Name) and node.args and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str):
        return node.func.value.id
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Constant) \
            and isinstance(node.slice.value, str):
        return node.value.id
    return None


def _copied(node: ast.AST) -> str | None:
    """The name a value copies or reorders (`sorted(v)`, `list(v)`, `v[:]`, `v.copy()`), else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
            "sorted", "list", "tuple", "reversed", "deque") and len(node.args) == 1 \
            and isinstance(node.args[0], ast.Name):
        return node.args[0].id
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "copy" \
            and isinstance(node.func.value, ast.Name):
        return node.func.value.id
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Slice):
        return node.value.id
    return None


FOLDED = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
          ast.LShift: lambda a, b: a << b if 0 <= b <= 64 else None,
          ast.Pow: lambda a, b: a ** b if 0 <= b <= 64 and abs(a) <= 16 else None}


def _constants(node: ast.AST, named: dict | None = None) -> set | None:
    """The constants of a literal (a number, a string, or a tuple / list / set of them), of a sum or
    shift of numbers (`1 << 16`), or of a module constant's name (`named`), else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) in (int, float):
        return {-node.operand.value}
    if isinstance(node, ast.Constant) and type(node.value) in (int, float, str):
        return {node.value}
    if isinstance(node, ast.Name) and named and node.id in named:
        return {named[node.id]}
    if isinstance(node, ast.BinOp) and type(node.op) in FOLDED:
        left, right = _constants(node.left, named), _constants(node.right, named)
        if left and right and len(left) == len(right) == 1:
            a, b = next(iter(left)), next(iter(right))
            if type(a) is int and type(b) is int:
                value = FOLDED[type(node.op)](a, b)
                return {value} if value is not None and abs(value) <= 1 << 64 else None
        return None
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        parts = [_constants(element, named) for element in node.elts]
        if parts and all(part is not None for part in parts):
            return set().union(*parts)
    return None


def module_constants(tree: ast.Module) -> dict:
    """Module-level names bound once to a number or a short text: `LIMIT = 80`, `BIG = 1 << 16`."""
    found: dict = {}
    bound: dict = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                and isinstance(statement.targets[0], ast.Name):
            name = statement.targets[0].id
            bound[name] = bound.get(name, 0) + 1
            values = _constants(statement.value, found)
            if values is not None and len(values) == 1 and not isinstance(statement.value, (ast.Tuple, ast.List,
                                                                                          ast.Set)):
                found[name] = next(iter(values))
    return {name: value for name, value in found.items() if bound[name] == 1
            and not (isinstance(value, str) and len(value) > 20)}


def _annotation_shape(node: ast.AST | None) -> Shape | None:
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = pyast.parse(node.value, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(node, ast.Name):
        return {"int": INT, "float": FLOAT, "str": STR, "bool": BOOL, "list": ("list", INT), "List": ("list", INT),
                "dict": ("dict", STR, INT), "Dict": ("dict", STR, INT), "tuple": ("list", INT),
                "set": ("list", INT)}.get(node.id)
    if isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Name, ast.Attribute)):
        outer = node.value.id if isinstance(node.value, ast.Name) else node.value.attr
        inner = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        shapes = [_annotation_shape(part) or ANY for part in inner]
        if outer in ("list", "List", "Sequence", "Iterable", "set", "Set", "frozenset"):
            return ("list", shapes[0])
        if outer in ("tuple", "Tuple"):
            if len(inner) == 2 and isinstance(inner[1], ast.Constant) and inner[1].value is Ellipsis:
                return ("list", shapes[0])
            return ("record", tuple(shapes))
        if outer in ("dict", "Dict", "Mapping"):
            return ("dict", shapes[0], shapes[-1])
        if outer == "Optional":
            return shapes[0]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):  # X | None
        return _annotation_shape(node.left) or _annotation_shape(node.right)
    return None


def _value_shape(value: Any) -> Shape:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, float):
        return FLOAT
    if isinstance(value, str):
        return STR
    if isinstance(value, (list, tuple)):
        return ("list", _value_shape(value[0]) if value else INT)
    if isinstance(value, dict):
        return ("dict", STR, INT)
    return ANY


def _hint(name: str) -> Shape:
    pieces = set(name.lower().split("_")) | {name.lower()}
    for words, shape in NAME_HINTS:
        if pieces & set(words):
            return shape
    if name.lower().endswith("s") and len(name) > 2:
        return ("list", INT)
    return INT


@dataclass(frozen=True)
class Parameter:
    name: str
    shape: Shape
    default: Any = None
    has_default: bool = False
    constants: tuple = ()  # what the code compares this value (or its parts) with
    lengths: tuple = ()
    fields: tuple = ()  # the string keys the code reads it with, when it is a mapping
    spread: bool = False  # `*args`: the value is a list whose items are passed one by one
    alternative: Shape | None = None  # the other reading where the code's uses allow two
    nullable: bool = False  # the code tests it against None, so None is a value to try
    tested: bool = False  # the code tests its kind: the rescue may give it another kind (`codeops.inputs.kinds`)
    open_kind: bool = False  # tested, and its kind unknown or never converted: drawn over every JSON kind
    omitted: bool = False  # the wider reading: left out at times with those after it (its default is no JSON)
    exact: tuple = ()  # the wider reading: numbers that bring the code's arithmetic on it out round (`x / 12.92`)


def _json_value(value: Any) -> bool:
    """Whether a default can be given as a test input (inputs are JSON values)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    if isinstance(value, list):
        return all(_json_value(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(key, str) and _json_value(item) for key, item in value.items())
    return False


def _borrow(reader: _Reader, helpers: dict[str, ast.FunctionDef], seen: set[str], named: dict | None = None) -> None:
    """A name passed to a helper of the seed is what the helper does with it too: `basename(p)`
    calling `splitdrive(p)` calling `os.fspath(p)` says p is text."""
    for callee, position, name in reader.passed:
        if callee not in helpers or callee in seen:
            continue
        helper = helpers[callee]
        parameters = [*helper.args.posonlyargs, *helper.args.args]
        if position >= len(parameters):
            continue
        inner = _Reader(named, reader.tables, reader.wider)
        inner.visit(helper)
        inner.merge_aliases()
        _borrow(inner, helpers, seen | {callee}, named)
        if parameters[position].arg not in inner.facts:
            continue
        prefix = f"{callee}:{position}:"  # the helper's names, kept apart from the caller's
        for other, theirs in list(inner.facts.items()):
            reader.facts[prefix + other] = _renamed(theirs, prefix)
        reader.facts[name].absorb(reader.facts[prefix + parameters[position].arg])


def _renamed(facts: Facts, prefix: str) -> Facts:
    """A copy of `facts` whose names of parts carry `prefix`."""
    slots = defaultdict(set, {index: {prefix + n for n in names} for index, names in facts.slots.items()})
    return Facts(set(facts.kinds), {prefix + n for n in facts.element}, slots, facts.width,
                 {prefix + n for n in facts.keys}, {prefix + n for n in facts.values}, set(facts.constants),
                 set(facts.lengths), set(facts.fields), facts.nullable, facts.tested, facts.rebound,
                 set(facts.exact))


class Signature:
    """The entry function's positional parameters with their shapes, and the code's constants."""

    def __init__(self, source: str, entry: str, wider: bool = False):
        tree = pyast.parse(source)
        function = next((node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                         and node.name == entry), None)
        if function is None:
            raise ValueError(f"no top-level function named {entry}")
        named = module_constants(tree)
        reader = _Reader(named, widened.tables(tree) if wider else None, wider)
        reader.visit(function)
        reader.merge_aliases()
        helpers = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
        _borrow(reader, helpers, {entry}, named)
        whole = _Reader()
        whole.visit(tree)
        self.ints = sorted(whole.ints)
        self.strings = sorted(whole.strings)
        self.hints = read_hints(tree)  # what the code tests text against, for texts that reach its paths
        self.reader = reader
        self.alternatives: dict[str, Shape] = {}
        positional = [*function.args.posonlyargs, *function.args.args]
        defaults = [None] * (len(positional) - len(function.args.defaults)) + list(function.args.defaults)
        self.parameters: list[Parameter] = []
        omitted = False  # from the first parameter whose default no input can be, the wider reading leaves them out
        for arg, default in zip(positional, defaults):
            value, literal = None, False
            if default is not None:
                try:
                    value, literal = pyast.literal_eval(default), True
                except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                    pass
                if literal and not _json_value(value):  # bytes, sets, complex: no input can carry them
                    value, literal = None, False
                omitted = omitted or wider and not literal  # `minimum=(2, 0, 0)`: left to the function
            shape = _annotation_shape(arg.annotation) or self._shape(arg.arg, 0)
            unknown = shape == ANY
            if shape == ANY:
                shape = _value_shape(value) if literal and value is not None else _hint(arg.arg)
            self.parameters.append(self._parameter(arg.arg, shape, value, default is not None and literal,
                                                   unknown=unknown, omitted=omitted))
        self.required = len(positional) - len(function.args.defaults)
        if function.args.vararg:  # *args: its items get the shape the code gives its elements
            name = function.args.vararg.arg
            shape = self._shape(name, 0)
            if shape[0] == "record":  # `args[0]`, `args[1]`: the items passed one by one, not a record
                shape = ("list", next((slot for slot in shape[1] if slot != INT), INT))
            element = shape[1] if shape[0] == "list" else INT if shape == ANY else shape
            self.parameters.append(self._parameter(name, ("list", element), None, False, spread=True))

    def _parameter(self, name: str, shape: Shape, default: Any, has_default: bool, spread: bool = False,
                   unknown: bool = False, omitted: bool = False) -> Parameter:
        facts = self.reader.facts[name]
        tested = facts.tested and not spread
        return Parameter(name, shape, default, has_default, tuple(sorted(self._constants(name), key=repr)),
                         tuple(sorted(facts.lengths)), tuple(sorted(facts.fields)), spread,
                         self.alternatives.get(name), facts.nullable and not spread, tested,
                         tested and (unknown or not facts.rebound), omitted,
                         () if spread else tuple(sorted(facts.exact)))

    @property
    def most(self) -> float:
        """How many arguments it takes at most (no limit with `*args`)."""
        return float("inf") if any(p.spread for p in self.parameters) else len(self.parameters)

    def _constants(self, name: str, depth: int = 0) -> set:
        """Constants compared with this name or any name bound to its parts."""
        if depth > 4 or name not in self.reader.facts:
            return set()
        facts = self.reader.facts[name]
        found = set(facts.constants)
        for names in [facts.element, facts.keys, facts.values, *facts.slots.values()]:
            for other in names:
                found |= self._constants(other, depth + 1)
        return found

    def _shape(self, name: str, depth: int) -> Shape:
        """The shape the code's uses give `name`; ANY when they say nothing."""
        if depth > 4 or name not in self.reader.facts:
            return ANY
        facts = self.reader.facts[name]
        kinds = facts.kinds
        if "char" in kinds:
            return CHAR
        if "str" in kinds:
            return STR
        if "dict" in kinds and facts.fields and not facts.slots:  # v["host"]: a mapping, though it is indexed
            return self._dict_shape(facts, depth)
        if kinds & {"iterable", "container", "indexed", "record", "nested"} or facts.element or facts.slots:
            if facts.slots and facts.width and not facts.element and "iterable" not in kinds:
                return ("record", tuple(self._slot_shape(facts, i, depth) for i in range(facts.width)))
            # a name that is only measured (`len(v[i])`) says least: text has a length too
            named = sorted(facts.element, key=lambda other: (self.reader.facts[other].kinds == {"container"}, other))
            elements = [self._shape(other, depth + 1) for other in named]
            element = next((shape for shape in elements if shape != ANY), ANY)
            if element == ANY and "nested" in kinds:
                element = ("list", INT)
            if element == ANY and _strings_only(self._constants(name)):
                element = STR
            if element == CHAR or element == STR and kinds & {"iterable", "indexed"} and (_hint(name) == STR or all(
                    len(v) <= 1 for v in self._constants(name) if isinstance(v, str))):
                self.alternatives[name] = ("list", STR)
                return STR  # iterated character by character
            return ("list", INT if element == ANY else element)
        if "dict" in kinds:
            return self._dict_shape(facts, depth)
        if kinds & {"int", "number"}:
            return FLOAT if any(type(v) is float for v in facts.constants) else INT
        if facts.constants:
            return _value_shape(sorted(facts.constants, key=repr)[0])
        return ANY

    def _dict_shape(self, facts: Facts, depth: int) -> Shape:
        keys = [self._shape(other, depth + 1) for other in sorted(facts.keys)]
        values = [self._shape(other, depth + 1) for other in sorted(facts.values)]
        return ("dict", next((k for k in keys if k in (STR, INT)), STR), next((v for v in values if v != ANY), INT))

    def _slot_shape(self, facts: Facts, index: int, depth: int) -> Shape:
        shapes = [self._shape(other, depth + 1) for other in sorted(facts.slots.get(index, ()))]
        return next((shape for shape in shapes if shape != ANY), INT)


def _strings_only(values: set) -> bool:
    return bool(values) and all(isinstance(v, str) for v in values)


class Maker:
    """Values of a shape, drawn with one `random.Random`."""

    def __init__(self, signature: Signature, rng: random.Random):
        self.rng = rng
        self.ints = signature.ints
        self.strings = [s for s in signature.strings if s.strip()] or ["a", "b", "ab"]
        letters = sorted({c for s in self.strings for c in s if c.isprintable()}) or list(string.ascii_lowercase[:6])
        self.letters = letters
        # the code's short non-word strings (":", "-", ", "): text joining them with digit and letter runs
        # reads like what parsers take ("12:05", "a-3")
        self.separators = [s for s in signature.strings if 0 < len(s) <= 3 and not s.isalnum()] or [" ", ",", "-"]
        self.digits = False  # a lesson: the text it wants is made of digits
        self.texts = Texts(signature.hints, rng, letters)

    def text(self, size: int) -> str:
        alphabet = string.digits if self.digits and self.rng.random() < 0.7 else self.letters
        return "".join(self.rng.choice(alphabet) for _ in range(size))

    def tokens(self) -> str:
        """Digit runs, letter runs and the code's separators, one after another."""
        rng, parts = self.rng, []
        if self.digits and rng.random() < 0.8:  # numbers joined by one separator: "12:05", "2024-1-31", "1.2.3"
            size = rng.choice((1, 2, 2, 4))
            return rng.choice(self.separators).join(str(rng.randrange(10 ** size)).zfill(rng.choice((1, size)))
                                                    for _ in range(rng.randint(1, 4)))
        for _ in range(rng.randint(1, 5)):
            pick = rng.random()
            if pick < 0.4:
                parts.append("".join(rng.choice(string.digits) for _ in range(rng.randint(1, 4))))
            elif pick < 0.7:
                parts.append(rng.choice(self.separators))
            else:
                parts.append("".join(rng.choice(self.letters) for _ in range(rng.randint(1, 4))))
        return "".join(parts)

    def boundary_int(self, constants: tuple) -> int:
        numbers = [v for v in constants if type(v) is int] or self.ints or [0, 1]
        base = self.rng.choice(numbers)
        return base + self.rng.choice((-1, 0, 1))

    def value(self, shape: Shape, mode: str, constants: tuple = (), lengths: tuple = (), depth: int = 0,
              fields: tuple = (), exact: tuple = ()) -> Any:
        rng = self.rng
        kind = shape[0]
        if exact and kind in ("int", "any", "float") and rng.random() < EXACT_SHARE:
            return rng.choice(exact)
        if kind in ("int", "any"):
            if mode == "boundary" or (constants and rng.random() < 0.5):
                return self.boundary_int(constants)
            return rng.choice((rng.randint(0, 10), rng.randint(-3, 25), rng.randint(0, 3)))
        if kind == "float":
            numbers = [float(v) for v in constants if type(v) in (int, float)]
            if numbers and (mode == "boundary" or rng.random() < 0.5):
                return round(rng.choice(numbers) + rng.choice((-0.5, 0.0, 0.5)), 2)
            return round(rng.uniform(-2, 20), rng.choice((0, 1, 2)))
        if kind == "bool":
            return rng.random() < 0.5
        if kind == "char" and mode == "reach":
            return self.texts.char()
        if kind == "str" and mode == "reach":
            return self.texts.draw()
        if kind == "char":
            ones = [v for v in constants if isinstance(v, str) and len(v) == 1]
            return rng.choice(ones) if ones and rng.random() < 0.5 else rng.choice(self.letters + list(string.digits))
        if kind == "str":
            words = [v for v in constants if isinstance(v, str)]
            if words and rng.random() < (0.3 if self.digits else 1.0 if mode == "boundary" else 0.6):
                word = rng.choice(words)
                return word if rng.random() < 0.8 else word + rng.choice(self.letters)
            if mode == "edge":
                return rng.choice(("", rng.choice(self.letters)))
            if lengths and (mode == "boundary" or rng.random() < 0.3):  # `len(s) in (7, 8, 10)`
                return self.text(max(0, rng.choice(lengths) + rng.choice((-1, 0, 0, 1))))
            if self.digits and rng.random() < 0.7:
                return self.tokens() if rng.random() < 0.7 else self.text(rng.randint(1, 8))
            if rng.random() < 0.2:
                return self.tokens()
            if rng.random() < 0.3:
                return rng.choice(self.strings)
            return self.text(rng.randint(0, 7))
        if kind == "record":
            return [self.value(slot, mode if mode != "edge" else "random", constants, (), depth + 1)
                    for slot in shape[1]]
        if kind == "list":
            size = self.size(mode, lengths, depth)
            return [self.value(shape[1], "random" if mode == "edge" else mode, constants, (), depth + 1)
                    for _ in range(size)]
        if kind == "dict":
            size = self.size(mode, lengths, depth)
            made = {str(self.value(STR, mode, constants)) or "k": self.value(shape[2], mode, ()) for _ in range(size)}
            for key in fields:  # the keys the code reads: all of them at a boundary, some of them otherwise
                if mode == "boundary" or rng.random() < 0.6:
                    made[key] = self.value(shape[2], "random", constants)
            return made
        return 0

    def size(self, mode: str, lengths: tuple, depth: int) -> int:
        rng = self.rng
        if mode == "edge" and depth == 0:
            return rng.choice((0, 1))
        if lengths and (mode == "boundary" or rng.random() < 0.3):
            return max(0, rng.choice(lengths) + rng.choice((-1, 0, 1)))
        return rng.randint(0, 3 if depth else 6)


def candidates(source: str, entry: str, seed: int, count: int, lessons=None, wider: bool = False) -> list[Candidate]:
    """About `count` distinct candidate argument lists for `entry`, each with its origin; the same
    `seed` gives the same list. `lessons` (`codeops.inputs.lessons.Lessons`, from the errors of an earlier
    round) change shapes and how values are drawn; `wider` reads the parameters' kinds with the rules of
    `codeops.inputs.wider` too. Raises `ValueError` when the function cannot be read."""
    signature = Signature(source, entry, wider)
    rng = random.Random(seed)
    maker = Maker(signature, rng)
    parameters = signature.parameters
    if lessons is not None:
        maker.digits = lessons.digits
    found: list[Candidate] = []
    seen: set[str] = set()

    def add(args: list, origin: str) -> None:
        key = repr(args)
        if key not in seen:
            seen.add(key)
            found.append(Candidate(args, origin))

    fixed = [p for p in parameters if not p.spread]
    if fixed and all(p.has_default for p in fixed) and lessons is None:
        add([p.default for p in fixed], "defaults")
    if not parameters:
        add([], "defaults")
        return found
    boundary = count * 3 // 4 if lessons is not None and lessons.boundary else count // 2
    plans = [("edge", "edge shape")] * max(2, count // 8) + [("boundary", "literal boundary")] * boundary
    if any(p.has_default for p in fixed) and not all(p.has_default for p in fixed):
        plans += [("defaults", "defaults kept")] * (count // 8)  # the usual call: a wrong option fails it all
    shapes = [p.shape for p in parameters] + list(lessons.shapes.values() if lessons is not None else ())
    if signature.hints and any(_holds_text(shape) for shape in shapes):
        plans += [("reach", "text from the code")] * (count // 4)
    plans += [("random", "random")] * max(0, count - len(plans))
    plans *= 3  # repeats draw anew: a narrow shape gives few distinct values per pass
    for mode, origin in plans:
        if len(found) >= count:
            break
        args = []
        for parameter in parameters:
            if parameter.omitted and rng.random() < 0.5:
                break  # the wider reading: the function's own default, and those after it
            if parameter.has_default and (mode == "defaults" or rng.random() < 0.25):
                args.append(parameter.default)
                continue
            if parameter.nullable and rng.random() < 0.15:
                args.append(None)
                continue
            shape = parameter.shape
            if wider and parameter.alternative is not None and rng.random() < 0.5:
                shape = parameter.alternative  # the wider reading draws both readings of a value from the start
            if lessons is not None and parameter.name in lessons.shapes:
                shape = lessons.shapes[parameter.name] if rng.random() < 0.75 else lessons.former[parameter.name]
                if parameter.spread and shape[0] != "list":  # a lesson about `*args` is about its items
                    shape = ("list", shape)
            if mode == "defaults":  # the rest drawn as any other plan would
                own = rng.choice(("boundary", "random", "reach") if signature.hints else ("boundary", "random"))
            else:
                own = mode if mode != "edge" or shape[0] in ("list", "dict", "str") else "random"
            value = maker.value(shape, own, parameter.constants, parameter.lengths, fields=parameter.fields,
                                exact=parameter.exact)
            if parameter.open_kind and rng.random() < OTHER_KIND:
                value = another(value, rng, maker.strings, maker.ints)
            if parameter.spread:
                args.extend(value[:4])
            else:
                args.append(value)
        add(args, origin if lessons is None else f"{origin}, learned")
    return found


def _holds_text(shape: Shape) -> bool:
    """Whether a value of this shape is or holds text (a string, a character, a list or dict of them)."""
    if shape[0] in ("str", "char"):
        return True
    return any(_holds_text(part) for part in (shape[1] if shape[0] == "record" else shape[1:]))


def describe_signature(source: str, entry: str) -> str:
    """`name(a: int, b: list[str])`: the inferred shapes, for the prompt that asks a model for inputs."""
    signature = Signature(source, entry)
    return f"{entry}(" + ", ".join(f"{'*' if p.spread else ''}{p.name}: {_shape_text(p.shape[1] if p.spread else p.shape)}"
                                   for p in signature.parameters) + ")"


def _shape_text(shape: Shape) -> str:
    if shape[0] == "char":
        return "str (one character)"
    if shape[0] == "list":
        return f"list[{_shape_text(shape[1])}]"
    if shape[0] == "record":
        return "[" + ", ".join(_shape_text(s) for s in shape[1]) + "]"
    if shape[0] == "dict":
        return f"dict[{_shape_text(shape[1])}, {_shape_text(shape[2])}]"
    return shape[0]
