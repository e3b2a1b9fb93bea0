"""MCBench's trivial baselines (see `eval.floors`): a constant final score (0, and 1), the metric's
most frequent gold final score, each in the asked format with no step, and an empty reply."""

from __future__ import annotations

import json
from typing import Any

from ifforge.core.registry import Registry
from ifforge.eval.baselines import Baseline, Empty, Tally
from ifforge.families.mcbench.scoring import final_matches


def final_only(value: Any) -> list[str]:
    return [f"### Final Results ###\n[Final] : {json.dumps(value)}"]


class Zero(Baseline):
    id = "constant_0"
    description = "`[Final] : 0` in the results block, no step"
    value = 0

    def replies(self, row, turns):
        return final_only(self.value)


class One(Zero):
    id = "constant_1"
    description = "`[Final] : 1` in the results block, no step"
    value = 1


def a_constant_passes(final: float) -> bool:
    """Whether `[Final] : 0` or `[Final] : 1` is right on a row whose gold final value is `final`."""
    return any(final_matches(kind.value, final) for kind in (Zero, One))


class MostFrequentGold(Baseline):
    id = "most_frequent_gold"
    description = "the metric's most frequent gold final score over the benchmark, no step"

    def fit(self, rows):
        tallies: dict[str, Tally] = {}
        for row in rows:  # once: the rows may be read from a file
            tallies.setdefault(row["metric"], Tally()).add(row["gold_final"])
        self.by_metric = {metric: tally.most_frequent() for metric, tally in tallies.items()}

    def replies(self, row, turns):
        return final_only(self.by_metric[row["metric"]])


BASELINES = Registry("baseline", (Empty, Zero, One, MostFrequentGold))
