"""The same offline benchmark on an existing Dask cluster of 2 workers and as one process: the speed-up.

Starts a local Dask cluster (2 worker processes, 1 thread each) as the "existing" cluster, makes N
seeds as `flow_scale.py` does (the project's 42 renamed; dedup off), and runs `ifforge generate`
twice into fresh outputs roots: on Prefect's thread runner (one process), then with
`task_runner=dask` and `dask_address` naming the cluster. Checks both wrote the same benchmark
and prints the walls, the speed-up and the load average.

Usage: python benchmarks/dask_speedup.py [--seeds-count 126]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flow_scale import load, make_seeds  # noqa: E402


def generate(seeds: Path, out: Path, extra: list[str]) -> tuple[float, Path]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "ifforge.cli", "generate", "--seeds", str(seeds), "--out", str(out),
                           "--no-progress", "--set", "dedup=false", *extra], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    return time.perf_counter() - started, Path(done.stdout.strip().splitlines()[-1])


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
            alone, first = generate(work / "seeds", work / "threads", [])
            print(f"one process (threads): {alone:6.1f} s wall, load {before} -> {load()}", flush=True)
            before = load()
            spread, second = generate(work / "seeds", work / "dask",
                                      ["--set", "task_runner=dask", "--set", f"dask_address={cluster.scheduler_address}"])
            print(f"Dask, 2 workers:       {spread:6.1f} s wall, load {before} -> {load()}", flush=True)
        same = (first / "benchmark.jsonl").read_bytes() == (second / "benchmark.jsonl").read_bytes()
        print(f"speed-up {alone / spread:.2f}x; the same benchmark.jsonl: {same}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
