"""Asking a model LIFBench's prompts (one request per row), then scoring them with LIFEval.

Each request is cached on its own, so a resumed run asks nothing twice. Requests that failed are
kept apart: they are not answers, and the report leaves them out of every score.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ifforge.eval.asking import ask_prompt, ask_rows, write_results
from ifforge.families.lifbench import scoring


async def ask_all(rows: list[dict[str, Any]], settings, cache_path: Path | None, on_done=None) -> list[dict[str, Any]]:
    def carry(row):
        return {k: row[k] for k in ("task_id", "task", "length_tokens", "expression_id", "variables_id")}

    return await ask_rows(rows, settings, cache_path, carry,
                          lambda llm, row: ask_prompt(llm, row, settings.system_prompt), on_done=on_done)


def evaluate(rows: list[dict[str, Any]], settings, cache_path: Path, folder: Path, title: str,
             on_done=None, run: dict[str, Any] | None = None) -> dict[str, Any]:
    from ifforge.eval.evaluation import finish_run

    results = asyncio.run(ask_all(rows, settings, cache_path, on_done))
    run = finish_run(run, results, settings)
    frame = scoring.score_frame(rows, results)
    write_results(folder, results, frame)
    summary = scoring.write_report(frame, folder, title, run)
    overall = summary["overall"]
    summary["request_failures"] = overall.get("request_failures", 0)
    ifs = {name: (value or {}).get("ifs") for name, value in summary.get("stability", {}).items()}
    summary["headline"] = (f"ARS {overall.get('ars', 0):.3f}, full points {overall.get('full_points_shown', '-')}, "
                           f"IFS {ifs}")
    summary["table"] = [{"group": f"{key}={value}", **{k: v for k, v in row.items() if not isinstance(v, (list, dict))}}
                        for key in scoring.GROUPS for value, row in summary.get(f"by_{key}", {}).items()]
    return summary
