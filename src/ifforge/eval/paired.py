"""Two runs' scores compared unit by unit, with a bootstrap interval on the difference.

A unit is what both runs share (a task; for a regenerated benchmark, the source function its rows
were made from: the family's `paired_by`). Each unit is scored on its own by the family's metric,
the difference is taken unit by unit, and the mean of those differences is bootstrapped over units
(each unit weighs the same; resampling units, not rows, keeps a task's correlated cases together),
widened for few units (`tails`). The seed is fixed: the same runs always give the same interval.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

from ifforge.eval.report import Report

RESAMPLES = 10_000
SEED = 0
LEVEL = 0.95
CHUNK = 1_000  # resamples drawn at once: bounded memory for thousands of units


@dataclass(frozen=True)
class Difference:
    """The second run against the first over the units both scored: their mean scores, the mean of
    the unit-by-unit differences, and its bootstrap interval (shares, 0 to 1)."""

    units: int
    first: float
    second: float
    mean: float
    low: float
    high: float


def unit_scores(report: Report, frame: pd.DataFrame, unit: str) -> dict[Any, dict[str, Any]]:
    """Each unit's numbers, computed by the family's own `scores` on that unit's verdict lines; a unit
    with nothing answered (every request failed) has no numbers and is left out."""
    failed = frame["request_failed"].astype(bool) if "request_failed" in frame else pd.Series(False, index=frame.index)
    return {name: report.scores(part) for name, part in frame.groupby(unit, sort=True)
            if not failed[part.index].all()}


def metric_values(report: Report, scores: dict[Any, dict[str, Any]], metric: str) -> pd.Series:
    """One metric of each unit (a unit whose metric is None is left out)."""
    key: str | Callable = report.metrics[metric]
    values = {name: key(row) if callable(key) else row.get(key) for name, row in scores.items()}
    return pd.Series({name: float(value) for name, value in values.items() if value is not None}, dtype=float)


def student_t(p: float, freedom: int) -> float:
    """The `p` quantile of Student's t (exact for 1 and 2 degrees of freedom, else the Cornish-Fisher
    series of Abramowitz and Stegun 26.7.5, within 0.001 from 3 on): no scipy in the scoring core."""
    if freedom == 1:
        return math.tan(math.pi * (p - 0.5))
    if freedom == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    x = NormalDist().inv_cdf(p)
    terms = ((x ** 3 + x) / 4, (5 * x ** 5 + 16 * x ** 3 + 3 * x) / 96,
             (3 * x ** 7 + 19 * x ** 5 + 17 * x ** 3 - 15 * x) / 384,
             (79 * x ** 9 + 776 * x ** 7 + 1482 * x ** 5 - 1920 * x ** 3 - 945 * x) / 92160)
    return x + sum(term / freedom ** power for power, term in enumerate(terms, 1))


def tails(count: int) -> float:
    """The share cut from each tail of the resampled means: 2.5%, widened for few units as
    Hesterberg's expanded percentile interval does (the plain percentile interval of a mean is too
    narrow when units are few: it misses zero about 9% of the time, not 5%, at 12 units)."""
    return NormalDist().cdf(-math.sqrt(count / (count - 1)) * student_t(1 - (1 - LEVEL) / 2, count - 1))


def bootstrap(differences: np.ndarray, resamples: int = RESAMPLES, seed: int = SEED) -> tuple[float, float] | None:
    """The 95% interval of the mean of `differences` from resampling them with replacement (the
    expanded percentile interval: `tails`); None for fewer than two, which no interval can come from."""
    count = len(differences)
    if count < 2:
        return None
    rng = np.random.default_rng(seed)
    means = np.empty(resamples)
    for start in range(0, resamples, CHUNK):
        size = min(CHUNK, resamples - start)
        means[start:start + size] = differences[rng.integers(0, count, size=(size, count))].mean(axis=1)
    tail = 100 * tails(count)
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)


def paired(first: pd.Series, second: pd.Series, resamples: int = RESAMPLES, seed: int = SEED) -> Difference | None:
    """The second run's scores against the first's, over the units both have (an infinite interval for
    one unit: nothing can be said); None when they share none."""
    both = first.index.intersection(second.index)
    if not len(both):
        return None
    a, b = first[both].to_numpy(), second[both].to_numpy()
    low, high = bootstrap(b - a, resamples, seed) or (-math.inf, math.inf)
    return Difference(len(both), float(a.mean()), float(b.mean()), float((b - a).mean()), low, high)


def points(share: float, sign: bool = False) -> str:
    """A share as percentage points, one decimal (`+3.1` with `sign`)."""
    value = round(100 * share, 1) + 0.0  # no "-0.0"
    return f"{value:+.1f}" if sign else f"{value:.1f}"


def interval(difference: Difference) -> str:
    if math.isinf(difference.low):
        return "none (one unit)"
    return f"{points(difference.low, True)} to {points(difference.high, True)}"


def verdict(difference: Difference, second: str = "the second run") -> str:
    """One line a reader can act on: a drop or a rise the interval is sure of, or none shown."""
    if difference.high < 0:
        return (f"{second} dropped by {points(-difference.mean)} points [{points(-difference.high)} to "
                f"{points(-difference.low)}]: the 95% interval excludes zero")
    if difference.low > 0:
        return (f"{second} rose by {points(difference.mean)} points [{points(difference.low)} to "
                f"{points(difference.high)}]: the 95% interval excludes zero")
    if math.isinf(difference.low):
        return "no difference shown: one unit paired, too few for an interval"
    return f"no difference shown: the 95% interval [{interval(difference)}] includes zero"


def method(unit: str, resamples: int, seed: int, later: str = "this run", earlier: str = "the first run") -> str:
    """How every difference and interval here was computed, said once under them."""
    return (f"Paired by `{unit}`: each {unit} is scored on its own in each run, the difference is its score in "
            f"{later} minus in {earlier}, in percentage points, averaged over the {unit}s both runs "
            f"scored (each weighs the same); the 95% interval is a percentile bootstrap of that mean "
            f"({resamples:,} resamples of the {unit}s with replacement, seed {seed}; its tails narrowed below "
            "2.5% for few units, as Hesterberg's expanded percentile interval does).")
