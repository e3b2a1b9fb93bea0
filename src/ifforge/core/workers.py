"""CPU-bound pure work in worker processes, away from the run's GIL.

On the run's own interpreter every thread shares one GIL: with the event loop that serves all LLM
requests (libcst's parses in the deterministic fallbacks held it for seconds at a time), and with
each other (offline, LogicIF's libcst stages kept one core busy and left the other idle). Workers are
plain child processes running this module (`python -m ifforge.core.workers`), not
`multiprocessing` ones: those re-import the user's main script, which runs a flow again when the
script has no `if __name__ == "__main__"` guard. A function sent here must be importable by name
and return a pydantic model (sent back as JSON, validated again). Workers stay for the run and end
when their request pipe closes; inside a Dask worker, or if a worker cannot start, threads do it.
"""

from __future__ import annotations

import atexit
import importlib
import json
import os
import pickle
import struct
import subprocess
import sys
import threading
import traceback
from typing import Any, Callable, TypeVar

from pydantic import BaseModel

from ifforge.core.sandbox.execution import off_loop

Model = TypeVar("Model", bound=BaseModel)
WORKERS = max(1, os.cpu_count() or 1)  # the run's own process mostly waits on them (or on the LLM)


class WorkerError(RuntimeError):
    """The function raised in the worker (its traceback is the message), or the worker died."""


def write_frame(stream, payload: bytes) -> None:
    """One message to a child process (or back): its length, then its bytes."""
    stream.write(struct.pack(">I", len(payload)) + payload)
    stream.flush()


def read_frame(stream) -> bytes | None:
    """The next message `write_frame` sent; None when the other side is gone."""
    header = stream.read(4)
    if len(header) < 4:
        return None
    size = struct.unpack(">I", header)[0]
    return stream.read(size)


class _Worker:
    def __init__(self):
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self.process = subprocess.Popen([sys.executable, "-m", "ifforge.core.workers"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, env=env, close_fds=True)

    def call(self, function: Callable, args: tuple) -> Any:
        write_frame(self.process.stdin, pickle.dumps((function.__module__, function.__qualname__, args)))
        reply = read_frame(self.process.stdout)
        if reply is None:
            raise WorkerError(f"the worker process died (exit status {self.process.wait()})")
        ok, value, *kind = json.loads(reply)
        if not ok:
            # code nested too deeply for a stage is the item's, as it is in this process
            raise (RecursionError if kind == ["RecursionError"] else WorkerError)(value)
        return value

    def close(self) -> None:
        end_child(self.process)


def end_child(process: subprocess.Popen) -> None:
    """A child that serves requests from its stdin ends when that closes; killed if it will not."""
    try:
        process.stdin.close()
    except OSError:
        pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class _Pool:
    """A worker per slot. A call names its item (`key`): an item's stages go to one worker when it
    is free, so what one stage parsed the next finds remembered there (the run's threads wait
    their turn anyway); a free worker no waiting call names takes any other call."""

    def __init__(self, size: int):
        self.workers: list[_Worker | None] = [None] * size
        self.busy = [False] * size
        self.wanted = [0] * size  # calls waiting for each slot, their item's
        self.turn = threading.Condition()
        atexit.register(self.close)

    def _take(self, key: Any) -> int:
        preferred = hash(key) % len(self.busy) if key is not None else None
        with self.turn:
            if preferred is not None:
                self.wanted[preferred] += 1
            try:
                while True:
                    if preferred is not None and not self.busy[preferred]:
                        slot = preferred
                        break
                    free = [s for s, busy in enumerate(self.busy) if not busy and not self.wanted[s]]
                    if free:
                        slot = free[0]
                        break
                    self.turn.wait()
            finally:
                if preferred is not None:
                    self.wanted[preferred] -= 1
            self.busy[slot] = True
            return slot

    def _give_back(self, slot: int) -> None:
        with self.turn:
            self.busy[slot] = False
            self.turn.notify_all()

    def call(self, function: Callable, args: tuple, key: Any = None) -> Any:
        slot = self._take(key)
        try:
            worker = self.workers[slot]
            if worker is None or worker.process.poll() is not None:
                worker = self.workers[slot] = _Worker()
            return worker.call(function, args)  # a worker that died is replaced on its slot's next call
        finally:
            self._give_back(slot)

    def close(self) -> None:
        with self.turn:
            workers, self.workers = self.workers, [None] * len(self.workers)
        for worker in workers:
            if worker is not None:
                worker.close()


_POOL = _Pool(WORKERS)


def in_dask_worker() -> bool:
    """Whether this process is a Dask worker's, asked from any of its threads (a stage's items run in
    threads of their own, where `distributed.get_worker()` finds none: each worker then started a
    pool of its own, 2 more processes per worker importing the stages again)."""
    if "distributed" not in sys.modules:  # never imported: not a Dask worker (and no import cost)
        return False
    # lazy on purpose: Dask, only inside a Dask worker
    from distributed import Worker

    return bool(Worker._instances)


def call(result: type[Model], function: Callable[..., Model], *args: Any) -> Model:
    """`function(*args)` in a worker process, validated back as `result`; blocks the calling thread.
    Calls about one item (the first argument's `task_id`) go to one worker when it is free."""
    if in_dask_worker():  # a Dask worker already is one process per core
        return function(*args)
    return result.model_validate(_POOL.call(function, args, getattr(args[0], "task_id", None) if args else None))


async def in_worker(result: type[Model], function: Callable[..., Model], *args: Any) -> Model:
    """`function(*args)` in a worker process, validated back as `result`."""
    return await off_loop(call, result, function, *args)  # a thread waits on the worker, not the loop


def serve() -> None:
    """The worker's side: (module, name, args) in, (ok, JSON of the model or traceback, the error's
    class) out."""
    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the replies
    while True:
        request = read_frame(requests)
        if request is None:
            return
        module, name, args = pickle.loads(request)
        try:
            function = importlib.import_module(module)
            for part in name.split("."):
                function = getattr(function, part)
            reply = [True, function(*args).model_dump(mode="json")]
        except Exception as error:  # noqa: BLE001 - the caller gets the traceback as its error
            reply = [False, traceback.format_exc()[-2000:], type(error).__name__]
        write_frame(replies, json.dumps(reply).encode())


if __name__ == "__main__":
    serve()
