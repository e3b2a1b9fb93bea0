"""LogicIF (LogicIFGen / LogicIFEval): seed functions become anonymised functions with state
trackers, gold from running them, and natural-language instructions that describe them.

Plan: dedup (batch) -> inputs (seeds without any) -> instrument -> [evolve] -> execute -> complexity
-> describe -> verify;
beside them, the expressions of the solve prompt; export in LogicIFEval's row format.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pandas as pd

from ifforge.core.sandbox import execution as sandbox, isolation
from ifforge.core.llm.setup import resolve_llm
from ifforge.core.prompts import Prompt, load_prompt
from ifforge.core.runner import Stage
from ifforge.core.store.versions import ItemCache, VersionStore, atomic_path, code_version, content_hash, file_hash, provenance
from ifforge.core.untrusted import InputError
from ifforge.generation.artifacts import descriptions_line
from ifforge.families.base import BatchStage, Family, Loaded, Reply, Request, Verdict
from ifforge.families.logicif import configs, review, scoring
from ifforge.families.logicif.baselines import BASELINES
from ifforge.families.logicif.records import (
    DescribedFunction,
    ExecutedFunction,
    InstrumentedFunction,
    MeasuredFunction,
    Outcome,
    SeedFunction,
    VerificationRound,
)
from ifforge.families.logicif.options import LogicIFOptions
from ifforge.families.logicif.report import REPORT, TIERS
from ifforge.families.logicif.settings import LogicIFSettings
from ifforge.families.logicif import depth, difficulty
from ifforge.families.logicif.stages import complexity, describe, evolve, execute, finalize, instrument, load, verify
from ifforge.families.logicif.stages import inputs as inputs_stage
from ifforge.transforms import dedup, embeddings, expressions

DEFAULT_SEEDS = Path(__file__).resolve().parent / "seeds"  # a link to seeds/logicif/; package data in a wheel
LLM_STAGES = ("inputs", "instrument", "evolve", "describe", "verify", "expressions")


# ---- per-item artifacts: what a person opens in items/<task_id>/ ----------------------------------
def _inputs_files(item: Any, outcome: Outcome) -> tuple[dict, dict]:
    """Generated inputs: each with its origin, and the candidates, rejections and coverage behind them."""
    return (outcome.evidence[0] if outcome.evidence else {"generated": False}), {}


def _instrumented_files(item: Any, outcome: Outcome) -> tuple[dict, dict]:
    kept = outcome.kept
    if kept is None:
        return {}, {}
    return ({"renames": kept.renames, "trackers": [t.model_dump() for t in kept.trackers], "path": kept.path,
             "notes": kept.notes},
            {"function_anonymised.py": kept.anonymised_source, "function_with_stats.py": kept.instrumented_source})


def _evolved_files(item: Any, outcome: Outcome) -> tuple[dict, dict]:
    kept = outcome.kept
    if kept is None:
        return {}, {}
    return ({"evolved_turns": kept.evolved_turns, "trackers": [t.model_dump() for t in kept.trackers],
             "notes": kept.notes}, {"function_evolved.py": kept.instrumented_source})


def _executed_files(item: Any, outcome: Outcome) -> tuple[dict, dict]:
    """The gold cases, and the self-contained f they came from: the rows' `function`."""
    kept = outcome.kept
    if kept is None:
        return {}, {}
    return {"cases": [c.model_dump() for c in kept.cases]}, {"function_exported.py": kept.exported_source}


def _measured_files(item: Any, outcome: Outcome) -> tuple[dict, dict]:
    return ({"complexity_metrics": outcome.kept.complexity.model_dump()} if outcome.kept else {}), {}


def _described_files(item: Any, outcome: Outcome) -> tuple[dict, dict]:
    kept = outcome.kept
    if kept is None:
        return {}, {}
    return ({"instruction": kept.instruction.model_dump(exclude={"description"})},
            {"description_turn_1.txt": kept.instruction.description})


