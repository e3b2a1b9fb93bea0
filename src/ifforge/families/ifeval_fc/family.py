"""IFEval-FC: a format rule inside one free-form parameter of a tool schema, scored on real tool calls.

Plan: load takes the hand-written bank (and a JSONL file of functions, and, with an LLM, requests
for more) -> write (only with an LLM: the model writes the requested functions, each checked and
re-asked) -> check (every function: a valid schema, free-form carriers, enough queries) -> assign
(whole batch, seeded: rules spread evenly over the functions, never one a function's queries name;
a relation and arguments in the paper's ranges; a carrier; distractor tools) -> export renders
one row per (function, rule, query).
"""

from __future__ import annotations

import copy
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from ifforge.core.records import DroppedItem
from ifforge.core.runner import Stage
from ifforge.core.store.versions import VersionStore, code_version, content_hash, provenance
from ifforge.core.llm.setup import resolve_llm
from ifforge.families.base import BatchStage, Family, Loaded, Reply, Request, ReviewGuide, Verdict
from ifforge.families.ifeval_fc import functions, paper, rules
from ifforge.families.ifeval_fc.baselines import BASELINES
from ifforge.families.ifeval_fc.options import IfevalFcOptions
from ifforge.families.ifeval_fc.records import Case, Function
from ifforge.families.ifeval_fc.scoring import REPORT, row_problem, tool_calls_problem, verdict
from ifforge.families.ifeval_fc.settings import IfevalFcSettings


def enabled_rules(settings: IfevalFcSettings) -> list[str]:
    """The rules a benchmark draws: those asked for (default the paper's 15) that can take one of
    the allowed relations."""
    chosen = settings.rules or list(rules.DEFAULT_RULES)
    usable = [rule_id for rule_id in chosen if not rules.REGISTRY[rule_id].relations
              or set(rules.REGISTRY[rule_id].drawn or rules.REGISTRY[rule_id].relations) & set(settings.relations)]
    if not usable:
        raise ValueError(f"settings 'rules' and 'relations': no rule of {chosen} takes {settings.relations}")
    return usable


DRAWS = 20  # tries at arguments that no query of the function already satisfies, before the next rule


def draw(cls: type[rules.Rule], function: Function, settings: IfevalFcSettings,
         rng: random.Random) -> tuple[dict[str, Any] | None, int]:
    """Arguments (a relation among `relations`, the rest in the paper's ranges) that none of the
    function's queries satisfies as it stands: a model that copies the query into the parameter
    must not pass. Returns (arguments, draws taken), or (None, DRAWS) when every draw was satisfied."""
    for attempt in range(DRAWS):
        relation = rng.choice([r for r in (cls.drawn or cls.relations) if r in settings.relations]) \
            if cls.relations else None
        args = cls.sample_args(rng, relation)
        if not any(cls(**args).check(query) for query in function.queries):
            return args, attempt + 1
    return None, DRAWS


