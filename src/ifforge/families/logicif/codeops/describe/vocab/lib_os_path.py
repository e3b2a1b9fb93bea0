"""os.path (and posixpath, the same functions): path texts as the string operations they are (paths.py)."""

from __future__ import annotations

from ifforge.families.logicif.codeops.describe import paths

LIBRARY = ("os.path", "posixpath")


def _said(name: str):
    def said(say, args, keywords) -> str:
        return paths.words(f"os.path.{name}", [say.grouped(a) for a in args], keywords)
    return said


WORDS = {name: _said(name) for name in paths.MODULES["os.path"]}
PLAIN = set(WORDS)  # results plain when the inputs are (plain.py)