def _verified_files(item: Any, outcome: Outcome) -> tuple[dict, dict]:
    history = outcome.kept.history if outcome.kept is not None else [
        VerificationRound.model_validate(entry) for entry in outcome.evidence]
    files = {f"description_turn_{r.round}.txt": r.description for r in history}
    files["verification_history.json"] = json.dumps([r.model_dump(mode="json") for r in history], indent=2) + "\n"
    return {}, files


class LogicIF(Family):
    id = "logicif"
    title = "logic-rich instructions: an anonymised function with state trackers, gold by running it"
    measures = 'whether a model can follow a long, logic-rich natural-language description of a program step by step: the final output and the values of state trackers must match running the code'
    follows = 'LogicIFGen / LogicIFEval: Zhang et al., Complex Logical Instruction Generation (arXiv 2508.09125); code: github.com/mianzhang/LogicIF'
    settings_class = LogicIFSettings
    loads = SeedFunction
    llm_stages = LLM_STAGES
    row_fields = {"task_id": object, "test_case_id": object, "code_output": dict}
    keys = ("task_id", "test_case_id")
    carried = ("task_id", "test_case_id", "code_output", "expression_id")
    answers = ("response", "llm_response", "llm_output")  # ours, LogicIF's raw reply, LogicIF's extraction
    scores_unreadable = True  # LogicIF's own scorer goes on case by case: an unreadable gold fails its case
    expression_rows = "benchmark_expressions.jsonl"
    report = REPORT
    row_means = ("accuracy", "output_accuracy", "state_accuracy", "answer_found")  # task accuracy: per task
    counted_by = ("difficulty",)
    tier, tier_order = "difficulty", TIERS  # paired_by stays task_id: a regenerated task keeps its seed's task_id
    baselines = BASELINES
    review_guide = review.GUIDE

    def row_problem(self, row: dict[str, Any]) -> str | None:
        problem = super().row_problem(row)
        missing = [key for key in ("output", "stats") if not problem and key not in row["code_output"]]
        return problem or (f"field 'code_output' has no {missing[0]!r} (the gold)" if missing else None)

    # ---- generate -------------------------------------------------------------------------------
    def idle_llm_stages(self, settings: LogicIFSettings) -> tuple[str, ...]:
        return (*(("evolve",) if not settings.evolve_turns else ()), *(("expressions",) if not settings.expressions else ()))

    def outside_code(self, settings: LogicIFSettings) -> str | None:
        if settings.functions:
            return f"the functions in {settings.functions}"
        if settings.seeds and Path(settings.seeds).resolve() != DEFAULT_SEEDS.resolve():
            return f"the seeds in {settings.seeds}"
        return None

    def check_inputs(self, settings: LogicIFSettings) -> None:
        if settings.functions or settings.test_cases:
            if not settings.functions:
                raise InputError("--test-cases needs --functions (the functions JSONL they belong to)")
            load.check_jsonl_pair(settings.functions, settings.test_cases)
        else:
            load.seed_paths(settings.seeds or DEFAULT_SEEDS)
        isolation.require_walls(self.outside_code(settings), settings.allow_unwalled_seeds)

    def load(self, settings: LogicIFSettings) -> Loaded:
        self.check_inputs(settings)  # the command checked already; a flow called from Python has not
        if settings.functions or settings.test_cases:
            seeds, dropped = load.load_logicif_jsonl(settings.functions, settings.test_cases, settings.max_seed_bytes)
            inputs = {"functions": str(settings.functions), "functions_sha256": file_hash(settings.functions)}
            if settings.test_cases:
                inputs |= {"test_cases": str(settings.test_cases), "test_cases_sha256": file_hash(settings.test_cases)}
        else:
            folder = settings.seeds or DEFAULT_SEEDS
            seeds, dropped = load.load_seed_dir(folder, settings.max_seed_bytes)
            inputs = {"seeds": str(folder)}
        return Loaded(items=seeds, dropped=dropped, inputs=inputs)

    def write_loaded(self, store: VersionStore, items: list[SeedFunction]) -> None:
        for seed in items:
            folder = f"items/{seed.task_id}"
            store.write(f"{folder}/seed.py", seed.source)
            store.write(f"{folder}/seed.json", {
                "task_id": seed.task_id, "entry": seed.entry, "origin": seed.origin,
                "inputs": [i.model_dump() for i in seed.inputs],
                "provenance": provenance("load", "1", content_hash(seed)),
            })

    def plan(self, settings: LogicIFSettings) -> list:
        """Every deterministic stage is CPU-bound (libcst, the sandbox's driving): `in_workers`."""
        models, _ = resolve_llm(settings, LLM_STAGES)
        steps: list = []
        if settings.dedup:
            steps.append(BatchStage("dedup", dedup_seeds, {"version": code_version(dedup),
                                                          "threshold": settings.dedup_threshold,
                                                          "structural": settings.dedup_structural,
                                                          "embedding_model": str(settings.embedding_model or "default")},
                                     reads=SeedFunction, writes=SeedFunction))
        steps.append(Stage("inputs", code_version(inputs_stage), SeedFunction, inputs_stage.run,
                           config=configs.from_settings(configs.InputsConfig, settings),
                           llm_function=inputs_stage.run_llm, llm=models.get("inputs"), prompts=("propose_inputs",),
                           artifacts=_inputs_files, in_workers=True, reads=SeedFunction))
        llm_instrument = models.get("instrument")
        steps.append(Stage("instrument", code_version(instrument), InstrumentedFunction, instrument.run,
                           config=configs.from_settings(configs.InstrumentConfig if llm_instrument
                                                        else configs.TrackerConfig, settings),
                           llm_function=instrument.run_llm, llm=llm_instrument, prompts=("anonymise", "tracker_rules"),
                           artifacts=_instrumented_files, in_workers=True, reads=SeedFunction))
        if "evolve" in models and settings.evolve_turns > 0:
            steps.append(Stage("evolve", code_version(evolve), InstrumentedFunction, lambda item: Outcome(kept=item),
                               config=configs.from_settings(configs.EvolveConfig, settings),
                               llm_function=evolve.run_llm, llm=models["evolve"], prompts=("evolve", "tracker_rules"),
                               artifacts=_evolved_files, reads=InstrumentedFunction))
        steps.append(Stage("execute", code_version(execute), ExecutedFunction, execute.run,
                           config=configs.from_settings(configs.ExecuteConfig, settings),
                           artifacts=_executed_files, in_workers=True, reads=InstrumentedFunction))
        steps.append(Stage("complexity", code_version(complexity), MeasuredFunction, complexity.run,
                           artifacts=_measured_files, in_workers=True, reads=ExecutedFunction))
        steps.append(Stage("describe", code_version(describe), DescribedFunction, describe.run,
                           config=configs.from_settings(configs.DescribeConfig, settings) if "describe" in models else None,
                           llm_function=describe.run_llm, llm=models.get("describe"),
                           prompts=("describe", "description_rules"),
                           artifacts=_described_files, in_workers=True, reads=MeasuredFunction))
        steps.append(Stage("verify", code_version(verify), DescribedFunction, verify.run,
                           config=configs.from_settings(configs.VerifyConfig, settings) if "verify" in models else None,
                           llm_function=verify.run_llm, llm=models.get("verify"),
                           prompts=("verify", "refine", "description_rules"),
                           artifacts=_verified_files, in_workers=True, reads=DescribedFunction))
        return steps

    def warm_up(self, settings: LogicIFSettings) -> None:
        if settings.dedup or settings.expressions:
            embeddings.warm_up(settings)

    def independent_work(self, settings: LogicIFSettings) -> dict:
        return {"expressions": choose_expressions} if settings.expressions else {}

    def independent_identity(self, settings: LogicIFSettings) -> Any:
        return {"solve": load_prompt("solve").hash, "expressions": expressions_identity(settings)}

    def export(self, store: VersionStore, items: Sequence[DescribedFunction], settings: LogicIFSettings,
               side: dict[str, Any]) -> dict[str, Any]:
        chosen = None
        if "expressions" in side:
            chosen, vectors, message = side["expressions"]
            store.notes.append(message)
            if chosen is not None:
                write_expressions(store, chosen, vectors)
        counts = write_benchmark(store, items, settings, load_prompt("solve"), chosen)
        counts["depth"] = depth.measure(
            [(item.task_id, item.measured.executed.function.original_source, item.measured.executed.function.original_entry,
              [(case.input, case.origin) for case in item.measured.executed.cases]) for item in items],
            sandbox.Limits(case_seconds=settings.case_seconds, memory_bytes=settings.memory_mb << 20))
        counts["descriptions"] = descriptions_written(counts["paths"])
        counts["reviewer"] = reviewer(settings)
        if counts["reviewer"] and counts["reviewer"]["same_as_writer"]:
            store.notes.append(f"the verify reviewer is the writer's own model ({counts['reviewer']['model']}): set "
                               "stage_models.verify to another model for an independent review")
        return counts

    def summary_table(self, store: VersionStore) -> list[dict[str, Any]]:
        table = pd.read_parquet(store.path / "tasks.parquet")
        if table.empty:  # every item was dropped: nothing to list (the summary says why)
            return []
        table = table[["task_id", "difficulty", "n_cases", "code_complexity_score", "in_mini"]]
        return table.assign(folder=[store.item_dir(t).resolve().as_uri() for t in table.task_id]).to_dict("records")

    # ---- asking and judging ---------------------------------------------------------------------
    def request(self, row: dict[str, Any]) -> Request:
        """The case's instruction: the description, the input and the answer format."""
        return Request((row.get("instruction") or row.get("prompt") or "",))

    def check(self, row: dict[str, Any], reply: Reply, options: LogicIFOptions | None = None) -> Verdict:
        """Output and trackers against the gold, by LogicIFEval's equality (`strict_types`: by ours),
        the answer found as `verdicts` reads it (or as a LogicIF result file gives it)."""
        if options is None:
            return scoring.case_verdict(row, reply)
        return scoring.case_verdict(row, reply, options.strict_types, options.rules)

    def asks(self, options: LogicIFOptions) -> bool:
        return options.extractor == "llm"

    def sample_view(self, row: dict[str, Any], verdict: Verdict) -> dict[str, Any]:
        """The gold output and trackers; why the case failed: no answer read (and why), or which part is wrong."""
        line = verdict.lines[0]
        wrong = [part for part, ok in (("output", line.get("output_ok")), ("trackers", line.get("stats_ok"))) if not ok]
        reason = ("right" if verdict.correct else f"no answer read ({line['unread']})" if line.get("unread")
                  else "no answer read" if line.get("extracted_by") == "none" else " and ".join(wrong) + " wrong")
        return {"gold": row.get("code_output"), "reason": reason, "task": row.get("task_id"),
                "tier": row.get("difficulty")}

    def refine(self, results, rows, settings, asker) -> None:
        if self.asks(settings.options) and not settings.model:
            raise InputError("--extractor llm needs --model (and --base-url or OPENAI_BASE_URL)")
        scoring.refine(results, rows, settings, asker)

    def annotate(self, results, frame, rows, settings, asker, folder) -> dict[str, Any]:
        return scoring.annotate(results, frame, rows, settings, asker, folder)

    def card_sections(self, manifest: dict[str, Any], rows) -> dict[str, list[str]]:
        lines = depth.card_section((manifest.get("export") or {}).get("depth"))
        return {depth.SECTION: lines} if lines else {}

    def made_by(self, rows: list[dict[str, Any]]) -> str:
        """Who wrote the descriptions (counted over tasks), from rows that say (`description_by`)."""
        tasks = {row["task_id"]: row for row in rows if "description_by" in row}
        if not tasks:
            return ""
        by_model = [row for row in tasks.values() if row["description_by"] == "model"]
        line = descriptions_line({"model": len(by_model), "deterministic": len(tasks) - len(by_model),
                                  "models": sorted({str(row.get("description_model")) for row in by_model})})
        return f"{line[0].upper()}{line[1:]}, counted over tasks."

    # ---- review ---------------------------------------------------------------------------------
    def review_item(self, rows: list[dict[str, Any]], version: Path | None = None) -> dict[str, Any]:
        return review.review_item(rows, version)


