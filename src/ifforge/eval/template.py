"""The one evaluate, for every family: ask the rows, judge the replies, summarise, write the report.

A family says what each row is sent (`Family.request`), how a reply is judged (`Family.check`, one
`Verdict` whose lines are the frame every number comes from) and how its report reads
(`Family.report`); the steps and their order, the files written and what goes back to the flow
are this module's alone. Requests that failed are never answers: the family's lines mark them,
and its numbers leave them out.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ifforge.core.store.versions import atomic_write
from ifforge.eval.asking import (Asker, failure_reasons, failures_line, reasons_text, start_asking, take_early,
                                 write_results)
from ifforge.eval.evaluation import check_rows, finish_run
from ifforge.eval.floors import beside_a_report
from ifforge.eval.plots import pyplot
from ifforge.eval.report import Report, files_beside, reply_counts, unanswered_phrase
from ifforge.eval.viewer import write_viewer
from ifforge.families.base import Family, Reply, Verdict

if TYPE_CHECKING:
    import pandas as pd

Row = dict[str, Any]


def evaluate(family: Family, rows: list[Row], settings, cache_path: Path | None, folder: Path, title: str,
             on_done: Callable[[], None] | None = None, run: Row | None = None) -> Row:
    """Ask a model every row, then `score`; `run` holds the run's facts for the report. Every
    request of the run goes through one `Asker` (its hub, limits, cache and ledger): the one
    `ifforge evaluate` started asking with before the flow, when the run's fingerprint is its."""
    check_rows(family, rows)
    settings = settings.for_family(family)
    early = take_early((run or {}).get("fingerprint"))
    if early is not None:  # the CLI started asking while Prefect started
        asker, asking = early.take(on_done)
    else:
        asker = Asker(settings, cache_path)
        asking = start_asking(rows, asker, family, settings, on_done)
    with asker:
        warm_up(family)
        results = asking.result()
        family.refine(results, rows, settings, asker)
        return score(family, results, rows, settings, folder, title, finish_run(run, results, settings), asker)


def warm_up(family: Family) -> None:
    """Import, while the replies come, what scoring first imports when it runs (pyarrow for the
    verdicts' parquet, matplotlib for the plots): seconds on a loaded machine that would otherwise
    come after the last answer."""
    import pyarrow.parquet  # noqa: F401 - lazy on purpose: heavy, paid while the model answers

    pyplot()  # every report draws its headline


def verdicts(family: Family, results: list[Row], rows: list[Row], settings) -> list[Verdict]:
    """Every reply judged by its family against its row (the benchmark's, when known; else what the
    reply carries of it), under the family's options."""
    options = settings.for_family(family).options
    return [family.check(row, Reply(result), options) for row, result in zip(rows or results, results)]


def verdict_frame(family: Family, results: list[Row], rows: list[Row], settings,
                  judged: list[Verdict] | None = None) -> pd.DataFrame:
    """The verdicts' lines as one frame (`judged`: the verdicts, when already made), each with its
    row's `row_id` (the id every export gives the row, so their results join with these)."""
    judged = verdicts(family, results, rows, settings) if judged is None else judged
    return family.report.frame([{"row_id": family.row_id(row), **line}
                                for row, verdict in zip(rows or results, judged) for line in verdict.lines])


def score(family: Family, results: list[Row], rows: list[Row], settings, folder: Path, title: str,
          run: Row | None = None, asker: Asker | None = None, rows_known: bool = True) -> Row:
    """Score replies (asked here, or elsewhere: `ifforge score`), keep them and their verdicts
    beside the report, with the sample viewer (`samples.html`: every row, sent, replied, judged)
    and the requests sent (`llm_calls.jsonl`, with their usage per stage in the run's facts);
    return the summary with `request_failures`, `headline` and `table`.
    `rows_known`: the results stand for every row of the benchmark (False: replies scored
    without their benchmark, which alone could say which rows have no reply)."""
    settings = settings.for_family(family)
    judged = verdicts(family, results, rows, settings)
    frame = verdict_frame(family, results, rows, settings, judged)
    notes = family.annotate(results, frame, rows, settings, asker, folder)
    replies, reasons = reply_counts(results, rows_known), failure_reasons(results)
    if reasons:  # why requests failed, counted: for the log, the report and the flow's state
        replies |= {"failure_reasons": reasons, "failed_because": reasons_text(reasons),
                    "failures": failures_line(reasons, len(results))}
    notes = {**notes, "replies": replies, "floors": floors_of(family, rows, settings)}
    write_results(folder, [r for r in results if not r.get("no_reply")], frame, asker.calls() if asker else None)
    write_viewer(folder, family, results, rows, judged, title)
    if asker is not None:
        run = {**(run or {}), "llm": asker.usage()}
    summary = write_report(family.report, frame, folder, title, run, notes,
                           {"samples.html": "every row as sent, answered and judged, with filters (open it in a browser)"})
    summary["request_failures"] = sum(1 for result in results if result.get("request_failed"))
    summary["headline"] = family.report.headline(summary) + unanswered_phrase(summary["replies"])
    summary["table"] = family.report.table(summary)
    return summary


def floors_of(family: Family, rows: list[Row], settings) -> Row:
    """The family's trivial baselines judged on the rows the model was asked, by the same rules;
    why not, when there are no rows (replies scored without their benchmark) or they cannot be asked."""
    if not rows:
        return {"not_computed": "no benchmark given, so no rows to judge the baselines on"}
    try:
        return beside_a_report(family, rows, settings.for_family(family).options)
    except (KeyError, TypeError, ValueError) as error:  # rows that carry the gold but not the request
        why = f"{type(error).__name__}: {error}"
        return {"not_computed": f"the rows cannot be asked as the benchmark asks them ({why})"}


def write_report(report: Report, frame: pd.DataFrame, folder: Path, title: str, run: Row | None = None,
                 notes: Row | None = None, links: dict[str, str] | None = None) -> Row:
    """report.json, report.md, the plots and plots.json in `folder` (each written whole); returns
    the summary. `links`: files beside the report it should name (file name -> what it holds)."""
    summary = {**report.summarise(frame), **(notes or {})}
    folder.mkdir(parents=True, exist_ok=True)
    run = run or {}
    drawn = report.plots(summary, folder, str(run.get("model") or title))
    if drawn:
        summary["plots"] = [path.name for path in drawn]
    atomic_write(folder / "report.json", json.dumps({"title": title, "run": run, **summary}, indent=2) + "\n")
    atomic_write(folder / "report.md", report.markdown(summary, title, run, files_beside(folder, summary, links)))
    return summary
