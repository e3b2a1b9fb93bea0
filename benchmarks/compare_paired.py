"""`ifforge compare`'s paired intervals: how often they hold, and what they cost.

Prints (1) the coverage of the 95% paired bootstrap interval (`eval/paired.py`) when two runs have
equal skill (it should contain zero about 95% of the time) and how often it catches a real drop, for
as many functions as LogicIFEval-mini (26), fewer (12) and a full benchmark (400), each function of
8 cases with its own difficulty; (2) the wall time of the per-task scores and every interval of one
`ifforge compare` of two LogicIF runs of 400 tasks x 8 cases.

    PYTHONPATH=src .venv/bin/python benchmarks/compare_paired.py [--trials 400]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from ifforge.eval import paired
from ifforge.eval.compare import measures
from ifforge.families import get_family

CASES = 8


def run_scores(rng: np.random.Generator, skill: np.ndarray) -> np.ndarray:
    """Each function's case accuracy when each of its cases is right with the function's own chance."""
    return rng.binomial(CASES, skill) / CASES


def plain(differences: np.ndarray, resamples: int, seed: int) -> tuple[float, float]:
    """The plain percentile interval (2.5% tails whatever the count), for comparison."""
    picks = np.random.default_rng(seed).integers(0, len(differences), size=(resamples, len(differences)))
    low, high = np.percentile(differences[picks].mean(axis=1), [2.5, 97.5])
    return float(low), float(high)


def coverage(functions: int, drop: float, trials: int, resamples: int, interval=paired.bootstrap) -> float:
    """The share of trials whose interval excludes zero (drop 0: the false alarms)."""
    rng = np.random.default_rng(functions * 1000 + int(drop * 100))
    excluded = 0
    for trial in range(trials):
        skill = rng.uniform(0.3, 0.95, size=functions)  # functions differ in difficulty
        first, second = run_scores(rng, skill), run_scores(rng, np.clip(skill - drop, 0, 1))
        low, high = interval(second - first, resamples, seed=trial)
        excluded += high < 0 or low > 0
    return excluded / trials


def logicif_frame(rng: np.random.Generator, tasks: int, share: float) -> pd.DataFrame:
    right = rng.random(tasks * CASES) < share
    return pd.DataFrame({"task_id": [f"t{t}" for t in range(tasks) for _ in range(CASES)],
                         "test_case_id": [c for _ in range(tasks) for c in range(CASES)],
                         "formatted": True, "output_ok": right, "stats_ok": right, "both_ok": right,
                         "request_failed": False, "extracted_by": "json",
                         "difficulty": [("easy", "medium", "hard")[t % 3] for t in range(tasks) for _ in range(CASES)]})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=400)
    parser.add_argument("--resamples", type=int, default=2_000, help="per trial (the command uses 10,000)")
    args = parser.parse_args()
    print(f"share of {args.trials} trials whose 95% interval excludes zero ({args.resamples:,} resamples each):")
    print("| functions | equal skill (false alarms, want ~5%) | a 10-point drop | a 30-point drop "
          "| equal skill, plain percentile |")
    print("|---|---|---|---|---|")
    for functions in (12, 26, 400):
        shares = [coverage(functions, drop, args.trials, args.resamples) for drop in (0.0, 0.1, 0.3)]
        shares.append(coverage(functions, 0.0, args.trials, args.resamples, plain))
        print(f"| {functions} | " + " | ".join(f"{100 * share:.1f}%" for share in shares) + " |")

    family = get_family("logicif")
    rng = np.random.default_rng(0)
    frames = (logicif_frame(rng, 400, 0.8), logicif_frame(rng, 400, 0.7))
    start = time.perf_counter()
    scores = tuple(paired.unit_scores(family.report, frame, family.paired_by) for frame in frames)
    scored = time.perf_counter()
    measures(family, scores, frames, list(family.report.metrics), paired.RESAMPLES, paired.SEED)
    done = time.perf_counter()
    print(f"\ntwo LogicIF runs of 400 tasks x {CASES} cases: per-task scores {scored - start:.2f} s, "
          f"{len(family.report.metrics)} metrics + 3 tiers of intervals ({paired.RESAMPLES:,} resamples) "
          f"{done - scored:.2f} s")


if __name__ == "__main__":
    main()
