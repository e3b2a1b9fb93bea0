"""What the coverage-guided input search costs: the inputs stage's wall on the held-out set, today's
code beside the code before the search (a git worktree of `BEFORE`, the commit before `deepen` came,
found with `git log -S deepen`), and the 42 shipped seeds' cold run (`ifforge generate` into an
empty folder with an empty PREFECT_HOME). Also prints the search's bound per seed.

Each side runs in a child process of its own (its own `src` on PYTHONPATH) on the same held-out
functions (`inputs_depth.py`'s rule, the PyPI package `algorithms` 1.0.1 at `--held-out`), one
after the other, `--repeat` times alternating, so that a change in the machine's load hits both.
Usage: python benchmarks/inputs_cost.py [--held-out DIR] [--repeat N] [--skip-cold]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "3464e58^"  # the commit before the search (`git log -S deepen` names 3464e58 as the one adding it)
CHILD = """
import json, sys, time
from ifforge.families.logicif.configs import InputsConfig, from_settings
from ifforge.families.logicif.records import SeedFunction
from ifforge.families.logicif.settings import LogicIFSettings
from ifforge.families.logicif.stages import inputs
config = from_settings(InputsConfig, LogicIFSettings())
tasks = json.load(open(sys.argv[1]))
wall, kept = 0.0, 0
for task_id, source, entry in tasks:
    seed = SeedFunction(task_id=task_id, source=source, entry=entry, inputs=[], origin="bench")
    start = time.perf_counter()
    outcome = inputs.generate(seed, config)
    wall += time.perf_counter() - start
    kept += outcome.kept is not None
print(json.dumps({"wall": wall, "kept": kept, "tasks": len(tasks)}))
"""


def heldout(folder: Path) -> list[tuple[str, str, str]]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import inputs_depth
    return [(t.task_id, t.source, t.entry) for t in inputs_depth.heldout_tasks(folder)]


def stage_wall(src: Path, tasks_file: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(tasks_file)], env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def cold_run() -> float:
    """`ifforge generate` of the 42 seeds into an empty folder with an empty PREFECT_HOME: wall seconds."""
    with tempfile.TemporaryDirectory() as scratch:
        env = {**os.environ, "PREFECT_HOME": str(Path(scratch) / "prefect"), "PYTHONPATH": str(ROOT / "src")}
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "ifforge.cli", "generate", "--out", str(Path(scratch) / "out"),
                        "--no-progress"], env=env, cwd=ROOT, check=True, capture_output=True)
        return time.perf_counter() - start


def bound() -> str:
    sys.path.insert(0, str(ROOT / "src"))
    from ifforge.families.logicif.settings import LogicIFSettings
    from ifforge.families.logicif.stages import inputs
    settings = LogicIFSettings()
    candidates = settings.input_candidates * (1 + inputs.LEARNED_ROUNDS)
    searched = inputs.SEARCH_ROUNDS_MOST * inputs.SEARCH_BATCH
    return (f"bound per seed: at most {candidates} candidate runs ({settings.input_candidates} a round, "
            f"{1 + inputs.LEARNED_ROUNDS} rounds) and {searched} search runs ({inputs.SEARCH_ROUNDS_MOST} rounds of "
            f"{inputs.SEARCH_BATCH}), each run cut at {inputs.CANDIDATE_SECONDS} s; each candidate round stops at a "
            f"sandbox budget of {settings.function_seconds:g} s, and the search at a deadline {settings.function_seconds:g} s "
            f"after the seed's inputs stage began: at most about {(1 + inputs.LEARNED_ROUNDS) * settings.function_seconds:g} s "
            f"a seed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held-out", type=Path, default=Path("/work/scratch/heldout/src"))
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--skip-cold", action="store_true")
    args = parser.parse_args()
    print(bound())
    with tempfile.TemporaryDirectory() as scratch:
        before = Path(scratch) / "before"
        subprocess.run(["git", "worktree", "add", "--detach", "-f", str(before), BEFORE], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            tasks_file = Path(scratch) / "tasks.json"
            tasks_file.write_text(json.dumps(heldout(args.held_out)))
            walls: dict[str, list[float]] = {"before": [], "now": []}
            for _ in range(args.repeat):
                for side, src in (("before", before / "src"), ("now", ROOT / "src")):
                    found = stage_wall(src, tasks_file)
                    walls[side].append(found["wall"])
                    print(f"  {side:6} inputs stage on {found['tasks']} held-out functions: {found['wall']:.1f} s, "
                          f"{found['kept']} get inputs")
            ratio = statistics.median(walls["now"]) / statistics.median(walls["before"])
            print(f"held-out inputs stage: before the search {statistics.median(walls['before']):.1f} s, now "
                  f"{statistics.median(walls['now']):.1f} s: {ratio:.2f}x (target at most 2x)")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(before)], cwd=ROOT, capture_output=True)
    if not args.skip_cold:
        print(f"42 seeds, cold run (empty folder, empty PREFECT_HOME): {cold_run():.1f} s (target under 30 s)")
    load = os.getloadavg()[0]
    print(f"load average when done: {load:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
