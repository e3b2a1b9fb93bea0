"""Asking a model PACIFIC's chains, for real turn by turn in chat mode, then scoring and reporting.

In chat mode every instruction is its own user turn and the model's own reply goes back into the
conversation before the next one, as a user of a chat model would see it. Each request is cached
on its own, so a resumed run asks nothing twice. Requests that failed are kept apart: they are not
answers, and the scorer leaves them out of every accuracy.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ifforge.eval.asking import ask_prompt, ask_rows, usage, write_results
from ifforge.families.pacific import scoring


async def ask_all(rows: list[dict[str, Any]], settings, cache_path: Path | None, on_done=None) -> list[dict[str, Any]]:
    system = settings.system_prompt

    async def ask(llm, row):
        if row["mode"] == "chat":
            replies = await llm.converse([m["content"] for m in row["messages"]], stage="evaluate", system=system)
            return {"responses": [reply.text for reply in replies], **usage(*replies)}
        return await ask_prompt(llm, row, system)

    def carry(row):
        result = {k: row[k] for k in ("task_id", "mode", "form", "chain_length", "output_length", "gold")}
        result["language"] = row.get("language")  # absent from rows written before code came in three languages
        return result

    return await ask_rows(rows, settings, cache_path, carry, ask, on_done=on_done)


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
    summary["headline"] = (f"prompt-level accuracy {overall.get('prompt_accuracy', 0):.1%}, "
                           f"instruction-level {overall.get('instruction_accuracy', 0):.1%}")
    summary["table"] = [{"group": f"{key}={value}", **{k: v for k, v in row.items() if not isinstance(v, (list, dict))}}
                        for key in scoring.GROUPS
                        for value, row in summary.get(f"by_{key}", {}).items()]
    return summary
