"""Asking a model IFEval-FC's cases through the tools API, then scoring and reporting.

Each row is one request: its system message (or `--system-prompt` in its place), its user query,
its tools and its `tool_choice`. The reply's tool calls are kept as they came (raw argument text),
so the checker sees exactly what the server returned. Requests are cached like every other, so a
resumed run asks nothing twice; requests that failed are kept apart, never scored.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ifforge.eval.asking import ask_rows, usage, write_results
from ifforge.families.ifeval_fc import scoring


FIELDS = ("task_id", "tools", "messages", "function_name", "parameter", "rule_id", "rule_args")


def row_problem(row: dict[str, Any]) -> str | None:
    """Why a row cannot be asked or scored, naming the field (see `Family.row_problem`), or None."""
    from ifforge.families.ifeval_fc import rules

    missing = [key for key in FIELDS if key not in row]
    if missing:
        return f"missing field {missing[0]!r}"
    if not isinstance(row["rule_id"], str) or row["rule_id"] not in rules.REGISTRY:
        return f"field 'rule_id': unknown rule {row['rule_id']!r}"
    if not isinstance(row["rule_args"], dict):
        return "field 'rule_args' must be an object"
    try:
        rules.get(row["rule_id"], **row["rule_args"])
    except (ValueError, TypeError) as error:
        return f"field 'rule_args': {error}"
    if not isinstance(row["messages"], list) or not all(isinstance(m, dict) for m in row["messages"]):
        return "field 'messages' must be a list of objects"
    tools = row["tools"] if isinstance(row["tools"], list) else []
    if not all(isinstance(t, dict) and isinstance(t.get("function"), dict) for t in tools):
        return "field 'tools': every tool must be an object with a 'function' object"
    if row["function_name"] not in [t["function"].get("name") for t in tools]:
        return f"field 'function_name' {row['function_name']!r} is not among the tools"
    return None


def check_rows(rows: list[dict[str, Any]]) -> None:
    """Refuse, before asking anything, a row that cannot be scored, naming the row and the field."""
    from ifforge.families.ifeval_fc.family import FAMILY

    FAMILY.check_rows(rows)


def messages_of(row: dict[str, Any], system_prompt: str | None) -> list[dict[str, str]]:
    messages = [dict(m) for m in row["messages"]]
    if system_prompt is not None:
        messages = [{"role": "system", "content": system_prompt}] + [m for m in messages if m["role"] != "system"]
    return messages


async def ask_all(rows: list[dict[str, Any]], settings, cache_path: Path | None, on_done=None) -> list[dict[str, Any]]:
    async def ask(llm, row):
        reply = await llm.chat(messages_of(row, settings.system_prompt), stage="evaluate", tools=row["tools"],
                               tool_choice=row.get("tool_choice", "auto"))
        return {"response": reply.text, "tool_calls": list(reply.tool_calls), "finish_reason": reply.finish_reason,
                **usage(reply)}

    def carry(row):
        return {k: row.get(k) for k in ("task_id", "function_name", "parameter", "rule_id", "relation")}

    return await ask_rows(rows, settings, cache_path, carry, ask, failed={"response": None, "tool_calls": []},
                          on_done=on_done)


def evaluate(rows: list[dict[str, Any]], settings, cache_path: Path, folder: Path, title: str,
             on_done=None, run: dict[str, Any] | None = None) -> dict[str, Any]:
    from ifforge.eval.evaluation import finish_run

    check_rows(rows)
    results = asyncio.run(ask_all(rows, settings, cache_path, on_done))
    run = finish_run(run, results, settings)
    frame = scoring.score_frame(results, {row["task_id"]: row for row in rows})
    write_results(folder, results, frame)
    summary = scoring.write_report(frame, folder, title, run)
    overall = summary["overall"]
    summary["request_failures"] = overall.get("request_failures", 0)
    summary["headline"] = (f"format right {overall.get('format_right_rate') or 0:.1%}, called "
                           f"{overall.get('called_rate') or 0:.1%}, provided {overall.get('provided_rate') or 0:.1%}")
    summary["table"] = [{"group": f"{key}={value}", **{k: v for k, v in row.items() if not isinstance(v, (list, dict))}}
                        for key in scoring.GROUPS for value, row in summary.get(f"by_{key}", {}).items()]
    return summary
