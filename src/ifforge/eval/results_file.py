"""A replies file read for `ifforge score`, so that the file cannot choose its score: with a
benchmark, the gold and every field the verdict reads come from the benchmark alone (a reply whose
copy differs is refused), each row is answered at most once (a repeated reply is refused, not
counted twice), and every benchmark row without a reply is scored as a reply with no answer.

A line is read field by field (`core.json_members`): a field the verdict reads that cannot be read
(NaN, Infinity, 1e400, nesting past the reader's limit: Python's own reader, LogicIF's, takes them)
makes that case a failure with the reason, as LogicIF's own scorer goes on case by case; only a
line that is not JSON at all, or whose row cannot be named, stops the command.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ifforge.core.json_members import read_object
from ifforge.core.registry import UnknownId
from ifforge.eval.evaluation import BenchmarkError, family_of, load_rows, locate, parsed_lines
from ifforge.families import UNNAMED, get_family
from ifforge.families.base import Family

Row = dict[str, Any]


def reply_lines(path: Path) -> list[tuple[int, Row, dict[str, str]]]:
    """(line number, fields, unreadable fields) of every non-empty line of a replies file; a line
    that cannot be read at all is one `BenchmarkError` naming the file and line."""
    read = []
    for number, (fields, unreadable) in parsed_lines(path, read_object):
        if "family" in unreadable or not isinstance(fields.get("family", ""), str):
            raise BenchmarkError(f"{path}:{number}: field 'family' must be text, the family's id")
        read.append((number, fields, unreadable))
    return read


def choose_family(replies: list[Row], rows: list[Row], path: Path, rows_path: Path | None) -> str:
    """The replies' family: the benchmark's (a reply that names another is refused), else the one
    the replies name, else that of rows that name none (`families.UNNAMED`: LogicIF's result files)."""
    named = sorted({reply["family"] for reply in replies if "family" in reply})
    if len(named) > 1:
        raise BenchmarkError(f"{path}: rows of several families {named}; score one family at a time")
    if rows:
        family = family_of(rows, rows_path)
        if named and named[0] != family:
            raise BenchmarkError(f"{path}: replies of {named[0]}, but {rows_path} is a {family} benchmark")
        return family
    return named[0] if named else UNNAMED


def _named(family: Family, result: Row) -> str:
    return ", ".join(f"{key} {result.get(key)!r}" for key in family.keys)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def differing_field(family: Family, result: Row, row: Row) -> str | None:
    """The first field the benchmark row gives the verdict that the reply carries otherwise."""
    return next((key for key, value in family.carry(row).items()
                 if key in result and _canonical(result[key]) != _canonical(value)), None)


def no_answer(family: Family, result: Row) -> Row:
    """The result with no answer: its answer fields null, not failed."""
    return {**result, **dict.fromkeys(family.answers), "request_failed": False}


def read_results(path: Path, benchmark: Path | None = None) -> tuple[Any, list[Row], list[Row]]:
    """Replies produced elsewhere, to score without asking anything: (their family, the results to
    score, the benchmark row of each; none without `benchmark`). With a benchmark, every benchmark
    row is scored: its reply (gaining the row's fields), else a reply with no answer (`no_reply`).
    A reply that cannot be scored is one `BenchmarkError` naming the file, the line and the field."""
    path = Path(path)
    lines = reply_lines(path)
    rows_path = locate(Path(benchmark), "full")[0] if benchmark is not None else None
    rows = load_rows(rows_path) if rows_path is not None else []
    family_id = choose_family([fields for _, fields, _ in lines], rows, path, rows_path)
    try:
        family = get_family(family_id)
    except UnknownId as error:
        raise BenchmarkError(f"{path}: {error}") from None
    if family.needs_rows and not rows:
        raise BenchmarkError(f"{path}: {family_id} replies are scored against their benchmark's rows: give --benchmark")
    index = {family.key(row): row for row in rows}
    seen: dict[str, int] = {}
    results, matched = [], []
    for number, result, unreadable in lines:
        where = f"{path}:{number}"
        missing = next((key for key in family.keys if key not in result), None)
        if missing in unreadable:
            raise BenchmarkError(f"{where}: field {missing!r} {unreadable[missing]}")
        if missing and not rows and family_id == UNNAMED and "family" not in result:
            raise BenchmarkError(f"{where}: which family? No field 'family' and no --benchmark, and as a {family_id} "
                                 f"result row it lacks {missing!r}: give --benchmark, the benchmark it answers")
        if missing:
            raise BenchmarkError(f"{where}: missing field {missing!r}")
        identity = family.identity(result)
        if identity in seen:
            raise BenchmarkError(f"{path}: lines {seen[identity]} and {number} both answer {_named(family, result)}: "
                                 "one reply per row (a repeated reply would count twice)")
        seen[identity] = number
        row = index.get(family.key(result)) if rows else None
        if rows and row is None:
            raise BenchmarkError(f"{where}: no row with {_named(family, result)} in {rows_path}")
        if row is not None:
            differs = differing_field(family, result, row)
            if differs:
                raise BenchmarkError(f"{where}: field {differs!r} differs from the benchmark's ({rows_path}): "
                                     "the gold comes from the benchmark only")
            result.update(family.carry(row))
        unread = next((key for key in unreadable if key in family.answers or key in family.carried), None)
        own_gold_unread = unread is not None and unread not in result and unread not in family.answers
        if own_gold_unread and not family.scores_unreadable:
            raise BenchmarkError(f"{where}: field {unread!r} {unreadable[unread]}")
        if unread is not None:
            result = {**no_answer(family, result), "unreadable": f"field {unread!r} {unreadable[unread]}"}
        problem = None if own_gold_unread else family.result_problem(result)
        if problem:
            raise BenchmarkError(f"{where}: {problem}")
        results.append(result)
        if row is not None:
            matched.append(row)
    answered = {family.key(result) for result in results}
    for row in rows:
        if family.key(row) not in answered:
            results.append({**no_answer(family, family.carry(row)), "no_reply": True})
            matched.append(row)
    return family, results, matched
