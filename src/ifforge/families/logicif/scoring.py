"""LogicIF's verdicts: each case's output and trackers judged by LogicIFEval's rules (`verdicts`),
and, on request, an LLM that finds answers the rules missed and labels why formatted answers
failed. The numbers and the report are `report`'s.

`ifforge score` judges replies produced elsewhere the same way: LogicIF's result files
(`task_id, test_case_id, code_output` with the raw `llm_response`, or with `llm_output`, LogicIF's
extracted answer, judged as it is) or ours (`response`).
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any, Literal

import pandas as pd
from pydantic import BaseModel, Field

from ifforge.core.llm.client import LLM, LLMError
from ifforge.core.prompts import load_prompt
from ifforge.core.store.versions import atomic_write
from ifforge.eval.asking import Asker
from ifforge.families.base import Reply
from ifforge.families.base import Verdict as CaseVerdict
from ifforge.families.logicif.verdicts import Verdict, judge, judge_answer

FAILURE_MODES = ("control_flow_misexecution", "state_tracking_error", "missing_logic_element",
                 "misordered_execution", "instruction_misinterpretation")
Row = dict[str, Any]


def by_key(rows: list[Row]) -> dict[tuple, Row]:
    """The benchmark's rows by case: (task, case, expression)."""
    return {(r["task_id"], r["test_case_id"], r.get("expression_id")): r for r in rows}


def response_text(result: Row) -> str | None:
    """The raw reply: ours (`response`) or LogicIF's (`llm_response`)."""
    return result["response"] if "response" in result else result.get("llm_response")


def request_failed(result: Row) -> bool:
    if "request_failed" in result:
        return bool(result["request_failed"])
    return response_text(result) is None and bool(result.get("error"))


def given_answer(given: Row, rules: str = "ifforge") -> Row | None:
    """LogicIF's extracted `llm_output` as its `compare_outputs` reads it: a missing `output` is
    null and missing `stats` are `{}`, so a correct output still counts when the extractor lost the
    trackers. A failed extraction (`success: false`) is no answer here; `paper` compares it too
    (its null output then matches a gold null)."""
    if rules != "paper" and not given.get("success", True):
        return None
    return {"output": given.get("output"), "stats": given.get("stats", {})}


def verdict_of(row: Row, result: Row, strict_types: bool = False, rules: str = "ifforge"):
    """A case's verdict: none for a reply that could not be read or is not there (`ifforge score`);
    else LogicIF's own extracted `llm_output` as it is, an LLM's extraction we asked for, else the
    rules (last JSON object, then LogicIF's labelled format). A gold without `output` or `stats` is
    read as LogicIF's `compare_outputs` reads it: null, and `{}`."""
    if result.get("unreadable"):
        return Verdict(False, False, False, "unreadable", reason=result["unreadable"])
    if result.get("no_reply"):
        return Verdict(False, False, False, "no reply", reason="no reply in the replies file")
    gold = row["code_output"]
    output, stats = gold.get("output"), gold.get("stats", {})
    given = result.get("llm_output")
    if isinstance(given, dict) and "response" not in result:
        return judge_answer(output, stats, given_answer(given, rules), "given", strict_types)
    verdict = judge(output, stats, response_text(result), strict_types)
    if not verdict.formatted and isinstance(result.get("extracted"), dict):
        return judge_answer(output, stats, result["extracted"], "llm", strict_types)
    return verdict


def case_verdict(row: Row, reply: Reply, strict_types: bool = False, rules: str = "ifforge") -> CaseVerdict:
    """One case's verdict line: output, trackers, both, whether an answer was found and how; the
    task's difficulty and complexity where the row has them."""
    result = reply.fields
    verdict = verdict_of(row, result, strict_types, rules)
    failed = request_failed(result)
    line = {"task_id": row["task_id"], "test_case_id": row["test_case_id"],
            "formatted": verdict.formatted and not failed, "output_ok": verdict.output_ok and not failed,
            "stats_ok": verdict.stats_ok and not failed, "both_ok": verdict.both_ok and not failed,
            "request_failed": failed, "extracted_by": "failed" if failed else verdict.extracted_by}
    if (verdict.reason or result.get("empty_reply")) and not failed:  # no answer read, and why
        line["unread"] = verdict.reason or str(result["empty_reply"])  # a bound met, or an empty reply
    if rules == "paper":
        line["rules"] = "paper"
    if row.get("expression_id") is not None:
        line["expression_id"] = str(row["expression_id"])
    if row.get("difficulty"):
        line["difficulty"] = row["difficulty"]
    metrics = row.get("complexity_metrics") or {}
    score = metrics.get("code_complexity_score", row.get("complexity_score"))
    if isinstance(score, (int, float)) and not isinstance(score, bool):
        line["code_complexity_score"] = score
    return CaseVerdict(line["both_ok"], (line,))


