"""Complexity stage: LogicIF's metrics of the exported function (tiers: see `difficulty`).

Measured on the row's `function`, the self-contained form, as LogicIF's release measures its own
function text (its helpers and imports sit inside f too)."""

from __future__ import annotations


from ifforge.families.logicif.codeops.metrics.complexity_metrics import measure
from ifforge.families.logicif.records import ExecutedFunction, MeasuredFunction, Outcome

STAGE = "complexity"


def run(item: ExecutedFunction) -> Outcome[MeasuredFunction]:
    return Outcome(kept=MeasuredFunction(executed=item, complexity=measure(item.exported_source)))

