"""What failed candidate runs teach about a function's inputs, for the next round of candidates.

The shapes read from the code are a guess; the errors of the runs say where it was wrong. An error
that names a type (a `TypeError` or `AttributeError`: "'list' object has no attribute 'lower'",
"must be str, not int", 'can only concatenate str (not "int") to str') blames each parameter whose
value, or whose items, had that type, and gives it the type the message asks for when it names one
(`.lower` asks for text, "must be a unicode character" for one character), else the next untried
type in a fixed order; when the line that raised names some of the parameters, only those are
blamed. Errors about values (`ValueError`, `IndexError`, `KeyError`, an assertion,
the function's own exception) ask for values nearer the constants the code compares with, and
"invalid literal for int()" for text made of digits; a `KeyError` for a whole number on a dict
parameter asks for a list of its values (a JSON object's keys are texts). Each parameter follows the majority of the
runs that blame it, so one odd run does not steer it.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import dataclass, field

from ifforge.core import pyast
from ifforge.families.logicif.codeops.inputs.candidates import (
    CHAR, DICT_METHODS, FLOAT, INT, LIST_METHODS, STR, STR_METHODS, Parameter, Shape)

# the order tried when a message says what is wrong but not what is wanted
ROTATION: tuple[Shape, ...] = (STR, ("list", STR), INT, ("list", INT), ("dict", STR, STR), FLOAT)
TYPE_NAMES = {"str": str, "int": int, "float": float, "bool": bool, "list": list, "dict": dict, "NoneType": type(None)}
WANTED = {"str": STR, "string": STR, "int": INT, "integer": INT, "float": FLOAT, "list": ("list", INT),
          "dict": ("dict", STR, STR), "character": CHAR, "unicode character": CHAR}
TYPE_ERRORS = ("TypeError", "AttributeError")
# what a callee's error says it wants: (message pattern, the kind of value `codeops.inputs.accepted` makes)
CALLEE_ERRORS = [(re.compile(r"base64|Incorrect padding|Only base64 data"), ("decoded", "b64decode")),
                 (re.compile(r"Odd-length string|[Nn]on-hexadecimal"), ("decoded", "unhexlify"))]
# "must be str, not bytes" (a bytes literal met the text), "a bytes-like object is required, not 'str'"
BYTES_WANTED = re.compile(r"\bnot '?bytes'?$|bytes-like object is required, not 'str'")
BYTES_SHAPE = ("list", INT)
OPERATOR_ERROR = re.compile(r"unsupported operand type|can only concatenate|bad operand type")
INT_METHODS = {m for m in dir(int) if not m.startswith("_")} - {m for m in dir(float) if not m.startswith("_")}


@dataclass
class Lessons:
    """Shapes to use instead of the inferred ones, and how to draw values next round."""

    shapes: dict[str, Shape] = field(default_factory=dict)
    former: dict[str, Shape] = field(default_factory=dict)  # the shape each had before: still drawn at times
    tried: dict[str, set] = field(default_factory=dict)  # every shape a parameter has had
    boundary: bool = False  # values near the code's constants rather than at random
    digits: bool = False  # text made of digits
    accepts: dict[str, set] = field(default_factory=dict)  # what a callee said it wants (`inputs.accepted` kinds)

    def summary(self) -> dict:
        return {"shapes": {name: _text(shape) for name, shape in self.shapes.items()},
                "boundary": self.boundary, "digits": self.digits,
                **({"accepts": {name: sorted(map(str, kinds)) for name, kinds in self.accepts.items()}}
                   if self.accepts else {})}


def _text(shape: Shape) -> str:
    return shape[0] if len(shape) == 1 else f"{shape[0]}[{', '.join(_text(s) for s in shape[1:])}]"


def _type_of(value) -> str:
    return "NoneType" if value is None else type(value).__name__


def named_types(message: str) -> tuple[set[str], str | None]:
    """(the type names a message says a value had, the type it wants or None)."""
    had = set(re.findall(r"'(\w+)' object", message)) | set(re.findall(r"\bnot '?\"?(\w+)", message))
    had |= set(re.findall(r"got '?(\w+)'?", message)) | set(re.findall(r"type '(\w+)'", message))
    had |= set(re.findall(r"instances of '(\w+)'", message)) | set(re.findall(r"' and '(\w+)'", message))
    for pair in re.findall(r"operand type\(s\) for [^:]+: '(\w+)' and '(\w+)'", message):
        had |= set(pair)
    had &= set(TYPE_NAMES)
    wanted = None
    method = re.search(r"has no attribute '(\w+)'", message)
    if method:
        name = method.group(1)
        wanted = "str" if name in STR_METHODS else "list" if name in LIST_METHODS else \
            "dict" if name in DICT_METHODS else "int" if name in INT_METHODS else None
    asked = re.search(r"(?:must be|expected|requires?|only concatenate|interpreted as) (?:an? )?(unicode character"
                      r"|character|str|string|int|integer|float|list|dict)\b", message)
    if asked and wanted is None:
        wanted = asked.group(1)
    return had, wanted


def _other_side(message: str, had: str) -> str | None:
    """What an operator between two types wants of the side that had `had`: the other side's type
    (`'>=' not supported between instances of 'int' and 'list'`: the list should be a whole number)."""
    pair = re.search(r"between instances of '(\w+)' and '(\w+)'|operand type\(s\) for [^:]+: '(\w+)' and '(\w+)'",
                     message)
    if not pair:
        return None
    left, right = [side for side in pair.groups() if side]
    other = right if left == had else left if right == had else None
    return other if other != had and other in WANTED else None


def _blame(parameter: Parameter, value, had: set[str]) -> str | None:
    """Whether the message is about this parameter's value ("whole") or its items ("items")."""
    if _type_of(value) in had:
        return "whole"
    if parameter.shape[0] in ("list", "dict") and isinstance(value, (list, dict)):
        items = value.values() if isinstance(value, dict) else value
        if any(_type_of(item) in had for item in items):
            return "items"
    return None


