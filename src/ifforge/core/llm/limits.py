"""How much the run may ask at once, and when again: a concurrency ceiling that halves on 429 and
creeps back up (AIMD), served by priority, sliding one-minute windows of requests and tokens (the
hub keeps one of each per server, for the whole run), and the retry policy of a failed request.
Every wait reads a `Clock`, so a test asserts the waits instead of timing them."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import heapq
import random
import time
from dataclasses import dataclass

PRIORITY: contextvars.ContextVar[int] = contextvars.ContextVar("ifforge_priority", default=0)


@contextlib.contextmanager
def priority(value: int):
    """Requests made inside wait behind those of a lower value when the run is at its concurrency
    ceiling. The generate flow gives each shard its index: the first shard gets through its LLM
    stages first and moves on to its sandbox stages while later shards keep the model busy, where
    fair sharing brought every shard to the sandbox at once and left the model idle."""
    token = PRIORITY.set(value)
    try:
        yield
    finally:
        PRIORITY.reset(token)


class AdaptiveConcurrency:
    """At most `limit` requests in flight; halve on a 429, add one per `limit` successes. Waiters
    are served by priority (`PRIORITY`, lower first), then in arrival order."""

    def __init__(self, maximum: int):
        self.maximum = max(1, maximum)
        self.limit = float(self.maximum)
        self.in_flight = 0
        self._waiting: list[tuple[int, int, asyncio.Future]] = []  # a heap
        self._arrivals = 0

    async def __aenter__(self):
        if self.in_flight < int(self.limit) and not self._waiting:
            self.in_flight += 1
            return
        self._arrivals += 1
        turn = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (PRIORITY.get(), self._arrivals, turn))
        try:
            await turn  # resolved by _admit, which has counted this request in flight
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.in_flight -= 1  # admitted and cancelled at once: give the place back
                self._admit()
            else:
                self._waiting = [entry for entry in self._waiting if entry[2] is not turn]
                heapq.heapify(self._waiting)
            raise

    async def __aexit__(self, *exc):
        self.in_flight -= 1
        self._admit()

    def _admit(self) -> None:
        while self._waiting and self.in_flight < int(self.limit):
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():
                self.in_flight += 1
                turn.set_result(None)

    def succeeded(self) -> None:
        self.limit = min(self.maximum, self.limit + 1 / max(1.0, self.limit))
        self._admit()

    def throttled(self) -> None:
        self.limit = max(1.0, self.limit / 2)


class Clock:
    """Real time for the waits of the LLM side; a test passes an object with the same two members
    whose `sleep` moves its `now` on, and asserts what was waited, with no wall-clock bound."""

    now = staticmethod(time.monotonic)
    sleep = staticmethod(asyncio.sleep)


@dataclass(frozen=True)
class RetryPolicy:
    """A failed request is tried again when the server, not the request, failed (`transient`), at
    most `retries` times, after an exponential backoff with jitter (clients that failed together do
    not come back together) and never sooner than the server's Retry-After asks."""

    retries: int
    first_wait: float = 0.25  # seconds, doubled each retry
    longest_wait: float = 30.0
    longest_retry_after: float = 120.0  # the most of a server's Retry-After that is honoured

    @staticmethod
    def transient(error: Exception) -> bool:
        """429, 408, 5xx, and failures without a status (timeouts, dropped connections, a 200 that
        carries no answer): another try may pass. A failure that stays transient when the retries
        are spent means the server is unavailable."""
        status = getattr(error, "status_code", None)
        return status is None or status in (408, 429) or status >= 500

    def wait(self, error: Exception, attempt: int) -> float | None:
        """Seconds to wait before trying again after try `attempt` (from 0) failed; None: give up."""
        if attempt >= self.retries or not self.transient(error):
            return None
        wait = min(self.longest_wait, self.first_wait * 2 ** attempt) * random.uniform(0.5, 1.0)
        response = getattr(error, "response", None)
        asked = response.headers.get("retry-after") if response is not None else None
        with contextlib.suppress(TypeError, ValueError):  # none, or an HTTP date: the backoff alone
            wait = max(wait, min(self.longest_retry_after, float(asked)))
        return wait


class RateLimit:
    """Sliding one-minute windows of requests and (estimated) tokens (`window` is for tests)."""

    def __init__(self, requests_per_minute: int | None, tokens_per_minute: int | None, window: float = 60.0,
                 clock: Clock | None = None):
        self.rpm, self.tpm, self.window = requests_per_minute, tokens_per_minute, window
        self.clock = clock or Clock()
        self._sent: collections.deque[tuple[float, int]] = collections.deque()
        self._lock = asyncio.Lock()

    async def wait(self, tokens: int) -> None:
        if not self.rpm and not self.tpm:
            return
        async with self._lock:
            while True:
                now = self.clock.now()
                while self._sent and now - self._sent[0][0] >= self.window:
                    self._sent.popleft()
                used = sum(t for _, t in self._sent)
                requests_ok = not self.rpm or len(self._sent) < self.rpm
                tokens_ok = not self.tpm or not self._sent or used + tokens <= self.tpm  # one big request may pass alone
                if requests_ok and tokens_ok:
                    self._sent.append((now, tokens))
                    return
                await self.clock.sleep(max(0.01, self.window - (now - self._sent[0][0])))
