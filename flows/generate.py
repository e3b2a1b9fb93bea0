"""The `generate` flow, one for every family: load -> the family's plan -> export -> manifest.

DAG wiring only (and kept so: a Dask runner pickles this flow's function by value, so its body must
not reach module globals that hold locks). Batch steps run as one Prefect task each; per-item
stages run as one Prefect task per stage per shard, and consecutive per-item stages are chained
shard by shard, so a shard moves on as soon as it is done. Work that does not depend on the
items (LogicIF's expression rewrites) runs beside them. Caching is per item, by content, in
`<out>/<benchmark>/.cache/` (see `ifforge.core.runner`): Prefect caches no results, so deleting
the outputs folder starts over for real.

Run it as `ifforge generate --family F ...`, from Python (`ifforge.flows.generate.generate`), or as a
deployment (`ifforge deploy`, see `serve.py`).
"""

from __future__ import annotations

import json
import shutil
import time
import uuid
from collections.abc import Sequence
from typing import Any

from ifforge.core.prefect_env import configure

configure()

from prefect import flow, get_run_logger, task  # noqa: E402
from prefect.artifacts import create_markdown_artifact, create_table_artifact  # noqa: E402
from prefect.cache_policies import NO_CACHE  # noqa: E402
from prefect.context import FlowRunContext  # noqa: E402
from prefect.task_runners import ThreadPoolTaskRunner  # noqa: E402
from prefect.utilities.annotations import opaque  # noqa: E402

from ifforge.core.store import VersionStore  # noqa: E402
from ifforge.factory import (  # noqa: E402
    changes,
    changes_line,
    fingerprint,
    in_window,
    outcome_line,
    previous_manifest,
    run_stage_shard,
    shard_size,
    stage_line,
    summary_markdown,
    write_manifest,
    write_stage_artifacts,
)
from ifforge.families import get_family, load_family_settings  # noqa: E402
from ifforge.families.base import BatchStage  # noqa: E402
from ifforge.flows.naming import provisional_name, rename_flow_run, slug  # noqa: E402


class LostItems(RuntimeError):
    """Items met an unreachable LLM server: the version is left unfinished, a re-run asks for them."""


def _no_retry_on_fatal(task, task_run, state) -> bool:
    from ifforge.core.llm_client import LLMFatal
    from ifforge.core.untrusted import InputError

    try:
        state.result()
    except (LLMFatal, InputError):
        return False
    except Exception:  # noqa: BLE001 - any other failure may be transient
        return True
    return True


@task(name="load", retries=1, retry_delay_seconds=1, cache_policy=NO_CACHE, retry_condition_fn=_no_retry_on_fatal)
def load_task(settings):
    """Reading the inputs is how a run learns what changed: never cached."""
    return get_family(settings.family).load(settings)


@task(retries=1, retry_delay_seconds=1, cache_policy=NO_CACHE)
def batch_task(step: BatchStage, items: list, settings):
    return step.function(items, settings)


@task(retries=1, retry_delay_seconds=1, cache_policy=NO_CACHE)
def side_task(work, settings, run_id: str, name: str):
    """A family's side work, with the LLM usage and calls it made (its requests carry its name as
    their tag), so the manifest and llm_calls.jsonl count them like a stage's."""
    from ifforge.core.llm_hub import hub_for

    hub = hub_for(run_id)
    return work(settings, hub), hub.usage(name), hub.calls(name)


stage_task = task(retries=2, retry_delay_seconds=2, cache_policy=NO_CACHE, persist_result=False,
                  retry_condition_fn=_no_retry_on_fatal)(run_stage_shard)  # importable by name: Dask pickles it so


@flow(name="generate", log_prints=True, flow_run_name=provisional_name("generate", "benchmark", "family"))
def generate(family: str = "logicif", seeds: str | None = None, functions: str | None = None,
             test_cases: str | None = None, out: str | None = None, benchmark: str | None = None,
             options: dict[str, Any] | None = None, config: str | None = None) -> str:
    """Generate (or find, when nothing changed) a benchmark version of `family`; returns its folder."""
    from pathlib import Path

    from ifforge.core.runlock import writing

    started = time.monotonic()
    given = {"family": family, "seeds": seeds, "functions": functions, "test_cases": test_cases, "out": out,
             "benchmark": benchmark, **(options or {})}
    settings = load_family_settings(given, Path(config) if config else None)
    with writing(settings.benchmark_root):  # one run at a time writes a benchmark (`core.runlock`)
        return _write_version(settings, started)


