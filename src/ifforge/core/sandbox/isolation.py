"""What walls the sandbox child runs behind, found on this machine once per process.

With bubblewrap (Debian's `bubblewrap`): new user, network, PID, IPC, UTS and mount namespaces, so
the child has no network, sees no other process (not its parent's environment in /proc either),
has a host name of its own and cannot read what /proc says of the host (memory, uptime, kernel),
runs as `nobody` without capabilities, sees the system read-only (only the directories programs
need: no /etc, no /home, no /root, no outputs or caches), writes only to a private tmpfs, and
dies with everything it started when its parent stops it. With a writable cgroup hierarchy (v1 or
v2, as root), a group per sandbox child caps the memory and the number of processes of all its descendants
together. Without bubblewrap the child runs with rlimits only, and a warning says so once; the
manifest of every run records which it had (`describe`). There, code from outside ifforge (a
user's seeds) runs only once the user has said it may (`require_walls`): it could read and write
the user's files and reach the network.
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from ifforge.core.orphans import pid_alive
from ifforge.core.untrusted import InputError

log = logging.getLogger("ifforge.sandbox")

SYSTEM_DIRS = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin")
# what /proc tells of the host and its clock (memory, uptime, kernel, CPUs, load, boot): unreadable inside
HOST_FILES = ("/proc/meminfo", "/proc/uptime", "/proc/version", "/proc/cpuinfo", "/proc/loadavg", "/proc/stat",
              "/proc/sys/kernel/osrelease", "/proc/sys/kernel/version", "/proc/sys/kernel/random/boot_id")
HOST_NAME = "sandbox"  # the host name inside: the same on every machine
CGROUP_ROOT = Path("/sys/fs/cgroup")
MAX_PROCESSES = 32  # per sandbox child, all descendants together
UNWALLED_SETTING = "allow_unwalled_seeds"  # the setting that lets outside code run without bubblewrap


@dataclass(frozen=True)
class Isolation:
    method: str  # "bubblewrap" or "rlimits"
    cgroup: str | None  # "v1", "v2" or None
    bwrap: str | None = None

    def describe(self) -> dict:
        walls = ["a fresh process per case", "rlimits per case (CPU, address space, file size, no core)",
                 "scrubbed environment", "own session"]
        if self.method == "bubblewrap":
            walls += ["no network", "own PID namespace", "read-only system, no /etc /home /root",
                      "only a private /tmp writable, emptied after every case", "nobody, no capabilities",
                      "everything a case started killed when it ends", "ends when its parent does",
                      f"host name {HOST_NAME!r}; /proc's memory, uptime, kernel and boot files unreadable"]
        if self.cgroup:
            walls.append(f"cgroup {self.cgroup}: total memory and process cap")
        return {"method": self.method, "cgroup": self.cgroup, "walls": walls}


def _python_dirs() -> list[str]:
    """Where the child's interpreter and its standard library live (it runs with -S: no site)."""
    dirs = {os.path.realpath(sys.base_prefix), os.path.dirname(os.path.realpath(sys.executable))}
    return sorted(d for d in dirs if not any(d == s or d.startswith(s + "/") for s in SYSTEM_DIRS))


def bwrap_prefix(bwrap: str) -> list[str]:
    # no --die-with-parent: it fires when the *thread* that started bubblewrap ends, and warm children
    # outlive threads; a child ends when its request pipe closes instead, which our death also does
    command = [bwrap, "--unshare-all", "--new-session", "--uid", "65534", "--gid", "65534", "--hostname", HOST_NAME,
               "--cap-drop", "ALL", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--chdir", "/tmp",
               "--clearenv"]
    for path in HOST_FILES:
        if os.path.exists(path):  # the same kernel inside: what exists here exists there
            command += ["--ro-bind", "/dev/null", path]
    for folder in [*SYSTEM_DIRS, *_python_dirs()]:
        if os.path.lexists(folder):
            if os.path.islink(folder):
                command += ["--symlink", os.readlink(folder), folder]
            else:
                command += ["--ro-bind", folder, folder]
    # nothing writable but the private /tmp, which the child empties after every case
    return command + ["--remount-ro", "/dev", "--remount-ro", "/"]


def _cgroup_version() -> str | None:
    if os.geteuid() != 0:
        return None
    if (CGROUP_ROOT / "cgroup.controllers").exists():
        controllers = (CGROUP_ROOT / "cgroup.controllers").read_text().split()
        return "v2" if {"memory", "pids"} <= set(controllers) and os.access(CGROUP_ROOT, os.W_OK) else None
    if all(os.access(CGROUP_ROOT / c, os.W_OK) for c in ("memory", "pids")):
        return "v1"
    return None


