"""math: the rounding, root and divisor functions, with their edge cases."""

from __future__ import annotations

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "math"


def _form(template: str):
    def said(say, args, keywords) -> str:
        if keywords:
            raise Undescribable("a math function with keyword arguments")
        words = [say.grouped(a) for a in args]
        return template.format(*words, all=say.join(words))
    return said


WORDS = {"floor": _form("{0} rounded down to a whole number"), "ceil": _form("{0} rounded up to a whole number"),
         "sqrt": _form("the square root of {0} (a decimal number)"),
         "isqrt": _form("the whole-number square root of {0} (rounded down)"),
         "gcd": _form("the greatest common divisor of {all} (0 if all are 0; never negative)"),
         "isnan": _form("whether {0} is the special decimal value NaN (not a number; only arithmetic such as "
                        "infinity minus infinity makes it)"),
         "isinf": _form("whether {0} is infinity or minus infinity")}
KINDS = {"isnan": "bool", "isinf": "bool"}
CONSTANTS = {"pi": "the number pi (3.141592653589793)", "inf": "infinity"}