FAMILY = LogicIF()


# ---- whole-batch and side work ---------------------------------------------------------------------
def embedder(settings):
    return embeddings.for_settings(settings)


def dedup_seeds(seeds: list[SeedFunction], settings: LogicIFSettings) -> tuple[list, list, dict]:
    """Near-duplicate seeds dropped (the longer of each pair kept); counts for the manifest, with the
    embedding matches the structure refused (the closest first: what to read when tuning)."""
    if len(seeds) < 2:
        return seeds, [], {"in": len(seeds), "out": len(seeds)}
    model = embedder(settings)
    kept, dropped, pairs = dedup.run(seeds, model.embed, settings.dedup_threshold, settings.dedup_structural, model.name)
    refused = sorted((pair for pair in pairs if not pair.duplicate), key=lambda pair: -pair.structural)
    return kept, dropped, {"in": len(seeds), "out": len(kept), "embedded": model.computed,
                           "embedding_model": model.name, "refused_by_structure": len(refused),
                           "closest_refused": [{"pair": [seeds[p.item].task_id, seeds[p.partner].task_id],
                                                "cosine": round(p.cosine, 3), "structural": round(p.structural, 3)}
                                               for p in refused[:20]]}


def veto_path(settings: LogicIFSettings) -> Path:
    return settings.expressions_veto or settings.benchmark_root / "expressions_veto.txt"


