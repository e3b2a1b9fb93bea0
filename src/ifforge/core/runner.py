"""Run one per-item stage over many items with a content-addressed cache; no orchestration engine.

A stage declares a typed `config`: everything it receives besides the item. Its function is
called with exactly that config, and the item's cache key is the hash of the stage's identity
(name, code version with every module it can reach, model and prompts when an LLM is used), the
config and the item. No list kept by hand decides what a key covers.

Deterministic stages run in threads; those marked `in_workers` (CPU-bound: libcst, the sandbox's
driving) hand each item to the run's worker processes (`core.workers`), so they use every core,
not one GIL. LLM stages run as coroutines on the run's LLM hub, whose one
client per model bounds the requests of the whole run. An item that met an unreachable server is
not cached and counts as lost, so a re-run asks again exactly for those; a 401/404 (`LLMFatal`)
stops the stage at once. Any other failure of one item is that item's: a drop with the error.
"""

from __future__ import annotations

import traceback
import uuid
from collections.abc import Callable, Sequence
import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ifforge.core.llm.client import LLMConfig, LLMFatal, track_unreachable
from ifforge.core.llm.hub import close_hub, hub_for
from ifforge.core.llm.limits import priority as request_priority
from ifforge.core.llm.usage import CALL_ITEM
from ifforge.core.llm.batch import BatchOptions, fill_cache
from ifforge.core.prompts import load_prompt
from ifforge.core.records import DroppedItem, Outcome
from ifforge.core.store.versions import ItemCache, content_hash
from ifforge.core import workers

# (item, outcome) -> (extra fields of the stage's JSON record, extra files of the item's folder)
ArtifactWriter = Callable[[Any, Outcome], tuple[dict[str, Any], dict[str, str]]]


@dataclass(frozen=True)
class Stage:
    """One per-item step of a family's plan. It declares the record type it `reads` (each item)
    and the one it `writes` (the kept item of its outcome), so a plan is checked when it is built
    (`families.base.checked_plan`), before anything runs."""

    name: str
    version: str  # core.store.versions.code_version of the stage's module
    writes: type
    function: Callable[..., Outcome]  # (item) or (item, config) -> Outcome
    config: BaseModel | None = None
    llm_function: Callable[..., Any] | None = None  # async (item, llm, config) -> Outcome
    llm: LLMConfig | None = None
    prompts: tuple[str, ...] = ()
    artifacts: ArtifactWriter | None = None
    in_workers: bool = False  # CPU-bound: each item runs in a worker process (`function` importable by name)
    reads: type = field(kw_only=True)

    @property
    def uses_llm(self) -> bool:
        return self.llm is not None and self.llm_function is not None

    @cached_property  # read the prompt files once per stage, not once per item
    def prompt_hash(self) -> str | None:
        if not self.uses_llm:
            return None
        return content_hash({name: load_prompt(name).hash for name in self.prompts})[:16]

    @property
    def model(self) -> str | None:
        return self.llm.model if self.uses_llm else None

    def identity(self) -> dict[str, Any]:
        """Everything about the stage that changes its results (not the server's address or limits)."""
        llm = None
        if self.uses_llm:
            llm = {"model": self.llm.model, **self.llm.generation_parameters(), "json_mode": self.llm.json_mode,
                   "reasks": self.llm.reasks, "prompts": self.prompt_hash}
        config = self.config.model_dump(mode="json") if self.config is not None else None
        return {"name": self.name, "version": self.version, "llm": llm, "config": config}

    @cached_property
    def identity_hash(self) -> str:
        return content_hash(self.identity())

    def key(self, item: Any) -> str:
        return content_hash(self.identity_hash, item)

    def call(self, item: Any) -> Outcome:
        args = (item,) if self.config is None else (item, self.config)
        if self.in_workers:
            return workers.call(Outcome[self.writes], self.function, *args)
        return self.function(*args)


@dataclass
class StageRun:
    """What one run of `run_items` did: outcomes in item order, cache keys, counts, LLM usage."""

    outcomes: list[Outcome]
    keys: list[str]
    computed: int = 0
    lost: int = 0  # items that met an unreachable server: not cached, asked again next run
    usage: dict[str, Any] | None = None
    calls: list[dict[str, Any]] = field(default_factory=list)
    items: list = field(default_factory=list)  # what went in (set by the caller that knows it)
    seconds: float = 0.0  # wall time of the run (set by the caller that times it)


