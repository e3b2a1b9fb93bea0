"""LIFBench generation speed: seconds per 1M prompt tokens, building the long inputs and rendering
every row (the family's own work, without Prefect's fixed start-up), per length.
Usage: python benchmarks/lifbench_generation.py [--lengths 3072 6144 ...] [--expressions 2] [--variable-sets 2]
With --expressions > 0 the rows use the templates' hand-written rewrites (no clustering: the
embedding model's load is a one-off, timed by benchmarks/dedup.py); counting is exact (cl100k_base).
"""

import argparse
import json
import time

from ifforge.core.prompts import load_prompt
from ifforge.families.lifbench import scenarios
from ifforge.families.lifbench.family import enabled_tasks, render_rows
from ifforge.families.lifbench.settings import LENGTHS, LifbenchSettings
from ifforge.transforms import expressions


class BankExpressions:
    """The first k rewrites of a template's bank, as an ExpressionSet would give them."""

    def __init__(self, template: str, k: int):
        self.rewrites = expressions.load_bank(template)[:k]

    def texts(self) -> dict[str, str]:
        return {f"e{i}": text for i, text in enumerate(self.rewrites, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=LENGTHS)
    parser.add_argument("--expressions", type=int, default=2)
    parser.add_argument("--variable-sets", type=int, default=2)
    args = parser.parse_args()
    settings = LifbenchSettings(family="lifbench", lengths=args.lengths, expressions=args.expressions,
                                variable_sets=args.variable_sets)
    chosen = {task.id: (BankExpressions(task.template, args.expressions), None, "") for task in enabled_tasks(settings)}
    load_prompt("lifbench_qa")
    scenarios.build(scenarios.ContextSpec(task_id="warm", scenario="list", length=1024, sample=0, seed=0))  # imports
    print(f"{'length':>7} {'rows':>5} {'prompt tokens':>14} {'build s':>8} {'render s':>9} {'write s':>8} "
          f"{'s per 1M tokens':>16}")
    totals = [0, 0, 0.0, 0.0, 0.0, 0]
    cpu = time.process_time()
    for length in args.lengths:
        started = time.perf_counter()
        contexts = [scenarios.build(scenarios.ContextSpec(task_id=f"{s}-L{length}-s0", scenario=s, length=length,
                                                          sample=0, seed=0)) for s in scenarios.SCENARIOS]
        built = time.perf_counter()
        rows = [row for context in contexts for row in render_rows(context, settings, chosen)]
        rendered = time.perf_counter()
        written = len("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows).encode())
        done = time.perf_counter()
        tokens = sum(row["prompt_tokens"] for row in rows)
        print(f"{length:>7} {len(rows):>5} {tokens:>14,} {built - started:>8.2f} {rendered - built:>9.2f} "
              f"{done - rendered:>8.2f} {(done - started) / tokens * 1e6:>16.2f}")
        totals = [a + b for a, b in zip(totals, [len(rows), tokens, built - started, rendered - built, done - rendered,
                                                  written])]
    rows, tokens, build, render, write, size = totals
    seconds = build + render + write
    print(f"{'all':>7} {rows:>5} {tokens:>14,} {build:>8.2f} {render:>9.2f} {write:>8.2f} {seconds / tokens * 1e6:>16.2f}")
    cpu = time.process_time() - cpu
    print(f"generation: {seconds / tokens * 1e6:.2f} s per 1M prompt tokens wall ({tokens / seconds / 1e6:.2f}M "
          f"tokens/s; {size / 1e6:.0f} MB of rows), {cpu / tokens * 1e6:.2f} s per 1M of CPU time (wall exceeds "
          "CPU when the machine is shared)")


if __name__ == "__main__":
    main()
