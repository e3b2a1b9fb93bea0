"""dataclasses: a class decorated with `dataclass` whose body is only `name: kind` lines (a fixed default,
or `field(default_factory=list)`: a new empty one for each object, allowed) is a kind of object holding those fields (facts `dataclasses`): made with a value for each, in order or
by name; equal to another of its class field by field, and to nothing else; never ordered; unhashable unless
frozen, and then unchangeable; written as text `P(x=1, y='a')`."""

from __future__ import annotations

import libcst as cst

LIBRARY = "dataclasses"
SHAPES = {"dataclass": "dataclass"}
WORDS: dict = {}


def told(say, name: str, fields: tuple, frozen: bool) -> str:
    """The line for the class: its fields and defaults, and the rules its objects follow."""
    defaults = [f"{field} is {say.value(default)}" for field, default in fields if default is not None]
    given = f" ({say.join(defaults)} when not given)" if defaults else ""
    kept = ("its fields cannot be changed once it is made (setting one stops the steps with an error)" if frozen else
            "one cannot be a key of a dictionary or an item of a set (that stops the steps with an error)")
    return (f"{name} is a kind of object holding the fields {say.join([field for field, _ in fields])}, in that "
            f"order: making one gives its fields the values given, in that order or by name{given}; two objects of "
            f"{name} are equal when each field of one equals the same field of the other, and one equals nothing "
            f"else; comparing two for order (less, greater) stops the steps with an error; {kept}; written as "
            f"text, one shows the name {name} and then, in brackets, each field as its name, an equals sign and its value as Python "
            f"displays it, separated by a comma and a space")


def default(value: cst.BaseExpression, dotted: str | None) -> cst.BaseExpression | None:
    """The value a field gets when not given, written as code a step would: `field(default=v)` is v and
    `field(default_factory=list)` a new empty list for each object (`[]`, `{}`, `set()`); else None."""
    if dotted != "dataclasses.field" or not isinstance(value, cst.Call) or len(value.args) != 1 or \
            value.args[0].keyword is None:
        return None
    key, given = value.args[0].keyword.value, value.args[0].value
    if key == "default":
        return given
    makers = {"list": "[]", "dict": "{}", "set": "set()"}
    if key == "default_factory" and isinstance(given, cst.Name) and given.value in makers:
        return cst.parse_expression(makers[given.value])
    return None


DATACLASS = {"told": told, "default": default}
