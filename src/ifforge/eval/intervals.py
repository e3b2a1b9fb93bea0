"""Proportions as researchers should read them: counts, one rounding, and a 95% interval."""

from __future__ import annotations

import math


def wilson(successes: int, total: int, z: float = 1.959964) -> list[float] | None:
    """The 95% Wilson score interval of a proportion (sound for small counts and for 0% or 100%)."""
    if total == 0:
        return None
    p = successes / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def shown(successes: int, total: int) -> str:
    """`62.5% (25/40) [46.1-76.3]`: the percentage rounded once, from the counts, beside them."""
    if total == 0:
        return "-"
    low, high = wilson(successes, total)
    return f"{100 * successes / total:.1f}% ({successes}/{total}) [{100 * low:.1f}-{100 * high:.1f}]"


def weighted_interval(groups: dict[str, tuple[float, list[float]]]) -> list[float] | None:
    """The 95% interval of a weighted mean of group means (`groups`: name -> (weight, values)):
    each value weighs its group's weight over the group's size, and the standard error is the
    weighted spread of the values around the mean (a group of one sample still adds its spread),
    with Student's t for n - 1 degrees of freedom. Clipped to [0, 1]; one sample says nothing of
    the spread: its interval is all of [0, 1], never a point that looks certain."""
    total = sum(weight for weight, values in groups.values() if values)
    pairs = [(weight / total / len(values), value) for weight, values in groups.values() if values
             for value in values] if total else []
    if not pairs:
        return None
    mean = sum(a * v for a, v in pairs)
    n = len(pairs)
    if n == 1:
        return [0.0, 1.0]
    spread = math.sqrt(n / (n - 1) * sum((a * (v - mean)) ** 2 for a, v in pairs))
    half = _t95(n - 1) * spread
    return [round(max(0.0, mean - half), 4), round(min(1.0, mean + half), 4)]


def _t95(freedom: int) -> float:
    """Student's t at 97.5% for `freedom` degrees of freedom (scipy's, imported only here)."""
    from scipy.stats import t  # lazy on purpose: scipy is heavy, and only means need it

    return float(t.ppf(0.975, freedom))


def figure(row: dict, key: str) -> str:
    """A headline number in the one format of every report: a share as `62.5% (25/40) [46.1-76.3]`
    (from `<key>_counts`), a mean as `0.612 (n=40) [0.571-0.653]` (`<key>_n`, `<key>_ci95`)."""
    counts = row.get(f"{key}_counts")
    if counts:
        return shown(*counts)
    value, interval = row.get(key), row.get(f"{key}_ci95")
    if value is None:
        return "-"
    n = f" (n={row[f'{key}_n']})" if row.get(f"{key}_n") is not None else ""
    return f"{value:.3f}{n}" + (f" [{interval[0]:.3f}-{interval[1]:.3f}]" if interval else "")


def share(name: str, hits: int, total: int) -> dict:
    """A share as every report keeps it: its value, its counts and its 95% Wilson interval."""
    return {name: round(hits / total, 4) if total else None, f"{name}_counts": [hits, total],
            f"{name}_ci95": wilson(hits, total)}
