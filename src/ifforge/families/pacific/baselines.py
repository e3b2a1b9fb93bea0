"""PACIFIC's trivial baselines (see `eval.floors`): the identity step (each step's input given back,
so its instruction-level floor is the share of steps that leave their input unchanged: "repeat the
last value" once the previous step is right), the starting value at every step, the most frequent
gold value at every step, and an empty reply."""

from __future__ import annotations

import json
from typing import Any

from ifforge.core.registry import Registry
from ifforge.eval.baselines import Baseline, Empty, most_frequent


def tagged(row: dict[str, Any], values: list[Any]) -> list[str]:
    """The answers in the asked format: all tags in one reply, or one tag per chat turn."""
    tags = [f"[ANSWER][{step}] {json.dumps(value, ensure_ascii=False)} [\\ANSWER]" for step, value in enumerate(values, 1)]
    return tags if row.get("mode") == "chat" else ["\n".join(tags)]


class Identity(Baseline):
    id = "identity"
    description = ("each step's input given back (the starting value, then the previous step's gold): "
                   "right where a step leaves its input unchanged")

    def replies(self, row, turns):
        return tagged(row, [row["initial_input"], *row["gold"][:-1]])


class Initial(Baseline):
    id = "initial"
    description = "the starting value at every step"

    def replies(self, row, turns):
        return tagged(row, [row["initial_input"]] * len(row["gold"]))


class MostFrequentGold(Baseline):
    id = "most_frequent_gold"
    description = "the most frequent gold value of the whole benchmark, of the step's type, at every step"

    def fit(self, rows):
        values = [value for row in rows for value in row["gold"]]
        self.by_type = {kind: most_frequent([v for v in values if isinstance(v, kind)]) for kind in (int, str)}

    def replies(self, row, turns):
        return tagged(row, [self.by_type.get(type(gold)) for gold in row["gold"]])


BASELINES = Registry("baseline", (Empty, Identity, Initial, MostFrequentGold))
