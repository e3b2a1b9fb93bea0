"""A check the family flow tests share: a generated version's floors are in its manifest and card,
and every row a trivial baseline passes is counted (recomputed here row by row)."""

from __future__ import annotations

import json
from pathlib import Path

from ifforge.card import check_card
from ifforge.families import get_family
from ifforge.families.base import Reply


def assert_floors_counted(folder: str | Path) -> dict:
    folder = Path(folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    rows = [json.loads(line) for line in (folder / "benchmark.jsonl").read_text().splitlines()]
    family = get_family(manifest["family"])
    passed: dict[str, list[str]] = {}
    for baseline in (kind() for kind in family.baselines.values()):
        baseline.fit(rows)
        for row in rows:
            if family.check(row, Reply.of(baseline.replies(row, family.request(row).turns))).correct:
                passed.setdefault(family.row_id(row), []).append(baseline.id)
    written = json.loads((folder / "floors.json").read_text())
    assert written["trivially_passed"]["by_row"] == passed
    assert manifest["floors"]["trivially_passed"]["rows"] == len(passed)
    assert set(manifest["floors"]["baselines"]) == set(family.baselines)
    card = (folder / "card.md").read_text()
    assert check_card(card) == []  # every card a flow test writes is ready to publish
    assert all(f"| `{key}` |" in card for key in manifest["floors"]["baselines"])
    assert f"{len(passed)} of {len(rows)}" in card and family.follows in card
    return manifest["floors"]
