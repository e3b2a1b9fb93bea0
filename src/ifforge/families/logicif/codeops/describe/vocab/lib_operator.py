"""operator: the functions that stand for Python's operators, said as the operator they stand for.

A call `operator.add(a, b)` is said exactly as `a + b` is (so the rules for text, lists and numbers
come with it); `operator.index` keeps a whole number and refuses anything else; used as a value
(`reduce(operator.mul, xs)`) it is said the same way on its inputs."""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "operator"

_BINARY = {"add": cst.Add, "sub": cst.Subtract, "mul": cst.Multiply, "truediv": cst.Divide,
           "floordiv": cst.FloorDivide, "mod": cst.Modulo, "pow": cst.Power, "and_": cst.BitAnd, "or_": cst.BitOr,
           "xor": cst.BitXor, "lshift": cst.LeftShift, "rshift": cst.RightShift, "concat": cst.Add}
_COMPARE = {"eq": cst.Equal, "ne": cst.NotEqual, "lt": cst.LessThan, "le": cst.LessThanEqual,
            "gt": cst.GreaterThan, "ge": cst.GreaterThanEqual, "is_": cst.Is, "is_not": cst.IsNot}
_UNARY = {"neg": cst.Minus, "pos": cst.Plus, "invert": cst.BitInvert, "inv": cst.BitInvert, "not_": cst.Not}
_BUILTIN = {"abs": "abs", "truth": "bool"}

RULES = {"whole_number_only": "Taking a value strictly as a whole number gives a whole number unchanged, and true and "
                              "false as 1 and 0; anything else (a decimal number, even 2.0, a text, None, a list) "
                              "stops the steps with an error."}


def _index(say, args, keywords) -> str:
    """`operator.index(x)`: x when it is a whole number (a bool is one: 1 or 0), an error for anything else."""
    if keywords or len(args) != 1:
        raise Undescribable("this use of operator.index")
    if say.sort_of(args[0]) == "int":  # a whole number surely: kept as it is
        return say.value(args[0])
    return f"{say.grouped(args[0])} taken strictly as a whole number{say.cite('whole_number_only')}"


def _said(name: str, count: int, make):
    """A handler that says `operator.name(...)` as the expression `make(args)` is said."""
    def said(say, args, keywords) -> str:
        if keywords or len(args) != count:
            raise Undescribable(f"this use of operator.{name}")
        return say.value(make(args))
    return said


WORDS = {
    **{name: _said(name, 2, lambda a, op=op: cst.BinaryOperation(a[0], op(), a[1])) for name, op in _BINARY.items()},
    **{name: _said(name, 2, lambda a, op=op: cst.Comparison(a[0], [cst.ComparisonTarget(op(), a[1])]))
       for name, op in _COMPARE.items()},
    **{name: _said(name, 1, lambda a, op=op: cst.UnaryOperation(op(), a[0])) for name, op in _UNARY.items()},
    **{name: _said(name, 1, lambda a, b=b: cst.Call(cst.Name(b), [cst.Arg(a[0])])) for name, b in _BUILTIN.items()},
    "index": _index,
    "contains": _said("contains", 2, lambda a: cst.Comparison(a[1], [cst.ComparisonTarget(cst.In(), a[0])])),
    "getitem": _said("getitem", 2, lambda a: cst.Subscript(a[0], [cst.SubscriptElement(cst.Index(a[1]))])),
}
KINDS = {name: "bool" for name in [*_COMPARE, "not_", "truth", "contains"]}