def _failure(stage: Stage, item: Any, error: BaseException) -> Outcome:
    task_id = getattr(item, "task_id", "?")
    frame = traceback.extract_tb(error.__traceback__)[-1] if error.__traceback__ else None
    where = f" at {Path(frame.filename).name}:{frame.lineno}" if frame else ""
    text = f"{type(error).__name__}: {error}{where}"
    if len(text) > 800:  # a worker's error is its whole traceback: keep its start and the error itself
        text = f"{text[:200]} ... {text[-595:]}"
    # a seed's code nested deeper than a stage's recursion can follow: the item's limit, not a bug
    reason = "nested_too_deeply" if isinstance(error, RecursionError) else "stage_error"
    return Outcome(dropped=[DroppedItem(task_id=task_id, stage=stage.name, reason=reason, detail=text)])


def run_items(stage: Stage, items: Sequence[Any], cache: ItemCache, *, workers: int = 2, run_id: str = "",
              response_cache: Path | None = None, fresh: bool = False,
              on_item: Callable[[], None] | None = None, priority: int = 0,
              batch: BatchOptions | None = None) -> StageRun:
    """Outcomes in item order; cached ones are read back, the rest computed.

    `fresh` (--no-cache) asks the model again whatever was kept; `run_id` names the LLM hub
    shared by every shard of the run (see `core.llm.hub.hub_for`); `priority` orders this shard's
    requests against other shards' when the run is at its concurrency ceiling (lower first).
    `batch` sends the requests of the items not cached yet through the provider's Batch API first
    (`core.llm.batch`); the stage then runs as usual, answered from the response cache.
    """
    model = Outcome[stage.writes]
    fresh = fresh and stage.uses_llm

    def cached(item: Any) -> tuple[str, Outcome | None]:
        key = stage.key(item)
        stored = None if fresh else cache.get(stage.name, key)
        if stored is not None and on_item:
            on_item()
        return key, (model.model_validate(stored) if stored is not None else None)

    def settle(item: Any, key: str, outcome: Outcome | None, error: Exception | None,
               unreachable: str | None = None) -> tuple[Outcome, str, str]:
        if error is not None:  # not cached: an unexpected error may be transient, so try again next run
            outcome, state = _failure(stage, item, error), "computed"
        elif unreachable is not None:  # not cached: what the model would say is still unknown
            outcome = Outcome(dropped=[DroppedItem(task_id=getattr(item, "task_id", "?"), stage=stage.name,
                                                   reason="llm_unreachable", detail=unreachable[:800])])
            state = "lost"
        else:
            cache.put(stage.name, key, outcome)
            state = "computed"
        if on_item:
            on_item()
        return outcome, state, key

    def one(item: Any) -> tuple[Outcome, str, str]:
        key, outcome = cached(item)
        if outcome is not None:
            return outcome, "reused", key
        try:
            result = stage.call(item)
        except Exception as error:  # noqa: BLE001 - one item's failure is that item's
            return settle(item, key, None, error)
        return settle(item, key, result, None)

    tag = uuid.uuid4().hex
    usage = None
    calls: list[dict[str, Any]] = []
    if stage.uses_llm:
        hub = hub_for(run_id or tag)
        responses = None if fresh else response_cache

        async def one_async(item: Any) -> tuple[Outcome, str, str]:
            # Hashing and cache files run in threads: the hub's one event loop serves every shard's
            # requests, and a file write on it would hold all of them up.
            key, outcome = await asyncio.to_thread(cached, item)
            if outcome is not None:
                return outcome, "reused", key
            CALL_ITEM.set(getattr(item, "task_id", None))  # this item's own task: its calls say whose they are
            with track_unreachable() as seen:
                try:
                    result = await stage.llm_function(item, hub.llm(stage.llm, responses), stage.config)
                except LLMFatal:
                    raise
                except Exception as error:  # noqa: BLE001
                    return await asyncio.to_thread(settle, item, key, None, error)
            return await asyncio.to_thread(settle, item, key, result, None, seen.last if seen.count else None)

        async def all_async() -> list[tuple[Outcome, str, str]]:
            with request_priority(priority):  # the tasks made here copy this context
                tasks = [asyncio.ensure_future(one_async(item)) for item in items]
            try:
                return list(await asyncio.gather(*tasks))
            except BaseException:  # a fatal error (401, 404): stop the others here, not at loop shutdown
                for pending in tasks:
                    pending.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                raise

        try:
            if batch is not None and responses is not None:
                waiting = [item for item in items if cache.get(stage.name, stage.key(item)) is None]
                if waiting:
                    fill_cache(stage, waiting, hub, responses, batch, tag)
            results = hub.run(all_async, tag)
            usage = hub.usage(tag).report(stage.llm)
            calls = hub.calls(tag)
        finally:
            if not run_id:  # a hub of its own: nobody else will close it
                close_hub(tag)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(one, items))
    return StageRun(outcomes=[outcome for outcome, _, _ in results], keys=[key for _, _, key in results],
                    computed=sum(state == "computed" for _, state, _ in results),
                    lost=sum(state == "lost" for _, state, _ in results), usage=usage, calls=calls)
