"""datetime: a calendar date made from numbers (dates.py tells what it gives without the host)."""

from __future__ import annotations

from ifforge.families.logicif.codeops.describe import dates

LIBRARY = "datetime"


def date(say, args, keywords) -> str:
    return dates.made([say.grouped(a) for a in args], keywords)


WORDS = {"date": date}
CONSTANTS = {"MINYEAR": "1 (the smallest year a date may have)", "MAXYEAR": "9999 (the largest year a date may have)"}
