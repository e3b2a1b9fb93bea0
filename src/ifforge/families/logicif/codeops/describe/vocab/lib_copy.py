"""copy: shallow and deep copies, said by what they share with the original."""

from __future__ import annotations

from collections.abc import Callable

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "copy"


def of_one_argument(function: str, told: str) -> Callable[..., str]:
    """A word for a call that takes exactly one positional argument and no keyword: `told` with the
    argument, grouped, in place of `{}` (any other use of `function` cannot be told)."""
    def word(say, args, keywords) -> str:
        if len(args) != 1 or keywords:
            raise Undescribable(f"this use of {function}")
        return told.format(say.grouped(args[0]))

    return word


deepcopy = of_one_argument("copy.deepcopy", "a deep copy of {} (equal to it, but every list, dictionary and set inside "
                                            "it, at any depth, is a new one, so changing the copy never changes the "
                                            "original)")
copy = of_one_argument("copy.copy", "a shallow copy of {} (a list, dictionary or set becomes a new one holding the "
                                    "very same items; text, a number, a tuple, true, false or None is itself)")

WORDS = {"copy": copy, "deepcopy": deepcopy}
