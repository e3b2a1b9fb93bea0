"""urllib.parse: percent-encoding and decoding, said byte by byte (paths.py)."""

from __future__ import annotations

from ifforge.families.logicif.codeops.describe import paths

LIBRARY = "urllib.parse"


def _said(name: str):
    def said(say, args, keywords) -> str:
        return paths.words(f"{LIBRARY}.{name}", [say.grouped(a) for a in args], keywords)
    return said


WORDS = {name: _said(name) for name in paths.MODULES[LIBRARY]}
PLAIN = set(WORDS)  # results plain when the inputs are (plain.py)
