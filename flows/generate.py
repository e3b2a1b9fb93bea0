"""The `generate` flow: load -> dedup -> instrument -> [evolve] -> execute -> complexity -> describe
-> verify -> expressions -> finalize (evolve, and the LLM paths of the others, when a model is configured).

DAG wiring only (and kept so: a Dask runner pickles this flow's function by value, so its body must
not reach module globals that hold locks, such as the LLM ledger). Each stage is one Prefect task per shard of items (not per item: a task run costs
tens of milliseconds of orchestration, more than most items' work); inside it, every item is cached
by content (see `ifforge.stages.runner`), so a changed seed recomputes only its own items.

Run it as `python flows/generate.py [--seeds DIR] ...`, `ifforge generate ...`, or from Python.
"""

from __future__ import annotations

import json
import sys
import time
import uuid
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # started as a script: make `flows` importable like the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ifforge.prefect_env import PROJECT_ROOT, configure

configure()

from prefect import flow, get_run_logger, task  # noqa: E402
from prefect.artifacts import create_markdown_artifact, create_table_artifact  # noqa: E402
from prefect.cache_policies import INPUTS, NO_CACHE, TASK_SOURCE, CacheKeyFnPolicy  # noqa: E402

from ifforge.artifacts import VersionStore, file_hash  # noqa: E402
from ifforge.llm import Usage  # noqa: E402
from ifforge.pipeline import (  # noqa: E402
    build_stages,
    choose_expressions,
    dedup_seeds,
    fingerprint,
    resolve_llm,
    run_stage_shard,
    write_benchmark,
    write_expressions,
    write_load_artifacts,
    write_manifest,
    write_stage_artifacts,
)
from ifforge.prompts import load_prompt  # noqa: E402
from ifforge.records import DroppedItem, SeedFunction  # noqa: E402
from ifforge.settings import Settings, load_settings  # noqa: E402
from ifforge.stages import complexity, load  # noqa: E402

DEFAULT_SEEDS = PROJECT_ROOT / "seeds"


def _stage_key(context, parameters: dict[str, Any]) -> str:
    """The stage's code version, prompts, model and parameters: what INPUTS and TASK_SOURCE cannot see."""
    return build_stages(parameters["settings"])[parameters["stage_name"]].identity_hash


@task(name="load", retries=1, retry_delay_seconds=1, cache_policy=NO_CACHE)
def load_task(settings: Settings) -> tuple[list[SeedFunction], list[DroppedItem]]:
    """Not cached by Prefect on purpose: reading the files is how a run learns what changed."""
    if settings.functions or settings.test_cases:
        if not (settings.functions and settings.test_cases):
            raise ValueError("--functions and --test-cases go together")
        return load.load_logicif_jsonl(settings.functions, settings.test_cases)
    return load.load_seed_dir(settings.seeds or DEFAULT_SEEDS)


@task(name="dedup", retries=1, retry_delay_seconds=1, cache_policy=NO_CACHE)
def dedup_task(seeds: list[SeedFunction], settings: Settings) -> tuple[list, list[DroppedItem], dict]:
    """Embeddings are cached by content inside; the grouping itself is a second's work."""
    return dedup_seeds(seeds, settings)


@task(name="expressions", retries=1, retry_delay_seconds=1, cache_policy=NO_CACHE)
def expressions_task(settings: Settings):
    """Rewrites and embeddings are cached inside (LLM responses, vectors); clustering is cheap."""
    return choose_expressions(settings)


_stage_task = task(retries=2, retry_delay_seconds=2, persist_result=True,
                   cache_policy=INPUTS - "cache_root" - "run_token" + TASK_SOURCE
                   + CacheKeyFnPolicy(cache_key_fn=_stage_key))
stage_task = _stage_task(run_stage_shard)  # a plain function of ifforge.pipeline: Dask pickles it by name