def remove_stale_groups(version: str) -> int:
    """Groups left by a run that was killed (SIGKILL skips our clean-up): emptied and removed."""
    removed = 0
    parents = [CGROUP_ROOT] if version == "v2" else [CGROUP_ROOT / "memory", CGROUP_ROOT / "pids"]
    for parent in parents:
        for path in parent.glob("ifforge-*-*"):
            owner = path.name.split("-")[1]
            if owner.isdigit() and not pid_alive(int(owner)):
                stale = CgroupGroup(version, [path])
                stale.remove()
                removed += not path.exists()
    return removed


@functools.lru_cache(maxsize=1)
def detect() -> Isolation:
    cgroup = None
    try:
        cgroup = _cgroup_version()
        if cgroup:
            remove_stale_groups(cgroup)
        if cgroup:  # prove it: make and remove a group
            group = CgroupGroup.make(cgroup, 1 << 26)
            group.remove()
    except OSError:
        cgroup = None
    bwrap = shutil.which("bwrap")
    if bwrap:
        trial = subprocess.run([*bwrap_prefix(bwrap), os.path.realpath(sys.executable), "-S", "-c", "pass"],
                               capture_output=True, text=True, timeout=60)
        if trial.returncode != 0:
            log.warning("SANDBOX: bubblewrap is installed but cannot make namespaces here (%s); seed code runs "
                        "with rlimits only: it can read files, reach the network and see other processes",
                        trial.stderr.strip()[:200])
            bwrap = None
    else:
        log.warning("SANDBOX: bubblewrap (Debian package `bubblewrap`) is not installed; seed code runs with "
                    "rlimits only: it can read files, reach the network and see other processes")
    return Isolation(method="bubblewrap" if bwrap else "rlimits", cgroup=cgroup, bwrap=bwrap)


def require_walls(outside: str | None, allowed: bool) -> None:
    """Code from outside ifforge (`outside` names it; None when there is none) runs only behind
    bubblewrap's walls, or where the user set `allow_unwalled_seeds`: an `InputError` otherwise."""
    if outside and not allowed and detect().method != "bubblewrap":
        raise InputError(f"{outside} would run without the sandbox's walls (bubblewrap is not installed here, or "
                         f"cannot make namespaces), so that code could read and write your files and reach the "
                         f"network: install bubblewrap, or set {UNWALLED_SETTING} = true (--set "
                         f"{UNWALLED_SETTING}=true) if you trust it")


@dataclass
class CgroupGroup:
    """One sandbox child's group: its memory and process caps cover every descendant together."""

    version: str
    paths: list[Path]

    @classmethod
    def make(cls, version: str, memory_bytes: int) -> "CgroupGroup":
        name = f"ifforge-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        if version == "v2":
            path = CGROUP_ROOT / name
            path.mkdir()
            group = cls(version, [path])
            (path / "memory.max").write_text(str(memory_bytes))
            (path / "memory.swap.max").write_text("0") if (path / "memory.swap.max").exists() else None
            (path / "pids.max").write_text(str(MAX_PROCESSES))
            return group
        memory, pids = CGROUP_ROOT / "memory" / name, CGROUP_ROOT / "pids" / name
        memory.mkdir()
        group = cls(version, [memory])
        pids.mkdir()
        group.paths.append(pids)
        (memory / "memory.limit_in_bytes").write_text(str(memory_bytes))
        (pids / "pids.max").write_text(str(MAX_PROCESSES))
        return group

    def set_memory(self, memory_bytes: int) -> None:
        name = "memory.max" if self.version == "v2" else "memory.limit_in_bytes"
        (self.paths[0] / name).write_text(str(memory_bytes))

    def enter(self) -> None:
        """Called in the child before exec: it and all it starts belong to the group."""
        for path in self.paths:
            (path / "cgroup.procs").write_text(str(os.getpid()))

    def memory_kills(self) -> int:
        """How often the memory cap was hit so far (compare two readings to see a new hit)."""
        path = self.paths[0]
        try:
            if self.version == "v2":
                events = dict(line.split() for line in (path / "memory.events").read_text().splitlines())
                return int(events.get("oom_kill", 0)) + int(events.get("max", 0))
            return int((path / "memory.failcnt").read_text())
        except (OSError, ValueError):
            return 0

    def kill_all(self) -> None:
        for path in self.paths:
            try:
                for pid in (path / "cgroup.procs").read_text().split():
                    try:
                        os.kill(int(pid), 9)
                    except ProcessLookupError:
                        pass
            except OSError:
                pass

    def remove(self) -> None:
        self.kill_all()
        for path in self.paths:
            for _ in range(50):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # processes still exiting
                    time.sleep(0.02)
