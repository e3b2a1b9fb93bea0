"""Sandbox throughput: cases per second for one function with 200 cases, beside LogicIF's executor.

- ifforge: `run_cases`, a warm child behind the walls this machine offers (bubblewrap, cgroup),
  forking one runner per function that runs each case as if alone (the module executed afresh,
  fresh builtins, random state, directory; a case that leaves a process or file ends the runner).
- LogicIF-style: what LogicIF's executor does per test case, written here as a baseline: a forked
  `multiprocessing.Process` that execs the code and puts the result on a `multiprocessing.Queue`,
  joined with a timeout (no walls, no rlimits).
- ifforge alone: `run_cases(..., alone=True)`, a runner forked per case (how gold is run).
- one call per case: `run_cases` called once per case (what a function with one input costs).

Prints cases/s for each, and ifforge's ratio to each (issue target: 10x LogicIF-style).
Usage: python benchmarks/sandbox_throughput.py [--cases 200] [--per-call-cases 50]
"""

import argparse
import multiprocessing
import queue
import time

from ifforge.core.sandbox.isolation import detect
from ifforge.core.sandbox.execution import run_cases

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


def _logicif_style_case(code: str, entry: str, args: list, results: multiprocessing.Queue) -> None:
    namespace: dict = {}
    exec(code, namespace)
    results.put(namespace[entry](*args))


def logicif_style(code: str, entry: str, cases: list[list], timeout: float = 2.0) -> list:
    """One forked process and one queue per case, as LogicIF's executor runs test cases."""
    context = multiprocessing.get_context("fork")
    outputs = []
    for args in cases:
        results = context.Queue()
        process = context.Process(target=_logicif_style_case, args=(code, entry, args, results))
        process.start()
        try:
            outputs.append(results.get(timeout=timeout))
        except queue.Empty:
            outputs.append(None)
        process.join(timeout)
        if process.is_alive():
            process.kill()
            process.join()
        results.close()
    return outputs


def _timed(run) -> tuple[float, list]:
    started = time.perf_counter()
    out = run()
    return time.perf_counter() - started, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--per-call-cases", type=int, default=50, help="cases for the one-call-per-case line")
    args = parser.parse_args()
    cases = [[[i % 7, (i * 3) % 11, i % 5], 10 + i % 20] for i in range(args.cases)]
    walls = detect().describe()
    print(f"walls: {walls['method']}, cgroup {walls['cgroup']}")

    run_cases(FUNCTION, "f", cases[:2], tracked=True)  # warm: detection and first imports are paid once
    ours_seconds, ours = _timed(lambda: run_cases(FUNCTION, "f", cases, tracked=True))
    assert all(result.ok for result in ours), ours[0].error
    theirs_seconds, theirs = _timed(lambda: logicif_style(FUNCTION, "f", cases))
    assert [[r.output, r.stats] for r in ours] == [list(t) for t in theirs]
    alone_seconds, alone = _timed(lambda: run_cases(FUNCTION, "f", cases, tracked=True, alone=True))
    assert [r.output for r in alone] == [r.output for r in ours]
    per_call = cases[: args.per_call_cases]
    per_call_seconds, singles = _timed(lambda: [run_cases(FUNCTION, "f", [case], tracked=True)[0] for case in per_call])
    assert [r.output for r in singles] == [r.output for r in ours[: len(singles)]]

    rate = {name: n / seconds for name, n, seconds in [
        ("ifforge", len(cases), ours_seconds), ("logicif", len(cases), theirs_seconds),
        ("per_call", len(per_call), per_call_seconds), ("alone", len(cases), alone_seconds)]}
    print(f"ifforge (warm child, runner)       : {len(cases)} cases in {ours_seconds:.3f} s = {rate['ifforge']:,.0f} cases/s")
    print(f"ifforge alone (a runner per case)  : {len(cases)} cases in {alone_seconds:.3f} s = {rate['alone']:,.0f} cases/s")
    print(f"LogicIF-style (Process + Queue)    : {len(cases)} cases in {theirs_seconds:.3f} s = {rate['logicif']:,.0f} cases/s")
    print(f"one run_cases call per case        : {len(per_call)} cases in {per_call_seconds:.3f} s = {rate['per_call']:,.0f} cases/s")
    print(f"ifforge vs LogicIF-style: {rate['ifforge'] / rate['logicif']:.1f}x (target 10x); "
          f"vs one call per case: {rate['ifforge'] / rate['per_call']:.1f}x")


if __name__ == "__main__":
    main()
