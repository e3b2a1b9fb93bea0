"""Scoring models on a generated benchmark: ask every case, keep every raw response, score, report.

The flow in `flows/evaluate.py` wires these steps; `ifforge score` uses the scoring half alone on
responses produced elsewhere (LogicIF's result format: `task_id, test_case_id, code_output, response`).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from ifforge.core.store import atomic_write, file_hash
from ifforge.core.untrusted import BadValue, parse_json, read_lines
from ifforge.core.llm import LLM, LLMConfig, LLMError, ResponseCache
from ifforge.core.prompts import load_prompt
from ifforge.eval.report import write_report
from ifforge.families.logicif.verdicts import judge

FAILURE_MODES = ("control_flow_misexecution", "state_tracking_error", "missing_logic_element",
                 "misordered_execution", "instruction_misinterpretation")


class EvalSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str
    base_url: str | None = None
    api_key: str | None = Field(None, exclude=True)
    split: Literal["full", "mini"] = "full"
    expressions: str = "original"  # "original", "all" (e0 = original, e1..ek), or comma-separated ids
    temperature: float = 0.0
    max_tokens: int = 16_000
    reasoning_effort: str | None = None
    system_prompt: str | None = None
    strict_types: bool = False
    analyze_errors: bool = False
    analyzer_model: str | None = None
    concurrency: int = 8
    timeout: float = 600.0
    max_retries: int = 5
    requests_per_minute: int | None = None
    tokens_per_minute: int | None = None
    no_cache: bool = False

    def llm_config(self, model: str | None = None, json_mode: str = "none") -> LLMConfig:
        return LLMConfig(model=model or self.model, base_url=self.base_url, api_key=self.api_key,
                         temperature=self.temperature, max_tokens=self.max_tokens,
                         extra_body={"reasoning_effort": self.reasoning_effort} if self.reasoning_effort else {},
                         timeout=self.timeout, max_retries=self.max_retries, concurrency=self.concurrency,
                         requests_per_minute=self.requests_per_minute, tokens_per_minute=self.tokens_per_minute,
                         json_mode=json_mode)


class BenchmarkError(ValueError):
    pass


def locate(benchmark: Path, split: str) -> tuple[Path, Path]:
    """(the rows file, the version folder) from a version folder, a benchmark folder or a .jsonl file."""
    benchmark = Path(benchmark)
    if benchmark.is_file():
        return benchmark, benchmark.parent
    if (benchmark / "LATEST").exists():
        benchmark = benchmark / (benchmark / "LATEST").read_text().strip()
    name = "benchmark_mini.jsonl" if split == "mini" else "benchmark.jsonl"
    if not (benchmark / name).exists():
        raise BenchmarkError(f"{benchmark}: no {name} here (give a version folder, a benchmark folder or a .jsonl)")
    return benchmark / name, benchmark


def benchmark_check(rows_path: Path, version: Path) -> dict[str, Any]:
    """The rows file's SHA-256 against the one its version's manifest recorded at generation:
    `matches_manifest` is None when there is no manifest to compare with (a bare .jsonl)."""
    digest = file_hash(rows_path)
    try:
        recorded = json.loads((Path(version) / "manifest.json").read_text()).get("artifact_sha256", {})
    except (OSError, ValueError):
        recorded = {}
    expected = recorded.get(Path(rows_path).name) if Path(rows_path).parent == Path(version) else None
    return {"file": str(rows_path), "sha256": digest, "manifest_sha256": expected,
            "matches_manifest": None if expected is None else digest == expected}


def read_jsonl(path: Path, required: tuple[str, ...] = ("task_id",)) -> list[dict[str, Any]]:
    """Rows of a JSONL file; a line that is not JSON or lacks a field is named with its number."""
    rows = []
    for number, line in read_lines(path):
        if isinstance(line, BadValue):
            raise BenchmarkError(f"{path}:{number}: {line}")
        if not line.strip():
            continue
        try:
            row = parse_json(line)
        except BadValue as error:
            raise BenchmarkError(f"{path}:{number}: {error}") from None
        if not isinstance(row, dict):
            raise BenchmarkError(f"{path}:{number}: a row must be a JSON object")
        for key in required:
            if key not in row:
                raise BenchmarkError(f"{path}:{number}: missing field {key!r}")
        rows.append(row)
    return rows


LOGICIF_FIELDS = ("task_id", "test_case_id", "code_output")


def family_of(rows: list[dict[str, Any]], path: Path) -> str:
    """The family the rows belong to (LogicIF's own files carry no `family`: they are LogicIF's)."""
    families = {row.get("family", "logicif") for row in rows}
    if len(families) > 1:
        raise BenchmarkError(f"{path}: rows of several families {sorted(families)}; score one family at a time")
    return families.pop() if families else "logicif"


def load_rows(path: Path, expressions: str = "original") -> list[dict[str, Any]]:
    """The cases to ask: the split's rows, or (with expressions) those tasks under each chosen expression."""
    rows = read_jsonl(path)
    if family_of(rows, path) != "logicif":
        if expressions != "original":
            raise BenchmarkError(f"{path}: --expressions applies to LogicIF benchmarks only")
        return rows
    rows = read_jsonl(path, LOGICIF_FIELDS)
    if expressions == "original":
        return rows
    expression_file = Path(path).parent / "benchmark_expressions.jsonl"
    if not expression_file.exists():
        raise BenchmarkError(f"{Path(path).parent}: no benchmark_expressions.jsonl (generate with expressions > 0)")
    tasks = {row["task_id"] for row in rows}
    wanted = None if expressions == "all" else {e.strip() for e in expressions.split(",")}
    chosen = [row for row in read_jsonl(expression_file, LOGICIF_FIELDS)
              if row["task_id"] in tasks and (wanted is None or row["expression_id"] in wanted)]
    if wanted and not chosen:
        raise BenchmarkError(f"{expression_file}: no rows with expression ids {sorted(wanted)}")
    return chosen


