"""copy: shallow and deep copies, said by what they share with the original."""

from __future__ import annotations

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "copy"


def deepcopy(say, args, keywords) -> str:
    if len(args) != 1 or keywords:
        raise Undescribable("this use of copy.deepcopy")
    return (f"a deep copy of {say.grouped(args[0])} (equal to it, but every list, dictionary and set inside it, at "
            f"any depth, is a new one, so changing the copy never changes the original)")


def copy(say, args, keywords) -> str:
    if len(args) != 1 or keywords:
        raise Undescribable("this use of copy.copy")
    return (f"a shallow copy of {say.grouped(args[0])} (a list, dictionary or set becomes a new one holding the "
            "very same items; text, a number, a tuple, true, false or None is itself)")


WORDS = {"copy": copy, "deepcopy": deepcopy}
