"""IFEval-FC's verdicts and numbers: its rows' tool calls judged, and its report.

A case passes when the model called the function, gave the parameter as a string, and the string
follows the rule (as the paper scores it, and with distractors the call must be to the right
function). Every call the model made to the function counts: all must pass. The report gives the
paper's three rates (called, provided, format right) overall, per rule, per relation, per domain
and per source of the function, with 95% Wilson intervals. Failed requests are not answers:
counted apart and left out of every rate.
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd

from ifforge.core import jsontext
from ifforge.eval.intervals import share, shown
from ifforge.eval.plots import Plot
from ifforge.eval.report import Report
from ifforge.families.base import Reply, Verdict
from ifforge.families.ifeval_fc import paper_rules, rules

GROUPS = ("rule_id", "relation", "domain", "source")  # relation "none": a rule without a count
FIELDS = ("task_id", "tools", "messages", "function_name", "parameter", "rule_id", "rule_args")
RATES = (("called", "called"), ("provided", "provided"), ("correct", "format right"))
REASONS = ("no_call", "wrong_function", "arguments_not_json", "reply_unreadable", "batch_failed", "parameter_missing",
           "not_a_string", "format_wrong", "ok")


def row_problem(row: dict[str, Any]) -> str | None:
    """Why a row cannot be asked or scored, naming the field (see `Family.row_problem`), or None."""
    missing = [key for key in FIELDS if key not in row]
    if missing:
        return f"missing field {missing[0]!r}"
    if not isinstance(row["rule_id"], str) or row["rule_id"] not in rules.REGISTRY:
        return f"field 'rule_id': {rules.REGISTRY.unknown(row['rule_id'])}"
    if not isinstance(row["rule_args"], dict):
        return "field 'rule_args' must be an object"
    if row.get("rules", "ifforge") not in ("ifforge", "paper"):
        return f"field 'rules' must be 'ifforge' or 'paper', got {row['rules']!r}"
    if row.get("paper_nltk", paper_rules.DEFAULT_NLTK) not in list(paper_rules.NLTK):
        return f"field 'paper_nltk' must be one of {', '.join(map(repr, paper_rules.NLTK))}, got {row['paper_nltk']!r}"
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


def calls_of(replies: list, protocol: str | None) -> list[tuple[str, Any]]:
    """(function name, raw arguments) of every call in the replies. A reply is a dict with `text`
    and OpenAI-shaped `tool_calls`, or plain text. In the text protocol (`protocol == "text"`) the
    call is the last JSON object with `name` and `arguments` in the reply's text; otherwise only
    the tools API's calls count, and plain text is no call."""
    calls = []
    for reply in replies:
        if protocol == "text":
            text = reply if isinstance(reply, str) else (reply or {}).get("text") or ""
            found = [o for o in jsontext.json_objects(text) if "name" in o and "arguments" in o]
            if found:
                calls.append((str(found[-1]["name"]), found[-1]["arguments"]))
        elif isinstance(reply, dict):
            for call in reply.get("tool_calls") or []:
                function = call.get("function", call)
                calls.append((function.get("name"), function.get("arguments")))
    return calls


def tool_calls_problem(tool_calls: Any) -> str | None:
    """Why a replies file's `tool_calls` are not calls `calls_of` can read (a list of objects, each
    with a `function` object holding a text `name` and text, object or null `arguments`), naming
    the field; None when they are. What the arguments say is the verdict's to judge."""
    if tool_calls is None:
        return None
    if not isinstance(tool_calls, list):
        return "field 'tool_calls' must be a list of calls"
    for place, call in enumerate(tool_calls):
        field = f"field 'tool_calls[{place}]"
        if not isinstance(call, dict):
            return f"{field}' must be an object (a call)"
        function = call.get("function", call)
        field += ".function" if "function" in call else ""
        if not isinstance(function, dict):
            return f"{field}' must be an object with 'name' and 'arguments'"
        if not isinstance(function.get("name"), str):
            return f"{field}.name' must be text, the function's name"
        if not isinstance(function.get("arguments"), (str, dict, type(None))):
            return f"{field}.arguments' must be text (JSON), an object or null"
    return None


