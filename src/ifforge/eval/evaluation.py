"""Scoring models on a generated benchmark: ask every case, keep every raw response, score, report.

The flow in `flows/evaluate.py` wires these steps; `ifforge score` uses the scoring half alone on
responses produced elsewhere: LogicIF's result files (`task_id, test_case_id, code_output` with the
raw `llm_response`, or with `llm_output`, LogicIF's extracted answer, scored as it is) or ours
(`response`). Each evaluation run has its own folder, `evals/<model>/rNNN/`, named by the
fingerprint of what decides its scores, with `LATEST` pointing at the newest.
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

from ifforge.core.store import atomic_write, file_hash, latest_version
from ifforge.core.untrusted import BadValue, parse_json, read_lines
from ifforge.core.llm import LLM, LLMConfig, LLMError, ResponseCache
from ifforge.core.prompts import load_prompt
from ifforge.eval.report import write_report
from ifforge.families.logicif.verdicts import judge, judge_answer

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
    extractor: Literal["rules", "llm"] = "rules"  # llm: when the rules find no answer, an LLM extracts it
    extractor_model: str | None = None  # default: the evaluated model
    limit: int | None = Field(None, ge=1)  # only the first N tasks (all their cases)
    allow_failures: float = Field(0.0, ge=0, le=1)  # share of failed requests that still ends the run well
    price_input: float | None = Field(None, ge=0)  # USD per 1M prompt tokens, for the report's cost
    price_output: float | None = Field(None, ge=0)  # USD per 1M completion tokens

    def fingerprint_fields(self) -> dict[str, Any]:
        """Everything that decides the scores (not concurrency, rate limits or retries)."""
        skip = {"api_key", "concurrency", "timeout", "max_retries", "requests_per_minute", "tokens_per_minute",
                "no_cache", "allow_failures", "price_input", "price_output"}
        return {key: value for key, value in self.model_dump().items() if key not in skip}

    def llm_config(self, model: str | None = None, json_mode: str = "none") -> LLMConfig:
        return LLMConfig(model=model or self.model, base_url=self.base_url, api_key=self.api_key,
                         temperature=self.temperature, max_tokens=self.max_tokens,
                         extra_body={"reasoning_effort": self.reasoning_effort} if self.reasoning_effort else {},
                         timeout=self.timeout, max_retries=self.max_retries, concurrency=self.concurrency,
                         requests_per_minute=self.requests_per_minute, tokens_per_minute=self.tokens_per_minute,
                         json_mode=json_mode)


class BenchmarkError(ValueError):
    pass


class RequestsFailed(RuntimeError):
    """More requests failed than the run allows: the report is written, but the run is not a score."""


def locate(benchmark: Path, split: str) -> tuple[Path, Path]:
    """(the rows file, the version folder) from a version folder, a benchmark folder or a .jsonl file."""
    benchmark = Path(benchmark)
    if benchmark.is_file() or (benchmark.exists() and not benchmark.is_dir()):  # read_file names what it is
        return benchmark, benchmark.parent
    if benchmark.suffix == ".jsonl" and not benchmark.exists():
        raise BenchmarkError(f"{benchmark}: file not found")
    benchmark = latest_version(benchmark)
    name = "benchmark_mini.jsonl" if split == "mini" else "benchmark.jsonl"
    if not (benchmark / name).exists():
        raise BenchmarkError(f"{benchmark}: no {name} here (give a version folder, a benchmark folder or a .jsonl)")
    return benchmark / name, benchmark


def locate_report(given: Path) -> Path:
    """The report.json of an evaluation: a run folder, a model's folder (its latest run) or the file."""
    path = Path(given)
    if path.is_dir() and not (path / "report.json").exists():
        path = latest_version(path)
    path = path / "report.json" if path.is_dir() else path
    if not path.exists():
        raise BenchmarkError(f"{path}: no report.json (run ifforge evaluate or score first)")
    return path


def read_results(path: Path) -> list[dict[str, Any]]:
    """Responses produced elsewhere, to score: rows that each carry an answer field (ours or LogicIF's)."""
    results = load_rows(Path(path))
    answer_fields = ("response", "llm_response", "llm_output")
    missing = next((i for i, r in enumerate(results, 1) if not any(k in r for k in answer_fields)), None)
    if missing:
        raise BenchmarkError(f"{path}:{missing}: no answer field (one of {', '.join(answer_fields)})")
    return results


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


