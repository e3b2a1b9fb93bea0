"""LIFBench's trivial baselines (see `eval.floors`): the instruction echoed, the task's most
frequent gold (for a labelling task: its most frequent label on every document), and an empty reply.
A rubric point one of them earns is a point any reply earns."""

from __future__ import annotations

import json
from typing import Any

from ifforge.eval.floors import Baseline, Empty, most_frequent


def rendered(gold: Any) -> str:
    return gold if isinstance(gold, str) else json.dumps(gold, ensure_ascii=False)


class EchoInstruction(Baseline):
    id = "echo_instruction"
    description = "the task's instruction repeated back"

    def replies(self, row, turns):
        return [row.get("instruction") or ""]


class MostFrequentGold(Baseline):
    id = "most_frequent_gold"
    description = ("the task's most frequent gold answer; for a task whose gold labels each document, "
                   "its most frequent label on every document")

    def fit(self, rows):
        by_task: dict[str, list[Any]] = {}
        for row in rows:
            by_task.setdefault(row["task"], []).append(row["gold"])
        self.gold = {task: most_frequent(golds) for task, golds in by_task.items()}
        self.label = {task: most_frequent([v for g in golds for v in g.values()])
                      for task, golds in by_task.items() if all(isinstance(g, dict) for g in golds)}

    def replies(self, row, turns):
        if row["task"] in self.label and isinstance(row["gold"], dict):
            return [rendered({key: self.label[row["task"]] for key in row["gold"]})]
        return [rendered(self.gold[row["task"]])]


BASELINES = {kind.id: kind for kind in (Empty, EchoInstruction, MostFrequentGold)}
