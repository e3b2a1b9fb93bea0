"""datetime: a calendar date made from numbers (`datetime.date(year, month, day)`) and what it tells
without the host (its weekday, its day number, its fields): the Gregorian calendar, extended back to
year 1."""

from __future__ import annotations

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "datetime"


def date(say, args, keywords) -> str:
    if keywords or len(args) != 3:
        raise Undescribable("datetime.date with these arguments")
    year, month, day = (say.grouped(a) for a in args)
    return f"the date day {day} of month {month} of year {year} (which must exist, in a year from 1 to 9999)"


def _method(template: str):
    def said(say, made, args, keywords) -> str:
        if args or keywords:
            raise Undescribable("a date method with arguments")
        return template.format(d=say.value(made))
    return said


def _field(template: str):
    def said(say, made) -> str:
        return template.format(d=say.value(made))
    return said


WORDS = {"date": date}
CONSTANTS = {"MINYEAR": "1 (the smallest year a date may have)", "MAXYEAR": "9999 (the largest year a date may have)"}
OBJECTS = {"date": {
    "methods": {"weekday": _method("the weekday of {d}, as 0 for Monday up to 6 for Sunday"),
                "isoweekday": _method("the weekday of {d}, as 1 for Monday up to 7 for Sunday"),
                "toordinal": _method("the day number of {d}, counting 1 January of year 1 as day 1 (in the Gregorian "
                                     "calendar extended back to then)")},
    "fields": {"year": _field("the year of {d}"), "month": _field("the month of {d} (1 to 12)"),
               "day": _field("the day of the month of {d}")}}}
