"""Run untrusted seed code in a child process, never in the caller's.

All cases of one function run in one child (`_sandbox_child.py`), which streams a result line per
case. The child gets CPU-time, memory, file-size and process rlimits, a fresh temporary working
directory, no site-packages and a fixed hash seed. A case that loops forever is stopped by an alarm
inside the child; if the child itself dies or hangs (os._exit, a segfault, an alarm that never
fires), the parent kills it, marks that case, and starts a new child for the cases left.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import resource
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ifforge.core import _sandbox_child  # noqa: E402,F401 - not run here: imported so its source counts in code versions

CHILD = Path(__file__).with_name("_sandbox_child.py")
# Sandbox and other CPU work of async stages runs here: never on the event loop (it serves every
# request of the run), and not in the loop's default executor either (that one resolves host names
# for the LLM client, and hundreds of queued sandbox runs ahead of a lookup held every request back
# until they were all done). Sized to the cores: the work is CPU.
_POOL = ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2), thread_name_prefix="ifforge-sandbox")


async def off_loop(function, *args, **kwargs):
    """Run sandbox- or CPU-bound `function` in this thread pool and await its result."""
    return await asyncio.get_running_loop().run_in_executor(_POOL, functools.partial(function, *args, **kwargs))

Status = Literal["ok", "timeout", "memory", "exception", "bad_shape", "not_json", "too_large", "crash"]


@dataclass(frozen=True)
class Limits:
    case_seconds: float = 2.0  # wall clock per case
    cpu_seconds: int = 60  # CPU time for a whole child
    memory_bytes: int = 1 << 30  # address space
    output_bytes: int = 1 << 20  # one case's encoded result
    print_chars: int = 1 << 20  # what the function may print in total (discarded)
    hash_seed: int = 0


@dataclass(frozen=True)
class CaseResult:
    index: int
    status: Status
    output: Any = None
    stats: dict | None = None
    output_type: str | None = None
    error: str = ""
    line: int | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass
class _Child:
    process: subprocess.Popen
    workdir: tempfile.TemporaryDirectory
    buffer: bytes = b""
    stderr_path: Path = field(default=Path())


def _limit_child(limits: Limits):
    def apply():
        os.setsid()
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


def _start(code: str, entry: str, indices: list[int], cases: list[list], tracked: bool, limits: Limits) -> _Child:
    workdir = tempfile.TemporaryDirectory(prefix="ifforge-sandbox-")
    stderr_path = Path(workdir.name) / "stderr.txt"
    with open(stderr_path, "wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-P", "-s", "-S", str(CHILD)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=workdir.name,
            env={"PYTHONHASHSEED": str(limits.hash_seed), "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"},
            preexec_fn=_limit_child(limits),
            close_fds=True,
        )
    request = {
        "code": code, "entry": entry, "indices": indices, "cases": cases, "tracked": tracked,
        "case_seconds": limits.case_seconds, "output_limit": limits.output_bytes,
        "print_limit": limits.print_chars,
    }
    try:
        process.stdin.write(json.dumps(request).encode())
        process.stdin.close()
    except BrokenPipeError:
        pass
    return _Child(process, workdir, stderr_path=stderr_path)


def _stop(child: _Child) -> str:
    """Kill the child's whole process group; return the tail of what it wrote to stderr."""
    try:
        os.killpg(child.process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    child.process.wait()
    child.process.stdout.close()
    try:
        tail = child.stderr_path.read_text(errors="replace")[-300:].strip()
    except OSError:
        tail = ""
    child.workdir.cleanup()
    return tail


def run_cases(
    code: str, entry: str, cases: list[list], *, tracked: bool = False, limits: Limits = Limits()
) -> list[CaseResult]:
    """Run `entry(*args)` for every args list in `cases`; one result per case, in order.

    `tracked` expects the function to return `(output, {tracker: value})` with 1 to 3 trackers.
    """
    results: dict[int, CaseResult] = {}
    pending = list(range(len(cases)))
    while pending:
        child = _start(code, entry, pending, [cases[i] for i in pending], tracked, limits)
        pending = _collect(child, pending, results, limits)
    return [results[i] for i in range(len(cases))]


def _collect(child: _Child, pending: list[int], results: dict[int, CaseResult], limits: Limits) -> list[int]:
    """Read results until the child finishes or fails; return the cases still to run."""
    selector = selectors.DefaultSelector()
    selector.register(child.process.stdout, selectors.EVENT_READ)
    stream = child.process.stdout.fileno()
    grace = limits.case_seconds + 1.0
    deadline = time.monotonic() + grace + 2.0  # the first case also pays for interpreter start-up
    failure: tuple[Status, str] | None = None
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                failure = ("timeout", "the case ran past its time limit and the child did not stop")
                break
            if not selector.select(timeout=remaining):
                continue
            chunk = os.read(stream, 1 << 16)
            if not chunk:
                failure = ("crash", "")
                break
            child.buffer += chunk
            if len(child.buffer) > limits.output_bytes * 2:
                failure = ("too_large", "the child wrote more than the output cap")
                break
            *lines, child.buffer = child.buffer.split(b"\n")
            try:
                for line in lines:
                    message = json.loads(line)
                    index = message.pop("index")
                    results[index] = CaseResult(index=index, **message)
                    deadline = time.monotonic() + grace
            except (ValueError, TypeError, KeyError):  # seed code wrote into the result pipe itself
                failure = ("crash", "the child wrote something that is not a result")
                break
            if all(i in results for i in pending):
                break
    finally:
        selector.close()
        tail = _stop(child)
    left = [i for i in pending if i not in results]
    if not left:
        return []
    status, message = failure or ("crash", "")
    if status == "crash":
        code = child.process.returncode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit status {code}"
        if code == -signal.SIGXCPU:
            status = "timeout"
        elif "MemoryError" in tail:
            status = "memory"
        message = f"the interpreter died ({how})" + (f": {tail.splitlines()[-1]}" if tail else "")
    results[left[0]] = CaseResult(index=left[0], status=status, error=message)
    return left[1:]

