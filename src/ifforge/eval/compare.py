"""Several runs' reports side by side (`ifforge compare`), for any family: each family's runs in one
table drawn by its report (`Report.compare_lines`), then what differs between the runs' inputs,
said plainly, so unlike runs are not read as like; where the runs scored the same rows, each run's
difference from the first with a paired interval (`eval.paired`). `paired_report`: one model's runs
on an original benchmark and its regeneration, paired by what their rows share (the source function).

A report says its family in its run's facts (`run.family`); a report.json written before reports
did has none and is read as the family of rows that name none (`families.UNNAMED`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from ifforge.core.registry import UnknownId
from ifforge.eval import paired
from ifforge.eval.evaluation import BenchmarkError
from ifforge.eval.floors import value_order
from ifforge.eval.report import table_lines
from ifforge.families import UNNAMED, get_family
from ifforge.families.base import Family

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


def verdicts(path: Path) -> pd.DataFrame | None:
    """The run's verdict lines (`scores.parquet` beside its report.json); None when there are none
    (a report copied elsewhere, under another name, is not its run folder's)."""
    scores = Path(path).parent / "scores.parquet"
    if Path(path).name != "report.json" or not scores.exists():
        return None
    try:
        return pd.read_parquet(scores)
    except (OSError, ValueError) as error:
        raise BenchmarkError(f"{scores}: not a verdicts file ({error.__class__.__name__}: {error})") from None


def row_ids(family: Family, frame: pd.DataFrame) -> pd.Series:
    """Each verdict line's row, as one text: the family's `keys` (and the expression) it carries."""
    columns = [key for key in (*family.keys, "expression_id") if key in frame]
    return pd.Series([json.dumps(values, default=str) for values in zip(*(frame[c].tolist() for c in columns))],
                     index=frame.index, dtype=object)


def checked_family(path: Path, data: Report) -> Family:
    """The report's family, or one `BenchmarkError` naming the report."""
    family_id = family_of_report(data)
    try:
        family = get_family(family_id)
    except UnknownId as error:
        raise BenchmarkError(f"{path}: run.family: {error}") from None
    try:  # a report that is not its family's is named, not a traceback
        family.report.compare_lines([data])
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise BenchmarkError(f"{path}: not a {family_id} report ({error.__class__.__name__}: {error})") from None
    return family


def title(data: Report) -> str:
    return str(data.get("title", "?"))


def measures(family: Family, scores: tuple[dict, dict], frames: tuple[pd.DataFrame, pd.DataFrame],
             metrics: list[str], resamples: int, seed: int) -> list[tuple[str, paired.Difference | None]]:
    """(label, difference) for each metric, then for the first metric in each tier: the tier a unit
    has in the first run's rows, else in the second's."""
    report, unit, tier = family.report, family.paired_by, family.tier
    found = [(metric, paired.paired(*(paired.metric_values(report, own, metric) for own in scores),
                                    resamples, seed)) for metric in metrics]
    if tier is None:
        return found
    named: dict[Any, str] = {}
    for frame in reversed(frames):  # the first run's tier wins
        if tier in frame:
            given = frame.dropna(subset=[tier]).groupby(unit)[tier].first()
            named.update({key: str(value) for key, value in given.items()})
    first, second = (paired.metric_values(report, own, metrics[0]) for own in scores)
    for value in sorted(set(named.values()), key=lambda v: value_order(v, tuple(family.tier_order))):
        units = [key for key, name in named.items() if name == value]
        found.append((f"{metrics[0]}, {tier} = {value}",
                      paired.paired(first.reindex(units).dropna(), second.reindex(units).dropna(), resamples, seed)))
    return found


def difference_table(rows: list[tuple[str, str, paired.Difference | None]], first: str, second: str,
                     unit: str) -> list[str]:
    """One line per compared measure: units, both mean scores, the difference and its interval."""
    lines = []
    for run, label, found in rows:
        if found is None:
            lines.append(f"| {run}{label} | 0 | - | - | - | - |")
            continue
        lines.append(f"| {run}{label} | {found.units} | {paired.points(found.first)} | {paired.points(found.second)} "
                     f"| {paired.points(found.mean, True)} | {paired.interval(found)} |")
    return table_lines(("run: measure" if rows and rows[0][0] else "measure", f"{unit}s paired",
                        f"{first}: mean over {unit}s (%)", f"{second}: mean over {unit}s (%)",
                        "difference (points)", "95% interval (points)"), lines)


def unlike(family: Family, first: tuple[Path, Report, pd.DataFrame | None],
           other: tuple[Path, Report, pd.DataFrame | None]) -> str | None:
    """Why a run did not score the first run's rows (so no paired difference), or None when it did."""
    missing = [str(path) for path, _, frame in (first, other) if frame is None]
    if missing:
        return f"no scores.parquet beside {' or '.join(missing)}: its rows cannot be paired"
    named = [key for key in family.keys if key not in other[2] or key not in first[2]]
    if len(named) == len(family.keys):
        return f"its verdicts name no row (no column {', '.join(family.keys)}): its rows cannot be paired"
    runs = [data.get("run") or {} for _, data, _ in (first, other)]
    for key in LIKE:
        if json.dumps(runs[0].get(key), sort_keys=True) != json.dumps(runs[1].get(key), sort_keys=True):
            return f"its {key} differs from the first run's: the rows are not the same"
    mine, theirs = set(row_ids(family, other[2])), set(row_ids(family, first[2]))
    if mine != theirs:
        return (f"it scored {len(mine - theirs)} rows the first run did not, and not {len(theirs - mine)} it did: "
                "the rows are not the same")
    return None


def failed_in_both(family: Family, frames: tuple[pd.DataFrame, pd.DataFrame]) -> tuple[list[pd.DataFrame], int]:
    """Both frames with every row whose request failed in either run marked failed in both, and how
    many rows that was: each family's own `scores` then sets them apart as its report does (LogicIF
    leaves such a row's whole task out of task accuracy, not only the row)."""
    ids = [row_ids(family, frame) for frame in frames]
    failed = set()
    for frame, named in zip(frames, ids):
        if "request_failed" in frame:
            failed |= set(named[frame["request_failed"].astype(bool)])
    marked = [frame.assign(request_failed=(frame["request_failed"].astype(bool) if "request_failed" in frame
                                           else False) | named.isin(failed).to_numpy())
              for frame, named in zip(frames, ids)]
    return marked, len(failed)


def difference_lines(family: Family, named: dict[Path, Report], resamples: int, seed: int,
                     heading: str = "##") -> list[str]:
    """Each later run's difference from the first, paired row by row where it scored the same rows,
    or why there is none."""
    runs = [(path, data, verdicts(path)) for path, data in named.items()]
    if len(runs) < 2:
        return []
    metrics, unit = list(family.report.metrics), family.paired_by
    rows, notes = [], []
    for other in runs[1:]:
        why = unlike(family, runs[0], other)
        if why:
            notes.append(f"- {title(other[1])} ({other[0]}): {why}")
            continue
        frames, failed = failed_in_both(family, (runs[0][2], other[2]))
        scores = [paired.unit_scores(family.report, frame, unit) for frame in frames]
        found = measures(family, (scores[0], scores[1]), (frames[0], frames[1]), metrics, resamples, seed)
        rows += [(f"{title(other[1])}: ", label, difference) for label, difference in found]
        notes.append(f"- {title(other[1])}: the same {len(set(row_ids(family, frames[0]))) - failed} rows as the first run"
                     + (f" ({failed} more, whose request failed in either run, set apart in both as a failed "
                        "request is in a report)" if failed else ""))
    lines = ["", f"{heading} Differences from the first run ({title(runs[0][1])})", ""]
    if not rows:
        return lines + ["**No paired differences**: no run scored the same rows as the first:", *notes]
    return lines + ["Paired where a run scored the same rows as the first; no difference where it did not:", *notes,
                    "", *difference_table(rows, "first run", "this run", unit), "",
                    paired.method(unit, resamples, seed)]


def compare(paths: list[Path], resamples: int = paired.RESAMPLES, seed: int = paired.SEED) -> str:
    """The reports' tables, one per family (headed by the family when there are several), each with
    its notes on what differs, and each run's paired difference from the first where the rows are the same."""
    by_family: dict[str, dict[Path, Report]] = {}
    families: dict[str, Family] = {}
    for path in paths:
        data = read_report(path)
        family = checked_family(Path(path), data)
        families[family.id] = family
        by_family.setdefault(family.id, {})[Path(path)] = data
    lines: list[str] = []
    for family_id, named in by_family.items():
        family = families[family_id]
        reports = list(named.values())
        if len(by_family) > 1:
            lines += [*([""] if lines else []), f"## {family_id}", ""]
        lines += family.report.compare_lines(reports)
        notes = differences(reports)
        if notes:
            lines += ["", "**Not like with like**: these runs differ, so their scores are not directly comparable:"]
            lines += [f"- {note}" for note in notes]
        lines += difference_lines(family, named, resamples, seed, "###" if len(by_family) > 1 else "##")
    return "\n".join(lines) + "\n"


def paired_report(original: Path, fresh: Path, metric: str | None = None, resamples: int = paired.RESAMPLES,
                  seed: int = paired.SEED) -> str:
    """One model's runs on an original benchmark and on its regeneration, paired by the family's
    `paired_by` (the source function): each run's score, the difference with its interval, overall and
    by tier, and a one-line verdict."""
    if Path(original).resolve() == Path(fresh).resolve():
        raise BenchmarkError(f"{fresh}: the same run as ORIGINAL: pair a run on the original with one on its "
                             "regeneration")
    reports = {path: read_report(path) for path in (Path(original), Path(fresh))}
    families = [checked_family(path, data) for path, data in reports.items()]
    if families[0].id != families[1].id:
        raise BenchmarkError(f"{fresh}: a {families[1].id} run, but {original} is a {families[0].id} run: "
                             "pair runs of one family")
    family = families[0]
    metrics = list(family.report.metrics)
    chosen = metric or metrics[0]
    if chosen not in metrics:
        raise BenchmarkError(f"--metric {chosen!r}: {family.id} reports {', '.join(metrics)}")
    frames = []
    for path in reports:
        frame = verdicts(path)
        if frame is None:
            raise BenchmarkError(f"{path}: no scores.parquet beside it: its rows cannot be paired")
        if family.paired_by not in frame:
            raise BenchmarkError(f"{path.parent / 'scores.parquet'}: no column {family.paired_by!r} to pair by")
        frames.append(frame)
    scores = [paired.unit_scores(family.report, frame, family.paired_by) for frame in frames]
    found = measures(family, (scores[0], scores[1]), (frames[0], frames[1]), [chosen], resamples, seed)
    unit, others = family.paired_by, [name for name in metrics if name != chosen]
    units = [set(frame[unit].dropna()) for frame in frames]
    scored = [set(paired.metric_values(family.report, own, chosen).index) for own in scores]
    lines = [f"# Paired: FRESH against ORIGINAL, by {unit}", "",
             f"- ORIGINAL: {title(reports[Path(original)])} ({original})",
             f"- FRESH: {title(reports[Path(fresh)])} ({fresh})",
             f"- metric: {chosen}" + (f" (the family's others, by --metric: {', '.join(others)})" if others else ""),
             f"- {unit}s: {len(scored[0] & scored[1])} scored in both; {len(units[0] - units[1])} only in ORIGINAL, "
             f"{len(units[1] - units[0])} only in FRESH, {len((units[0] & units[1]) - (scored[0] & scored[1]))} "
             "with nothing answered in one run (all left out)"]
    if family.tier is not None:
        lines.append(f"- tiers: {family.tier} as ORIGINAL's rows give it (FRESH's where ORIGINAL's have none)")
    lines += ["", "## Each run, as its report gives it", "", *family.report.compare_lines(list(reports.values())),
              "", f"## FRESH against ORIGINAL, {unit} by {unit}", "",
              *difference_table([("", *measured) for measured in found], "ORIGINAL", "FRESH", unit),
              "", paired.method(unit, resamples, seed, "FRESH", "ORIGINAL")]
    overall = found[0][1]
    lines += ["", "**Verdict:** " + (paired.verdict(overall, "FRESH") if overall else
                                    f"no {unit} was scored in both runs: nothing to pair")]
    return "\n".join(lines) + "\n"
