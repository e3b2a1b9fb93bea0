"""LIFEval's report: ARS (points earned over the task's total weight) per sample, per task, and
overall weighted by the tasks' totals; the capability map; stability (IFS) per perspective.

IFS of a perspective (expression, variables, length) is computed as LogicIF's per-expression IFS
is (`eval.report.variation`): per task, the ARS of each group of the perspective (averaged over everything else), then
std / mean across the groups; the mean over tasks is the IFS (0 is perfectly steady). Shares of
samples with full points carry 95% Wilson intervals. Failed requests are not answers: they are
counted apart and left out of every score.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from ifforge.core.store import atomic_path, atomic_write
from ifforge.eval.intervals import shown, wilson
from ifforge.eval.report import variation
from ifforge.families.lifbench import rubric

GROUPS = ("task", "scenario", "length_tokens", "expression_id", "variables_id")
PERSPECTIVES = {"expression": "expression_id", "variables": "variables_id", "length": "length_tokens"}


def weighted_ars(pairs: list[tuple[str, float]]) -> float:
    """Per task the mean ARS; overall, those means weighted by each task's total rubric weight."""
    by_task: dict[str, list[float]] = {}
    for task, ars in pairs:
        by_task.setdefault(task, []).append(ars)
    weights = {task: rubric.total(task) for task in by_task}
    return sum(weights[t] * sum(v) / len(v) for t, v in by_task.items()) / sum(weights.values())


def score_frame(rows: list[dict[str, Any]], results: list[dict[str, Any]]) -> pd.DataFrame:
    """One line per row: its grid coordinates, the reply's points, ARS and capability points."""
    records = []
    for row, result in zip(rows, results):
        failed = bool(result.get("request_failed"))
        verdict = rubric.score(row, None if failed else result.get("response"))
        record = {key: row[key] for key in ("task_id", "sample_id", *GROUPS)}
        record |= {"request_failed": failed, "ars": verdict["ars"], "earned": verdict["earned"],
                   "total": verdict["total"], "full_points": verdict["correct"] and not failed,
                   "points": json.dumps(verdict["points"])}
        for capability in rubric.CAPABILITIES:
            points = [p for p in rubric.RUBRICS[row["task"]] if capability in p.capabilities]
            record[f"cap_{capability}_earned"] = sum(verdict["points"][p.id] for p in points)
            record[f"cap_{capability}_weight"] = float(sum(p.weight for p in points))
        records.append(record)
    return pd.DataFrame(records)


def _scores(frame: pd.DataFrame) -> dict[str, Any]:
    answered = frame[~frame["request_failed"]]
    full = int(answered["full_points"].sum())
    row: dict[str, Any] = {"samples": int(len(answered)),
                           "request_failures": int(frame["request_failed"].sum())}
    if len(answered):
        row["ars"] = round(weighted_ars(list(zip(answered["task"], answered["ars"]))), 4)
        row["mean_ars"] = round(float(answered["ars"].mean()), 4)
    row |= {"full_points": full, "full_points_share": round(full / len(answered), 4) if len(answered) else None,
            "full_points_ci95": wilson(full, len(answered)), "full_points_shown": shown(full, len(answered))}
    return row


def capability_map(frame: pd.DataFrame) -> dict[str, float | None]:
    answered = frame[~frame["request_failed"]]
    out = {}
    for capability in rubric.CAPABILITIES:
        weight = answered[f"cap_{capability}_weight"].sum()
        out[capability] = round(float(answered[f"cap_{capability}_earned"].sum() / weight), 4) if weight else None
    return out


def stability(frame: pd.DataFrame, column: str) -> dict[str, Any] | None:
    """IFS across the groups of `column`: per task std / mean of the groups' ARS, averaged over tasks."""
    answered = frame[~frame["request_failed"]]
    if answered.empty or answered[column].nunique() < 2:
        return None
    cv, means = variation(answered, "task", column, "ars")
    return {"ifs": round(float(cv.mean()), 4) if len(cv) else None, "groups": int(answered[column].nunique()),
            "tasks": int(len(cv)), "tasks_never_scored": int((means <= 0).sum()),
            "by_task": {str(task): round(float(value), 4) for task, value in cv.items()}}


def summarise(frame: pd.DataFrame) -> dict[str, Any]:
    if frame.empty:
        return {"overall": {"samples": 0, "request_failures": 0}}
    summary: dict[str, Any] = {"overall": _scores(frame)}
    for key in GROUPS:
        summary[f"by_{key}"] = {str(value): _scores(part) for value, part in frame.groupby(key)}
    for task, part in frame[~frame["request_failed"]].groupby("task"):
        points = pd.DataFrame([json.loads(p) for p in part["points"]])
        weights = {p.id: p.weight for p in rubric.RUBRICS[task]}
        summary["by_task"][task]["points"] = {k: round(float(points[k].mean() / weights[k]), 4) for k in points}
    summary["capabilities"] = capability_map(frame)
    summary["stability"] = {name: stability(frame, column) for name, column in PERSPECTIVES.items()}
    return summary


