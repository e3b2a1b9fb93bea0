"""Where functions come from (the bank, a JSONL file, an LLM) and the one check they all pass.

A function is usable when its tool is a valid OpenAI `tools` entry whose parameters are a valid
JSON schema, every carrier is a required string parameter with no enum, format, pattern or const
(free-form), and it has enough distinct, non-empty queries. An LLM-written function must also have
queries that name no rule; for the bank and files, the rule drawn for a function is one its
queries do not name (see `family.assign`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
from pydantic import BaseModel, Field

from ifforge.core.llm.client import LLM
from ifforge.core.prompts import load_prompt
from ifforge.core.records import DroppedItem, Outcome, Record
from ifforge.core.untrusted import InputError, parse_json, parsed_lines
from ifforge.families.ifeval_fc import bank, rules
from ifforge.families.ifeval_fc.records import Function

NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
NOT_FREE_FORM = ("enum", "format", "pattern", "const")


def tool_problem(tool: Any, carriers: list[str], queries: list[str], needed: int) -> str | None:
    """Why this function cannot be used, or None."""
    if not isinstance(tool, dict) or tool.get("type") != "function" or not isinstance(tool.get("function"), dict):
        return 'the tool must be an object {"type": "function", "function": {...}}'
    function = tool["function"]
    name, parameters = function.get("name"), function.get("parameters")
    if not isinstance(name, str) or not NAME.match(name):
        return f"function.name {name!r} must be 1-64 letters, digits, '_' or '-'"
    if not isinstance(function.get("description"), str) or not function["description"].strip():
        return "function.description must be a non-empty string"
    if not isinstance(parameters, dict) or parameters.get("type") != "object" \
            or not isinstance(parameters.get("properties"), dict) or not parameters["properties"]:
        return 'function.parameters must be a JSON schema {"type": "object", "properties": {...}} with properties'
    try:
        jsonschema.Draft202012Validator.check_schema(parameters)
    except jsonschema.SchemaError as error:
        return f"function.parameters is not a valid JSON schema: {error.message}"
    required = parameters.get("required", [])
    if not isinstance(required, list) or not set(required) <= set(parameters["properties"]):
        return "function.parameters.required must list properties"
    if not carriers:
        return "no carrier: name at least one free-form string parameter a rule may go to"
    for carrier in carriers:
        spec = parameters["properties"].get(carrier)
        if not isinstance(spec, dict):
            return f"carrier {carrier!r} is not a parameter"
        if spec.get("type") != "string" or any(key in spec for key in NOT_FREE_FORM):
            return f"carrier {carrier!r} must be a free-form string (type string, no enum, format, pattern or const)"
        if carrier not in required:
            return f"carrier {carrier!r} must be required"
    if len(queries) < needed or not all(isinstance(q, str) and q.strip() for q in queries):
        return f"needs at least {needed} non-empty queries, has {len([q for q in queries if isinstance(q, str)])}"
    if len(set(queries)) != len(queries):
        return "two queries are the same"
    return None


def from_bank() -> list[Function]:
    return [Function(task_id=f"bank.{name}", domain=domain, source="bank", origin=f"bank:{name}",
                     tool=bank.tool(name, description, parameters), carriers=bank.carriers(parameters),
                     queries=list(queries))
            for domain, name, description, parameters, queries in bank.BANK]


def from_file(path: Path) -> list[Function]:
    """Functions of a JSONL file, one `{domain, tool, carriers, queries}` per line. A line that does
    not fit stops the run with its file, line and field: a typo should not silently shrink a benchmark."""
    path = Path(path)
    found = []
    refused = lambda message: InputError(f"{message} (setting 'functions')")  # noqa: E731
    for number, entry in parsed_lines(path, parse_json, refused):
        if not isinstance(entry, dict):
            raise InputError(f"{path}:{number}: a line must be a JSON object")
        for key, kind in (("domain", str), ("tool", dict), ("carriers", list), ("queries", list)):
            if not isinstance(entry.get(key), kind):
                raise InputError(f"{path}:{number}: field {key!r} must be a {kind.__name__}")
        problem = tool_problem(entry["tool"], entry["carriers"], entry["queries"], 1)
        if problem:
            raise InputError(f"{path}:{number}: {problem}")
        name = entry["tool"]["function"]["name"]
        found.append(Function(task_id=f"file.{name}", domain=entry["domain"], source="file",
                              origin=f"{path.name}:{number}", tool=entry["tool"], carriers=entry["carriers"],
                              queries=entry["queries"]))
    return found


def requests(count: int, domains: list[str]) -> list[Function]:
    """Empty functions for an LLM to write, spread over the domains in turn."""
    return [Function(task_id=f"llm.{domains[k % len(domains)]}.{k // len(domains) + 1}", domain=domains[k % len(domains)],
                     source="llm", origin=f"llm request {k + 1} of {count}") for k in range(count)]


class CheckConfig(Record):
    queries: int
    rules: list[str]


def check(function: Function, config: CheckConfig) -> Outcome[Function]:
    """Keep a function that is usable, with its first `queries` queries."""
    problem = tool_problem(function.tool, function.carriers, function.queries, config.queries)
    if problem:
        return Outcome(dropped=[DroppedItem(task_id=function.task_id, stage="check", reason="invalid_function",
                                            detail=problem, origin=function.origin)])
    usable = [rule_id for rule_id in config.rules if not any(_names(rule_id, q) for q in function.queries[:config.queries])]
    if not usable:
        return Outcome(dropped=[DroppedItem(task_id=function.task_id, stage="check", reason="queries_name_every_rule",
                                            detail="every enabled rule is named in a query", origin=function.origin)])
    return Outcome(kept=function.model_copy(update={"queries": function.queries[:config.queries]}))


def _names(rule_id: str, query: str) -> bool:
    return rules.REGISTRY[rule_id].named_in(query)


# ---- the LLM stage ------------------------------------------------------------------------------
class WrittenFunction(BaseModel):
    name: str
    description: str
    parameters: dict[str, Any]
    carrier: str = Field(description="the free-form string parameter a format rule may go to")
    queries: list[str]


class WriteConfig(Record):
    queries: int
    rules: list[str]
    reasks: int


def _example(domain: str) -> str:
    entry = next(e for e in bank.BANK if e[0] == domain) if any(e[0] == domain for e in bank.BANK) else bank.BANK[0]
    tool = bank.tool(entry[1], entry[2], entry[3])["function"]
    return json.dumps({**tool, "carrier": bank.carriers(entry[3])[0], "queries": list(entry[4])}, indent=1)


def written_problem(written: WrittenFunction, config: WriteConfig, taken: set[str]) -> str | None:
    tool = {"type": "function", "function": {"name": written.name, "description": written.description,
                                             "parameters": written.parameters}}
    problem = tool_problem(tool, [written.carrier], written.queries, config.queries)
    if problem:
        return problem
    if written.name in taken:
        return f"the name {written.name!r} is taken: choose another function"
    for query in written.queries:
        named = [rule_id for rule_id in config.rules if _names(rule_id, query)]
        if named:
            return (f"the query {query[:80]!r} talks about the value's format ({named[0]}): queries must say what "
                    "the user wants, never how a value is written")
    return None


async def write(function: Function, llm: LLM, config: WriteConfig) -> Outcome[Function]:
    """An LLM writes a requested function (schema, carrier, queries); each answer is checked and
    re-asked with the problem; a function that never passes is dropped. Others pass through."""
    if function.tool is not None:
        return Outcome(kept=function)
    prompt = load_prompt("ifeval_fc_function")
    taken = {entry[1] for entry in bank.BANK}
    index = function.task_id.rsplit(".", 1)[-1]
    messages = [{"role": "user", "content": prompt.render(domain=function.domain, index=index, queries=config.queries,
                                                          example=_example(function.domain),
                                                          taken=", ".join(sorted(taken)))}]
    asked = await llm.chat_checked(
        messages, WrittenFunction, stage="write", prompt_versions={"ifeval_fc_function": prompt.hash},
        reasks=config.reasks, check=lambda written: written_problem(written, config, taken),
        again="That cannot be used: {problem}. Write it again, as one JSON object of the same shape.")
    written, problem = asked.reply, asked.problem
    if problem is None:
        tool = {"type": "function", "function": {"name": written.name, "description": written.description,
                                                 "parameters": written.parameters}}
        return Outcome(kept=function.model_copy(update={
            "tool": tool, "carriers": [written.carrier], "queries": written.queries[:config.queries],
            "model": llm.config.model}))
    return Outcome(dropped=[DroppedItem(task_id=function.task_id, stage="write", reason="llm_function_unusable",
                                        detail=problem[:800], origin=function.origin)])
