"""Asking a model LIFBench's prompts (one request per row), then scoring them with LIFEval.

Each request is cached on its own, so a resumed run asks nothing twice. Requests that failed are
kept apart: they are not answers, and the report leaves them out of every score.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from ifforge.core.llm import LLM, LLMError, ResponseCache
from ifforge.core.store import atomic_path, atomic_write
from ifforge.families.lifbench import scoring


async def ask_all(rows: list[dict[str, Any]], settings, cache_path: Path | None, on_done=None) -> list[dict[str, Any]]:
    cache = None if settings.no_cache or cache_path is None else ResponseCache(cache_path)
    llm = LLM(settings.llm_config(), cache)

    async def one(row: dict[str, Any]) -> dict[str, Any]:
        result = {k: row[k] for k in ("task_id", "task", "length_tokens", "expression_id", "variables_id")}
        messages = ([{"role": "system", "content": settings.system_prompt}] if settings.system_prompt else [])
        messages.append({"role": "user", "content": row["prompt"]})
        try:
            result |= {"response": (await llm.chat(messages, stage="evaluate")).text, "request_failed": False}
        except LLMError as error:
            result |= {"request_failed": True, "error": str(error)}
        if on_done:
            on_done()
        return result

    try:
        return list(await asyncio.gather(*(one(row) for row in rows)))
    finally:
        await llm.close()
        if cache is not None:
            cache.close()


def evaluate(rows: list[dict[str, Any]], settings, cache_path: Path, folder: Path, title: str,
             on_done=None, run: dict[str, Any] | None = None) -> dict[str, Any]:
    from ifforge.eval.evaluation import finish_run

    results = asyncio.run(ask_all(rows, settings, cache_path, on_done))
    run = finish_run(run, results, settings)
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(folder / "responses.jsonl", "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in results))
    frame = scoring.score_frame(rows, results)
    with atomic_path(folder / "scores.parquet") as temporary:
        frame.to_parquet(temporary, index=False)
    summary = scoring.write_report(frame, folder, title, run)
    overall = summary["overall"]
    summary["request_failures"] = overall.get("request_failures", 0)
    ifs = {name: (value or {}).get("ifs") for name, value in summary.get("stability", {}).items()}
    summary["headline"] = (f"ARS {overall.get('ars', 0):.3f}, full points {overall.get('full_points_shown', '-')}, "
                           f"IFS {ifs}")
    summary["table"] = [{"group": f"{key}={value}", **{k: v for k, v in row.items() if not isinstance(v, (list, dict))}}
                        for key in scoring.GROUPS for value, row in summary.get(f"by_{key}", {}).items()]
    return summary
