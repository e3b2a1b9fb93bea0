"""PACIFIC's verdicts and numbers: every step of a chain judged (one verdict line per step), and
the scores: every step right (prompt level), the share of steps right (instruction level), step
accuracy given the previous step was right, and error classes (missing, wrong type, wrong value);
overall and by chain length, output length, mode, form and code language, with 95% Wilson
intervals. Requests that failed are not answers: they are counted apart and left out of every accuracy.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ifforge.eval.intervals import share, shown
from ifforge.eval.plots import Plot
from ifforge.eval.report import Report
from ifforge.families.base import Reply, Verdict
from ifforge.families.pacific.answers import coerce, parse_answers, parse_chat

GROUPS = ("chain_length", "output_length", "mode", "form", "language")  # language: code-form rows only
STATUSES = ("missing", "wrong_type", "wrong_value")


@dataclass(frozen=True)
class StepVerdict:
    step: int
    status: str  # right, missing, wrong_type, wrong_value
    got: Any
    gold: Any


def judge_sample(gold: list[Any], answers: dict[int, str]) -> list[StepVerdict]:
    verdicts = []
    for step, expected in enumerate(gold, 1):
        if step not in answers:
            verdicts.append(StepVerdict(step, "missing", None, expected))
            continue
        value, problem = coerce(answers[step], "str" if isinstance(expected, str) else "int")
        if problem:
            verdicts.append(StepVerdict(step, "wrong_type", answers[step], expected))
        else:
            verdicts.append(StepVerdict(step, "right" if value == expected else "wrong_value", value, expected))
    return verdicts


def judge(row: dict[str, Any], reply: Reply) -> Verdict:
    """Every step of the chain against its gold: one line per step, the previous step's result beside it."""
    failed = reply.failed
    if failed:
        answers: dict[int, str] = {}
    elif row.get("mode") == "chat":
        answers = parse_chat(reply.texts)
    else:
        answers = parse_answers(reply.text)
    lines, previous = [], None
    for verdict in judge_sample(row["gold"], answers):
        right = verdict.status == "right" and not failed
        lines.append({"task_id": row["task_id"], "step": verdict.step, **{key: row.get(key) for key in GROUPS},
                      "status": "request_failed" if failed else verdict.status, "right": right,
                      "previous_right": previous, "request_failed": failed,
                      "got": json.dumps(verdict.got, ensure_ascii=False)})
        previous = right
    return Verdict(all(line["right"] for line in lines), tuple(lines))


class PacificReport(Report):
    name = "PACIFIC"
    groups = GROUPS
    metrics = {"prompt_accuracy": "prompt_accuracy", "instruction_accuracy": "instruction_accuracy"}
    empty = {"samples": 0, "steps": 0}
    columns = ("group", "samples", "prompt-level", "instruction-level", "given previous right", "missing", "wrong type",
               "wrong value", "failed requests")
    headline_shares = (("prompt-level accuracy", "prompt_accuracy"), ("instruction-level", "instruction_accuracy"))
    titles = {"chain_length": "By chain length (instructions)", "output_length": "By output length",
              "mode": "By mode", "form": "By form", "language": "By code language (code-form rows)"}
    drawn = tuple(Plot(group, "prompt_accuracy", label) for group, label in (
        ("chain_length", "chain length (instructions)"), ("output_length", "output length"),
        ("language", "code language")))

    def scores(self, part: pd.DataFrame) -> dict[str, Any]:
        answered = part[~part["request_failed"]]
        samples = answered.groupby("task_id")["right"].all()
        conditional = answered[answered["previous_right"].fillna(False).astype(bool)]
        row: dict[str, Any] = {"samples": int(len(samples)), "steps": int(len(answered)),
                               "request_failures": int(part[part["request_failed"]]["task_id"].nunique())}
        for name, hits, total in (("prompt_accuracy", int(samples.sum()), len(samples)),
                                  ("instruction_accuracy", int(answered["right"].sum()), len(answered)),
                                  ("conditional_accuracy", int(conditional["right"].sum()), len(conditional))):
            row |= share(name, hits, total)
        for status in STATUSES:
            row[status] = int((answered["status"] == status).sum())
        return row

    def line(self, label: str, row: dict[str, Any]) -> str:
        if not row.get("samples") and not row.get("request_failures"):
            return f"| {label} | 0 | | | | | | | |"
        return (f"| {label} | {row['samples']} | {shown(*row['prompt_accuracy_counts'])} "
                f"| {shown(*row['instruction_accuracy_counts'])} | {shown(*row['conditional_accuracy_counts'])} "
                f"| {row['missing']} | {row['wrong_type']} | {row['wrong_value']} | {row['request_failures']} |")

    def notes(self, summary: dict[str, Any]) -> list[str]:
        return ["Prompt level: every step of a sample right. Instruction level: share of steps right (steps of one "
                "sample are not independent: read its interval as a lower bound on the uncertainty). "
                "Given previous right: the share of steps right among those whose previous step was right. "
                "Failed requests are not answers and are left out of every accuracy."]


REPORT = PacificReport()
