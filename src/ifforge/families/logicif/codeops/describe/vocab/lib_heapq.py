"""heapq: a list kept so that taking out always gives the smallest item."""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "heapq"


def heappop(say, args, keywords) -> str:
    if len(args) != 1 or keywords:
        raise Undescribable("heapq.heappop used as a value")
    return f"the smallest item of the heap {say.grouped(args[0])}, taken out of it{say.cite('heap')}"


def _step(template: str, count: int, name: str):
    def step(say, args, keywords) -> str:
        if len(args) != count or keywords:
            raise Undescribable(f"heapq.{name}")
        return template.format(*[say.grouped(a) for a in args], rule=say.cite("heap"))
    return step


def _value(template: str, name: str):
    def said(say, args, keywords) -> str:
        if len(args) != 2 or keywords:
            raise Undescribable(f"heapq.{name} with these arguments")
        return template.format(*[say.grouped(a) for a in args], rule=say.cite("heap"))
    return said


def _extremes(largest: bool):
    """`nlargest(n, xs, key=k)` is the first n of xs sorted from largest to smallest by k (stable), as documented;
    `nsmallest` from smallest to largest."""
    def said(say, args, keywords) -> str:
        if len(args) != 2 or set(keywords) - {"key"}:
            raise Undescribable("this use of heapq.nlargest or heapq.nsmallest")
        order = {**keywords, **({"reverse": cst.Name("True")} if largest else {})}
        count = say.grouped(args[0])
        return (f"a new list of the first {count} of ({say.ordering(args[1], order)}) (all of them if there are "
                f"fewer, none if {count} is 0 or less)")
    return said


WORDS = {"nlargest": _extremes(True), "nsmallest": _extremes(False), "heappop": heappop,
         "heappushpop": _value("the smallest item of the heap {0} once {1} has been added to it, taken out of "
                               "it{rule}", "heappushpop"),
         "heapreplace": _value("the smallest item of the heap {0} (which must not be empty), taken out of it, with "
                               "{1} added to the heap after that{rule}", "heapreplace")}
STEPS = {"heappush": _step("Add {1} to the heap {0}{rule}.", 2, "heappush"),
         "heappop": _step("Take the smallest item out of the heap {0}{rule}.", 1, "heappop"),
         "heappushpop": _step("Add {1} to the heap {0}, then take the smallest item out of it{rule}.", 2, "heappushpop"),
         "heapify": _step("From now on treat {0} as a heap{rule}.", 1, "heapify")}
