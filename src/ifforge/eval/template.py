"""The one evaluate, for every family: ask the rows, score the replies, summarise, write the report.

A family fills the hooks of a `Scorer` (what a row carries and how it is asked, its verdict frame,
the numbers of a part of that frame, its report's sections, plots and headline); the steps and
their order, the files written and what goes back to the flow are this module's alone. Requests
that failed are never answers: the family's frame marks them, and its numbers leave them out.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ifforge.core.store import atomic_write
from ifforge.eval.asking import Asker, ask_prompt, start_asking, take_early, write_results
from ifforge.eval.evaluation import finish_run
from ifforge.eval.report import pyplot, reply_counts, reply_lines, run_lines, table_lines, unanswered_phrase

if TYPE_CHECKING:
    import pandas as pd

    from ifforge.core.llm_client import LLM

Row = dict[str, Any]


def scalars(row: Row) -> Row:
    """A summary row without its lists and objects: what a table artifact can show."""
    return {key: value for key, value in row.items() if not isinstance(value, (list, dict))}


class Scorer:
    """A family's part of evaluate. Set the attributes and implement `frame`, `scores` (or
    `summarise`) and `line` (or `sections`); the other hooks have defaults most families keep."""

    name: str = ""  # the report's title starts with it ("PACIFIC: ...")
    preface: str = ""  # a paragraph between the title and the run's facts
    carried: tuple[str, ...] = ("task_id",)  # row fields kept beside each reply (what `frame` reads)
    answers: tuple[str, ...] = ("response",)  # reply fields: a reply scored elsewhere (`ifforge score`) has one
    keys: tuple[str, ...] = ("task_id",)  # what names a reply's row in its benchmark
    needs_rows: bool = False  # `frame` reads the benchmark's rows, not only what the replies carry
    scores_unreadable: bool = False  # `frame` scores a reply whose own gold could not be read (`unreadable`)
    failed: Row | None = None  # the reply fields a failed request gets in their place
    groups: tuple[str, ...] = ()  # frame columns the summary breaks down by, as `by_<column>`
    empty: Row = {}  # the overall numbers when nothing was scored
    columns: tuple[str, ...] = ()  # the header of the report's table (overall, then every group value)
    headline_shares: tuple[tuple[str, str], ...] = ()  # (label, key in `overall`) of the headline's shares

    # ---- hooks ------------------------------------------------------------------------------------
    def carry(self, row: Row) -> Row:
        """What a reply keeps of its row (its family too, so `responses.jsonl` can be scored again)."""
        return {key: row[key] for key in ("family", *self.carried) if key in row}

    def key(self, row: Row) -> str:
        """A row's or a reply's `keys`, as one comparable text."""
        return json.dumps([row.get(key) for key in self.keys], sort_keys=True, default=str)

    def identity(self, row: Row) -> str:
        """What makes a row (or a reply) one of its own: two with one identity are one row asked or
        answered twice, which would count twice. By default its `keys`."""
        return self.key(row)

    async def ask(self, llm: LLM, row: Row, settings) -> Row:
        """One row's reply fields (`response` and usage); by default its one prompt."""
        return await ask_prompt(llm, row, settings.system_prompt)

    def warm_up(self) -> None:
        """Import, while the replies come, what scoring first imports when it runs (pyarrow for
        the verdicts' parquet, matplotlib for a family that draws): seconds on a loaded machine
        that would otherwise come after the last answer."""
        import pyarrow.parquet  # noqa: F401

        if type(self).plots is not Scorer.plots:
            pyplot()

    def refine(self, results: list[Row], rows: list[Row], settings, asker: Asker) -> None:
        """Work on the replies before they are scored (LogicIF: an LLM finds answers the rules missed)."""

    def frame(self, results: list[Row], rows: list[Row], settings) -> pd.DataFrame:
        """The verdicts: one line per reply (or per part of one), with `request_failed`."""
        raise NotImplementedError

    def annotate(self, results: list[Row], frame: pd.DataFrame, rows: list[Row], settings,
                 asker: Asker | None, folder: Path) -> Row:
        """Findings beyond the verdicts, written beside the report; returns what the summary gains
        (`asker` is None when replies made elsewhere are scored: no model to ask)."""
        return {}

    def scores(self, part: pd.DataFrame) -> Row:
        """The numbers of a part of the frame (all of it, or one group's)."""
        raise NotImplementedError

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
        raise NotImplementedError

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

    # ---- the template -------------------------------------------------------------------------------
    def evaluate(self, rows: list[Row], settings, cache_path: Path | None, folder: Path, title: str,
                 on_done: Callable[[], None] | None = None, run: Row | None = None) -> Row:
        """Ask a model every row, then `score`; `run` holds the run's facts for the report. Every
        request of the run goes through one `Asker` (its hub, limits, cache and ledger): the one
        `ifforge evaluate` started asking with before the flow, when the run's fingerprint is its."""
        early = take_early((run or {}).get("fingerprint"))
        if early is not None:  # the CLI started asking while Prefect started
            asker, asking = early.take(on_done)
        else:
            asker = Asker(settings, cache_path)
            asking = start_asking(rows, asker, self.carry, lambda llm, row: self.ask(llm, row, settings),
                                  self.failed, on_done)
        with asker:
            self.warm_up()
            results = asking.result()
            self.refine(results, rows, settings, asker)
            return self.score(results, rows, settings, folder, title, finish_run(run, results, settings), asker)

    def score(self, results: list[Row], rows: list[Row], settings, folder: Path, title: str,
              run: Row | None = None, asker: Asker | None = None, rows_known: bool = True) -> Row:
        """Score replies (asked here, or elsewhere: `ifforge score`), keep them and their verdicts
        beside the report (and the requests sent, `llm_calls.jsonl`, with their usage per stage in
        the run's facts); return the summary with `request_failures`, `headline` and `table`.
        `rows_known`: the results stand for every row of the benchmark (False: replies scored
        without their benchmark, which alone could say which rows have no reply)."""
        frame = self.frame(results, rows, settings)
        notes = self.annotate(results, frame, rows, settings, asker, folder)
        notes = {**notes, "replies": reply_counts(results, rows_known)}
        write_results(folder, [r for r in results if not r.get("no_reply")], frame, asker.calls() if asker else None)
        if asker is not None:
            run = {**(run or {}), "llm": asker.usage()}
        summary = self.write_report(frame, folder, title, run, notes)
        summary["request_failures"] = sum(1 for result in results if result.get("request_failed"))
        summary["headline"] = self.headline(summary) + unanswered_phrase(summary["replies"])
        summary["table"] = self.table(summary)
        return summary

    def write_report(self, frame: pd.DataFrame, folder: Path, title: str, run: Row | None = None,
                     notes: Row | None = None) -> Row:
        """report.json, report.md and the plots in `folder` (each written whole); returns the summary."""
        summary = {**self.summarise(frame), **(notes or {})}
        folder.mkdir(parents=True, exist_ok=True)
        drawn = self.plots(summary, folder)
        if drawn is not None:
            summary["plots"] = [path.name for path in drawn]
        atomic_write(folder / "report.json", json.dumps({"title": title, "run": run or {}, **summary}, indent=2) + "\n")
        atomic_write(folder / "report.md", self.markdown(summary, title, run or {}))
        return summary

    def markdown(self, summary: Row, title: str, run: Row) -> str:
        lines = [f"# {self.name}: {title}" if self.name else f"# {title}", ""]
        if self.preface:
            lines += [self.preface, ""]
        return "\n".join(lines + run_lines(run) + reply_lines(summary.get("replies")) + self.sections(summary)) + "\n"
