"""bisect: the place for an item in a list found by binary search, said with the search spelled out once."""

from __future__ import annotations

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "bisect"

RULES = {"bisect": "The leftmost (or rightmost) place for x in a list, found by binary search: start with low at 0 and "
                   "high at the length of the list; while low is less than high, let middle be the sum of low and "
                   "high, halved and rounded down; for the leftmost place, if the item at position middle is less "
                   "than x, set low to middle plus 1, otherwise set high to middle; for the rightmost place, if x is "
                   "less than the item at position middle, set high to middle, otherwise set low to middle plus 1; "
                   "the place is low when the loop ends. On a list sorted from smallest to largest it is the number "
                   "of items less than x (leftmost) or not greater than x (rightmost)."}


def _place(side: str):
    def said(say, args, keywords) -> str:
        if len(args) != 2 or keywords:  # lo, hi or key: a search over part of the list, with no words here
            raise Undescribable("bisect with other than a list and an item")
        return (f"the {side} place for {say.grouped(args[1])} in {say.grouped(args[0])}, found by binary "
                f"search{say.cite('bisect')}")
    return said


def _insert(side: str):
    def step(say, args, keywords) -> str:
        if len(args) != 2 or keywords:
            raise Undescribable("insort with other than a list and an item")
        return (f"Insert {say.grouped(args[1])} into {say.grouped(args[0])} at the {side} place for it, found by "
                f"binary search{say.cite('bisect')} (the items from there on move one place later).")
    return step


WORDS = {"bisect_left": _place("leftmost"), "bisect_right": _place("rightmost"), "bisect": _place("rightmost")}
STEPS = {"insort_left": _insert("leftmost"), "insort_right": _insert("rightmost"), "insort": _insert("rightmost")}