def reader(asker: Asker, model: str | None, max_tokens: int) -> LLM:
    """A model that reads replies (the extractor, the error analyst): temperature 0, JSON answers,
    asked through the run's hub and cached like every request."""
    return asker.llm(model, temperature=0.0, max_tokens=max_tokens)


class ExtractedAnswer(BaseModel):
    found: bool
    output: Any = None
    stats: dict[str, Any] = Field(default_factory=dict)


def extract_with_llm(results: list[Row], settings, asker: Asker, rows_by_key: dict[tuple, Row] | None = None) -> int:
    """LogicIF's way: an LLM reads the replies the rules found no answer in and copies the answer out.
    Sets `extracted` on those results (cached like every request); returns how many it found."""
    todo = [r for r in results if not request_failed(r) and response_text(r)
            and not verdict_of(r, r, settings.options.strict_types).formatted]
    if not todo:
        return 0
    prompt = load_prompt("extract_answer")

    async def one(llm: LLM, result: Row) -> bool:
        row = (rows_by_key or {}).get((result["task_id"], result["test_case_id"], result.get("expression_id")), result)
        keys = row.get("stats_keys") or sorted((result["code_output"].get("stats") or {}))
        messages = [{"role": "user", "content": prompt.render(stats_keys=", ".join(keys),
                                                              response=response_text(result)[-20_000:])}]
        try:
            answer, _ = await llm.chat_json(messages, ExtractedAnswer, stage="extract",
                                            prompt_versions={"extract_answer": prompt.hash})
        except LLMError as error:
            result["extraction_error"] = str(error)[:300]
            return False
        if answer.found:
            result["extracted"] = {"output": answer.output, "stats": answer.stats}
        return answer.found

    llm = reader(asker, settings.options.extractor_model, 4096)

    async def every() -> int:
        return sum(await asyncio.gather(*(one(llm, r) for r in todo)))

    return asker.run(every)


class ErrorLabel(BaseModel):
    mode: Literal[FAILURE_MODES]  # type: ignore[valid-type]
    explanation: str = ""


def analyze_errors(results: list[Row], scores: pd.DataFrame, rows_by_key: dict, settings, asker: Asker) -> list[Row]:
    """An LLM labels each failed (but formatted) case with one of the paper's five failure modes."""
    prompt = load_prompt("analyze_error")
    failed = scores[scores["formatted"] & ~scores["both_ok"]]
    by_case = {(r["task_id"], r["test_case_id"], r.get("expression_id")): r for r in results}

    async def one(llm: LLM, task_id, case_id, expression):
        result = by_case[(task_id, case_id, expression)]
        row = rows_by_key.get((task_id, case_id, expression), {})
        messages = [{"role": "user", "content": prompt.render(
            instruction=row.get("instruction", "(not available)"), gold=json.dumps(result["code_output"]),
            response=result["response"])}]
        try:
            label, _ = await llm.chat_json(messages, ErrorLabel, stage="analyze_errors",
                                           prompt_versions={"analyze_error": prompt.hash})
            return {"task_id": task_id, "test_case_id": case_id, "mode": label.mode, "explanation": label.explanation}
        except LLMError as error:
            return {"task_id": task_id, "test_case_id": case_id, "mode": "unlabelled", "explanation": str(error)}

    expressions = failed["expression_id"] if "expression_id" in failed else [None] * len(failed)
    llm = reader(asker, settings.options.analyzer_model, 2048)

    async def every() -> list[Row]:
        return list(await asyncio.gather(*(one(llm, t, c, e) for t, c, e in zip(
            failed["task_id"], failed["test_case_id"], expressions))))

    return asker.run(every)


def refine(results: list[Row], rows: list[Row], settings, asker: Asker) -> None:
    """With `--extractor llm`, an LLM reads the replies the rules found no answer in."""
    if settings.options.extractor == "llm":
        extract_with_llm(results, settings, asker, by_key(rows))


def annotate(results: list[Row], frame: pd.DataFrame, rows: list[Row], settings, asker: Asker | None,
             folder: Path) -> Row:
    """The failure modes of the formatted wrong answers, when asked for (`failure_modes.jsonl`)."""
    if not settings.options.analyze_errors or asker is None:
        return {"failure_modes": {}}
    labels = analyze_errors(results, frame, by_key(rows), settings, asker)
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(folder / "failure_modes.jsonl", "".join(json.dumps(label) + "\n" for label in labels))
    return {"failure_modes": dict(Counter(label["mode"] for label in labels))}
