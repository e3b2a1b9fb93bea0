"""Run one per-item stage over many items with a content-addressed cache; no orchestration engine.

The cache key of an item is the hash of the stage name, its code version, the settings it reads
and the item itself, so an unchanged item is never recomputed, whichever run or version asks.
"""

from __future__ import annotations

import threading

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ifforge.artifacts import ItemCache, content_hash
from ifforge.records import Outcome
from ifforge.settings import Settings


@dataclass(frozen=True)
class Stage:
    name: str
    version: str
    output: type
    function: Callable[..., Outcome]
    reads_settings: tuple[str, ...] = ()
    prompt_hash: str | None = None
    model: str | None = None

    def key(self, item: Any, settings: Settings) -> str:
        used = {name: getattr(settings, name) for name in self.reads_settings}
        return content_hash(self.name, self.version, self.prompt_hash, self.model, used, item)

    def compute(self, item: Any, settings: Settings) -> Outcome:
        if self.reads_settings:
            return self.function(item, settings)
        return self.function(item)


@dataclass
class StageCounts:
    computed: int = 0
    cached: int = 0
    keys: list[str] = field(default_factory=list)


def run_items(
    stage: Stage,
    items: Sequence[Any],
    settings: Settings,
    cache: ItemCache,
    on_item: Callable[[], None] | None = None,
) -> tuple[list[Outcome], StageCounts]:
    """Outcomes in item order; cached ones are read back, the rest computed in `settings.workers` threads."""
    counts = StageCounts()
    model = Outcome[stage.output]

    def one(item: Any) -> tuple[Outcome, bool, str]:
        key = stage.key(item, settings)
        stored = cache.get(stage.name, key)
        if stored is not None:
            outcome, hit = model.model_validate(stored), True
        else:
            outcome, hit = stage.compute(item, settings), False
            _count_computed(stage.name)
            cache.put(stage.name, key, outcome)
        if on_item:
            on_item()
        return outcome, hit, key

    with ThreadPoolExecutor(max_workers=settings.workers) as pool:
        results = list(pool.map(one, items))
    for _, hit, key in results:
        counts.keys.append(key)
        if hit:
            counts.cached += 1
        else:
            counts.computed += 1
    return [outcome for outcome, _, _ in results], counts


_computed_lock = threading.Lock()
COMPUTED: dict[str, int] = {}  # items actually computed in this process, per stage


def _count_computed(stage: str) -> None:
    with _computed_lock:
        COMPUTED[stage] = COMPUTED.get(stage, 0) + 1
