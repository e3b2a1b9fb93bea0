"""LIFBench's trivial baselines (see `eval.floors`): the instruction echoed, the task's most
frequent gold (for a labelling task: one label on every document, the offered one most often gold),
and an empty reply. A rubric point one of them earns is a point any reply earns."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from ifforge.core.registry import Registry
from ifforge.eval.baselines import Baseline, Empty, most_frequent


def rendered(gold: Any) -> str:
    return gold if isinstance(gold, str) else json.dumps(gold, ensure_ascii=False)


class EchoInstruction(Baseline):
    id = "echo_instruction"
    description = "the task's instruction repeated back"

    def replies(self, row, turns):
        return [row.get("instruction") or ""]


class MostFrequentGold(Baseline):
    id = "most_frequent_gold"
    description = ("the task's most frequent gold answer; for a task whose gold labels each document, one label "
                   "on every document: of the labels the row offers, the one most often gold over the task")

    def fit(self, rows):
        by_task: dict[str, list[Any]] = {}
        for row in rows:
            by_task.setdefault(row["task"], []).append(row["gold"])
        self.gold = {task: most_frequent(golds) for task, golds in by_task.items()}
        self.labels = {task: Counter(v for g in golds for v in g.values())
                       for task, golds in by_task.items() if all(isinstance(g, dict) for g in golds)}

    def replies(self, row, turns):
        counts = self.labels.get(row["task"])
        if counts is not None and isinstance(row["gold"], dict):
            offered = (row.get("facts") or {}).get("labels") or [counts.most_common(1)[0][0]]
            label = max(offered, key=lambda name: counts[name])  # the first offered wins a tie
            return [rendered({key: label for key in row["gold"]})]
        return [rendered(self.gold[row["task"]])]


BASELINES = Registry("baseline", (Empty, EchoInstruction, MostFrequentGold))
