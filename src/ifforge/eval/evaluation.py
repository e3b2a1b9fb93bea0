"""What an evaluation run stands on, for every family: its settings, the rows it asks (found,
checked against their manifest, limited), its own folder, and its facts (tokens, cost, a dry run).

Each evaluation run has its own folder, `evals/<model>/rNNN/`, named by the fingerprint of what
decides its scores, with `LATEST` pointing at the newest. Asking and scoring are `eval.template`'s.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from ifforge.core.llm.cache import ResponseCache, request_key
from ifforge.core.registry import UnknownId
from ifforge.core.settings import LLMSettings, _runtime, default_toml, environment, merge_layers, read_table
from ifforge.core.store.versions import file_hash, latest_version
from ifforge.core import untrusted
from ifforge.core.untrusted import parse_json, read_json_lines
from ifforge.eval.asking import messages_for
from ifforge.families import UNNAMED, family_id, family_of_row, get_family, option_names
from ifforge.families.base import Family
from ifforge.families.options import OptionError, Options, validated


class EvalSettings(LLMSettings):
    """An evaluation's settings: the way to the model is generate's (`LLMSettings`: the same names,
    limits, cache and prices); the rest says what is asked and how it is scored. Two defaults
    differ from generate's, for long answers: `max_tokens` 16000 (as in LogicIF's paper) and
    `llm_timeout` 600 s."""

    model: str = Field(description="the model evaluated")
    api_key: str | None = Field(None, exclude=True)
    max_tokens: int = Field(16_000, ge=1, description="max completion tokens per reply (16000, as in LogicIF's paper)")
    llm_timeout: float = _runtime("seconds one request may take in all, reply included", default=600.0, gt=0)
    split: Literal["full", "mini"] = Field("full", description="the benchmark's full rows or its mini sample")
    expressions: str = Field("original", description="original, all (e0 = original, e1..ek), or comma-separated "
                                                     "expression ids (families that keep rows under other expressions)")
    system_prompt: str | None = Field(None, description="a system message before every prompt")
    options: Any = Field(default_factory=dict, description="the family's own options (`families.options`), by name: "
                                                           "given, then validated by `for_family`")
    limit: int | None = Field(None, ge=1, description="only the first N tasks (all their cases)")
    allow_failures: float = _runtime("share of failed requests that still ends the run well", default=0.0, ge=0, le=1)

    def for_family(self, family: Family) -> EvalSettings:
        """These settings with the family's options validated into its typed object (once; one
        `OptionError` naming the option the family does not take or the value it refuses)."""
        if isinstance(self.options, family.options):
            return self
        given = self.options.model_dump() if isinstance(self.options, Options) else dict(self.options)
        return self.model_copy(update={"options": validated(family.id, family.options, given)})

    def fingerprint_fields(self) -> dict[str, Any]:
        """Everything that decides the scores: not the limits, retries, cache or prices, but the
        server (the same model name on another server is another model, as in the cache's key),
        and the family's options as it says they decide them (`Options.fingerprint`)."""
        runtime = {name for name, info in type(self).model_fields.items()
                   if (info.json_schema_extra or {}).get("affects_output") is False} - {"base_url"}
        fields = {key: value for key, value in self.model_dump().items() if key not in runtime | {"options"}}
        options = self.options.fingerprint() if isinstance(self.options, Options) else dict(self.options)
        return {**fields, **options}

    def config_for(self, model: str | None = None):
        """How to reach `model` (default: the evaluated one) with these settings."""
        return self.llm_config(model or self.model, self.api_key)


# The flags `ifforge evaluate` always had, on the common settings' names.
FLAG_SETTINGS = {"concurrency": "llm_concurrency", "max_retries": "llm_max_retries", "timeout": "llm_timeout",
                 "price_input": "price_input_per_mtok", "price_output": "price_output_per_mtok"}
# What an evaluation takes from `ifforge.toml` and IFFORGE_*: how a run may use the server, and
# its prices. What decides the scores (model, temperature, max_tokens, ...) is given to it alone,
# so generate's sampling settings never change a score.
SHARED_FROM_FILES = ("llm_concurrency", "llm_rpm", "llm_tpm", "llm_timeout", "llm_max_retries",
                     "llm_max_reply_bytes", "price_input_per_mtok", "price_output_per_mtok")


def load_eval_settings(given: dict[str, Any], toml_path: Path | None = None) -> EvalSettings:
    """Generate's layers, for the settings they share (`SHARED_FROM_FILES` from the file's
    `[ifforge]` table and the environment), under `given` (flags, --set, the flow's options). A name
    a family declares as an option is taken as one (`EvalSettings.for_family` checks it once the
    rows say which family); any other unknown name is refused here."""
    offered = option_names()
    options = {key: value for key, value in given.items() if key in offered and value is not None}
    given = {key: value for key, value in given.items() if key not in options}
    if options:
        given["options"] = {**(given.get("options") or {}), **options}
    toml_path = toml_path or default_toml()
    layers = [(str(toml_path), {k: v for k, v in read_table(toml_path).items() if k in SHARED_FROM_FILES})
              ] if toml_path is not None else []
    layers += [("environment (IFFORGE_*)", environment(SHARED_FROM_FILES)),
               ("command line", {k: v for k, v in given.items() if v is not None})]
    return merge_layers(EvalSettings, layers)


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


def parsed_lines(path: Path, parse: Callable[[str], Any]) -> Iterator[tuple[int, Any]]:
    """(line number, `parse(line)`) of every non-empty line of a JSON-lines file; a file or line that
    cannot be read or parsed is one `BenchmarkError` naming the file and line."""
    return untrusted.parsed_lines(path, parse, BenchmarkError, read_json_lines)


def numbered_rows(path: Path, required: tuple[str, ...] = ("task_id",)) -> list[tuple[int, dict[str, Any]]]:
    """(line number, row) of a JSONL file; a file or line that cannot be read, is not JSON or lacks
    a field is one `BenchmarkError` naming the file and line."""
    rows = []
    for number, row in parsed_lines(path, parse_json):
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


def family_of(rows: list[dict[str, Any]], path: Path) -> str:
    """The family the rows belong to (one family a file)."""
    found = {family_id(row) for row in rows}
    if len(found) > 1:
        raise BenchmarkError(f"{path}: rows of several families {sorted(found, key=str)}; score one family at a time")
    return found.pop() if found else UNNAMED


def check_rows(family: Family, rows: list[dict[str, Any]]) -> None:
    """Refuse rows the family cannot score (naming the row and field), before anything is asked."""
    for number, row in enumerate(rows, 1):
        problem = family.row_problem(row)
        if problem:
            raise BenchmarkError(f"row {number} ({row.get('task_id', '?')}): {problem}")


def checked_rows(path: Path) -> list[dict[str, Any]]:
    """Rows of a JSONL file that their family can score: the first row it cannot is one
    `BenchmarkError` naming the file, the line and the field, before anything is asked."""
    numbered = numbered_rows(path)
    for number, row in numbered:
        if not isinstance(family_id(row), str):
            raise BenchmarkError(f"{path}:{number}: field 'family' must be text, the family's id")
    rows = [row for _, row in numbered]
    try:
        family = get_family(family_of(rows, path))
    except UnknownId as error:
        raise BenchmarkError(f"{path}: {error}") from None
    for number, row in numbered:
        problem = family.row_problem(row)
        if problem:
            raise BenchmarkError(f"{path}:{number}: {problem}")
    refuse_repeats(numbered, family, path)
    return rows


def refuse_repeats(numbered: list[tuple[int, dict[str, Any]]], family: Family, path: Path) -> None:
    """A row asked twice would count twice: the second line with one row's identity is refused."""
    seen: dict[str, int] = {}
    for number, row in numbered:
        identity = family.identity(row)
        if identity in seen:
            named = ", ".join(f"{key} {row.get(key)!r}" for key in family.keys)
            raise BenchmarkError(f"{path}: lines {seen[identity]} and {number} are the same row ({named}): "
                                 "each row once (a repeated row would count twice)")
        seen[identity] = number


def check_options(rows: list[dict[str, Any]], settings: EvalSettings, path: Path) -> EvalSettings:
    """The settings with the rows' family's options validated, once every row can be scored under
    them; else, before anything is asked, one `BenchmarkError` naming the option or the row."""
    family = get_family(family_of(rows, path))
    try:
        settings = settings.for_family(family)
    except OptionError as error:
        raise BenchmarkError(f"{path}: {error}") from None
    check_rows_under(rows, settings.options, path)
    return settings


def check_rows_under(rows: list[dict[str, Any]], options: Options, path: Path) -> None:
    """Refuse rows the chosen options cannot score (one line naming the row): `--rules paper` may
    need the original's fields."""
    for number, row in enumerate(rows, 1):
        problem = family_of_row(row).options_problem(row, options)
        if problem:
            raise BenchmarkError(f"{path}: row {number} ({row.get('task_id')}): {problem}")


def load_rows(path: Path, expressions: str = "original") -> list[dict[str, Any]]:
    """The cases to ask: the split's rows, or (with expressions) those tasks under each chosen
    expression, from the file of its family's rows under other expressions (`Family.expression_rows`)."""
    rows = checked_rows(path)
    if expressions == "original":
        return rows
    family = get_family(family_of(rows, path))
    if family.expression_rows is None:
        raise BenchmarkError(f"{path}: --expressions: {family.id} benchmarks keep no rows under other expressions")
    expression_file = Path(path).parent / family.expression_rows
    if not expression_file.exists():
        raise BenchmarkError(f"{Path(path).parent}: no {family.expression_rows} (generate with expressions > 0)")
    tasks = {row["task_id"] for row in rows}
    wanted = None if expressions == "all" else {e.strip() for e in expressions.split(",")}
    chosen = [row for row in checked_rows(expression_file)
              if row["task_id"] in tasks and (wanted is None or row["expression_id"] in wanted)]
    if wanted and not chosen:
        raise BenchmarkError(f"{expression_file}: no rows with expression ids {sorted(wanted)}")
    return chosen


def cache_file(settings: EvalSettings, version: Path) -> Path:
    """The response cache of a version's evaluations (`llm_cache` names another)."""
    return Path(settings.llm_cache) if settings.llm_cache else Path(version) / "evals" / ".llm_cache.sqlite"


def model_folder(version: Path, model: str) -> Path:
    return version / "evals" / re.sub(r"[^A-Za-z0-9._-]+", "_", model)


def run_fingerprint(rows_path: Path, rows_sha256: str, settings: EvalSettings) -> str:
    """What names a run: the rows (by content) and every setting that decides its scores."""
    identity = {"rows_sha256": rows_sha256, "rows_file": Path(rows_path).name, "settings": settings.fingerprint_fields()}
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()


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


def token_totals(results: list[dict[str, Any]], settings: EvalSettings | None = None) -> dict[str, Any]:
    """Tokens over every response, and their cost at the prices given (None without prices)."""
    prompt = sum(int(r.get("prompt_tokens") or 0) for r in results)
    completion = sum(int(r.get("completion_tokens") or 0) for r in results)
    totals: dict[str, Any] = {"tokens": {"prompt": prompt, "completion": completion, "requests": len(results),
                                         "cached_requests": sum(1 for r in results if r.get("cached"))}}
    if settings is not None and settings.price_input_per_mtok is not None and settings.price_output_per_mtok is not None:
        totals["cost_usd"] = round((prompt * settings.price_input_per_mtok
                                     + completion * settings.price_output_per_mtok) / 1e6, 6)
    return totals


def finish_run(run: dict[str, Any] | None, results: list[dict[str, Any]], settings: EvalSettings) -> dict[str, Any]:
    """The run's facts once every request is answered: when it ended, tokens and cost."""
    return {**(run or {}), "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            **token_totals(results, settings)}


def dry_run(rows: list[dict[str, Any]], settings: EvalSettings, cache_path: Path | None) -> dict[str, Any]:
    """What a run would send, sending nothing: requests, how many the cache already answers, and an
    estimate of tokens (a one-prompt row's own count where its family reads one from the row,
    `Family.request_tokens`; else 4 characters a token; replies at most `max_tokens`) and of cost."""
    config = settings.config_for()
    cache = ResponseCache(cache_path) if cache_path is not None and Path(cache_path).exists() else None
    requests = cached = characters = counted = counted_rows = 0
    try:
        for row in rows:
            family = family_of_row(row)
            request = family.request(row)  # what evaluate sends
            turns = request.turns
            requests += len(turns)
            exact = family.request_tokens(row) if len(turns) == 1 else None
            if exact is not None:
                counted, counted_rows = counted + exact, counted_rows + 1
            else:
                characters += sum(len(turn) * (len(turns) - i) for i, turn in enumerate(turns))  # history is resent
            characters += len(settings.system_prompt or "") * len(turns)
            if request.tools or request.system:  # a row's tool schemas and system message are sent too
                characters += (len(json.dumps(request.tools or [])) + len(request.system or "")) * len(turns)
            if len(turns) == 1 and cache is not None and not settings.no_cache:
                key = request_key(config, messages_for(request, settings.system_prompt), None, {}, request.tools,
                                  request.tool_choice)
                cached += cache.get(key) is not None
    finally:
        if cache is not None:
            cache.close()
    prompt_tokens = characters // 4 + counted
    estimate: dict[str, Any] = {
        "cases": len(rows), "tasks": len({row["task_id"] for row in rows}), "requests": requests,
        "already_cached": cached, "prompt_tokens_estimate": prompt_tokens, "rows_with_counted_tokens": counted_rows,
        "completion_tokens_at_most": requests * settings.max_tokens}
    if settings.price_input_per_mtok is not None and settings.price_output_per_mtok is not None:
        to_ask = requests - cached
        share = to_ask / requests if requests else 0
        estimate["cost_usd_input_estimate"] = round(prompt_tokens * share * settings.price_input_per_mtok / 1e6, 4)
        estimate["cost_usd_output_at_most"] = round(to_ask * settings.max_tokens * settings.price_output_per_mtok
                                                    / 1e6, 4)
    return estimate
