"""A family's report: its numbers (metrics over the verdicts, overall and by group) and how its
report shows them, declared once (`Family.report`); and the report itself, written here once for
every family, in the same sections: the headline (each headline score with its counts and 95%
interval), the replies, the floors beside the model's score, the scores overall and by group, the
plots (each score by group with its intervals, `eval.plots`), the family's own sections, the notes,
the run's facts and the files beside the report.

Evaluate, `ifforge score`, compare, the exports and the floors all take a family's numbers from its
`Report`, computed from the one frame of its verdicts (`Verdict.lines`), so none of them counts
differently. A family keeps the defaults it can: the share of rows `correct`, overall and by group.
A family declares its scores (`headline_shares`, `metrics`), groups (`groups`, `tables`), plots
(`drawn`) and any extra section (`sections`, `extra_plots`); it never writes the report's frame.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from ifforge.eval.intervals import figure, shown, wilson
from ifforge.eval.plots import PLOTS_FILE, Plot, draw, floor_text, points, write_plots_json

Row = dict[str, Any]
INTERVALS = ("Intervals: 95%; Wilson for shares (counts shown as right/total), Student's t over samples for "
             "means of per-sample scores (n shown).")
FILES = {"responses.jsonl": "every reply, as asked and answered", "scores.parquet": "every verdict line",
         "llm_calls.jsonl": "every request sent", "report.json": "every number of this report",
         PLOTS_FILE: "the numbers each plot draws, with their interval bounds"}


class Report:
    """A family's numbers and their report. By default: rows answered and the share `correct`
    (each verdict line's column of that name), overall and by `groups`, in one table."""

    name: str = ""  # the report's title starts with it ("PACIFIC: ...")
    preface: str = ""  # a paragraph between the headline and the replies
    groups: tuple[str, ...] = ()  # verdict columns the summary breaks down by, as `by_<column>`
    metrics: dict[str, str | Callable[[Row], float]] = {"accuracy": "accuracy"}  # the headline numbers exports
    # and floors give, by name: a key of `scores`, or a function of them
    empty: Row = {"rows": 0, "request_failures": 0}  # the overall numbers when nothing was scored
    columns: tuple[str, ...] = ("group", "rows", "correct", "failed requests")  # the report table's header
    headline_shares: tuple[tuple[str, str], ...] = (("accuracy", "accuracy"),)  # (label, key): the headline's
    # scores, each a share (`<key>_counts`) or a mean (`<key>_n`) with its interval (`<key>_ci95`)
    tables: tuple[str, ...] | None = None  # the summary's `by_<key>` tables the report shows (None: `groups`)
    titles: dict[str, str] = {}  # a table's heading by its key (default: "By <key>")
    drawn: tuple[Plot, ...] | None = None  # the plots (None: the first headline score by every table's groups)

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
                "accuracy_counts": [right, total], "accuracy_ci95": wilson(right, total),
                "request_failures": int(failed.sum())}

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

    # ---- what a family may change: a table's line, its notes, its own sections and plots ----------
    def line(self, label: str, row: Row) -> str:
        """One line of the report's table: a group's numbers."""
        total = row.get("rows", 0)
        return f"| {label} | {total} | {shown(row.get('right', 0), total)} | {row.get('request_failures', 0)} |"

    def notes(self, summary: Row) -> list[str]:
        """What the table's numbers mean, written under the scores."""
        return []

    def sections(self, summary: Row) -> list[str]:
        """The family's own sections (each `## ...` with its lines), after the plots; none by default."""
        return []

    def extra_plots(self, summary: Row, folder: Path, model: str) -> list[Row]:
        """The family's own plots beyond its scores by group: each an entry of `plots.json` with
        its `file` (drawn in `folder`) and `title`; none by default."""
        return []

    def headline_extra(self, summary: Row) -> str:
        """What the headline adds after its scores (LIFBench: stability); nothing by default."""
        return ""

    def compare_lines(self, reports: list[Row]) -> list[str]:
        """Several runs' report.json side by side (`ifforge compare`): by default each run's overall
        line of its own report, under the report's header, the run's title in the first column."""
        return table_lines(("model", *self.columns[1:]),
                           [self.line(str(report.get("title", "?")), report["overall"]) for report in reports])

    # ---- the report, the same for every family ------------------------------------------------------
    def shown_tables(self) -> tuple[str, ...]:
        return self.groups if self.tables is None else self.tables

    def plotted(self) -> tuple[Plot, ...]:
        """The plots drawn: the declared ones, else the first headline score by every table's groups."""
        if self.drawn is not None:
            return self.drawn
        label, key = self.headline_shares[0]
        return tuple(Plot(group, key, group) for group in self.shown_tables())

    def headline_figures(self, summary: Row) -> list[tuple[str, str]]:
        """(label, `62.5% (25/40) [46.1-76.3]`) of every headline score, overall."""
        overall = summary["overall"]
        return [(label, figure(overall, key)) for label, key in self.headline_shares]

    def headline(self, summary: Row) -> str:
        """One line for the flow's log: every headline score with its counts and interval."""
        failures = summary["overall"].get("request_failures") or 0
        extra = self.headline_extra(summary)
        return (", ".join(f"{label} {text}" for label, text in self.headline_figures(summary))
                + (f", {extra}" if extra else "") + (f", {failures} failed requests not scored" if failures else ""))

    def table(self, summary: Row) -> list[Row]:
        """Rows of the table artifact: overall, then one per group value, each headline score as
        the report shows it (rounded once, with its counts and interval)."""
        def row(label: str, numbers: Row) -> Row:
            return {"group": label, **{name: figure(numbers, key) for name, key in self.headline_shares},
                    "failed requests": numbers.get("request_failures", 0)}

        return [row("overall", summary["overall"])] + [
            row(f"{key}={value}", numbers) for key in self.shown_tables()
            for value, numbers in (summary.get(f"by_{key}") or {}).items()]

    def plots(self, summary: Row, folder: Path, model: str = "") -> list[Path]:
        """The headline's plot, every declared plot with something scored, then the family's own,
        drawn in `folder`; their numbers in `plots.json`. A plot of no group with a score is not drawn."""
        model = model or "the model"
        entries = self.headline_plot(summary, folder, model)
        measures = {key: label for label, key in self.headline_shares}
        for plot in self.plotted():
            found = points(summary.get(f"by_{plot.group}") or {}, plot.key)
            if not found:
                continue
            measure = plot.measure or measures.get(plot.key, plot.key)
            title = plot.title or f"{measure} by {plot.label}"
            floors = self.floors_of(summary, plot.key)
            share = bool(summary["overall"].get(f"{plot.key}_counts"))  # counted right/total, else a mean score
            path = draw(found, folder / f"{plot.key}_by_{plot.group}.png", title, model, plot.label, measure, floors,
                        share)
            entries.append({"file": path.name, "title": title, "model": model, "group": plot.group,
                            "score": plot.key, "floors": floors, "points": found,
                            "floors_shown": {name: floor_text(value, share) for name, value in floors.items()}})
        entries += self.extra_plots(summary, folder, model)
        if entries:
            write_plots_json(folder, entries)
        return [folder / entry["file"] for entry in entries]

    def headline_plot(self, summary: Row, folder: Path, model: str) -> list[Row]:
        """The headline scores overall, each with its interval and the floors on its metric."""
        found = [{**point, "floors": self.floors_of(summary, key)} for label, key in self.headline_shares
                 for point in points({label: summary["overall"]}, key)]
        if not found:
            return []
        title = "Headline scores, overall, beside the floors"
        path = draw(found, folder / "headline.png", title, model, "", "score")
        return [{"file": path.name, "title": title, "model": model, "group": "headline", "score": "headline",
                 "points": found}]

    def floors_of(self, summary: Row, key: str) -> dict[str, float]:
        """Each floor's overall score on the metric that is `key`, by baseline."""
        names = [name for name, metric in self.metrics.items() if metric == key]
        baselines = (summary.get("floors") or {}).get("baselines") or {}
        return {baseline: entry["scores"][names[0]] for baseline, entry in baselines.items()
                if names and names[0] in entry["scores"]}

    def markdown(self, summary: Row, title: str, run: Row, files: dict[str, str] | None = None) -> str:
        """The report: the same sections for every family, in the same order (`files`: the files
        beside it, `files_beside`)."""
        lines = [f"# {self.name}: {title}" if self.name else f"# {title}", ""]
        lines += headline_lines(self.headline_figures(summary), self.headline_extra(summary), run.get("model"))
        if self.preface:
            lines += [self.preface, ""]
        lines += reply_lines(summary.get("replies"))
        lines += ["## Floors", "", *floor_lines(self, summary, run.get("model")), ""]
        lines += ["## Scores", "", *self.score_tables(summary)]
        notes = self.notes(summary)
        lines += ["", *notes, ""] if notes else [""]
        if summary.get("plots"):
            images = [(f"![{Path(name).stem}]({name})", "") for name in summary["plots"]]
            lines += ["## Plots", "", *(line for image in images for line in image)]
        own = "\n".join(self.sections(summary)).strip("\n")
        lines += [own, ""] if own else []
        lines += run_lines(run)
        lines += file_lines(files)
        return "\n".join(lines).rstrip("\n") + "\n"

    def score_tables(self, summary: Row) -> list[str]:
        """Overall, then a table per group: each line the family's `line`."""
        lines = ["### Overall", "", *table_lines(self.columns, [self.line("overall", summary["overall"])])]
        for key in self.shown_tables():
            rows = summary.get(f"by_{key}")
            if rows:
                lines += ["", f"### {self.titles.get(key, f'By {key}')}", "",
                          *table_lines(self.columns, [self.line(str(value), row) for value, row in rows.items()])]
        return lines