def _run_stage(name: str, items: list, settings: Settings, store: VersionStore, dropped: list[DroppedItem],
               counts: dict[str, Any], timings: dict[str, float], usage: dict[str, Any], run_token: str,
               calls: list[dict[str, Any]]) -> list:
    """Submit one task per shard, gather in order, write the per-item artifacts, collect drops."""
    started = time.monotonic()
    stage = build_stages(settings)[name]
    shards = [items[i:i + settings.shard_size] for i in range(0, len(items), settings.shard_size)]
    refresh = settings.no_cache and stage.uses_llm
    futures = [stage_task.with_options(name=name, refresh_cache=refresh).submit(
        name, shard, settings, str(store.cache.root), run_token) for shard in shards]
    outcomes, keys, computed, stage_usage = [], [], 0, Usage()
    for future in futures:
        shard = future.result()
        outcomes += shard["outcomes"]
        keys += shard["keys"]
        if shard["run_token"] == run_token:  # computed by this run, not served from Prefect's cache
            computed += shard["computed"]
            calls.extend(shard["calls"])
            for field, value in (shard["usage"] or {}).items():
                setattr(stage_usage, field, getattr(stage_usage, field) + value)
    write_stage_artifacts(store, stage, items, outcomes, keys)
    if stage.uses_llm:
        usage[name] = {"model": stage.model, **stage_usage.report(stage.llm)}
    kept = [outcome.kept for outcome in outcomes if outcome.kept is not None]
    for outcome in outcomes:
        dropped.extend(outcome.dropped)
    counts[name] = {"in": len(items), "out": len(kept), "computed": computed, "reused": len(items) - computed}
    timings[name] = time.monotonic() - started
    return kept


@flow(name="generate", log_prints=True)
def generate(
    seeds: str | None = None,
    functions: str | None = None,
    test_cases: str | None = None,
    out: str | None = None,
    benchmark: str | None = None,
    options: dict[str, Any] | None = None,
    config: str | None = None,
) -> str:
    """Generate (or find, when nothing changed) a benchmark version; returns its folder."""
    logger = get_run_logger()
    started = time.monotonic()
    settings = load_settings({"seeds": seeds, "functions": functions, "test_cases": test_cases, "out": out,
                              "benchmark": benchmark, **(options or {})}, Path(config) if config else None)
    solve = load_prompt("solve")
    timings: dict[str, float] = {}
    stages = build_stages(settings)
    logger.info(resolve_llm(settings)[1])

    seeds_loaded, dropped = load_task(settings)
    timings["load"] = time.monotonic() - started
    for item in dropped:
        logger.warning(item.detail)
    store = VersionStore(Path(settings.out) / settings.benchmark, fingerprint(seeds_loaded, settings, stages, solve))
    if store.finished:
        logger.info(f"Nothing changed since {store.version}: the benchmark is at {store.path}")
        return str(store.path)
    logger.info(f"{'Resuming' if store.state == 'resumed' else 'Writing'} {store.path} "
                f"({len(seeds_loaded)} seeds loaded, {len(dropped)} skipped)")
    write_load_artifacts(store, seeds_loaded)
    counts: dict[str, Any] = {"load": {"in": len(seeds_loaded) + len(dropped), "out": len(seeds_loaded)}}
    dedup_started = time.monotonic()
    seeds_loaded, duplicates, counts["dedup"] = dedup_task(seeds_loaded, settings)
    timings["dedup"] = time.monotonic() - dedup_started
    dropped.extend(duplicates)
    for item in duplicates:
        logger.info(f"{item.task_id}: {item.detail}")
        store.write(f"items/{item.task_id}/dedup.json", item)

    usage: dict[str, Any] = {}
    calls: list[dict[str, Any]] = []
    run_token = uuid.uuid4().hex
    items = seeds_loaded
    for name in stages:
        items = _run_stage(name, items, settings, store, dropped, counts, timings, usage, run_token, calls)
        if name == "complexity":
            items = complexity.assign_tiers(items)
    described = items
    paths = {item.task_id: {"instrument": item.measured.executed.function.path,
                                "evolved_turns": item.measured.executed.function.evolved_turns,
                                "describe": item.instruction.path} for item in described}
    if calls:
        store.write("llm_calls.jsonl", "".join(json.dumps(c) + "\n" for c in calls))

    expressions_started = time.monotonic()
    chosen, vectors, message, rewriter_usage = expressions_task(settings)
    logger.info(message)
    if rewriter_usage:
        usage["expressions"] = rewriter_usage
    if chosen is not None:
        write_expressions(store, chosen, vectors)
    timings["expressions"] = time.monotonic() - expressions_started
    finalize_started = time.monotonic()
    export = finalize_task(store, described, settings, solve, chosen)
    timings["finalize"] = time.monotonic() - finalize_started
    counts["finalize"] = {"in": len(described), "out": export["tasks"]}
    inputs = {"seeds": str(settings.seeds or DEFAULT_SEEDS)} if not settings.functions else {
        "functions": str(settings.functions), "functions_sha256": file_hash(settings.functions),
        "test_cases": str(settings.test_cases), "test_cases_sha256": file_hash(settings.test_cases)}
    manifest = write_manifest(store, settings=settings, stages=stages, inputs=inputs, stage_counts=counts,
                              dropped=dropped, export=export, timings=timings, started=started, llm=usage, paths=paths)
    _publish(store, counts, dropped, export, timings, usage)
    logger.info(f"Wrote {export['tasks']} tasks, {export['cases']} cases to {store.path} (manifest: {manifest})")
    return str(store.path)