def _write_version(settings, started: float) -> str:
    """The flow's work, under the benchmark folder's lock."""
    from ifforge.core.llm_hub import close_hub
    from ifforge.core.llm_setup import resolve_llm

    logger = get_run_logger()
    bench = get_family(settings.family)
    plan = bench.plan(settings)
    logger.info(f"family {bench.id}: {resolve_llm(settings, bench.llm_stages)[1]}")
    timings: dict[str, float] = {}
    busy: dict[str, float] = {}  # per-item stages: seconds their shards ran, summed

    loaded = load_task(settings)
    timings["load"] = time.monotonic() - started
    dropped = list(loaded.dropped)
    for item in dropped:
        logger.warning(item.detail)
    store = VersionStore(settings.benchmark_root, fingerprint(bench, loaded.items, settings, plan))
    rename_flow_run(slug("generate", settings.benchmark, store.version))
    if store.finished:
        logger.info(f"Nothing changed since {store.version}: "
                    f"{outcome_line(json.loads((store.path / 'manifest.json').read_text()), store.path)}")
        return str(store.path)
    logger.info(f"{'Resuming' if store.state == 'resumed' else 'Writing'} {store.path}")
    logger.info(stage_line("load", {"in": len(loaded.items) + len(dropped), "out": len(loaded.items)},
                           timings["load"], len(dropped)))
    bench.write_loaded(store, loaded.items)
    counts: dict[str, Any] = {"load": {"in": len(loaded.items) + len(loaded.dropped), "out": len(loaded.items)}}
    run_id = uuid.uuid4().hex
    side = {name: side_task.with_options(name=name).submit(work, settings, run_id, name)
            for name, work in bench.side_work(settings).items()}
    usage: dict[str, Any] = {}
    calls: list[dict[str, Any]] = []
    items = loaded.items
    lost = 0
    try:
        position = 0
        while position < len(plan):
            step = plan[position]
            if isinstance(step, BatchStage):
                begun = time.monotonic()
                items, step_dropped, counts[step.name] = batch_task.with_options(name=step.name)(step, items, settings)
                for item in step_dropped:
                    logger.debug(f"{item.task_id}: {item.detail}")  # each one is in dropped.jsonl
                    store.write(f"items/{item.task_id}/{step.name}.json", item)
                dropped += step_dropped
                timings[step.name] = time.monotonic() - begun
                logger.info(stage_line(step.name, counts[step.name], timings[step.name], len(step_dropped)))
                position += 1
                continue
            chain = []  # the per-item stages from here to the next batch step, pipelined by shard
            while position < len(plan) and not isinstance(plan[position], BatchStage):
                chain.append(plan[position])
                position += 1
            items, lost_here = _run_chain(chain, items, settings, store, run_id, counts, timings, busy, dropped, usage,
                                          calls, logger)
            lost += lost_here
        side_results = {}
        for name, future in side.items():
            side_results[name], side_usage, side_calls = future.result()
            if side_usage.calls or side_usage.cache_hits:
                config = resolve_llm(settings, bench.llm_stages)[0].get(name)
                usage[name] = {"model": config.model if config else None, **side_usage.report(config)}
                calls.extend(side_calls)
    finally:
        close_hub(run_id)
    if calls:
        store.write("llm_calls.jsonl", "".join(json.dumps(c) + "\n" for c in calls))
    if lost:
        raise LostItems(f"{lost} item(s) met an unreachable LLM server (or one that answered 200 with no answer) "
                        f"and were not cached; {store.path} is left "
                        f"unfinished: run again to ask for exactly those")
    begun = time.monotonic()
    try:
        export = finalize_task(bench, store, items, settings, side_results)
    finally:  # the chains' kept items (`core.kept`), this run's and any an interrupted run left
        shutil.rmtree(store.path / ".kept", ignore_errors=True)
    for note in store.notes:
        logger.info(note)
    timings["export"] = time.monotonic() - begun
    counts["export"] = {"in": len(items), "out": export["tasks"]}
    logger.info(stage_line("export", counts["export"], timings["export"]))
    timings["total"] = time.monotonic() - started
    # the Prefect artifacts before the manifest: the manifest marks the version finished, so a run
    # that fails before it is resumed, never reported as "Nothing changed"
    changed = changes(previous_manifest(store), settings, plan, counts)
    if changed:
        logger.info(changes_line(changed))
    create_markdown_artifact(summary_markdown(store, counts, dropped, export, timings, usage, changed),
                             key=slug(settings.benchmark, "generate-summary"),
                             description=f"{settings.benchmark} ({bench.id}) generate run summary")
    table = bench.summary_table(store)
    if table:
        create_table_artifact(table, key=slug(settings.benchmark, "generate-tasks"),
                              description=f"{settings.benchmark}: finished tasks")
    manifest = write_manifest(store, family=bench, settings=settings, plan=plan, inputs=loaded.inputs,
                              stage_counts=counts, dropped=dropped, export=export, timings=timings, started=started,
                              llm=usage, busy=busy)
    logger.info(f"Wrote {outcome_line(json.loads(manifest.read_text()), store.path)}")
    return str(store.path)


