"""Hostile seed code, tried as an attacker would: each escape the sandbox once allowed, each a test
that fails if it works again. The code here imports `os` and the like, which the policy refuses
before it runs (`test_gold.py`); these tests switch the policy off to test the OS walls behind it. They need the walls (bubblewrap); where a machine lacks them the tests
say so and skip, and `test_without_bubblewrap_the_run_is_told` checks the warning such a run gets."""

import json
import logging
import os
import socket
import subprocess
import threading
import time
import uuid

import pytest

from ifforge.core.sandbox import isolation
from ifforge.core.sandbox.execution import Limits, run_cases

WALLS = isolation.detect()
needs_walls = pytest.mark.skipif(WALLS.method != "bubblewrap", reason="bubblewrap is not installed here")
needs_cgroup = pytest.mark.skipif(WALLS.cgroup is None, reason="no writable cgroup hierarchy here")
OS = Limits(policy=False)  # every seed here does what the policy refuses: these are tests of the walls behind it


def _one(code: str, args: list, **limits):
    [result] = run_cases(code, "f", [args], limits=Limits(**limits, policy=False))
    return result


@needs_walls
def test_secrets_of_the_parent_are_out_of_reach(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-canary-123")
    code = '''
import os
def f():
    found = []
    for pid in os.listdir("/proc"):
        for name in ("environ", "cmdline"):
            try:
                found.append(open(f"/proc/{pid}/{name}", "rb").read().decode("latin-1"))
            except OSError:
                pass
    found.append(os.environ.get("OPENAI_API_KEY", ""))
    return [str(os.getppid()), "|".join(found)]
'''
    result = _one(code, [])
    assert result.ok
    assert "sk-secret-canary-123" not in result.output[1]
    assert "pytest" not in result.output[1]  # no other process's command line either


@needs_walls
def test_the_system_is_read_only_and_private_files_are_invisible(tmp_path):
    private = tmp_path / "outputs" / "benchmark.jsonl"
    private.parent.mkdir()
    private.write_text("gold")
    code = '''
import os
def f(private, target, system_file):
    seen = []
    for path in ("/etc/passwd", private, os.path.expanduser("~/.bashrc"), "/root"):
        try:
            seen.append(os.path.isdir(path) and os.listdir(path) or open(path).read()[:20])
        except OSError as error:
            seen.append(type(error).__name__)
    for path in (target, system_file):
        try:
            with open(path, "w") as handle:
                handle.write("poison")
            seen.append("wrote " + path)
        except OSError as error:
            seen.append(type(error).__name__)
    return seen
'''
    target = tmp_path / "outputs" / "poisoned.txt"
    system_file = f"/usr/ifforge-poisoned-{uuid.uuid4().hex}.txt"  # unique: a stale file cannot fail the test
    try:
        result = _one(code, [str(private), str(target), system_file])
        assert result.ok, result.error
        assert "gold" not in json.dumps(result.output)
        assert not any(str(s).startswith("root:") for s in result.output)
        assert not any(str(s).startswith("wrote") for s in result.output), result.output
        assert not target.exists() and private.read_text() == "gold"
        assert not os.path.exists(system_file)
    finally:
        if os.path.exists(system_file):
            os.remove(system_file)


@needs_walls
def test_no_network_and_no_root():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(3)
    port = listener.getsockname()[1]
    accepted = []

    def accept():
        try:
            accepted.append(listener.accept())
        except OSError:
            pass

    thread = threading.Thread(target=accept)
    thread.start()
    code = f'''
import os, socket, subprocess
def f():
    try:
        socket.create_connection(("127.0.0.1", {port}), timeout=2)
        reached = "connected"
    except OSError as error:
        reached = type(error).__name__
    try:
        who = subprocess.run(["id", "-u"], capture_output=True, text=True).stdout.strip()
    except OSError as error:
        who = type(error).__name__
    return [reached, who, os.getuid()]
'''
    result = _one(code, [])
    thread.join()
    listener.close()
    assert result.ok, result.error
    assert result.output[0] != "connected" and not accepted
    assert result.output[2] != 0 and result.output[1] != "0"


@needs_walls
def test_daemons_that_leave_their_session_die_before_their_case_is_reported():
    marker = f"{time.time_ns() % 10**7 + 10**7}"  # a sleep length no other process uses
    code = f'''
import os
def f():
    for _ in range(12):
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv("/bin/sleep", ["sleep", "{marker}"])
            os._exit(0)
    return "started"
'''
    result = _one(code, [])
    assert result.ok
    # no wait: a case that left a process is reported only once that process is dead, however
    # slow the machine (a dead one waiting to be reaped has no command line, so pgrep misses it)
    alive = subprocess.run(["pgrep", "-f", f"sleep {marker}"], capture_output=True, text=True).stdout.split()
    assert not alive, f"daemons outlived their case: {alive}"


@needs_walls
def test_killing_or_stopping_the_parent_costs_only_that_case():
    code = '''
import os, signal
def f(how):
    if how == "kill":
        os.kill(os.getppid(), signal.SIGKILL)
    elif how == "stop":
        os.kill(os.getppid(), signal.SIGSTOP)
    elif how == "group":
        os.killpg(0, signal.SIGKILL)
    return how
'''
    # 4 s: the parent waits 2 s past a case's limit before it calls a silent child stopped; a shorter
    # limit left a busy CI machine too little room to report the killed child before that (CI, stop 47)
    results = run_cases(code, "f", [["kill"], ["stop"], ["group"], ["fine"]], limits=Limits(case_seconds=4, policy=False))
    assert results[-1].ok and results[-1].output == "fine"  # we are still here, and so is the run
    assert results[0].status == "crash" and "killed by signal 9" in results[0].error
    assert results[1].status == "timeout"  # a stopped sandbox is noticed, killed, and reported
    assert results[2].status == "crash"


@needs_walls
def test_forged_result_lines_are_refused_and_nan_is_never_gold():
    code = '''
import os
def f(x):
    if x == "forge":
        line = b'{"index": 1, "status": "ok", "output": NaN}\\n{"index": 2, "status": "ok", "output": "forged"}\\n'
        for fd in range(3, 30):
            try:
                os.write(fd, line)
            except OSError:
                pass
        os._exit(0)
    return x
'''
    results = run_cases(code, "f", [["forge"], ["one"], ["two"]], limits=OS)
    assert not results[0].ok
    assert [r.output for r in results[1:]] == ["one", "two"]  # computed again, not taken from the forger


@needs_cgroup
def test_memory_is_capped_for_all_descendants_together():
    code = '''
import os, time
def f():
    children = []
    for _ in range(4):
        pid = os.fork()
        if pid == 0:
            block = bytearray(200 * 1024 * 1024)
            for i in range(0, len(block), 4096):
                block[i] = 1
            time.sleep(1)
            os._exit(0)
        children.append(pid)
    return sum(1 for pid in children if os.waitpid(pid, 0)[1] == 0)
'''
    result = _one(code, [], memory_bytes=512 << 20, case_seconds=10)
    assert not (result.ok and result.output == 4), "four children of 200 MB lived under a 512 MB cap"


@needs_cgroup
def test_a_fork_bomb_meets_the_process_cap():
    code = '''
import os
def f():
    made = 0
    try:
        for _ in range(500):
            if os.fork() == 0:
                import time
                time.sleep(5)
                os._exit(0)
            made += 1
    except OSError:
        pass
    return made
'''
    result = _one(code, [], case_seconds=5)
    assert result.ok and result.output < isolation.MAX_PROCESSES


def test_without_bubblewrap_the_run_is_told(monkeypatch, caplog):
    monkeypatch.setattr(isolation.shutil, "which", lambda name: None)
    with caplog.at_level(logging.WARNING, logger="ifforge.sandbox"):
        degraded = isolation.detect.__wrapped__()
    assert degraded.method == "rlimits" and "no network" not in degraded.describe()["walls"]
    assert "bubblewrap" in caplog.text and "rlimits only" in caplog.text
    if WALLS.method == "bubblewrap":
        assert "no network" in WALLS.describe()["walls"]


@needs_walls
def test_nothing_a_case_writes_reaches_the_next_case_or_function():
    writer = '''
import os
def f(tag):
    found = sorted(os.listdir("/tmp")) + sorted(os.listdir(".."))
    for path in ("/tmp/left-" + tag, "../left-" + tag, "/left-" + tag, "/dev/shm/left-" + tag):
        try:
            open(path, "w").write(tag)
        except OSError:
            pass
    os.makedirs("locked/inner")
    os.chmod("locked", 0)
    return found
'''
    first = run_cases(writer, "f", [["a"], ["b"], ["c"]], limits=OS)
    second = run_cases(writer.replace("def f", "def g"), "g", [["d"]], limits=OS)
    assert all(r.ok for r in first + second), [r.error for r in first + second]
    listings = [r.output for r in first + second]
    assert all(listing == listings[0] for listing in listings), listings  # the same empty world every time
    assert not any("left-" in name for listing in listings for name in listing)
