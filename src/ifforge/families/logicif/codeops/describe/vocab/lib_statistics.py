"""statistics: averages, middles and spreads of a collection of numbers, worked out exactly.

The module adds with exact fractions and rounds once at the end, and gives a whole number when the
items are whole numbers and the answer is one; each phrase says so, and says when an empty
collection stops the steps."""

from __future__ import annotations

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "statistics"

_EXACT = ("worked out exactly and rounded only once at the end; with whole-number items it is a whole number when it "
          "comes out whole")


def _one(template: str, name: str):
    """A function of one collection (a second input, or one by name, has no words here)."""
    def said(say, args, keywords) -> str:
        if len(args) != 1 or keywords:
            raise Undescribable(f"this use of statistics.{name}")
        return template.format(say.grouped(args[0]), exact=_EXACT)
    return said


WORDS = {
    "mean": _one("the average of the items of {0}: their sum divided by how many there are ({exact}; the steps stop "
                 "with an error if there are none)", "mean"),
    "fmean": _one("the average of the items of {0} as a decimal number: their sum, added exactly and rounded once, "
                  "divided by how many there are (the steps stop with an error if there are none)", "fmean"),
    "median": _one("the middle item of the items of {0} sorted from smallest to largest; with an even number of "
                   "items, the two middle ones added and divided by 2 (a decimal number, so even two equal whole "
                   "numbers give one ending in .0; the steps stop with an error if there are none)", "median"),
    "median_low": _one("the middle item of the items of {0} sorted from smallest to largest; with an even number of "
                       "items, the smaller of the two middle ones (the steps stop with an error if there are none)",
                       "median_low"),
    "median_high": _one("the middle item of the items of {0} sorted from smallest to largest; with an even number of "
                        "items, the larger of the two middle ones (the steps stop with an error if there are none)",
                        "median_high"),
    "mode": _one("the item of {0} that occurs most often (of several that occur equally often, the one that appears "
                 "first; the steps stop with an error if there are none)", "mode"),
    "multimode": _one("a new list of the items of {0} that occur most often, each once, in order of first appearance "
                      "(empty if there are none)", "multimode"),
    "pvariance": _one("the average of the squares of the differences between each item of {0} and the average of "
                      "all of them ({exact}; the steps stop with an error if there are none)", "pvariance"),
    "variance": _one("the sum of the squares of the differences between each item of {0} and the average of all of "
                     "them, divided by one less than how many there are ({exact}; the steps stop with an error if "
                     "there are fewer than 2)", "variance"),
}