@task(name="finalize", cache_policy=NO_CACHE)
def finalize_task(store: VersionStore, described: list, settings: Settings, solve, chosen=None) -> dict[str, Any]:
    return write_benchmark(store, described, settings, solve, chosen)


def _publish(store: VersionStore, counts: dict, dropped: list[DroppedItem], export: dict, timings: dict,
             usage: dict) -> None:
    """A summary and a task table in the Prefect UI, so a run can be inspected there."""
    lines = [f"# {store.path}", "", "| stage | in | out | computed | reused | seconds |", "|---|---|---|---|---|---|"]
    for name, row in counts.items():
        lines.append(f"| {name} | {row['in']} | {row['out']} | {row.get('computed', '')} | {row.get('reused', '')} "
                     f"| {timings.get(name, 0):.2f} |")
    reasons: dict[str, int] = {}
    for item in dropped:
        key = f"{item.stage}: {item.reason}" + (" (case)" if item.test_case_id is not None else "")
        reasons[key] = reasons.get(key, 0) + 1
    lines += ["", "## Dropped", ""] + [f"- {k}: {v}" for k, v in sorted(reasons.items())]
    if usage:
        lines += ["", "## LLM", "", "| stage | model | calls | cache hits | tokens in | tokens out | retries | failures |",
                  "|---|---|---|---|---|---|---|---|"]
        lines += [f"| {name} | {u['model']} | {u['calls']} | {u['cache_hits']} | {u['prompt_tokens']} | "
                  f"{u['completion_tokens']} | {u['retries']} | {u['failures']} |" for name, u in usage.items()]
    lines += ["", f"Wall time {sum(timings.values()):.1f} s over the stages."]
    lines += ["", f"Exported {export['tasks']} tasks and {export['cases']} cases; mini: {export['mini_tasks']} tasks."]
    create_markdown_artifact("\n".join(lines), key="generate-summary", description="generate run summary")
    import pandas as pd

    table = pd.read_parquet(store.path / "tasks.parquet",
                            columns=["task_id", "difficulty", "n_cases", "code_complexity_score", "in_mini"])
    rows = table.assign(folder=[store.item_dir(t).resolve().as_uri() for t in table.task_id]).to_dict("records")
    create_table_artifact(rows, key="generate-tasks", description="finished tasks")


def flow_for(settings: Settings):
    """The generate flow on the task runner the settings ask for."""
    if settings.task_runner == "threads":
        return generate
    from prefect_dask import DaskTaskRunner

    if settings.dask_address:
        runner = DaskTaskRunner(address=settings.dask_address)
    else:
        runner = DaskTaskRunner(cluster_kwargs={"n_workers": settings.dask_workers, "threads_per_worker": 1,
                                                "processes": True, "dashboard_address": None})
    return generate.with_options(task_runner=runner)


def _cli(argv: list[str] | None = None) -> None:
    from ifforge.cli import main

    sys.exit(main(["generate", *(argv if argv is not None else sys.argv[1:])]))


if __name__ == "__main__":
    _cli()