def _arguments(parameters: list[Parameter], args: list) -> list[tuple[Parameter, object]]:
    """Each parameter with the value it got (`*args` gets the rest as a list)."""
    pairs = []
    for index, parameter in enumerate(parameters):
        if parameter.spread:
            pairs.append((parameter, list(args[index:])))
        elif index < len(args):
            pairs.append((parameter, args[index]))
    return pairs


def _next_shape(shape: Shape, wanted: str | None, tried: set) -> Shape | None:
    if wanted in WANTED and shape == STR and WANTED[wanted] in (INT, FLOAT) and ("list", WANTED[wanted]) not in tried:
        return ("list", WANTED[wanted])  # text asked to be a number: it was iterated, its items are numbers
    if wanted in WANTED and WANTED[wanted] not in tried:
        return WANTED[wanted]
    return next((other for other in ROTATION if other not in tried), None)


def _named_on(line: str, parameters: list[Parameter], error: str = "") -> set[str]:
    """The parameters the line that raised names; all of them when it names none (an alias raised).
    When an operator raised and the line names some, only those that are its operands: in
    `w * (n - len(s))` the text `s` is not what `-` was given."""
    named = {p.name for p in parameters if re.search(rf"\b{re.escape(p.name)}\b", line)}
    if named and OPERATOR_ERROR.search(error):
        operands = _operands(line)
        if operands is not None:
            return named & operands
    return named or {p.name for p in parameters}


def _operands(line: str) -> set[str] | None:
    """The names a line gives straight to an operator (`a + b[0]` gives a and b); None when the
    line alone does not parse (a piece of a longer statement)."""
    text = line.strip()
    text = text + " pass" if text.endswith(":") else text
    try:
        tree = pyast.parse(text)
    except SyntaxError:
        return None
    found = set()
    for node in ast.walk(tree):
        sides = [node.left, node.right] if isinstance(node, ast.BinOp) else \
            [node.operand] if isinstance(node, ast.UnaryOp) else \
            [node.target, node.value] if isinstance(node, ast.AugAssign) else []
        for side in sides:
            while isinstance(side, (ast.Subscript, ast.Attribute)):
                side = side.value
            if isinstance(side, ast.Name):
                found.add(side.id)
    return found


