"""Python expressions said in English, with the exact semantics a reader needs to get the answer.

LogicIFEval's descriptions hold no code, so neither do ours: every operator, call, slice and literal
becomes words. Fine points (floor division on negatives, remainder signs, slice bounds, ties in
`min`/`max`, stable sorting, truthiness) are each said once per description, in one sentence, at the
first step that needs them (the describer takes them from `fresh_rules`). What cannot be said clearly raises `Undescribable`, naming the construct, and the
item is dropped: code is never quoted.
"""

from __future__ import annotations

import builtins
import importlib
import re
import sys
from collections import ChainMap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import libcst as cst

from ifforge.families.logicif.codeops.common.source import dotted_name, resolved_name
from ifforge.families.logicif.codeops.common.walk import Reader, value_names, walk
from ifforge.families.logicif.codeops.describe import formats, methods, paths, regex, roles, vocab, wildcards
from ifforge.families.logicif.codeops.describe.errors import Undescribable

from ifforge.core import pyast

if TYPE_CHECKING:
    from ifforge.families.logicif.codeops.describe.facts import Facts


RULES = {  # one sentence each, said once, at the first step that needs it
    "truth": "0, None, false, empty text and empty collections count as false; anything else counts as true.",
    "shortcut": "In \"A and B\", B is checked only if A holds; in \"A or B\", only if A does not.",
    "plus": "\"Plus\" on two texts, lists or tuples joins them end to end.",
    "times": "A list, tuple or text times a whole number n is n copies of it joined end to end (nothing when n "
             "is 0 or less).",
    "floor": "\"Floor-divided by\" rounds the quotient down: -7 floor-divided by 2 is -4, 7.5 floor-divided "
             "by 2 is 3.0.",
    "mod": "\"The remainder of a divided by b\" takes the sign of b: the remainder of -7 divided by 3 is 2, "
           "and of 7 divided by -3 is -2.",
    "truediv": "\"Divided by\" always gives a decimal number, even when it comes out even (6 divided by 3 is 2.0).",
    "power": "A whole number to a power of 0 or more stays whole, while a negative power or a decimal number "
             "gives a decimal number (2 to the power -1 is 0.5).",
    "fraction_power": "A negative number to a power that is not a whole number gives a complex number, written "
                      "as text as Python shows it (-4 to the power 0.5 written as text is "
                      "\"(1.2246467991473532e-16+2j)\").",
    "bits": "Bitwise AND, OR and XOR work on binary digits (a negative number has endless leading 1s; on sets "
            "they keep the common items, all items, or the items in exactly one), and shifting left or right "
            "by n multiplies or floor-divides by 2 to the power n (-5 shifted right by 1 is -3).",
    "bool_bits": "Bitwise AND, OR and XOR of true and false give true or false; with a whole number on the other "
                 "side, true and false count as 1 and 0 and the result is a whole number.",
    "index": "Positions count from 0; -1 is the last one, -2 the one before.",
    "slice": "A part from position i up to position j includes position i but not position j; a negative "
             "bound has the length added to it first, and bounds past the ends stop at the ends.",
    "in": "\"x is in y\" means x equals an item of y, is a key of y for a dictionary, or occurs inside y for a text.",
    "order": "Texts compare character by character by Unicode code point (digits, then capitals, then "
             "lowercase; a text before any longer text it starts), lists and tuples item by item.",
    "minmax": "On a tie for smallest or largest, the first of the tied items is taken.",
    "sorted": "Sorting is stable: items with equal keys keep their order, also when sorting from largest to "
              "smallest.",
    "round": "Rounding sends a value exactly halfway to the even neighbour (2.5 gives 2, 3.5 gives 4, -0.5 "
             "gives 0), to d decimals on the value as the computer stores it.",
    "int": "Turning text into a whole number reads its digits (a sign and surrounding spaces allowed); a "
           "decimal number is cut toward zero (-2.7 gives -2).",
    "str": "Written as text, 2.0 gives \"2.0\", true gives \"True\" and None gives \"None\".",
    "repr": "A text in quotes as Python shows it is the text between single quotes (double quotes when it "
            "holds a single quote and no double quote), with a backslash put before every backslash and "
            "before each quote of the kind used, a newline, tab or carriage return written as backslash-n, "
            "backslash-t or backslash-r, and any other character that does not print written as backslash-x "
            "and its code in two hexadecimal digits (backslash-u and four digits above 255, backslash-U and "
            "eight above 65535; small letters).",
    "shown": "Shown as Python displays it, a text is in quotes (as said for texts), a number, true, false and None "
             "are written as text, and a list, tuple or dictionary is its items, each shown the same way, with a "
             "comma and a space between each two, in square brackets for a list, round brackets for a tuple (with "
             "a comma after its item when it has just one) and curly brackets for a dictionary (each key, then a "
             "colon and a space, then its value).",
    "dict_order": "A dictionary gives its keys in the order they were first added, a set its items in Python's "
                  "own order.",
    "bytearray": "A changeable bytes value holds bytes as a list holds its items: each item, a whole number from 0 "
                 "to 255, can be set, added and removed as a list's can (a number outside 0 to 255 stops the steps "
                 "with an error).",
    "heap": "A heap is a list from which taking out always removes the smallest item.",
    "range": "The numbers of the counting range are fixed before the loop starts, even if a step changes "
             "the variables in its bounds.",
    "bytes": "Bytes are whole numbers from 0 to 255, shown as the text whose characters have those codes; a "
             "text's bytes in an encoding are its characters' codes there (in ASCII and UTF-8 a character below "
             "code 128 is one byte, its code), one position of bytes is a whole number, and a part of bytes is "
             "bytes.",
    "regex": "A pattern is matched from left to right against a run of consecutive characters: a repeated piece "
             "first takes as many characters as it may (one marked \"as few as possible\" takes as few) and gives "
             "some back (or takes more) if the rest of the pattern needs them, groups are numbered from 1 in the order their opening brackets "
             "appear, and a match found by one call is the first that fits.",
    "own_compare": "Compared by a value's own kind, a whole number (true and false count as the whole numbers 1 "
                   "and 0) compares only with whole numbers, not decimal ones; a decimal number with decimal and "
                   "whole numbers; a text only with texts; a list only with lists; a dictionary and None never "
                   "for order, and for equality a dictionary only with dictionaries and None only with None. "
                   "Any other pair gives the special marker NotImplemented.",
    "identity": "\"Is the very same object as\" holds only for one and the same object, not merely an equal one "
                "(a copy of a list is not the very same object as the list).",
    "lines": "A line break is a newline, a carriage return (one break together with a newline right after it), "
             "or one of the rarer breaks: the characters with codes 11, 12, 28, 29, 30, 133, 8232 and 8233.",
    "lazy": "The values of \"the results of ...\" are worked out one at a time, only when something goes "
            "through them, and only once: going through them a second time gives nothing.",
    "wildcard": wildcards.RULE,
    "printf": formats.PRINTF_RULE,
    "produce": "A helper that produces values runs only when its next value is asked for: from its start (or "
               "from where it paused) up to the next step that produces one, where it pauses; once it stops it "
               "has no more. Each value is given once: going through them again gives only those not yet given.",
}

_METHOD_FREE = {"len", "abs", "int", "str", "float", "bool", "list", "tuple", "set", "dict", "sorted", "reversed", "hex",
                "oct", "bin",
                "min", "max", "sum", "any", "all", "range", "enumerate", "zip", "round", "divmod", "ord", "chr",
                "isinstance", "pow", "deque", "frozenset", "map", "filter", "bytes"}

_BUILTINS = frozenset(dir(builtins))
_SET_KINDS = ("set", "frozenset")  # `set.union(...)`: a method named on the kind itself
_SPREAD_SET_METHODS = {  # `s.union(*xs)`: with no items in xs, a copy of s
    "union": "a new set of the items that are in {o} or in at least one item of {xs}",
    "intersection": "a new set of the items of {o} that are in every item of {xs}",
    "difference": "a new set of the items of {o} that are in no item of {xs}",
}
_OWN_COMPARISONS = {"__lt__": cst.LessThan, "__le__": cst.LessThanEqual, "__gt__": cst.GreaterThan,
                    "__ge__": cst.GreaterThanEqual, "__eq__": cst.Equal, "__ne__": cst.NotEqual}
METHOD_TYPES = ("str", "bytes", "list", "dict", "set", "int", "float")  # a type whose methods can be named on it
_TYPE_WORDS = {"int": "a whole number", "float": "a decimal number", "str": "text", "bool": "true or false",
               "list": "a list", "tuple": "a tuple", "dict": "a dictionary", "set": "a set",
               "frozenset": "a fixed set", "bytes": "bytes", "bytearray": "a changeable bytes value",
               "memoryview": "a memory view (a window onto the bytes of another value)",
               "complex": "a complex number", "type": "a class", "object": "any value at all (always true)",
               "NoneType": "None"}
# one value of each kind a JSON input may hold, to ask which kinds have an attribute
_JSON_SAMPLES = {"dict": {}, "list": [], "str": "", "int": 0, "float": 0.0, "bool": False, "NoneType": None}
# the parts of a plain number read as attributes: a whole or decimal number is its own real part
_NUMBER_PARTS = {("int", "real"): "{0}", ("int", "numerator"): "{0}", ("int", "imag"): "0", ("int", "denominator"): "1",
                 ("float", "real"): "{0}", ("float", "imag"): "0.0"}
# one value of each built-in kind code that defines and imports nothing can hold
_BUILTIN_SAMPLES = {**_JSON_SAMPLES, "tuple": (), "set": set(), "frozenset": frozenset(), "bytes": b""}
# methods only a compiled regular expression has; questions only a match answers
_PATTERN_ONLY = {"search", "match", "fullmatch", "findall", "finditer", "sub", "subn"}
_MATCH_METHODS = {"group", "groups", "groupdict", "start", "end", "span"}
def quote(value: str) -> str:
    """A text value as data, in double quotes (never a Python literal with a prefix), every character visible."""
    return formats.quoted(value)


def is_constant(node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString)):
        return True
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return True
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        return isinstance(node.expression, (cst.Integer, cst.Float))
    if isinstance(node, (cst.Tuple, cst.List)):
        return all(isinstance(e, cst.Element) and is_constant(e.value) for e in node.elements)
    return False


def constant_truth(node: cst.BaseExpression) -> bool | None:
    """Whether a literal counts as true, or None when it is not a literal (or not a simple one)."""
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return node.value == "True"
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)):
        return bool(pyast.literal_eval(node.value))
    if isinstance(node, (cst.List, cst.Tuple, cst.Dict)) and not node.elements:
        return False
    if isinstance(node, cst.BooleanOperation):
        left = constant_truth(node.left)
        if isinstance(node.operator, cst.And) and left is False:
            return False
        if isinstance(node.operator, cst.Or) and left is True:
            return True
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        inner = constant_truth(node.expression)
        return None if inner is None else not inner
    return None


def _join(items: list[str], last: str = "and") -> str:
    """`a, b and c`; an item that itself holds a comma, "and" or "or" is bracketed so the list stays clear."""
    if len(items) <= 1:
        return "".join(items)
    items = [f"({item})" if loose(item) else item for item in items]
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


_COMPOUND = (cst.BinaryOperation, cst.BooleanOperation, cst.Comparison, cst.IfExp, cst.NamedExpr)


def _formatted_parts(node: cst.BaseExpression) -> list[tuple[cst.CSTNode, object]]:
    """(piece, part) of an f-string, or of pieces written side by side (`"a" f"{x}"`) in order: a
    plain piece's part is its text, a formatted piece's are its own parts."""
    if isinstance(node, cst.ConcatenatedString):
        return [*_formatted_parts(node.left), *_formatted_parts(node.right)]
    if isinstance(node, cst.FormattedString):
        return [(node, part) for part in node.parts]
    return [(node, node.evaluated_value)]  # (text: Python refuses bytes beside a formatted piece)