def assign(items: list[Function], settings: IfevalFcSettings) -> tuple[list[Case], list[DroppedItem], dict[str, Any]]:
    """Cases for every function: `rules_per_function` rules each, dealt from a seeded cycle of the
    enabled rules so each gets an even share, skipping any rule a query of the function names or
    already follows whatever the arguments (then the next rule of the cycle is tried)."""
    rng = random.Random(f"ifeval-fc:{settings.seed}")
    enabled = enabled_rules(settings)
    cycle = list(enabled)
    rng.shuffle(cycle)
    ordered = sorted(items, key=lambda f: f.task_id)
    rng.shuffle(ordered)
    cases: list[Case] = []
    dropped: list[DroppedItem] = []
    slot = redrawn = skipped = 0
    for function in ordered:
        taken: list[str] = []
        for _ in range(settings.rules_per_function):
            chosen = None
            for step in range(len(cycle)):
                rule_id = cycle[(slot + step) % len(cycle)]
                if rule_id in taken or any(rules.REGISTRY[rule_id].named_in(q) for q in function.queries):
                    continue
                args, draws = draw(rules.REGISTRY[rule_id], function, settings, rng)
                if args is None:
                    skipped += 1
                    continue
                redrawn += draws > 1
                chosen = rule_id, args
                break
            slot += 1
            if chosen is None:
                dropped.append(DroppedItem(task_id=function.task_id, stage="assign", reason="no_rule_left",
                                           detail=f"{len(taken)} rule(s) given; every other enabled rule is named "
                                                  "in a query, already followed by one, or taken",
                                           origin=function.origin))
                break
            rule_id, args = chosen
            taken.append(rule_id)
            parameter = rng.choice(function.carriers)
            name = function.tool["function"]["name"]
            others = [f for f in items if f.tool["function"]["name"] != name]
            elsewhere = [f for f in others if f.domain != function.domain] or others
            picked = sorted(elsewhere, key=lambda f: f.task_id)
            picked = rng.sample(picked, min(settings.distractors, len(picked)))
            position = rng.randint(0, len(picked))
            for index in range(len(function.queries)):
                cases.append(Case(task_id=f"{function.task_id}.{rule_id}.q{index + 1}", function=function,
                                  parameter=parameter, rule_id=rule_id, rule_args=args, query_index=index,
                                  distractors=[f.tool for f in picked], position=position))
    cases.sort(key=lambda c: c.task_id)
    return cases, dropped, {"in": len(items), "out": len(cases), "rules": dict(sorted(Counter(
        c.rule_id for c in cases).items())), "query_already_follows": {
        "redrawn": redrawn, "rules_skipped": skipped,
        "note": "a rule's arguments are redrawn (up to 20 times) until no query of the function follows it as "
                "written; a rule no draw gets past is skipped for the next one"}}


def target_tool(case: Case) -> dict[str, Any]:
    """The function's tool with the rule appended to its carrier's description."""
    tool = copy.deepcopy(case.function.tool)
    spec = tool["function"]["parameters"]["properties"][case.parameter]
    rule = rules.get(case.rule_id, **case.rule_args)
    spec["description"] = f"{spec.get('description', '').rstrip()} {rule.describe()}".strip()
    return tool


def row_of(case: Case, settings: IfevalFcSettings) -> dict[str, Any]:
    rule = rules.get(case.rule_id, **case.rule_args)
    tools = [*case.distractors[:case.position], target_tool(case), *case.distractors[case.position:]]
    function = case.function
    return {"family": "ifeval-fc", "task_id": case.task_id, "function_id": function.task_id, "domain": function.domain,
            "source": function.source, "function_name": function.tool["function"]["name"], "parameter": case.parameter,
            "rule_id": case.rule_id, "rule_args": case.rule_args, "relation": rule.relation, "rule_text": rule.describe(),
            "query_index": case.query_index, "seed": settings.seed, "tools": tools, "tool_choice": settings.tool_choice,
            "messages": [{"role": "system", "content": settings.system_message},
                         {"role": "user", "content": function.queries[case.query_index]}]}


def convert_files(folder: Path, options: dict[str, Any]) -> list[dict[str, Any]]:
    """The IFEval-FC repository's data/ folder as rows, under the system message asked for
    (`system_message`: the paper's own, ours, or a text)."""
    return paper.convert(folder, options.get("system_message", "paper"))


TEXT_PROTOCOL = """You can call these functions (OpenAI tools format):
{tools}

{query}

Answer with exactly one function call, written as one JSON object: {{"name": "<function name>", "arguments": {{<parameter>: <value>, ...}}}}."""


