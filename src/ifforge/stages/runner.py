"""Run one per-item stage over many items with a content-addressed cache; no orchestration engine.

The cache key of an item is the hash of the stage's identity (name, code version, prompts, model
and generation parameters when an LLM is used, the settings it reads) and the item itself, so an
unchanged item is never recomputed, whichever run or version asks. Deterministic stages run in
threads; LLM stages run as asyncio tasks sharing one client, whose limiter bounds the requests.
One item's failure is that item's: an unexpected error becomes a drop with the error as reason.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ifforge.artifacts import ItemCache, content_hash
from ifforge.llm import LLM, LLMConfig, ResponseCache
from ifforge.prompts import load_prompt
from ifforge.records import DroppedItem, Outcome
from ifforge.settings import Settings


@dataclass(frozen=True)
class Stage:
    name: str
    version: str
    output: type
    function: Callable[..., Outcome]
    reads_settings: tuple[str, ...] = ()
    llm_function: Callable[..., Any] | None = None  # async (item, llm, settings) -> Outcome
    llm: LLMConfig | None = None
    prompts: tuple[str, ...] = ()
    response_cache: str | None = None

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
        return {"name": self.name, "version": self.version, "llm": llm}

    @cached_property
    def identity_hash(self) -> str:
        return content_hash(self.identity())

    def key(self, item: Any, settings: Settings) -> str:
        used = {name: getattr(settings, name) for name in self.reads_settings}
        return content_hash(self.identity_hash, used, item)


@dataclass
class StageCounts:
    computed: int = 0
    keys: list[str] = field(default_factory=list)


def _failure(stage: Stage, item: Any, error: BaseException) -> Outcome:
    task_id = getattr(item, "task_id", "?")
    frame = traceback.extract_tb(error.__traceback__)[-1] if error.__traceback__ else None
    where = f" at {Path(frame.filename).name}:{frame.lineno}" if frame else ""
    return Outcome(dropped=[DroppedItem(task_id=task_id, stage=stage.name, reason="stage_error",
                                        detail=f"{type(error).__name__}: {error}{where}"[:800])])


def run_items(
    stage: Stage,
    items: Sequence[Any],
    settings: Settings,
    cache: ItemCache,
    on_item: Callable[[], None] | None = None,
) -> tuple[list[Outcome], StageCounts]:
    """Outcomes in item order; cached ones are read back, the rest computed."""
    model = Outcome[stage.output]
    fresh = settings.no_cache and stage.uses_llm  # --no-cache: ask the model again, whatever was kept

    def cached(item: Any) -> tuple[str, Outcome | None]:
        key = stage.key(item, settings)
        stored = None if fresh else cache.get(stage.name, key)
        if stored is not None and on_item:
            on_item()
        return key, (model.model_validate(stored) if stored is not None else None)

    def settle(item: Any, key: str, outcome: Outcome | None, error: Exception | None) -> tuple[Outcome, bool, str]:
        if error is not None:  # not cached: an unexpected error may be transient, so try again next run
            outcome = _failure(stage, item, error)
        else:
            cache.put(stage.name, key, outcome)
        if on_item:
            on_item()
        return outcome, False, key

    def one(item: Any) -> tuple[Outcome, bool, str]:
        key, outcome = cached(item)
        if outcome is not None:
            return outcome, True, key
        try:
            result = stage.function(item, settings) if stage.reads_settings else stage.function(item)
        except Exception as error:  # noqa: BLE001 - one item's failure is that item's
            return settle(item, key, None, error)
        return settle(item, key, result, None)

    async def one_async(item: Any, llm: LLM) -> tuple[Outcome, bool, str]:
        key, outcome = cached(item)
        if outcome is not None:
            return outcome, True, key
        try:
            result = await stage.llm_function(item, llm, settings)
        except Exception as error:  # noqa: BLE001
            return settle(item, key, None, error)
        return settle(item, key, result, None)

    async def all_async() -> list[tuple[Outcome, bool, str]]:
        responses = None if settings.no_cache or not stage.response_cache else ResponseCache(Path(stage.response_cache))
        llm = LLM(stage.llm, responses)
        try:
            return await asyncio.gather(*(one_async(item, llm) for item in items))
        finally:
            await llm.close()
            if responses is not None:
                responses.close()

    if stage.uses_llm:
        results = asyncio.run(all_async())
    else:
        with ThreadPoolExecutor(max_workers=settings.workers) as pool:
            results = list(pool.map(one, items))
    counts = StageCounts(computed=sum(not hit for _, hit, _ in results), keys=[key for _, _, key in results])
    return [outcome for outcome, _, _ in results], counts