def arguments_of(raw: Any) -> dict[str, Any] | None:
    """Arguments as an object, or None: a JSON text (the tools API; raw control characters inside
    strings are read, as clients read them; an empty text is no arguments) or an object (the text
    protocol)."""
    if isinstance(raw, dict):
        return raw
    if raw is None or raw == "":
        return {}
    if not isinstance(raw, str):
        return None
    try:
        parsed = jsontext.loads(raw, strict=False)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


UNREADABLE = "unreadable"


def paper_arguments(raw: Any) -> dict[str, Any] | str | None:
    """Arguments as the paper's client (langchain-openai) reads a call: text that is not JSON drops
    the call (None); JSON that is false-like (`null`, `0`, `[]`, `""`) is no arguments; any other
    JSON that is not an object makes the whole reply unreadable (`UNREADABLE`)."""
    if isinstance(raw, str) and raw:
        try:  # the client's own reader, unbounded as it is (a reply is bounded by its max_tokens); a lone
            parsed = jsontext.clean(json.loads(raw, strict=False))  # surrogate kept would make the verdicts unwritable
        except (ValueError, RecursionError):
            return None
    else:
        parsed = raw
    if not parsed:
        return {}
    return parsed if isinstance(parsed, dict) else UNREADABLE


def judge(row: dict[str, Any], replies: list, mode: str | None = None, nltk: str | None = None) -> dict[str, Any]:
    """One case's verdict: `called`, `provided`, `correct` (format right), the `reason` it stopped
    at, and the values the model gave. `mode` (default: the row's `rules`, else `ifforge`) picks
    our reading or the paper's (`paper_judge`); `nltk` (default: the row's `paper_nltk`, else 3.9)
    the nltk whose word count the paper's reading reproduces (an exported row carries both)."""
    mode = mode or row.get("rules") or "ifforge"
    if mode == "paper":
        return paper_judge(row, replies, nltk or row.get("paper_nltk") or paper_rules.DEFAULT_NLTK)
    calls = calls_of(replies, row.get("protocol"))
    mine = [raw for name, raw in calls if name == row["function_name"]]
    verdict: dict[str, Any] = {"called": bool(mine), "provided": False, "correct": False, "values": []}
    if not mine:
        return {**verdict, "reason": "wrong_function" if calls else "no_call"}
    rule = rules.get(row["rule_id"], **row["rule_args"])
    reason = "ok"
    for raw in mine:
        arguments = arguments_of(raw)
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
    provided = reason in ("ok", "format_wrong", "not_a_string")
    return {**verdict, "provided": provided, "correct": reason == "ok", "reason": reason}


def paper_judge(row: dict[str, Any], replies: list, nltk: str = paper_rules.DEFAULT_NLTK) -> dict[str, Any]:
    """The verdict as the paper's evaluate.py gives it: every call counts whatever function it
    names; a call whose arguments are not JSON is no call; the parameter must be in every call's
    arguments (any type: `provided`), and every value a string that passes the paper's checker."""
    parsed = [paper_arguments(raw) for _, raw in calls_of(replies, row.get("protocol"))]
    verdict: dict[str, Any] = {"called": False, "provided": False, "correct": False, "values": []}
    if UNREADABLE in parsed:
        return {**verdict, "reason": "reply_unreadable"}
    calls = [arguments for arguments in parsed if arguments is not None]
    if not calls:
        return {**verdict, "reason": "no_call"}
    parameter = row["parameter"]
    values = [arguments.get(parameter) for arguments in calls]
    verdict.update(called=True, values=values)
    if any(parameter not in arguments for arguments in calls):
        return {**verdict, "reason": "parameter_missing"}
    verdict["provided"] = True
    rule = paper_rules.get(row["rule_id"], nltk=nltk, **row["rule_args"])
    for value in values:
        if not isinstance(value, str):
            return {**verdict, "reason": "not_a_string"}
        if not rule.check(value):
            return {**verdict, "reason": "format_wrong"}
    return {**verdict, "correct": True, "reason": "ok"}


def batch_key(row: dict[str, Any]) -> str:
    """The paper's data file a row comes from (its function, parameter and rule): the paper asks a
    file's queries in one batch, and one unreadable reply fails the whole batch."""
    return json.dumps([row.get("function_id"), row["function_name"], row["parameter"], row["rule_id"],
                       row["rule_args"]], sort_keys=True)


