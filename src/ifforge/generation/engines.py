"""Where a generate run's steps run: the run says what to do and in which order, an engine where.

A step is `call`ed when it runs in the run's own process (loading, batch steps, the export, and
side work, which the run calls from a thread of its own) and `submit`ted when it may run wherever
the engine has room (the shards of per-item stages). `submit` returns a handle; a later `submit`
may take earlier handles among its arguments (a shard's next stage takes its previous one) and
starts once they are done, and `result(handle)` is the step's value, waited for.

`Threads` runs the steps in this process; `Dask` sends the shards to a Dask cluster. Neither
needs an orchestrator: `ifforge.generation.generate` runs on either. The Prefect flow adapts its
tasks to the same calls (`flows/generate.py`), each task's work done in the flow's process or, for
shards, on the same `Dask` engine.
"""

from __future__ import annotations

import sys
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Protocol

# the kinds of step a run hands its engine (Prefect gives each its retries)
LOAD, BATCH, SIDE, STAGE, EXPORT = "load", "batch", "side", "stage", "export"


class Engine(Protocol):
    def call(self, kind: str, name: str, function: Callable[..., Any], *args: Any) -> Any:
        """`function(*args)`, in the run's process, waited for."""

    def submit(self, kind: str, name: str, function: Callable[..., Any], *args: Any) -> Any:
        """`function(*args)` started; returns a handle. Handles among `args` stand for their results."""

    def result(self, handle: Any) -> Any:
        """What a submitted step returned (its error raised), waited for."""


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

    def result(self, handle: Future) -> Any:
        return handle.result()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> Threads:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _after_upstream(function: Callable[..., Any], args: tuple) -> Any:
    return function(*(arg.result() if isinstance(arg, Future) else arg for arg in args))


class Dask:
    """Shards on the Dask cluster at `address`, or on a local one of `workers` processes started
    for the run. A worker gets a plain function and its arguments: it imports the stages and
    `generation.shards`, no orchestrator, and reports to no server. A shard's next stage takes the
    previous one's future, so its items go from worker to worker; they come to this process only
    when the run reads a result (for the per-item artifacts)."""

    def __init__(self, address: str | None = None, workers: int = 2):
        from distributed import Client, LocalCluster  # lazy on purpose: Dask (heavy), only when a run asks for it

        self._cluster = None if address else LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                          dashboard_address=None)
        self.client = Client(address or self._cluster)

    def call(self, kind: str, name: str, function: Callable[..., Any], *args: Any) -> Any:
        return function(*args)

    def submit(self, kind: str, name: str, function: Callable[..., Any], *args: Any) -> Any:
        return self.client.submit(function, *args, key=f"{name}-{uuid.uuid4().hex}", pure=False)

    def result(self, handle: Any) -> Any:
        return handle.result()

    def settle(self, handle: Any) -> Any:
        """Wait until a step is done where it ran; raise its error, leave its result there."""
        from distributed import wait  # lazy on purpose: Dask, as above

        wait(handle)
        if handle.status != "finished":
            handle.result()  # raises the step's error
        return handle

    def close(self) -> None:
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()

    def __enter__(self) -> Dask:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def engine_for(settings) -> Threads | Dask:
    """The engine the settings ask for (`task_runner`): threads here, or a Dask cluster."""
    if settings.task_runner == "dask":
        return Dask(settings.dask_address, settings.dask_workers)
    return Threads()