def model_folder(version: Path, model: str) -> Path:
    return version / "evals" / re.sub(r"[^A-Za-z0-9._-]+", "_", model)


async def ask_all(rows: list[dict[str, Any]], settings: EvalSettings, cache_path: Path | None,
                  on_done=None) -> list[dict[str, Any]]:
    """One response per row, in row order; cached by request, so a resumed run asks nothing twice."""
    cache = None if settings.no_cache or cache_path is None else ResponseCache(cache_path)
    llm = LLM(settings.llm_config(), cache)

    async def one(row: dict[str, Any]) -> dict[str, Any]:
        messages = ([{"role": "system", "content": settings.system_prompt}] if settings.system_prompt else [])
        messages.append({"role": "user", "content": row["instruction"]})
        result = {key: row[key] for key in ("task_id", "test_case_id", "code_output") if key in row}
        if "expression_id" in row:
            result["expression_id"] = row["expression_id"]
        try:
            reply = await llm.chat(messages, stage="evaluate")
            result |= {"response": reply.text, "prompt_tokens": reply.prompt_tokens,
                       "completion_tokens": reply.completion_tokens, "cached": reply.cached}
        except LLMError as error:
            result |= {"response": None, "error": str(error)}
        if on_done:
            on_done()
        return result

    try:
        return await asyncio.gather(*(one(row) for row in rows))
    finally:
        await llm.close()
        if cache is not None:
            cache.close()


def score_frame(results: list[dict[str, Any]], rows_by_key: dict[tuple, dict[str, Any]] | None = None,
                strict_types: bool = False) -> pd.DataFrame:
    """One scored row per case: verdicts plus the task's difficulty and complexity when known."""
    records = []
    for result in results:
        gold = result["code_output"]
        verdict = judge(gold["output"], gold["stats"], result.get("response"), strict_types)
        key = (result["task_id"], result["test_case_id"], result.get("expression_id"))
        source = (rows_by_key or {}).get(key, result)
        record = {"task_id": result["task_id"], "test_case_id": result["test_case_id"],
                  "formatted": verdict.formatted, "output_ok": verdict.output_ok, "stats_ok": verdict.stats_ok,
                  "both_ok": verdict.both_ok, "request_failed": result.get("response") is None}
        if result.get("expression_id") is not None:
            record["expression_id"] = str(result["expression_id"])
        if source.get("difficulty"):
            record["difficulty"] = source["difficulty"]
        metrics = source.get("complexity_metrics") or {}
        if "code_complexity_score" in metrics:
            record["code_complexity_score"] = metrics["code_complexity_score"]
        records.append(record)
    return pd.DataFrame(records)


class ErrorLabel(BaseModel):
    mode: Literal[FAILURE_MODES]  # type: ignore[valid-type]
    explanation: str = ""


async def analyze_errors(results: list[dict[str, Any]], scores: pd.DataFrame, rows_by_key: dict,
                         settings: EvalSettings, cache_path: Path | None) -> list[dict[str, Any]]:
    """An LLM labels each failed (but formatted) case with one of the paper's five failure modes."""
    prompt = load_prompt("analyze_error")
    cache = None if settings.no_cache or cache_path is None else ResponseCache(cache_path)
    llm = LLM(settings.llm_config(settings.analyzer_model or settings.model, json_mode="auto").model_copy(
        update={"temperature": 0.0, "max_tokens": 2048}), cache)
    failed = scores[scores["formatted"] & ~scores["both_ok"]]
    by_key = {(r["task_id"], r["test_case_id"], r.get("expression_id")): r for r in results}

    async def one(task_id, case_id, expression):
        result = by_key[(task_id, case_id, expression)]
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
    try:
        return await asyncio.gather(*(one(t, c, e) for t, c, e in zip(failed["task_id"], failed["test_case_id"],
                                                                       expressions)))
    finally:
        await llm.close()
        if cache is not None:
            cache.close()


def write_outputs(folder: Path, results: list[dict[str, Any]], scores: pd.DataFrame, title: str,
                  labels: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(folder / "responses.jsonl", "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in results))
    modes = None
    if labels is not None:
        atomic_write(folder / "failure_modes.jsonl", "".join(json.dumps(label) + "\n" for label in labels))
        modes = dict(Counter(label["mode"] for label in labels))
    return write_report(scores, folder, title, modes)
