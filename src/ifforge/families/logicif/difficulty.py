"""Difficulty tiers and the mini split, set once a run's tasks are all measured.

A tier is a third of the run's tasks ranked by a score the user picks (`tier_rule`):
- `static`: LogicIF's code complexity score of the function (its paper's rule);
- `executed`: the lines of the function a case executes in the sandbox, averaged over its cases
  (what a model has to simulate);
- `combined`: the mean of the two percentile ranks.
The mini split keeps a task when a hash of its own id (and `sample_seed`) falls under the share:
adding or dropping other tasks never changes whether a task is in it.
"""

from __future__ import annotations

import hashlib
import math
from statistics import mean
from typing import Literal

from ifforge.families.logicif.records import MeasuredFunction

TierRule = Literal["static", "executed", "combined"]


def executed_steps(item: MeasuredFunction) -> float | None:
    """Mean lines executed per case, or None when no case was counted (e.g. an older cache)."""
    counted = [case.steps for case in item.executed.cases if case.steps is not None]
    return round(mean(counted), 2) if counted else None


def _percentile_ranks(values: dict[str, float]) -> dict[str, float]:
    """0 for the lowest value, 1 for the highest; ties share their mean rank."""
    ordered = sorted(values.values())
    if len(ordered) < 2:
        return {key: 0.5 for key in values}
    first = {}
    for position, value in enumerate(ordered):
        first.setdefault(value, []).append(position)
    return {key: mean(first[value]) / (len(ordered) - 1) for key, value in values.items()}


def tier_scores(items: list[MeasuredFunction], rule: TierRule) -> dict[str, float]:
    """The score each task is ranked by. A task with no counted steps takes its static rank."""
    return scores_by_rule({m.task_id: m.complexity.code_complexity_score for m in items},
                          {m.task_id: executed_steps(m) for m in items}, rule)


def scores_by_rule(static: dict[str, float], steps: dict[str, float | None], rule: TierRule) -> dict[str, float]:
    """`tier_scores` from each task's static score and executed steps (what an export keeps of a task)."""
    if rule == "static":
        return static
    static_rank = _percentile_ranks(static)
    known = {key: value for key, value in steps.items() if value is not None}
    step_rank = {**static_rank, **_percentile_ranks(known)} if known else static_rank
    if rule == "executed":
        return step_rank
    return {key: (static_rank[key] + step_rank[key]) / 2 for key in static}


def tiers(items: list[MeasuredFunction], rule: TierRule) -> dict[str, str]:
    return difficulty_tiers(tier_scores(items, rule)) if items else {}


def assign_tiers(items: list[MeasuredFunction], rule: TierRule = "static") -> list[MeasuredFunction]:
    """Tiers are relative to the run's own tasks, so they are set once all are measured."""
    found = tiers(items, rule)
    return [m.model_copy(update={"difficulty": found[m.task_id]}) for m in items]


def difficulty_tiers(scores: dict[str, float]) -> dict[str, str]:
    """Split tasks into easy / medium / hard thirds by score (rank-based, so ties stay together)."""
    ordered = sorted(scores.items(), key=lambda item: (item[1], item[0]))
    n = len(ordered)
    tiers: dict[str, str] = {}
    for rank, (task_id, _) in enumerate(ordered):
        tiers[task_id] = ("easy", "medium", "hard")[min(2, rank * 3 // n)]
    # keep equal scores in one tier: a task takes the lowest tier any task of its score got
    lowest: dict[float, str] = {}
    order = {"easy": 0, "medium": 1, "hard": 2}
    for task_id, score in ordered:
        if score not in lowest or order[tiers[task_id]] < order[lowest[score]]:
            lowest[score] = tiers[task_id]
    return {task_id: lowest[score] for task_id, score in ordered}


def spearman(first: dict[str, float], second: dict[str, float | None]) -> float | None:
    """Rank correlation of two scores over the tasks both have (None with fewer than 3)."""
    keys = [key for key in first if second.get(key) is not None]
    if len(keys) < 3:
        return None
    a = _percentile_ranks({key: first[key] for key in keys})
    b = _percentile_ranks({key: second[key] for key in keys})
    mean_a, mean_b = mean(a.values()), mean(b.values())
    covariance = sum((a[k] - mean_a) * (b[k] - mean_b) for k in keys)
    spread = math.sqrt(sum((a[k] - mean_a) ** 2 for k in keys) * sum((b[k] - mean_b) ** 2 for k in keys))
    return round(covariance / spread, 3) if spread else None


def in_mini(task_id: str, fraction: float, seed: int) -> bool:
    """Whether a task is in the mini split: its own hash decides, never the other tasks."""
    digest = hashlib.sha256(f"{seed}\0{task_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < fraction
