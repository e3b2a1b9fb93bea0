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


def reply_counts(results: list[dict[str, Any]], rows_known: bool = True) -> dict[str, Any]:
    """How many rows were answered, and why the others were not: absent from a replies file
    (`no_reply`, scored as no answer), a failed request (not scored), or unreadable (scored as no
    answer). `rows` is None when the results are not known to stand for every row."""
    def count(key: str) -> int:
        return sum(1 for result in results if result.get(key))

    missing, failed, unreadable = count("no_reply"), count("request_failed"), count("unreadable")
    return {"rows": len(results) if rows_known else None, "answered": len(results) - missing - failed - unreadable,
            "without_reply": missing + failed, "not_in_file": missing, "failed_requests": failed,
            "unreadable": unreadable}


def reply_lines(counts: dict[str, Any] | None) -> list[str]:
    """The report's word on the rows without a reply: every report says how many there were."""
    if not counts:
        return []
    why = [f"{counts['not_in_file']} not in the replies file: scored as wrong, no answer"] * bool(counts["not_in_file"])
    failed = f"{counts['failed_requests']} failed request" + "s" * (counts["failed_requests"] != 1)
    why += [f"{failed}: not scored"] * bool(counts["failed_requests"])
    unreadable = (f"; {counts['unreadable']} unreadable (scored as wrong, no answer: each one's reason is its "
                  "`unreadable` in responses.jsonl)") if counts["unreadable"] else ""
    if counts["rows"] is None:
        line = (f"**Replies:** {counts['answered']} answered{unreadable}"
                + (f"; {failed} (not scored)" if counts["failed_requests"] else "")
                + ". No benchmark given: the gold is the replies file's own, and rows without a reply are not known.")
    else:
        line = (f"**Replies:** {counts['answered']} of {counts['rows']} rows answered{unreadable}; "
                f"{counts['without_reply']} without a reply" + (f" ({'; '.join(why)})" if why else "") + ".")
    return [line, ""]


def unanswered_phrase(counts: dict[str, Any]) -> str:
    """What a headline adds when rows had no reply in a replies file."""
    if not counts.get("not_in_file"):
        return ""
    return f"; {counts['not_in_file']} of {counts['rows']} rows without a reply (scored as wrong)"


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
