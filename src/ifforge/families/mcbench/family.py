"""MCBench: a string metric written as a step-by-step rubric, computed by a model for a pair of
texts (hypothesis A, reference B); gold for every step from the metric's reference code, run in
the sandbox.

Plan: load draws the seeded pairs (with spares per category) and makes one item per metric -> gold
(per metric, one sandbox call over all pairs; a pair whose run fails or gives a malformed value is
dropped with its reason) -> export picks each metric's pairs (a spare stands in for a pair whose
final value a constant answer gives) and renders every (metric, pair) in each rubric variant:
requirements only; + an example per step; + an example and the reference code per step.
"""

from __future__ import annotations

import functools
import json
import math
import sys
from collections import Counter
from typing import Any

from ifforge.core.sandbox import execution as sandbox
from ifforge.core.prompts import load_prompt
from ifforge.core.records import DroppedItem, Outcome, Record
from ifforge.core.runner import Stage
from ifforge.core.store.versions import VersionStore, code_version, content_hash, provenance
from ifforge.families.base import NUMBER, Family, Loaded, Reply, ReviewGuide, Verdict
from ifforge.families.mcbench import metrics, pairs
from ifforge.families.mcbench.baselines import BASELINES, a_constant_passes
from ifforge.families.mcbench.records import GoldCase, GoldMetric, MetricTask
from ifforge.families.mcbench.rubric import EXAMPLES, Metric, shown
from ifforge.families.mcbench.scoring import REPORT, verdict
from ifforge.families.mcbench.settings import McbenchSettings

PROMPT = "mcbench_rubric"


class GoldConfig(Record):
    case_seconds: float
    memory_mb: int


def _json_value(value: Any) -> bool:
    """Numbers (finite), strings, null, and lists/objects of them: what a step may give."""
    if value is None or isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_json_value(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_value(v) for k, v in value.items())
    return False


def compute_gold(task: MetricTask, config: GoldConfig) -> Outcome[GoldMetric]:
    """Run the metric's reference code on every pair in the sandbox; its step values are the gold."""
    metric = metrics.get(task.task_id)
    program = metric.program()
    limits = sandbox.Limits(case_seconds=config.case_seconds, memory_bytes=config.memory_mb << 20)
    results = sandbox.run_cases(program, "run", [[p.hypothesis, p.reference] for p in task.pairs], limits=limits)
    kept: list[GoldCase] = []
    dropped: list[DroppedItem] = []
    for pair, result in zip(task.pairs, results):
        steps = result.output
        problem: tuple[str, str] | None = None
        if not result.ok:
            problem = (f"sandbox_{result.status}", result.error)
        elif not isinstance(steps, list) or len(steps) != len(metric.steps) or not _json_value(steps):
            problem = ("bad_shape", f"the reference gave {json.dumps(steps, ensure_ascii=False)[:200]}")
        elif isinstance(steps[-1], bool) or not isinstance(steps[-1], (int, float)):
            problem = ("bad_final", f"the final value is not a number: {json.dumps(steps[-1], ensure_ascii=False)[:100]}")
        if problem:
            dropped.append(DroppedItem(task_id=f"{task.task_id}-{pair.pair_id}", stage="gold", reason=problem[0],
                                       detail=problem[1], origin=pair.pair_id))
        else:
            kept.append(GoldCase(pair=pair, steps=steps))
    if not kept:
        return Outcome(dropped=dropped)
    return Outcome(kept=GoldMetric(task_id=task.task_id, code=program, cases=kept), dropped=dropped)


def _gold_files(item: MetricTask, outcome: Outcome) -> tuple[dict, dict]:
    kept = outcome.kept
    if kept is None:
        return {}, {}
    return {"gold": {case.pair.pair_id: case.steps for case in kept.cases}}, {"reference.py": kept.code}


