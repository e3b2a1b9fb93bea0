"""How far the reviews go and how far reviewers agree: coverage, and Cohen's kappa per pair."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

from ifforge.review.items import load_items
from ifforge.review.marks import VERDICTS, all_reviews
from ifforge.review.verified import verified_task_ids


def cohen_kappa(a: list[str], b: list[str]) -> tuple[float, float, bool]:
    """(observed agreement, kappa, degenerate). Degenerate: chance agreement is 1, kappa undefined."""
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b)) / n
    count_a, count_b = Counter(a), Counter(b)
    expected = sum(count_a[label] * count_b[label] for label in VERDICTS) / (n * n)
    if expected >= 1:
        return observed, (1.0 if observed == 1 else 0.0), True
    return observed, (observed - expected) / (1 - expected), False


def review_stats(version: Path) -> dict[str, Any]:
    """Coverage and inter-reviewer agreement: how much was checked, and how far reviewers can be trusted."""
    tasks = [item["task_id"] for item in load_items(version)]
    known = set(tasks)
    reviews = {name: {task: record for task, record in marks.items() if task in known}
               for name, marks in all_reviews(version).items()}
    per_task = Counter(task for marks in reviews.values() for task in marks)
    n = len(tasks)
    reviewers = {
        name: {"reviewed": len(marks),
               **{verdict: sum(r["verdict"] == verdict for r in marks.values()) for verdict in VERDICTS}}
        for name, marks in reviews.items()}
    pairs = []
    for first, second in combinations(sorted(reviews), 2):
        shared = [task for task in tasks if task in reviews[first] and task in reviews[second]]
        pair: dict[str, Any] = {"reviewers": [first, second], "shared": len(shared),
                                "agreement": None, "kappa": None, "kappa_degenerate": False}
        if shared:
            observed, kappa, degenerate = cohen_kappa([reviews[first][t]["verdict"] for t in shared],
                                                      [reviews[second][t]["verdict"] for t in shared])
            pair.update(agreement=observed, kappa=kappa, kappa_degenerate=degenerate)
            if degenerate:
                pair["kappa_note"] = ("expected agreement is 1 (both gave one and the same verdict "
                                      "throughout): kappa is undefined, set to 1.0 if they agree, else 0.0")
        pairs.append(pair)
    at_least = {k: sum(count >= k for count in per_task.values()) for k in (1, 2)}
    return {
        "tasks": n,
        "reviewers": reviewers,
        "coverage": {
            "reviewed_once": at_least[1], "reviewed_twice": at_least[2],
            "at_least_one": at_least[1] / n if n else 0.0,
            "at_least_two": at_least[2] / n if n else 0.0,
        },
        "pairs": pairs,
        "verified": len(verified_task_ids(version)),
    }


def format_stats(stats: dict[str, Any]) -> str:
    """Plain-text tables of `review_stats` for the terminal."""
    coverage = stats["coverage"]
    lines = [f"tasks: {stats['tasks']}   verified (all reviewers: faithful): {stats['verified']}",
             (f"coverage: >=1 review {coverage['reviewed_once']} ({coverage['at_least_one']:.0%}),  "
              f">=2 reviews {coverage['reviewed_twice']} ({coverage['at_least_two']:.0%})"), ""]
    if not stats["reviewers"]:
        return "\n".join(lines + ["no reviews yet"])
    width = max(8, *(len(name) for name in stats["reviewers"]))
    lines.append(f"{'reviewer':<{width}}  {'reviewed':>8}  {'faithful':>8}  {'not faithful':>12}")
    for name, counts in stats["reviewers"].items():
        lines.append(f"{name:<{width}}  {counts['reviewed']:>8}  {counts['faithful']:>8}  "
                     f"{counts['not_faithful']:>12}")
    if stats["pairs"]:
        pair_width = max(4, *(len(" / ".join(p["reviewers"])) for p in stats["pairs"]))
        lines += ["", f"{'pair':<{pair_width}}  {'shared':>6}  {'agreement':>9}  {'kappa':>6}"]
        for pair in stats["pairs"]:
            agreement = "-" if pair["agreement"] is None else f"{pair['agreement']:.0%}"
            kappa = "-" if pair["kappa"] is None else f"{pair['kappa']:.2f}"
            mark = " *" if pair["kappa_degenerate"] else ""
            lines.append(f"{' / '.join(pair['reviewers']):<{pair_width}}  {pair['shared']:>6}  "
                         f"{agreement:>9}  {kappa:>6}{mark}")
        if any(p["kappa_degenerate"] for p in stats["pairs"]):
            lines.append("* expected agreement is 1 (one verdict throughout): kappa undefined, set by convention")
    return "\n".join(lines)
