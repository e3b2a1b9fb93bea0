"""Do the trackers tell something? Over the project's seeds (offline: instrument, then execute),
count trackers that are constant across a task's kept cases, equal an input's length in every
case, or duplicate another tracker of the same task; and seeds left with no tracker.
Usage: python benchmarks/tracker_quality.py [--seeds DIR] [--verbose]
"""

import argparse
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

from ifforge.families.logicif.family import DEFAULT_SEEDS, FAMILY
from ifforge.families.logicif.settings import LogicIFSettings
from ifforge.families.logicif.stages import load


def lengths(args: list) -> list:
    return [len(a) if isinstance(a, (str, list, dict)) else None for a in args]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=Path, default=DEFAULT_SEEDS)
    parser.add_argument("--verbose", action="store_true", help="name every bad tracker and every drop")
    options = parser.parse_args()
    seeds, _ = load.load_seed_dir(options.seeds)
    stages = {stage.name: stage for stage in FAMILY.plan(LogicIFSettings(dedup=False, expressions=0))}
    instrument, execute = stages["instrument"], stages["execute"]
    seconds, cpu = Counter(), Counter()  # wall clock; this process's CPU (not the sandbox children's)
    trackers, constant, input_length, duplicates, kinds = 0, [], [], [], Counter()
    untracked, other_drops = [], []
    for seed in seeds:
        started, used = time.perf_counter(), time.process_time()
        instrumented = instrument.call(seed)
        seconds["instrument"] += time.perf_counter() - started
        cpu["instrument"] += time.process_time() - used
        if instrumented.kept is None:
            untracked.append((seed.task_id, instrumented.dropped[0].reason))
            continue
        started, used = time.perf_counter(), time.process_time()
        executed = execute.call(instrumented.kept)
        seconds["execute"] += time.perf_counter() - started
        cpu["execute"] += time.process_time() - used
        if executed.kept is None:
            other_drops.append((seed.task_id, executed.dropped[-1].reason))
            continue
        cases = executed.kept.cases
        names = [t.name for t in instrumented.kept.trackers]
        kinds.update(t.kind for t in instrumented.kept.trackers)
        values = {name: [case.stats[name] for case in cases] for name in names}
        trackers += len(names)
        for name in names:
            if len(set(values[name])) == 1:
                constant.append(f"{seed.task_id}.{name}")
            for position in range(len(cases[0].input)):
                if all(lengths(case.input)[position] == value for case, value in zip(cases, values[name])):
                    input_length.append(f"{seed.task_id}.{name} = len(argument {position + 1})")
                    break
        duplicates += [f"{seed.task_id}.{a} == {b}" for a, b in combinations(names, 2) if values[a] == values[b]]
    print(f"{len(seeds)} seeds, {trackers} trackers on the kept cases of {len(seeds) - len(untracked) - len(other_drops)} "
          f"tasks; kinds: {dict(sorted(kinds.items()))}")
    print(f"constant across a task's cases:   {len(constant)}")
    print(f"equal to an input's length:       {len(input_length)}")
    print(f"identical pairs within a task:    {len(duplicates)}")
    print(f"seeds with no tracker:            {len(untracked)}  {sorted(Counter(r for _, r in untracked).items())}")
    print(f"seeds dropped later (execute):    {len(other_drops)}  {sorted(Counter(r for _, r in other_drops).items())}")
    print(f"seconds, one function at a time: instrument {seconds['instrument']:.2f} wall / {cpu['instrument']:.2f} "
          f"CPU here, execute {seconds['execute']:.2f} wall / {cpu['execute']:.2f} CPU here")
    if options.verbose:
        for label, found in (("constant", constant), ("input length", input_length), ("duplicate", duplicates),
                             ("no tracker", untracked), ("dropped later", other_drops)):
            for entry in found:
                print(f"  {label}: {entry}")


if __name__ == "__main__":
    main()
