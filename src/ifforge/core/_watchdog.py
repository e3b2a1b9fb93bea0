"""The watchdog `orphans.guard` starts beside a server we start: it polls, and when its own parent
(us) is gone it stops the server's process (group): TERM, then KILL after a grace period. It also
exits when the server does.

Run as `python -P -S _watchdog.py PARENT TARGET GROUP` (no site-packages, so no ifforge to import):
standard library only. `orphans` imports `pid_alive` from here, so the test is written once.
"""

from __future__ import annotations

import os
import signal
import sys
import time


def pid_alive(pid: int) -> bool:
    """Whether process `pid` exists (one we may not signal exists too)."""
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def watch(parent: int, target: int, group: bool) -> None:
    """Wait while `parent` is ours and `target` lives; if the parent went first, stop the target."""
    def send(sig: int) -> None:
        try:
            (os.killpg if group else os.kill)(target, sig)
        except OSError:
            pass

    while os.getppid() == parent and pid_alive(target):
        time.sleep(0.5)
    if pid_alive(target) and os.getppid() != parent:
        send(signal.SIGTERM)
        deadline = time.monotonic() + 10
        while pid_alive(target) and time.monotonic() < deadline:
            time.sleep(0.2)
        send(signal.SIGKILL)


if __name__ == "__main__":
    watch(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1")
