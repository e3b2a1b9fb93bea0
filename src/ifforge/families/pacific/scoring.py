"""PACIFIC's part of the one evaluate (`eval.template`): its chains asked, its steps judged, and its
scores: every step right (prompt level), the share of steps right (instruction level), step
accuracy given the previous step was right, and error classes (missing, wrong type, wrong value);
overall and by chain length, output length, mode, form and code language, with 95% Wilson
intervals. Requests that failed are not answers: they are counted apart and left out of every accuracy.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ifforge.eval.asking import ask_prompt, usage
from ifforge.eval.intervals import wilson
from ifforge.eval.template import Scorer
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


def score_frame(results: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per step of every sample."""
    records = []
    for result in results:
        failed = bool(result.get("request_failed"))
        if result.get("mode") == "chat":
            answers = parse_chat(result.get("responses") or [])
        else:
            answers = parse_answers(result.get("response"))
        previous = None
        for verdict in judge_sample(result["gold"], answers):
            right = verdict.status == "right" and not failed
            records.append({"task_id": result["task_id"], "step": verdict.step,
                            **{key: result.get(key) for key in GROUPS},
                            "status": "request_failed" if failed else verdict.status, "right": right,
                            "previous_right": previous, "request_failed": failed,
                            "got": json.dumps(verdict.got, ensure_ascii=False)})
            previous = right
    return pd.DataFrame(records)


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


class PacificScorer(Scorer):
    """In chat mode every instruction is its own user turn, and the model's own reply goes back into
    the conversation before the next one, as a user of a chat model would see it; each request is
    cached on its own."""

    name = "PACIFIC"
    carried = ("task_id", "mode", "form", "chain_length", "output_length", "gold",
               "language")  # language: absent from rows written before code came in three languages
    answers = ("response", "responses")  # a prompt's reply, a chat's replies
    groups = GROUPS
    empty = {"samples": 0, "steps": 0}
    columns = ("group", "samples", "prompt-level", "instruction-level", "given previous right", "missing", "wrong type",
               "wrong value", "failed requests")
    headline_shares = (("prompt-level accuracy", "prompt_accuracy"), ("instruction-level", "instruction_accuracy"))

    async def ask(self, llm, row: dict[str, Any], settings) -> dict[str, Any]:
        if row["mode"] == "chat":
            replies = await llm.converse([m["content"] for m in row["messages"]], stage="evaluate",
                                         system=settings.system_prompt)
            return {"responses": [reply.text for reply in replies], **usage(*replies)}
        return await ask_prompt(llm, row, settings.system_prompt)

    def frame(self, results: list[dict[str, Any]], rows: list[dict[str, Any]], settings) -> pd.DataFrame:
        return score_frame(results)

    def scores(self, part: pd.DataFrame) -> dict[str, Any]:
        answered = part[~part["request_failed"]]
        samples = answered.groupby("task_id")["right"].all()
        conditional = answered[answered["previous_right"].fillna(False).astype(bool)]
        row: dict[str, Any] = {"samples": int(len(samples)), "steps": int(len(answered)),
                               "request_failures": int(part[part["request_failed"]]["task_id"].nunique())}
        for name, hits, total in (("prompt_accuracy", int(samples.sum()), len(samples)),
                                  ("instruction_accuracy", int(answered["right"].sum()), len(answered)),
                                  ("conditional_accuracy", int(conditional["right"].sum()), len(conditional))):
            row[name] = round(hits / total, 4) if total else None
            row[f"{name}_ci95"] = wilson(hits, total)
        for status in STATUSES:
            row[status] = int((answered["status"] == status).sum())
        return row

    def line(self, label: str, row: dict[str, Any]) -> str:
        if not row.get("samples") and not row.get("request_failures"):
            return f"| {label} | 0 | | | | | | | |"
        return (f"| {label} | {row['samples']} | {_percent(row['prompt_accuracy'])} {row['prompt_accuracy_ci95']} "
                f"| {_percent(row['instruction_accuracy'])} | {_percent(row['conditional_accuracy'])} "
                f"| {row['missing']} | {row['wrong_type']} | {row['wrong_value']} | {row['request_failures']} |")

    def notes(self, summary: dict[str, Any]) -> list[str]:
        return ["Prompt level: every step of a sample right. Instruction level: share of steps right. "
                "Intervals: 95% Wilson. Failed requests are not answers and are left out of every accuracy."]


SCORER = PacificScorer()
summarise = SCORER.summarise
write_report = SCORER.write_report
