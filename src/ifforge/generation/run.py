"""One generate run as one object: its settings parsed once, the family's plan built once, its
inputs loaded once, its steps in order, its accounts in one place.

`GenerateRun(settings)` knows, before anything is written, whether a finished version already
holds what it would make (`finished()`, which loads and plans); `execute(engine, report)` makes
the version: load, the plan's batch steps and chains of per-item stages (sharded, pipelined
shard by shard, at most `shards_in_flight` shards at once), the family's side work beside them,
the export, the Prefect-free parts of the report, then the manifest, which marks it finished.
The engine says where steps run (`generation.engines`); the report, what is shown on the way
(`Report`: log lines; the Prefect flow adds the run's name and artifacts). The command line
prepares a run, asks whether it is finished, and hands the same run to the flow
(`handing_over`), so nothing is parsed, planned or loaded twice.
"""

from __future__ import annotations

import json
import logging
import shutil
import time
import uuid
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from contextvars import copy_context
from functools import cached_property
from pathlib import Path
from typing import Any

from ifforge.core.store.on_disk import ItemsOnDisk
from ifforge.core.llm.hub import close_hub, hub_for
from ifforge.core.llm.setup import resolve_llm
from ifforge.core.progress import EVERY_SECONDS
from ifforge.core.store.runlock import writing
from ifforge.core.runner import Stage
from ifforge.core.settings import Settings
from ifforge.core.store.versions import VersionStore, canonical_json, finished_version
from ifforge.generation.artifacts import (
    changes,
    changes_line,
    fingerprint,
    outcome_line,
    previous_manifest,
    summary_markdown,
    write_manifest,
    write_stage_artifacts,
)
from ifforge.families import get_family, load_family_settings
from ifforge.families.base import BatchStage, Loaded, checked_plan
from ifforge.generation.accounts import Accounts
from ifforge.generation.engines import BATCH, EXPORT, LOAD, SIDE, STAGE, Engine
from ifforge.generation.shards import Shard, in_window, run_stage_shard, shard_size


class LostItems(RuntimeError):
    """Items met an unreachable LLM server: the version is left unfinished, a re-run asks for them."""


class Report:
    """What a run shows as it goes. Here: log lines on the `ifforge.generate` logger. The Prefect
    flow's report logs on the flow run's logger, renames the run once its version is known and
    publishes the summary as artifacts."""

    def __init__(self, logger: logging.Logger | logging.LoggerAdapter | None = None):
        self.log = logger or logging.getLogger("ifforge.generate")

    def version(self, run: GenerateRun, store: VersionStore) -> None:
        """The version the run writes (or found finished) is known."""

    def publish(self, run: GenerateRun, store: VersionStore, summary: str) -> None:
        """The finished run's summary, before its manifest marks the version finished."""


