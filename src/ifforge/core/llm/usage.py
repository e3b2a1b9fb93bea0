"""What the model cost: usage per stage and per piece of work (calls, cache hits, tokens, retries,
failures, latency, cost from user-given prices), and one line per request sent."""

from __future__ import annotations

import collections
import contextvars
import threading
from dataclasses import dataclass
from typing import Any

from ifforge.core.llm.config import LLMConfig


@dataclass
class Usage:
    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    failures: int = 0
    reasks: int = 0
    latency_seconds: float = 0.0

    def report(self, config: LLMConfig | None = None) -> dict[str, Any]:
        row: dict[str, Any] = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in self.__dict__.items()}
        if config and config.price_input_per_mtok is not None and config.price_output_per_mtok is not None:
            row["cost"] = round(self.prompt_tokens / 1e6 * config.price_input_per_mtok
                                + self.completion_tokens / 1e6 * config.price_output_per_mtok, 6)
        return row


CALL_TAG: contextvars.ContextVar[str | None] = contextvars.ContextVar("ifforge_call_tag", default=None)
CALL_ITEM: contextvars.ContextVar[str | None] = contextvars.ContextVar("ifforge_call_item", default=None)  # its task id


class Ledger:
    """Usage per stage, and per CALL_TAG (the shard or task that made the calls), so each piece of
    work reads exactly its own usage, however many run at once."""

    def __init__(self):
        self._lock = threading.Lock()
        self.by_stage: dict[str, Usage] = collections.defaultdict(Usage)
        self.by_tag: dict[str | None, Usage] = collections.defaultdict(Usage)
        self.calls: list[dict[str, Any]] = []

    def add(self, stage: str, **deltas: float) -> None:
        tag = CALL_TAG.get()
        with self._lock:
            for usage in (self.by_stage[stage], self.by_tag[tag]):
                for name, value in deltas.items():
                    setattr(usage, name, getattr(usage, name) + value)

    def usage_tagged(self, tag: str) -> Usage:
        with self._lock:
            return Usage(**self.by_tag[tag].__dict__)

    def record_call(self, entry: dict[str, Any]) -> None:
        with self._lock:
            item = CALL_ITEM.get()
            self.calls.append({**({"task_id": item} if item is not None else {}), **entry, "tag": CALL_TAG.get()})

    def calls_tagged(self, tag: str) -> list[dict[str, Any]]:
        with self._lock:
            return [{k: v for k, v in call.items() if k != "tag"} for call in self.calls if call["tag"] == tag]

    def snapshot(self) -> dict[str, Usage]:
        with self._lock:
            return {stage: Usage(**usage.__dict__) for stage, usage in self.by_stage.items()}
