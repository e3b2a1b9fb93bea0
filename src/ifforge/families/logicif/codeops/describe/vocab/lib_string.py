"""string: its one text function (its constants, such as the digits, are said with the patterns)."""

from __future__ import annotations

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "string"


def capwords(say, args, keywords) -> str:
    if keywords or len(args) not in (1, 2):
        raise Undescribable("this use of string.capwords")
    text = say.grouped(args[0])
    word = "with its first character a capital and the rest lowercase"
    if len(args) == 1:
        return (f"the words of {text} (the pieces between runs of whitespace; whitespace at the start and end "
                f"ignored), each {word}, joined with single spaces")
    sep = say.grouped(args[1])
    return f"the pieces of {text} split at every occurrence of {sep} (empty pieces kept), each {word}, joined " \
           f"again with {sep} between each two"
WORDS = {"capwords": capwords}
