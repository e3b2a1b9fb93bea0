"""English for a calendar date made from numbers (`datetime.date(year, month, day)`) and what it tells
without the host (its weekday, its day number): the Gregorian calendar, extended back to year 1."""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.describe.errors import Undescribable

MAKER = "datetime.date"
_METHODS = {"weekday": "the weekday of {d}, as 0 for Monday up to 6 for Sunday",
            "isoweekday": "the weekday of {d}, as 1 for Monday up to 7 for Sunday",
            "toordinal": "the day number of {d}, counting 1 January of year 1 as day 1 (in the Gregorian calendar "
                         "extended back to then)"}
FIELDS = {"year": "the year of {d}", "month": "the month of {d} (1 to 12)", "day": "the day of the month of {d}"}


def made(args: list[str], keywords: dict) -> str:
    """`date(y, m, d)` in words; args are already in words."""
    if keywords or len(args) != 3:
        raise Undescribable(f"{MAKER} with these arguments")
    year, month, day = args
    return f"the date day {day} of month {month} of year {year} (which must exist, in a year from 1 to 9999)"


def method(name: str, date: str, args: list) -> str | None:
    """What a method of a date gives, or None when it is not one told here."""
    if name in _METHODS and not args:
        return _METHODS[name].format(d=date)
    return None


def is_made(node: cst.BaseExpression, resolve) -> bool:
    """Is this node a call that makes a date (`resolve` turns a called name into its dotted origin)?"""
    return isinstance(node, cst.Call) and resolve(node.func) == MAKER
