"""IFEval-FC's records: a function (a tool schema with its user queries) and one case built on it."""

from __future__ import annotations

from typing import Any

from ifforge.core.records import Record


class Function(Record):
    """A tool schema, the parameters a rule may go to, and user queries written without any rule.
    An LLM-requested function starts empty (`tool` None) and the `write` stage fills it in."""

    task_id: str  # bank.<name>, file.<name> or llm.<domain>.<k>
    domain: str
    source: str  # bank, file or llm
    origin: str  # where it came from: the bank, file:line, or the model's request
    tool: dict[str, Any] | None = None  # an OpenAI `tools` entry, without any rule
    carriers: list[str] = []
    queries: list[str] = []
    model: str | None = None  # the model that wrote it, for LLM-written functions


class Case(Record):
    """One benchmark row before rendering: a function, the parameter that carries the rule, the rule,
    one query, and the distractor tools offered beside it."""

    task_id: str
    function: Function
    parameter: str
    rule_id: str
    rule_args: dict[str, Any]
    query_index: int
    distractors: list[dict[str, Any]] = []
    position: int = 0  # where the target tool sits among the distractors
