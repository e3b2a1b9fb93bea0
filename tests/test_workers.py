"""CPU-bound fallbacks run in a worker process, off the run's GIL, and come back as models."""

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel

from ifforge.core import workers


class Where(BaseModel):
    pid: int
    value: int


def where(value: int) -> Where:
    if value < 0:
        raise ValueError("negative on purpose")
    return Where(pid=os.getpid(), value=value * 2)


def test_work_runs_in_another_process_and_comes_back_validated():
    result = asyncio.run(workers.in_worker(Where, where, 21))
    assert isinstance(result, Where) and result.value == 42
    assert result.pid != os.getpid()
    again = asyncio.run(workers.in_worker(Where, where, 1))
    assert again.pid == result.pid  # the worker stays for the run


def test_an_error_in_the_worker_is_raised_here_with_its_traceback():
    with pytest.raises(workers.WorkerError, match="negative on purpose"):
        asyncio.run(workers.in_worker(Where, where, -1))
    assert asyncio.run(workers.in_worker(Where, where, 2)).value == 4  # and the worker still serves


def test_a_script_without_a_main_guard_is_not_run_again_by_the_worker(tmp_path):
    script = tmp_path / "user_script.py"  # what many Prefect users write: no `if __name__ == "__main__"`
    script.write_text("import asyncio\nfrom test_workers import Where, where\nfrom ifforge.core import workers\n"
                      "print('ran', asyncio.run(workers.in_worker(Where, where, 5)).value)\n")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent)}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == ["ran 10"]


def test_an_items_calls_go_to_its_worker_while_it_is_free_and_else_to_a_free_one():
    pool = workers._Pool(2)  # slots only: no worker process starts here
    slots = {}
    for key in range(8):  # item keys (ints hash to themselves: no test depends on the run's hash seed)
        slots[key] = pool._take(key)
        pool._give_back(slots[key])
        assert pool._take(key) == slots[key]  # the same item: the same worker, where its parse is remembered
        pool._give_back(slots[key])
    assert set(slots.values()) == {0, 1}
    first = pool._take(0)
    assert pool._take(0) == 1 - first  # its worker is busy and nobody waits for the other: that one
    pool._give_back(0)
    pool._give_back(1)
