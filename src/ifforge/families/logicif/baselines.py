"""LogicIF's trivial baselines (see `eval.floors`): the input given back as the output, a constant
(0 for the output and every tracker), the most frequent gold output and trackers, and an empty reply."""

from __future__ import annotations

import json
from typing import Any

from ifforge.core.registry import Registry
from ifforge.eval.baselines import Baseline, Empty, Tally


def answer(output: Any, stats: dict[str, Any]) -> list[str]:
    return [json.dumps({"output": output, "stats": stats}, ensure_ascii=False)]


def _input(row: dict[str, Any]) -> Any:
    value = row["input"]
    return value[0] if isinstance(value, list) and len(value) == 1 else value


class EchoInput(Baseline):
    id = "echo_input"
    description = "the function's input as its output, every tracker 0"

    def replies(self, row, turns):
        return answer(_input(row), {key: 0 for key in row["code_output"]["stats"]})


class Zeros(Baseline):
    id = "constant"
    description = "0 as the output and as every tracker"

    def replies(self, row, turns):
        return answer(0, {key: 0 for key in row["code_output"]["stats"]})


class MostFrequentGold(Baseline):
    id = "most_frequent_gold"
    description = "the most frequent gold output, and each tracker's most frequent gold value, of the benchmark"

    def fit(self, rows):
        output, stats = Tally(), {}
        for row in rows:  # once: the rows may be read from a file
            output.add(row["code_output"]["output"])
            for key, value in row["code_output"]["stats"].items():
                stats.setdefault(key, Tally()).add(value)
        self.output = output.most_frequent()
        self.stats = {key: tally.most_frequent() for key, tally in stats.items()}

    def replies(self, row, turns):
        return answer(self.output, {key: self.stats.get(key, 0) for key in row["code_output"]["stats"]})


BASELINES = Registry("baseline", (Empty, EchoInput, Zeros, MostFrequentGold))
