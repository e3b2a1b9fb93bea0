"""The same offline benchmark on an existing Dask cluster of 2 workers and as one process: the speed-up.

Starts a local Dask cluster (2 worker processes, 1 thread each) as the "existing" cluster, makes N
seeds as `flow_scale.py` does (the project's 42 renamed; dedup off), and runs `ifforge generate`
three times into fresh outputs roots: on Prefect's thread runner (one process), then twice with
`task_runner=dask` and `dask_address` naming the cluster (its workers new, then as a long-lived
cluster's are: they imported the stages before). Checks all wrote the same benchmark and prints
the walls, the CPU (user+sys) of each run's processes (the cluster's apart: the workers' own and
their children's), the cluster's extra CPU over one process, the speed-up and the load average:
on 2 cores a speed-up needs CPU the one process leaves idle.

Usage: python benchmarks/dask_speedup.py [--seeds-count 126]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flow_scale import load, make_seeds  # noqa: E402


def cluster_cpu() -> dict[str, float]:
    """User+sys seconds of the live processes under this one (the cluster's workers), apart: their
    own, and their children's (the sandbox's and any pool or model process a worker started)."""
    own = children = 0.0
    for worker in psutil.Process().children():
        try:
            times = worker.cpu_times()
            descendants = worker.children(recursive=True)
        except psutil.Error:
            continue
        own += times.user + times.system
        children += times.children_user + times.children_system
        for process in descendants:
            try:
                times = process.cpu_times()
            except psutil.Error:
                continue
            children += times.user + times.system
    return {"own": own, "children": children}


def reaped_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def generate(seeds: Path, out: Path, extra: list[str]) -> tuple[float, Path, float, dict[str, float]]:
    """Wall seconds, the version, the CPU of the `ifforge generate` process tree and of the cluster."""
    started, cli, cluster = time.perf_counter(), reaped_cpu(), cluster_cpu()
    done = subprocess.run([sys.executable, "-m", "ifforge.cli", "generate", "--seeds", str(seeds), "--out", str(out),
                           "--no-progress", "--set", "dedup=false", *extra], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    after = cluster_cpu()
    return (time.perf_counter() - started, Path(done.stdout.strip().splitlines()[-1]), reaped_cpu() - cli,
            {part: after[part] - cluster[part] for part in after})


def print_difference(first: Path, second: Path) -> None:
    """Which tasks only one run kept, and why the other dropped them (its dropped.jsonl)."""
    import json

    def tasks(version: Path) -> set[str]:
        return {json.loads(line)["task_id"] for line in (version / "benchmark.jsonl").open()}

    def drops(version: Path) -> dict[str, str]:
        path = version / "dropped.jsonl"
        rows = [json.loads(line) for line in path.open()] if path.exists() else []
        return {row.get("task_id", "?"): f"{row.get('stage')}: {str(row.get('detail') or row.get('reason'))[:120]}"
                for row in rows}

    for name, mine, other in (("threads", first, second), ("dask", second, first)):
        only = sorted(tasks(mine) - tasks(other))
        reasons = drops(other)
        print(f"only in the {name} run: {len(only)} tasks", *(f"  {task}: {reasons.get(task, '?')}" for task in only[:10]),
              sep="\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds-count", type=int, default=126)
    args = parser.parse_args()
    from distributed import LocalCluster

    work = Path(tempfile.mkdtemp(prefix="ifforge-dask-"))
    try:
        make_seeds(args.seeds_count, work / "seeds")
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            print(f"{args.seeds_count} seeds; Dask cluster {cluster.scheduler_address} (2 workers x 1 thread); "
                  f"{os.cpu_count()} cores", flush=True)
            before = load()
            alone, first, cpu, idle = generate(work / "seeds", work / "threads", [])
            print(f"one process (threads): {alone:6.1f} s wall, CPU {cpu:.1f} s (the cluster, idle: "
                  f"{sum(idle.values()):.1f} s); load {before} -> {load()}", flush=True)
            dask = ["--set", "task_runner=dask", "--set", f"dask_address={cluster.scheduler_address}"]
            for label, out in (("Dask, 2 new workers", "dask"), ("Dask, the same workers again", "dask-again")):
                before = load()
                spread, second, flow_cpu, workers = generate(work / "seeds", work / out, dask)
                total = flow_cpu + sum(workers.values())
                print(f"{label + ':':<29} {spread:6.1f} s wall, CPU {flow_cpu:.1f} s the flow's process + "
                      f"{workers['own']:.1f} s the workers + {workers['children']:.1f} s their children = {total:.1f} "
                      f"s, {total / cpu - 1:+.1%} on one process; load {before} -> {load()}", flush=True)
                if out == "dask":
                    spread_first, first_dask = spread, second
        same = all((first / "benchmark.jsonl").read_bytes() == (version / "benchmark.jsonl").read_bytes()
                   for version in (first_dask, second))
        print(f"speed-up {alone / spread_first:.2f}x (again: {alone / spread:.2f}x); the same benchmark.jsonl: {same}")
        if not same:
            print_difference(first, first_dask)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
