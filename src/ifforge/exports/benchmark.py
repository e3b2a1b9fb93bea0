"""A generated benchmark as every export reads it: its rows, its family, and what each row asks.

Exports never re-implement a family's prompt, checker or numbers: `request` is what `ifforge
evaluate` sends, `check` the family's own verdict and `metrics` its report's numbers, so an export
scores as `ifforge evaluate` does on the same replies.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ifforge.core.store.versions import file_hash
from ifforge.eval.evaluation import BenchmarkError, family_of, load_rows, locate
from ifforge.families import family_of_row, get_family
from ifforge.families.base import Reply, Request, Verdict
from ifforge.review import all_reviews, verified_task_ids


@dataclass(frozen=True)
class Benchmark:
    name: str  # a task name that every tool accepts: ifforge_<benchmark>_<version>[_mini]
    family: str
    rows: list[dict[str, Any]]
    source: Path  # the rows file
    sha256: str
    split: str
    expressions: str
    facts: dict[str, Any] = field(default_factory=dict)  # from the version's manifest, when there is one
    version: Path | None = None  # the version folder the rows come from (None: a bare rows file)
    review: dict[str, Any] | None = None  # the reviewed subset's review (`review_facts`), with --verified-only


def read_benchmark(given: Path, split: str = "full", expressions: str = "original",
                   verified_only: bool = False, min_reviewers: int = 1) -> Benchmark:
    """The rows to export from a version folder, a benchmark folder (its LATEST) or a .jsonl file."""
    rows_path, version = locate(Path(given), split)
    rows = load_rows(rows_path, expressions)
    review = None
    if verified_only:
        if not all_reviews(version):
            raise BenchmarkError(f"{version}: no reviews yet, so nothing is verified (run `ifforge review` first)")
        keep = verified_task_ids(version, min_reviewers)
        review = review_facts(version, rows, keep, min_reviewers)
        rows = [row for row in rows if row["task_id"] in keep]
    if not rows:
        raise BenchmarkError(f"{rows_path}: no rows to export")
    family = family_of(rows, rows_path)  # load_rows refused, with file and line, any row it cannot score
    facts: dict[str, Any] = {}
    try:
        manifest = json.loads((version / "manifest.json").read_text())
        facts = {key: manifest[key] for key in ("version", "fingerprint", "family", "created", "counts")
                 if key in manifest}
    except (OSError, ValueError):
        pass
    generated = rows_path.name in ("benchmark.jsonl", "benchmark_mini.jsonl")  # a version's own rows
    from_version = generated and (version / "manifest.json").is_file()
    parts = [version.parent.name, version.name] if generated else [rows_path.stem]
    if split == "mini" and generated:
        parts.append("mini")
    if verified_only:
        parts.append("verified")
    return Benchmark(name=task_name("ifforge", *parts), family=family, rows=rows, source=rows_path,
                     sha256=file_hash(rows_path), split=split, expressions=expressions, facts=facts,
                     version=version if from_version else None, review=review)


def review_facts(version: Path, rows: list[dict[str, Any]], kept: set[str], min_reviewers: int) -> dict[str, Any]:
    """Who reviewed a version and what the rule kept, for the subset's card: every reviewer with the
    tasks they marked, the tasks marked, kept and rejected, of the version's tasks."""
    marks = all_reviews(version)
    tasks = {row["task_id"] for row in rows}
    marked = {task for records in marks.values() for task in records if task in tasks}
    rejected = {task for records in marks.values() for task, record in records.items()
                if task in tasks and record["verdict"] != "faithful"}
    return {"min_reviewers": min_reviewers, "reviewers": {name: len(records) for name, records in marks.items()},
            "tasks": len(tasks), "reviewed": len(marked), "kept": len(kept & tasks), "rejected": len(rejected)}


def task_name(*parts: Any) -> str:
    """A name every tool accepts and that is safe to write into code and YAML: letters, digits and
    `_` only (whatever the file or folder names it comes from), starting with a letter."""
    name = re.sub(r"[^A-Za-z0-9_]+", "_", "_".join(str(part) for part in parts)).strip("_")
    return name if name[:1].isalpha() else f"ifforge_{name}"


def request(row: dict[str, Any]) -> Request:
    """What `ifforge evaluate` sends for one row: user turns, system message, tools."""
    return family_of_row(row).request(row)


def text_row(row: dict[str, Any]) -> dict[str, Any] | None:
    """The row for a text-only harness (see `Family.text_row`), or None when it cannot be asked there."""
    return family_of_row(row).text_row(row)


def check(row: dict[str, Any], replies: list) -> Verdict:
    """One row's verdict on a model's replies (one per user turn: text, or a dict with `text` and
    `tool_calls` where the row offers tools), by the row's family's checker."""
    return family_of_row(row).check(row, Reply.of(replies))


def metrics(family_id: str, verdicts: list[Verdict]) -> dict[str, float]:
    """The family's headline numbers of some verdicts, named and computed as its report does."""
    report = get_family(family_id).report
    return report.numbers(report.frame([line for verdict in verdicts for line in verdict.lines]))


def metric_names(family_id: str, row: dict[str, Any]) -> list[str]:
    """The names of the numbers an export reports for this family."""
    return list(metrics(family_id, [check(row, [])]))


def task_key(row: dict[str, Any]) -> str:
    """The task a row counts toward: under several expressions, each (task, expression) is its own,
    as `ifforge evaluate` counts them."""
    return f"{row['task_id']}/{row['expression_id']}" if "expression_id" in row else str(row["task_id"])


ROW_ID = "row_id"  # the column every export and `scores.parquet` name a row by (`Family.row_id`)


def row_ids(rows: list[dict[str, Any]], source: Path | str = "the rows") -> list[str]:
    """Each row's one id (`Family.row_id`): the sample id of every export, and `scores.parquet`'s
    `row_id`, so an export's results join with ifforge's. Two rows with one id are refused."""
    ids = [family_of_row(row).row_id(row) for row in rows]
    seen: dict[str, int] = {}
    for line, sample_id in enumerate(ids, 1):
        if sample_id in seen:
            raise BenchmarkError(f"{source}: rows {seen[sample_id]} and {line} have the same id {sample_id!r}")
        seen[sample_id] = line
    return ids


def flat_columns(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """Rows as Arrow can hold them: a column keeps its type when every value has the same plain
    type (text, whole number, number, true/false); any other column is JSON text. Returns the rows
    and the names of the JSON columns (decode them with `json.loads` to get the row back)."""
    columns: list[str] = []
    for row in rows:
        columns.extend(key for key in row if key not in columns)

    def kind(value: Any) -> str:
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "bool"
        if isinstance(value, int):
            return "int" if abs(value) < 2**63 else "big"
        if isinstance(value, float):
            return "float"
        return "str" if isinstance(value, str) else "json"

    encoded = []
    for column in columns:
        kinds = {kind(row.get(column)) for row in rows} - {"none"}
        if len(kinds) != 1 or kinds & {"json", "big"}:
            encoded.append(column)
    flat = [{column: (json.dumps(row.get(column), ensure_ascii=False) if column in encoded else row.get(column))
             for column in columns} for row in rows]
    return flat, encoded


def unflatten(record: dict[str, Any], json_columns: list[str]) -> dict[str, Any]:
    """A row back from `flat_columns`' form (without the export's `row_id` column)."""
    return {key: (json.loads(value) if key in json_columns else value) for key, value in record.items()
            if key != ROW_ID}
