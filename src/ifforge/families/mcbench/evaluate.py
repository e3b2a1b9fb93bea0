"""Asking a model MCBench's rows (one prompt each), then scoring and reporting.

Each request is cached on its own, so a resumed run asks nothing twice. Requests that failed are
kept apart: they are not answers, and the scorer leaves them out of every score.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from ifforge.core.llm import LLM, LLMError, ResponseCache
from ifforge.core.store import atomic_path, atomic_write
from ifforge.families.mcbench import scoring

CARRIED = ("task_id", "metric", "variant", "category", "pair_id", "gold_steps", "gold_final", "unordered_steps")


async def ask_all(rows: list[dict[str, Any]], settings, cache_path: Path | None, on_done=None) -> list[dict[str, Any]]:
    cache = None if settings.no_cache or cache_path is None else ResponseCache(cache_path)
    llm = LLM(settings.llm_config(), cache)
    system = settings.system_prompt

    async def one(row: dict[str, Any]) -> dict[str, Any]:
        result = {key: row.get(key) for key in CARRIED}
        messages = ([{"role": "system", "content": system}] if system else [])
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
    frame = scoring.score_frame(results)
    with atomic_path(folder / "scores.parquet") as temporary:
        frame.to_parquet(temporary, index=False)
    summary = scoring.write_report(frame, folder, title, run)
    overall = summary["overall"]
    summary["request_failures"] = sum(1 for r in results if r.get("request_failed"))
    summary["headline"] = (f"FA {overall.get('final_accuracy') or 0:.1%}, "
                           f"FF {overall.get('format_following') or 0:.1%}, "
                           f"FD {overall.get('following_depth') or 0:.1%}")
    summary["table"] = [{"group": f"{key}={value}", **{k: v for k, v in row.items() if not isinstance(v, (list, dict))}}
                        for key in scoring.GROUPS for value, row in summary.get(f"by_{key}", {}).items()]
    return summary
