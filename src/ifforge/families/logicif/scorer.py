"""LogicIF's scorer: ask every case, judge output and trackers by LogicIFEval's rules, report."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ifforge.eval.evaluation import (
    EvalSettings,
    analyze_errors,
    ask_all,
    extract_with_llm,
    finish_run,
    score_frame,
    write_outputs,
)


def evaluate(rows: list[dict[str, Any]], settings: EvalSettings, cache_path: Path, folder: Path, title: str,
             on_done=None, run: dict[str, Any] | None = None) -> dict[str, Any]:
    results = asyncio.run(ask_all(rows, settings, cache_path, on_done=on_done))
    rows_by_key = {(r["task_id"], r["test_case_id"], r.get("expression_id")): r for r in rows}
    if settings.extractor == "llm":
        asyncio.run(extract_with_llm(results, settings, cache_path, rows_by_key))
    run = finish_run(run, results, settings)
    scores = score_frame(results, rows_by_key, settings.strict_types)
    labels = None
    if settings.analyze_errors:
        labels = asyncio.run(analyze_errors(results, scores, rows_by_key, settings, cache_path))
    summary = write_outputs(folder, results, scores, title, labels, run)
    summary["request_failures"] = int(scores["request_failed"].sum()) if len(scores) else 0
    overall = summary["overall"]
    summary["headline"] = (f"task accuracy (both) {overall.get('task_both') or 0:.1%} of {overall.get('tasks', 0)} "
                           f"tasks, case accuracy {overall.get('case_both') or 0:.1%} of {overall.get('cases', 0)} cases"
                           + (f", {summary['request_failures']} failed requests not scored"
                              if summary["request_failures"] else ""))
    return summary
