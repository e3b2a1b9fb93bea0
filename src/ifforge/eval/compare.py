"""Several runs' reports side by side (`ifforge compare`), for any family: each family's runs in one
table drawn by its report (`Report.compare_lines`), then what differs between the runs' inputs,
said plainly, so unlike runs are not read as like.

A report says its family in its run's facts (`run.family`); a report.json written before reports
did has none and is read as the family of rows that name none (`families.UNNAMED`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ifforge.core.registry import UnknownId
from ifforge.eval.evaluation import BenchmarkError
from ifforge.families import UNNAMED, get_family

LIKE = ("benchmark_sha256", "split", "expressions", "limit")  # what must match for scores to compare
Report = dict[str, Any]


def read_report(path: Path) -> Report:
    """One report.json, or one `BenchmarkError` naming the file and what is wrong with it."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise BenchmarkError(f"{path}: not a report.json ({error.__class__.__name__}: {error})") from None
    if not isinstance(data, dict) or not isinstance(data.get("overall"), dict):
        raise BenchmarkError(f"{path}: not a report.json (no 'overall' object)")
    if not isinstance(data.get("run") or {}, dict):
        raise BenchmarkError(f"{path}: field 'run' must be an object")
    return data


def family_of_report(data: Report) -> str:
    family = (data.get("run") or {}).get("family") or UNNAMED
    return family if isinstance(family, str) else "?"


def differences(reports: list[Report]) -> list[str]:
    """What differs between the runs' inputs, in plain words (empty when like is compared with like)."""
    runs = [data.get("run") or {} for data in reports]
    notes = []
    for key in LIKE:
        values = [run.get(key) for run in runs]
        if len({json.dumps(v, sort_keys=True) for v in values}) > 1:
            notes.append(f"{key} differs: " + ", ".join(str(v)[:16] if v is not None else "unknown" for v in values))
    failures = [data["overall"].get("request_failures", 0) for data in reports]
    asked = [run.get("cases", data["overall"].get("cases", 0) + failure)
             for run, data, failure in zip(runs, reports, failures)]
    if len(set(asked)) > 1:
        notes.append("cases differ: " + ", ".join(str(c) for c in asked))
    if any(failures):
        notes.append("failed requests (left out of accuracy): " + ", ".join(str(f) for f in failures))
    return notes


def compare(paths: list[Path]) -> str:
    """The reports' tables, one per family (headed by the family when there are several), each with
    its notes on what differs."""
    by_family: dict[str, dict[Path, Report]] = {}
    for path in paths:
        data = read_report(path)
        by_family.setdefault(family_of_report(data), {})[Path(path)] = data
    lines: list[str] = []
    for family_id, named in by_family.items():
        try:
            report = get_family(family_id).report
        except UnknownId as error:
            raise BenchmarkError(f"{next(iter(named))}: run.family: {error}") from None
        for path, data in named.items():  # a report that is not its family's is named, not a traceback
            try:
                report.compare_lines([data])
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                problem = f"{error.__class__.__name__}: {error}"
                raise BenchmarkError(f"{path}: not a {family_id} report ({problem})") from None
        reports = list(named.values())
        if len(by_family) > 1:
            lines += [*([""] if lines else []), f"## {family_id}", ""]
        lines += report.compare_lines(reports)
        notes = differences(reports)
        if notes:
            lines += ["", "**Not like with like**: these runs differ, so their scores are not directly comparable:"]
            lines += [f"- {note}" for note in notes]
    return "\n".join(lines) + "\n"
