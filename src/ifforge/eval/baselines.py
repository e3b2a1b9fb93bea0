"""Trivial answerers, the floors' building blocks: a family declares its own (`Family.baselines`),
one small class per baseline, as IFEval declares one class per rule.

A baseline writes a reply to every row without reading the gold of that row (it may read the row's
input, and the gold of all rows together, as "the most frequent gold" does)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

Row = dict[str, Any]


class Baseline:
    """A trivial answerer. `fit` sees every row once (for baselines built from all the gold, such as
    the most frequent one); `replies` answers one row, one reply per user turn."""

    id: str = ""
    description: str = ""

    def fit(self, rows: list[Row]) -> None:
        """Learn from all rows at once (default: nothing)."""

    def replies(self, row: Row, turns: tuple[str, ...]) -> list:
        raise NotImplementedError


class Empty(Baseline):
    id = "empty"
    description = "an empty reply to every turn"

    def replies(self, row: Row, turns: tuple[str, ...]) -> list:
        return ["" for _ in turns]


class Tally:
    """Values counted one at a time (compared as JSON), for a fit that reads the rows once."""

    def __init__(self):
        self.counts: Counter[str] = Counter()

    def add(self, value: Any) -> None:
        self.counts[json.dumps(value, sort_keys=True, ensure_ascii=False)] += 1

    def most_frequent(self) -> Any:
        """The most frequent value (the first seen wins a tie), or None."""
        return json.loads(self.counts.most_common(1)[0][0]) if self.counts else None


def most_frequent(values) -> Any:
    """The most frequent value (compared as JSON; the first seen wins a tie), or None."""
    tally = Tally()
    for value in values:
        tally.add(value)
    return tally.most_frequent()