def verdict(row: dict[str, Any], reply: Reply, mode: str | None = None, nltk: str | None = None) -> Verdict:
    """One case's verdict line (`judge`'s), with its paper batch (`batch_key`, settled by the report)."""
    failed = reply.failed
    found = judge(row, [] if failed else [{"text": reply.text or "", "tool_calls": reply.tool_calls}], mode, nltk)
    line = {"task_id": row["task_id"], **{key: str(row.get(key) or "none") for key in GROUPS},
            "request_failed": failed, "called": found["called"] and not failed,
            "provided": found["provided"] and not failed, "correct": found["correct"] and not failed,
            "reason": "request_failed" if failed else found["reason"],
            "values": json.dumps(found["values"], ensure_ascii=False), "batch": batch_key(row)}
    return Verdict(line["correct"], (line,))


class IfevalFcReport(Report):
    """The paper's three rates (called, provided, format right), overall and by group."""

    name = "IFEval-FC"
    groups = GROUPS
    metrics = {"accuracy": "format_right_rate", "called_rate": "called_rate", "provided_rate": "provided_rate"}
    empty = {"cases": 0, "request_failures": 0}
    columns = ("group", "cases", "called", "provided", "format right", "failed requests")
    headline_shares = (("format right", "format_right_rate"), ("called", "called_rate"), ("provided", "provided_rate"))
    titles = {"rule_id": "By rule", "relation": "By relation (of a counted rule)", "domain": "By domain",
              "source": "By source of the function"}
    drawn = tuple(Plot(group, "format_right_rate", label) for group, label in (
        ("rule_id", "rule"), ("relation", "relation"), ("domain", "domain")))

    def frame(self, lines) -> pd.DataFrame:
        """Under the paper's rules one unreadable reply fails its whole batch: the paper's client
        retries, then gives the batch no calls."""
        frame = pd.DataFrame(lines)
        if frame.empty:
            return frame
        broken = set(frame.loc[frame["reason"] == "reply_unreadable", "batch"])
        hit = frame["batch"].isin(broken) & ~frame["request_failed"] & (frame["reason"] != "reply_unreadable")
        frame.loc[hit, ["called", "provided", "correct"]] = False
        frame.loc[hit, "reason"] = "batch_failed"
        return frame.drop(columns="batch")

    def scores(self, part: pd.DataFrame) -> dict[str, Any]:
        answered = part[~part["request_failed"]]
        n = len(answered)
        row: dict[str, Any] = {"cases": n, "request_failures": int(part["request_failed"].sum())}
        for column, _ in RATES:
            hits = int(answered[column].sum())
            name = "format_right" if column == "correct" else column
            row |= share(f"{name}_rate", hits, n)
            row[f"{name}_ci95"], row[name] = row[f"{name}_rate_ci95"], hits
        row["reasons"] = {reason: int((answered["reason"] == reason).sum()) for reason in REASONS
                          if (answered["reason"] == reason).any()}
        return row

    def line(self, label: str, row: dict[str, Any]) -> str:
        n = row.get("cases", 0)
        return (f"| {label} | {n} | {shown(row.get('called', 0), n)} | {shown(row.get('provided', 0), n)} "
                f"| {shown(row.get('format_right', 0), n)} | {row.get('request_failures', 0)} |")

    def notes(self, summary: dict[str, Any]) -> list[str]:
        reasons = summary["overall"].get("reasons", {})
        nltk = summary.get("paper_nltk", paper_rules.DEFAULT_NLTK)
        paper = ["Rules: the paper's (`--rules paper`): its checkers, its reading of calls (every call counts, "
                 f"whatever function it names) and its batches; words counted as {paper_rules.NLTK[nltk]} counts them "
                 f"(`paper_nltk` {nltk}).", ""] if summary.get("rules") == "paper" else []
        return paper + [
            "Why cases failed: " + (", ".join(f"{k} {v}" for k, v in reasons.items() if k != "ok") or "none"),
            "", "Called: the model called the function (with distractors, the right one). Provided: the parameter is in "
                "the call's arguments (a JSON object), whatever its type. Format right: it is a string that follows the "
                "rule (the score). Rates over answered cases. Failed requests are not answers and "
                "are left out of every rate."]


REPORT = IfevalFcReport()
