"""A chain of per-item stages, shard by shard: how many items a shard holds, how many shards are
in flight, and one stage's run over one shard (the body of the Prefect flow's stage task, and what
a Dask worker runs).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Any

from ifforge.core.llm.batch import BatchOptions, batch_folder
from ifforge.core.progress import stage_bar
from ifforge.core.runner import Stage, StageRun, run_items
from ifforge.core.settings import Settings
from ifforge.core.store.versions import ItemCache


class Shard:
    """Items on their way through a chain: its index (its requests' priority, see
    `core.llm.limits.priority`), the items the next stage takes, and the run of the stage that kept
    them. A plain object on purpose: an orchestrator hands it on whole. Prefect walks lists,
    dataclasses and models field by field looking for futures; on Dask it did so four times per
    shard and stage (twice in the flow's process, twice on the worker), seconds of CPU a run."""

    __slots__ = ("index", "items", "run")

    def __init__(self, index: int, items: list, run: StageRun | None = None):
        self.index, self.items, self.run = index, items, run


def run_stage_shard(stage: Stage, shard: Shard, settings: Settings, run_id: str) -> Shard:
    """One stage over one shard; returns the shard as it goes on: the items the stage kept, and its
    run (outcomes, cache keys, counts, usage, what went in, seconds) for the artifacts and counts.
    The run builds the plan once and hands each shard its stage, so no shard rebuilds it."""
    batch = BatchOptions(batch_folder(settings.response_cache), settings.llm_batch_poll) if settings.llm_batch else None
    cache = ItemCache(settings.benchmark_root / ".cache")
    started = time.monotonic()
    with stage_bar(stage.name, len(shard.items), settings.progress) as advance:
        run = run_items(stage, shard.items, cache, workers=settings.workers, run_id=run_id,
                        response_cache=None if settings.no_cache else settings.response_cache,
                        fresh=settings.no_cache, on_item=advance, priority=shard.index, batch=batch)
    run.items = shard.items  # what went in, for the artifacts
    run.seconds = time.monotonic() - started
    return Shard(shard.index, [outcome.kept for outcome in run.outcomes if outcome.kept is not None], run)


SHARD_SIZE = 32  # items per shard of the deterministic stages: fewer Prefect task runs at 10,000 seeds


def shard_size(settings: Settings, chain: list[Stage]) -> int:
    """Items per shard of a chain of per-item stages: the setting when given. Otherwise, a chain that
    asks a model takes its shards at the model's ceiling, so a shard's LLM stage is about one round
    of requests: shards then reach their sandbox stages one after another while the others keep the
    model busy, and the run's last shard is small. With 32 items a shard, 100 seeds at a ceiling of
    8 kept the model 94% busy; with 8, 97% (docs/benchmarks.md). Not with `llm_batch`: a batch is a
    shard's requests, and the ceiling does not bound a batch."""
    if settings.shard_size:
        return settings.shard_size
    ceilings = [stage.llm.concurrency for stage in chain if stage.uses_llm]
    return max(ceilings) if ceilings and not settings.llm_batch else SHARD_SIZE


def in_window(count: int, window: int, start: Callable[[int], Any], finish: Callable[[int, Any], None]) -> None:
    """`start(i)` jobs 0..count-1 and `finish(i, started)` them in order, with at most `window`
    started and not yet finished. The generate run's shards: an unbounded run submitted every shard
    at once, so the run held hundreds of threads, sandbox children and results at 1,000 seeds, its
    cost grew faster than the seeds and its memory with them; a window keeps both flat."""
    started: deque[tuple[int, Any]] = deque()
    following = 0
    while following < count or started:
        while following < count and len(started) < max(1, window):
            started.append((following, start(following)))
            following += 1
        index, job = started.popleft()
        finish(index, job)
