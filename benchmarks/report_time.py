"""What writing one report costs: report.json, report.md, the plots and plots.json, for a verdict
frame of N rows in G groups of each of K group columns (the generic report, as every family's).

Prints the seconds per report (median of the rounds), the plots it drew and the seconds per plot,
and the same report with the plots left out (what the plots add). The plots are most of it:
matplotlib draws each figure whole.

Usage: python benchmarks/report_time.py [--rows 400] [--groups 8] [--columns 3] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

import pandas as pd

from ifforge.eval.plots import pyplot
from ifforge.eval.report import Report
from ifforge.eval.template import write_report


def frame_of(rows: int, groups: int, columns: int, seed: int = 1) -> pd.DataFrame:
    picks = random.Random(seed)
    return pd.DataFrame([{"task_id": f"t{i}", "request_failed": False, "correct": picks.random() < 0.6,
                          **{f"g{c}": f"v{picks.randrange(groups)}" for c in range(columns)}} for i in range(rows)])


def timed(report: Report, frame: pd.DataFrame, rounds: int) -> tuple[float, int]:
    seconds, drawn = [], 0
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            summary = write_report(report, frame, Path(folder), "a run", {"model": "m"})
            seconds.append(time.perf_counter() - start)
            drawn = len(summary.get("plots") or [])
    return statistics.median(seconds), drawn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=400)
    parser.add_argument("--groups", type=int, default=8)
    parser.add_argument("--columns", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    frame = frame_of(args.rows, args.groups, args.columns)
    pyplot()  # imported once, as evaluate does while the model answers

    class Grouped(Report):
        groups = tuple(f"g{c}" for c in range(args.columns))

    class Unplotted(Grouped):
        def plots(self, summary, folder, model=""):
            return []

    with_plots, drawn = timed(Grouped(), frame, args.rounds)
    without, _ = timed(Unplotted(), frame, args.rounds)
    print(f"{args.rows} rows, {args.columns} group columns of {args.groups} values, median of {args.rounds}:")
    print(f"  report with {drawn} plots: {with_plots:.3f} s ({(with_plots - without) / max(drawn, 1):.3f} s a plot)")
    print(f"  report without plots: {without:.3f} s")


if __name__ == "__main__":
    main()