def numbered_rows(path: Path, required: tuple[str, ...] = ("task_id",)) -> list[tuple[int, dict[str, Any]]]:
    """(line number, row) of a JSONL file; a file or line that cannot be read, is not JSON or lacks
    a field is one `BenchmarkError` naming the file and line."""
    try:
        lines = read_lines(path)
    except BadValue as error:
        raise BenchmarkError(f"{path}: {error}") from None
    rows = []
    for number, line in lines:
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
        rows.append((number, row))
    return rows


def read_jsonl(path: Path, required: tuple[str, ...] = ("task_id",)) -> list[dict[str, Any]]:
    """Rows of a JSONL file; a line that is not JSON or lacks a field is named with its number."""
    return [row for _, row in numbered_rows(path, required)]


LOGICIF_FIELDS = ("task_id", "test_case_id", "code_output")


def family_of(rows: list[dict[str, Any]], path: Path) -> str:
    """The family the rows belong to (LogicIF's own files carry no `family`: they are LogicIF's)."""
    families = {row.get("family", "logicif") for row in rows}
    if len(families) > 1:
        raise BenchmarkError(f"{path}: rows of several families {sorted(families)}; score one family at a time")
    return families.pop() if families else "logicif"


def checked_rows(path: Path, required: tuple[str, ...] = ("task_id",)) -> list[dict[str, Any]]:
    """Rows of a JSONL file that their family can score: the first row it cannot is one
    `BenchmarkError` naming the file, the line and the field, before anything is asked."""
    from ifforge.families import UnknownFamily, get_family

    numbered = numbered_rows(path, required)
    for number, row in numbered:
        if not isinstance(row.get("family", "logicif"), str):
            raise BenchmarkError(f"{path}:{number}: field 'family' must be text, the family's id")
    rows = [row for _, row in numbered]
    try:
        family = get_family(family_of(rows, path))
    except UnknownFamily as error:
        raise BenchmarkError(f"{path}: {error}") from None
    for number, row in numbered:
        problem = family.row_problem(row)
        if problem:
            raise BenchmarkError(f"{path}:{number}: {problem}")
    return rows


def load_rows(path: Path, expressions: str = "original") -> list[dict[str, Any]]:
    """The cases to ask: the split's rows, or (with expressions) those tasks under each chosen expression."""
    rows = checked_rows(path)
    if family_of(rows, path) != "logicif":
        if expressions != "original":
            raise BenchmarkError(f"{path}: --expressions applies to LogicIF benchmarks only")
        return rows
    rows = checked_rows(path, LOGICIF_FIELDS)
    if expressions == "original":
        return rows
    expression_file = Path(path).parent / "benchmark_expressions.jsonl"
    if not expression_file.exists():
        raise BenchmarkError(f"{Path(path).parent}: no benchmark_expressions.jsonl (generate with expressions > 0)")
    tasks = {row["task_id"] for row in rows}
    wanted = None if expressions == "all" else {e.strip() for e in expressions.split(",")}
    chosen = [row for row in checked_rows(expression_file, LOGICIF_FIELDS)
              if row["task_id"] in tasks and (wanted is None or row["expression_id"] in wanted)]
    if wanted and not chosen:
        raise BenchmarkError(f"{expression_file}: no rows with expression ids {sorted(wanted)}")
    return chosen


def model_folder(version: Path, model: str) -> Path:
    return version / "evals" / re.sub(r"[^A-Za-z0-9._-]+", "_", model)


def run_folder(version: Path, model: str, fingerprint: str) -> Path:
    """The run's own folder: the one holding this fingerprint, else the next `rNNN`. Never another's."""
    base = model_folder(version, model)
    runs = sorted(p for p in base.glob("r[0-9][0-9][0-9]*") if p.is_dir()) if base.exists() else []
    for run in runs:
        try:
            if json.loads((run / "run.json").read_text()).get("fingerprint") == fingerprint:
                return run
        except (OSError, ValueError):
            continue
    number = max((int(p.name[1:]) for p in runs if p.name[1:].isdigit()), default=0) + 1
    return base / f"r{number:03d}"


