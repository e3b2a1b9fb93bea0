"""LogicIF's scorer: ask every case, judge output and trackers by LogicIFEval's rules, report."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ifforge.eval.evaluation import EvalSettings, analyze_errors, ask_all, score_frame, write_outputs


def evaluate(rows: list[dict[str, Any]], settings: EvalSettings, cache_path: Path, folder: Path, title: str,
             on_done=None) -> dict[str, Any]:
    results = asyncio.run(ask_all(rows, settings, cache_path, on_done=on_done))
    rows_by_key = {(r["task_id"], r["test_case_id"], r.get("expression_id")): r for r in rows}
    scores = score_frame(results, rows_by_key, settings.strict_types)
    labels = None
    if settings.analyze_errors:
        labels = asyncio.run(analyze_errors(results, scores, rows_by_key, settings, cache_path))
    summary = write_outputs(folder, results, scores, title, labels)
    summary["request_failures"] = sum(1 for r in results if r.get("response") is None)
    overall = summary["overall"]
    summary["headline"] = (f"task accuracy (both) {overall.get('task_both', 0):.1%}, "
                           f"case accuracy {overall.get('case_both', 0):.1%}")
    return summary
