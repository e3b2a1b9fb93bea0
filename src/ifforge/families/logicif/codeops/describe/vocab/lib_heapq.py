"""heapq: a list kept so that taking out always gives the smallest item."""

from __future__ import annotations

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


WORDS = {"heappop": heappop}
STEPS = {"heappush": _step("Add {1} to the heap {0}{rule}.", 2, "heappush"),
         "heappop": _step("Take the smallest item out of the heap {0}{rule}.", 1, "heappop"),
         "heapify": _step("From now on treat {0} as a heap{rule}.", 1, "heapify")}