class GenerateRun:
    def __init__(self, settings: Settings):
        self.settings = settings
        self.family = get_family(settings.family)
        self.load_seconds = 0.0

    @classmethod
    def from_parameters(cls, parameters: dict[str, Any]) -> GenerateRun:
        """The run the generate flow's parameters ask for (the command line's, a deployment's)."""
        return _HANDED.pop(_key(parameters), None) or cls(settings_of(parameters))

    @cached_property
    def plan(self) -> list[Stage | BatchStage]:
        return checked_plan(self.family, self.settings)

    @cached_property
    def llm(self) -> tuple[dict[str, Any], str]:
        """Which model each LLM stage uses, and a line saying so."""
        return resolve_llm(self.settings, self.family.llm_stages, self.family.idle_llm_stages(self.settings))

    @cached_property
    def loaded(self) -> Loaded:
        begun = time.monotonic()
        loaded = self.family.load(self.settings)
        self.load_seconds = time.monotonic() - begun
        return loaded

    @cached_property
    def fingerprint(self) -> str:
        return fingerprint(self.family, self.loaded.items, self.settings, self.plan)

    def finished(self) -> Path | None:
        """The finished version this run would return untouched, or None; writes nothing."""
        if self.settings.no_cache:
            return None
        return finished_version(self.settings.benchmark_root, self.fingerprint)

    def execute(self, engine: Engine, report: Report | None = None) -> Path:
        """Make the version (or find it finished); returns its folder. One run at a time writes a
        benchmark folder (`core.store.runlock`; the command line holds the lock already)."""
        with writing(self.settings.benchmark_root):
            return self._execute(engine, report or Report())

    def _execute(self, engine: Engine, report: Report) -> Path:
        log, settings = report.log, self.settings
        log.info(f"family {self.family.id}: {self.llm[1]}")
        accounts = Accounts()
        loaded = engine.call(LOAD, "load", load, self)
        for item in loaded.dropped:
            log.warning(item.detail)
        store = VersionStore(settings.benchmark_root, self.fingerprint)
        report.version(self, store)
        if store.finished:
            log.info(f"Nothing changed since {store.version}: "
                     f"{outcome_line(json.loads((store.path / 'manifest.json').read_text()), store.path)}")
            return store.path
        log.info(f"{'Resuming' if store.state == 'resumed' else 'Writing'} {store.path}")
        log.info(accounts.loaded(len(loaded.items), list(loaded.dropped), self.load_seconds))
        self.family.write_loaded(store, loaded.items)
        run_id = uuid.uuid4().hex
        beside = ThreadPoolExecutor(thread_name_prefix="ifforge-side")
        # side work runs beside the stages, in this process whatever the engine: where the run's
        # LLM hub is, and the model `warm_up` loaded (on a Dask worker it was loaded again)
        side = {name: beside.submit(copy_context().run, engine.call, SIDE, name, independent_work, work, settings, run_id,
                                    name) for name, work in self.family.independent_work(settings).items()}
        try:
            items: Sequence = loaded.items
            for step in self._steps():
                if isinstance(step, BatchStage):
                    items = self._batch(engine, step, items, store, accounts, log)
                else:
                    items = self._chain(engine, step, items, store, run_id, accounts, log)
            side_results = {}
            for name, future in side.items():  # threads of this run's own
                side_results[name], usage, calls = waited_for(future, name, log)
                accounts.side(name, usage, calls, self.llm[0].get(name))
        finally:
            beside.shutdown(wait=False, cancel_futures=True)  # a failed run does not wait for it
            close_hub(run_id)
        if accounts.calls:
            store.write("llm_calls.jsonl", "".join(json.dumps(c) + "\n" for c in accounts.calls))
        if accounts.lost:
            raise LostItems(f"{accounts.lost} item(s) met an unreachable LLM server (or one that answered 200 with no "
                            f"answer) and were not cached; {store.path} is left unfinished: run again to ask for "
                            "exactly those")
        begun = time.monotonic()
        try:
            export = engine.call(EXPORT, "export", export_items, self.family, store, items, settings, side_results)
        finally:  # the chains' kept items (`core.store.on_disk`), this run's and any an interrupted run left
            shutil.rmtree(store.path / ".kept", ignore_errors=True)
        for note in store.notes:
            log.info(note)
        log.info(accounts.exported(len(items), export, time.monotonic() - begun))
        accounts.total()
        # published before the manifest: the manifest marks the version finished, so a run that
        # fails before it is resumed, never reported as "Nothing changed"
        changed = changes(previous_manifest(store), settings, self.plan, accounts.counts)
        if changed:
            log.info(changes_line(changed))
        report.publish(self, store, summary_markdown(store, accounts.counts, accounts.dropped, export,
                                                     accounts.seconds, accounts.usage, changed))
        manifest = write_manifest(store, family=self.family, settings=settings, plan=self.plan,
                                  inputs=loaded.inputs, stage_counts=accounts.counts, dropped=accounts.dropped,
                                  export=export, timings=accounts.seconds, started=accounts.started,
                                  llm=accounts.usage, busy=accounts.busy)
        log.info(f"Wrote {outcome_line(json.loads(manifest.read_text()), store.path)}")
        return store.path

    def _steps(self) -> Iterator[BatchStage | list[Stage]]:
        """The plan as the run takes it: each batch step alone, consecutive per-item stages as one chain."""
        chain: list[Stage] = []
        for step in self.plan:
            if isinstance(step, BatchStage):
                if chain:
                    yield chain
                    chain = []
                yield step
            else:
                chain.append(step)
        if chain:
            yield chain

    def _batch(self, engine: Engine, step: BatchStage, items: Sequence, store: VersionStore, accounts: Accounts,
               log) -> list:
        begun = time.monotonic()
        kept, dropped, counts = engine.call(BATCH, step.name, batch, step, items, self.settings)
        for item in dropped:
            log.debug(f"{item.task_id}: {item.detail}")  # each one is in dropped.jsonl
            store.write(f"items/{item.task_id}/{step.name}.json", item)
        log.info(accounts.batch(step.name, dropped, counts, time.monotonic() - begun))
        return kept

    def _chain(self, engine: Engine, chain: list[Stage], items: Sequence, store: VersionStore, run_id: str,
               accounts: Accounts, log) -> ItemsOnDisk:
        """The chain shard by shard, each shard's stages one after the other, at most
        `shards_in_flight` shards started and not yet finished (`shards.in_window`); finished in
        order: the shard's per-item artifacts written, counted, its kept items appended to the
        chain's files on disk (`core.store.on_disk`: what is returned), and let go."""
        size = shard_size(self.settings, chain)
        shards = [items[i:i + size] for i in range(0, len(items), size)]
        kept = ItemsOnDisk(store.path / ".kept" / f"{run_id}-{chain[0].name}", chain[-1].writes)  # memory flat in the items
        account = accounts.chain(chain)

        def start(index: int) -> list:
            upstream: Any = Shard(index, shards[index])
            futures = []
            for stage in chain:  # each stage takes the shard as the one before hands it on
                upstream = engine.submit(STAGE, stage.name, run_stage_shard, stage, upstream, self.settings, run_id)
                futures.append(upstream)
            return futures

        def finish(index: int, futures: list) -> None:
            for stage, handle in zip(chain, futures):
                run = engine.result(handle).run
                write_stage_artifacts(store, stage, run.items, run)
                account.shard(stage, run)
                if stage is chain[-1]:
                    kept.add_shard(index, [outcome.kept for outcome in run.outcomes if outcome.kept is not None])
            futures.clear()  # the shard's results go with it: memory stays flat in the number of shards

        in_window(len(shards), self.settings.shards_in_flight, start, finish)
        for line in account.close():
            log.info(line)
        return kept


