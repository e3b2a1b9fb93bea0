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
         "isinf": _form("whether {0} is infinity or minus infinity"),
         "log10": _form("the base-10 logarithm of {0} (a decimal number; a power of 10 gives exactly its exponent, "
                        "1000 giving 3.0, and for a whole number up to 999999999999997 the part before the point is "
                        "one less than its number of digits, while a larger one just below a power of 10 can come out "
                        "as that power's exponent; the steps stop with an error if {0} is 0 or less)"),
         "log": lambda say, args, keywords: _natural_log(say, args, keywords)}


def _natural_log(say, args, keywords) -> str:
    """`math.log(x)`; with a base it is a quotient of two logarithms, a tiny bit off for some exact powers
    (`math.log(1000, 10)` is 2.9999999999999996), which no words can make a reader work out."""
    if len(args) != 1 or keywords:
        raise Undescribable("math.log with a base (a quotient of logarithms that can come out a tiny bit off)")
    return _form("the natural logarithm of {0} (to the base e; a decimal number; the steps stop with an error if "
                 "{0} is 0 or less)")(say, args, keywords)
KINDS = {"isnan": "bool", "isinf": "bool"}
CONSTANTS = {"pi": "the number pi (3.141592653589793)", "inf": "infinity"}
