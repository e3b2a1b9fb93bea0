"""What every family's report shares: the run's facts, tables, stability across groups, figures.

Each family's own tables and plots are its `Scorer`'s (see `eval.template`); these are the parts
they would otherwise write again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from ifforge.core.store import atomic_path


def run_lines(run: dict[str, Any]) -> list[str]:
    """The run's facts: what was asked, where, when, and what it cost."""
    if not run:
        return []
    lines = ["## Run", ""]
    for key in ("family", "results", "benchmark", "benchmark_sha256", "split", "expressions", "limit", "model", "server", "started",
                "finished", "run_folder"):
        if run.get(key) is not None:
            lines.append(f"- {key}: {run[key]}")
    tokens = run.get("tokens") or {}
    if tokens:
        lines.append(f"- tokens: {tokens.get('prompt', 0):,} prompt, {tokens.get('completion', 0):,} completion "
                     f"({tokens.get('cached_requests', 0)} of {tokens.get('requests', 0)} requests from the cache)")
    if run.get("cost_usd") is not None:
        lines.append(f"- cost: ${run['cost_usd']:.4f} at the prices given (cached replies counted as asked)")
    if run.get("parameters"):
        shown_parameters = ", ".join(f"{k}={v}" for k, v in sorted(run["parameters"].items()) if v is not None)
        lines.append(f"- parameters: {shown_parameters}")
    return lines + [""]


def table_lines(header: list[str] | tuple[str, ...], lines: list[str]) -> list[str]:
    """A markdown table: the header, its rule, and the lines given (each already `| a | b |`)."""
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header), *lines]


def variation(frame: pd.DataFrame, unit: str, groups: str, score: str, ddof: int = 0) -> tuple[pd.Series, pd.Series]:
    """LIFBench's stability, for any family: per `unit` (a task), the mean `score` of each value of
    `groups` (an expression, a length, ...), then std / mean across those values (`ddof=1`: the
    sample standard deviation, as LIFBench's Eq. 6). Returns the coefficients of variation of the
    units whose mean is above 0, and every unit's mean."""
    per_group = frame.groupby([unit, groups])[score].mean().unstack()
    means, spread = per_group.mean(axis=1), per_group.std(axis=1, ddof=ddof)
    scored = means > 0
    return spread[scored] / means[scored], means


def pyplot():
    """matplotlib's pyplot on the file-only backend (no display on a server)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(figure, path: Path, dpi: int) -> Path:
    """A figure as a PNG, written whole, then closed."""
    figure.tight_layout()
    with atomic_path(path) as temporary:
        figure.savefig(temporary, dpi=dpi, format="png")
    pyplot().close(figure)
    return path