def load(run: GenerateRun) -> Loaded:
    """The run's inputs (read once: the command line may have read them to find a finished version)."""
    return run.loaded


def batch(step: BatchStage, items: Sequence, settings: Settings) -> tuple[list, list, dict[str, Any]]:
    return step.function(items, settings)


def export_items(family, store: VersionStore, items: Sequence, settings: Settings, side: dict[str, Any]) -> dict:
    return family.export(store, items, settings, side)


def waited_for(future: Future, name: str, log, every: float = EVERY_SECONDS) -> Any:
    """The side work's result, said to be still running every `every` seconds while the run waits
    for it (a model loading and embedding can take a minute after the stages are done: not in silence)."""
    begun = time.monotonic()
    while True:
        try:
            return future.result(timeout=every)
        except FutureTimeout:
            log.info(f"{name}: still working beside the stages ({time.monotonic() - begun:.0f} s waited so far)")


def independent_work(work, settings: Settings, run_id: str, name: str) -> tuple[Any, Any, list[dict[str, Any]]]:
    """A family's side work, with the LLM usage and calls it made (its requests carry its name as
    their tag), so the manifest and llm_calls.jsonl count them like a stage's."""
    hub = hub_for(run_id)
    return work(settings, hub), hub.usage(name), hub.calls(name)


def settings_of(parameters: dict[str, Any]) -> Settings:
    """The settings the generate flow's parameters name: its inputs, outputs and options, over the
    settings file (`config`) and the environment."""
    given = {key: parameters.get(key) for key in ("family", "seeds", "functions", "test_cases", "out", "benchmark")}
    config = parameters.get("config")
    return load_family_settings({**given, **(parameters.get("options") or {})}, Path(config) if config else None)


_HANDED: dict[str, GenerateRun] = {}  # prepared runs, by the flow parameters they were prepared from


@contextmanager
def handing_over(run: GenerateRun, parameters: dict[str, Any]) -> Iterator[None]:
    """While the block runs, a generate flow called with exactly `parameters` takes `run` as it is
    (its settings, plan and loaded inputs) instead of parsing and loading again."""
    key = _key(parameters)
    _HANDED[key] = run
    try:
        yield
    finally:
        _HANDED.pop(key, None)


def _key(parameters: dict[str, Any]) -> str:
    return canonical_json({key: value for key, value in parameters.items() if value is not None})
