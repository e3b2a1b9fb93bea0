"""The registry of every MCBench metric (the paper's 33), by id, in a fixed order."""

from __future__ import annotations

from ifforge.families.mcbench import metrics_edit, metrics_ngram, metrics_sets  # noqa: F401 - they register
from ifforge.families.mcbench.rubric import REGISTRY, Metric

METRICS: dict[str, type[Metric]] = dict(sorted(REGISTRY.items()))


def get(metric_id: str) -> type[Metric]:
    try:
        return METRICS[metric_id]
    except KeyError:
        raise KeyError(f"unknown metric {metric_id!r} (metrics: {', '.join(METRICS)})") from None
