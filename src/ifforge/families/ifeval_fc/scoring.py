"""IFEval-FC's verdicts and report.

A case passes when the model called the function, gave the parameter as a string, and the string
follows the rule (as the paper scores it, and with distractors the call must be to the right
function). Every call the model made to the function counts: all must pass. The report gives the
paper's three rates (called, provided, format right) overall, per rule, per relation, per domain
and per source of the function, with 95% Wilson intervals. Failed requests are not answers:
counted apart and left out of every rate.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from ifforge.core.jsontext import json_objects
from ifforge.core.store import atomic_write
from ifforge.eval.intervals import shown, wilson
from ifforge.families.ifeval_fc import rules

GROUPS = ("rule_id", "relation", "domain", "source")  # relation "none": a rule without a count
RATES = (("called", "called"), ("provided", "provided"), ("correct", "format right"))
REASONS = ("no_call", "wrong_function", "arguments_not_json", "parameter_missing", "not_a_string", "format_wrong", "ok")


def calls_of(replies: list, protocol: str | None) -> list[tuple[str, Any]]:
    """(function name, raw arguments) of every call in the replies. A reply is a dict with `text`
    and OpenAI-shaped `tool_calls`, or plain text. In the text protocol (`protocol == "text"`) the
    call is the last JSON object with `name` and `arguments` in the reply's text; otherwise only
    the tools API's calls count, and plain text is no call."""
    calls = []
    for reply in replies:
        if protocol == "text":
            text = reply if isinstance(reply, str) else (reply or {}).get("text") or ""
            found = [o for o in json_objects(text) if "name" in o and "arguments" in o]
            if found:
                calls.append((str(found[-1]["name"]), found[-1]["arguments"]))
        elif isinstance(reply, dict):
            for call in reply.get("tool_calls") or []:
                function = call.get("function", call)
                calls.append((function.get("name"), function.get("arguments")))
    return calls


def _arguments(raw: Any) -> dict[str, Any] | None:
    """Arguments as an object: a JSON text (the tools API) or an object (the text protocol)."""
    if isinstance(raw, dict):
        return raw
    if not isinstance(raw, str):
        return None
    try:
        parsed = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return parsed if isinstance(parsed, dict) else None


def judge(row: dict[str, Any], replies: list) -> dict[str, Any]:
    """One case's verdict: `called`, `provided`, `correct` (format right), the `reason` it stopped
    at, and the values the model gave."""
    calls = calls_of(replies, row.get("protocol"))
    mine = [raw for name, raw in calls if name == row["function_name"]]
    verdict: dict[str, Any] = {"called": bool(mine), "provided": False, "correct": False, "values": []}
    if not mine:
        return {**verdict, "reason": "wrong_function" if calls else "no_call"}
    rule = rules.get(row["rule_id"], **row["rule_args"])
    reason = "ok"
    for raw in mine:
        arguments = _arguments(raw)
        value = arguments.get(row["parameter"]) if arguments is not None else None
        verdict["values"].append(value)
        if arguments is None:
            reason = "arguments_not_json"
        elif row["parameter"] not in arguments:
            reason = "parameter_missing"
        elif not isinstance(value, str):
            reason = "not_a_string"
        elif not rule.check(value) and reason == "ok":
            reason = "format_wrong"
        if reason not in ("ok", "format_wrong"):
            break
    provided = reason in ("ok", "format_wrong")
    return {**verdict, "provided": provided, "correct": reason == "ok", "reason": reason}


def score_frame(results: list[dict[str, Any]], rows: dict[str, dict[str, Any]]) -> pd.DataFrame:
    """One scored row per case."""
    records = []
    for result in results:
        row = rows[result["task_id"]]
        failed = bool(result.get("request_failed"))
        verdict = judge(row, [] if failed else [{"text": result.get("response") or "",
                                                "tool_calls": result.get("tool_calls") or []}])
        records.append({"task_id": row["task_id"], **{key: str(row.get(key) or "none") for key in GROUPS},
                        "request_failed": failed, "called": verdict["called"] and not failed,
                        "provided": verdict["provided"] and not failed, "correct": verdict["correct"] and not failed,
                        "reason": "request_failed" if failed else verdict["reason"],
                        "values": json.dumps(verdict["values"], ensure_ascii=False)})
    return pd.DataFrame(records)


def _rates(frame: pd.DataFrame) -> dict[str, Any]:
    answered = frame[~frame["request_failed"]]
    n = len(answered)
    row: dict[str, Any] = {"cases": n, "request_failures": int(frame["request_failed"].sum())}
    for column, _ in RATES:
        hits = int(answered[column].sum())
        name = "format_right" if column == "correct" else column
        row[f"{name}_rate"] = round(hits / n, 4) if n else None
        row[f"{name}_ci95"] = wilson(hits, n)
        row[name] = hits
    row["reasons"] = {reason: int((answered["reason"] == reason).sum()) for reason in REASONS
                      if (answered["reason"] == reason).any()}
    return row


def summarise(frame: pd.DataFrame) -> dict[str, Any]:
    if frame.empty:
        return {"overall": {"cases": 0, "request_failures": 0}}
    summary: dict[str, Any] = {"overall": _rates(frame)}
    for key in GROUPS:
        summary[f"by_{key}"] = {value: _rates(part) for value, part in frame.groupby(key)}
    return summary


def write_report(frame: pd.DataFrame, folder: Path, title: str, run: dict[str, Any] | None = None) -> dict[str, Any]:
    """report.json and report.md in `folder` (each written whole, then renamed); returns the summary."""
    from ifforge.eval.report import run_lines

    summary = summarise(frame)
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(folder / "report.json", json.dumps({"title": title, "run": run or {}, **summary}, indent=2) + "\n")
    lines = [f"# IFEval-FC: {title}", "", *run_lines(run or {}),
             "| group | cases | called | provided (string) | format right | failed requests |", "|---|---|---|---|---|---|"]

    def line(name: str, row: dict[str, Any]) -> str:
        n = row.get("cases", 0)
        return (f"| {name} | {n} | {shown(row.get('called', 0), n)} | {shown(row.get('provided', 0), n)} "
                f"| {shown(row.get('format_right', 0), n)} | {row.get('request_failures', 0)} |")

    lines.append(line("overall", summary["overall"]))
    for key in GROUPS:
        for value, row in summary.get(f"by_{key}", {}).items():
            lines.append(line(f"{key} = {value}", row))
    reasons = summary["overall"].get("reasons", {})
    lines += ["", "Why cases failed: " + (", ".join(f"{k} {v}" for k, v in reasons.items() if k != "ok") or "none"),
              "", "Called: the model called the function (with distractors, the right one). Provided: it gave the "
              "parameter as a string, in arguments that are a JSON object. Format right: the string follows the rule "
              "(the score). Rates over answered cases; intervals: 95% Wilson. Failed requests are not answers and are "
              "left out of every rate."]
    atomic_write(folder / "report.md", "\n".join(lines) + "\n")
    return summary