@functools.cache
def rubric_text(metric: type[Metric], variant: str) -> str:
    """The rubric's steps as the prompt shows them in one variant (the same for every pair: made once)."""
    example_a, example_b = EXAMPLES[metric.unit]
    values = metric.example_values() if variant != "requirement" else []
    unit = "words (X split at whitespace)" if metric.unit == "words" else "characters (Unicode code points)"
    blocks = [f"Notation: $|X|$ is the length of X in {unit}; $c_X(g)$ is the number of times $g$ occurs in X; "
              "positions count from 1 unless a step says from 0."]
    if variant != "requirement":
        blocks.append(f"Every example below uses A = {json.dumps(example_a, ensure_ascii=False)} and "
                      f"B = {json.dumps(example_b, ensure_ascii=False)}.")
    if variant == "code" and metric.helpers.strip():
        blocks.append(f"Helper code the steps' code uses:\n```python\n{metric.helpers.strip()}\n```")
    for k, step in enumerate(metric.steps, 1):
        lines = [f"## Step {k}: {step.title}", step.requirement]
        if step.unordered:
            lines.append("(This value is a set: list its members in any order.)")
        if variant != "requirement":
            lines.append(f"Example: {shown(values[k - 1])}")
        if variant == "code":
            lines.append(f"Reference code (`s1`, `s2`, ... are the values of steps 1, 2, ...; `a` is A, `b` is B):\n"
                         f"```python\n{step.code.strip()}\n```")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def render(metric: type[Metric], variant: str, hypothesis: str, reference: str) -> str:
    n = len(metric.steps)
    answer_lines = "\n".join(f"[Step{k}] : <value of step {k}>" for k in range(1, n + 1))
    return load_prompt(PROMPT).render(summary=metric.summary, n=n, steps=rubric_text(metric, variant),
                                      hypothesis=json.dumps(hypothesis, ensure_ascii=False),
                                      reference=json.dumps(reference, ensure_ascii=False), answer_lines=answer_lines)


def chosen_cases(gold: GoldMetric, per_category: int) -> tuple[list[GoldCase], int, int]:
    """Per category the first `per_category` pairs, in order, whose final value no constant answer
    (0 or 1) gives; spares stand in for those that do, which fill in only when the spares run out.
    Also: how many were replaced, and how many are left in."""
    by_category: dict[str, list[GoldCase]] = {}
    for case in gold.cases:
        by_category.setdefault(case.pair.category, []).append(case)
    chosen: list[GoldCase] = []
    replaced = kept = 0
    for cases in by_category.values():
        trivial = [a_constant_passes(case.steps[-1]) for case in cases]
        order = sorted(range(len(cases)), key=lambda i: trivial[i])  # stable: in order, the trivial last
        picked = sorted(order[:per_category])
        left_in = sum(trivial[i] for i in picked)  # the earliest of them: all among the first per_category
        kept += left_in
        replaced += sum(trivial[:per_category]) - left_in
        chosen += [cases[i] for i in picked]
    position = {id(case): i for i, case in enumerate(gold.cases)}
    return sorted(chosen, key=lambda case: position[id(case)]), replaced, kept


def rows_of(gold: GoldMetric, settings: McbenchSettings) -> list[dict[str, Any]]:
    metric = metrics.get(gold.task_id)
    rows = []
    for case in chosen_cases(gold, settings.pairs_per_category)[0]:
        for variant in settings.variants:
            rows.append({
                "family": "mcbench", "task_id": f"{metric.id}-{case.pair.pair_id}-{variant}", "metric": metric.id,
                "metric_name": metric.name, "variant": variant, "category": case.pair.category,
                "pair_id": case.pair.pair_id, "seed": settings.seed, "hypothesis": case.pair.hypothesis,
                "reference": case.pair.reference, "steps": len(metric.steps),
                "step_titles": [step.title for step in metric.steps],
                "unordered_steps": [k for k, step in enumerate(metric.steps, 1) if step.unordered],
                "gold_steps": case.steps, "gold_final": case.steps[-1],
                "prompt": render(metric, variant, case.pair.hypothesis, case.pair.reference),
            })
    return rows


def _unordered_problem(row: dict[str, Any]) -> str | None:
    steps = row.get("unordered_steps", [])
    if not isinstance(steps, list) or not all(isinstance(k, int) and not isinstance(k, bool) for k in steps):
        return "field 'unordered_steps' must be a list of step numbers"
    return None


