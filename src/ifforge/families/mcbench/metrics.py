"""The registry of every MCBench metric (the paper's 33), by id, in a fixed order."""

from __future__ import annotations

from ifforge.families.mcbench import metrics_edit, metrics_ngram, metrics_sets  # noqa: F401 - they register
from ifforge.core.registry import Registry
from ifforge.families.mcbench.rubric import REGISTRY, Metric

METRICS: Registry[type[Metric]] = Registry("metric", sorted(REGISTRY.values(), key=lambda metric: metric.id))


def get(metric_id: str) -> type[Metric]:
    return METRICS[metric_id]
