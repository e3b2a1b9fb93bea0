"""Every report's plots, drawn one way for every family: a score by group, each group a point with
its 95% interval and its n, the model named, the floors drawn as lines; and beside the PNGs,
`plots.json`, the numbers plotted with their interval bounds.

Points with error bars rather than bars: a score of 0 is still a point, its interval still drawn,
and a group of 3 cases shows an interval as wide as it is, so noise does not read as signal.
"""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ifforge.core.store.versions import atomic_path, atomic_write

Row = dict[str, Any]
PLOTS_FILE = "plots.json"


@dataclass(frozen=True)
class Plot:
    """One plot a report declares: the summary's `by_<group>` table, the score drawn (a share with
    `<key>_counts`, or a mean with `<key>_n`; each with `<key>_ci95`), and what the groups are."""

    group: str
    key: str
    label: str
    title: str = ""  # default: "<score> by <label>"
    measure: str = ""  # the score's name on the axis (default: its headline label, else its key)


def numeric(labels: list[str]) -> bool:
    try:
        [float(label) for label in labels]
    except ValueError:
        return False
    return True


def points(table: dict[str, Row], key: str) -> list[Row]:
    """The groups of a table with something scored: value, interval and n, in the groups' order
    (as numbers when every group is one)."""
    found = []
    for group, row in table.items():
        value, interval = row.get(key), row.get(f"{key}_ci95")
        counts = row.get(f"{key}_counts")
        n = counts[1] if counts else row.get(f"{key}_n")
        if value is None or not n:
            continue
        low, high = interval if interval else (value, value)
        found.append({"group": str(group), "value": round(float(value), 4), "low": float(low), "high": float(high),
                      "n": int(n)})
    if numeric([p["group"] for p in found]):
        found.sort(key=lambda p: float(p["group"]))
    return found


def pyplot():
    """matplotlib's pyplot on the file-only backend (no display on a server)."""
    # lazy on purpose: matplotlib (heavy), only when a report draws
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(figure, path: Path, dpi: int) -> Path:
    """A figure as a PNG, written whole, then closed (laid out tight unless it has its own layout)."""
    if figure.get_layout_engine() is None:
        figure.tight_layout()
    with atomic_path(path) as temporary:
        figure.savefig(temporary, dpi=dpi, format="png")
    pyplot().close(figure)
    return path


MARKERS = ("x", "+", "1", "4", "|", "_")
STYLES = ("--", ":", "-.", (0, (5, 1)), (0, (1, 3)))


def draw(found: list[Row], path: Path, title: str, model: str, label: str, measure: str,
         floors: dict[str, float] | None = None, share: bool = True) -> Path:
    """One dot plot: a row per group (`label`, with its n), the score on the x axis from 0 to 1,
    the 95% interval as a bar, the floors as dashed lines (or, where each row is its own score,
    each point's `floors` as gray marks on its row), named as `share`s or as scores; the model in the title."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(8, 1.8 + 0.32 * len(found)), layout="constrained")
    places = list(range(len(found)))[::-1]  # the first group on top
    values = [p["value"] for p in found]
    errors = [[p["value"] - p["low"] for p in found], [p["high"] - p["value"] for p in found]]
    axis.errorbar(values, places, xerr=errors, fmt="o", color="tab:blue", ecolor="tab:blue", capsize=3,
                  label=f"{model} (95% interval)")
    for (name, floor), style in zip(sorted((floors or {}).items()), STYLES):
        axis.axvline(floor, color="tab:gray", linestyle=style, linewidth=1,
                     label=f"floor (overall): {name} {floor_text(floor, share)}")
    names = sorted({name for p in found for name in p.get("floors") or {}})
    for name, marker in zip(names, MARKERS):
        marked = [(p["floors"][name], place) for p, place in zip(found, places) if name in (p.get("floors") or {})]
        axis.scatter([x for x, _ in marked], [y for _, y in marked], marker=marker, color="tab:gray", s=45,
                     label=f"floor: {name}")
    axis.set_yticks(places, [f"{p['group']} (n={p['n']})" for p in found])
    axis.set(xlim=(-0.02, 1.02), ylim=(-0.7, len(found) - 0.3), xlabel=measure, ylabel=label)
    axis.set_title(f"{title}\nmodel: {model}", fontsize=10)
    axis.grid(axis="x", alpha=0.3)
    axis.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return save_figure(figure, path, 90)


def floor_text(value: float, share: bool) -> str:
    """A floor as the report's table shows it: a share as a percent, a mean score (LIFBench's ARS) as a
    score, never a score as a percent."""
    return f"{value:.1%}" if share else f"{value:.3f}"


def write_plots_json(folder: Path, entries: list[Row]) -> None:
    """`plots.json`: every plot's file, title, model and points (value, interval bounds, n)."""
    atomic_write(folder / PLOTS_FILE, json.dumps(entries, indent=2) + "\n")


IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)/\\]+\.png)\)")


def embedded(markdown: str, folder: Path) -> str:
    """The report's markdown with its plots inside it, as data URLs (a Prefect markdown artifact
    cannot reach the run's folder, and the UI renders images written so)."""
    def inline(match: re.Match) -> str:
        path = folder / match.group(2)
        if not path.is_file():
            return match.group(0)
        return f"![{match.group(1)}](data:image/png;base64,{base64.b64encode(path.read_bytes()).decode()})"

    return IMAGE.sub(inline, markdown)
