"""CPU-bound fallbacks run in a worker process, off the run's GIL, and come back as models."""

import asyncio
import multiprocessing
import os

from pydantic import BaseModel

from ifforge.core import workers


class Where(BaseModel):
    pid: int
    value: int


def where(value: int) -> Where:
    return Where(pid=os.getpid(), value=value * 2)


def test_work_runs_in_another_process_and_comes_back_validated():
    result = asyncio.run(workers.in_worker(Where, where, 21))
    assert isinstance(result, Where) and result.value == 42
    assert result.pid != os.getpid()


def test_a_daemonic_process_uses_threads_instead(monkeypatch):
    monkeypatch.setattr(multiprocessing.current_process(), "daemon", True, raising=False)
    result = asyncio.run(workers.in_worker(Where, where, 1))
    assert result.value == 2 and result.pid == os.getpid()
