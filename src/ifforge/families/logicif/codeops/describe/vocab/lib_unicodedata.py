"""unicodedata: the character properties, each naming the Unicode version (words in unicode.py)."""

from __future__ import annotations

from ifforge.families.logicif.codeops.describe import unicode

LIBRARY = "unicodedata"


def _said(dotted: str):
    def said(say, args, keywords) -> str:
        return unicode.words(dotted, [say.grouped(a) for a in args], keywords)
    return said


# the module's own functions, and those of the frozen Unicode 3.2.0 tables it also offers
WORDS = {f"{prefix}{name}": _said(f"{LIBRARY}.{prefix}{name}") for prefix in ("", f"{unicode.OLD}.")
         for name in unicode.FUNCTIONS}
PLAIN = set(WORDS)  # results plain when the inputs are (plain.py)
