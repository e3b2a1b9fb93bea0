"""Run untrusted seed code in a child process, never in the caller's.

Warm children (`_child.py`), behind the walls `isolation` finds, serve one function's
cases at a time and are kept for the next: each forks a runner per function that runs every case
as if it were alone (the seed module executed afresh: new globals and defaults; fresh builtins,
random state, working directory, CPU allowance; a case that leaves a process or file behind ends
the runner; on request a runner per case) and streams a result line per case. By default the code
must first pass the policy of `codepolicy` (no host, no clock, no interpreter internals), which the
child enforces again while it runs. A child has no site-packages and a fixed hash seed, and ends when its request pipe
closes (so when we do, however we end). If a child dies or hangs (seed code killed or stopped it),
the parent kills it, marks that case, and starts a new child for the cases left. A `Budget` bounds
all the passes over one function together.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import json
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ifforge.core.sandbox import _child as _sandbox_child  # noqa: E402,F401 - not run here: imported so its source counts in code versions
from ifforge.core.sandbox import codepolicy
from ifforge.core.sandbox import isolation
from ifforge.core.orphans import pid_alive

CHILD = Path(__file__).with_name("_child.py")
# Sandbox and other CPU work of async stages runs here: never on the event loop (it serves every
# request of the run), and not in the loop's default executor either (that one resolves host names
# for the LLM client, and hundreds of queued sandbox runs ahead of a lookup held every request back
# until they were all done). Sized to the cores: the work is CPU.
_POOL = ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2), thread_name_prefix="ifforge-sandbox")


def type_name(value: Any) -> str:
    """The name the sandbox gives a case's output type (`list[int]`, `tuple(int, str)`); a stage
    naming input types calls it so inputs and outputs are named alike. The child holds the one
    implementation: it runs alone, on the standard library only."""
    return _sandbox_child._type_name(value)


async def off_loop(function, *args, **kwargs):
    """Run sandbox- or CPU-bound `function` in this thread pool and await its result."""
    return await asyncio.get_running_loop().run_in_executor(_POOL, functools.partial(function, *args, **kwargs))

Status = Literal["ok", "timeout", "memory", "exception", "bad_shape", "not_json", "too_large", "crash", "forbidden"]


@dataclass(frozen=True)
class Limits:
    case_seconds: float = 2.0  # wall clock per case (CPU time too, plus 2 s)
    memory_bytes: int = 1 << 30  # address space of each case's process; with cgroups, all of them together
    output_bytes: int = 1 << 20  # one case's encoded result
    print_chars: int = 1 << 20  # what the function may print in total (discarded)
    hash_seed: int = 0
    random_seed: int = 0  # `random` is seeded with it before every case
    policy: bool = True  # benchmark code: only what `codepolicy` allows; False for tests of the OS walls alone


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
    steps: int | None = None  # lines of seed code the call executed, when counted
    arcs: list | None = None  # with `coverage`: the (line, next line) arcs of seed code the call took
    max_hits: int | None = None  # with `coverage`: how often the busiest line of seed code ran

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass
class _Child:
    """A warm sandbox child: it serves one request at a time, and many over its life."""

    process: subprocess.Popen
    workdir: tempfile.TemporaryDirectory
    hash_seed: int
    buffer: bytes = b""
    stderr_path: Path = field(default=Path())
    group: isolation.CgroupGroup | None = None
    memory_limit: int = 0
    memory_kills: int = 0  # times the group's memory cap was hit, as last seen
    memory_capped: bool = False  # the group's total memory cap was hit since then
    fresh: bool = True  # not yet served: the first case also pays for its start-up


def _limit_child(group: isolation.CgroupGroup | None):
    """In the child before exec. Time and memory are limited per case, in each case's process."""
    def apply():
        os.setsid()
        if group is not None:
            group.enter()
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


@functools.lru_cache(maxsize=1)
def _child_source() -> str:
    return CHILD.read_text()


