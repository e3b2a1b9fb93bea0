"""Where a generate run's steps run: the run says what to do and in which order, an engine where.

A step is `call`ed when it runs in the run's own process (loading, batch steps, the export, and
side work, which the run calls from a thread of its own) and `submit`ted when it may run anywhere
the engine has room (the shards of per-item stages); a submitted step may take earlier
submissions' futures as arguments and starts once they are done.
`Threads` runs them in this process, with no orchestrator: what library users and family tests
run. `flows.generate` adapts Prefect's tasks (on its thread runner or on Dask) to the same two
calls, so the Prefect flow only says how each kind of step is retried and shown.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Protocol

# the kinds of step a run hands its engine (Prefect gives each its retries)
LOAD, BATCH, SIDE, STAGE, EXPORT = "load", "batch", "side", "stage", "export"


class Engine(Protocol):
    def call(self, kind: str, name: str, function: Callable[..., Any], *args: Any) -> Any:
        """`function(*args)`, waited for."""

    def submit(self, kind: str, name: str, function: Callable[..., Any], *args: Any) -> Any:
        """`function(*args)` started; returns a future (`.result()`). Futures among `args` are
        replaced by their results first."""


class Threads:
    """Steps in threads of this process. Chained shards wait for their upstream in a thread of
    their own; the queue is first in, first out, so an upstream step is always started before
    any step that waits for it, and the pool grows as steps wait (as Prefect's thread runner)."""

    def __init__(self):
        self._pool = ThreadPoolExecutor(max_workers=sys.maxsize, thread_name_prefix="ifforge-step")

    def call(self, kind: str, name: str, function: Callable[..., Any], *args: Any) -> Any:
        return function(*args)

    def submit(self, kind: str, name: str, function: Callable[..., Any], *args: Any) -> Future:
        return self._pool.submit(_after_upstream, function, args)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> Threads:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _after_upstream(function: Callable[..., Any], args: tuple) -> Any:
    return function(*(arg.result() if isinstance(arg, Future) else arg for arg in args))