def _unwalked(*values) -> tuple:
    """A shard's parameters marked `opaque` on Prefect's thread runner: it still waits for an upstream
    shard, but no longer walks every field of every item (and of the stage and the settings) looking
    for futures, a walk that cost the run's process more CPU per item than its own work. Not on Dask,
    whose runner hands the marked values to the task still wrapped."""
    runner = FlowRunContext.get().task_runner
    return tuple(opaque(value) for value in values) if isinstance(runner, ThreadPoolTaskRunner) else values


def _run_chain(chain: list, items: Sequence, settings, store: VersionStore, run_id: str, counts: dict, timings: dict,
               busy: dict, dropped: list, usage: dict, calls: list, logger) -> tuple[Sequence, int]:
    """Run the chain shard by shard, each shard's stages one after the other, with at most
    `settings.shards_in_flight` shards submitted and not yet gathered (see `factory.in_window`);
    gather in order: write the shard's per-item artifacts, count, collect drops, append its kept
    items to the chain's files on disk (`core.kept`: what is returned), and let it go."""
    from ifforge.core.kept import Kept
    from ifforge.core.llm_usage import Usage

    begun = time.monotonic()
    size = shard_size(settings, chain)
    shards = [items[i:i + size] for i in range(0, len(items), size)]
    kept = Kept(store.path / ".kept" / f"{run_id}-{chain[0].name}", chain[-1].output)  # memory flat in the items
    tally = {stage.name: {"in": 0, "out": 0, "computed": 0, "lost": 0, "dropped": 0} for stage in chain}
    stage_usage = {stage.name: Usage() for stage in chain}
    tasks = [stage_task.with_options(name=stage.name) for stage in chain]  # once: a Task reads its source and hashes its code

    def start(index: int) -> list:
        upstream: Any = shards[index]
        futures = []
        for stage, stage_run in zip(chain, tasks):
            upstream = stage_run.submit(*_unwalked(stage, upstream, settings), run_id, index)
            futures.append(upstream)
        return futures

    def finish(index: int, futures: list) -> None:
        for stage, future in zip(chain, futures):
            run = future.result()
            write_stage_artifacts(store, stage, run.items, run)
            calls.extend(run.calls)
            for name, value in (run.usage or {}).items():
                if hasattr(stage_usage[stage.name], name):
                    setattr(stage_usage[stage.name], name, getattr(stage_usage[stage.name], name) + value)
            row = tally[stage.name]
            row["in"] += len(run.items)
            row["computed"] += run.computed
            row["lost"] += run.lost
            busy[stage.name] = busy.get(stage.name, 0.0) + run.seconds
            for outcome in run.outcomes:
                dropped.extend(outcome.dropped)
                row["out"] += outcome.kept is not None
                row["dropped"] += outcome.kept is None
            if stage is chain[-1]:
                kept.add_shard(index, [outcome.kept for outcome in run.outcomes if outcome.kept is not None])
            timings[stage.name] = time.monotonic() - begun  # pipelined: from the chain's start to its last shard's end
        futures.clear()  # the shard's results go with it: memory stays flat in the number of shards

    in_window(len(shards), settings.shards_in_flight, start, finish)
    for stage in chain:
        row = tally[stage.name]
        counts[stage.name] = {"in": row["in"], "out": row["out"], "computed": row["computed"],
                              "reused": row["in"] - row["computed"] - row["lost"]}
        if stage.uses_llm:
            usage[stage.name] = {"model": stage.model, **stage_usage[stage.name].report(stage.llm)}
        timings.setdefault(stage.name, time.monotonic() - begun)
        logger.info(stage_line(stage.name, counts[stage.name], timings[stage.name], row["dropped"]))
    return kept, sum(row["lost"] for row in tally.values())


@task(name="export", cache_policy=NO_CACHE)
def finalize_task(bench, store: VersionStore, items: Sequence, settings, side: dict) -> dict[str, Any]:
    return bench.export(store, items, settings, side)


def flow_for(settings):
    """The generate flow on the task runner the settings ask for."""
    if settings.task_runner == "threads":
        return generate
    from ifforge.flows.dask_runner import ReportingDaskTaskRunner

    if settings.dask_address:
        runner = ReportingDaskTaskRunner(address=settings.dask_address)
    else:
        runner = ReportingDaskTaskRunner(cluster_kwargs={"n_workers": settings.dask_workers, "threads_per_worker": 1,
                                                         "processes": True, "dashboard_address": None})
    return generate.with_options(task_runner=runner)
