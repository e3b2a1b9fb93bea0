"""math: the rounding, root, divisor, power, counting and angle functions, with their edge cases."""

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
         "log": lambda say, args, keywords: _natural_log(say, args, keywords),
         "log2": _form("the base-2 logarithm of {0} (a decimal number; a power of 2 gives exactly its exponent, 8 "
                       "giving 3.0; the steps stop with an error if {0} is 0 or less)"),
         "exp": _form("the number e (2.718281828459045) to the power {0}, as a decimal number (the steps stop with an "
                      "error if that is too large)"),
         "fabs": _form("the absolute value of {0}, as a decimal number"),
         "trunc": _form("{0} with any fractional part dropped (rounded towards 0), as a whole number"),
         "factorial": _form("the product of the whole numbers from 1 up to {0} (1 for 0; the steps stop with an error "
                            "if {0} is negative or not a whole number)"),
         "comb": _form("the number of ways to choose {1} things out of {0} when order does not matter (0 if {1} is "
                       "more than {0}; the steps stop with an error if either is negative)"),
         "perm": lambda say, args, keywords: _perm(say, args, keywords),
         "pow": _form("{0} to the power {1}, as a decimal number (the steps stop with an error when that is too large or has no real "
                      "value, such as a negative number to a fractional power, or is 0 to a negative power)"),
         "copysign": _form("the absolute value of {0} as a decimal number, made negative if {1} is negative (a zero "
                           "{1} counts as negative when it is written with a minus sign)"),
         "fmod": _form("the remainder of {0} divided by {1} that has the sign of {0}: {0} minus {1} times the quotient "
                       "of the two with its fractional part dropped, as a decimal number (the steps stop with an "
                       "error if {1} is 0)"),
         "hypot": _form("the square root of the sum of the squares of {all}, as a decimal number (0.0 with none)"),
         "lcm": _form("the least common multiple of {all} (0 if any of them is 0, 1 with none; never negative)"),
         "isfinite": _form("whether {0} is an ordinary number: neither infinity, minus infinity nor the special "
                           "decimal value NaN"),
         "degrees": _form("the angle {0}, given in radians, in degrees ({0} times 180 divided by pi), as a decimal "
                          "number"),
         "radians": _form("the angle {0}, given in degrees, in radians ({0} times pi divided by 180), as a decimal "
                          "number"),
         "sin": _form("the sine of the angle {0} (in radians), as a decimal number"),
         "cos": _form("the cosine of the angle {0} (in radians), as a decimal number"),
         "tan": _form("the tangent of the angle {0} (in radians), as a decimal number"),
         "atan": _form("the angle in radians, between minus half of pi and half of pi, whose tangent is {0}"),
         "atan2": _form("the angle in radians, from minus pi to pi, of the direction from the point (0, 0) to the "
                        "point whose horizontal position is {1} and vertical position is {0}"),
         "prod": lambda say, args, keywords: _product(say, args, keywords),
         "fsum": _form("the sum of the items of {0} as a decimal number, added exactly and rounded only once at the "
                       "end (so without the tiny errors of adding one at a time; 0.0 if there are none)"),
         "isclose": lambda say, args, keywords: _close(say, args, keywords)}


PLAIN = set(WORDS)  # results plain when the inputs are (plain.py)
def _perm(say, args, keywords) -> str:
    if len(args) == 1:
        return _form("the product of the whole numbers from 1 up to {0} (1 for 0; the steps stop with an error if {0} "
                     "is negative)")(say, args, keywords)
    return _form("the number of ways to pick {1} things out of {0} one after another, order mattering: the product of "
                 "the {1} whole numbers counting down from {0} (0 if {1} is more than {0}; the steps stop with an error "
                 "if either is negative)")(say, args, keywords)


def _product(say, args, keywords) -> str:
    """`math.prod(xs)` and `math.prod(xs, start=s)`: the start is the product of none."""
    if len(args) != 1 or set(keywords) - {"start"}:
        raise Undescribable("this use of math.prod")
    start = say.grouped(keywords["start"]) if "start" in keywords else "1"
    return f"{start} multiplied by every item of {say.grouped(args[0])} in turn ({start} if there are none)"


def _close(say, args, keywords) -> str:
    """`math.isclose(a, b)`: a tolerance relative to the larger size, and an absolute one (0.0 unless given)."""
    if len(args) != 2 or set(keywords) - {"rel_tol", "abs_tol"}:
        raise Undescribable("this use of math.isclose")
    a, b = (say.grouped(x) for x in args)
    relative = say.grouped(keywords["rel_tol"]) if "rel_tol" in keywords else "0.000000001"
    margin = f"{relative} times the larger of their absolute values"
    if "abs_tol" in keywords:
        margin = f"the larger of {margin} and {say.grouped(keywords['abs_tol'])}"
    return (f"whether {a} and {b} are close: the absolute value of their difference is at most {margin} (two "
            f"infinities are close only if they are equal; NaN is close to nothing)")


def _natural_log(say, args, keywords) -> str:
    """`math.log(x)`; with a base it is a quotient of two logarithms, a tiny bit off for some exact powers
    (`math.log(1000, 10)` is 2.9999999999999996), which no words can make a reader work out."""
    if len(args) != 1 or keywords:
        raise Undescribable("math.log with a base (a quotient of logarithms that can come out a tiny bit off)")
    return _form("the natural logarithm of {0} (to the base e; a decimal number; the steps stop with an error if "
                 "{0} is 0 or less)")(say, args, keywords)
KINDS = {"isnan": "bool", "isinf": "bool", "isfinite": "bool", "isclose": "bool"}
CONSTANTS = {"pi": "the number pi (3.141592653589793)", "inf": "infinity", "e": "the number e (2.718281828459045)",
             "tau": "the number tau, twice pi (6.283185307179586)",
             "nan": "the special decimal value NaN (not a number: equal to nothing, not even to itself)"}
