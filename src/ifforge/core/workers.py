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

Model = TypeVar("Model", bound=BaseModel)
WORKERS = max(1, os.cpu_count() or 1)  # the run's own process mostly waits on them (or on the LLM)


class WorkerError(RuntimeError):
    """The function raised in the worker (its traceback is the message), or the worker died."""


def _write(stream, payload: bytes) -> None:
    stream.write(struct.pack(">I", len(payload)) + payload)
    stream.flush()


def _read(stream) -> bytes | None:
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
        _write(self.process.stdin, pickle.dumps((function.__module__, function.__qualname__, args)))
        reply = _read(self.process.stdout)
        if reply is None:
            raise WorkerError(f"the worker process died (exit status {self.process.wait()})")
        ok, value = json.loads(reply)
        if not ok:
            raise WorkerError(value)
        return value

    def close(self) -> None:
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


class _Pool:
    def __init__(self, size: int):
        self.idle: list[_Worker] = []
        self.slots = threading.BoundedSemaphore(size)
        self.lock = threading.Lock()
        atexit.register(self.close)

    def call(self, function: Callable, args: tuple) -> Any:
        with self.slots:
            with self.lock:
                worker = self.idle.pop() if self.idle else None
            if worker is None or worker.process.poll() is not None:
                worker = _Worker()
            try:
                value = worker.call(function, args)
            except WorkerError:
                if worker.process.poll() is None:  # the function raised; the worker is fine
                    with self.lock:
                        self.idle.append(worker)
                raise
            with self.lock:
                self.idle.append(worker)
            return value

    def close(self) -> None:
        with self.lock:
            workers, self.idle = self.idle, []
        for worker in workers:
            worker.close()


_POOL = _Pool(WORKERS)


def _in_dask_worker() -> bool:
    if "distributed" not in sys.modules:  # never imported: not a Dask worker (and no import cost)
        return False
    from distributed import get_worker

    try:
        get_worker()
        return True
    except ValueError:
        return False


def call(result: type[Model], function: Callable[..., Model], *args: Any) -> Model:
    """`function(*args)` in a worker process, validated back as `result`; blocks the calling thread."""
    if _in_dask_worker():  # a Dask worker already is one process per core
        return function(*args)
    return result.model_validate(_POOL.call(function, args))


async def in_worker(result: type[Model], function: Callable[..., Model], *args: Any) -> Model:
    """`function(*args)` in a worker process, validated back as `result`."""
    from ifforge.core.sandbox import off_loop

    return await off_loop(call, result, function, *args)  # a thread waits on the worker, not the loop


def serve() -> None:
    """The worker's side: (module, name, args) in, (ok, JSON of the model or traceback) out."""
    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the replies
    while True:
        request = _read(requests)
        if request is None:
            return
        module, name, args = pickle.loads(request)
        try:
            function = importlib.import_module(module)
            for part in name.split("."):
                function = getattr(function, part)
            reply = [True, function(*args).model_dump(mode="json")]
        except Exception:  # noqa: BLE001 - the caller gets the traceback as its error
            reply = [False, traceback.format_exc()[-2000:]]
        _write(replies, json.dumps(reply).encode())


if __name__ == "__main__":
    serve()