def _command(hash_seed: int) -> tuple[list[str], dict[str, str]]:
    """The child's command line and environment, behind the walls this machine offers."""
    walls = isolation.detect()
    env = {"PYTHONHASHSEED": str(hash_seed), "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8",
           "IFFORGE_WALLED": "1" if walls.method == "bubblewrap" else "0"}
    python = os.path.realpath(sys.executable)
    if walls.method != "bubblewrap":
        return [python, "-P", "-s", "-S", str(CHILD)], env
    # inside, only the system and the interpreter are visible: the child's source goes on the command line
    settings = [arg for name, value in env.items() for arg in ("--setenv", name, value)]
    return [*isolation.bwrap_prefix(walls.bwrap), *settings, python, "-P", "-s", "-S", "-c", _child_source()], {}


def describe_isolation() -> dict:
    """What the sandbox child runs behind on this machine (for manifests)."""
    return isolation.detect().describe()


WORKDIR_PREFIX = "ifforge-sandbox-"  # then the owning process's id: a later run knows when its owner is gone


def remove_stale_workdirs(folder: Path | None = None) -> int:
    """Children's working folders left by a run that was killed (SIGKILL skips our clean-up), in the
    temporary folder: removed when the process named in their name is gone. Returns how many."""
    removed = 0
    for path in Path(folder or tempfile.gettempdir()).glob(f"{WORKDIR_PREFIX}*-*"):
        owner = path.name[len(WORKDIR_PREFIX):].split("-")[0]
        if owner.isdigit() and not pid_alive(int(owner)) and path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
            removed += not path.exists()
    return removed


_clean_up_once = functools.lru_cache(maxsize=1)(remove_stale_workdirs)  # the first child of a run does it


def _spawn(limits: Limits) -> _Child:
    _clean_up_once()
    workdir = tempfile.TemporaryDirectory(prefix=f"{WORKDIR_PREFIX}{os.getpid()}-")
    stderr_path = Path(workdir.name) / "stderr.txt"
    command, env = _command(limits.hash_seed)
    walls = isolation.detect()
    group = isolation.CgroupGroup.make(walls.cgroup, limits.memory_bytes) if walls.cgroup else None
    with open(stderr_path, "wb") as stderr:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                   cwd=workdir.name, env=env, preexec_fn=_limit_child(group), close_fds=True)
    return _Child(process, workdir, limits.hash_seed, stderr_path=stderr_path, group=group,
                  memory_limit=limits.memory_bytes)


class _Pool:
    """Idle warm children by hash seed (fixed when an interpreter starts), shared by all threads.

    A child never runs seed code itself (cases run in a runner forked for the function), so reusing
    it for another function carries nothing over; one a case broke (killed, stopped) is discarded.
    """

    def __init__(self, keep: int):
        self.keep = keep
        self.idle: list[_Child] = []
        self.lock = threading.Lock()
        atexit.register(self.close)

    def take(self, limits: Limits) -> _Child:
        with self.lock:
            for child in self.idle:
                if child.hash_seed == limits.hash_seed:
                    self.idle.remove(child)
                    break
            else:
                child = None
        if child is not None and child.process.poll() is None:
            return child
        if child is not None:
            _stop(child)
        return _spawn(limits)

    def give_back(self, child: _Child) -> None:
        with self.lock:
            if len(self.idle) < self.keep:
                self.idle.append(child)
                return
        _stop(child)

    def close(self) -> None:
        with self.lock:
            children, self.idle = self.idle, []
        for child in children:
            _stop(child)


# an idle child per core for each hash seed a stage asks for together (execute's gold is confirmed
# under four): fewer, and the threads of a run start children for what another just stopped
_POOL_OF_CHILDREN = _Pool(keep=4 * (os.cpu_count() or 2))