class IfevalFc(Family):
    id = "ifeval-fc"
    title = "format rules inside tool schemas, scored on real tool calls"
    measures = "whether a model follows a format rule written in a tool's parameter description when it fills that parameter in a real tool call"
    follows = 'IFEval-FC: Instruction-Following Evaluation in Function Calling (arXiv 2509.18420); code: github.com/Skripkon/ifeval-fc'
    settings_class = IfevalFcSettings
    loads = Function
    llm_stages = ("write",)
    carried = ("task_id", "function_name", "parameter", "rule_id", "relation")
    answers = ("tool_calls", "response")
    needs_rows = True  # the verdict reads the row's rule and tools
    report = REPORT
    row_means = ("accuracy", "called_rate", "provided_rate")  # under the paper's rules a batch fails together
    counted_by = ("rule_id",)
    baselines = BASELINES
    converter = staticmethod(convert_files)
    exports = {"ifeval-fc": "ifforge.families.ifeval_fc.export_files"}  # the paper's file layout
    review_guide = ReviewGuide(
        source="Tool schema (the rule sits in one parameter's description)", instruction="User query",
        guidance="For each task, check that the format rule in the tool's parameter says exactly what its checker "
                 "tests (the rule's id and arguments, below), that a model can follow it for this query, and that "
                 "the query asks for a call of this tool with that parameter filled in.")

    def data_licences(self, rows) -> list[str]:
        if any(row.get("source") == "paper" for row in rows):
            return ["Rows converted from IFEval-FC's released data (github.com/Skripkon/ifeval-fc, `ifforge convert "
                    "ifeval-fc`): MIT License, Copyright (c) 2025 Nikolai Skripko; keep its notice with them."]
        return []

    def check_inputs(self, settings: IfevalFcSettings) -> None:
        if settings.functions is not None:
            functions.from_file(settings.functions)  # raises InputError naming file, line and field

    def load(self, settings: IfevalFcSettings) -> Loaded:
        found = functions.from_bank() if settings.bank else []
        if settings.functions is not None:
            found += functions.from_file(settings.functions)
        models, _ = resolve_llm(settings, self.llm_stages)
        if "write" in models and settings.llm_functions:
            domains = sorted({f.domain for f in functions.from_bank()})
            found += functions.requests(settings.llm_functions, domains)
        seen: dict[str, Function] = {}
        dropped = []
        for function in found:
            name = function.tool["function"]["name"] if function.tool else function.task_id
            if name in seen:
                dropped.append(DroppedItem(task_id=function.task_id, stage="load", reason="duplicate_name",
                                           detail=f"function {name!r} is also {seen[name].origin}",
                                           origin=function.origin))
            else:
                seen[name] = function
        if not seen:
            raise ValueError("no functions: the bank is off (setting 'bank') and no 'functions' file or LLM was given")
        return Loaded(items=list(seen.values()), dropped=dropped,
                      inputs={"bank": settings.bank, "functions": str(settings.functions or ""),
                              "functions_sha256": content_hash([f.model_dump(mode="json") for f in seen.values()])})

    def write_loaded(self, store: VersionStore, items: list[Function]) -> None:
        for function in items:
            store.write(f"items/{function.task_id}/function.json", {
                **function.model_dump(mode="json"), "provenance": provenance("load", "1", content_hash(function))})

    def plan(self, settings: IfevalFcSettings) -> list:
        models, _ = resolve_llm(settings, self.llm_stages)
        enabled = enabled_rules(settings)
        version = code_version(sys.modules[__name__])
        steps: list = []
        if "write" in models:
            steps.append(Stage("write", version, Function, _unwritten, llm_function=functions.write,
                               llm=models["write"], prompts=("ifeval_fc_function",),
                               config=functions.WriteConfig(queries=settings.queries_per_function, rules=enabled,
                                                            reasks=settings.llm_reasks),
                               artifacts=_written_files, reads=Function))
        steps.append(Stage("check", version, Function, functions.check,
                           config=functions.CheckConfig(queries=settings.queries_per_function, rules=enabled),
                           reads=Function))
        steps.append(BatchStage("assign", assign, {"version": version, "rules": enabled}, reads=Function, writes=Case))
        return steps

    def export(self, store: VersionStore, items: list[Case], settings: IfevalFcSettings,
               side: dict[str, Any]) -> dict[str, Any]:
        rows = [row_of(case, settings) for case in items]
        store.write("benchmark.jsonl", "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
        return {"tasks": len(rows), "rows": len(rows), "functions": len({c.function.task_id for c in items}),
                "by_rule": dict(sorted(Counter(r["rule_id"] for r in rows).items())),
                "by_source": dict(sorted(Counter(r["source"] for r in rows).items()))}

    def summary_table(self, store: VersionStore) -> list[dict[str, Any]]:
        keys = ("task_id", "domain", "function_name", "parameter", "rule_id", "relation")
        return [{k: row.get(k) for k in keys} for row in map(json.loads, (store.path / "benchmark.jsonl").read_text()
                                                               .splitlines())]

    # ---- asking and judging ---------------------------------------------------------------------
    def row_problem(self, row: dict[str, Any]) -> str | None:
        return row_problem(row)

    def result_problem(self, result: dict[str, Any]) -> str | None:
        return super().result_problem(result) or tool_calls_problem(result.get("tool_calls"))

    def request(self, row: dict[str, Any]) -> Request:
        """The row's system message, its user query, its tools and its `tool_choice`; in the text
        protocol (`text_row`), one prompt."""
        if row.get("protocol") == "text":
            return Request((row["prompt"],))
        system = next((m["content"] for m in row["messages"] if m["role"] == "system"), None)
        return Request(tuple(m["content"] for m in row["messages"] if m["role"] == "user"), system=system,
                       tools=row["tools"], tool_choice=row.get("tool_choice", "auto"))

    def text_row(self, row: dict[str, Any]) -> dict[str, Any]:
        """The row asked without a tools API: the tools in the prompt, the call as a JSON object in
        the reply. A different protocol from the tools API, scored by the same checker."""
        query = next(m["content"] for m in row["messages"] if m["role"] == "user")
        system = next((m["content"] for m in row["messages"] if m["role"] == "system"), "")
        prompt = TEXT_PROTOCOL.format(tools=json.dumps(row["tools"], ensure_ascii=False, indent=1), query=query)
        return {**row, "protocol": "text", "prompt": f"{system}\n\n{prompt}".strip()}

    def check(self, row: dict[str, Any], reply: Reply, options: IfevalFcOptions | None = None) -> Verdict:
        """The reply's calls by our reading, or the paper's (the evaluation's `rules`, else the row's)."""
        if options is None:
            return verdict(row, reply)
        return verdict(row, reply, options.rules, options.paper_nltk)

    def annotate(self, results, frame, rows, settings, asker, folder) -> dict[str, Any]:
        """The rules the report names (and, under the paper's, the nltk whose word count they reproduce)."""
        return settings.options.fingerprint()

    def sample_view(self, row: dict[str, Any], verdict: Verdict) -> dict[str, Any]:
        """The rule the argument must follow, on which function and parameter; the checker's reason."""
        reason = "right" if verdict.correct else str(verdict.lines[0].get("reason") or "wrong").replace("_", " ")
        return {"gold": {"function": row.get("function_name"), "parameter": row.get("parameter"),
                         "rule": row.get("rule_text")}, "reason": reason, "task": row.get("rule_id"),
                "tier": row.get("relation")}

    def review_view(self, row: dict[str, Any]) -> dict[str, Any]:
        tool = next(t for t in row["tools"] if t["function"]["name"] == row["function_name"])
        query = next(m["content"] for m in row["messages"] if m["role"] == "user")
        return {"title": row["task_id"], "source": json.dumps(tool, ensure_ascii=False, indent=2), "instruction": query,
                "details": {"rule": f"{row['rule_id']} {json.dumps(row['rule_args'])}: {row['rule_text']}",
                            "parameter": row["parameter"], "domain": row["domain"],
                            "tools offered": ", ".join(t["function"]["name"] for t in row["tools"])}}


def _unwritten(item: Function):
    raise RuntimeError("the write stage runs only with an LLM")


def _written_files(item: Function, outcome) -> tuple[dict, dict]:
    kept = outcome.kept
    if kept is None or item.tool is not None:
        return {}, {}
    return {"model": kept.model}, {"written.json": json.dumps(kept.model_dump(mode="json"), indent=2,
                                                              ensure_ascii=False)}


FAMILY = IfevalFc()
