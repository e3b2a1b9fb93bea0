"""Floors: what a trivial answer scores on a benchmark, by the family's own checker.

A family declares its trivial baselines (`Family.baselines`, built from `eval.baselines`). At
generate time every baseline's replies are judged by `Family.check` and counted by the family's
report (`Report.numbers`), so a floor is the number a report would show for that baseline, and
every row a baseline passes is counted: a benchmark a trivial answer passes is never written
without saying how much of it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ifforge.families.base import Family, Reply

Row = dict[str, Any]


class Columns:
    """Verdict lines kept column by column (a 10,000-seed benchmark has hundreds of thousands of
    lines per baseline: a list per column holds them in a few bytes each, where dicts would not)."""

    def __init__(self):
        self.columns: dict[str, list] = {}
        self.length = 0

    def add(self, line: Row) -> None:
        for key, value in line.items():
            self.columns.setdefault(key, [None] * self.length).append(value)
        self.length += 1
        for values in self.columns.values():
            if len(values) < self.length:
                values.append(None)


def _rounded(scores: dict[str, float]) -> dict[str, float]:
    return {key: round(value, 4) for key, value in scores.items()}


def floors(family: Family, rows: Iterable[Row], options: Any = None) -> dict[str, Any]:
    """Each baseline's scores (named as the family's report names them) and the rows it passes;
    `trivially_passed`: the rows some baseline passes, with the baselines that pass each.
    `options`: an evaluation's (the family's typed options), so a report's floors are judged by the
    rules its model was; None: what each row carries, as the card's floors are.

    `rows` may be a file read again at each pass (a 10,000-seed benchmark's rows are gigabytes as
    Python objects): each baseline's `fit` reads it once, then one pass scores every baseline."""
    baselines = [kind() for kind in family.baselines.values()]
    for baseline in baselines:
        baseline.fit(rows)
    lines = {baseline.id: Columns() for baseline in baselines}
    passed = {baseline.id: 0 for baseline in baselines}
    passed_by: dict[str, list[str]] = {}
    passed_groups: list[Row] = []  # of each passed row, only what it is counted by
    fields = group_fields(family)
    count = 0
    for row in rows:
        count += 1
        turns = family.request(row).turns
        for baseline in baselines:
            verdict = family.check(row, Reply.of(baseline.replies(row, turns)), options)
            for line in verdict.lines:
                lines[baseline.id].add(line)
            if verdict.correct:
                passed[baseline.id] += 1
                passed_by.setdefault(family.row_id(row), []).append(baseline.id)
        if family.row_id(row) in passed_by:
            passed_groups.append({field: row[field] for field in fields if field in row})
    result: dict[str, Any] = {"rows": count, "baselines": {}}
    for baseline in baselines:
        numbers = family.report.numbers(family.report.frame(lines.pop(baseline.id).columns))
        result["baselines"][baseline.id] = {"description": baseline.description, "scores": _rounded(numbers),
                                            "rows_passed": passed[baseline.id]}
    result["trivially_passed"] = {"rows": len(passed_by), "share": round(len(passed_by) / count, 4) if count else 0.0,
                                  "by_group": counts_by_group(family, passed_groups),
                                  "by_row": dict(sorted(passed_by.items()))}
    return result


def beside_a_report(family: Family, rows: list[Row], options: Any = None) -> dict[str, Any]:
    """The floors a report shows beside its model's score: every baseline judged on the rows the
    model was asked, without the list of rows passed (that is the card's `floors.json`)."""
    found = floors(family, rows, options)
    passed = found["trivially_passed"]
    return {"rows": found["rows"], "baselines": found["baselines"],
            "trivially_passed": {"rows": passed["rows"], "share": passed["share"]}}


def group_fields(family: Family) -> tuple[str, ...]:
    """The fields rows are counted by: the family's tiers and categories, then its report's groups."""
    return tuple(dict.fromkeys((*family.counted_by, *family.report.groups)))


def counts_by_group(family: Family, rows: Iterable[Row]) -> dict[str, dict[str, int]]:
    """Rows per value of each group field the rows carry (one pass over them)."""
    fields = group_fields(family)
    found: dict[str, Counter] = {key: Counter() for key in fields}
    for row in rows:
        for key in fields:
            if row.get(key) is not None:
                found[key][str(row[key])] += 1
    return {key: ordered(family, key, values) for key, values in found.items() if values}


def ordered(family: Family, key: str, values: dict[str, Any]) -> dict[str, Any]:
    """A group's values in the order a reader expects: the family's tiers as it declares them
    (`Family.tier_order`: easy, medium, hard, not alphabetically), any other group by `value_order`."""
    tiers = tuple(family.tier_order) if key == family.tier else ()
    return dict(sorted(values.items(), key=lambda item: value_order(item[0], tiers)))


def value_order(value: str, tiers: tuple[str, ...] = ()) -> tuple:
    """Group values in the order a reader expects: the `tiers` given, in their order; numbers by size
    (3, 5, 10, not 10, 3, 5), then text, with the numbers inside it by size too (L1024 before L16384)."""
    if value in tiers:
        return (-1, float(tiers.index(value)), "")
    try:
        return (0, float(value), "")
    except ValueError:
        return (1, 0.0, [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", value)])


def group_lines(counts: dict[str, dict[str, int]]) -> list[str]:
    return [f"- by {key}: " + ", ".join(f"{value} {n}" for value, n in values.items()) for key, values in counts.items()]




def floors_lines(found: dict[str, Any]) -> list[str]:
    """The floors as a markdown table: one line per baseline, its scores and the rows it passes."""
    baselines = found.get("baselines") or {}
    names = sorted({name for entry in baselines.values() for name in entry["scores"]})
    lines = ["| baseline | what it answers | " + " | ".join(names) + " | rows passed |",
             "|---|---|" + "---|" * len(names) + "---|"]
    for key, entry in baselines.items():
        scores = " | ".join(f"{entry['scores'][name]:.1%}" if name in entry["scores"] else "" for name in names)
        lines.append(f"| `{key}` | {entry['description']} | {scores} | {entry['rows_passed']} of {found['rows']} |")
    passed = found.get("trivially_passed") or {}
    lines += ["", f"Rows some trivial baseline passes: {passed.get('rows', 0)} of {found['rows']} "
                  f"({passed.get('share', 0):.1%}); each is listed in `floors.json`."]
    by_group = group_lines(passed.get("by_group") or {})
    return lines + (["", *by_group] if by_group else [])
