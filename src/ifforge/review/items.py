"""The items a reviewer checks: one per task of a version's `benchmark.jsonl`, with every test case."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

BENCHMARK = "benchmark.jsonl"
ITEM_FIELDS = ("task_id", "test_case_id", "function", "description", "stats_keys", "input",
               "code_output", "output_format", "difficulty")
CASE_FIELDS = ("test_case_id", "input", "code_output")


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
    """One item per task (a reviewer checks the function once), with every test case of the task."""
    items: dict[str, dict[str, Any]] = {}
    for row in read_rows(version):
        if row["task_id"] not in items:
            family = row.get("family", "logicif")
            items[row["task_id"]] = ({key: row.get(key) for key in ITEM_FIELDS} if family == "logicif"
                                     else {"task_id": row["task_id"], "family": family, "view": _family_view(row)})
            items[row["task_id"]]["cases"] = []
        if "view" not in items[row["task_id"]]:
            items[row["task_id"]]["cases"].append({key: row.get(key) for key in CASE_FIELDS})
    return list(items.values())


def _family_view(row: dict[str, Any]) -> dict[str, Any]:
    from ifforge.families import get_family

    return get_family(row["family"]).review_view(row)
