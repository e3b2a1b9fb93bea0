"""The offline generate flow at scale: N seeds made from the project's 42, wall, CPU and peak memory.

The seeds are the project's own, renamed (every top-level function gets a suffix, so each copy is
a new item with its own cache keys) in a temporary folder that is removed afterwards; dedup is off
(it would rightly drop the copies). `ifforge generate` runs as a user runs it, in a process of its
own, while this script samples the resident memory of that process and all its children (sandbox
children, workers, Prefect's temporary server) once a second (proportional set size, so pages shared after a fork count once). Prints the load average with every
figure, the CPU of each kind of process (as last sampled), and the seconds per stage and per item from
the manifest.

Usage: python benchmarks/flow_scale.py --seeds-count 420 [--seeds-count 2000 ...] [--set KEY=VALUE ...]
       [--progress-every 60]  (a line a minute: items finished, the run's memory, CPU so far)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

PROJECT_SEEDS = Path(__file__).resolve().parents[1] / "seeds" / "logicif"


def make_seeds(count: int, folder: Path, source: Path = PROJECT_SEEDS) -> None:
    """`count` seeds: the project's, round-robin, each copy's top-level functions renamed `name_cK`."""
    seeds = sorted(source.glob("*.py"))
    folder.mkdir(parents=True, exist_ok=True)
    for number in range(count):
        path = seeds[number % len(seeds)]
        copy = number // len(seeds)
        text = path.read_text()
        for name in re.findall(r"^def (\w+)", text, flags=re.M):
            text = re.sub(rf"\b{name}\b", f"{name}_c{copy}", text)
        (folder / f"{path.stem}_c{copy}.py").write_text(text)


def load() -> str:
    return "/".join(f"{value:.1f}" for value in os.getloadavg())


def _pss(process: psutil.Process) -> int:
    """Proportional set size: shared pages split between their sharers. RSS would count a forked
    child (the sandbox forks before it execs) as a second copy of the whole run."""
    try:
        with open(f"/proc/{process.pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return process.memory_info().rss


_KINDS: dict[tuple[int, float], str] = {}  # (pid, start time) -> kind: a sandbox child's command line is long


def _kind(process: psutil.Process, root: psutil.Process) -> str:
    key = (process.pid, process.create_time())
    if key not in _KINDS:
        _KINDS[key] = _read_kind(process, root)
    return _KINDS[key]


def _read_kind(process: psutil.Process, root: psutil.Process) -> str:
    if process.pid == root.pid:
        return "the run"
    line = " ".join(process.cmdline())
    for needle, kind in (("sandbox/_child.py", "sandbox"), ("bwrap", "sandbox"), ("uvicorn", "Prefect server"),
                         ("prefect", "Prefect server"), ("ifforge.core.workers", "workers"),
                         ("embedding_process", "embedding model")):
        if needle in line:
            return kind
    return process.name()


def _breakdown(kinds: dict[str, list[int]]) -> str:
    return ", ".join(f"{kind} {sum(sizes) / 2**30:.2f} GB ({len(sizes)})"
                     for kind, sizes in sorted(kinds.items(), key=lambda pair: -sum(pair[1])))


class TreeMemory:
    """Peak resident memory of a process and its descendants, sampled (once a second: twice a
    second, with every process's command line read each time, the sampler took 8% of a core)."""

    def __init__(self, pid: int, every: float = 1.0):
        self.root, self.every, self.peak, self.done = psutil.Process(pid), every, 0, threading.Event()
        self.at_peak: dict[str, list[int]] = {}  # what held the memory at the peak: kind -> RSS of each process
        self.now: dict[str, list[int]] = {}  # the last sample's, for the progress lines
        self.cpu: dict[tuple[int, float], tuple[str, float, float]] = {}  # process -> kind, own CPU, reaped children's
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _sample(self) -> None:
        while not self.done.wait(self.every):
            total, kinds = 0, {}
            try:
                for process in [self.root, *self.root.children(recursive=True)]:
                    try:
                        rss = _pss(process)
                        kind = _kind(process, self.root)
                        kinds.setdefault(kind, []).append(rss)
                        times = process.cpu_times()
                        self.cpu[(process.pid, process.create_time())] = (
                            kind, times.user + times.system, times.children_user + times.children_system)
                        total += rss
                    except psutil.Error:
                        pass
            except psutil.Error:
                return
            self.now = kinds
            if total > self.peak:
                self.peak, self.at_peak = total, kinds

    def cpu_by_kind(self) -> str:
        """CPU seconds each kind of process used (as last sampled), and what the processes that ended
        between two samples used, counted where their parent reaped them."""
        totals: dict[str, float] = {}
        for kind, own, reaped in self.cpu.values():
            totals[kind] = totals.get(kind, 0.0) + own
            totals[f"ended children of {kind}"] = totals.get(f"ended children of {kind}", 0.0) + reaped
        return ", ".join(f"{kind} {seconds:.0f} s" for kind, seconds in sorted(totals.items(), key=lambda p: -p[1])
                         if seconds >= 0.5)

    def stop(self) -> int:
        self.done.set()
        self.thread.join()
        return self.peak


def _tree_cpu(root: psutil.Process) -> float:
    """CPU seconds of the process tree so far, the children it has already reaped included."""
    total = 0.0
    for process in [root, *root.children(recursive=True)]:
        try:
            times = process.cpu_times()
            total += times.user + times.system + times.children_user + times.children_system
        except psutil.Error:
            pass
    return total


def _progress(memory: TreeMemory, items: Path, started: float, every: float) -> None:
    """A line every `every` seconds: items through the last stage, the run's memory, the tree's CPU,
    so a long run shows whether memory stays flat and what a finished item costs while it goes."""
    while not memory.done.wait(every):
        try:
            cpu = _tree_cpu(memory.root)
        except psutil.Error:
            return
        finished = sum(1 for _ in items.glob("*/verify.json")) if items.is_dir() else 0
        run = sum(memory.now.get("the run", [0])) / 2**30
        print(f"  {time.perf_counter() - started:7.0f} s: {finished} items finished, the run {run:.2f} GB, "
              f"tree {sum(map(sum, memory.now.values())) / 2**30:.2f} GB, {cpu:.0f} s CPU, load {load()}", flush=True)


def _first_item(items: Path, started: float, done: threading.Event, found: list) -> None:
    """When the first item came through the last stage: what the run does before it is start-up."""
    while not done.wait(1.0):
        if items.is_dir() and next(items.glob("*/verify.json"), None) is not None:
            found.append(time.perf_counter() - started)
            return


def run(count: int, work: Path, extra: list[str], every: float = 0) -> None:
    seeds, out = work / f"seeds{count}", work / f"out{count}"
    make_seeds(count, seeds)
    command = [sys.executable, "-m", "ifforge.cli", "generate", "--seeds", str(seeds), "--out", str(out),
               "--no-progress", "--set", "dedup=false", *(item for pair in extra for item in ("--set", pair))]
    print(f"\n{count} seeds, load before {load()}", flush=True)
    started, cpu_before = time.perf_counter(), os.times()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    memory = TreeMemory(process.pid)
    first: list[float] = []
    threading.Thread(target=_first_item, daemon=True,
                     args=(out / "logicif" / "v001" / "items", started, memory.done, first)).start()
    if every:
        threading.Thread(target=_progress, daemon=True,
                         args=(memory, out / "logicif" / "v001" / "items", started, every)).start()
    stdout, stderr = process.communicate()
    wall, peak = time.perf_counter() - started, memory.stop()
    cpu = sum(os.times()[2:4]) - sum(cpu_before[2:4])
    if process.returncode != 0:
        print(stderr[-3000:])
        raise SystemExit(f"generate failed with {process.returncode}")
    manifest = json.loads((Path(stdout.strip().splitlines()[-1]) / "manifest.json").read_text())
    print(f"{count} seeds: {wall:.1f} s wall ({wall / count * 1000:.0f} ms per seed), {cpu:.1f} s CPU of the run and "
          f"its children, peak memory {peak / 2**30:.2f} GB (PSS of the process tree), load after {load()}; "
          f"{manifest['export']['tasks']} tasks, {manifest['export']['cases']} cases; the first item finished "
          + (f"{first[0]:.0f} s after the start" if first else "after the last sample"))
    print(f"  at the peak (processes): {_breakdown(memory.at_peak)}")
    print(f"  CPU by process (last sample; 'ended children' is what parents reaped, which may also be counted under the child's kind): {memory.cpu_by_kind()}")
    busy = manifest.get("busy_seconds", {})
    print(f"  {'stage':<11} {'in':>6} {'computed':>8} {'seconds':>8} {'ms/item':>8}   (per-item stages: seconds "
          f"their shards ran, summed; shards overlap)")
    for stage, counts in manifest["stages"].items():
        seconds = busy.get(stage, manifest["seconds"].get(stage, 0.0))
        n = counts.get("in", 0) or 1
        print(f"  {stage:<11} {counts.get('in', ''):>6} {counts.get('computed', ''):>8} {seconds:>8.1f} "
              f"{1000 * seconds / n:>8.1f}")
    print(f"  flow body {manifest['seconds']['total']:.1f} s; the rest of the wall time is start-up (imports, "
          f"Prefect's temporary server)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds-count", type=int, action="append", required=True)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="passed to generate")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (its path is printed)")
    parser.add_argument("--progress-every", type=float, default=0, metavar="SECONDS",
                        help="print items finished, the run's memory and the CPU so far this often")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ifforge-scale-"))
    try:
        for count in args.seeds_count:
            run(count, work, args.set, args.progress_every)
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
