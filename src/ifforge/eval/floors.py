"""Floors: what a trivial answer scores on a benchmark, by the family's own checker.

A family declares its trivial baselines (`families/<family>/baselines.py`, `BASELINES`: one small
class per baseline, as IFEval declares one class per rule). Each writes a reply to every row
without reading the gold of that row (it may read the row's input, and the gold of all rows
together, as "the most frequent gold" does). At generate time every baseline's replies are scored
with `Family.check` and `Family.aggregate`, so a floor is the number a report would show for that
baseline, and every row a baseline passes is counted: a benchmark a trivial answer passes is
never written without saying how much of it.
"""

from __future__ import annotations

import importlib
import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

Row = dict[str, Any]
SIZE_FIELDS = ("difficulty", "category", "scenario", "task", "rule_id", "metric")  # tiers and categories, where rows have them


class Baseline:
    """A trivial answerer. `fit` sees every row once (for baselines built from all the gold, such as
    the most frequent one); `replies` answers one row, one reply per user turn."""

    id: str = ""
    description: str = ""

    def fit(self, rows: list[Row]) -> None:
        """Learn from all rows at once (default: nothing)."""

    def replies(self, row: Row, turns: list[str]) -> list:
        raise NotImplementedError


class Empty(Baseline):
    id = "empty"
    description = "an empty reply to every turn"

    def replies(self, row: Row, turns: list[str]) -> list:
        return ["" for _ in turns]


class EchoTurns(Baseline):
    id = "echo"
    description = "each user turn repeated back as the reply"

    def replies(self, row: Row, turns: list[str]) -> list:
        return list(turns)


class Tally:
    """Values counted one at a time (compared as JSON), for a fit that reads the rows once."""

    def __init__(self):
        self.counts: Counter[str] = Counter()

    def add(self, value: Any) -> None:
        self.counts[json.dumps(value, sort_keys=True, ensure_ascii=False)] += 1

    def most_frequent(self) -> Any:
        """The most frequent value (the first seen wins a tie), or None."""
        return json.loads(self.counts.most_common(1)[0][0]) if self.counts else None


def most_frequent(values) -> Any:
    """The most frequent value (compared as JSON; the first seen wins a tie), or None."""
    tally = Tally()
    for value in values:
        tally.add(value)
    return tally.most_frequent()


def baselines_of(family) -> list[Baseline]:
    """A fresh instance of each of the family's baselines (`<family package>.baselines.BASELINES`)."""
    package = type(family).__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.baselines")
    except ModuleNotFoundError:
        return [Empty()]
    return [kind() for kind in module.BASELINES.values()]


def _rounded(scores: dict[str, float]) -> dict[str, float]:
    return {key: round(value, 4) for key, value in scores.items()}


def floors(family, rows: Iterable[Row]) -> dict[str, Any]:
    """Each baseline's scores (named as the family's report names them) and the rows it passes;
    `trivially_passed`: the rows some baseline passes, with the baselines that pass each.

    `rows` may be a file read again at each pass (a 10,000-seed benchmark's rows are gigabytes as
    Python objects): each baseline's `fit` reads it once, then one pass scores every baseline."""
    from ifforge.exports.benchmark import task_key

    baselines = baselines_of(family)
    for baseline in baselines:
        baseline.fit(rows)
    verdicts: dict[str, list[tuple[str, dict]]] = {baseline.id: [] for baseline in baselines}
    passed_by: dict[str, list[str]] = {}
    passed_groups: list[Row] = []  # of each passed row, only what it is counted by
    fields = group_fields(family)
    same: dict[Any, Any] = {}  # equal keys and verdicts (types too: 1 is not True) held once: they add up
    count = 0
    for row in rows:
        count += 1
        key = task_key(row)
        key = same.setdefault(key, key)
        turns = family.turns(row)
        for baseline in baselines:
            verdict = family.check(row, baseline.replies(row, turns))
            try:
                verdict = same.setdefault(tuple((name, type(value), value) for name, value in verdict.items()), verdict)
            except TypeError:  # a verdict holding a list or a dict is kept as it is
                pass
            verdicts[baseline.id].append((key, verdict))
            if verdict.get("correct"):
                passed_by.setdefault(row_name(row), []).append(baseline.id)
        if row_name(row) in passed_by:
            passed_groups.append({field: row[field] for field in fields if field in row})
    result: dict[str, Any] = {"rows": count, "baselines": {}}
    for baseline in baselines:
        given = verdicts[baseline.id]
        result["baselines"][baseline.id] = {"description": baseline.description,
                                            "scores": _rounded(family.aggregate(given)),
                                            "rows_passed": sum(bool(v.get("correct")) for _, v in given)}
    result["trivially_passed"] = {"rows": len(passed_by), "share": round(len(passed_by) / count, 4) if count else 0.0,
                                  "by_group": counts_by_group(family, passed_groups),
                                  "by_row": dict(sorted(passed_by.items()))}
    return result


def group_fields(family) -> tuple[str, ...]:
    """The fields rows are counted by: tiers and categories, then the report's groups."""
    return tuple(dict.fromkeys((*SIZE_FIELDS, *family.scorer().groups)))


def counts_by_group(family, rows: Iterable[Row]) -> dict[str, dict[str, int]]:
    """Rows per value of each group field the rows carry (one pass over them)."""
    fields = group_fields(family)
    found: dict[str, Counter] = {key: Counter() for key in fields}
    for row in rows:
        for key in fields:
            if row.get(key) is not None:
                found[key][str(row[key])] += 1
    return {key: dict(sorted(values.items())) for key, values in found.items() if values}


def group_lines(counts: dict[str, dict[str, int]]) -> list[str]:
    return [f"- by {key}: " + ", ".join(f"{value} {n}" for value, n in values.items()) for key, values in counts.items()]


def row_name(row: Row) -> str:
    """What names one row: task, test case and expression where it has them."""
    return "/".join(str(row[key]) for key in ("task_id", "test_case_id", "expression_id") if key in row)


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
