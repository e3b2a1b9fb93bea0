"""Servers we start must not outlive us, even when we are killed with SIGKILL (no handler runs then).

`guard(pid)` starts a small watchdog beside the server: it polls, and when its own parent (us) is
gone it stops the server's process group (TERM, then KILL after a grace period) and exits. It also
exits when the server does. Used for Prefect's temporary server and for our child servers.
"""

from __future__ import annotations

import os
import subprocess
import sys

# runs as `python -S -c` (no site-packages, so no ifforge to import): its own `alive`, like `pid_alive`
WATCHDOG = r"""
import os, signal, sys, time
parent, target, group = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"

def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True

def send(sig):
    try:
        (os.killpg if group else os.kill)(target, sig)
    except OSError:
        pass

while os.getppid() == parent and alive(target):
    time.sleep(0.5)
if alive(target) and os.getppid() != parent:
    send(signal.SIGTERM)
    deadline = time.monotonic() + 10
    while alive(target) and time.monotonic() < deadline:
        time.sleep(0.2)
    send(signal.SIGKILL)
"""


def pid_alive(pid: int) -> bool:
    """Whether process `pid` exists (one we may not signal exists too)."""
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def guard(pid: int, *, group: bool = False) -> subprocess.Popen:
    """Stop process `pid` (its process group when `group`) once this process is gone."""
    return subprocess.Popen([sys.executable, "-S", "-c", WATCHDOG, str(os.getpid()), str(pid), "1" if group else "0"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            close_fds=True)


def guard_prefect_temporary_server() -> None:
    """Prefect starts its temporary server with a plain Popen and stops it at exit, which SIGKILL
    skips: wrap its `start` (prefect 3.8) so every temporary server gets a watchdog."""
    # lazy on purpose: Prefect's server (heavy), only when one starts
    from prefect.server.api import server as prefect_server

    cls = prefect_server.SubprocessASGIServer
    if getattr(cls.start, "_ifforge_guarded", False):
        return
    original = cls.start

    def start(self, *args, **kwargs):
        had = self.server_process
        original(self, *args, **kwargs)
        if self.server_process is not None and self.server_process is not had:
            guard(self.server_process.pid)

    start._ifforge_guarded = True
    start.__wrapped__ = original
    cls.start = start
