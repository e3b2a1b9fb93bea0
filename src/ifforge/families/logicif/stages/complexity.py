"""Complexity stage: LogicIF's metrics of the exported function, then difficulty tiers by terciles."""

from __future__ import annotations

import sys

from ifforge.core.store import code_version
from ifforge.families.logicif.codeops.complexity import difficulty_tiers, measure
from ifforge.families.logicif.records import ExecutedFunction, MeasuredFunction, Outcome

STAGE = "complexity"
VERSION = code_version(sys.modules[__name__])  # with every ifforge module it reaches


def run(item: ExecutedFunction) -> Outcome[MeasuredFunction]:
    return Outcome(kept=MeasuredFunction(executed=item, complexity=measure(item.function.instrumented_source)))


def assign_tiers(items: list[MeasuredFunction]) -> list[MeasuredFunction]:
    """Tiers are relative to the run's own tasks, so they are set once all are measured."""
    if not items:
        return []
    tiers = difficulty_tiers({m.task_id: m.complexity.code_complexity_score for m in items})
    return [m.model_copy(update={"difficulty": tiers[m.task_id]}) for m in items]
