"""Asking a model MCBench's rows (one prompt each), then scoring and reporting.

Each request is cached on its own, so a resumed run asks nothing twice. Requests that failed are
kept apart: they are not answers, and the scorer leaves them out of every score.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ifforge.eval.asking import ask_prompt, ask_rows, write_results
from ifforge.families.mcbench import scoring

CARRIED = ("task_id", "metric", "variant", "category", "pair_id", "gold_steps", "gold_final", "unordered_steps")


async def ask_all(rows: list[dict[str, Any]], settings, cache_path: Path | None, on_done=None) -> list[dict[str, Any]]:
    return await ask_rows(rows, settings, cache_path, lambda row: {key: row.get(key) for key in CARRIED},
                          lambda llm, row: ask_prompt(llm, row, settings.system_prompt), on_done=on_done)


def evaluate(rows: list[dict[str, Any]], settings, cache_path: Path, folder: Path, title: str,
             on_done=None, run: dict[str, Any] | None = None) -> dict[str, Any]:
    from ifforge.eval.evaluation import finish_run

    results = asyncio.run(ask_all(rows, settings, cache_path, on_done))
    run = finish_run(run, results, settings)
    frame = scoring.score_frame(results)
    write_results(folder, results, frame)
    summary = scoring.write_report(frame, folder, title, run)
    overall = summary["overall"]
    summary["request_failures"] = sum(1 for r in results if r.get("request_failed"))
    summary["headline"] = (f"FA {overall.get('final_accuracy') or 0:.1%}, "
                           f"FF {overall.get('format_following') or 0:.1%}, "
                           f"FD {overall.get('following_depth') or 0:.1%}")
    summary["table"] = [{"group": f"{key}={value}", **{k: v for k, v in row.items() if not isinstance(v, (list, dict))}}
                        for key in scoring.GROUPS for value, row in summary.get(f"by_{key}", {}).items()]
    return summary
