"""`ifforge generate` on the project's 42 seeds as a user runs it: a fresh process each time.

Four runs: cold with an empty PREFECT_HOME (Prefect creates its database; ifforge's cache of code
summaries is empty too, as after an install), cold again into a new outputs root with that
PREFECT_HOME now warm, an unchanged re-run with no Prefect server up (the quick path: Prefect is
not started), and, with `--server`, an unchanged re-run reported to an `ifforge server` as a flow
run. Prints wall and CPU seconds with the load average of each run.

Usage: python benchmarks/generate_startup.py [--server]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def load() -> str:
    return "/".join(f"{value:.1f}" for value in os.getloadavg())


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def generate(label: str, out: Path, env: dict[str, str]) -> None:
    before, started, cpu_before = load(), time.perf_counter(), cpu()
    done = subprocess.run([sys.executable, "-m", "ifforge.cli", "generate", "--out", str(out), "--no-progress"],
                          env=env, capture_output=True, text=True)
    wall, used = time.perf_counter() - started, cpu() - cpu_before
    if done.returncode != 0:
        raise SystemExit(f"{label}: generate failed\n{done.stderr[-3000:]}")
    manifest = json.loads((Path(done.stdout.strip().splitlines()[-1]) / "manifest.json").read_text())
    seconds = manifest["seconds"]
    inside = (f"flow body {seconds['total']:.1f} s (dedup {seconds.get('dedup', 0):.1f}, stages "
              f"{seconds.get('verify', 0):.1f}, export {seconds.get('export', 0):.1f})"
              if "unchanged" not in label else "nothing computed")
    print(f"{label:<32} {wall:5.1f} s wall {used:5.1f} s CPU, load {before} -> {load()}; {inside}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", action="store_true", help="also an unchanged re-run reported to an ifforge server")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ifforge-startup-"))
    env = {**os.environ, "PREFECT_HOME": str(work / "prefect-home"), "IFFORGE_NO_SERVER_PROBE": "1",
           "IFFORGE_CACHE_DIR": str(work / "ifforge-cache")}  # the first run also reads every stage module
    env.pop("PREFECT_API_URL", None)
    try:
        generate("cold, empty PREFECT_HOME", work / "out1", env)
        generate("cold, warm PREFECT_HOME", work / "out2", env)
        generate("unchanged, no server", work / "out2", env)
        generate("unchanged, no server (again)", work / "out2", env)
        if args.server:
            from ifforge.core.prefect.server import PrefectServer

            port = 4300 + os.getpid() % 500
            with PrefectServer(port, home=work / "prefect-home"):
                generate("unchanged, reported to a server", work / "out2", {**env, "PREFECT_API_URL": f"http://127.0.0.1:{port}/api"})
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
