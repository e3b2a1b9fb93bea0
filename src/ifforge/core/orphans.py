"""Servers we start must not outlive us, even when we are killed with SIGKILL (no handler runs then).

`guard(pid)` starts a small watchdog beside the server (`_watchdog.py`), which stops the server
once we are gone. Used for Prefect's temporary server and for our child servers.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ifforge.core._watchdog import pid_alive  # noqa: F401 - the test lives with the watchdog that needs it

WATCHDOG = Path(__file__).with_name("_watchdog.py")


def guard(pid: int, *, group: bool = False) -> subprocess.Popen:
    """Stop process `pid` (its process group when `group`) once this process is gone."""
    return subprocess.Popen([sys.executable, "-P", "-S", str(WATCHDOG), str(os.getpid()), str(pid),
                             "1" if group else "0"],
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
