"""enum: a class built on `Enum`, said as its named members; a member is read by its class's name only.

A member equals only itself (never its value), so checks against members are checks of which member a
name holds. Aliases (two names for one value), `auto()` mixed with written values and any use of the
class other than reading a member have no words here.

A class built on `IntEnum` names whole numbers: its member is a number that equals, sorts and hashes as
its value, and differs from it only in what a result cannot hold (its kind, its display by `repr`, its
identity). So where the code reads its members only as values compared (`x in (C.A, C.B)`, `x == C.A`;
facts `compared`), each member is said as its number, and the class's line lists its names and numbers.
"""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "enum"


def _members(statement: cst.ClassDef) -> list[tuple[str, cst.BaseExpression]]:
    """The class's members in order, (name, value); anything but a docstring and `NAME = literal` lines
    (or all `NAME = auto()`, numbered from 1) has no words."""
    members, lines = [], statement.body.body if isinstance(statement.body, cst.IndentedBlock) else []
    for line in lines:
        if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
            raise Undescribable("an Enum class with more than its members")
        small = line.body[0]
        if isinstance(small, cst.Expr) and isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString)):
            continue  # a docstring
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
                and not small.targets[0].target.value.startswith("_")):
            raise Undescribable("an Enum class with more than its members")
        members.append((small.targets[0].target.value, small.value))
    automatic = [isinstance(v, cst.Call) and isinstance(v.func, cst.Name) and v.func.value == "auto" and not v.args
                 for _, v in members]
    if all(automatic):
        return [(name, cst.Integer(str(number))) for number, (name, _) in enumerate(members, 1)]
    literal = (cst.Integer, cst.SimpleString, cst.Float)
    if any(automatic) or not all(isinstance(v, literal) for _, v in members):
        raise Undescribable("an Enum member whose value is not written as a plain number or text")
    values = [v.evaluated_value if isinstance(v, cst.SimpleString) else float(v.value) for _, v in members]
    if len(set(map(repr, values))) != len(values) or len(set(values)) != len(values):
        raise Undescribable("an Enum with two names for one value (an alias)")
    return members


def told(say, statement: cst.ClassDef) -> str:
    """The fixed-value line for the class: its members, in order, with their values."""
    if statement.decorators or len(statement.bases) != 1:
        raise Undescribable("a decorated Enum class")
    members = _members(statement)
    if not members:
        raise Undescribable("an Enum class with no members")
    listed = say.join([f"{name} (its value {say.value(value)})" for name, value in members])
    return (f"{statement.name.value} is a kind of value of its own with exactly these members, each equal only to "
            f"itself (never to its value, nor to a member of another kind): {listed}")


def attribute(say, statement: cst.ClassDef, name: str) -> str:
    """`Color.RED`: the member by its name."""
    if name not in dict(_members(statement)):
        raise Undescribable(f"the attribute {name} of an Enum class")
    return f"the member {name} of {statement.name.value}"


def member_attribute(say, statement: cst.ClassDef, member: str, name: str) -> str:
    """`Color.RED.value` / `Color.RED.name`: the member's value, or its name as text."""
    members = dict(_members(statement))
    if member not in members or name not in ("value", "name"):
        raise Undescribable(f"the attribute {name} of an Enum member")
    return say.value(members[member]) if name == "value" else say.value(cst.SimpleString(repr(member)))


def _numbers(say, statement: cst.ClassDef) -> dict[str, cst.BaseExpression]:
    """An `IntEnum` class's members, each a written whole number, where the code only compares them."""
    if statement.decorators or len(statement.bases) != 1 or statement.name.value not in say.compared:
        raise Undescribable("an IntEnum class used other than by its members compared as numbers")
    members = _members(statement)
    if not members or not all(isinstance(value, cst.Integer) for _, value in members):
        raise Undescribable("an IntEnum member whose value is not written as a whole number")
    return dict(members)


def told_numbers(say, statement: cst.ClassDef) -> str:
    """The names and their numbers (the steps say each member they read as its number)."""
    listed = say.join([f"{name} for {say.value(value)}" for name, value in _numbers(say, statement).items()])
    return f"{statement.name.value} gives names to whole numbers, and the steps say each one they use as its number: {listed}"


def number_attribute(say, statement: cst.ClassDef, name: str) -> str:
    """`Code.OK`, compared: its number."""
    members = _numbers(say, statement)
    if name not in members:
        raise Undescribable(f"the attribute {name} of an IntEnum class")
    return say.value(members[name])


def number_member_attribute(say, statement: cst.ClassDef, member: str, name: str) -> str:
    raise Undescribable(f"the attribute {name} of an IntEnum member")


CLASSES = {"Enum": {"told": told, "attribute": attribute, "member_attribute": member_attribute},
           "IntEnum": {"told": told_numbers, "attribute": number_attribute,
                       "member_attribute": number_member_attribute}}
WORDS: dict = {}
