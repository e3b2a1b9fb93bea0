"""How deep generated inputs go: the inputs stage on bare seeds, measured by running the code.

Three sets. `logicifeval`: LogicIFEval's 26 functions (`shared/fixtures/logicifeval`) as bare
seeds; each task's generated inputs and its original inputs run through the original function,
and the figure is, per task, (median lines executed a case with our inputs) / (the same with
LogicIFEval's inputs). `seeds`: the 42 shipped seeds with their inputs stripped, measured the same
way against their hand-written inputs. `heldout`: real algorithm code never used while building
the inputs stage (the PyPI package `algorithms` 1.0.1, keon's "Pythonic Data Structures and
Algorithms", unpacked outside the repository and passed as `--held-out DIR`): the functions the
fixed rule of `real_code_survival.py` picks (up to 3 per module, LogicIF-able), every third in
module order. It has no original inputs; printed are the share of tasks whose output is trivial
(None, empty, 0, False) in most cases and the tasks with one output for every case, among the
seeds the stage gives inputs (the ones it drops are counted apart). Lines executed = line events
of seed code in the call (the sandbox's step count); a dropped seed counts as 0 lines in the
ratio. Wall = the inputs stage alone.
Usage: python benchmarks/inputs_depth.py [--sets logicifeval,seeds,heldout] [--held-out DIR] [--list]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ifforge.core.sandbox import execution as sandbox
from ifforge.core.store.versions import canonical_json
from ifforge.families.logicif.configs import InputsConfig, from_settings
from ifforge.families.logicif.records import SeedFunction
from ifforge.families.logicif.settings import LogicIFSettings
from ifforge.families.logicif.stages import inputs, load

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT.parent / "shared" / "fixtures" / "logicifeval"
for candidate in (FIXTURES, Path("/work/shared/fixtures/logicifeval")):
    if candidate.exists():
        FIXTURES = candidate
        break
TRIVIAL = (None, 0, False, "", [], {})
HELD_OUT_EVERY = 3
HELD_OUT_PER_MODULE = 3


@dataclass
class Task:
    task_id: str
    source: str
    entry: str
    original: list[list] | None  # the inputs it came with, when there are some
    tracked: bool  # returns (output, stats) already


@dataclass
class Measured:
    task: Task
    ours: list  # CaseResult per generated input
    theirs: list  # CaseResult per original input


def logicifeval_tasks() -> list[Task]:
    cases: dict[str, list] = {}
    for line in (FIXTURES / "cases.jsonl").read_text().splitlines():
        row = json.loads(line)
        cases.setdefault(row["task_id"], []).append(row["input"])
    return [Task(row["task_id"], row["function"], "f", cases[row["task_id"]], True)
            for row in map(json.loads, (FIXTURES / "tasks.jsonl").read_text().splitlines())]


def seed_tasks() -> list[Task]:
    seeds, _ = load.load_seed_dir(ROOT / "seeds" / "logicif")
    return [Task(s.task_id, s.source, s.entry, [list(i.args) for i in s.inputs], False) for s in seeds]


def heldout_tasks(folder: Path) -> list[Task]:
    """Every HELD_OUT_EVERY-th LogicIF-able function of the package, by real_code_survival's rule."""
    import pkgutil
    sys.path[:0] = [str(folder), str(ROOT / "benchmarks")]
    import algorithms  # noqa: the held-out package, unpacked at `folder`
    import real_code_survival as survival
    modules = sorted(m.name for m in pkgutil.walk_packages(algorithms.__path__, "algorithms."))
    picked = []
    for module in modules:
        try:
            picked += [p for p in survival.pick([module], HELD_OUT_PER_MODULE) if survival.logicif_able(p) is None]
        except Exception:  # a module that does not import on this Python: not picked
            continue
    picked = picked[::HELD_OUT_EVERY]
    with tempfile.TemporaryDirectory() as scratch:  # through the load stage, as a user's seed files
        for item in picked:
            (Path(scratch) / f"{item.task_id}.py").write_text(item.source)
        seeds, _ = load.load_seed_dir(Path(scratch))
    return [Task(s.task_id, s.source, s.entry, None, False) for s in seeds]