def limit_tasks(rows: list[dict[str, Any]], limit: int | None) -> list[dict[str, Any]]:
    """The rows of the first `limit` tasks, in file order (a task is kept whole: task accuracy needs it)."""
    if not limit:
        return rows
    kept: list[str] = []
    for row in rows:
        if row["task_id"] not in kept:
            kept.append(row["task_id"])
    chosen = set(kept[:limit])
    return [row for row in rows if row["task_id"] in chosen]


async def ask_all(rows: list[dict[str, Any]], settings: EvalSettings, cache_path: Path | None,
                  on_done=None) -> list[dict[str, Any]]:
    """One response per row, in row order; cached by request, so a resumed run asks nothing twice."""
    from ifforge.eval.asking import ask_rows, usage, user_messages

    async def ask(llm: LLM, row: dict[str, Any]) -> dict[str, Any]:
        reply = await llm.chat(user_messages(row["instruction"], settings.system_prompt), stage="evaluate")
        return {"response": reply.text, **usage(reply)}

    def carry(row: dict[str, Any]) -> dict[str, Any]:
        return {key: row[key] for key in ("task_id", "test_case_id", "code_output", "expression_id") if key in row}

    return await ask_rows(rows, settings, cache_path, carry, ask, failed={"response": None}, on_done=on_done)


def response_text(result: dict[str, Any]) -> str | None:
    """The raw reply: ours (`response`) or LogicIF's (`llm_response`)."""
    return result["response"] if "response" in result else result.get("llm_response")


def request_failed(result: dict[str, Any]) -> bool:
    if "request_failed" in result:
        return bool(result["request_failed"])
    return response_text(result) is None and bool(result.get("error"))


def verdict_of(result: dict[str, Any], strict_types: bool = False):
    """A case's verdict: LogicIF's own extracted `llm_output` as it is, an LLM's extraction we asked
    for, else the rules (last JSON object, then LogicIF's labelled format)."""
    gold = result["code_output"]
    given = result.get("llm_output")
    if isinstance(given, dict) and "response" not in result:
        answer = given if given.get("success", True) else None
        return judge_answer(gold["output"], gold["stats"], answer, "given", strict_types)
    verdict = judge(gold["output"], gold["stats"], response_text(result), strict_types)
    if not verdict.formatted and isinstance(result.get("extracted"), dict):
        return judge_answer(gold["output"], gold["stats"], result["extracted"], "llm", strict_types)
    return verdict


def score_frame(results: list[dict[str, Any]], rows_by_key: dict[tuple, dict[str, Any]] | None = None,
                strict_types: bool = False) -> pd.DataFrame:
    """One scored row per case: verdicts plus the task's difficulty and complexity when known."""
    records = []
    for result in results:
        verdict = verdict_of(result, strict_types)
        failed = request_failed(result)
        key = (result["task_id"], result["test_case_id"], result.get("expression_id"))
        source = (rows_by_key or {}).get(key, result)
        record = {"task_id": result["task_id"], "test_case_id": result["test_case_id"],
                  "formatted": verdict.formatted and not failed, "output_ok": verdict.output_ok and not failed,
                  "stats_ok": verdict.stats_ok and not failed, "both_ok": verdict.both_ok and not failed,
                  "request_failed": failed, "extracted_by": "failed" if failed else verdict.extracted_by}
        if result.get("expression_id") is not None:
            record["expression_id"] = str(result["expression_id"])
        if source.get("difficulty"):
            record["difficulty"] = source["difficulty"]
        metrics = source.get("complexity_metrics") or {}
        score = metrics.get("code_complexity_score", source.get("complexity_score"))
        if isinstance(score, (int, float)) and not isinstance(score, bool):
            record["code_complexity_score"] = score
        records.append(record)
    return pd.DataFrame(records)


class ExtractedAnswer(BaseModel):
    found: bool
    output: Any = None
    stats: dict[str, Any] = Field(default_factory=dict)


