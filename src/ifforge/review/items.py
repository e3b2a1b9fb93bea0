"""The items a reviewer checks: one per task of a version's `benchmark.jsonl`, as its family shows
it (`Family.review_item`: by default the view of the task's first row), with its family's labels and
guidance (`Family.review_guide`)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ifforge.families import family_id, family_of_row

BENCHMARK = "benchmark.jsonl"


def read_rows(version: Path) -> list[dict[str, Any]]:
    path = Path(version) / BENCHMARK
    if not path.exists():
        raise FileNotFoundError(f"{version}: no {BENCHMARK} here (give a benchmark version folder)")
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise ValueError(f"{path}:{number}: not JSON ({error.msg})") from None
    return rows


def load_items(version: Path) -> list[dict[str, Any]]:
    """One item per task (a reviewer checks a task once), from all the task's rows."""
    tasks: dict[str, list[dict[str, Any]]] = {}
    for row in read_rows(version):
        tasks.setdefault(row["task_id"], []).append(row)
    items = []
    for task_id, rows in tasks.items():
        family = family_of_row(rows[0])
        items.append({"task_id": task_id, "family": family_id(rows[0]), "guide": asdict(family.review_guide),
                      **family.review_item(rows, Path(version))})
    return items
