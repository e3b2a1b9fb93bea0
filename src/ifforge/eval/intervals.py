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