async def extract_with_llm(results: list[dict[str, Any]], settings: EvalSettings, cache_path: Path | None,
                           rows_by_key: dict[tuple, dict[str, Any]] | None = None) -> int:
    """LogicIF's way: an LLM reads the replies the rules found no answer in and copies the answer out.
    Sets `extracted` on those results (cached like every request); returns how many it found."""
    todo = [r for r in results if not request_failed(r) and response_text(r)
            and not verdict_of(r, settings.strict_types).formatted]
    if not todo:
        return 0
    prompt = load_prompt("extract_answer")
    cache = None if settings.no_cache or cache_path is None else ResponseCache(cache_path)
    llm = LLM(settings.llm_config(settings.extractor_model or settings.model, json_mode="auto").model_copy(
        update={"temperature": 0.0, "max_tokens": 4096}), cache)

    async def one(result: dict[str, Any]) -> bool:
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

    try:
        return sum(await asyncio.gather(*(one(r) for r in todo)))
    finally:
        await llm.close()
        if cache is not None:
            cache.close()


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
                  labels: list[dict[str, Any]] | None = None, run: dict[str, Any] | None = None) -> dict[str, Any]:
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(folder / "responses.jsonl", "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in results))
    modes = None
    if labels is not None:
        atomic_write(folder / "failure_modes.jsonl", "".join(json.dumps(label) + "\n" for label in labels))
        modes = dict(Counter(label["mode"] for label in labels))
    return write_report(scores, folder, title, modes, run)


def token_totals(results: list[dict[str, Any]], settings: EvalSettings | None = None) -> dict[str, Any]:
    """Tokens over every response, and their cost at the prices given (None without prices)."""
    prompt = sum(int(r.get("prompt_tokens") or 0) for r in results)
    completion = sum(int(r.get("completion_tokens") or 0) for r in results)
    totals: dict[str, Any] = {"tokens": {"prompt": prompt, "completion": completion, "requests": len(results),
                                         "cached_requests": sum(1 for r in results if r.get("cached"))}}
    if settings is not None and settings.price_input is not None and settings.price_output is not None:
        totals["cost_usd"] = round((prompt * settings.price_input + completion * settings.price_output) / 1e6, 6)
    return totals


def finish_run(run: dict[str, Any] | None, results: list[dict[str, Any]], settings: EvalSettings) -> dict[str, Any]:
    """The run's facts once every request is answered: when it ended, tokens and cost."""
    from datetime import datetime, timezone

    return {**(run or {}), "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            **token_totals(results, settings)}


def dry_run(rows: list[dict[str, Any]], settings: EvalSettings, cache_path: Path | None) -> dict[str, Any]:
    """What a run would send, sending nothing: requests, how many the cache already answers, and an
    estimate of tokens (4 characters a token; replies at most `max_tokens`) and of cost."""
    from ifforge.core.llm import request_key
    from ifforge.families import get_family

    config = settings.llm_config()
    cache = ResponseCache(cache_path) if cache_path is not None and Path(cache_path).exists() else None
    system = [{"role": "system", "content": settings.system_prompt}] if settings.system_prompt else []
    requests = cached = characters = 0
    try:
        for row in rows:
            turns = get_family(row.get("family", "logicif")).turns(row)  # what the family's evaluate sends
            requests += len(turns)
            characters += sum(len(turn) * (len(turns) - i) for i, turn in enumerate(turns))  # history is resent
            characters += len(settings.system_prompt or "") * len(turns)
            row_system = [m["content"] for m in row.get("messages", []) if m.get("role") == "system"]
            if row.get("tools") or row_system:  # a tools row (IFEval-FC) sends its schemas and system message too
                characters += (len(json.dumps(row.get("tools") or [])) + sum(map(len, row_system))) * len(turns)
            if len(turns) == 1 and cache is not None and not settings.no_cache:
                messages = [*system, {"role": "user", "content": turns[0]}]
                cached += cache.get(request_key(config, messages, None, {})) is not None
    finally:
        if cache is not None:
            cache.close()
    prompt_tokens = characters // 4
    estimate: dict[str, Any] = {
        "cases": len(rows), "tasks": len({row["task_id"] for row in rows}), "requests": requests,
        "already_cached": cached, "prompt_tokens_estimate": prompt_tokens,
        "completion_tokens_at_most": requests * settings.max_tokens}
    if settings.price_input is not None and settings.price_output is not None:
        to_ask = requests - cached
        share = to_ask / requests if requests else 0
        estimate["cost_usd_input_estimate"] = round(prompt_tokens * share * settings.price_input / 1e6, 4)
        estimate["cost_usd_output_at_most"] = round(to_ask * settings.max_tokens * settings.price_output / 1e6, 4)
    return estimate
