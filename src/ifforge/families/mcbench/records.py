"""MCBench's records: one metric with the pairs to score, and the gold the sandbox gave for them."""

from __future__ import annotations

from typing import Any

from ifforge.core.records import Record
from ifforge.families.mcbench.pairs import Pair


class MetricTask(Record):
    """One metric and every pair of the run: one sandbox call computes all its gold."""

    task_id: str  # the metric id
    pairs: list[Pair]


class GoldCase(Record):
    pair: Pair
    steps: list[Any]  # every step's value, from the sandbox; the last is the final value


class GoldMetric(Record):
    task_id: str
    code: str  # the program that was run
    cases: list[GoldCase]
