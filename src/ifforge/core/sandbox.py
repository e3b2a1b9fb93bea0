"""Run untrusted seed code in a child process, never in the caller's.

The cases of one function share one warm child (`_sandbox_child.py`) behind the walls `isolation`
finds, which forks a fresh process per case (fresh globals, defaults and random state, a private
working directory) and streams a result line per case. The child gets CPU-time, memory, file-size
and core rlimits, no site-packages and a fixed hash seed. If the child itself dies or hangs (seed
code killed or stopped it), the parent kills it, marks that case, and starts a new child for the
cases left. A `deadline` bounds all the passes over one function together.
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
from ifforge.core import isolation

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


class Budget:
    """A time budget for everything run for one function, across passes: a deadline to share."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds

    def left(self) -> float:
        return self.deadline - time.monotonic()


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
    group: isolation.CgroupGroup | None = None
    memory_kills: int = 0  # times the group's memory cap was hit, as last seen
    memory_capped: bool = False  # the group's total memory cap was hit since then


def _limit_child(limits: Limits, group: isolation.CgroupGroup | None):
    def apply():
        os.setsid()
        if group is not None:
            group.enter()
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


@functools.lru_cache(maxsize=1)
def _child_source() -> str:
    return CHILD.read_text()


def _command(limits: Limits) -> tuple[list[str], dict[str, str]]:
    """The child's command line and environment, behind the walls this machine offers."""
    env = {"PYTHONHASHSEED": str(limits.hash_seed), "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}
    walls = isolation.detect()
    python = os.path.realpath(sys.executable)
    if walls.method != "bubblewrap":
        return [python, "-P", "-s", "-S", str(CHILD)], env
    # inside, only the system and the interpreter are visible: the child's source goes on the command line
    settings = [arg for name, value in env.items() for arg in ("--setenv", name, value)]
    return [*isolation.bwrap_prefix(walls.bwrap), *settings, python, "-P", "-s", "-S", "-c", _child_source()], {}


def describe_isolation() -> dict:
    """What the sandbox child runs behind on this machine (for manifests)."""
    return isolation.detect().describe()


def _start(code: str, entry: str, indices: list[int], cases: list[list], tracked: bool, limits: Limits) -> _Child:
    workdir = tempfile.TemporaryDirectory(prefix="ifforge-sandbox-")
    stderr_path = Path(workdir.name) / "stderr.txt"
    command, env = _command(limits)
    walls = isolation.detect()
    group = isolation.CgroupGroup.make(walls.cgroup, limits.memory_bytes) if walls.cgroup else None
    with open(stderr_path, "wb") as stderr:
        process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=workdir.name,
            env=env,
            preexec_fn=_limit_child(limits, group),
            close_fds=True,
        )
    request = {
        "code": code, "entry": entry, "indices": indices, "cases": cases, "tracked": tracked,
        "case_seconds": limits.case_seconds, "output_limit": limits.output_bytes,
        "print_limit": limits.print_chars, "walled": walls.method == "bubblewrap",
    }
    try:
        process.stdin.write(json.dumps(request).encode())
        process.stdin.close()
    except BrokenPipeError:
        pass
    return _Child(process, workdir, stderr_path=stderr_path, group=group)


def _stop(child: _Child) -> str:
    """Kill the child's whole process group; return the tail of what it wrote to stderr."""
    try:
        os.killpg(child.process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    child.process.wait()
    if child.group is not None:
        child.memory_capped = child.group.memory_kills() > child.memory_kills
        child.group.remove()  # every descendant, whatever session it moved to
    child.process.stdout.close()
    try:
        tail = child.stderr_path.read_text(errors="replace")[-300:].strip()
    except OSError:
        tail = ""
    child.workdir.cleanup()
    return tail


def _no_constants(name: str):
    raise ValueError(f"{name} is not a JSON value")  # NaN, Infinity: never gold


def run_cases(
    code: str, entry: str, cases: list[list], *, tracked: bool = False, limits: Limits = Limits(),
    budget: Budget | None = None,
) -> list[CaseResult]:
    """Run `entry(*args)` for every args list in `cases`; one result per case, in order.

    `tracked` expects the function to return `(output, {tracker: value})` with 1 to 3 trackers.
    Once `budget` is spent, the cases not run yet are timeouts that say so.
    """
    results: dict[int, CaseResult] = {}
    pending = list(range(len(cases)))
    while pending and (budget is None or budget.left() > 0):
        child = _start(code, entry, pending, [cases[i] for i in pending], tracked, limits)
        pending = _collect(child, pending, results, limits, budget)
    for index in pending:
        results[index] = CaseResult(index=index, status="timeout",
                                    error=f"the function's time budget of {budget.seconds:g} s is spent")
    return [results[i] for i in range(len(cases))]


def _result(index: int, message: dict, child: _Child) -> CaseResult:
    """A case's result; a case the kernel killed for the group's memory cap is a memory failure."""
    killed_by = message.pop("signal", None)
    if killed_by == signal.SIGKILL and child.group is not None:
        kills = child.group.memory_kills()
        if kills > child.memory_kills:
            child.memory_kills = kills
            message.update(status="memory", error="the case's processes went over the memory cap together")
    return CaseResult(index=index, **message)


def _collect(child: _Child, pending: list[int], results: dict[int, CaseResult], limits: Limits,
             budget: Budget | None) -> list[int]:
    """Read results until the child finishes or fails; return the cases still to run."""
    selector = selectors.DefaultSelector()
    selector.register(child.process.stdout, selectors.EVENT_READ)
    stream = child.process.stdout.fileno()
    grace = limits.case_seconds + 2.0  # the child kills a case half a second past its alarm
    deadline = time.monotonic() + grace + 2.0  # the first case also pays for interpreter start-up
    failure: tuple[Status, str] | None = None
    if child.group is not None:
        child.memory_kills = child.group.memory_kills()
    try:
        while True:
            if budget is not None and budget.left() <= 0:
                break
            remaining = deadline - time.monotonic()
            if budget is not None:
                remaining = min(remaining, budget.left())
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
                    message = json.loads(line, parse_constant=_no_constants)
                    index = message.pop("index")
                    expected = next(i for i in pending if i not in results)
                    if index != expected:  # results come in case order; anything else was forged
                        raise ValueError(f"a result for case {index} where case {expected} was due")
                    results[index] = _result(index, message, child)
                    deadline = time.monotonic() + grace
            except (ValueError, TypeError, KeyError, StopIteration):  # seed code wrote into the result pipe
                failure = ("crash", "the child wrote something that is not a result")
                break
            if all(i in results for i in pending):
                break
    finally:
        selector.close()
        tail = _stop(child)
    left = [i for i in pending if i not in results]
    if not left or (budget is not None and budget.left() <= 0 and failure is None):
        return left
    status, message = failure or ("crash", "")
    if status == "crash":
        code = child.process.returncode
        killed_by = -code if code is not None and code < 0 else None
        if code is not None and code > 128 and isolation.detect().method == "bubblewrap":
            killed_by = code - 128  # bubblewrap passes a signal death on as 128 + the signal
        how = f"killed by signal {killed_by}" if killed_by else f"exit status {code}"
        if killed_by == signal.SIGXCPU:
            status = "timeout"
        elif "MemoryError" in tail or child.memory_capped:
            status = "memory"
        message = f"the interpreter died ({how})" + (f": {tail.splitlines()[-1]}" if tail else "")
    results[left[0]] = CaseResult(index=left[0], status=status, error=message)
    return left[1:]

