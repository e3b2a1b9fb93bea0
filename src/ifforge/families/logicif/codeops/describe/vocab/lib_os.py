"""os: `fspath`, the one function of os (beside os.path, told in paths.py) that is plain text work."""

from __future__ import annotations

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "os"


def fspath(say, args, keywords) -> str:
    if len(args) != 1 or keywords:
        raise Undescribable("this use of os.fspath")
    return (f"{say.grouped(args[0])} itself (it must be text or bytes, or an object that stands for a file path, "
            f"which gives its path)")


WORDS = {"fspath": fspath}