def learn(parameters: list[Parameter], failures: list[tuple], before: Lessons | None = None) -> Lessons:
    """The lessons of one round: `failures` are (arguments, error text[, the source line that raised])
    of the runs that raised."""
    before = before or Lessons()
    shapes = {p.name: before.shapes.get(p.name, p.shape) for p in parameters}
    tried = {p.name: set(before.tried.get(p.name, ())) | {p.shape, shapes[p.name]} for p in parameters}
    votes: dict[str, Counter] = {p.name: Counter() for p in parameters}
    value_errors = 0
    digits = before.digits
    for args, error, *line in failures:
        suspects = _named_on(line[0] if line else "", parameters, error)
        kind = error.split(":", 1)[0].strip()
        if "invalid literal for int()" in error or "could not convert string to float" in error:
            digits = True
        if kind not in TYPE_ERRORS:
            value_errors += 1
            _number_key(parameters, args, error, suspects, tried, votes)
            continue
        if BYTES_WANTED.search(error):  # text where bytes were wanted: bytes are a list of small ints in JSON
            for parameter, value in _arguments(parameters, args):
                if parameter.name in suspects and isinstance(value, str) and BYTES_SHAPE not in tried[parameter.name]:
                    votes[parameter.name][BYTES_SHAPE] += 1
            continue
        had, wanted = named_types(error)
        for parameter, value in _arguments(parameters, args):
            where = _blame(parameter, value, had) if parameter.name in suspects else None
            shape = shapes[parameter.name]
            if where == "items" and shape[0] not in ("list", "dict"):
                continue  # a list drawn by a former shape or as another kind: its shape now has no items to blame
            if where == "whole":
                new = _next_shape(shape, wanted or _other_side(error, _type_of(value)), tried[parameter.name])
            elif where == "items":
                inner = shape[-1] if shape[0] == "dict" else shape[1]
                items = value.values() if isinstance(value, dict) else value
                met = next((_type_of(item) for item in items if _type_of(item) in had), "")
                item = _next_shape(inner, wanted or _other_side(error, met), {inner})
                new = None if item is None else (*shape[:-1], item) if shape[0] == "dict" else ("list", item)
                new = None if new in tried[parameter.name] else new
            else:
                continue
            if new is not None:
                votes[parameter.name][new] += 1
    learned = Lessons(dict(before.shapes), dict(before.former), tried, before.boundary, digits,
                      _accepts(parameters, failures, before.accepts))
    for name, counter in votes.items():
        if counter:
            learned.former[name] = shapes[name]  # the blame may be wrong (two ints, one culprit)
            learned.shapes[name] = counter.most_common(1)[0][0]
            learned.tried[name].add(learned.shapes[name])
    learned.boundary = before.boundary or value_errors * 2 >= len(failures) > 0
    if value_errors == len(failures) > 0 and learned.boundary == before.boundary:
        for parameter in parameters:  # values near the constants did not help: the code's other reading
            other = parameter.alternative
            if other is not None and other not in learned.tried[parameter.name]:
                learned.former[parameter.name] = shapes[parameter.name]
                learned.shapes[parameter.name] = other
                learned.tried[parameter.name].add(other)
    return learned


NUMBER_KEY = re.compile(r"KeyError: -?\d+$")


def _number_key(parameters: list[Parameter], args: list, error: str, suspects: set[str], tried: dict,
                votes: dict) -> None:
    """`KeyError: 1` on a line naming a dict parameter: the code reads it with a whole number (`graph[1]`),
    which a JSON object never has as a key; a list of its values is read so. A vote for that shape."""
    if not NUMBER_KEY.match(error):
        return
    for parameter, value in _arguments(parameters, args):
        if parameter.name in suspects and isinstance(value, dict) and parameter.shape[0] == "dict":
            new = ("list", parameter.shape[2])
            if new not in tried[parameter.name]:
                votes[parameter.name][new] += 1


def _accepts(parameters: list[Parameter], failures: list[tuple], before: dict[str, set]) -> dict[str, set]:
    """What the errors of callees say a parameter must be: `KeyError: 'width'` a dict holding that
    key (a dict parameter named on the line), "unknown encoding: X" an encoding name (the parameter
    that was X), a base64 or hex complaint a text of that code (a text parameter named on the line)."""
    found = {name: set(kinds) for name, kinds in before.items()}
    for args, error, *line in failures:
        suspects = _named_on(line[0] if line else "", parameters)
        for parameter, value in _arguments(parameters, args):
            kinds = set()
            key = re.match(r"KeyError: '([^']*)'$", error)
            if key and isinstance(value, dict) and parameter.name in suspects:
                kinds.add(("key", key.group(1)))
            encoding = re.search(r"unknown encoding: (.*)$", error)
            if encoding and isinstance(value, str) and value == encoding.group(1):
                kinds.add(("encoding",))
            if isinstance(value, str) and parameter.name in suspects:
                kinds.update(kind for pattern, kind in CALLEE_ERRORS if pattern.search(error))
            if kinds:
                found.setdefault(parameter.name, set()).update(kinds)
    return found


def taught(before: Lessons | None, after: Lessons) -> bool:
    """Whether a round has anything new to try."""
    before = before or Lessons()
    return (after.shapes != before.shapes or after.boundary != before.boundary or after.digits != before.digits
            or after.accepts != before.accepts)
