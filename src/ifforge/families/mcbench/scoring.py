"""MCBench's verdicts and numbers: one prompt a row, and its scores, as the paper defines them,
with our tolerances written down:

- FA, final accuracy: the `[Final]` value is a number within 5% of the gold, relative:
  |got - gold| <= 0.05 |gold|, as the paper says; so when the gold is 0 the value must be 0 (both
  below 1e-9 in size, floating-point noise): 0.0005 against a gold of 0 is a wrong answer;
- FF, format following: the reply includes `[Final]` (the paper's rule), anywhere on a line;
- FD, following depth: the share of steps whose value matches the reference code's. A whole
  number must be equal; any other number within 1% relative or 0.001 absolute (so rounding to 4
  decimals always passes); strings exactly; lists element by element (a step marked as a set in
  any order); objects key by key; null (minus infinity) only null.

Overall and per metric, variant and category, with 95% Wilson intervals (FD's pools steps, which
within a row are not independent: read its interval as a lower bound on the uncertainty).
Requests that failed are not answers: they are counted apart and left out of every score.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ifforge.eval.intervals import share, shown
from ifforge.eval.report import Report
from ifforge.families.base import Reply
from ifforge.families.base import Verdict as RowVerdict
from ifforge.families.mcbench.answers import UNREAD, parse_reply, read_value

GROUPS = ("metric", "variant", "category")
FINAL_RELATIVE = 0.05
ZERO = 1e-9  # a gold (and a value) this close to 0 is 0: floating-point noise, not a result
STEP_RELATIVE = 0.01
STEP_ABSOLUTE = 1e-3


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def final_matches(got: Any, gold: float) -> bool:
    if not _number(got):
        return False
    if abs(gold) < ZERO:
        return abs(got) < ZERO
    return abs(got - gold) <= FINAL_RELATIVE * abs(gold)


def step_matches(got: Any, gold: Any, unordered: bool = False) -> bool:
    if got is UNREAD:
        return False
    if gold is None:
        return got is None
    if isinstance(gold, bool):
        return got is gold
    if isinstance(gold, int):
        return _number(got) and got == gold
    if isinstance(gold, float):
        return _number(got) and abs(got - gold) <= max(STEP_RELATIVE * abs(gold), STEP_ABSOLUTE)
    if isinstance(gold, str):
        return got == gold
    if isinstance(gold, list):
        if not isinstance(got, list) or len(got) != len(gold):
            return False
        if unordered:
            key = lambda v: json.dumps(v, ensure_ascii=False, sort_keys=True)  # noqa: E731
            got, gold = sorted(got, key=key), sorted(gold, key=key)
        return all(step_matches(g, e) for g, e in zip(got, gold))
    if isinstance(gold, dict):
        return isinstance(got, dict) and set(got) == set(gold) and all(step_matches(got[k], v) for k, v in gold.items())
    return False


@dataclass(frozen=True)
class Verdict:
    fa: bool
    ff: bool
    block: bool
    steps_right: int
    steps: int
    final: Any

    @property
    def fd(self) -> float:
        return self.steps_right / self.steps if self.steps else 0.0


def judge(row: dict[str, Any], text: str | None) -> Verdict:
    """One row's verdict on one reply."""
    reply = parse_reply(text)
    unordered = set(row.get("unordered_steps", []))
    right = sum(step_matches(read_value(reply.steps.get(k)), gold, k in unordered)
                for k, gold in enumerate(row["gold_steps"], 1))
    final = read_value(reply.final)
    return Verdict(fa=final_matches(final, row["gold_final"]), ff=reply.final_given, block=reply.block,
                   steps_right=right, steps=len(row["gold_steps"]), final=None if final is UNREAD else final)


def verdict(row: dict[str, Any], reply: Reply) -> RowVerdict:
    """One row's verdict line: FA, FF, the results block, the steps right, the final value read."""
    failed = reply.failed
    found = judge(row, None if failed else reply.text)
    line = {"task_id": row["task_id"], **{key: row.get(key) for key in GROUPS},
            "request_failed": failed, "fa": found.fa and not failed, "ff": found.ff and not failed,
            "block": found.block and not failed, "steps_right": 0 if failed else found.steps_right,
            "steps": found.steps, "final": json.dumps(found.final)}
    return RowVerdict(line["fa"], (line,))


class McbenchReport(Report):
    name = "MCBench"
    groups = GROUPS
    metrics = {"final_accuracy": "final_accuracy", "format_following": "format_following",
               "following_depth": "following_depth"}
    empty = {"rows": 0, "steps": 0}
    columns = ("group", "rows", "FA (final accuracy)", "FF (format following)", "FD (following depth, steps)",
               "results block written (`### Final Results ###`)", "failed requests")
    headline_shares = (("FA (final accuracy)", "final_accuracy"), ("FF (format following)", "format_following"),
                       ("FD (following depth)", "following_depth"))
    titles = {"metric": "By metric", "variant": "By variant", "category": "By category"}

    def scores(self, part: pd.DataFrame) -> dict[str, Any]:
        answered = part[~part["request_failed"]]
        rows = len(answered)
        steps = int(answered["steps"].sum())
        out: dict[str, Any] = {"rows": rows, "steps": steps, "request_failures": int(part["request_failed"].sum())}
        for name, hits, total in (("final_accuracy", int(answered["fa"].sum()), rows),
                                  ("format_following", int(answered["ff"].sum()), rows),
                                  ("following_depth", int(answered["steps_right"].sum()), steps),
                                  ("final_results_block", int(answered["block"].sum()), rows)):
            out |= share(name, hits, total)
        return out

    def line(self, label: str, row: dict[str, Any]) -> str:
        if not row.get("rows"):
            return f"| {label} | 0 | | | | | {row.get('request_failures', 0)} |"
        cells = [shown(*row[f"{score}_counts"]) for score in ("final_accuracy", "format_following", "following_depth",
                                                               "final_results_block")]
        return f"| {label} | {row['rows']} | {' | '.join(cells)} | {row['request_failures']} |"

    def notes(self, summary: dict[str, Any]) -> list[str]:
        return [f"FA: the `[Final]` value within {FINAL_RELATIVE:.0%} of the gold, relative (0 when the gold is 0). "
                f"FF: the reply includes `[Final]`. FD: steps whose value matches the reference "
                f"code's (whole numbers exactly, other numbers within {STEP_RELATIVE:.0%} or {STEP_ABSOLUTE:g}), "
                "pooled over rows (steps of one row are not independent: read FD's interval as a lower bound on its "
                "uncertainty). Failed requests are not answers and are left out of every score."]


REPORT = McbenchReport()
