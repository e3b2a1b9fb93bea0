"""The verified subset: tasks enough people reviewed and no one rejected, safe to publish as human-checked."""

from __future__ import annotations

import json
from pathlib import Path

from ifforge.core.store.versions import atomic_write
from ifforge.review.items import load_items, read_rows
from ifforge.review.marks import REVIEWS, all_reviews


def verified_task_ids(version: Path, min_reviewers: int = 1) -> set[str]:
    """Tasks at least `min_reviewers` people reviewed and none rejected: safe to publish as human-checked."""
    verdicts: dict[str, list[str]] = {}
    for marks in all_reviews(version).values():
        for task, record in marks.items():
            verdicts.setdefault(task, []).append(record["verdict"])
    known = {item["task_id"] for item in load_items(version)}
    return {task for task, seen in verdicts.items()
            if task in known and set(seen) == {"faithful"} and len(seen) >= min_reviewers}


def export_verified(version: Path, out: Path, min_reviewers: int = 1) -> tuple[Path, int]:
    """Write the benchmark rows (every test case) of verified tasks to `out`; returns (out, tasks)."""
    if not all_reviews(version):
        raise ValueError(f"{version}: no reviews in {Path(version) / REVIEWS}/ yet, so nothing is verified "
                         "(run `ifforge review` and mark some tasks first)")
    if min_reviewers < 1:
        raise ValueError(f"--min-reviewers: at least 1, got {min_reviewers}")
    keep = verified_task_ids(version, min_reviewers)
    rows = [row for row in read_rows(version) if row["task_id"] in keep]
    out = Path(out)
    atomic_write(out, "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    return out, len(keep)
