"""The main pipeline's pieces that are not stages: its stage list, fingerprint, artifacts and export.

The Prefect flow in `flows/generate.py` only wires these together; everything here runs without
an orchestration engine, so a test or another engine can drive the same steps.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd

from ifforge.artifacts import VersionStore, atomic_path, canonical_json, code_version, content_hash, provenance
from ifforge.llm import LLMConfig
from ifforge.prompts import Prompt, load_prompt
from ifforge.records import (
    DescribedFunction,
    DroppedItem,
    ExecutedFunction,
    InstrumentedFunction,
    MeasuredFunction,
    Outcome,
    SeedFunction,
    VerificationRound,
)
from ifforge.settings import Settings
from ifforge.stages import complexity, dedup, describe, evolve, execute, expressions, finalize, instrument, verify
from ifforge.stages.runner import Stage

EXECUTE_SETTINGS = ("min_cases", "max_tracker_value", "max_decimal_places", "max_input_magnitude",
                    "max_input_length", "case_seconds", "memory_mb")
LLM_STAGES = ("instrument", "evolve", "describe", "verify", "expressions")


class LLMSetupError(ValueError):
    pass


def resolve_llm(settings: Settings) -> tuple[dict[str, LLMConfig], str]:
    """Which stages use which model, and one line saying so. The key comes from OPENAI_API_KEY only."""
    base_url = settings.base_url or os.environ.get("OPENAI_BASE_URL")
    api_key = os.environ.get("OPENAI_API_KEY")
    if settings.llm == "none":
        return {}, "LLM stages off (--llm none): running the deterministic stages"
    models = {stage: settings.stage_models.get(stage) or settings.model for stage in LLM_STAGES}
    unknown = sorted(set(settings.stage_models) - set(LLM_STAGES))
    if unknown:
        raise LLMSetupError(f"setting 'stage_models': unknown stage {unknown[0]!r} (stages: {', '.join(LLM_STAGES)})")
    if not any(models.values()) or not (base_url or api_key):
        if settings.llm in ("openai", "local"):
            raise LLMSetupError("--llm openai needs a model (--model or IFFORGE_MODEL) and a server "
                                "(OPENAI_BASE_URL or --base-url, and OPENAI_API_KEY where the server wants one)")
        return {}, ("No LLM configured (set OPENAI_BASE_URL and IFFORGE_MODEL, or use --llm local --model FILE.gguf): "
                    "running the deterministic stages")
    extra = {"reasoning_effort": settings.reasoning_effort} if settings.reasoning_effort else {}
    configs = {
        stage: LLMConfig(model=model, base_url=base_url, api_key=api_key, temperature=settings.temperature,
                         max_tokens=settings.max_tokens, extra_body=extra, timeout=settings.llm_timeout,
                         max_retries=settings.llm_max_retries, concurrency=settings.llm_concurrency,
                         requests_per_minute=settings.llm_rpm, tokens_per_minute=settings.llm_tpm,
                         json_mode=settings.json_mode, reasks=settings.llm_reasks,
                         price_input_per_mtok=settings.price_input_per_mtok,
                         price_output_per_mtok=settings.price_output_per_mtok)
        for stage, model in models.items() if model
    }
    where = base_url or "the OpenAI API"
    names = ", ".join(f"{stage}={config.model}" for stage, config in configs.items())
    return configs, f"LLM stages on, through {where}: {names}"


def build_stages(settings: Settings) -> dict[str, Stage]:
    """The per-item stages of this run, in order; LLM stages where a model is configured."""
    configs, _ = resolve_llm(settings)
    responses = str(settings.llm_cache or Path(settings.out) / ".llm_cache.sqlite")
    llm_settings = ("llm_reasks", "case_seconds", "memory_mb")
    stages = {
        "instrument": Stage("instrument", instrument.VERSION, InstrumentedFunction, instrument.run,
                            llm_function=instrument.run_llm, llm=configs.get("instrument"), prompts=("anonymise",),
                            response_cache=responses,
                            reads_settings=llm_settings if "instrument" in configs else ()),
    }
    if "evolve" in configs and settings.evolve_turns > 0:
        stages["evolve"] = Stage("evolve", evolve.VERSION, InstrumentedFunction, lambda item: Outcome(kept=item),
                                 llm_function=evolve.run_llm, llm=configs["evolve"], prompts=("evolve",),
                                 response_cache=responses, reads_settings=(*llm_settings, "evolve_turns"))
    stages["execute"] = Stage("execute", execute.VERSION, ExecutedFunction, execute.run, reads_settings=EXECUTE_SETTINGS)
    stages["complexity"] = Stage("complexity", complexity.VERSION, MeasuredFunction, complexity.run)
    stages["describe"] = Stage("describe", describe.VERSION, DescribedFunction, describe.run,
                               llm_function=describe.run_llm, llm=configs.get("describe"), prompts=("describe",),
                               response_cache=responses, reads_settings=llm_settings if "describe" in configs else ())
    stages["verify"] = Stage("verify", verify.VERSION, DescribedFunction, verify.run,
                             llm_function=verify.run_llm, llm=configs.get("verify"), prompts=("verify", "refine"),
                             response_cache=responses,
                             reads_settings=(*llm_settings, "verify_rounds") if "verify" in configs else ())
    return stages


def expressions_identity(settings: Settings) -> dict[str, Any] | None:
    """What decides the chosen expressions: template, rewrite source (bank or model), veto list, embedder."""
    if not settings.expressions:
        return None
    template = expressions.template_prompt(settings.expression_template)
    config = resolve_llm(settings)[0].get("expressions")
    source: Any = {"model": config.model, **config.generation_parameters(),
                   "prompt": load_prompt("rewrite").hash, "rewrites": settings.rewrites} if config else (
        load_prompt(f"{template.name}_rewrites").hash if expressions.bank_exists(template.name) else None)
    return {"version": expressions.VERSION, "template": template.hash, "k": settings.expressions, "source": source,
            "veto": sorted(expressions.read_veto(veto_path(settings))),
            "embedding_model": str(settings.embedding_model or "default")}


def veto_path(settings: Settings) -> Path:
    return settings.expressions_veto or Path(settings.out) / settings.benchmark / "expressions_veto.txt"


def fingerprint(seeds: list[SeedFunction], settings: Settings, stages: dict[str, Stage], solve: Prompt) -> str:
    """Everything that changes what a run writes: inputs, settings, stage code, models and prompts."""
    return content_hash(
        [seed.model_dump(mode="json") for seed in seeds],
        settings.output_fingerprint(),
        {name: stage.identity() for name, stage in stages.items()},
        solve.hash,
        {"dedup": code_version(dedup)} if settings.dedup else None,
        expressions_identity(settings),
        os.urandom(8).hex() if settings.no_cache else None,  # --no-cache asks again: always a new version
    )


def write_load_artifacts(store: VersionStore, seeds: list[SeedFunction]) -> None:
    for seed in seeds:
        folder = f"items/{seed.task_id}"
        store.write(f"{folder}/seed.py", seed.source)
        store.write(f"{folder}/seed.json", {
            "task_id": seed.task_id, "entry": seed.entry, "origin": seed.origin,
            "inputs": [i.model_dump() for i in seed.inputs],
            "provenance": provenance("load", "1", content_hash(seed)),
        })


def write_stage_artifacts(store: VersionStore, stage: Stage, items: list, outcomes: list[Outcome],
                          keys: list[str]) -> None:
    """Per item: what this stage made of it (code as .py, the rest as JSON), with provenance."""
    for item, outcome, key in zip(items, outcomes, keys):
        folder = f"items/{item.task_id}"
        kept = outcome.kept
        record: dict[str, Any] = {"provenance": provenance(stage.name, stage.version, key, stage.prompt_hash, stage.model),
                                  "kept": kept is not None, "dropped": [d.model_dump() for d in outcome.dropped]}
        if stage.name == "evolve" and kept is not None:
            store.write(f"{folder}/function_evolved.py", kept.instrumented_source)
            record |= {"evolved_turns": kept.evolved_turns, "trackers": [t.model_dump() for t in kept.trackers],
                       "notes": kept.notes}
        elif isinstance(kept, InstrumentedFunction):
            store.write(f"{folder}/function_anonymised.py", kept.anonymised_source)
            store.write(f"{folder}/function_with_stats.py", kept.instrumented_source)
            record |= {"renames": kept.renames, "trackers": [t.model_dump() for t in kept.trackers],
                       "path": kept.path, "notes": kept.notes}
        elif isinstance(kept, ExecutedFunction):
            record |= {"cases": [c.model_dump() for c in kept.cases]}
        elif isinstance(kept, MeasuredFunction):
            record |= {"complexity_metrics": kept.complexity.model_dump()}
        elif stage.name == "describe" and kept is not None:
            store.write(f"{folder}/description_turn_1.txt", kept.instruction.description)
            record |= {"instruction": kept.instruction.model_dump(exclude={"description"})}
        if stage.name == "verify":
            history = kept.history if kept is not None else [
                VerificationRound.model_validate(entry) for entry in outcome.evidence]
            for round_ in history:
                store.write(f"{folder}/description_turn_{round_.round}.txt", round_.description)
            store.write(f"{folder}/verification_history.json", [r.model_dump(mode="json") for r in history])
        store.write(f"{folder}/{stage.name}.json", record)


def write_benchmark(store: VersionStore, described: list[DescribedFunction], settings: Settings,
                    solve: Prompt, chosen: expressions.ExpressionSet | None = None) -> dict[str, Any]:
    """benchmark.jsonl, benchmark_mini.jsonl, tasks.parquet; returns counts for the manifest."""
    tasks = sorted((finalize.to_task(item) for item in described), key=lambda t: t.task_id)
    mini = finalize.mini_split(tasks, settings.mini_fraction, settings.sample_seed)
    all_rows, mini_rows = [], []
    for task in tasks:
        rows = finalize.rows(task, solve)
        all_rows += rows
        if task.task_id in mini:
            mini_rows += rows
        store.write(f"items/{task.task_id}/task.json", {
            "task_id": task.task_id, "difficulty": task.difficulty, "in_mini": task.task_id in mini,
            "stats_keys": task.stats_keys, "output_format": task.output_format, "n_cases": len(task.cases),
            "provenance": provenance("finalize", "1", content_hash(task), solve.hash),
        })
    store.write("benchmark.jsonl", "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in all_rows))
    expression_rows = 0
    if chosen is not None and chosen.chosen:
        templates = {"e0": solve, **{eid: Prompt(name=eid, version=solve.version, text=text, hash=solve.hash)
                                     for eid, text in chosen.texts().items()}}
        lines = []
        for task in tasks:
            for eid, template in templates.items():
                for row in finalize.rows(task, template):
                    lines.append(json.dumps({**row, "expression_id": eid}, ensure_ascii=False) + "\n")
        store.write("benchmark_expressions.jsonl", "".join(lines))
        expression_rows = len(lines)
    store.write("benchmark_mini.jsonl", "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in mini_rows))
    table = pd.DataFrame(finalize.task_table(tasks, mini))
    with atomic_path(store.path / "tasks.parquet") as temporary:
        table.to_parquet(temporary, index=False)
    store.artifacts.append("tasks.parquet")
    return {
        "tasks": len(tasks),
        "cases": len(all_rows),
        "mini_tasks": len(mini),
        "mini_cases": len(mini_rows),
        "by_difficulty": dict(Counter(task.difficulty for task in tasks)),
        "expression_rows": expression_rows,
    }


def dropped_summary(dropped: list[DroppedItem]) -> dict[str, dict[str, int]]:
    """Counts of drops by stage and reason; whole items and single cases apart."""
    summary: dict[str, dict[str, int]] = {}
    for item in dropped:
        scope = "cases" if item.test_case_id is not None else "items"
        key = f"{item.stage}:{item.reason}"
        summary.setdefault(scope, {})
        summary[scope][key] = summary[scope].get(key, 0) + 1
    return {scope: dict(sorted(counts.items())) for scope, counts in summary.items()}


def write_manifest(store: VersionStore, *, settings: Settings, stages: dict[str, Stage], inputs: dict[str, Any],
                   stage_counts: dict[str, Any], dropped: list[DroppedItem], export: dict[str, Any],
                   timings: dict[str, float], started: float, llm: dict[str, Any], paths: dict[str, Any]) -> Path:
    store.write("dropped.jsonl", "".join(canonical_json(d) + "\n" for d in dropped))
    return store.write_manifest({
        "benchmark": settings.benchmark,
        "version": store.version,
        "fingerprint": store.fingerprint,
        "resumed": store.state == "resumed",
        "parameters": settings.model_dump(mode="json"),
        "inputs": inputs,
        "stages_used": {name: stage.identity() for name, stage in stages.items()},
        "llm": llm,
        "paths": paths,
        "stages": stage_counts,
        "dropped": dropped_summary(dropped),
        "export": export,
        "seconds": {**{k: round(v, 3) for k, v in timings.items()}, "total": round(time.monotonic() - started, 3)},
        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    })


def embedder(settings: Settings):
    from ifforge.embeddings import Embedder, EmbeddingCache

    cache = EmbeddingCache(settings.embedding_cache or Path(settings.out) / ".embeddings.sqlite")
    return Embedder(settings.embedding_model, cache)


def dedup_seeds(seeds: list[SeedFunction], settings: Settings) -> tuple[list[SeedFunction], list[DroppedItem], dict]:
    """Near-duplicate seeds dropped (the longest of each group kept); counts for the manifest."""
    if not settings.dedup or len(seeds) < 2:
        return seeds, [], {"in": len(seeds), "out": len(seeds)}
    model = embedder(settings)
    vectors = model.embed([dedup.dedup_text(seed) for seed in seeds])
    kept, dropped = dedup.run(seeds, vectors, settings.dedup_threshold, model.name)
    return kept, dropped, {"in": len(seeds), "out": len(kept), "embedded": model.computed,
                           "embedding_model": model.name}


def choose_expressions(settings: Settings) -> tuple[expressions.ExpressionSet | None, Any, str, dict | None]:
    """The template's expressions, the rewrites' vectors (for the plot), a line saying what happened,
    and the LLM usage of the rewriting (None without an LLM)."""
    from ifforge.llm import LEDGER, usage_since

    before = LEDGER.snapshot()
    chosen, vectors, message = _choose_expressions(settings)
    config = resolve_llm(settings)[0].get("expressions") if settings.expressions else None
    usage = {"model": config.model, **usage_since(before, "expressions").report(config)} if config else None
    return chosen, vectors, message, usage


def _choose_expressions(settings: Settings) -> tuple[expressions.ExpressionSet | None, Any, str]:
    import asyncio

    from ifforge.llm import LLM, ResponseCache

    if not settings.expressions:
        return None, None, "expressions off (expressions = 0)"
    template = expressions.template_prompt(settings.expression_template)
    config = resolve_llm(settings)[0].get("expressions")
    if config is not None:
        async def ask() -> list[str]:
            cache = None if settings.no_cache else ResponseCache(settings.llm_cache or Path(settings.out) / ".llm_cache.sqlite")
            llm = LLM(config, cache)
            try:
                return await expressions.llm_rewrites(template, settings.rewrites, llm)
            finally:
                await llm.close()
                if cache is not None:
                    cache.close()

        texts = asyncio.run(ask())
        origin = [config.model] * len(texts)
    elif expressions.bank_exists(template.name):
        texts = expressions.load_bank(template.name)
        origin = ["bank"] * len(texts)
    else:
        return None, None, f"no LLM and no bank prompts/{template.name}_rewrites.md: expressions skipped"
    if not texts:
        return None, None, "the LLM gave no rewrites: expressions skipped"
    model = embedder(settings)
    vectors = model.embed(texts)
    original = model.embed([template.text])[0]
    chosen = expressions.choose(template, texts, origin, vectors, original, settings.expressions,
                                expressions.read_veto(veto_path(settings)), model.name)
    source = config.model if config else "the bank"
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


def run_stage_shard(stage_name: str, items: list, settings: Settings, cache_root: str, run_token: str) -> dict[str, Any]:
    """One shard of one stage (the body of the flow's stage task). What it computed and the LLM
    usage it caused are counted here, where the work runs (a thread or a Dask worker), and stamped
    with the run's token: a result Prefect serves from its cache carries an older token, so the flow
    counts it as reused, not computed."""
    import uuid

    from ifforge.artifacts import ItemCache
    from ifforge.llm import CALL_TAG, LEDGER, usage_since
    from ifforge.progress import stage_bar
    from ifforge.stages.runner import run_items

    stage = build_stages(settings)[stage_name]
    ledger_before = LEDGER.snapshot()
    tag = uuid.uuid4().hex
    CALL_TAG.set(tag)
    with stage_bar(stage_name, len(items), settings.progress) as advance:
        outcomes, counts = run_items(stage, items, settings, ItemCache(Path(cache_root)), on_item=advance)
    usage = usage_since(ledger_before, stage_name) if stage.uses_llm else None
    return {"outcomes": outcomes, "keys": counts.keys, "computed": counts.computed, "run_token": run_token,
            "usage": usage.__dict__ if usage else None, "calls": LEDGER.calls_tagged(tag)}