def expressions_identity(settings: LogicIFSettings) -> dict[str, Any] | None:
    """What decides the chosen expressions: template, rewrite source (bank or model), veto list, embedder."""
    if not settings.expressions:
        return None
    template = expressions.template_prompt(settings.expression_template)
    config = resolve_llm(settings, LLM_STAGES)[0].get("expressions")
    source: Any = {"model": config.model, **config.generation_parameters(),
                   "prompt": load_prompt("rewrite").hash, "rewrites": settings.rewrites} if config else (
        load_prompt(f"{template.name}_rewrites").hash if expressions.bank_exists(template.name) else None)
    return {"version": code_version(expressions), "template": template.hash, "k": settings.expressions, "source": source,
            "veto": sorted(expressions.read_veto(veto_path(settings))),
            "embedding_model": str(settings.embedding_model or "default")}


def choose_expressions(settings: LogicIFSettings, hub=None) -> tuple[Any, Any, str]:
    """The template's expressions, the rewrites' vectors (for the plot) and a line saying what happened."""
    template = expressions.template_prompt(settings.expression_template)
    config = resolve_llm(settings, LLM_STAGES)[0].get("expressions")
    kept = None
    if config is not None and not settings.no_cache:
        # kept in the benchmark's item cache too, so a run whose rewrites' identity is unchanged
        # (say, a new verify_rounds) asks nothing even when the response cache is elsewhere
        identity = expressions_identity(settings)
        kept = (ItemCache(settings.benchmark_root / ".cache"), content_hash(identity["template"], identity["source"]))
    texts, origin, source = expressions.gather(template, settings.rewrites, config, hub,
                                               None if settings.no_cache else settings.response_cache, kept=kept)
    if source == "nothing":
        return None, None, f"no LLM and no bank prompts/<family>/{template.name}_rewrites.md: expressions skipped"
    if not texts:
        return None, None, "the LLM gave no rewrites: expressions skipped"
    chosen, vectors = expressions.extend(template, texts=texts, origin=origin, k=settings.expressions,
                                         embedder=embedder(settings), veto=expressions.read_veto(veto_path(settings)))
    return chosen, vectors, (f"{len(chosen.chosen)} expressions of '{template.name}' chosen from {len(texts)} "
                             f"rewrites by {source}")