def _output_only(result: sandbox.CaseResult, tracked: bool) -> sandbox.CaseResult:
    """A function that returns (output, stats) already is judged by its output alone."""
    if tracked and result.ok and isinstance(result.output, list) and len(result.output) == 2:
        return dataclasses.replace(result, output=result.output[0])
    return result


def measure(tasks: list[Task], config: InputsConfig) -> tuple[list[Measured], float]:
    """Generate inputs for each bare task (timed), then run ours and theirs with steps counted."""
    generated, wall = [], 0.0
    for task in tasks:
        seed = SeedFunction(task_id=task.task_id, source=task.source, entry=task.entry, inputs=[], origin="bench")
        start = time.perf_counter()
        outcome = inputs.generate(seed, config)
        wall += time.perf_counter() - start
        generated.append([list(i.args) for i in outcome.kept.inputs] if outcome.kept else [])
    limits = sandbox.Limits(case_seconds=config.case_seconds, memory_bytes=config.memory_mb << 20)
    measured = []
    for task, ours in zip(tasks, generated):
        run = lambda cases: [_output_only(r, task.tracked) for r in sandbox.run_cases(  # noqa: E731
            task.source, task.entry, cases, limits=limits, count_steps=True)] if cases else []
        measured.append(Measured(task, run(ours), run(task.original or [])))
    return measured, wall


def lines(results: list) -> float:
    steps = [r.steps or 0 for r in results if r.ok]
    return statistics.median(steps) if steps else 0.0


def trivial_most(results: list) -> bool:
    outputs = [r.output for r in results if r.ok]
    return sum(1 for o in outputs if any(o == t and type(o) is type(t) for t in TRIVIAL)) * 2 > len(results) \
        or not outputs


def one_output(results: list) -> bool:
    return len({canonical_json(r.output) for r in results if r.ok}) <= 1


def report(name: str, measured: list[Measured], wall: float, show: bool) -> None:
    n = len(measured)
    print(f"{name}: {n} tasks, inputs stage {wall:.1f} s ({wall / max(n, 1):.2f} s a task)")
    ratios = []
    for m in measured:
        ours, theirs = lines(m.ours), lines(m.theirs)
        ratio = ours / theirs if m.task.original and theirs else None
        if ratio is not None:
            ratios.append((ratio, m.task.task_id))
        if show:
            print(f"  {m.task.task_id:48} cases {len(m.ours):2} lines/case {ours:7.1f}"
                  + (f" vs original {theirs:7.1f} ratio {ratio:5.2f}" if ratio is not None else "")
                  + (" TRIVIAL" if trivial_most(m.ours) else "") + (" ONE-OUTPUT" if one_output(m.ours) else ""))
    if ratios:
        worst = min(ratios)
        print(f"  lines a case, ours / original: median {statistics.median(r for r, _ in ratios):.2f}, "
              f"worst {worst[0]:.2f} ({worst[1]}), under 0.5: {sum(r < 0.5 for r, _ in ratios)} of {len(ratios)}")
    print(f"  median lines a case (ours): {statistics.median(lines(m.ours) for m in measured):.0f}"
          + (f"; original: {statistics.median(lines(m.theirs) for m in measured):.0f}" if ratios else ""))
    kept = [m for m in measured if m.ours]
    k = len(kept)
    trivial = sum(trivial_most(m.ours) for m in kept)
    same = sum(one_output(m.ours) for m in kept)
    print(f"  tasks with inputs: {k} of {n} (dropped by the stage: {n - k}); of these, trivial output in most "
          f"cases: {trivial} ({trivial / max(k, 1):.1%}); one output for every case: {same} ({same / max(k, 1):.1%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="logicifeval,seeds,heldout")
    parser.add_argument("--held-out", type=Path, default=Path("/work/scratch/heldout/src"),
                        help="folder holding the unpacked `algorithms` package")
    parser.add_argument("--list", action="store_true", help="a line per task")
    args = parser.parse_args()
    config = from_settings(InputsConfig, LogicIFSettings())
    makers = {"logicifeval": logicifeval_tasks, "seeds": seed_tasks, "heldout": lambda: heldout_tasks(args.held_out)}
    for name in args.sets.split(","):
        measured, wall = measure(makers[name](), config)
        report(name, measured, wall, args.list)


if __name__ == "__main__":
    main()
