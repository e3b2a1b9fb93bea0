"""One `generate` at a time writes a benchmark folder.

Two runs on one `--out` and benchmark chose the same version and wrote into it: the first to
finish removed the kept items (`.kept/`) the other was still reading, which ended in a
FileNotFoundError traceback. A run now holds an exclusive `flock` on `<benchmark>/.lock` while
it writes, and a second run stops at once with one line naming the first one's pid. The kernel
lets go of the lock when the holder ends, however it ends (kill -9 too), so a lock is never
stale. It is taken again by the same process without waiting (the command takes it before
Prefect starts, the flow inside it again).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ifforge.core.untrusted import InputError

LOCK_FILE = ".lock"
_held: dict[str, int] = {}  # lock file (real path) -> how many holders in this process


class Busy(InputError):
    """Another process is writing the same benchmark folder."""


@contextmanager
def writing(root: Path) -> Iterator[None]:
    """Hold `root`'s lock for the block; `Busy` if another process holds it."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    path = os.path.realpath(root / LOCK_FILE)
    if path in _held:
        _held[path] += 1
        try:
            yield
        finally:
            _held[path] -= 1
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        os.close(fd)
        who = f"another generate (pid {holder})" if holder.isdigit() else "another generate"
        raise Busy(f"{root}: {who} is writing this benchmark; wait for it to end, or give another --out or "
                   "--benchmark") from None
    try:
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        except OSError:  # a full disk: the lock holds all the same, and the run's first write will say so
            pass
        _held[path] = 1
        yield
    finally:
        _held.pop(path, None)
        os.close(fd)  # lets go of the lock
