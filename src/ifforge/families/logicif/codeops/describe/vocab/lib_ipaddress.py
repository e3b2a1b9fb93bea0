"""ipaddress: an address made from a text, said by the rules that decide its kind (addresses.py)."""

from __future__ import annotations

from ifforge.families.logicif.codeops.describe import addresses

LIBRARY = "ipaddress"


def _said(dotted: str):
    def said(say, args, keywords) -> str:
        text = len(args) == 1 and say.certain_kind(args[0]) == "str"
        return addresses.words(dotted, [say.grouped(a) for a in args], keywords, text) + say.cite("ip")
    return said


WORDS = {dotted.rpartition(".")[2]: _said(dotted) for dotted in addresses.MAKERS}