class Mcbench(Family):
    id = "mcbench"
    title = "step-by-step metric rubrics, gold from parallel reference code"
    measures = 'whether a model can follow a step-by-step rubric for a string metric (BLEU, Levenshtein, ...) exactly, every step and the final value checked'
    follows = 'MCBench (metric computation as step-by-step rubrics; its code and data are not public)'
    settings_class = McbenchSettings
    loads = MetricTask
    llm_stages = ()
    row_fields = {"task_id": object, "prompt": str, "gold_steps": list, "gold_final": NUMBER}
    carried = ("task_id", "metric", "variant", "category", "pair_id", "gold_steps", "gold_final", "unordered_steps")
    counted_by = ("category", "metric")
    report = REPORT
    row_means = ("final_accuracy", "format_following")  # following depth: per step
    baselines = BASELINES
    review_guide = ReviewGuide(
        source="The metric's reference code", instruction="Rubric",
        guidance="For each task, check that following the rubric step by step on this sentence pair gives the gold "
                 "value of every step and the final value (within the 5% bound), as the reference code computes them.")

    def row_problem(self, row: dict[str, Any]) -> str | None:
        return super().row_problem(row) or _unordered_problem(row)

    def result_problem(self, result: dict[str, Any]) -> str | None:
        return super().result_problem(result) or _unordered_problem(result)

    def metric_ids(self, settings: McbenchSettings) -> list[str]:
        return list(settings.metrics) if settings.metrics else list(metrics.METRICS)

    def load(self, settings: McbenchSettings) -> Loaded:
        drawn = pairs.make_pairs(settings.seed, list(settings.categories), settings.pairs_per_category + settings.spares)
        items = [MetricTask(task_id=metric_id, pairs=drawn) for metric_id in self.metric_ids(settings)]
        return Loaded(items=items, dropped=[], inputs={"seed": settings.seed, "metrics": self.metric_ids(settings),
                                                       "metrics_version": code_version(metrics),
                                                       "pairs_version": code_version(pairs),
                                                       "pairs_corpus": pairs.corpus_hash()})

    def write_loaded(self, store: VersionStore, items: list[MetricTask]) -> None:
        if items:
            store.write("pairs.json", {"pairs": [p.model_dump(mode="json") for p in items[0].pairs],
                                       "provenance": provenance("load", "1", content_hash(items[0].pairs))})
        for task in items:
            metric = metrics.get(task.task_id)
            store.write(f"items/{task.task_id}/rubric.json", {
                "id": metric.id, "name": metric.name, "unit": metric.unit, "summary": metric.summary,
                "notes": metric.notes, "steps": [{"title": s.title, "requirement": s.requirement, "code": s.code,
                                                  "unordered": s.unordered} for s in metric.steps],
                "example": {"pair": EXAMPLES[metric.unit], "values": metric.example_values()}})

    def plan(self, settings: McbenchSettings) -> list:
        return [Stage("gold", code_version(sys.modules[__name__]), GoldMetric, compute_gold,
                      config=GoldConfig(case_seconds=settings.case_seconds, memory_mb=settings.memory_mb),
                      artifacts=_gold_files, reads=MetricTask)]

    def independent_identity(self, settings: McbenchSettings) -> Any:
        return {PROMPT: load_prompt(PROMPT).hash}

    def export(self, store: VersionStore, items: list[GoldMetric], settings: McbenchSettings,
               side: dict[str, Any]) -> dict[str, Any]:
        golds = sorted(items, key=lambda g: g.task_id)
        rows = [row for gold in golds for row in rows_of(gold, settings)]
        store.write("benchmark.jsonl", "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
        choices = [chosen_cases(gold, settings.pairs_per_category)[1:] for gold in golds]
        constant = {"replaced": sum(r for r, _ in choices), "kept": sum(k for _, k in choices)}
        store.notes.append(f"(metric, pair)s whose final value a constant answer (0 or 1) gives: {constant['replaced']} "
                           f"replaced by a spare pair, {constant['kept']} left in (no spare left)")
        return {"tasks": len(rows), "rows": len(rows), "metrics": len(items), "constant_final": constant,
                "pairs": len({row["pair_id"] for row in rows}),
                "by_category": dict(Counter(row["category"] for row in rows)),
                "by_variant": dict(Counter(row["variant"] for row in rows))}

    def summary_table(self, store: VersionStore) -> list[dict[str, Any]]:
        table = []
        for line in (store.path / "benchmark.jsonl").read_text().splitlines():
            row = json.loads(line)
            table.append({k: row.get(k) for k in ("task_id", "metric", "variant", "category", "steps")})
        return table

    def check(self, row: dict[str, Any], reply: Reply, options: Any = None) -> Verdict:
        return verdict(row, reply)

    def sample_view(self, row: dict[str, Any], verdict: Verdict) -> dict[str, Any]:
        """The gold final value and steps; whether the format was followed and the final value right."""
        line = verdict.lines[0]
        reason = ("right" if verdict.correct else "format not followed" if not line.get("ff")
                  else "final value wrong")
        return {"gold": {"final": row.get("gold_final"), "steps": row.get("gold_steps")}, "reason": reason,
                "task": row.get("metric"), "tier": row.get("category")}

    def review_view(self, row: dict[str, Any]) -> dict[str, Any]:
        metric = metrics.get(row["metric"])
        gold = "\n".join(f"step {k} ({title}): {shown(value)}"
                         for k, (title, value) in enumerate(zip(row["step_titles"], row["gold_steps"]), 1))
        return {"title": row["task_id"], "source": metric.source(), "instruction": row["prompt"],
                "details": {"metric": f"{row['metric_name']} ({row['metric']})", "pair": f"{row['category']} "
                            f"{row['pair_id']}", "gold per step": gold, "final": shown(row["gold_final"]),
                            "variant": row["variant"]}}


FAMILY = Mcbench()
