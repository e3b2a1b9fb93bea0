"""textwrap: taking off and putting on the margin of each line of a text (filling and wrapping, whose
line breaking needs many rules, have no words here)."""

from __future__ import annotations

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "textwrap"


def dedent(say, args, keywords) -> str:
    if len(args) != 1 or keywords:
        raise Undescribable("this use of textwrap.dedent")
    text = say.grouped(args[0])
    return (f"{text} with its common margin taken off: first every line made only of spaces and tabs is emptied (its "
            f"line break kept), then the longest run of spaces and tabs that every other line starts with, exactly "
            f"the same characters in the same order, is removed from the start of each of those lines")


def indent(say, args, keywords) -> str:
    if len(args) != 2 or keywords:
        raise Undescribable("this use of textwrap.indent")
    text, prefix = (say.grouped(a) for a in args)
    return (f"{text} with {prefix} put at the start of each of its lines that holds something other than whitespace "
            f"(lines are cut after each line break, which each keeps)")


WORDS = {"dedent": dedent, "indent": indent}