def headline_lines(figures: list[tuple[str, str]], extra: str, model: str | None) -> list[str]:
    """The headline: every headline score with its counts and interval, and how they are computed."""
    who = f" ({model})" if model else ""
    lines = [f"**Headline{who}:**", ""] + [f"- {label}: **{text}**" for label, text in figures]
    return lines + ([f"- {extra}"] if extra else []) + ["", INTERVALS, ""]


def floor_lines(report: Report, summary: Row, model: str | None = None) -> list[str]:
    """The model's headline metrics beside what each trivial baseline scores on the same rows, by
    the family's own check (`eval.floors`); a metric named as the headline names its score."""
    found = summary.get("floors")
    if not found or not found.get("baselines"):
        why = (found or {}).get("not_computed") or "no benchmark rows to judge the baselines on"
        return [f"Not computed: {why}."]
    overall, names = summary["overall"], list(report.metrics)

    def model_cell(name: str) -> str:
        key = report.metrics[name]
        if callable(key):
            value = key(overall)
            return "-" if value is None else f"{value:.1%}"
        return figure(overall, key)

    def floor_cell(name: str, value: float | None) -> str:
        if value is None:
            return ""
        key = report.metrics[name]
        return f"{value:.1%}" if callable(key) or overall.get(f"{key}_counts") else f"{value:.3f}"

    labels = {key: label for label, key in report.headline_shares}
    header = [f"{labels[report.metrics[name]]} (`{name}`)" if report.metrics[name] in labels else f"`{name}`"
              for name in names]
    lines = table_lines(("", *header, "rows passed"), [
        f"| **{model or 'the model'}** | " + " | ".join(model_cell(name) for name in names) + " | |"])
    for key, entry in found["baselines"].items():
        lines.append(f"| `{key}`: {entry['description']} | "
                     + " | ".join(floor_cell(name, entry["scores"].get(name)) for name in names)
                     + f" | {entry['rows_passed']} of {found['rows']} |")
    passed = found.get("trivially_passed") or {}
    return lines + ["", f"Floors: the trivial baselines the benchmark's card lists, each fit to and judged by the "
                        f"family's own check on the same {found['rows']} rows the model was asked (by the same rules); "
                        f"some baseline passes {passed.get('rows', 0)} of those rows ({passed.get('share', 0):.1%})."]


def files_beside(folder: Path, summary: Row, links: dict[str, str] | None = None) -> dict[str, str]:
    """The files in `folder` a reader of the report opens, each with what it holds; `links` adds
    others (a sample viewer writing `samples.html` names it here), listed whether or not written yet."""
    files = {**FILES, **{name: "a plot (its numbers in plots.json)" for name in summary.get("plots") or []}}
    return {**{name: what for name, what in files.items() if (folder / name).is_file()}, **(links or {})}


def file_lines(files: dict[str, str] | None) -> list[str]:
    """The report's last section: the files beside it, linked."""
    if not files:
        return []
    return ["## Files", "", *(f"- [{name}]({name}): {what}" for name, what in files.items())]


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
