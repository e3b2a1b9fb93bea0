"""Time the offline generate flow on all of the project's seeds: seconds per stage and per item.

Runs the flow three times into a fresh temporary outputs root: cold (empty caches), unchanged
(nothing to do), and after touching one seed (only its items recomputed). Prefect runs in its
ephemeral mode, so the first run also pays the temporary server's start-up.
Usage: python benchmarks/flow_timing.py [--seeds DIR]
"""

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from ifforge.families.logicif.family import DEFAULT_SEEDS
from ifforge.flows.generate import generate


def report(label: str, wall: float, folder: str) -> None:
    manifest = json.loads((Path(folder) / "manifest.json").read_text())
    items = manifest["stages"]["load"]["out"] or 1
    print(f"\n{label}: {wall:.2f} s wall for {items} seeds ({wall / items:.3f} s per seed), "
          f"{manifest['export']['tasks']} tasks, {manifest['export']['cases']} cases, version {manifest['version']}")
    print(f"  {'stage':<11} {'in':>4} {'computed':>8} {'seconds':>8} {'ms/item':>8}")
    for stage, seconds in manifest["seconds"].items():
        if stage == "total":
            continue
        counts = manifest["stages"].get(stage, {})
        n = counts.get("in", 0) or 1
        print(f"  {stage:<11} {counts.get('in', ''):>4} {counts.get('computed', ''):>8} {seconds:>8.3f} "
              f"{1000 * seconds / n:>8.1f}")
    print(f"  flow body total {manifest['seconds']['total']:.2f} s; the rest of the wall time is Prefect start-up")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=Path, default=DEFAULT_SEEDS)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ifforge-bench-"))
    seeds = work / "seeds"
    shutil.copytree(args.seeds, seeds)
    out = work / "outputs"
    try:
        for label in ("cold run", "unchanged re-run", "one seed changed"):
            if label == "one seed changed":
                first = sorted(seeds.glob("*.py"))[0]
                first.write_text(first.read_text() + "\n# a comment changes the seed's content\n")
            started = time.perf_counter()
            folder = generate(seeds=str(seeds), out=str(out), options={"progress": False})
            wall = time.perf_counter() - started
            if label == "unchanged re-run":
                print(f"\n{label}: {wall:.2f} s wall, returned the existing {Path(folder).name} (nothing recomputed)")
            else:
                report(label, wall, folder)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