def write_expressions(store: VersionStore, chosen: expressions.ExpressionSet, vectors) -> None:
    store.write("expressions/rewrites.jsonl", expressions.to_jsonl(chosen))
    store.write("expressions/expressions.json", {
        "template": chosen.template, "template_hash": chosen.template_hash, "k": chosen.k,
        "embedding_model": chosen.embedding_model, "notes": chosen.notes,
        "chosen": [{"expression_id": eid, "rewrite_id": rid, "text": chosen.texts()[eid]}
                   for eid, rid in zip(chosen.texts(), chosen.chosen)],
        "veto_help": "to veto a rewrite, add its id to the veto file (setting expressions_veto) and run again"})
    expressions.plot_clusters(chosen, vectors, store.path / "expressions" / "clusters.png")
    store.artifacts.append("expressions/clusters.png")


# ---- export ----------------------------------------------------------------------------------------
def descriptions_written(paths: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """How many descriptions a model wrote (and which models) and how many ifforge's renderer wrote,
    from the export's paths per task: for the manifest, the run's last line and its summary."""
    by = Counter(path["description_by"] for path in paths.values())
    return {"model": by["model"], "deterministic": by["deterministic"],
            "models": sorted({path["description_model"] for path in paths.values()
                              if path["description_by"] == "model"})}


def reviewer(settings: LogicIFSettings) -> dict[str, Any] | None:
    """Which model reviews the descriptions, which wrote them, and whether it is the same one (then
    the review is the writer checking itself); None when no model reviews."""
    models = resolve_llm(settings, LLM_STAGES)[0]
    if "verify" not in models:
        return None
    review, writer = models["verify"].model, models["describe"].model if "describe" in models else None
    return {"model": review, "writer_model": writer, "same_as_writer": review == writer}


class _RowText:
    """One row's JSON line as `json.dumps` writes it, for any instruction and `expression_id`: a
    row's rewordings differ only there, so the rest (the function, the description, the cases) is
    encoded once, not once for the benchmark and again for each expression (at 10,000 seeds the
    expression rows are gigabytes)."""

    def __init__(self, row: dict[str, Any], key: str = "instruction"):
        items = list(row.items())
        at = [name for name, _ in items].index(key)
        self.key = json.dumps(key)
        self.head = json.dumps(dict(items[:at]), ensure_ascii=False)[1:-1]  # the fields before, without braces
        self.tail = json.dumps(dict(items[at + 1:]), ensure_ascii=False)[1:-1]

    def line(self, value: str, expression_id: str | None = None) -> str:
        parts = [self.head, f"{self.key}: {json.dumps(value, ensure_ascii=False)}", self.tail]
        if expression_id is not None:
            parts.append(f'"expression_id": {json.dumps(expression_id, ensure_ascii=False)}')
        return "{" + ", ".join(part for part in parts if part) + "}\n"


def write_benchmark(store: VersionStore, described: Sequence[DescribedFunction], settings: LogicIFSettings,
                    solve: Prompt, chosen: expressions.ExpressionSet | None = None) -> dict[str, Any]:
    """benchmark.jsonl, benchmark_mini.jsonl, tasks.parquet; returns counts for the manifest.

    Difficulty tiers are terciles over this run's tasks, so they are set here, once all are measured
    (an item's cached stages never depend on the other items). `described` is read one item at a
    time, twice (a large run's items stay on disk: `core.store.on_disk`): for what the tiers, the split and
    the manifest need, then task by task in task_id order to write the rows."""
    static: dict[str, float] = {}
    steps: dict[str, float | None] = {}
    paths: dict[str, dict[str, Any]] = {}
    for item in described:
        function = item.measured.executed.function
        static[item.task_id] = item.measured.complexity.code_complexity_score
        steps[item.task_id] = difficulty.executed_steps(item.measured)
        paths[item.task_id] = {"instrument": function.path, "evolved_turns": function.evolved_turns,
                               "description_by": item.instruction.written_by,
                               "description_model": item.instruction.model}
    tiers = difficulty.difficulty_tiers(difficulty.scores_by_rule(static, steps, settings.tier_rule)) if static else {}
    correlation = difficulty.spearman(static, steps)
    task_ids = list(static)  # in `described`'s order
    order = sorted(range(len(task_ids)), key=task_ids.__getitem__)
    mini = set(finalize.mini_split(static, settings.mini_fraction, settings.sample_seed))
    templates = None
    if chosen is not None and chosen.chosen:
        templates = {"e0": solve, **{eid: Prompt(name=eid, version=solve.version, text=text, hash=solve.hash)
                                     for eid, text in chosen.texts().items()}}
    written, by_difficulty, table = Counter(), Counter(), []
    # rows go to the files task by task: a large run's rows (gigabytes with expressions) never sit in memory
    with ExitStack() as files:
        every = files.enter_context(store.writing("benchmark.jsonl"))
        small = files.enter_context(store.writing("benchmark_mini.jsonl"))
        reworded = files.enter_context(store.writing("benchmark_expressions.jsonl")) if templates else None
        for index in order:
            item = described[index]
            task = finalize.to_task(item.model_copy(update={"measured": item.measured.model_copy(
                update={"difficulty": tiers[item.task_id]})}))
            by_difficulty[task.difficulty] += 1
            table.extend(finalize.task_table([task], mini))
            lines, expressed = [], {eid: [] for eid in templates or ()}
            for case in task.cases:
                solved = finalize.instruction_text(task, case, solve)
                row = _RowText(finalize.row(task, case, solved))
                lines.append(row.line(solved))
                for eid, template in templates.items() if templates else ():
                    wording = solved if template is solve else finalize.instruction_text(task, case, template)
                    expressed[eid].append(row.line(wording, eid))
            text = "".join(lines)
            written["rows"] += len(task.cases)
            every.write(text)
            if task.task_id in mini:
                small.write(text)
                written["mini"] += len(task.cases)
            for eid, rows in expressed.items():  # by template, then by case, as before
                reworded.write("".join(rows))
                written["expressions"] += len(rows)
            store.write(f"items/{task.task_id}/task.json", {
                "task_id": task.task_id, "difficulty": task.difficulty, "in_mini": task.task_id in mini,
                "stats_keys": task.stats_keys, "output_format": task.output_format, "n_cases": len(task.cases),
                "provenance": provenance("finalize", "1", content_hash(task), solve.hash),
            })
            if item.instruction.places:  # where each step's statement stands, for the review page
                store.write(review.steps_path(task.task_id), review.steps_file(task, item.instruction.places))
    with atomic_path(store.path / "tasks.parquet") as temporary:
        pd.DataFrame(table).to_parquet(temporary, index=False)
    store.artifacts.append("tasks.parquet")
    return {"tasks": len(order), "rows": written["rows"], "cases": written["rows"], "mini_tasks": len(mini),
            "mini_cases": written["mini"], "by_difficulty": dict(by_difficulty),
            "tier_rule": settings.tier_rule, "spearman_static_vs_executed": correlation,
            "expression_rows": written["expressions"], "paths": paths}