def _line(name: str, row: dict[str, Any]) -> str:
    if not row.get("samples"):
        return f"| {name} | 0 | | | | {row.get('request_failures', 0)} |"
    return (f"| {name} | {row['samples']} | {row['ars']:.3f} | {row['mean_ars']:.3f} | {row['full_points_shown']} "
            f"| {row['request_failures']} |")


def markdown(summary: dict[str, Any], title: str, run: dict[str, Any]) -> str:
    from ifforge.eval.report import run_lines

    header = ["| group | samples | ARS (weighted) | mean ARS | full points | failed requests |", "|---|---|---|---|---|---|"]
    lines = [f"# LIFBench: {title}", "", *run_lines(run), "## Overall", "", *header, _line("overall", summary["overall"])]
    names = {"task": "By task", "scenario": "By scenario", "length_tokens": "By length (tokens)",
             "expression_id": "By expression (e0: the original template)", "variables_id": "By variable set"}
    for key in GROUPS:
        lines += ["", f"## {names[key]}", "", *header]
        lines += [_line(str(value), row) for value, row in summary.get(f"by_{key}", {}).items()]
    lines += ["", "## Rubric points (share of each point's weight earned)", "", "| task | points |", "|---|---|"]
    for task, row in summary.get("by_task", {}).items():
        lines.append(f"| {task} | " + ", ".join(f"{k} {v:.2f}" for k, v in row.get("points", {}).items()) + " |")
    lines += ["", "## Capability map", "", "| capability | score |", "|---|---|"]
    lines += [f"| {k} | {'n/a' if v is None else f'{v:.3f}'} |" for k, v in summary.get("capabilities", {}).items()]
    lines += ["", "## Stability (IFS = std / mean of ARS across a perspective's groups, per task, averaged; "
              "lower is steadier)", "", "| perspective | IFS | groups | tasks | tasks never scored |", "|---|---|---|---|---|"]
    for name, ifs in summary.get("stability", {}).items():
        lines.append(f"| {name} | n/a (one group) | | | |" if ifs is None else
                     f"| {name} | {ifs['ifs']} | {ifs['groups']} | {ifs['tasks']} | {ifs['tasks_never_scored']} |")
    lines += ["", "ARS: a sample's rubric points earned over its task's total weight; a task's ARS is the mean of its "
              "samples'; overall, tasks are weighted by their total weight. Full points: every rubric point earned "
              "(95% Wilson interval). Failed requests are not answers and are left out of every score."]
    return "\n".join(lines) + "\n"


def plots(summary: dict[str, Any], folder: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    made = []

    def save(figure, name: str) -> None:
        figure.tight_layout()
        with atomic_path(folder / name) as temporary:
            figure.savefig(temporary, dpi=100, format="png")
        plt.close(figure)
        made.append(folder / name)

    by_length = {k: v for k, v in summary.get("by_length_tokens", {}).items() if v.get("samples")}
    if by_length:
        figure, axis = plt.subplots(figsize=(6, 4))
        axis.plot([int(k) for k in by_length], [v["ars"] for v in by_length.values()], marker="o")
        axis.set_xscale("log", base=2)
        axis.set(xlabel="prompt length (tokens)", ylabel="ARS", ylim=(0, 1), title="ARS by length")
        save(figure, "ars_by_length.png")
    tasks = {k: v for k, v in summary.get("by_task", {}).items() if v.get("samples")}
    if tasks:
        figure, axis = plt.subplots(figsize=(7, 4))
        axis.bar(list(tasks), [v["ars"] for v in tasks.values()])
        axis.set(ylabel="ARS", ylim=(0, 1), title="ARS by task")
        axis.tick_params(axis="x", rotation=45)
        save(figure, "ars_by_task.png")
    capabilities = {k: v for k, v in summary.get("capabilities", {}).items() if v is not None}
    stable = {k: v["ifs"] for k, v in summary.get("stability", {}).items() if v and v["ifs"] is not None}
    if capabilities or stable:
        figure, (left, right) = plt.subplots(1, 2, figsize=(9, 4))
        left.bar(list(capabilities), list(capabilities.values()))
        left.set(ylim=(0, 1), title="capability map")
        left.tick_params(axis="x", rotation=45)
        right.bar(list(stable), list(stable.values()), color="tab:orange")
        right.set(title="IFS by perspective (lower: steadier)")
        save(figure, "capabilities_and_ifs.png")
    return made


def write_report(frame: pd.DataFrame, folder: Path, title: str, run: dict[str, Any] | None = None) -> dict[str, Any]:
    """report.json, report.md and the plots in `folder`; returns the summary."""
    summary = summarise(frame)
    folder.mkdir(parents=True, exist_ok=True)
    summary["plots"] = [path.name for path in plots(summary, folder)]
    atomic_write(folder / "report.json", json.dumps({"title": title, "run": run or {}, **summary}, indent=2) + "\n")
    atomic_write(folder / "report.md", markdown(summary, title, run or {}))
    return summary
