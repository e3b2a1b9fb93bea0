"""A family's report: its numbers (metrics over the verdicts, overall and by group) and how its
report shows them, declared once (`Family.report`); and what every report shares: the run's facts,
tables, stability across groups, figures.

Evaluate, `ifforge score`, compare, the exports and the floors all take a family's numbers from its
`Report`, computed from the one frame of its verdicts (`Verdict.lines`), so none of them counts
differently. A family keeps the defaults it can: the share of rows `correct`, overall and by group.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from ifforge.core.store.versions import atomic_path
from ifforge.eval.intervals import shown, wilson

Row = dict[str, Any]


def scalars(row: Row) -> Row:
    """A summary row without its lists and objects: what a table artifact can show."""
    return {key: value for key, value in row.items() if not isinstance(value, (list, dict))}


class Report:
    """A family's numbers and their report. By default: rows answered and the share `correct`
    (each verdict line's column of that name), overall and by `groups`, in one table."""

    name: str = ""  # the report's title starts with it ("PACIFIC: ...")
    preface: str = ""  # a paragraph between the title and the run's facts
    groups: tuple[str, ...] = ()  # verdict columns the summary breaks down by, as `by_<column>`
    metrics: dict[str, str | Callable[[Row], float]] = {"accuracy": "accuracy"}  # the headline numbers exports
    # and floors give, by name: a key of `scores`, or a function of them
    empty: Row = {"rows": 0, "request_failures": 0}  # the overall numbers when nothing was scored
    columns: tuple[str, ...] = ("group", "rows", "correct", "failed requests")  # the report table's header
    headline_shares: tuple[tuple[str, str], ...] = (("accuracy", "accuracy"),)  # (label, key) for the log's line

    def frame(self, lines: list[Row] | dict[str, list]) -> pd.DataFrame:
        """The verdict lines (or their columns) as one frame; a family whose verdicts depend on
        other rows settles them here."""
        return pd.DataFrame(lines)

    def scores(self, part: pd.DataFrame) -> Row:
        """The numbers of a part of the frame (all of it, or one group's): failed requests apart."""
        failed = part["request_failed"].astype(bool)
        answered = part[~failed]
        right, total = int(answered["correct"].sum()), len(answered)
        return {"rows": total, "right": right, "accuracy": round(right / total, 4) if total else None,
                "accuracy_ci95": wilson(right, total), "request_failures": int(failed.sum())}

    def numbers(self, frame: pd.DataFrame) -> dict[str, float]:
        """The headline `metrics` of a frame of verdicts: what exports and floors report."""
        if frame.empty:
            return {}
        scores = self.scores(frame)
        return {name: (key(scores) if callable(key) else scores.get(key)) or 0.0 for name, key in self.metrics.items()}

    def summarise(self, frame: pd.DataFrame) -> Row:
        """Every table of the report as plain data: `overall`, then `by_<group>` per group."""
        if frame.empty:
            return {"overall": dict(self.empty)}
        summary: Row = {"overall": self.scores(frame)}
        for key in self.groups:
            summary[f"by_{key}"] = {str(value): self.scores(part) for value, part in frame.groupby(key)}
        return summary

    def line(self, label: str, row: Row) -> str:
        """One line of the report's table: a group's numbers."""
        total = row.get("rows", 0)
        return f"| {label} | {total} | {shown(row.get('right', 0), total)} | {row.get('request_failures', 0)} |"

    def notes(self, summary: Row) -> list[str]:
        """What the table's numbers mean, written under it."""
        return []

    def sections(self, summary: Row) -> list[str]:
        """The report's markdown lines after the run's facts: by default one table (overall, then
        every group value), and the notes under it."""
        labelled = [("overall", summary["overall"])] + [(f"{key} = {value}", row) for key in self.groups
                                                        for value, row in summary.get(f"by_{key}", {}).items()]
        notes = self.notes(summary)
        return table_lines(self.columns, [self.line(label, row) for label, row in labelled]) + (
            ["", *notes] if notes else [])

    def plots(self, summary: Row, folder: Path) -> list[Path] | None:
        """PNG files drawn in `folder` (listed in report.json); None for a family that draws none."""
        return None

    def headline(self, summary: Row) -> str:
        """One line for the flow's log: by default the overall shares named in `headline_shares`."""
        overall = summary["overall"]
        return ", ".join(f"{label} {overall.get(key) or 0:.1%}" for label, key in self.headline_shares)

    def table(self, summary: Row) -> list[Row]:
        """Rows of the table artifact: one per group value."""
        return [{"group": f"{key}={value}", **scalars(row)}
                for key in self.groups for value, row in summary.get(f"by_{key}", {}).items()]

    def compare_lines(self, reports: list[Row]) -> list[str]:
        """Several runs' report.json side by side (`ifforge compare`): by default each run's overall
        line of its own report, under the report's header, the run's title in the first column."""
        return table_lines(("model", *self.columns[1:]),
                           [self.line(str(report.get("title", "?")), report["overall"]) for report in reports])

    def markdown(self, summary: Row, title: str, run: Row) -> str:
        lines = [f"# {self.name}: {title}" if self.name else f"# {title}", ""]
        if self.preface:
            lines += [self.preface, ""]
        return "\n".join(lines + run_lines(run) + reply_lines(summary.get("replies")) + self.sections(summary)) + "\n"


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
    why += [f"{failed}: {counts.get('failed_because', 'why not recorded')}; not scored"] * bool(counts["failed_requests"])
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
    # lazy on purpose: matplotlib (heavy), only for a family that draws
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