def _send(child: _Child, code: str, entry: str, indices: list[int], cases: list[list], tracked: bool,
          limits: Limits, count_steps: bool, coverage: bool = False, alone: bool = False) -> bool:
    """Hand the child one request; False if it is gone (a case of an earlier request killed it)."""
    if child.group is not None and child.memory_limit != limits.memory_bytes:
        try:
            child.group.set_memory(limits.memory_bytes)
        except OSError:  # e.g. lower than what the group holds now: a new child, then
            return False
        child.memory_limit = limits.memory_bytes
    request = {
        "code": code, "entry": entry, "indices": indices, "cases": cases, "tracked": tracked,
        "case_seconds": limits.case_seconds, "memory_bytes": limits.memory_bytes,
        "output_limit": limits.output_bytes, "print_limit": limits.print_chars,
        "random_seed": limits.random_seed, "policy": limits.policy, "count_steps": count_steps,
        "coverage": coverage, "alone": alone,
    }
    try:
        child.process.stdin.write(json.dumps(request).encode() + b"\n")
        child.process.stdin.flush()
        return True
    except (BrokenPipeError, OSError):
        return False


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
    for stream in (child.process.stdin, child.process.stdout):
        try:
            stream.close()
        except OSError:
            pass
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
    budget: Budget | None = None, reverse: bool = False, count_steps: bool = False, coverage: bool = False,
    alone: bool = False,
) -> list[CaseResult]:
    """Run `entry(*args)` for every args list in `cases`; one result per case, in order.

    `tracked` expects the function to return `(output, {tracker: value})` with 1 to 3 trackers.
    Under `limits.policy` (the default) code that touches what `codepolicy` refuses runs no case:
    every case is `forbidden`, with the line. Once `budget` is spent, the cases not run yet are
    timeouts that say so. `reverse` runs the cases last to first (results still come back in
    order). `alone` runs each case in a process of its own, forked from one that never ran seed
    code: nothing an earlier case did can reach it (slower: about 2 ms a case; gold is run so).
    `count_steps` counts the lines of seed code each call executes (slower); `coverage` also
    records the arcs each call takes and its busiest line's count (branch coverage).
    """
    if limits.policy:
        problem = codepolicy.policy_problem(code)
        if problem:
            return [CaseResult(index=i, status="forbidden", error=str(problem), line=problem.line)
                    for i in range(len(cases))]
    results: dict[int, CaseResult] = {}
    pending = list(range(len(cases)))[::-1] if reverse else list(range(len(cases)))
    while pending and (budget is None or budget.left() > 0):
        child = _POOL_OF_CHILDREN.take(limits)
        request = (code, entry, pending, [cases[i] for i in pending], tracked, limits, count_steps, coverage, alone)
        if not _send(child, *request):
            _stop(child)
            child = _spawn(limits)
            _send(child, *request)
        pending, healthy = _collect(child, pending, results, limits, budget)
        if healthy:
            _POOL_OF_CHILDREN.give_back(child)
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
             budget: Budget | None) -> tuple[list[int], bool]:
    """Read this request's results; return the cases still to run, and whether the child may serve
    again (it answered every case). A child that fails is stopped here."""
    stream = child.process.stdout.fileno()
    grace = limits.case_seconds + 2.0  # the child kills a case half a second past its alarm
    deadline = time.monotonic() + grace + (5.0 if child.fresh else 0.0)  # start-up, on a busy machine
    child.fresh = False
    failure: tuple[Status, str] | None = None
    if child.group is not None:
        child.memory_kills = child.group.memory_kills()
    expected = iter(pending)
    due = next(expected)
    done = False
    while not done:
        if budget is not None and budget.left() <= 0:
            break
        remaining = deadline - time.monotonic()
        if budget is not None:
            remaining = min(remaining, budget.left())
        if remaining <= 0:
            failure = ("timeout", "the case ran past its time limit and the child did not stop")
            break
        ready, _, _ = select.select([stream], [], [], remaining)
        if not ready:
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
                if index != due:  # results come in case order; anything else is not the child's
                    raise ValueError(f"a result for case {index} where case {due} was due")
                results[index] = _result(index, message, child)
                deadline = time.monotonic() + grace
                due = next(expected, None)
                if due is None:
                    done = True
        except (ValueError, TypeError, KeyError):
            failure = ("crash", "the child wrote something that is not a result")
            break
    left = [i for i in pending if i not in results]
    if done and not child.buffer:
        return left, True
    tail = _stop(child)
    if not left or (budget is not None and budget.left() <= 0 and failure is None):
        return left, False
    status, message = failure or ("crash", "")
    if status == "crash":
        code = child.process.returncode
        killed_by = -code if code is not None and code < 0 else None
        if code is not None and code > 128 and isolation.detect().method == "bubblewrap":
            killed_by = code - 128  # bubblewrap passes a signal death on as 128 + the signal
        how = f"killed by signal {killed_by}" if killed_by else f"exit status {code}"
        if "MemoryError" in tail or child.memory_capped:
            status = "memory"
        message = f"the interpreter died ({how})" + (f": {tail.splitlines()[-1]}" if tail else "")
    results[left[0]] = CaseResult(index=left[0], status=status, error=message)
    return left[1:], False
