"""CPU-bound pure work of async stages in worker processes, away from the run's GIL.

On the run's own interpreter every thread shares one GIL with the event loop that serves all LLM
requests; libcst's parses (the deterministic fallbacks) held it for seconds at a time. Functions
sent here must be importable by name and return a pydantic model (sent back as JSON and validated
again). Where a process cannot have children (a daemonic Dask worker), threads do the work.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, Callable, TypeVar

from pydantic import BaseModel

Model = TypeVar("Model", bound=BaseModel)
_LOCK = threading.Lock()
_EXECUTOR: Executor | None = None


def _executor() -> Executor | None:
    global _EXECUTOR
    if multiprocessing.current_process().daemon:
        return None
    with _LOCK:
        if _EXECUTOR is None:
            workers = max(1, (os.cpu_count() or 2) - 1)
            _EXECUTOR = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("forkserver"))
    return _EXECUTOR


def _call(function: Callable[..., BaseModel], args: tuple) -> dict[str, Any]:
    return function(*args).model_dump(mode="json")


async def in_worker(result: type[Model], function: Callable[..., Model], *args: Any) -> Model:
    """`function(*args)` in a worker process, validated back as `result`."""
    from ifforge.core.sandbox import off_loop

    executor = _executor()
    if executor is None:
        return await off_loop(function, *args)
    dumped = await asyncio.get_running_loop().run_in_executor(executor, _call, function, args)
    return result.model_validate(dumped)
