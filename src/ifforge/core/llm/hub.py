"""One run's LLM side, for generate and evaluate alike: one event loop in a background thread, one
client per model, one concurrency and rate limit per server, one response cache per file and one
ledger, however many shards (threads) ask at once."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from pathlib import Path
from typing import Any

from ifforge.core.llm.cache import ResponseCache
from ifforge.core.llm.client import LLM, LLMConfig, Stopped
from ifforge.core.llm.limits import AdaptiveConcurrency, RateLimit
from ifforge.core.llm.usage import CALL_TAG, Ledger, Usage


class LLMHub:
    """One run's LLM side: one event loop in a background thread, one client per model, and one
    concurrency limit and rate limit per server for the whole run, so `llm_concurrency` is a
    ceiling however many shards (threads) ask at once. Shards hand it coroutines with `run`."""

    def __init__(self):
        self.ledger = Ledger()
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="ifforge-llm-hub", daemon=True)
        self._thread.start()
        self._lock = threading.Lock()
        self._clients: dict[tuple, LLM] = {}
        self._limits: dict[str | None, tuple[AdaptiveConcurrency, RateLimit]] = {}
        self._caches: dict[str, ResponseCache] = {}
        self.closed = False

    def llm(self, config: LLMConfig, cache_path: Path | None = None) -> LLM:
        """The run's client for this model and response cache (one of each, made on first use)."""
        key = (config.model_dump_json(), str(cache_path))
        with self._lock:
            if key not in self._clients:
                if cache_path is not None and str(cache_path) not in self._caches:
                    self._caches[str(cache_path)] = ResponseCache(Path(cache_path))
                if config.base_url not in self._limits:
                    self._limits[config.base_url] = (AdaptiveConcurrency(config.concurrency),
                                                     RateLimit(config.requests_per_minute, config.tokens_per_minute))
                concurrency, rate = self._limits[config.base_url]
                cache = self._caches.get(str(cache_path)) if cache_path is not None else None
                self._clients[key] = LLM(config, cache, ledger=self.ledger, concurrency=concurrency, rate=rate)
            return self._clients[key]

    def submit(self, make: Any, tag: str) -> concurrent.futures.Future:
        """Start the coroutine `make()` on the hub's loop with CALL_TAG = tag; its future."""
        if self.closed:
            raise Stopped("the run's LLM hub is closed: the run is stopping")

        async def tagged():
            CALL_TAG.set(tag)
            return await make()

        return asyncio.run_coroutine_threadsafe(tagged(), self.loop)

    def run(self, make: Any, tag: str) -> Any:
        """`submit`, and block for its result."""
        return self.submit(make, tag).result()

    def usage(self, tag: str) -> Usage:
        return self.ledger.usage_tagged(tag)

    def calls(self, tag: str) -> list[dict[str, Any]]:
        return self.ledger.calls_tagged(tag)

    def close(self) -> None:
        """Cancel what still runs (a run stopped by Ctrl-C or TERM: its shards, blocked in `run`,
        get CancelledError instead of waiting forever on a loop that is gone), then close the
        clients and stop the loop. A closed hub runs nothing more."""
        self.closed = True

        async def close_all():
            running = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in running:
                task.cancel()
            await asyncio.gather(*running, return_exceptions=True)
            for client in list(self._clients.values()):
                await client.close()

        try:
            asyncio.run_coroutine_threadsafe(close_all(), self.loop).result(timeout=30)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout=5)
            for cache in self._caches.values():
                cache.close()


_HUBS: dict[str, LLMHub] = {}
_CLOSED_RUNS: set[str] = set()  # a shard that starts after its run closed its hub must not open another
_HUBS_LOCK = threading.Lock()


def hub_for(run_id: str) -> LLMHub:
    """The hub of a run in this process (made on first use): every shard of the run finds the same."""
    with _HUBS_LOCK:
        if run_id in _CLOSED_RUNS:
            raise Stopped(f"run {run_id}: its LLM hub is closed, the run is stopping")
        if run_id not in _HUBS:
            _HUBS[run_id] = LLMHub()
        return _HUBS[run_id]


def close_hub(run_id: str) -> None:
    with _HUBS_LOCK:
        hub = _HUBS.pop(run_id, None)
        _CLOSED_RUNS.add(run_id)
    if hub is not None:
        hub.close()
