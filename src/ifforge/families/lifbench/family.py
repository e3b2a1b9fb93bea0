"""LIFBench: long inputs (List, MultiDoc, OneDoc) at six lengths, each task's instruction under k
rewritten templates (the Expression Extension) and several variable sets, scored by LIFEval's
weighted rubrics; stability (IFS) across expressions, variables and lengths.

Plan: load lists the inputs to build (scenario x length x sample) -> build (per input, cached:
the long text to its token budget, and the facts every answer comes from) -> export renders
every task of the input's scenario under every variable set and expression. Beside the stages,
the expression side work picks each template's expressions (bank offline, a model when
configured, clustered by the shared transform).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from ifforge.core.llm.setup import resolve_llm
from ifforge.core.prompts import load_prompt
from ifforge.core.records import Outcome, Record
from ifforge.core.runner import Stage
from ifforge.core.store.versions import VersionStore, code_version, content_hash, provenance
from ifforge.families.base import Family, Loaded, Reply, ReviewGuide, Verdict
from ifforge.families.lifbench import rubric, scenarios, tasks, texts, tokens
from ifforge.families.lifbench.baselines import BASELINES
from ifforge.families.lifbench.convert import convert
from ifforge.families.lifbench.options import LifbenchOptions
from ifforge.families.lifbench.scenarios import Context, ContextSpec
from ifforge.families.lifbench.scoring import REPORT, verdict
from ifforge.families.lifbench.settings import LifbenchSettings
from ifforge.transforms import expressions
from ifforge.transforms.embeddings import for_settings

LLM_STAGES = ("expressions",)


class BuildConfig(Record):
    """What a built input depends on besides its spec: the prose corpus and the token encoding."""

    corpus: str
    encoding: str


def build_context(spec: ContextSpec, config: BuildConfig) -> Outcome[Context]:
    return Outcome(kept=scenarios.build(spec))


def _built_files(spec: ContextSpec, outcome: Outcome) -> tuple[dict, dict]:
    context = outcome.kept
    if context is None:
        return {}, {}
    return {"tokens": context.tokens}, {"input.txt": context.text,
                                        "facts.json": json.dumps(context.facts, indent=1, ensure_ascii=False)}


def enabled_tasks(settings: LifbenchSettings) -> list[tasks.Task]:
    return [task for task in tasks.TASKS.values() if task.scenario in settings.scenarios
            and (not settings.tasks or task.id in settings.tasks)]


def templates(settings: LifbenchSettings) -> dict[str, Any]:
    return {task.id: load_prompt(task.template) for task in enabled_tasks(settings)}


def choose_expressions(settings: LifbenchSettings, hub=None) -> dict[str, Any]:
    """Per task: (its chosen expressions or None, the rewrites' vectors, a line saying what happened).
    The rewrites are the template's bank, and with a model configured, the model's beside them."""
    config = resolve_llm(settings, LLM_STAGES)[0].get("expressions")
    cache = None if settings.no_cache else settings.response_cache
    model = for_settings(settings)
    chosen = {}
    for task_id, template in templates(settings).items():
        texts_, origin, source = expressions.gather(template, settings.rewrites, config, hub, cache, with_bank=True)
        if not texts_:
            chosen[task_id] = (None, None, f"{task_id}: no rewrites from {source}: the original template only")
            continue
        picked, vectors = expressions.extend(template, settings.expressions, texts_, origin, model)
        chosen[task_id] = (picked, vectors, f"{task_id}: {len(picked.chosen)} expressions chosen from "
                                            f"{len(texts_)} rewrites by {source}")
    return chosen


PAPER_WORDINGS = {"offset_id": 12, "offset_element": 12, "blur_element": 12, "blur_id": 11}  # others: 5
PAPER_VARIABLE_SETS = {"single_id": 6, "offset_id": 6, "offset_element": 6, "blur_id": 6, "blur_element": 6,
                       "qa": 6}  # others: 5


def forms_for(task: tasks.Task, settings: LifbenchSettings, chosen: dict[str, Any]) -> dict[str, str]:
    """The task's wordings by expression id: the template (e0), then the chosen rewrites, or under the
    paper's grid the bank's first ones, as many as the paper has wordings."""
    template = load_prompt(task.template)
    if settings.grid == "paper":
        bank = expressions.load_bank(task.template)[:PAPER_WORDINGS.get(task.id, 5) - 1]
        return {"e0": template.text, **{f"e{i}": text for i, text in enumerate(bank, 1)}}
    picked = chosen.get(task.id, (None,))[0]
    return {"e0": template.text, **(picked.texts() if picked is not None else {})}


def variable_sets(task: tasks.Task, settings: LifbenchSettings) -> int:
    return PAPER_VARIABLE_SETS.get(task.id, 5) if settings.grid == "paper" else settings.variable_sets


def render_rows(context: Context, settings: LifbenchSettings, chosen: dict[str, Any]) -> list[dict[str, Any]]:
    """Every row of one input: its scenario's tasks x variable sets x expressions (e0: the original)."""
    rows = []
    head = tasks.head(context)
    head_tokens = tokens.count(head)
    for task in enabled_tasks(settings):
        if task.scenario != context.scenario:
            continue
        forms = forms_for(task, settings, chosen)
        drawn: set[str] = set()
        for v in range(variable_sets(task, settings)):
            for attempt in range(20):  # variable sets of one input differ, as far as the input allows
                values, gold, facts = task.draw(context, scenarios.rng_for(settings.seed, context.task_id, task.id,
                                                                           v, attempt), v)
                if json.dumps(values, sort_keys=True) not in drawn:
                    break
            drawn.add(json.dumps(values, sort_keys=True))
            for expression_id, text in forms.items():
                instruction = expressions.PLACEHOLDER.sub(lambda m: str(values[m[1]]), text)
                tail = tasks.tail(instruction)
                prompt = head + tail
                rows.append({
                    "family": "lifbench", "task_id": f"{context.task_id}-{task.id}-v{v}-{expression_id}",
                    "sample_id": f"{context.task_id}-{task.id}-v{v}", "scenario": context.scenario, "task": task.id,
                    "length_tokens": context.length, "input_tokens": context.tokens,
                    "prompt_tokens": head_tokens + tokens.count(tail),
                    "input_id": context.task_id, "expression_id": expression_id, "variables_id": f"v{v}",
                    "variables": values, "instruction": instruction, "prompt": prompt, "gold": gold, "facts": facts,
                    "rubric": rubric.rubric_entries(task.id), "rubric_total": rubric.total(task.id),
                    "seed": settings.seed})
    return rows


def write_expressions(store: VersionStore, chosen: dict[str, Any]) -> None:
    """Per task: every rewrite with its cluster, the chosen expressions; one picture of all clusters."""
    plotted = {task_id: (picked, vectors) for task_id, (picked, vectors, _) in chosen.items()
               if picked is not None and vectors is not None and len(vectors) > 1}
    if plotted:
        expressions.plot_cluster_grid(plotted, store.path / "expressions" / "clusters.png")
    for task_id, (picked, vectors, _) in chosen.items():
        if picked is None:
            continue
        store.write(f"expressions/{task_id}/rewrites.jsonl", expressions.to_jsonl(picked))
        store.write(f"expressions/{task_id}/expressions.json", {
            "template": picked.template, "template_hash": picked.template_hash, "k": picked.k,
            "embedding_model": picked.embedding_model, "notes": picked.notes,
            "chosen": [{"expression_id": eid, "rewrite_id": rid, "text": text}
                       for (eid, text), rid in zip(picked.texts().items(), picked.chosen)]})


def convert_files(folder: Path, options: dict[str, Any]) -> list[dict[str, Any]]:
    """LIFBench's data/ folder (its prompts/, else prompts rendered from its meta/) or one task file, as rows."""
    return convert(folder)


class Lifbench(Family):
    id = "lifbench"
    title = "long-input scenarios, LIFEval rubric scores and stability (IFS)"
    measures = 'instruction following over long inputs (List, MultiDoc, OneDoc scenarios) scored by rubric points (ARS), and its stability across rewordings, variables and lengths (IFS)'
    follows = 'LIFBench: Wu et al., Evaluating the Instruction Following Performance and Stability of Large Language Models in Long-Context Scenarios (arXiv 2411.07037); code: github.com/SheldonWu0327/LIFBench-2024'
    settings_class = LifbenchSettings
    loads = ContextSpec
    llm_stages = LLM_STAGES
    row_fields = {"task_id": object, "sample_id": object, "scenario": object, "task": str, "length_tokens": int,
                  "expression_id": object, "variables_id": object, "prompt": str, "gold": object, "facts": dict}
    carried = ("task_id", "task", "length_tokens", "expression_id", "variables_id")
    needs_rows = True  # the rubric reads the row's gold and facts
    counted_by = ("scenario", "task")
    report = REPORT
    row_means = ("full_points",)  # ARS is weighted by task totals
    baselines = BASELINES
    converter = staticmethod(convert_files)
    review_guide = ReviewGuide(
        source="Gold answer", instruction="Instruction",
        guidance="For each task, check that the instruction asks for exactly what the gold answer holds for this "
                 "input (its start is below) and that the rubric's points give full marks to that answer alone.")

    def row_problem(self, row: dict[str, Any]) -> str | None:
        problem = super().row_problem(row)
        if not problem and row["task"] not in tasks.TASKS:
            return f"field 'task': {tasks.TASKS.unknown(row['task'])}"
        return problem

    def row_id(self, row: dict[str, Any]) -> str:
        """The row's `task_id`, which already names its expression (`...-e0`, a converted row's `...-e3-n7`)."""
        return str(row["task_id"])

    def data_licences(self, rows) -> list[str]:
        kinds = {"converted" if isinstance(row.get("paper"), dict) else "built" for row in rows}
        return [line for kind, line in (
            ("built", "The long inputs are built from text that ships with Python (its help topics and docstrings), "
                      "under the PSF License Agreement (PSF-2.0) of the Python version named under Inputs."),
            ("converted", "Rows converted from LIFBench's released data (github.com/SheldonWu0327/LIFBench-2024, "
                          "`ifforge convert lifbench`): that repository declares no licence, so ask its authors "
                          "before publishing them.")) if kind in kinds]

    def options_problem(self, row: dict[str, Any], options: LifbenchOptions) -> str | None:
        if options.rules == "paper" and not isinstance(row.get("paper"), dict):
            return ("--rules paper scores with LIFBench's own judges, which read the original's fields ('paper': "
                    "rows made by ifforge convert lifbench); generated rows are scored by ifforge's rules")
        return None

    def load(self, settings: LifbenchSettings) -> Loaded:
        wanted = {task.scenario for task in enabled_tasks(settings)}
        specs = [ContextSpec(task_id=f"{scenario}-L{length}-s{sample}", scenario=scenario, length=length,
                             sample=sample, seed=settings.seed)
                 for scenario in scenarios.SCENARIOS if scenario in wanted
                 for length in settings.lengths for sample in range(settings.samples)]
        return Loaded(items=specs, dropped=[], inputs={"seed": settings.seed, "corpus": texts.corpus_hash(),
                                                       "python": sys.version.split()[0],
                                                       "tokenizer": tokens.DESCRIPTION})

    def write_loaded(self, store: VersionStore, items: list[ContextSpec]) -> None:
        for spec in items:
            store.write(f"items/{spec.task_id}/spec.json", {**spec.model_dump(mode="json"),
                                                            "provenance": provenance("load", "1", content_hash(spec))})

    def plan(self, settings: LifbenchSettings) -> list:
        return [Stage("build", code_version(sys.modules[__name__], scenarios), Context, build_context,
                      config=BuildConfig(corpus=texts.corpus_hash(), encoding=tokens.ENCODING),
                      artifacts=_built_files, reads=ContextSpec)]

    def independent_work(self, settings: LifbenchSettings) -> dict:
        return {"expressions": choose_expressions} if settings.expressions and settings.grid != "paper" else {}

    def independent_identity(self, settings: LifbenchSettings) -> Any:
        config = (resolve_llm(settings, LLM_STAGES)[0].get("expressions")
                  if settings.expressions and settings.grid != "paper" else None)
        banks = {name: load_prompt(f"{name}_rewrites").hash for name in (t.template for t in enabled_tasks(settings))
                 if expressions.bank_exists(name)}
        return {"templates": {k: p.hash for k, p in templates(settings).items()},
                "rubric": code_version(rubric, tasks), "expressions": code_version(expressions),
                "source": {"banks": banks, "model": ({"model": config.model, **config.generation_parameters(),
                                                      "prompt": load_prompt("rewrite").hash, "rewrites": settings.rewrites}
                                                     if config else None)},
                "embedding_model": str(settings.embedding_model or "default")}

    def export(self, store: VersionStore, items: list[Context], settings: LifbenchSettings,
               side: dict[str, Any]) -> dict[str, Any]:
        chosen = side.get("expressions", {})
        store.notes.extend(message for _, _, message in chosen.values())
        write_expressions(store, chosen)
        rows = [row for context in sorted(items, key=lambda c: c.task_id) for row in render_rows(context, settings, chosen)]
        store.write("benchmark.jsonl", "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
        return {"tasks": len(rows), "rows": len(rows), "inputs": len(items), "tokenizer": tokens.DESCRIPTION,
                "prompt_tokens": sum(row["prompt_tokens"] for row in rows),
                "by_task": dict(Counter(row["task"] for row in rows)),
                "by_length": {str(k): v for k, v in sorted(Counter(row["length_tokens"] for row in rows).items())},
                "expressions": sorted({row["expression_id"] for row in rows})}

    def summary_table(self, store: VersionStore) -> list[dict[str, Any]]:
        table = []
        with open(store.path / "benchmark.jsonl") as rows:
            for line in rows:
                row = json.loads(line)
                table.append({k: row[k] for k in ("task_id", "scenario", "task", "length_tokens", "prompt_tokens",
                                                  "expression_id", "variables_id")})
        return table

    # ---- evaluate -------------------------------------------------------------------------------
    def check(self, row: dict[str, Any], reply: Reply, options: LifbenchOptions | None = None) -> Verdict:
        """The rubric's verdict (the original's, under rules paper: the evaluation's, or the row's
        own as an export carries it): `correct` when every point is earned in full."""
        rules = options.rules if options is not None else row.get("rules") or "ifforge"
        return verdict(row, reply, rules)

    def request_tokens(self, row: dict[str, Any]) -> int | None:
        """Generated rows count their prompt's tokens (cl100k_base); converted ones may not."""
        counted = row.get("prompt_tokens")
        return counted if isinstance(counted, int) and not isinstance(counted, bool) else None

    def sample_view(self, row: dict[str, Any], verdict: Verdict) -> dict[str, Any]:
        """The gold; the rubric points not earned in full, by name."""
        points = verdict.lines[0].get("points")
        points = json.loads(points) if isinstance(points, str) else points or {}
        weights = {entry["id"]: entry["weight"] for entry in row.get("rubric") or [] if isinstance(entry, dict)}
        lost = [name for name, earned in points.items() if name in weights and earned < weights[name]]
        reason = "right" if verdict.correct else ("points lost: " + ", ".join(lost)) if lost else "wrong"
        return {"gold": row.get("gold"), "reason": reason, "task": row.get("task"),
                "tier": f"{row.get('length_tokens')} tokens"}

    def review_view(self, row: dict[str, Any]) -> dict[str, Any]:
        return {"title": row["task_id"], "source": json.dumps(row["gold"], indent=1, ensure_ascii=False)[:4000],
                "instruction": row["instruction"],
                "details": {"setting": f"{row['scenario']} / {row['task']}, input of {row.get('input_tokens')} tokens "
                                       f"(target {row['length_tokens']}), prompt {row['prompt_tokens']}, expression {row['expression_id']}, "
                                       f"variables {row['variables_id']}",
                            "rubric": ", ".join(f"{p['id']} {p['weight']:g}" for p in row["rubric"]),
                            "input (start)": row["prompt"][:1500]}}


FAMILY = Lifbench()
