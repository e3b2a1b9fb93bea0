"""Sandbox throughput: cases per second for one function with 200 cases.

Compares ifforge's sandbox (all cases of a function in one child process) with a baseline that
starts one child process per case under the same limits. Prints both and their ratio (target: 10x).
Usage: python benchmarks/sandbox_throughput.py [--cases 200] [--baseline-cases 200]
"""

import argparse
import time

from ifforge.core.sandbox import run_cases

FUNCTION = '''
def f(queue, ticks):
    served = []
    waiting = list(queue)
    stats = {"ticks": 0}
    for tick in range(ticks):
        stats["ticks"] += 1
        if waiting and waiting[0] <= tick:
            served.append(waiting.pop(0) * 2)
    return served, stats
'''


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--baseline-cases", type=int, default=200)
    args = parser.parse_args()
    cases = [[[i % 7, (i * 3) % 11, i % 5], 10 + i % 20] for i in range(args.cases)]

    started = time.perf_counter()
    batched = run_cases(FUNCTION, "f", cases, tracked=True)
    batched_seconds = time.perf_counter() - started
    assert all(result.ok for result in batched)

    baseline_cases = cases[: args.baseline_cases]
    started = time.perf_counter()
    single = [run_cases(FUNCTION, "f", [case], tracked=True)[0] for case in baseline_cases]
    baseline_seconds = time.perf_counter() - started
    assert [r.output for r in single] == [r.output for r in batched[: len(single)]]

    batched_rate = len(cases) / batched_seconds
    baseline_rate = len(baseline_cases) / baseline_seconds
    print(f"one child per function: {len(cases)} cases in {batched_seconds:.3f} s = {batched_rate:,.0f} cases/s")
    print(f"one child per case    : {len(baseline_cases)} cases in {baseline_seconds:.3f} s = {baseline_rate:,.0f} cases/s")
    print(f"speed-up: {batched_rate / baseline_rate:.1f}x (target 10x)")


if __name__ == "__main__":
    main()
