"""IFEval-FC's trivial baselines (see `eval.floors`): the right function called with the user's
query verbatim as the parameter (a format rule the query already follows passes), with a one-word
constant, and no call at all."""

from __future__ import annotations

import json
from typing import Any

from ifforge.core.registry import Registry
from ifforge.eval.baselines import Baseline, Empty


def call(row: dict[str, Any], value: str) -> list:
    arguments = json.dumps({row["parameter"]: value}, ensure_ascii=False)
    if row.get("protocol") == "text":
        return [json.dumps({"name": row["function_name"], "arguments": json.loads(arguments)}, ensure_ascii=False)]
    return [{"text": "", "tool_calls": [{"id": "call_0", "type": "function",
                                         "function": {"name": row["function_name"], "arguments": arguments}}]}]


def query(row: dict[str, Any]) -> str:
    if row.get("protocol") == "text":
        return row["prompt"]
    return next(m["content"] for m in row["messages"] if m["role"] == "user")


class EchoQuery(Baseline):
    id = "echo_query"
    description = "the right function, the user's query verbatim as the parameter"

    def replies(self, row, turns):
        return call(row, query(row))


class Constant(Baseline):
    id = "constant"
    description = "the right function, the word `ok` as the parameter"

    def replies(self, row, turns):
        return call(row, "ok")


class NoCall(Empty):
    description = "a reply with no tool call"


BASELINES = Registry("baseline", (NoCall, EchoQuery, Constant))