@dataclass
class Speaker:
    """Renders expressions of one function, collecting which rules its text relies on."""

    stats: str = "stats"
    facts: Facts | None = None  # what the module holds (facts.read): read here, never filled
    selves: set[str] = field(default_factory=set)  # the name of the object inside the method being told
    rules: dict[str, bool] = field(default_factory=dict)  # rule -> already said

    def __post_init__(self):
        if self.facts is not None:  # kinds the narration sets for a while (a method's object) go over the facts
            self.kinds = ChainMap({}, self.facts.kinds)

    def __getattr__(self, name: str):
        """A module fact by its name (`say.helpers`, `say.kinds`, ...), as `facts.Facts` holds it."""
        facts = self.__dict__.get("facts")
        if facts is None or name.startswith("__"):
            raise AttributeError(name)
        return getattr(facts, name)

    def rule(self, key: str) -> str:
        """Note that the text relies on a rule; the describer says it at the step that first needs it."""
        self.rules.setdefault(key, False)
        return ""

    cite = rule

    @staticmethod
    def join(items: list[str], last: str = "and") -> str:
        """`a, b and c`, as every list in the text is joined (for the handlers in vocab/)."""
        return _join(items, last)

    def fresh_rules(self) -> list[str]:
        """The rules needed since the last call and not yet said, as sentences."""
        fresh = [key for key, said in self.rules.items() if not said]
        for key in fresh:
            self.rules[key] = True
        return [RULES.get(key) or vocab.RULES[key] for key in fresh]

    def kind(self, node: cst.BaseExpression) -> str | None:
        """The certain kind of a name, or of an item taken from a name whose items all have one kind."""
        if isinstance(node, cst.Name):
            return self.kinds.get(node.value)
        if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            owner = self.kind(node.value) or ""
            if owner.startswith("list[") and owner.endswith("]") and not owner.startswith("list[Union"):
                return owner[5:-1]
            if owner == "str":
                return "str"
        return None

    # ---- entry points -----------------------------------------------------------------------
    def value(self, node: cst.BaseExpression) -> str:
        return self._expr(node, cond=False)

    def condition(self, node: cst.BaseExpression) -> str:
        return self._expr(node, cond=True)

    def grouped(self, node: cst.BaseExpression, cond: bool = False) -> str:
        """An operand, bracketed when it is an operation or a phrase with its own list in it, so that
        what belongs to what is never in doubt."""
        text = self._expr(node, cond)
        compound = isinstance(node, _COMPOUND) or (
            isinstance(node, cst.UnaryOperation) and not text.startswith("-")) or loose(text)  # `-x // y`
        return f"({text})" if compound else text

    def operand(self, node: cst.BaseExpression) -> str:
        """An operand of arithmetic: any phrase longer than one word is bracketed, so "the item of m
        at position v9 minus 1" can only mean one thing."""
        text = self.grouped(node)
        return f"({text})" if " " in text and not _bracketed(text) else text

    # ---- dispatch ---------------------------------------------------------------------------
    def _expr(self, node: cst.BaseExpression, cond: bool) -> str:
        if cond and not is_boolean(node) and not isinstance(node, (cst.Name, cst.BooleanOperation, cst.UnaryOperation)):
            return self._truth(node, True)
        if isinstance(node, cst.Name):
            return self._name(node, cond)
        if isinstance(node, cst.Integer):
            return self._integer(node)
        if isinstance(node, cst.Float):
            return float_words(node.value)
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            value = node.evaluated_value
            if value is None:  # `"a" f"{x}"`: a formatted piece joined to others
                return self._fstring(node)
            if not isinstance(value, str):
                self.rule("bytes")
                return f"the bytes {quote(value.decode('latin-1'))}" + (" (empty)" if not value else "")
            return f"{quote(value)} (empty text)" if value == "" else quote(value)
        if isinstance(node, cst.FormattedString):
            return self._fstring(node)
        if isinstance(node, cst.UnaryOperation):
            text = self._unary(node, cond)
            return f"whether {text}" if not cond and isinstance(node.operator, cst.Not) else text
        if isinstance(node, cst.BinaryOperation):
            return self._binary(node)
        if isinstance(node, cst.BooleanOperation):
            return self._boolean(node, cond)
        if isinstance(node, cst.Comparison):  # as a value it is true or false: "whether ..."
            return self._comparison(node) if cond else f"whether {self._comparison(node)}"
        if isinstance(node, cst.IfExp):
            known = constant_truth(node.test)
            if known is not None:  # a constant test: only one side can ever be taken
                return self._expr(node.body if known else node.orelse, cond)
            return (f"{self.grouped(node.body)} if {self.condition(node.test)}, otherwise "
                    f"{self.grouped(node.orelse)}")
        if isinstance(node, cst.Call):
            return self._call(node, cond)
        if isinstance(node, cst.Subscript):
            return self._subscript(node)
        if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
            return self._sequence(node)
        if isinstance(node, cst.Dict):
            return self._dict(node)
        if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            return self._comprehension(node)
        if isinstance(node, cst.Attribute):
            return self._attribute(node)
        if isinstance(node, cst.Lambda):
            return self._lambda(node)
        if isinstance(node, cst.NamedExpr):  # `(n := e)`: the name is set there and then, and is the value
            return f"{node.target.value}, set at this point to {self.grouped(node.value)}"
        if isinstance(node, (cst.Yield, cst.Await)):
            raise Undescribable("a generator or coroutine (yield / await)")
        raise Undescribable(f"the expression kind {type(node).__name__}")

    def _lambda(self, node: cst.Lambda) -> str:
        """A lambda kept or passed as a value: the function in words. It reads its other names when called,
        not when made, so it may read only its parameters and names the steps never set (built-ins, helpers,
        module constants, imports, classes, and `f`'s inputs that nothing sets again: `facts.inputs`) or set
        once to a written value nothing changes (`facts.steady`)."""
        params = node.params
        if params.kwonly_params or params.posonly_params or params.star_kwarg is not None or isinstance(
                params.star_arg, cst.Param) or any(p.default is not None for p in params.params):
            raise Undescribable("a lambda used as a value with other than plain parameters")
        names = [p.name.value for p in params.params]
        fixed = _BUILTINS | self.helpers | self.generators | set(self.constants) | set(self.imported) | self.classes
        if set(value_names(node.body)) - set(names) - fixed - (self.inputs | self.steady if self.facts is not None else set()):
            raise Undescribable("a lambda used as a value that reads a variable of the steps (read when it is "
                                "called, not when it is made)")
        given = f"given {_join(names)}" if names else "with no inputs"
        return f"a function that, {given}, gives back {self.grouped(node.body)}"

    def _name(self, node: cst.Name, cond: bool) -> str:
        if node.value in ("True", "False"):
            return node.value.lower()
        if node.value == "None":
            return "None"
        if node.value == "NotImplemented":
            return "the special marker NotImplemented"
        if self.imported.get(node.value) in vocab.CONSTANTS:  # `from string import digits`, `from math import pi`
            return vocab.CONSTANTS[self.imported[node.value]]
        if node.value in self.based:
            raise Undescribable("a class built on a library class used other than by its members")
        if cond:
            return self._truth(node, True)
        if node.value in self._APPLIED:  # a built-in function passed or kept as a value
            return f"the built-in function {node.value} (called with a value, it gives {self.applied(node, 'that value')})"
        return node.value

    def _truth(self, node: cst.BaseExpression, holds: bool) -> str:
        """"x is not empty" / "x is not 0" / "x" when the kind is certain, else "x counts as true";
        a regular-expression match as whether the pattern matches."""
        match = self._match_test(node, holds)
        if match is not None:
            return match
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in self.generators:
            raise Undescribable("the truth of a helper's values (always true, even with none)")
        kind = (self.kind(node) or "").split("[")[0]
        text = self.grouped(node)
        if text.startswith(("whether ", "(whether ")):  # a yes-or-no phrase already: the clause itself, or its denial
            clause = self.value(node).removeprefix("whether ")
            return clause if holds else f"it is not the case that {clause}"
        if kind == "bool":
            return text if holds else f"{text} is false"
        if kind in ("int", "float", "number"):
            return f"{text} is {'not ' if holds else ''}0"
        if kind in ("str", "list", "dict", "set", "tuple", "deque"):
            return f"{text} is {'not ' if holds else ''}empty"
        self.rule("truth")
        return f"{text} counts as {'true' if holds else 'false'}"

    def _match_test(self, node: cst.BaseExpression, holds: bool) -> str | None:
        """`re.search(p, x)` / `pattern.match(x)` as a check: "p matches somewhere in x"."""
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
                and node.func.attr.value in ("search", "match", "fullmatch")):
            return None
        owner, name = node.func.value, node.func.attr.value
        if dotted_name(node.func) == f"re.{name}" or self.facts is not None and self.resolved(node.func) == f"re.{name}":
            return regex.module_call(self, name, node, test=holds)
        if isinstance(owner, cst.Name) and owner.value in self.patterns or regex.compiled(self, owner) or \
                regex.keyed(self, owner) is not None:
            args, keywords = self.arguments(node)
            return regex.pattern_method(self, owner, name, args, keywords, test=holds)
        return None

    def _integer(self, node: cst.Integer) -> str:
        written = node.value.replace("_", "")
        value = int(written, 0)
        if written.lower().startswith(("0x", "0o", "0b")):
            base = {"x": "hexadecimal", "o": "octal", "b": "binary"}[written[1].lower()]
            return f"the {base} number {written.lower()} (that is {value})"
        return str(value)

    def _fstring(self, node: cst.FormattedString | cst.ConcatenatedString) -> str:
        parts, texts = [], []  # `texts`: written text not yet quoted (pieces written apart are one text)
        for piece, part in _formatted_parts(node):
            if isinstance(part, str) or isinstance(part, cst.FormattedStringText):
                if isinstance(part, cst.FormattedStringText):
                    raw = "r" in piece.prefix.lower()  # fr"\Z": the backslash is itself
                    text = pyast.literal_eval(f'"""{part.value}"""') if "\\" in part.value and not raw else part.value
                    part = text.replace("{{", "{").replace("}}", "}")
                texts.append(part)
                continue
            if texts:
                parts.append(quote("".join(texts)))
                texts = []
            if part.equal is not None:  # `{x=}` writes "x=" and, unless told otherwise, x as Python displays it
                raise Undescribable("an f-string field that writes its own expression (=)")
            self.rule("str")
            spec = part.format_spec or []
            if any(not isinstance(p, cst.FormattedStringText) and (p.conversion or p.format_spec or p.equal)
                   for p in spec):
                raise Undescribable("an f-string field with a computed format spec")
            written, precision = formats.holed_spec(self, [p.value if isinstance(p, cst.FormattedStringText)
                                                           else p.expression for p in spec])
            parts.append(formats.spec_words(self.grouped(part.expression), written, part.conversion,
                                            part.expression, self, precision))
        if texts:
            parts.append(quote("".join(texts)))
        if not parts:
            return quote("")
        if len(parts) == 1:
            return parts[0]
        return "the text made of " + ", followed by ".join(parts)

    def _unary(self, node: cst.UnaryOperation, cond: bool) -> str:
        operand = node.expression
        if isinstance(node.operator, cst.Not):
            if isinstance(operand, cst.Name) and operand.value not in ("True", "False", "None"):
                return self._truth(operand, False)
            if isinstance(operand, cst.Comparison) and len(operand.comparisons) == 1:
                return self._comparison(operand, negate=True)
            if not is_boolean(operand) and not isinstance(operand, cst.BooleanOperation):
                return self._truth(operand, False)
            return f"it is not the case that {self.grouped(operand, cond=True)}"
        if isinstance(node.operator, cst.Minus):
            if isinstance(operand, (cst.Integer, cst.Float)):
                return "-" + self._expr(operand, False)
            return f"minus {self.grouped(operand)}"
        if isinstance(node.operator, cst.Plus):
            return self._expr(operand, False)
        self.rule("bits")
        return f"the bitwise complement of {self.grouped(operand)} (that is, minus it, minus 1)"

    _BINARY = {
        cst.Add: ("{a} plus {b}", "plus"), cst.Subtract: ("{a} minus {b}", None),
        cst.Multiply: ("{a} times {b}", "times"), cst.Divide: ("{a} divided by {b}", "truediv"),
        cst.FloorDivide: ("{a} floor-divided by {b}", "floor"), cst.Modulo: ("the remainder of {a} divided by {b}", "mod"),
        cst.Power: ("{a} to the power {b}", "power"), cst.BitAnd: ("the bitwise AND of {a} and {b}", "bits"),
        cst.BitOr: ("the bitwise OR of {a} and {b}", "bits"), cst.BitXor: ("the bitwise XOR of {a} and {b}", "bits"),
        cst.LeftShift: ("{a} shifted left by {b} bits", "bits"), cst.RightShift: ("{a} shifted right by {b} bits", "bits"),
    }

    def _binary(self, node: cst.BinaryOperation) -> str:
        kind = type(node.operator)
        if kind is cst.Modulo:
            formatted = self._formatting(node)
            if formatted is not None:
                return formatted
        if kind is cst.Multiply and isinstance(node.left, cst.List) and len(node.left.elements) == 1 and isinstance(
                node.left.elements[0], cst.Element):
            never_negative = isinstance(node.right, cst.Call) and isinstance(node.right.func, cst.Name) and \
                node.right.func.value == "len" or (_int_value(node.right) or 0) > 0
            return (f"a list of {self.grouped(node.right)} copies of {self.grouped(node.left.elements[0].value)}"
                    + ("" if never_negative else " (empty when that count is 0 or less)"))
        if kind not in self._BINARY:
            raise Undescribable("the matrix-multiplication operator")
        if kind is cst.Subtract and "set" in ((self.kind(node.left) or "")[:3], (self.kind(node.right) or "")[:3]):
            return f"the items of {self.operand(node.left)} that are not in {self.operand(node.right)}"
        if kind is cst.Multiply:
            repeated = self._repetition(node)
            if repeated is not None:
                return repeated
        if kind in (cst.BitAnd, cst.BitOr, cst.BitXor):
            said = self._logical(node)
            if said is not None:
                return said
        template, rule = self._BINARY[kind]
        text = template.format(a=self.operand(node.left), b=self.operand(node.right))
        if kind is cst.Power and _int_value(node.right) is None and self.sort_of(node.right) not in ("int", "bool"):
            text += self.cite("power")  # the whole-number rule first, then what a fractional power does
            rule = "fraction_power"
        if rule is None:
            return text  # minus needs no rule
        if rule in ("plus", "times") and not (
                self._maybe_text_or_sequence(node.left) and self._maybe_text_or_sequence(node.right)):
            return text  # on numbers, plus, minus and times need no rule
        return text + self.cite(rule or "plus")

    def _formatting(self, node: cst.BinaryOperation) -> str | None:
        """`template % values` when the left side is text (printf-style formatting, said field by field when
        the template is written in the code or is a module constant), None for a remainder; where the kinds
        leave both meanings open, or the template is computed, there are no exact words."""
        left = node.left
        if isinstance(left, cst.Name) and self.facts is not None and isinstance(
                self.constants.get(left.value), (cst.SimpleString, cst.ConcatenatedString)) and self.kind(left) in (None, "str"):
            left = self.constants[left.value]  # a module-level template, the same in every case
        if isinstance(left, (cst.SimpleString, cst.ConcatenatedString)):
            if isinstance(left.evaluated_value, bytes):
                raise Undescribable("printf-style formatting of bytes with %")
            return formats.printf(self, left.evaluated_value, node.right)
        built = formats.fixed_template(self, left) if self.kind(left) in (None, "str") else None
        if built is not None:  # built from written texts when the module loads (`FMT = "%s" + SEP + "%s"`)
            return formats.printf(self, built, node.right)
        if self.sort_of(left) == "str":
            return formats.printf_at_run_time(self, left, node.right)
        if self.sort_of(left) in ("str", "bytes") or self.sort_of(node.right) in (
                "str", "bytes", "tuple", "list", "dict", "set") and self.sort_of(left) not in ("int", "float", "number"):
            raise Undescribable("printf-style text formatting with a template that is not written in the code")
        if self.may_be_text(left):
            raise Undescribable("the operator % on a value that is text on some cases (formatting) and a number on "
                                "others (a remainder)")
        return None

    def _repetition(self, node: cst.BinaryOperation) -> str | None:
        """`s * n` / `n * s` with one side surely text, a list or a tuple: n copies of it end to end."""
        sorts = self.sort_of(node.left), self.sort_of(node.right)
        nouns = {"str": ("text", "empty text"), "list": ("list", "an empty list"), "tuple": ("tuple", "an empty tuple")}
        for copied, count in ((node.left, node.right), (node.right, node.left)):
            sort, other = self.sort_of(copied), self.sort_of(count)
            if sort in nouns and other not in nouns and sorts.count(sort) == 1:
                noun, empty = nouns[sort]
                positive = (_int_value(count) or 0) > 0
                caveat = "" if positive else f" ({empty} when {self.grouped(count)} is 0 or less)"
                made = "a new list" if sort == "list" else f"the {noun}"
                same = "" if sort == "str" else " (the very same items each time, not copies of them)"
                return f"{made} made of {self.grouped(count)} copies of {self.grouped(copied)}, end to end{caveat}{same}"
        return None

    def _logical(self, node: cst.BinaryOperation) -> str | None:
        """`&`, `|`, `^` on true and false (both sides worked out, no shortcut), on sets, or `|` on
        dictionaries, in the words of what they give there; None for whole numbers or unknown kinds."""
        kind = type(node.operator)
        sorts = {self.sort_of(node.left), self.sort_of(node.right)}
        if sorts == {"bool"}:
            a, b = self.grouped(node.left, cond=True), self.grouped(node.right, cond=True)
            both = " (both are worked out)" if _acts_or_fails(node.right) else ""
            return {cst.BitAnd: f"whether both {a} and {b}{both}",
                    cst.BitOr: f"whether at least one of these holds: {a}; {b}{both}",
                    cst.BitXor: f"whether exactly one of these holds: {a}; {b}{both}"}[kind]
        a, b = self.operand(node.left), self.operand(node.right)
        if "set" in sorts:
            return {cst.BitAnd: f"a new set of the items that are in both {a} and {b}",
                    cst.BitOr: f"a new set of the items that are in {a}, in {b} or in both",
                    cst.BitXor: f"a new set of the items that are in exactly one of {a} and {b}"}[kind]
        if "dict" in sorts and kind is cst.BitOr:
            return (f"a new dictionary with every key and value of {a}, then those of {b} (the value of {b} "
                    f"winning for a key they share, which keeps its first place)")
        if "dict" in sorts:
            raise Undescribable("a bitwise operator on a dictionary")
        if "bool" in sorts:  # beside a whole number or a value of unknown kind
            self.rule("bool_bits")
        return None

    def _boolean(self, node: cst.BooleanOperation, cond: bool) -> str:
        known = constant_truth(node.left)
        is_and = isinstance(node.operator, cst.And)
        if known is not None and known != is_and:  # `0 and x`, `1 or x`: x never counts
            return self._expr(node.left, cond)
        if cond and known is not None:  # `True and x`, `False or x`
            return self._expr(node.right, cond)
        word = "and" if is_and else "or"

        def side(child):
            if isinstance(child, cst.BooleanOperation) and type(child.operator) is type(node.operator):
                return self._expr(child, cond)
            return self.grouped(child, cond)

        if _acts_or_fails(node.right):
            self.rule("shortcut")
        if cond:
            return f"{side(node.left)} {word} {side(node.right)}"
        if is_boolean(node.left) and is_boolean(node.right):
            cond = True
            return f"whether {side(node.left)} {word} {side(node.right)}"
        self.rule("truth")
        left, right = self.grouped(node.left), self.grouped(node.right)
        if is_and:
            return f"{right} if {left} counts as true, otherwise {left}"
        return f"{left} if it counts as true, otherwise {right}"

    _COMPARE = {cst.Equal: "equals", cst.NotEqual: "does not equal", cst.LessThan: "is less than",
                cst.LessThanEqual: "is at most", cst.GreaterThan: "is greater than",
                cst.GreaterThanEqual: "is at least", cst.Is: "is", cst.IsNot: "is not",
                cst.In: "is in", cst.NotIn: "is not in"}
    _NEGATED = {cst.Equal: "does not equal", cst.NotEqual: "equals", cst.LessThan: "is at least",
                cst.LessThanEqual: "is greater than", cst.GreaterThan: "is at most",
                cst.GreaterThanEqual: "is less than", cst.Is: "is not", cst.IsNot: "is",
                cst.In: "is not in", cst.NotIn: "is in"}

    def _comparison(self, node: cst.Comparison, negate: bool = False) -> str:
        clauses = []
        left = node.left
        for target in node.comparisons:
            kind = type(target.operator)
            right = target.comparator
            verb = (self._NEGATED if negate else self._COMPARE)[kind]
            exact = _exact_type(left, right) if kind in (cst.Is, cst.IsNot, cst.Equal, cst.NotEqual) else None
            if exact is not None:
                subject, name = exact
                holds = (kind in (cst.Is, cst.Equal)) != negate
                if name == "NoneType":  # None is the one value of its kind
                    clauses.append(f"{self.grouped(subject)} is {'' if holds else 'not '}None")
                    left = right
                    continue
                clauses.append(f"{self.grouped(subject)} is {'' if holds else 'not '}exactly {_TYPE_WORDS[name]} "
                               f"({_EXACT_NOTES.get(name, 'of that very kind, not of a kind built on it')})")
                left = right
                continue
            if kind in (cst.Is, cst.IsNot, cst.Equal, cst.NotEqual) and _type_of(left) is not None \
                    and _type_of(right) is not None:  # `type(a) is type(b)`: the two kinds compared
                same = (kind in (cst.Is, cst.Equal)) != negate
                clauses.append(f"{self.grouped(_type_of(left))} is {'' if same else 'not '}of exactly the same kind as "
                               f"{self.grouped(_type_of(right))} ({_SAME_KIND})")
                left = right
                continue
            system = paths.rules_check(dotted_name(left), dotted_name(right), (kind is cst.Is) != negate) \
                if kind in (cst.Is, cst.IsNot) else None
            if system is not None:
                clauses.append(system)
                left = right
                continue
            if kind in (cst.Is, cst.IsNot) and isinstance(right, cst.Name) and right.value == "NotImplemented":
                clauses.append(f"{self.grouped(left)} {verb} the special marker NotImplemented")
                left = right
                continue
            if kind in (cst.Is, cst.IsNot) and not (isinstance(right, cst.Name) and right.value in ("None", "True", "False")):
                verb = ("is not" if (kind is cst.IsNot) != negate else "is") + " the very same object as"
                clauses.append(f"{self.grouped(left)} {verb} {self.grouped(right)}{self.cite('identity')}")
                left = right
                continue
            if kind in (cst.Is, cst.IsNot) and right.value in ("True", "False"):  # identity, not truthiness
                verb += " exactly the value"
            if kind in (cst.In, cst.NotIn):
                clauses.append(self._membership(left, right, verb))
            elif kind in _SUBSETS and "set" in (self.sort_of(left), self.sort_of(right)):  # sets: containment
                a, b = self.grouped(left), self.grouped(right)
                clauses.append(f"{a} is {'not ' if negate else ''}" + _SUBSETS[kind].format(a=a, b=b))
            else:
                if kind in (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual):
                    # a number only compares with a number: one known number rules text out
                    if self._maybe_text_or_sequence(left) and self._maybe_text_or_sequence(right):
                        self.rule("order")
                clauses.append(f"{self._compared(left)} {verb} {self._compared(right)}")
            left = right
        return " and ".join(clauses) + self._once(node)

    def _once(self, node: cst.Comparison) -> str:
        """`a < f(x) < b` works out f(x) once, though its words stand in two checks: said when a value between
        two checks calls a function of the code (running it twice would count twice)."""
        middle = [self.grouped(t.comparator) for t in node.comparisons[:-1]
                  if _calls(t.comparator, self.helpers | set(self.methods) if self.facts is not None else set())]
        return f" ({_join(list(dict.fromkeys(middle)))} worked out only once)" if middle else ""

    def _compared(self, node: cst.BaseExpression) -> str:
        """A side of a comparison: arithmetic needs no brackets of its own there ("x is at least y
        plus 1" can only mean one thing), anything else is grouped as usual."""
        if isinstance(node, cst.BinaryOperation) and not node.lpar and not isinstance(node.operator, _BITWISE):
            text = self._expr(node, False)
            if not loose(text):
                return text
        return self.grouped(node)

    def _membership(self, item: cst.BaseExpression, container: cst.BaseExpression, verb: str) -> str:
        negative = "not" in verb
        kinds = self._exact_kinds(item, container, negative)
        if kinds is not None:
            return kinds
        if isinstance(container, (cst.Tuple, cst.List, cst.Set)) and all(isinstance(e, cst.Element) for e in container.elements):
            options = [self.grouped(e.value) for e in container.elements]
            if not options:
                return f"{self.grouped(item)} {'is anything (always true)' if negative else 'is nothing (never true)'}"
            return f"{self.grouped(item)} {'is none of' if negative else 'is one of'} {_join(options, 'or' if not negative else 'and')}"
        if isinstance(container, (cst.SimpleString, cst.ConcatenatedString)):
            self.rule("in")
            where = "does not occur" if negative else "occurs"
            return f"{self.grouped(item)} {where} in the text {self.value(container)}"
        kind = (self.kind(container) or "").split("[")[0]
        if kind == "dict":
            return f"{self.grouped(item)} {'is not' if negative else 'is'} a key of {self.grouped(container)}"
        if kind not in ("list", "set", "tuple", "deque"):
            self.rule("in")
        return f"{self.grouped(item)} {verb} {self.grouped(container)}"

    def _exact_kinds(self, item: cst.BaseExpression, container: cst.BaseExpression, negative: bool) -> str | None:
        """`type(x) in (list, tuple)`: x is exactly one of the built-in kinds the tuple names (each as
        `_named_kind` reads it), or (`not in`) none of them; else None."""
        value = _type_of(item)
        if value is None or not isinstance(container, (cst.Tuple, cst.List, cst.Set)) or not container.elements \
                or any(not isinstance(e, cst.Element) or _named_kind(e.value) is None for e in container.elements):
            return None
        names = list(dict.fromkeys(_named_kind(e.value) for e in container.elements))
        note = _EXACT_NOTES["int"] if "int" in names else "of that very kind, not of a kind built on it"
        options = [("not " if negative else "") + (f"exactly {_TYPE_WORDS[name]}" if name != "NoneType" else "None")
                   for name in names]
        return f"{self.grouped(value)} is {_join(options, 'and' if negative else 'or')} ({note})"

    # ---- containers -------------------------------------------------------------------------
    def _sequence(self, node) -> str:
        kind = {cst.List: "list", cst.Tuple: "tuple", cst.Set: "set"}[type(node)]
        if any(not isinstance(e, cst.Element) for e in node.elements):
            return self._unpacked_sequence(node, kind)
        values = [e.value for e in node.elements]
        if not values:
            return {"list": "a new empty list", "tuple": "an empty tuple", "set": "a new empty set"}[kind]
        if kind != "set" and is_constant(node):
            return f"the {kind} {self.data(node)}"
        kinds = self._kind_words(values) if kind == "tuple" else None
        if kinds is not None:  # `(bytes, str, type(None))`, kept for isinstance: the kinds, not functions
            return f"the tuple of these kinds of value ({'; '.join(kinds)})"
        # "a list of b and the items of b in reverse order" reads as b's items spliced in: one item, bracketed
        items = [f"({w})" if (w := self.grouped(v)).startswith("the items of ") else w for v in values]
        if len(items) == 1:
            return {"list": "a new list holding just ", "tuple": "a tuple holding just ",
                    "set": "a new set holding just "}[kind] + items[0]
        if kind == "tuple" and len(values) == 2:
            return f"the pair of {_join(items)}"
        noun = {"list": "a new list", "tuple": "the tuple", "set": "a new set"}[kind]
        return f"{noun} of {_join(items)}, in that order" if kind != "set" else f"{noun} of {_join(items)}"

    def _kind_words(self, values: list[cst.BaseExpression]) -> list[str] | None:
        """Each value a built-in kind named (`str`, `type(None)`) or a class of the code: the kinds in words, else None."""
        words = []
        for value in values:
            name = _named_kind(value) if _type_of(value) is not None else value.value if isinstance(
                value, cst.Name) and value.value in _TYPE_WORDS and value.value != "NoneType" else None
            if self.facts is not None and isinstance(value, cst.Name) and value.value in self.classes:
                words.append(f"an object of the class {value.value} (or of a class built on it)")
            elif name is None or self.facts is not None and (name in self.imported or name in self.constants
                                                             or name in self.classes):
                return None
            else:
                words.append(_TYPE_WORDS[name])
        return words

    def _unpacked_sequence(self, node, kind: str) -> str:
        """`(0, *splits, n)`: each `*part` stands for its items, in place; a set's items have no order to say."""
        parts = []
        for element in node.elements:
            if isinstance(element, cst.Element):
                parts.append(self.grouped(element.value))
            elif kind == "set":
                parts.append(f"the items of {self.grouped(element.value)}")
            else:
                order = "" if self.ordered(element.value) else self.cite("dict_order")
                parts.append(f"each item of {self.grouped(element.value)} in order{order}")
        if kind == "set":
            return f"a new set of {_join(parts)}"
        parts = [f"({part})" if loose(part) else part for part in parts]
        return {"list": "a new list of ", "tuple": "a tuple of "}[kind] + ", then ".join(parts)

    def data(self, node: cst.BaseExpression) -> str:
        """A literal list or tuple of constants written as data: [(0, 1), "a", true]."""
        if isinstance(node, (cst.List, cst.Tuple)):
            items = [self.data(e.value) for e in node.elements]
            if isinstance(node, cst.List):
                return "[" + ", ".join(items) + "]"
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        return self.value(node)

    def _dict(self, node: cst.Dict) -> str:
        if not node.elements:
            return "a new empty dictionary"
        pairs, copied = [], []
        for element in node.elements:
            if isinstance(element, cst.StarredDictElement):
                if pairs:  # what it copies would replace keys set before it: said in order, or not at all
                    raise Undescribable("unpacking with ** after other keys inside a dictionary")
                copied.append(self.grouped(element.value))
                continue
            pairs.append(f"{self.grouped(element.key)} to {self.grouped(element.value)}")
        if not copied:
            return f"a new dictionary mapping {_join(pairs)}"
        start = f"a new dictionary with every key and value of {_join(copied)}"
        if len(copied) > 1:
            start += " (in that order, a later one's value winning for a key they share)"
        if not pairs:
            return start
        return f"{start}, then mapping {_join(pairs)} (replacing the value of a key already there)"

    def _clauses(self, node) -> str:
        """The `for ... in ... if ...` part of a comprehension, in words."""
        words = []
        clause = node.for_in
        first = True
        while clause is not None:
            if clause.asynchronous is not None:
                raise Undescribable("an async comprehension")
            source = self.grouped(clause.iter)
            order = "" if "order" in source else " in order"
            lead = "for" if first else "and, inside that, for"
            if isinstance(clause.target, (cst.Tuple, cst.List)) and any(
                    isinstance(e, cst.StarredElement) for e in clause.target.elements):  # `for a, *rest in rows`
                parts, need = self.rest_parts(clause.target)
                words.append(f"{lead} each item of {source}{order} (taking that item's own items in order{need}, "
                             f"with {parts})")
            else:
                words.append(f"{lead} each {self.target(clause.target)} of {source}{order}")
            if not self.ordered(clause.iter):
                self.rule("dict_order")
            for condition in clause.ifs:
                words.append(f"keeping only those where {self.condition(condition.test)}")
            clause = clause.inner_for_in
            first = False
        return ", ".join(words)

    def ordered(self, node: cst.BaseExpression) -> bool:
        """Does going through this give its items in an order a reader sees (a list, text, range, ...)?"""
        kind = (self.kind(node) or "").split("[")[0]
        if kind in ("list", "str", "tuple", "deque"):
            return True
        if isinstance(node, (cst.List, cst.Tuple, cst.ListComp, cst.SimpleString)):
            return True
        return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and (node.func.value in (
            "range", "sorted", "enumerate", "zip", "reversed", "list") or node.func.value in self.generators)

    def _comprehension(self, node) -> str:
        clauses = self._clauses(node)
        if isinstance(node, cst.DictComp):
            return (f"a new dictionary mapping {self.grouped(node.key)} to {self.grouped(node.value)}, {clauses} "
                    f"(a later equal key replaces the earlier value but keeps its place)")
        noun = {cst.ListComp: "a new list of", cst.SetComp: "a new set of", cst.GeneratorExp: "the values"}[type(node)]
        return f"{noun} {self.grouped(node.elt)}, {clauses}"

    def _generic(self, owner: cst.BaseExpression) -> bool:
        """Is `owner[...]` a type for type checkers (`Optional[int]`, `Union[a, b]`, `list[str]`), not an item?"""
        if isinstance(owner, cst.Name) and owner.value in _TYPE_WORDS and (self.facts is None or (
                owner.value not in self.imported and owner.value not in self.constants and owner.value not in self.classes)):
            return True
        resolved = self.resolved(owner) if self.facts is not None else dotted_name(owner)
        return (resolved or "").startswith(("typing.", "collections.abc.", "types."))

    def rest_parts(self, target: cst.Tuple | cst.List, link: str = "") -> tuple[str, str]:
        """The names of `a, *rest, z` set from a sequence's items in order ("a the first, rest a new list of those
        in between and z the last"; with `link` "to ", "a to the first, ...") and how many items that needs
        (" (there must be at least 2)", or "")."""
        stars = [i for i, e in enumerate(target.elements) if isinstance(e, cst.StarredElement)]
        if len(stars) != 1 or not isinstance(target.elements[stars[0]].value, cst.Name):
            raise Undescribable("starred unpacking (*name)")
        star = stars[0]
        before = [self.target(e.value) for e in target.elements[:star]]
        after = [self.target(e.value) for e in target.elements[star + 1:]]
        if len(before) + len(after) > 20:
            raise Undescribable("starred unpacking (*name) into this many names")

        def ends(names: list[str], end: str) -> str:
            count = "" if len(names) == 1 else " " + _COUNT_WORDS[len(names)]
            return f"{_join(names)} {link}the {end}{count}"

        rest = {(True, True): "those in between", (True, False): "the rest",
                (False, True): f"all but the last{'' if len(after) == 1 else ' ' + _COUNT_WORDS[len(after)]}",
                (False, False): "all of them"}[bool(before), bool(after)]
        parts = ([ends(before, "first")] if before else []) + [
            f"{target.elements[star].value.value} {link}a new list of {rest}"] + ([ends(after, "last")] if after else [])
        least = len(before) + len(after)
        return _join(parts), f" (there must be at least {least})" if least else ""

    def target(self, node: cst.BaseExpression) -> str:
        """A loop or unpacking target: names, or names in a (possibly nested) tuple."""
        if isinstance(node, cst.Name):
            return node.value
        if isinstance(node, (cst.Tuple, cst.List)):
            parts = []
            for element in node.elements:
                if not isinstance(element, cst.Element):
                    raise Undescribable("starred unpacking (*name)")
                parts.append(self.target(element.value))
            return "(" + ", ".join(parts) + ")" if len(parts) > 1 else parts[0]
        return self.place(node)

    # ---- access -----------------------------------------------------------------------------
    def _attribute(self, node: cst.Attribute) -> str:
        owner = node.value.value if isinstance(node.value, cst.Name) else None
        if owner in self.based:  # `Color.RED`, a class built on a library class: its words live in vocab/
            return vocab.CLASSES[self.based_on[owner]]["attribute"](self, self.based[owner], node.attr.value)
        if isinstance(node.value, cst.Attribute) and isinstance(node.value.value, cst.Name) and \
                node.value.value.value in self.based:  # `Color.RED.value`
            name = node.value.value.value
            return vocab.CLASSES[self.based_on[name]]["member_attribute"](self, self.based[name], node.value.attr.value,
                                                                         node.attr.value)
        dotted = dotted_name(node)
        if dotted in vocab.CONSTANTS:  # a library's fixed value: its words live in vocab/
            return vocab.CONSTANTS[dotted]
        if self.facts is not None and self.resolved(node) in vocab.CONSTANTS:  # `import math as m`: `m.pi`
            return vocab.CONSTANTS[self.resolved(node)]
        if isinstance(node.value, cst.Name) and (node.value.value in self.selves or node.value.value in self.instances):
            if node.attr.value in self.methods:
                raise Undescribable("a method of a class of the code used as a value")
            return f"the field {node.attr.value} of {node.value.value}"
        if self._own_field(node):  # `p.x`, p an object of a class of the code held anywhere
            return f"the field {node.attr.value} of {self.grouped(node.value)}"
        if self._own_field(node, self.named):  # `p.x`, p a record (a tuple whose items are also named)
            return f"the item named {node.attr.value} of {self.grouped(node.value)}"
        made = self._library_object(node.value)
        if made is not None and node.attr.value in made.get("fields", {}):  # `date(...).year`: words in vocab/
            return made["fields"][node.attr.value](self, node.value)
        if isinstance(node.value, cst.Name) and node.attr.value in self.held.values():  # `add = items.append`
            owner = node.value.value
            return (f"the method {node.attr.value} of {owner} (it belongs to the very object {owner} holds now, even "
                    f"if {owner} is set to another one later)")
        if node.attr.value == "__name__" and isinstance(node.value, cst.Name):
            return f"the name of the function or class held in {node.value.value}"
        if node.attr.value == "__name__" and _type_of(node.value) is not None:  # `type(x).__name__`
            return (f"the name of the kind of {self.grouped(_type_of(node.value))} (\"int\" for a whole number, "
                    f"\"float\" for a decimal number, \"str\" for text, \"bool\" for true or false, \"list\", "
                    f"\"tuple\", \"dict\", \"set\", or \"NoneType\" for None)")
        sort = self.sort_of(node.value)
        if sort in ("int", "float") and (sort, node.attr.value) in _NUMBER_PARTS:  # `n.real`, `n.denominator`
            return _NUMBER_PARTS[(sort, node.attr.value)].format(self.grouped(node.value))
        if (regex.compiled(self, node.value) or isinstance(node.value, cst.Name) and node.value.value in self.patterns) and (
                node.attr.value in _PATTERN_ONLY or node.attr.value == "split"):  # surely a pattern's split
            return regex.method_as_value(self, node.value, node.attr.value)
        raise Undescribable(f"the attribute {dotted or node.attr.value}")

    def place(self, node: cst.BaseExpression) -> str:
        """Something that can be assigned to: a name, a stats counter, an item of a container."""
        if isinstance(node, cst.Name):
            return node.value
        if isinstance(node, cst.Subscript):
            return self._subscript(node)
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value in self.selves:
            return self._attribute(node)
        if isinstance(node, cst.Attribute) and self._own_field(node) and not self.slotted and not any(
                node.attr.value in dict(self.dataclasses[name]) for name in self.frozen):
            return self._attribute(node)
        raise Undescribable(f"assigning to {type(node).__name__}")

    def _own_field(self, node: cst.Attribute, names: frozenset[str] | None = None) -> bool:
        """Is `o.x` a field of an object of a class of the code (`facts.fields`; or one of `names`), o no class
        itself? Only such objects hold a field of that name, so on any other value the read fails as the
        words say it would."""
        return self.facts is not None and node.attr.value in (self.fields if names is None else names) and not (
            isinstance(node.value, cst.Name) and (node.value.value in self.classes or node.value.value in self.imported))

    def _subscript(self, node: cst.Subscript) -> str:
        if self._generic(node.value):
            raise Undescribable("a type written for type checkers used as a value")
        node = one_index(node)
        if len(node.slice) != 1:
            raise Undescribable("a subscript with several indices")
        index = node.slice[0].slice
        owner = node.value
        if isinstance(index, cst.Slice):
            return self._slice(owner, index)
        key = index.value
        if isinstance(owner, cst.Name) and owner.value == self.stats and isinstance(key, cst.SimpleString):
            return key.evaluated_value
        if isinstance(owner, cst.Dict):
            return f"the value under the key {self.grouped(key)} in {self.value(owner)}"
        if isinstance(key, (cst.SimpleString, cst.ConcatenatedString)):
            return f"the value of {self.grouped(owner)} under the key {self.value(key)}"
        kind = (self.kind(owner) or "").split("[")[0]
        if kind == "dict":
            return f"the value of {self.grouped(owner)} under the key {self.grouped(key)}"
        self.rule("index")
        ordinal = {"0": "first", "1": "second", "2": "third"}.get(key.value) if isinstance(key, cst.Integer) else None
        if ordinal and kind in ("list", "str", "tuple", "deque"):
            return f"the {ordinal} item of {self.grouped(owner)}"
        if isinstance(key, cst.UnaryOperation) and isinstance(key.operator, cst.Minus) and isinstance(
                key.expression, cst.Integer) and key.expression.value == "1" and kind in ("list", "str", "tuple", "deque"):
            return f"the last item of {self.grouped(owner)}"
        position = self.grouped(key)
        if " " in position and not _bracketed(position):  # "item (item x of t) of u", "item (x turned into a whole number) of u"
            position = f"({position})"
        whole = self.grouped(owner)
        if isinstance(owner, cst.Subscript):
            whole = f"({whole})"
        if isinstance(key, cst.UnaryOperation) and isinstance(key.operator, cst.Minus) and isinstance(key.expression, cst.Integer):
            ordinal = {"1": "the last", "2": "the second-to-last"}.get(key.expression.value)
            if ordinal:
                position = f"{position} ({ordinal})"
        return f"item {position} of {whole}"

    def _slice(self, owner: cst.BaseExpression, index: cst.Slice) -> str:
        whole = self.grouped(owner)
        if index.step is not None:
            step = _int_value(index.step)
            if index.lower is None and index.upper is None and step == -1:
                return f"the items of {whole} in reverse order (a reversed copy)"
            if step == -1:  # from the start bound back down, the stop bound left out
                start = "its last position" if index.lower is None else f"position {self.operand(index.lower)}"
                stop = "its first position" if index.upper is None else \
                    f"just after position {self.operand(index.upper)} (that position itself left out)"
                empty = "" if index.lower is None or index.upper is None else \
                    f"; nothing if position {self.operand(index.upper)} does not come before position {self.operand(index.lower)}"
                return (f"the items of {whole} from {start} going back one position at a time down to {stop}, in that "
                        f"order{empty}{self.cite('slice')}")
            if step is None or step < 1:
                raise Undescribable("a slice with a computed or negative step")
            plain = index.with_changes(step=None)
            if step == 1:
                return self._slice(owner, plain)
            return (f"every {_ordinal(step)} item of the part of {whole} {self.bounds(plain)}, starting with "
                    f"that part's first item")
        if index.lower is None and index.upper is None:
            return f"a copy of {whole}"
        return f"the part of {whole} {self.bounds(index)}"

    def bounds(self, index: cst.Slice) -> str:
        """Where a slice starts and stops, in words, citing the slice rule."""
        if index.step is not None:
            raise Undescribable("a slice with a step")
        lower = None if index.lower is None else self.operand(index.lower)
        upper = None if index.upper is None else self.operand(index.upper)
        if lower is None and upper is None:
            return "from the start to the end"
        cite = self.cite("slice")
        if lower is None:
            return f"before position {upper}{cite}"
        if upper is None:
            return f"from position {lower} to the end{cite}"
        return f"from position {lower} up to position {upper}{cite}"

    # ---- calls ------------------------------------------------------------------------------
    def arguments(self, call: cst.Call) -> tuple[list[cst.BaseExpression], dict[str, cst.BaseExpression]]:
        positional, keywords = [], {}
        for arg in call.args:
            if arg.star:
                raise Undescribable("a call with * or ** unpacking")
            if arg.keyword is not None:
                keywords[arg.keyword.value] = arg.value
            else:
                positional.append(arg.value)
        return positional, keywords

    def call_with(self, call: cst.Call) -> str:
        """A helper's inputs in words; `*xs` and `**d` pass the items of xs in order, the keys of d by name."""
        words = []
        for arg in call.args:
            if arg.star == "*":
                words.append(f"each item of {self.grouped(arg.value)} in order")
            elif arg.star == "**":
                words.append(f"each key of the dictionary {self.grouped(arg.value)} set to its value")
            elif arg.keyword is not None:
                words.append(f"{arg.keyword.value} set to {self.grouped(arg.value)}")
            else:  # "g3 with (res with every match ... replaced)": an input that has a "with" of its own is bracketed
                text = self.grouped(arg.value)
                words.append(f"({text})" if loose(text, r" with ") and not _bracketed(text) else text)
        return "with " + _join(words) if words else "with no inputs"

    def resolved(self, node: cst.BaseExpression) -> str | None:
        """A dotted name with its first part traced through `from m import g [as h]` (`h.x` is `m.g.x`)."""
        return resolved_name(node, self.imported)

    def _call(self, call: cst.Call, cond: bool) -> str:
        """A call in words: its kind (`call_kind`) picks the one handler in `_CALLS` that says it; a module-level
        name for a built-in kind (`unicode = str`) is called as that kind."""
        alias = self.type_alias(call.func)
        if alias is not None and alias in _METHOD_FREE:
            call = call.with_changes(func=cst.Name(alias))
        return _CALLS[self.call_kind(call)](self, call, cond)

    def call_kind(self, call: cst.Call) -> str:
        """What is called, as a key of `_CALLS`: a library function or a library object's method (words in
        vocab/), a generator, helper, kept method, record or class of the code, a built-in, a function held
        in a name, a method, a compiled pattern's method, `type(x)(...)`; the first that fits."""
        func = call.func
        if self.library_function(func):
            return "library"
        if isinstance(func, cst.Attribute) and self._library_object(func.value) is not None:
            return "library object"
        if isinstance(func, cst.Name):
            return next((kind for kind, fits in _NAMED_CALLS if fits(self, func.value, call)), "held function")
        if isinstance(func, cst.Attribute):
            return next((kind for kind, fits in _METHOD_CALLS if fits(self, func, call)), "method")
        return "own kind" if _type_of(func) is not None else "computed"

    def _call_library(self, call: cst.Call, cond: bool) -> str:  # a library function: its words live in vocab/
        spread = vocab.SPREAD.get(self.resolved(call.func))
        if spread is not None and len(call.args) == 1 and call.args[0].star == "*":  # `chain(*xs)`
            return spread(self, call.args[0].value)
        args, keywords = self.arguments(call)
        return vocab.TABLE[self.resolved(call.func)](self, args, keywords)

    def _call_library_object(self, call: cst.Call, cond: bool) -> str:  # `datetime.date(...).weekday()`
        func = call.func
        method = self._library_object(func.value).get("methods", {}).get(func.attr.value)
        if method is None:
            maker = self.objects[func.value.value] if isinstance(func.value, cst.Name) else self.resolved(func.value.func)
            raise Undescribable(f"the method {func.attr.value} of {maker}")
        args, keywords = self.arguments(call)
        return method(self, func.value, args, keywords)

    def _call_generator(self, call: cst.Call, cond: bool) -> str:
        return f"the values {call.func.value} produces {self.call_with(call)}"

    def _call_helper(self, call: cst.Call, cond: bool) -> str:
        return f"what {call.func.value} gives back {self.call_with(call)}"

    def _call_bound(self, call: cst.Call, cond: bool) -> str:  # a method kept in a name (`add = seen.add`)
        method = self.bound[call.func.value]
        if isinstance(method.value, cst.Name) and method.value.value in METHOD_TYPES and call.args:
            # `int.bit_length(x)` is `x.bit_length()`
            return self._call(call.with_changes(func=method.with_changes(value=call.args[0].value),
                                                args=call.args[1:]), cond)
        return self._call(call.with_changes(func=method), cond)

    def _call_record(self, call: cst.Call, cond: bool) -> str:
        values = _record_order(self.records[call.func.value], call)
        if not _in_order(values, call) and not all(_simple(v) for v in values):
            raise Undescribable("a record made with inputs named out of order that are worked out")  # order of work
        return f"a new {call.func.value} tuple of {_join([self.grouped(v) for v in values])}"

    def _call_dataclass(self, call: cst.Call, cond: bool) -> str:
        """`P(1, y=2)`, P a class of fields (`facts.dataclasses`): each field and the value it is given."""
        fields = self.dataclasses[call.func.value]
        values = _record_order(tuple(name for name, _ in fields), call, dict(fields))
        if values is None:
            raise Undescribable("a class of fields made with other than one value for each field")
        if not _in_order(values, call) and not all(_simple(v) for v in values):
            raise Undescribable("a class of fields made with inputs named out of order that are worked out")
        return (f"a new object of the class {call.func.value} with " +
                _join([f"its field {name} set to {self.grouped(value)}" for (name, _), value in zip(fields, values)]))

    def _call_class(self, call: cst.Call, cond: bool) -> str:
        if call.func.value in self.based:
            raise Undescribable("a call of a class built on a library class")
        return f"a new object of the class {call.func.value}, made {self.call_with(call)}"

    def _call_text_class(self, call: cst.Call, cond: bool) -> str:
        """A class whose objects are texts (facts `texts`): the text it is made from; its other inputs are only
        kept as fields no step can read, so they must be names or written values (nothing to work out)."""
        made, args = self.texts[call.func.value], call.args
        place, count = made if made is not None else (0, 1)
        if any(a.keyword or a.star for a in args) or len(args) != count or not all(
                isinstance(a.value, cst.Name) or is_constant(a.value) for i, a in enumerate(args) if i != place):
            raise Undescribable("this making of a class whose objects are texts")
        text = args[place].value
        said = self.grouped(text) if self.sort_of(text) == "str" else \
            self._builtin("str", cst.Call(func=cst.Name("str"), args=[cst.Arg(text)]), cond)
        return f"a new text equal to {said} (an object of the class {call.func.value}, a kind of text)"

    def _call_builtin(self, call: cst.Call, cond: bool) -> str:
        return self._builtin(call.func.value, call, cond)

    def _call_imported(self, call: cst.Call, cond: bool) -> str:  # `from m import g` with no words for m.g in vocab/
        raise Undescribable(f"the imported function {self.imported[call.func.value]}")

    def _call_held(self, call: cst.Call, cond: bool) -> str:
        return f"what the function held in {call.func.value} gives back when called {self.call_with(call)}"

    def _call_unknown_library(self, call: cst.Call, cond: bool) -> str:  # a library function with no words
        library, _, name = dotted_name(call.func).rpartition(".")
        raise Undescribable(f"the {library} function {name}")

    def _call_pattern(self, call: cst.Call, cond: bool) -> str:  # `re.compile(p).search(x)`
        args, keywords = self.arguments(call)
        return regex.pattern_method(self, call.func.value, call.func.attr.value, args, keywords)

    def _call_own_method(self, call: cst.Call, cond: bool) -> str:  # a method of a class of the code
        func = call.func
        made = self.instances.get(func.value.value) if isinstance(func.value, cst.Name) else None
        if made is not None and func.attr.value in self.own_methods.get(made, ()):
            return (f"what the method {func.attr.value} of the object {func.value.value} (of the class {made}) gives "
                    f"back when called {self.call_with(call)}")
        owner = self.owners.get(func.attr.value)
        if owner is not None and not (isinstance(func.value, cst.Name) and func.value.value in self.selves):
            return (f"what the method {func.attr.value} of the class {owner} gives back when called on "
                    f"{self.grouped(func.value)} (an object of that class) {self.call_with(call)}")
        if not (isinstance(func.value, cst.Name) and func.value.value in self.selves):
            raise Undescribable("a method of a class of the code called on an object made elsewhere")
        return f"what its method {func.attr.value} gives back when called on {func.value.value} {self.call_with(call)}"

    def _call_own_comparison_method(self, call: cst.Call, cond: bool) -> str:
        return self._own_comparison(call.func, call)

    def _call_next(self, call: cst.Call, cond: bool) -> str:  # `it.__next__()` is `next(it)`
        return self._builtin("next", cst.Call(func=cst.Name("next"), args=[cst.Arg(call.func.value)]), cond)

    def _call_method(self, call: cst.Call, cond: bool) -> str:
        return self.method(call.func.value, call.func.attr.value, call)

    def _set_kind_method(self, kind: str, name: str, call: cst.Call) -> str:
        """`set.union(a, b)` is `a.union(b)` (a must be of that kind); `set.union(*xs)` works on the items of xs,
        the first of them being the set the method is called on."""
        first = call.args[0]
        if first.star == "" and first.keyword is None:
            said = self.method(first.value, name, call.with_changes(args=call.args[1:]))
            if self.sort_of(first.value) == kind:
                return said
            if not _simple(first.value):  # said twice, a call in it would read as made twice
                raise Undescribable(f"the method {name} called on the kind {kind} itself")
            return f"{said} (the steps stop with an error if {self.grouped(first.value)} is not {_TYPE_WORDS[kind]})"
        if first.star != "*" or len(call.args) != 1 or name not in ("union", "intersection"):
            raise Undescribable(f"the method {name} called on the kind {kind} itself")
        xs, made = self.grouped(first.value), _TYPE_WORDS[kind]
        said = {"union": f"a new {made[2:]} of the items that are in at least one item of {xs}",
                "intersection": f"a new {made[2:]} of the items that are in every item of {xs}"}[name]
        return (f"{said} (the steps stop with an error if there is not at least one item, or if the first item is not "
                f"{made})")

    def _call_own_kind(self, call: cst.Call, cond: bool) -> str:
        """`type(x)(...)`: x's own kind made anew, said as that built-in when the kind is sure."""
        kind = (self.kind(_type_of(call.func)) or "").split("[")[0]
        if kind in ("dict", "list", "str", "set", "tuple", "int", "float"):
            return self._builtin(kind, call.with_changes(func=cst.Name(kind)), cond)
        if not call.args:  # made from nothing: each built-in kind's empty value
            value = self.grouped(_type_of(call.func))
            return (f"a new value of the same kind as {value}, made from nothing: empty text, empty bytes, 0, 0.0, "
                    f"false, an empty list, an empty tuple, an empty dictionary, an empty set, an empty fixed set or None, "
                    f"as {value} is text, bytes, a whole number, a decimal number, true or false, a list, a tuple, a "
                    f"dictionary, a set, a fixed set or None (a value of any other kind: a new one made with no "
                    f"inputs)")
        raise Undescribable("a call of a computed function")

    def _call_computed(self, call: cst.Call, cond: bool) -> str:
        """A function taken from a table or list (`ops[op](a, b)`): the value there, called; one chosen by a
        condition (`(sorted if s else list)(d)`) as the choice of the two calls (the condition is checked first,
        the inputs then worked out once either way); any other computed function (one a call gives back) is not
        said."""
        if isinstance(call.func, cst.IfExp):
            func = call.func
            return self.value(cst.IfExp(test=func.test, body=call.with_changes(func=func.body.with_changes(lpar=[], rpar=[])),
                                        orelse=call.with_changes(func=func.orelse.with_changes(lpar=[], rpar=[]))))
        if not isinstance(call.func, cst.Subscript):
            raise Undescribable("a call of a computed function")
        return f"what the function ({self.grouped(call.func)}) gives back when called {self.call_with(call)}"

    def _library_object(self, node: cst.BaseExpression) -> dict | None:
        """The vocab words for the object `node` is when it is a call of a library's maker
        (`datetime.date(...)`) or a name set only to one (`facts.objects`), else None."""
        if isinstance(node, cst.Name) and self.facts is not None and node.value in self.objects:  # `d = date(...)`
            return vocab.OBJECTS[self.objects[node.value]]
        return vocab.OBJECTS.get(self.resolved(node.func)) if isinstance(node, cst.Call) else None

    def _own_comparison(self, func: cst.Attribute, call: cst.Call) -> str:
        """`type(a).__lt__(a, b)`: a comparison by a's own kind alone, which gives a marker, not an
        answer, when that kind does not compare with b's (`int.__lt__(1, 2.5)`)."""
        owner = func.value
        if not (isinstance(owner.func, cst.Name) and owner.func.value == "type" and len(owner.args) == 1
                and len(call.args) == 2 and not any(a.keyword or a.star for a in [*owner.args, *call.args])
                and _same(owner.args[0].value, call.args[0].value)):
            raise Undescribable(f"the special method {func.attr.value} called on a computed type")
        left, right = call.args[0].value, call.args[1].value
        compared = cst.Comparison(left, [cst.ComparisonTarget(_OWN_COMPARISONS[func.attr.value](), right)])
        return (f"the special marker NotImplemented if {self.grouped(right)} is not of a kind that "
                f"{self.grouped(left)}'s own kind compares with{self.cite('own_compare')}, otherwise whether "
                f"{self._comparison(compared)}")

    def _type_elements(self, kind: cst.Element) -> list[cst.Element]:
        """A module-level constant naming a tuple of types (`bytes_types = (bytes, bytearray)`), or a name bound once
        in the whole module to one (`facts.kind_tuples`), as those types; `type(None)`, `type("")` as the kind named."""
        held = self.constants.get(kind.value.value) if isinstance(kind.value, cst.Name) else None
        if isinstance(kind.value, cst.Name) and not isinstance(held, cst.Tuple) and self.facts is not None:
            held = self.kind_tuples.get(kind.value.value)
        if isinstance(held, cst.Tuple):
            inner = [e for element in held.elements for e in self._type_elements(element)]
            if all(isinstance(e.value, cst.Name) and (e.value.value in _TYPE_WORDS or e.value.value in self.classes)
                   for e in inner):
                return list(inner)
        literal = _named_kind(kind.value) if _type_of(kind.value) is not None else None
        if literal is not None and not (self.facts is not None and (literal in self.classes or literal in self.imported)):
            return [cst.Element(cst.Name(literal))]  # `type(None)`: None's own kind
        alias = self.type_alias(kind.value)
        return [cst.Element(cst.Name(alias))] if alias is not None else [kind]

    def type_alias(self, node: cst.BaseExpression) -> str | None:
        """The built-in kind a module-level name stands for (`unicode = str`, `text_type = str`), else None."""
        if not isinstance(node, cst.Name) or node.value in _TYPE_WORDS:
            return None
        value = self.constants.get(node.value)
        if isinstance(value, cst.Name) and value.value in _TYPE_WORDS and value.value not in self.imported \
                and value.value not in self.classes:
            return value.value
        return None

    def certain_kind(self, node: cst.BaseExpression) -> str | None:
        """`int` or `str` for a literal of that kind, else what `kind` knows."""
        if isinstance(node, cst.Integer):
            return "int"
        if isinstance(node, cst.FormattedString) or isinstance(node, cst.SimpleString) and "b" not in node.prefix.lower():
            return "str"
        return self.kind(node)

    def sort_of(self, node: cst.BaseExpression) -> str | None:
        """The plain kind an expression surely has as far as the code shows (`int`, `float`, `number`,
        `bool`, `str`, `bytes`, `list`, `tuple`, `set`, `dict`, `deque`), or None: an operator whose meaning
        depends on its operands' kinds (`%`, `*`, `&`, `<`) is said by these."""
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            return "bytes" if isinstance(node.evaluated_value, bytes) else "str"
        if isinstance(node, cst.Float):
            return "float"
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo) and \
                self.sort_of(node.left) == "str":
            return "str"
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)):
            sides = {self.sort_of(node.left), self.sort_of(node.right)}
            return sides.pop() if len(sides) == 1 and sides <= {"bool", "int", "set"} else None
        if isinstance(node, cst.BooleanOperation) and is_boolean(node):
            return "bool"
        kind = roles.expression_kind(node, self.kinds if self.facts is not None else {})
        kind = (kind or "").split("[")[0]
        return {"frozenset": "set", "": None}.get(kind, kind)

    def may_be_text(self, node: cst.BaseExpression) -> bool:
        """Could this hold text on some case: surely text, or an input declared as a union with text."""
        if self.sort_of(node) == "str":
            return True
        return isinstance(node, cst.Name) and self.facts is not None and "str" in self.mixed.get(node.value, ())

    def _maybe_text_or_sequence(self, node: cst.BaseExpression) -> bool:
        if (self.kind(node) or "") in ("int", "float", "number", "bool"):
            return False
        if isinstance(node, cst.Name) and node.value in self.numbers:
            return False
        return _maybe_text_or_sequence(node)

    def builtin_call(self, name: str, call: cst.Call) -> str:
        """A built-in container made by a library function of the same meaning (`collections.deque`)."""
        return self._builtin(name, call, cond=False)

    def _builtin(self, name: str, call: cst.Call, cond: bool) -> str:
        """A built-in function's call in words: its forms are tried in turn (`_BUILTIN_FORMS`), the first
        that fits says it."""
        if name == "zip" and call.args and call.args[0].star == "*":
            return self._zip_spread(call)
        if name in ("max", "min") and [a.star for a in call.args].count("*") == 1 and \
                not any(a.star == "**" or a.keyword for a in call.args):
            return self._extreme_spread(name, call)
        args, keywords = self.arguments(call)
        places = _BUILTIN_PLACES.get(name, ())[len(args):len(args) + len(keywords)]
        if keywords and set(keywords) == set(places):  # given by name in their places, none left out before
            args, keywords = [*args, *(keywords[place] for place in places)], {}
        one = args[0] if len(args) == 1 and not keywords else None
        for form in _BUILTIN_FORMS.get(name, ()):
            said = form(self, name, args, keywords, one, cond)
            if said is not None:
                return said
        raise Undescribable(f"this use of the built-in {name}")

    def _builtin_empty(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        """`int()`, `float()`, `str()`, `bool()`: the value each makes from nothing."""
        if not args and not keywords:
            return {"int": "0", "float": "0.0", "str": "empty text", "bool": "false"}.get(name)
        return None

    def _builtin_getattr(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        """`getattr(x, "name")` with the name written in the code is `x.name`."""
        if name == "getattr" and len(args) == 2 and not keywords and isinstance(args[1], cst.SimpleString) and \
                isinstance(args[1].evaluated_value, str) and args[1].evaluated_value.isidentifier():
            return self.value(cst.Attribute(args[0], cst.Name(args[1].evaluated_value)))
        if name == "getattr" and len(args) == 3 and not keywords and isinstance(args[1], cst.SimpleString) and \
                isinstance(args[1].evaluated_value, str) and self.json_value(args[0]) and \
                not any(hasattr(sample, args[1].evaluated_value) for sample in _JSON_SAMPLES.values()):
            # a JSON value never has such an attribute: the default, once the value itself has been worked out
            default = self.grouped(args[2])
            return default if isinstance(args[0], cst.Name) else \
                f"{default} (once {self.grouped(args[0])} has been looked up: it must be there)"
        return None

    def _builtin_len(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "len" and one is not None:
            return f"the length of {g(one)}"
        return None

    def _builtin_format(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        return formats.builtin_format(self, args, keywords)

    def _builtin_abs(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "abs" and one is not None:
            return f"the absolute value of {g(one)}"
        return None

    def _builtin_int(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "int" and one is not None:
            return f"{g(one)} turned into a whole number{self.cite('int')}"
        if name == "int" and len(args) == 2 and not keywords:
            return f"the whole number written in base {g(args[1])} by the text {g(args[0])}"
        return None

    def _builtin_float(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "float" and one is not None:
            return f"{g(one)} as a decimal number"
        return None

    def _builtin_str(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "str" and one is not None:
            return self.container_text(one) or f"{g(one)} written as text{self.cite('str')}"
        return None

    def container_text(self, node: cst.BaseExpression) -> str | None:
        """A list, tuple, dictionary or set written as text is its display (`str([1, 'a'])` is "[1, 'a']"):
        said where those words are exact, dropped where not; None for a value of any other kind."""
        if self.sort_of(node) not in ("list", "tuple", "dict", "set"):
            return self._mixed_container_text(node)
        shown = self.shown(node) if self.sort_of(node) != "set" else None  # a set's display follows its own order
        if shown is None:
            raise Undescribable("a list, tuple, dictionary or set written as text (its items as Python shows them)")
        return shown

    def _mixed_container_text(self, node: cst.BaseExpression) -> str | None:
        """An input declared as a union that allows a list or dictionary is written as text as a text is,
        or as that display on the cases where it is one (`str([1, 'a'])` is "[1, 'a']", never JSON's
        double quotes); None when no case holds a collection."""
        allowed = self.mixed.get(node.value, frozenset()) if isinstance(node, cst.Name) and self.facts is not None \
            else frozenset()
        if not allowed & {"list", "tuple", "dict", "set"}:
            return None
        if "set" in allowed or self.plain is None or not self.plain.value(node):
            raise Undescribable("a list, tuple, dictionary or set written as text (its items as Python shows them)")
        return (f"{self.grouped(node)} written as text{self.cite('str')} (on a case where it is a list or a "
                f"dictionary: as Python displays it{self.cite('shown')}{self.cite('repr')})")

    def _builtin_bytes(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        if name == "bytes" and one is not None and (isinstance(one, (cst.Tuple, cst.List)) or self.kind(one) in (
                "list[int]", "list[bool]")):
            return self._byte_values(one)
        if name == "bytes" and one is not None and self.sort_of(one) in ("list", "tuple", "deque", None):
            self.rule("bytes")  # a value of a kind the code does not fix: what bytes makes of each kind
            return (f"the bytes made from {self.grouped(one)}: for a whole number n, n bytes of value 0; for bytes, "
                    f"the same bytes; for a list or other collection of whole numbers, the bytes with those values, "
                    f"in order (each must be from 0 to 255; the steps stop with an error for text, for a negative "
                    f"number or for any other value)")
        return None

    def _builtin_bytearray(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        """`bytearray(...)`: the bytes `bytes(...)` makes from the same inputs, as a new value whose bytes can be
        changed (each item a whole number from 0 to 255, set, added and removed as a list's are)."""
        self.rule("bytes")
        changeable = f"as a new changeable bytes value{self.cite('bytearray')}"
        if one is not None and self.sort_of(one) == "bytes":
            return f"a copy of the bytes {self.grouped(one)}, {changeable}"
        if not args and not keywords:
            return f"no bytes at all, {changeable}"
        if one is not None and self.sort_of(one) == "int":
            return (f"{self.grouped(one)} bytes of value 0 (the steps stop with an error if that is negative), "
                    f"{changeable}")
        for form in (Speaker._builtin_bytes, Speaker._builtin_str_bytes):
            said = form(self, "bytes", args, keywords, one, cond)
            if said is not None:
                return f"{said}, {changeable}" if not loose(said) else f"({said}), {changeable}"
        return None

    def _builtin_str_bytes(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        # the same as .decode / .encode, the encoding given second or by its keyword
        encoding = args[1] if len(args) == 2 and not keywords else \
            keywords["encoding"] if len(args) == 1 and set(keywords) == {"encoding"} else None
        if name in ("str", "bytes") and encoding is not None:
            self.rule("bytes")
            if name == "str":
                return (f"the text the bytes {g(args[0])} spell in the encoding {g(encoding)} (the steps stop with "
                        f"an error if they are not valid in it)")
            return (f"the bytes of the text {g(args[0])} in the encoding {g(encoding)} (the steps stop with an "
                    f"error if a character has none)")
        return None

    def _builtin_bool(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "bool" and one is not None:
            self.rule("truth")
            return f"whether {g(one)} counts as true"
        return None

    def _builtin_ord(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "ord" and one is not None:
            if isinstance(one, (cst.SimpleString, cst.ConcatenatedString)) and isinstance(one.evaluated_value, bytes):
                return f"the value of the one byte of {g(one)}"
            return f"the Unicode code point of the character {g(one)}"
        return None

    def _builtin_chr(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "chr" and one is not None:
            return f"the character with Unicode code point {g(one)}"
        return None

    def _builtin_list_tuple_and_kin(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name in ("list", "tuple", "set", "frozenset", "deque") and not keywords and len(args) <= 1:
            noun = {"list": "a new list", "tuple": "a tuple", "set": "a new set", "frozenset": "a fixed set",
                    "deque": "a new queue (a list you can also take from the front)"}[name]
            if not args:
                return noun.replace("a new ", "a new empty ").replace("a tuple", "an empty tuple")
            order = "" if self.ordered(args[0]) else self.cite("dict_order")
            whole = self.operand(args[0]) if g(args[0]).startswith("the items of ") else g(args[0])  # items of items
            if name in ("set", "frozenset"):
                return f"{noun} of the distinct items of {whole}{order}"
            return f"{noun} of the items of {whole}, in order{order}"
        return None

    def _builtin_object(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        if name == "object" and not args and not keywords:  # a sentinel
            return "a new marker object, equal to nothing but itself"
        return None

    def _builtin_Counter(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "Counter" and one is not None:
            return (f"a new dictionary from each distinct item of {g(one)}, in order of first appearance, to how many "
                    f"times it occurs there (reading a key it lacks gives 0; a dictionary given is copied as the counts)")
        return None

    def _builtin_dict(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        if name == "dict" and not args and not keywords:
            return "a new empty dictionary"
        if name == "dict" and len(args) <= 1 and keywords and "" not in keywords:  # `dict(a=1)`: names as keys
            start = "a new dictionary" if not args else self._builtin_dict(name, args, {}, args[0], cond)
            pairs = _join([f'the key "{key}" holding {self.grouped(value)}' for key, value in keywords.items()])
            return f"{start}; then {pairs} stored in it in that order (each replacing any value already under that " \
                f"key)" if args else f"a new dictionary with {pairs}, in that order"
        if name == "dict" and one is not None:
            if (self.kind(one) or "").startswith("dict"):
                return f"a new dictionary with the same keys and values as {self.grouped(one)}, in the same order"
            return (f"a new dictionary made from the pairs of {self.grouped(one)} in order, each pair's first item a "
                    f"key and its second the value (a later pair with the same key replaces the value)")
        return None

    def _builtin_reversed(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "reversed" and one is not None:
            return f"the items of {g(one)} in reverse order"
        return None

    def _builtin_range(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        if name == "range" and not keywords:
            return "the whole numbers " + self.counting(args)
        return None

    def _builtin_min_max(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        if name in ("min", "max"):
            return self._extreme(name, args, keywords)
        return None

    def _builtin_sorted(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        if name == "sorted":
            return self._sorted(args, keywords)
        return None

    def _builtin_sum(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "sum" and len(args) in (1, 2) and not keywords:
            if len(args) == 2 and self.sort_of(args[1]) in ("list", "tuple"):  # sum(rows, []): lists joined
                self.rule("plus")
            start = f", starting from {g(args[1])}" if len(args) == 2 else ""
            return f"the sum of {self._items(args[0])}{start} (0 if there are none)" if not start else \
                f"the sum of {self._items(args[0])}{start}"
        return None

    def _builtin_any_all(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name in ("any", "all") and one is not None:
            if isinstance(one, cst.GeneratorExp):
                some = "at least one" if name == "any" else "every"
                self.rule("truth")
                return (f"whether {self.condition(one.elt)} holds for {some} case ({self._clauses(one)}; "
                        f"{'false' if name == 'any' else 'true'} if there are none)")
            self.rule("truth")
            return (f"whether {'at least one' if name == 'any' else 'every'} item of {g(one)} counts as true "
                    f"({'false' if name == 'any' else 'true'} if there are none)")
        return None

    def _builtin_round(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "round" and len(args) in (1, 2) and not keywords:
            if len(args) == 1:
                return f"{g(args[0])} rounded to the nearest whole number{self.cite('round')}"
            return f"{g(args[0])} rounded to {g(args[1])} decimals{self.cite('round')}"
        return None

    def _builtin_divmod(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "divmod" and len(args) == 2:
            self.rule("floor")
            self.rule("mod")
            return (f"the pair of ({g(args[0])} floor-divided by {g(args[1])}) and (the remainder of {g(args[0])} "
                    f"divided by {g(args[1])})")
        return None

    def _builtin_pow(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "pow" and len(args) == 3:
            return f"the remainder of ({g(args[0])} to the power {g(args[1])}) divided by {g(args[2])}"
        if name == "pow" and len(args) == 2:
            self.rule("power")
            return f"{g(args[0])} to the power {g(args[1])}"
        return None

    def _builtin_isinstance(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "isinstance" and len(args) == 2:
            kinds = args[1].elements if isinstance(args[1], cst.Tuple) else [cst.Element(args[1])]
            kinds = [k for kind in kinds for k in self._type_elements(kind)]
            words = []
            for kind in kinds:
                if isinstance(kind.value, cst.Name) and kind.value.value in self.classes:
                    words.append(f"an object of the class {kind.value.value} (or of a class built on it)")
                    continue
                library = vocab.TYPES.get(self.resolved(kind.value)) if not (
                    isinstance(kind.value, cst.Name) and kind.value.value not in self.imported) else None
                if library is not None:  # a library's kind of value: its words live in vocab/
                    words.append(library(self))
                    continue
                if not isinstance(kind.value, cst.Name) or kind.value.value not in _TYPE_WORDS:
                    return self._input_kinds(args[0], kinds, cond)
                words.append(_TYPE_WORDS[kind.value.value])
            extra = " (true and false count as whole numbers here)" if any(
                isinstance(k.value, cst.Name) and k.value.value == "int" for k in kinds) else ""
            test = f"{g(args[0])} is {_join(words, 'or')}{extra}"
            return test if cond else f"whether {test}"  # as a value it is true or false
        return None

    def _builtin_hasattr(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        """`hasattr(x, "name")` on an input (a JSON value whenever read): the JSON kinds that have it, found by
        asking Python; on any other value the answer depends on a kind the code does not fix."""
        if name != "hasattr" or len(args) != 2 or keywords or self.facts is None \
                or not isinstance(args[1], cst.SimpleString) or not isinstance(args[1].evaluated_value, str):
            return None
        if not self.json_value(args[0]):
            return self._builtin_hasattr_any(args, cond)
        kinds = [kind for kind, sample in _JSON_SAMPLES.items() if hasattr(sample, args[1].evaluated_value)]
        if len(kinds) == len(_JSON_SAMPLES):
            return "true (every value has it)"
        if not kinds:
            return f"false ({self.grouped(args[0])}, an input, never has it)"
        words = [_TYPE_WORDS[k] if k != "bool" else "a truth value (true or false)" for k in kinds]
        test = f"{self.grouped(args[0])} is {_join(words, 'or')}"
        return test if cond else f"whether {test}"

    def holds_input(self, node: cst.BaseExpression) -> bool:
        """Surely an input of `f` here, a JSON value: a parameter never set again, or a read of one that comes
        before anything could set it (`first_reads`)."""
        return isinstance(node, cst.Name) and self.facts is not None and (
            node.value in self.inputs or node in self.input_reads)

    def json_value(self, node: cst.BaseExpression) -> bool:
        """Surely a JSON value here: an input (`holds_input`) or an item of one (`val[0]`, `d["k"][i]`)."""
        while isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
                and node.slice[0].slice.star is None:
            node = node.value
        return self.holds_input(node)

    def _builtin_hasattr_any(self, args: list, cond: bool) -> str | None:
        """`hasattr(x, "name")` on any value of code that defines no class and imports nothing (so every value is
        of a built-in kind or a function, which has no name without an underscore): the kinds that have it, found
        by asking Python."""
        attribute = args[1].evaluated_value
        if self.classes or self.modules or attribute.startswith("_"):  # a function has only names with _
            return None
        kinds = [kind for kind, sample in _BUILTIN_SAMPLES.items() if hasattr(sample, attribute)]
        if len(kinds) == len(_BUILTIN_SAMPLES):
            return "true (every value has it)"
        if not kinds:
            return "false (no value here ever has it)"
        words = [_TYPE_WORDS[k] if k != "bool" else "a truth value (true or false)" for k in kinds]
        test = f"{self.grouped(args[0])} is {_join(words, 'or')}"
        return test if cond else f"whether {test}"

    def _input_kinds(self, value: cst.BaseExpression, kinds: list[cst.Element], cond: bool) -> str:
        """`isinstance(x, (K, ...))` with a standard library's class among the kinds, x an input (a JSON value
        whenever read): the JSON kinds that are instances, found by asking Python (never an object of a class of
        the code); on any other value, or with a class Python cannot reach here, there are no exact words."""
        if not self.holds_input(value):
            raise Undescribable("isinstance against a type other than a built-in one")
        found = []
        for kind in (k.value for k in kinds):
            if isinstance(kind, cst.Name) and kind.value in self.classes:
                continue  # a JSON value is never an object of a class of the code
            if isinstance(kind, cst.Name) and kind.value in _TYPE_WORDS and kind.value not in self.imported:
                found.append(type(None) if kind.value == "NoneType" else getattr(builtins, kind.value))
            else:
                found.append(_stdlib_class(self.resolved(kind)))
        held = [kind for kind, sample in _JSON_SAMPLES.items() if isinstance(sample, tuple(found))]
        if not held:
            return f"false ({self.grouped(value)}, an input, is never of such a kind)"
        words = [_TYPE_WORDS[k] if k != "bool" else "a truth value (true or false)" for k in held]
        test = f"{self.grouped(value)} is {_join(words, 'or')}"
        return test if cond else f"whether {test}"

    def _builtin_enumerate(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "enumerate" and args:
            start = g(keywords.get("start", args[1] if len(args) > 1 else cst.Integer("0")))
            if " " in g(args[0]):  # numbered as that phrase gives its items, not by their places in what it is made of
                return f"the (position, item) pairs of {self.operand(args[0])}, positions counted from {start} in that order"
            return f"the (position, item) pairs of {g(args[0])}, positions counted from {start}"
        return None

    def _builtin_hex_oct_and_kin(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name in ("hex", "oct", "bin") and one is not None:
            base, prefix = {"hex": ("hexadecimal with small letters", "0x"), "oct": ("octal", "0o"),
                            "bin": ("binary", "0b")}[name]
            return f"{g(one)} written in {base} with {prefix} in front (a minus sign before that if negative)"
        return None

    def _builtin_map(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "map" and len(args) == 2 and not keywords:
            self.rule("lazy")
            return f"the results of {self.applied(args[0], 'each item')}, for each item of {g(args[1])} in order"
        if name == "map" and len(args) > 2 and not keywords:  # several collections side by side
            sources = [g(a) for a in args[1:]]
            items = [f"the item of {source}" for source in sources]
            self.rule("lazy")
            return (f"the results of {self.applied_to_several(args[0], items)}, for each position of "
                    f"{_join(sources)} in turn from the first, as long as every one of them has an item there")
        return None

    def applied_to_several(self, func: cst.BaseExpression, items: list[str]) -> str:
        """What a function passed as a value gives when called with several inputs, already in words."""
        if isinstance(func, cst.Lambda):
            params = func.params
            if len(params.params) == len(items) and not (params.kwonly_params or params.posonly_params or isinstance(
                    params.star_arg, cst.Param) or params.star_kwarg):
                names = [p.name.value for p in params.params]
                standing = _join([f"{n} standing for {item}" for n, item in zip(names, items)])
                return f"{self.grouped(func.body)} (with {standing})"
        if isinstance(func, cst.Name) and func.value in self.helpers:
            return f"what the helper {func.value} gives back for {_join(items)}"
        if self.library_function(func):
            return vocab.applied(self, self.resolved(func), items)
        if isinstance(func, cst.Name) and func.value in _METHOD_FREE and func.value not in self.imported:
            marks = [cst.Name(f"STANDIN{i}MARK") for i in range(len(items))]
            said = self.value(cst.Call(func, [cst.Arg(mark) for mark in marks]))
            for mark, item in zip(marks, items):
                said = said.replace(mark.value, item)
            return said
        raise Undescribable("a function passed as a value with several inputs that is not a helper, a lambda, a "
                            "built-in or a library function")

    def _builtin_filter(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "filter" and len(args) == 2 and not keywords:
            self.rule("lazy")
            self.rule("truth")
            if isinstance(args[0], cst.Name) and args[0].value == "None":
                return f"the results of keeping the items of {g(args[1])} that count as true, in order"
            return (f"the results of keeping the items of {g(args[1])}, in order, for which "
                    f"{self.applied(args[0], 'the item')} counts as true")
        return None

    def _builtin_repr(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        if name == "repr" and one is not None and self.shown(one):
            return self.shown(one)
        return None

    def _builtin_iter(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "iter" and one is not None:
            return f"a reader of the items of {g(one)}, in order, that gives each of them once"
        return None

    def _builtin_next(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "next" and len(args) in (1, 2) and not keywords:
            taken = f"the next item the reader {g(args[0])} gives (it moves on past it)"
            if len(args) == 2:
                return f"{taken}, or {g(args[1])} if it has none left"
            return f"{taken}; the steps stop with an error if it has none left"
        return None

    def _builtin_callable(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        if name == "callable" and one is not None:
            return f"whether {g(one)} is a function or a class (something that can be called)"
        return None

    def _builtin_zip(self, name: str, args: list, keywords: dict, one, cond: bool) -> str | None:
        g = self.grouped
        end = self.zip_end(keywords)
        if name == "zip" and args and end is not None:
            return f"the tuples of items at the same position in {_join([g(a) for a in args])} ({end})"
        return None

    def _zip_spread(self, call: cst.Call) -> str:
        """`zip(*rows)`: the items of rows side by side (columns of a table); with no rows, no tuples at all."""
        rows, rest = call.args[0].value, call.args[1:]
        if any(a.star or a.keyword is None for a in rest):
            raise Undescribable("a call with * or ** unpacking")
        end = self.zip_end({a.keyword.value: a.value for a in rest})
        if end is None:
            raise Undescribable("this use of the built-in zip")
        rows = self.grouped(rows)  # said once: said twice, a call in it would read as made twice
        return (f"the results of taking item k of each item of {rows}, in their order, as a tuple, for each position "
                f"k from 0 on ({end}; none at all if there are no items){self.cite('lazy')}")

    @staticmethod
    def zip_end(keywords: dict) -> str | None:
        """How `zip` ends, by its `strict` flag (written out, or left out: false), or None for a flag the
        code computes."""
        if set(keywords) - {"strict"}:
            return None
        strict = constant_truth(keywords["strict"]) if "strict" in keywords else False
        if strict is None:
            return None
        if strict:  # the items up to the shortest's end are given first, then it fails
            return ("stopping at the end of the shortest; if the others have items left then, the steps stop "
                    "with an error there")
        return "stopping at the end of the shortest"


    def _byte_values(self, values: cst.BaseExpression) -> str:
        """`bytes((c,))`, `bytes([a, b])`, `bytes(xs)`: the bytes whose values are those whole numbers."""
        self.rule("bytes")
        if not isinstance(values, (cst.Tuple, cst.List)):
            return (f"the bytes whose values are the items of {self.grouped(values)}, in order (each must be from 0 "
                    f"to 255)")
        if any(not isinstance(e, cst.Element) for e in values.elements):
            raise Undescribable("unpacking with * inside the values of bytes")
        items = [self.grouped(e.value) for e in values.elements]
        if len(items) == 1:
            return f"the bytes holding just the one value {items[0]} (it must be from 0 to 255)"
        return f"the bytes whose values are {_join(items)}, in that order (each must be from 0 to 255)" if items else \
            'the bytes "" (empty)'

    def shown(self, node: cst.BaseExpression) -> str | None:
        """`repr(node)` in words where they are exact: a whole number as written, a text in quotes, any other
        plain value (`plain`) as Python displays it; None where they would not be."""
        kind = self.certain_kind(node)
        if kind == "int":
            return f"{self.grouped(node)} written as text"
        if kind == "str":
            return f"{self.grouped(node)} in quotes as Python shows a text{self.cite('repr')}"
        if self.plain is None or not self.plain.value(node):
            return None
        return f"{self.grouped(node)} as Python displays it{self.cite('shown')}{self.cite('repr')}{self.cite('str')}"

    _APPLIED = {"str": "{i} written as text", "int": "{i} turned into a whole number", "float": "{i} as a decimal number",
                "len": "the length of {i}", "abs": "the absolute value of {i}", "ord": "the Unicode code point of {i}",
                "chr": "the character with Unicode code point {i}", "bool": "whether {i} counts as true",
                "list": "a new list of the items of {i}", "tuple": "a tuple of the items of {i}",
                "set": "a new set of the distinct items of {i}",
                "sorted": "a new list of the items of {i}, sorted from smallest to largest"}
    _APPLIED_RULES = {"str": "str", "int": "int", "bool": "truth", "sorted": "sorted"}

    def library_function(self, func: cst.BaseExpression) -> bool:
        """Is `func` a library function with words in vocab/ (`math.floor`, or `floor` imported from math)?"""
        return not (isinstance(func, cst.Name) and func.value not in self.imported) and \
            isinstance(func, (cst.Name, cst.Attribute)) and vocab.TABLE.get(self.resolved(func)) is not None

    def applied(self, func: cst.BaseExpression, item: str) -> str:
        """What a function passed as a value (to map, filter, a sort key) gives for `item`."""
        if isinstance(func, cst.Name):
            if func.value in self.helpers:
                return f"what the helper {func.value} gives back for {item}"
            if func.value in self._APPLIED:
                if func.value in self._APPLIED_RULES:
                    self.rule(self._APPLIED_RULES[func.value])
                return self._APPLIED[func.value].format(i=item)
            if func.value in self.bound:
                return self.applied(self.bound[func.value], item)
        if self.library_function(func):  # `map(math.sqrt, xs)`: its words live in vocab/
            return vocab.applied(self, self.resolved(func), [item])
        if isinstance(func, cst.Attribute) and func.attr.value in _OPERATOR_METHODS and \
                self.sort_of(func.value) in ("str", "list", "tuple", "set", "dict"):
            return self._operator_applied(func, item)
        if isinstance(func, cst.Attribute):
            owner, name = func.value, func.attr.value
            if isinstance(owner, cst.Name) and owner.value in METHOD_TYPES:
                found = methods.method_words(name, item, [])
                if found:
                    for rule in found[1]:
                        self.rule(rule)
                    return found[0]
            elif not (isinstance(owner, cst.Name) and (owner.value in ("re", "math", "os", "string", "heapq") or self.facts
                                                        is not None and owner.value in self.modules | set(self.imported))):
                # a function of a library without words is no method of a value
                if name == "join":
                    self.rule("str")
                    return f"the items of {item} joined into one text with {self.grouped(owner)} between each two"
                found = methods.method_words(name, self.operand(owner), [item])
                if found:
                    for rule in found[1]:
                        self.rule(rule)
                    return found[0]
        if isinstance(func, cst.Lambda):
            params = func.params
            if len(params.params) == 1 and not params.kwonly_params and not params.posonly_params and \
                    not isinstance(params.star_arg, cst.Param) and params.star_kwarg is None:
                return f"{self.grouped(func.body)} (with {params.params[0].name.value} standing for {item})"
        if isinstance(func, cst.Name) and func.value not in _BUILTINS and func.value not in self.imported \
                and func.value not in self.classes:  # a name the steps set to a function, as a call says it
            return f"what the function held in {func.value} gives back for {item}"
        raise Undescribable("a function passed as a value that is not a helper, a lambda, a built-in or a method")

    def _operator_applied(self, func: cst.Attribute, item: str) -> str:
        """`filter(seen.__contains__, xs)`: a built-in container's method behind an operator, passed as a
        value, gives for an item what the operator gives (`item in seen`), said as the operator is."""
        mark = cst.Name("STANDIN0MARK")
        text = self.grouped(_OPERATOR_METHODS[func.attr.value](func.value, mark))
        if text.count(mark.value) != 1:
            raise Undescribable(f"the method {func.attr.value} passed as a value")
        bracketed = func.attr.value == "__getitem__" and " " in item  # "item (each item) of xs"
        return text.replace(mark.value, f"({item})" if bracketed else item)

    def _items(self, node: cst.BaseExpression) -> str:
        if isinstance(node, cst.GeneratorExp):
            return self._comprehension(node)
        text = self.grouped(node)
        return text if text.startswith(("the whole numbers", "the items of", "the values")) else f"the items of {text}"

    def key_words(self, key: cst.BaseExpression, source: cst.BaseExpression) -> tuple[str, str]:
        """What a sort or min/max key computes for one item: (phrase, how the phrase names the item)."""
        if isinstance(key, cst.Lambda):
            params = key.params
            if len(params.params) != 1 or params.kwonly_params or params.posonly_params or isinstance(
                    params.star_arg, cst.Param) or params.star_kwarg is not None:
                raise Undescribable("a key function with other than one parameter")
            name = params.params[0].name.value
            if isinstance(key.body, cst.Tuple):
                self.rule("order")
            return self.grouped(key.body), f" (with {name} standing for the item)"
        if isinstance(key, cst.Name):
            if key.value in self.helpers:
                return f"what the helper {key.value} gives back for the item", ""
            if key.value in ("len", "abs"):
                return {"len": "the length of the item", "abs": "the absolute value of the item"}[key.value], ""
        if isinstance(key, cst.Attribute) and key.attr.value == "get" and _same(key.value, source):
            return f"the value stored under the item in {self.grouped(source)}", ""
        said = self.applied(key, "the item")
        if said.startswith("what the function held in "):  # a key held in a name may be None: no key at all
            said += f" (the item itself when {key.value} holds None)"
        return said, ""

    def _numbers_only(self, args, keywords) -> bool:
        """Are the values min or max compares surely numbers (so "smaller" needs no rule for texts)?"""
        key = keywords.get("key")
        if key is not None:
            return isinstance(key, cst.Name) and key.value in ("len", "abs") and key.value not in self.helpers
        if len(args) >= 2:
            return not all(self._maybe_text_or_sequence(a) and self.sort_of(a) not in ("int", "float", "number", "bool")
                           for a in args)
        source = args[0]
        if self.kind(source) in ("list[int]", "list[float]", "list[bool]"):
            return True
        if isinstance(source, cst.GeneratorExp):
            return not self._maybe_text_or_sequence(source.elt)
        return isinstance(source, cst.Call) and isinstance(source.func, cst.Name) and source.func.value == "range"

    def _extreme(self, name: str, args, keywords) -> str:
        small = name == "min"
        if args and not self._numbers_only(args, keywords):
            self.rule("order")  # texts, lists and tuples are smaller or larger by the order rule
        if len(args) >= 2 and not keywords:
            if len(args) == 2:
                return f"the {'smaller' if small else 'larger'} of {self.grouped(args[0])} and {self.grouped(args[1])}"
            return f"the {'smallest' if small else 'largest'} of {_join([self.grouped(a) for a in args])}"
        if len(args) >= 2 and set(keywords) == {"key"}:  # max(a, b, key=len): the key of each given value
            phrase, where = self.key_words(keywords["key"], cst.Tuple([cst.Element(a) for a in args]))
            extreme = "smallest" if small else "largest"
            return (f"the first of {_join([self.grouped(a) for a in args])} for which {phrase} is {extreme}{where}"
                    f"{self.cite('minmax')}")
        if len(args) != 1 or set(keywords) - {"key", "default"}:
            raise Undescribable(f"this use of {name}")
        source = args[0]
        what = self._items(source)
        default = keywords.get("default")
        tail = f", or {self.grouped(default)} if there are none" if default is not None else ""
        extreme = "smallest" if small else "largest"
        if "key" in keywords:
            phrase, where = self.key_words(keywords["key"], source)
            return f"the first of {what} for which {phrase} is {extreme}{where}{tail}{self.cite('minmax')}"
        return f"the {extreme} of {what}{tail}{self.cite('minmax')}"

    def _extreme_spread(self, name: str, call: cst.Call) -> str:
        """`max(*xs)`, `min(a, *xs)`: the values given, each item of xs in its place, compared as `max(a, b, ...)`
        compares; with only one value given in all, Python compares that value's own items instead, and with
        none it fails, so those cases are said too."""
        small = name == "min"
        fixed = [a.value for a in call.args if not a.star]
        spread_node = next(a.value for a in call.args if a.star)
        if not (all(self.sort_of(v) in ("int", "float", "number") for v in fixed)
                and self.kind(spread_node) in ("list[int]", "list[float]")):
            self.rule("order")  # texts, lists and tuples are smaller or larger by the order rule
        parts = [f"the items of {self.grouped(a.value)}" if a.star else self.grouped(a.value) for a in call.args]
        spread = self.grouped(spread_node)
        extreme = "smallest" if small else "largest"
        if len(fixed) >= 2:
            return f"the {extreme} of {_join(parts)}{self.cite('minmax')}"
        if fixed:
            alone = (f" (when {spread} is empty, the {extreme} of the items of {self.grouped(fixed[0])} instead, "
                     f"which must then be a text or collection with at least one item)")
        else:
            alone = (f" (when {spread} holds exactly one item, the {extreme} of that item's own items instead, that "
                     f"item being a text or collection with at least one; when it holds none, the steps stop with an "
                     f"error)")
        return f"the {extreme} of {_join(parts)}{alone}{self.cite('minmax')}"

    def _sorted(self, args, keywords) -> str:
        if len(args) != 1 or set(keywords) - {"key", "reverse"}:
            raise Undescribable("this use of sorted")
        return "a new list of " + self.ordering(args[0], keywords)

    def ordering(self, source, keywords) -> str:
        """`X, sorted from smallest to largest by KEY`, with the stable-sort rule."""
        reverse = keywords.get("reverse")
        if reverse is not None and constant_truth(reverse) is None:
            raise Undescribable("sorting with a computed reverse flag")
        down = bool(reverse is not None and constant_truth(reverse))
        direction = "from largest to smallest" if down else "from smallest to largest"
        if keywords.get("key") is not None or self.kind(source) not in ("list[int]", "list[float]"):
            self.rule("order")
        by = ""
        key = keywords.get("key")
        if isinstance(key, cst.Call) and self.resolved(key.func) == "functools.cmp_to_key" and len(key.args) == 1 \
                and not key.args[0].keyword and not key.args[0].star:  # a comparison of two items, not a key
            compared = self.applied_to_several(key.args[0].value, ["the one", "the other"])
            return (f"{self._items(source)}, sorted so that one item comes {'after' if down else 'before'} another "
                    f"when {compared} is below 0 (items it finds equal, at 0, keep their order)")
        if key is not None and not (isinstance(key, cst.Name) and key.value == "None"):
            phrase, where = self.key_words(key, source)
            by = f" by {phrase}{where}"
        return f"{self._items(source)}, sorted {direction}{by}{self.cite('sorted')}"

    def counting(self, args) -> str:
        """The numbers of range(...) in words."""
        g = self.grouped
        if len(args) == 1:
            caveat = "" if (_int_value(args[0]) or 0) > 0 else " (none if that is 0 or less)"
            return f"from 0 up to but not including {g(args[0])}{caveat}"
        if len(args) == 2:
            return f"from {g(args[0])} up to but not including {g(args[1])} (none if that is not above the start)"
        if len(args) == 3:
            step = args[2]
            literal = _int_value(step)
            if literal is not None and literal > 0:
                return f"from {g(args[0])} going up by {literal} while below {g(args[1])}"
            if literal is not None and literal < 0:
                return f"from {g(args[0])} going down by {-literal} while above {g(args[1])}"
            if literal is None:
                step = g(step)
                return (f"from {g(args[0])}, adding {step} each time, as long as the number is below {g(args[1])} "
                        f"if {step} is positive or above {g(args[1])} if {step} is negative (the steps stop with an "
                        f"error if {step} is 0)")
        raise Undescribable("a counting range with a step of 0")

    # ---- methods ----------------------------------------------------------------------------
    def method(self, owner_node: cst.BaseExpression, name: str, call: cst.Call) -> str:
        """A method call used for its value."""
        if isinstance(owner_node, cst.Name) and owner_node.value in _SET_KINDS and owner_node.value not in (
                self.imported) and owner_node.value not in self.classes and call.args:
            return self._set_kind_method(owner_node.value, name, call)
        if name in _SPREAD_SET_METHODS and len(call.args) == 1 and call.args[0].star == "*":
            # `s.union(*xs)`: each item of xs is one more input
            return _SPREAD_SET_METHODS[name].format(o=self.grouped(owner_node), xs=self.grouped(call.args[0].value))
        if name == "format" and len(call.args) == 1 and call.args[0].star == "*" \
                and self.sort_of(call.args[0].value) in ("list", "tuple"):
            # `t.format(*xs)`: field n reads item n of xs (too few items stop the steps, as a position past the end
            # does; more are left unread)
            spread = call.args[0].value
            return formats.format_call(self, owner_node, [cst.Subscript(spread, [cst.SubscriptElement(cst.Index(
                cst.Integer(str(i))))]) for i in range(_SPREAD_FIELDS)], {})
        args, keywords = self.arguments(call)
        if isinstance(owner_node, cst.Name) and owner_node.value in self.patterns or name in _PATTERN_ONLY or \
                regex.keyed(self, owner_node) is not None and name in regex.KEYED_METHODS:
            return regex.pattern_method(self, owner_node, name, args, keywords)
        if name in _MATCH_METHODS and not keywords:
            return regex.match_method(self, owner_node, name, args)
        if name == "format":
            return formats.format_call(self, owner_node, args, keywords)
        if keywords:
            if name == "sort":
                raise Undescribable("the method sort used as a value")
            if name in _PLACES and set(keywords) <= {place for place, _ in _PLACES[name][len(args):]}:
                args = _placed(name, args, keywords)
            else:
                raise Undescribable(f"the method {name} with keyword arguments")
        return self.method_value(self.operand(owner_node), name, args, owner_node)

    def method_value(self, owner: str, name: str, args: list[cst.BaseExpression],
                     owner_node: cst.BaseExpression | None = None) -> str:
        """`owner.name(args)` in words, the owner already a phrase (a value, or "the item" when the
        method is passed as a function)."""
        g = self.grouped
        count = len(args)
        if name == "join" and count == 1:
            self.rule("str")
            joined = self._items(args[0])
            joined = f"({joined})" if loose(joined) else joined
            if isinstance(owner_node, cst.SimpleString) and owner_node.evaluated_value == "":
                return f"{joined} joined into one text with nothing between them (each must be text)"
            return f"{joined} joined into one text with {owner} between each two (each must be text)"
        if name in ("split", "rsplit") and count == 2 and isinstance(args[0], cst.Name) and args[0].value == "None":
            return methods.WHITESPACE_SPLITS[name].format(o=owner, n=g(args[1]))
        if name == "splitlines" and count == 1 and constant_truth(args[0]) is not None:
            self.rule("lines")
            kept = "each keeping its line break" if constant_truth(args[0]) else "line breaks removed"
            return f"the list of lines of {owner} ({kept}; no piece after a final line break, none at all for empty text)"
        if name == "pop" and count == 1:
            if isinstance(args[0], (cst.SimpleString, cst.ConcatenatedString)):
                return f"the value under the key {g(args[0])} in {owner}, removed from it"
            self.rule("index")
            return (f"the item of {owner} at position {g(args[0])}, removed from it (later items move up; for a "
                    f"dictionary, the value under that key, removed with its key)")
        if name == "pop" and count == 2:
            return f"the value under the key {g(args[0])} in {owner}, removed from it, or {g(args[1])} if there is none"
        if name == "translate" and count == 1:
            return self._translated(owner, args[0], owner_node)
        if name == "maketrans" and isinstance(owner_node, cst.Name) and owner_node.value == "str":
            mapping = _character_table(cst.Call(cst.Attribute(owner_node, cst.Name(name)), [cst.Arg(a) for a in args]))
            if mapping is None:
                raise Undescribable("a character table not written in the code")
            return f"the character table for changing text that makes {_changes(mapping) or 'no change at all'}"
        order = _text_of(args[1]) if name in ("to_bytes", "from_bytes") and count == 2 else None
        if order in ("big", "little"):  # the byte order written in the code: said, not asked
            text, rules = methods.method_words(name, owner, [g(args[0])])
            for rule in rules:
                self.rule(rule)
            return text if order == "big" else text.replace("the most significant first", "the least significant first")
        found = methods.method_words(name, owner, [g(a) for a in args])
        if found is None:
            raise Undescribable(f"the method {name} with {count} argument{'s' if count != 1 else ''}")
        text, rules = found
        for rule in rules:
            self.rule(rule)
        return text


    def _translated(self, owner: str, table: cst.BaseExpression, owner_node: cst.BaseExpression | None) -> str:
        """`text.translate(str.maketrans(...))` with the table's texts written in the code (or a module constant
        made so), or a dictionary written in the code from code points: the characters it changes, each said;
        any other table by the rule `translate` follows, looking each character's code point up in it. (Bytes
        translate by another rule, not said.)"""
        if owner_node is not None and self.sort_of(owner_node) not in (None, "str"):
            raise Undescribable("the method translate of a value that may not be text")
        written = self.constants[table.value] if isinstance(table, cst.Name) and table.value in self.constants else table
        mapping = _character_table(written)
        if mapping is None and isinstance(written, cst.Dict):
            mapping = _code_point_table(written)
        if mapping is None:
            if isinstance(written, (cst.Dict, cst.SimpleString, cst.ConcatenatedString, cst.List, cst.Tuple)) \
                    or _is_maketrans(written) or self.facts is not None and ("collections" in self.modules or any(
                        name.partition(".")[0] == "collections" for name in self.imported.values())):
                # (a dictionary that makes a value for a missing key, `defaultdict`, holds every code point)
                raise Undescribable("the method translate (a character table)")
            looked = self.grouped(table)
            return (f"{owner} with each character changed by looking its Unicode code point up in {looked}, all at "
                    f"once: where {looked} holds a value under that code point (as a key of a dictionary, or as a "
                    f"position of a list or text), a text value takes the character's place, a whole number puts the "
                    f"character with that code point in its place, and None removes the character (any other value "
                    f"stops the steps with an error); a character whose code point {looked} does not hold is kept as "
                    f"it is")
        if not mapping:
            return f"{owner} itself"
        return (f"{owner} with {_changes(mapping)}, all at once (each character of {owner} is looked at once, and "
                f"what it is replaced by is never changed again; every other character kept as it is)")


def _changes(mapping: dict[str, str | None]) -> str:
    return _join([f"every {quote(old)} replaced by {quote(new)}" if new is not None else f"every {quote(old)} removed"
                  for old, new in mapping.items()])


def _character_table(node: cst.BaseExpression) -> dict[str, str | None] | None:
    """What `str.maketrans(...)` written with texts (or a dictionary of one-character keys) maps each changed
    character to (None: removed), in order of first mention; None for any other table."""
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name)
            and node.func.value.value == "str" and node.func.attr.value == "maketrans"
            and not any(a.keyword or a.star for a in node.args)):
        return None
    values = [a.value for a in node.args]
    if len(values) == 1 and isinstance(values[0], cst.Dict):
        pairs = {}
        for element in values[0].elements:
            if not isinstance(element, cst.DictElement):
                return None
            key, value = _text_of(element.key), element.value
            said = None if isinstance(value, cst.Name) and value.value == "None" else _text_of(value)
            if key is None or len(key) != 1 or said is None and not isinstance(value, cst.Name):
                return None
            pairs[key] = said
        return pairs
    texts = [_text_of(v) for v in values]
    if len(texts) not in (2, 3) or None in texts or len(texts[0]) != len(texts[1]):
        return None
    mapping = dict(zip(texts[0], texts[1]))
    mapping.update({character: None for character in (texts[2] if len(texts) == 3 else "")})
    return {old: new for old, new in mapping.items() if new != old}


def _is_maketrans(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "maketrans"


def _code_point_table(node: cst.Dict) -> dict[str, str | None] | None:
    """What a dictionary written in the code for `translate` (keys code points written as numbers or as
    `ord` of a one-character text; values texts, None or code points) maps each changed character to, in
    order (a key written twice keeps its last value); None for any other dictionary."""
    pairs: dict[str, str | None] = {}
    for element in node.elements:
        if not isinstance(element, cst.DictElement):
            return None
        key, value = _code_point(element.key), element.value
        if key is None:
            return None
        if isinstance(value, cst.Name) and value.value == "None":
            pairs[key] = None
        elif _text_of(value) is not None or _code_point(value) is not None:
            pairs[key] = _text_of(value) if _text_of(value) is not None else _code_point(value)
        else:
            return None
    return {old: new for old, new in pairs.items() if new != old}


def _code_point(node: cst.BaseExpression) -> str | None:
    """The character a code point written in the code stands for: a whole number (0x41) or `ord("A")`."""
    if isinstance(node, cst.Integer) and 0 <= int(node.value.replace("_", ""), 0) <= sys.maxunicode:
        return chr(int(node.value.replace("_", ""), 0))
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "ord" \
            and len(node.args) == 1 and not node.args[0].keyword and not node.args[0].star:
        text = _text_of(node.args[0].value)
        return text if text is not None and len(text) == 1 else None
    return None


def _text_of(node: cst.BaseExpression) -> str | None:
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)) and isinstance(node.evaluated_value, str):
        return node.evaluated_value
    return None


_SPREAD_FIELDS = 100  # how many positional fields a format filled from a list's items may read

# a core method's parameters that may be given by name, in order, each with the value it takes when left out
_PLACES = {"splitlines": (("keepends", "False"),),
           "split": (("sep", "None"), ("maxsplit", "-1")), "rsplit": (("sep", "None"), ("maxsplit", "-1")),
           "encode": (("encoding", '"utf-8"'), ("errors", '"strict"')),
           "decode": (("encoding", '"utf-8"'), ("errors", '"strict"')),
           "expandtabs": (("tabsize", "8"),), "to_bytes": (("length", "1"), ("byteorder", '"big"')),
           "from_bytes": (("bytes", ""), ("byteorder", '"big"'))}


# a built-in's parameters that may be given by name, in order (`int(s, base=2)` is `int(s, 2)`)
_BUILTIN_PLACES = {"int": ("", "base"), "round": ("number", "ndigits"), "sum": ("", "start"),
                   "pow": ("base", "exp", "mod")}


def _placed(name: str, args: list, keywords: dict) -> list:
    """The arguments of `name` by position, those given by name put in their places (a place left out before
    one given takes the value it has when left out), up to the last one given."""
    places = _PLACES[name]
    placed = list(args) + [keywords.get(place) for place, _ in places[len(args):]]
    while placed and placed[-1] is None:
        placed.pop()
    if any(value is None and not places[i][1] for i, value in enumerate(placed)):
        raise Undescribable(f"the method {name} with a required input left out")
    return [cst.parse_expression(places[i][1]) if value is None else value for i, value in enumerate(placed)]


# built-in name -> the forms that may say a call of it, tried in order (each gives None when it does not fit)
# what a call of a bare name is, tried in turn (`Speaker.call_kind`); none fits: a function held in the name
_NAMED_CALLS = (
    ("generator", lambda say, name, call: name in say.generators),
    ("helper", lambda say, name, call: name in say.helpers),
    ("bound", lambda say, name, call: name in say.bound),
    ("record", lambda say, name, call: name in say.records and _record_order(say.records[name], call) is not None),
    ("dataclass", lambda say, name, call: name in say.dataclasses),
    ("text class", lambda say, name, call: name in say.texts),
    ("class", lambda say, name, call: name in say.classes),
    ("builtin", lambda say, name, call: name in _METHOD_FREE),
    ("imported", lambda say, name, call: name in say.imported),
    ("builtin", lambda say, name, call: name in _BUILTINS),
)

# what a call of `owner.name(...)` is, tried in turn; none fits: a method of a value
_METHOD_CALLS = (
    ("unknown library", lambda say, func, call: (dotted_name(func) or ".").rpartition(".")[0] in vocab.LIBRARIES),
    ("pattern", lambda say, func, call: regex.compiled(say, func.value)),
    ("own method", lambda say, func, call: func.attr.value in say.methods),
    ("own comparison", lambda say, func, call: func.attr.value in _OWN_COMPARISONS and isinstance(func.value, cst.Call)),
    ("next", lambda say, func, call: func.attr.value == "__next__" and not call.args),
)

# one handler per kind of call
_CALLS = {
    "library": Speaker._call_library, "library object": Speaker._call_library_object,
    "generator": Speaker._call_generator, "helper": Speaker._call_helper, "bound": Speaker._call_bound,
    "dataclass": Speaker._call_dataclass,
    "record": Speaker._call_record, "class": Speaker._call_class, "text class": Speaker._call_text_class, "builtin": Speaker._call_builtin,
    "imported": Speaker._call_imported, "held function": Speaker._call_held,
    "unknown library": Speaker._call_unknown_library, "pattern": Speaker._call_pattern,
    "own method": Speaker._call_own_method, "own comparison": Speaker._call_own_comparison_method,
    "next": Speaker._call_next, "method": Speaker._call_method,
    "own kind": Speaker._call_own_kind, "computed": Speaker._call_computed,
}


_BUILTIN_FORMS = {
    "len": (Speaker._builtin_len,),
    "abs": (Speaker._builtin_abs,),
    "int": (Speaker._builtin_empty, Speaker._builtin_int,),
    "float": (Speaker._builtin_empty, Speaker._builtin_float,),
    "str": (Speaker._builtin_empty, Speaker._builtin_str, Speaker._builtin_str_bytes),
    "bytes": (Speaker._builtin_bytes, Speaker._builtin_str_bytes),
    "bytearray": (Speaker._builtin_bytearray,),
    "bool": (Speaker._builtin_empty, Speaker._builtin_bool,),
    "ord": (Speaker._builtin_ord,),
    "chr": (Speaker._builtin_chr,),
    "list": (Speaker._builtin_list_tuple_and_kin,),
    "tuple": (Speaker._builtin_list_tuple_and_kin,),
    "set": (Speaker._builtin_list_tuple_and_kin,),
    "frozenset": (Speaker._builtin_list_tuple_and_kin,),
    "deque": (Speaker._builtin_list_tuple_and_kin,),
    "object": (Speaker._builtin_object,),
    "Counter": (Speaker._builtin_Counter,),
    "dict": (Speaker._builtin_dict,),
    "reversed": (Speaker._builtin_reversed,),
    "range": (Speaker._builtin_range,),
    "min": (Speaker._builtin_min_max,),
    "max": (Speaker._builtin_min_max,),
    "sorted": (Speaker._builtin_sorted,),
    "sum": (Speaker._builtin_sum,),
    "any": (Speaker._builtin_any_all,),
    "all": (Speaker._builtin_any_all,),
    "round": (Speaker._builtin_round,),
    "divmod": (Speaker._builtin_divmod,),
    "pow": (Speaker._builtin_pow,),
    "isinstance": (Speaker._builtin_isinstance,),
    "enumerate": (Speaker._builtin_enumerate,),
    "hasattr": (Speaker._builtin_hasattr,),
    "format": (Speaker._builtin_format,),
    "getattr": (Speaker._builtin_getattr,),
    "hex": (Speaker._builtin_hex_oct_and_kin,),
    "oct": (Speaker._builtin_hex_oct_and_kin,),
    "bin": (Speaker._builtin_hex_oct_and_kin,),
    "map": (Speaker._builtin_map,),
    "filter": (Speaker._builtin_filter,),
    "repr": (Speaker._builtin_repr,),
    "iter": (Speaker._builtin_iter,),
    "next": (Speaker._builtin_next,),
    "callable": (Speaker._builtin_callable,),
    "zip": (Speaker._builtin_zip,),
}

# a built-in container's method that an operator calls -> the operator written on (owner, item): on a
# str, list, tuple, set or dict each gives exactly what the operator gives
_OPERATOR_METHODS = {
    "__contains__": lambda owner, item: cst.Comparison(item, [cst.ComparisonTarget(cst.In(), owner)]),
    "__getitem__": lambda owner, item: cst.Subscript(owner, [cst.SubscriptElement(cst.Index(item))]),
}


def _record_order(names: tuple[str, ...], call: cst.Call, defaults: dict | None = None) -> list[cst.BaseExpression] | None:
    """A record's making `P(1, y=2)`: its values in the order of its items, each given once (by place or by
    name) or else its default (`defaults`: name -> value or None), or None."""
    if any(a.star for a in call.args):
        return None
    placed = [a.value for a in call.args if a.keyword is None]
    named = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if len(placed) > len(names) or len(named) != sum(a.keyword is not None for a in call.args) \
            or not set(named) <= set(names[len(placed):]):
        return None
    rest = [named.get(name, (defaults or {}).get(name)) for name in names[len(placed):]]
    return None if None in rest else placed + rest


def _in_order(values: list[cst.BaseExpression], call: cst.Call) -> bool:
    """Are the values a call gives, said in the order of the fields they fill, in the order written (so
    worked out in the order said)? Defaults, fixed values, are not worked out."""
    given = [a.value for a in call.args]
    return [v for v in values if any(v is g for g in given)] == given


def _simple(node: cst.BaseExpression) -> bool:
    """A value whose working out changes nothing: a literal, a name or a field of one (`p.y`), so values
    worked out in another order than said give the same."""
    if isinstance(node, cst.Attribute):
        return _simple(node.value)
    return isinstance(node, (cst.Name, cst.Integer, cst.Float, cst.SimpleString))


def _stdlib_class(dotted: str | None) -> type:
    """The class a dotted name reaches in a standard-library module (`decimal.Decimal`), imported to ask it."""
    module, _, name = (dotted or "").rpartition(".")
    if module.split(".")[0] not in sys.stdlib_module_names:
        raise Undescribable("isinstance against a type other than a built-in one")
    try:
        found = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as error:
        raise Undescribable("isinstance against a type other than a built-in one") from error
    if not isinstance(found, type):
        raise Undescribable("isinstance against a type other than a built-in one")
    return found


def float_words(written: str) -> str:
    """A decimal constant as written, with the digits a reader expects around the point."""
    written = written.replace("_", "").lower()
    if written.endswith("j"):
        raise Undescribable("an imaginary number")
    mantissa, _, exponent = written.partition("e")
    if mantissa.startswith("."):
        mantissa = "0" + mantissa
    if mantissa.endswith("."):
        mantissa += "0"
    return mantissa + (f"e{exponent}" if exponent else "")


def _bracketed(text: str) -> bool:
    """Is the whole text one bracketed group, such as "(a plus b)" (not "(a) plus (b)")?"""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for index, char in enumerate(text):
        depth += char == "("
        depth -= char == ")"
        if depth == 0 and index < len(text) - 1:
            return False
    return True


_BITWISE = (cst.BitAnd, cst.BitOr, cst.BitXor, cst.LeftShift, cst.RightShift)


def loose(text: str, clauses: str = r", | and | or | if |, otherwise ") -> bool:
    """Does a phrase hold a list or clause of its own (a comma, "and", "or", "if" outside brackets and
    quotes; or any of `clauses`)? Then it must be bracketed wherever it is a part of something larger."""
    depth, quoted, plain = 0, False, []
    for index, char in enumerate(text):
        if char == '"' and (index == 0 or text[index - 1] != "\\"):
            quoted = not quoted
        elif not quoted and char in "([":
            depth += 1
        elif not quoted and char in ")]":
            depth -= 1
        plain.append(char if depth == 0 and not quoted else "_")
    flat = "".join(plain)
    return bool(re.search(clauses, flat))


_BOOLEAN_METHODS = {"isdigit", "isalpha", "isalnum", "isspace", "isascii", "isupper", "islower", "startswith",
                    "endswith", "isdecimal", "isnumeric"}


def is_boolean(node: cst.BaseExpression) -> bool:
    """Is this expression surely true or false (a comparison, a test), so it reads as a condition?"""
    if isinstance(node, cst.Comparison):
        return True
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        return True
    if isinstance(node, cst.BooleanOperation):
        return is_boolean(node.left) and is_boolean(node.right)
    if isinstance(node, cst.Name):
        return node.value in ("True", "False")
    if isinstance(node, cst.Call):
        if isinstance(node.func, cst.Name):
            return node.func.value in ("isinstance", "any", "all", "bool")
        if isinstance(node.func, cst.Attribute):
            return node.func.attr.value in _BOOLEAN_METHODS
    return False


_COUNT_WORDS = dict(enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
                              "fifteen sixteen seventeen eighteen nineteen twenty".split()))


def one_index(node: cst.Subscript) -> cst.Subscript:
    """`d[i, j]` as the same `d[(i, j)]` (the indices are one tuple, the key of a dictionary keyed by pairs);
    any other subscript as it is (a slice among several indices stays several)."""
    if len(node.slice) < 2 or not all(isinstance(e.slice, cst.Index) and e.slice.star is None for e in node.slice):
        return node
    key = cst.Tuple([cst.Element(e.slice.value) for e in node.slice])
    return node.with_changes(slice=[cst.SubscriptElement(cst.Index(key))])


def _type_of(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """x in `type(x)`, else None."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "type" \
            and len(node.args) == 1 and not node.args[0].keyword and not node.args[0].star:
        return node.args[0].value
    return None


def _ordinal(number: int) -> str:
    return {2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(number, f"{number}th")




def _same(a: cst.CSTNode, b: cst.CSTNode) -> bool:
    return a.deep_equals(b)






# an order comparison of sets asks whether one holds the other
_SUBSETS = {cst.LessThan: "a proper subset of {b} (every item of {a} is in {b}, and {b} has more items)",
            cst.LessThanEqual: "a subset of {b} (every item of {a} is in {b})",
            cst.GreaterThan: "a proper superset of {b} (every item of {b} is in {a}, and {a} has more items)",
            cst.GreaterThanEqual: "a superset of {b} (every item of {b} is in {a})"}

# what "of exactly the same kind" asks, for `type(a) is type(b)`
_SAME_KIND = ("a whole number, a decimal number, true or false, text, bytes, None, a list, a tuple, a dictionary, a set "
              "and a fixed set are each a kind of its own, and an object of a class of the code is of the kind of its "
              "class, not of a kind it is built on")

# what `type(x) is int` leaves out that `isinstance` takes in
_EXACT_NOTES = {"int": "of that very kind: true and false do not count, nor a kind built on it"}


def _exact_type(left: cst.BaseExpression, right: cst.BaseExpression) -> tuple[cst.BaseExpression, str] | None:
    """`type(x) is list` or `type(x) == type("")` (either way round): (x, "list") when one side asks for a
    value's kind and the other names a built-in kind of value (`_named_kind`), else None."""
    for asked, named in ((left, right), (right, left)):
        if _type_of(asked) is not None and _named_kind(named) is not None:
            return _type_of(asked), _named_kind(named)
    return None


# a literal's node -> the built-in kind of the value it writes (a text literal: text or bytes, by its value)
_LITERAL_KINDS = {cst.Integer: "int", cst.Float: "float", cst.Imaginary: "complex", cst.List: "list",
                  cst.ListComp: "list", cst.Tuple: "tuple", cst.Dict: "dict", cst.DictComp: "dict", cst.Set: "set",
                  cst.SetComp: "set", cst.FormattedString: "str"}


def _named_kind(node: cst.BaseExpression) -> str | None:
    """The built-in kind of value `node` names: a kind's own name (`list`), or the kind of a literal asked for
    with `type` (`type("")` is text, `type(None)` is "NoneType", None's own kind); else None."""
    if isinstance(node, cst.Name):
        return node.value if node.value in _TYPE_WORDS and node.value not in ("object", "type", "NoneType") else None
    literal = _type_of(node)
    if isinstance(literal, (cst.SimpleString, cst.ConcatenatedString)):
        return {str: "str", bytes: "bytes"}.get(type(literal.evaluated_value))
    if isinstance(literal, cst.Name):
        return {"True": "bool", "False": "bool", "None": "NoneType"}.get(literal.value)
    return _LITERAL_KINDS.get(type(literal))


def _int_value(node: cst.BaseExpression) -> int | None:
    if isinstance(node, cst.Integer):
        return int(node.value.replace("_", ""), 0)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) and isinstance(node.expression, cst.Integer):
        return -int(node.expression.value.replace("_", ""), 0)
    return None


def _acts_or_fails(node: cst.BaseExpression) -> bool:
    """Could working this out change something or fail (a call, a position, a division)? Then whether it
    is worked out at all matters."""
    found = []

    class Find(Reader):
        def visit_Call(self, _):
            found.append(True)

        def visit_Subscript(self, _):
            found.append(True)

        def visit_BinaryOperation(self, op):
            if isinstance(op.operator, (cst.Divide, cst.FloorDivide, cst.Modulo)):
                found.append(True)

    walk(node, Find())
    return bool(found)


def _calls(node: cst.BaseExpression, names: set[str]) -> bool:
    """Does working this out call a function or method of one of these names (the code's own, whose runs
    may be counted)?"""
    found = []

    class Find(Reader):
        def visit_Call(self, call):
            func = call.func.attr if isinstance(call.func, cst.Attribute) else call.func
            if isinstance(func, cst.Name) and func.value in names:
                found.append(True)

    walk(node, Find())
    return bool(found)


def _maybe_text_or_sequence(node: cst.BaseExpression) -> bool:
    """Could this be text, a list or a tuple (so ordering rules matter)? Numbers and lengths cannot."""
    if isinstance(node, (cst.Integer, cst.Float)):
        return False
    if isinstance(node, cst.UnaryOperation) and isinstance(node.expression, (cst.Integer, cst.Float)):
        return False
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in ("len", "abs", "int", "ord", "sum"):
        return False
    if isinstance(node, cst.IfExp):  # one of its two values
        return _maybe_text_or_sequence(node.body) or _maybe_text_or_sequence(node.orelse)
    if isinstance(node, cst.BinaryOperation):
        if isinstance(node.operator, cst.Add):  # text or a sequence only from two of them
            return _maybe_text_or_sequence(node.left) and _maybe_text_or_sequence(node.right)
        if isinstance(node.operator, cst.Multiply):  # a sequence times a count
            return _maybe_text_or_sequence(node.left) or _maybe_text_or_sequence(node.right)
        return False
    return True


# ---- what counts as code in a description ------------------------------------------------------
_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"')
# what a minus between two operands looks like, not a dash between words ("row - which"): a number,
# a one-letter name, a name with a digit or underscore (v1, g_2), or a closing bracket
_OPERAND = r"(?:\b\d[\d.]*\b|\b[A-Za-z]\b|\b[A-Za-z_]*[\d_]\w*\b|\))"
_CODE = [
    ("backtick", re.compile(r"`")),
    ("operator", re.compile(r"==|!=|<=|>=|//|\*\*|\+=|-=|\*=|/=|%=|:=|->|<<|>>")),
    ("comparison", re.compile(r"\w\s?[<>]\s?[\w(-]")),
    ("assignment", re.compile(r"\w\s?=\s?[\w(\[{\"'-]")),
    ("arithmetic", re.compile(r"\w\s?[+*%]\s?[\w(]|" + _OPERAND + r" \- (?:\(|" + _OPERAND + r")|\w / \w")),
    ("call", re.compile(r"\b[A-Za-z_]\w*\((?!e?s\))")),  # not a plural in brackets: "square(s)"
    ("method or attribute", re.compile(r"\b(?!e\.g\b|i\.e\b|[A-Za-z]\.[A-Za-z]\.)[A-Za-z_]\w*\.[A-Za-z_]\w*")),
    ("subscript", re.compile(r"\w\[|\[[^\]\s]*:[^\]\s]*\]")),
    ("braces", re.compile(r"[{}]")),
    ("keyword", re.compile(r"\blambda\b|\bdef\b|\belif\b|\bTrue\b|\bFalse\b")),
    ("f-string", re.compile(r"\b[fFrRbB]{1,2}[\"']")),
]


def holds_code(text: str) -> list[str]:
    """The code-like fragments of a description: backticks, operators, calls, subscripts, f-strings.

    Text values in double quotes are data, not code, so they are set aside first."""
    prose = _QUOTED.sub('""', text)
    prose = re.sub(r"(?m)^\s*(?:[0-9a-z]+\.)+\s", "", prose)  # step labels such as 7.8.c3.b1.
    found = []
    for label, pattern in _CODE:
        for match in pattern.finditer(prose):
            start = max(0, match.start() - 12)
            found.append(f"{label}: {prose[start:match.end() + 12].strip()}")
    return found
