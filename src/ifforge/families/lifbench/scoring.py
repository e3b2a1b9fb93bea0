"""LIFBench's verdicts and numbers: one prompt a row, scored by LIFEval's rubric. ARS (points
earned over the task's total weight) per sample, per task, and overall weighted by the tasks'
totals; the capability map; stability (IFS) per perspective.

IFS of a perspective (expression, variables, length) is LIFBench's Eq. 6 (`eval.report.variation`):
per task, the ARS of each group of the perspective (averaged over everything else), then the sample
std / mean across the groups; the mean over tasks is the IFS (0 is perfectly steady). The
capability map is its Eq. 4 (each task counts once). `--rules paper` scores with the original's
own verdicts (`paper.py`, rows from `ifforge convert lifbench`). Shares of
samples with full points carry 95% Wilson intervals. Failed requests are not answers: they are
counted apart and left out of every score.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from ifforge.eval.intervals import shown, wilson
from ifforge.eval.report import Report, pyplot, save_figure, table_lines, variation
from ifforge.families.base import Reply, Verdict
from ifforge.families.lifbench import paper, rubric

GROUPS = ("task", "scenario", "length_tokens", "expression_id", "variables_id")
PERSPECTIVES = {"expression": "expression_id", "variables": "variables_id", "length": "length_tokens"}


def weighted_ars(pairs: list[tuple[str, float]]) -> float:
    """Per task the mean ARS; overall, those means weighted by each task's total rubric weight."""
    by_task: dict[str, list[float]] = {}
    for task, ars in pairs:
        by_task.setdefault(task, []).append(ars)
    weights = {task: rubric.total(task) for task in by_task}
    return sum(weights[t] * sum(v) / len(v) for t, v in by_task.items()) / sum(weights.values())


def points_of(task: str, rules: str = "ifforge") -> list[tuple[str, float, tuple[str, ...]]]:
    """A task's rubric points under the rules: (id, weight, capabilities)."""
    if rules == "paper":
        return paper.POINTS[task]
    return [(p.id, float(p.weight), p.capabilities) for p in rubric.RUBRICS[task]]


def verdict(row: dict[str, Any], reply: Reply, rules: str = "ifforge") -> Verdict:
    """One row's verdict line: its grid coordinates, the reply's points (earned weight each), ARS;
    by LIFEval's rubric or (`rules` paper) by the original's own verdicts."""
    judge = paper.score if rules == "paper" else rubric.score
    failed = reply.failed
    found = judge(row, None if failed else reply.text)
    line = {key: row[key] for key in ("task_id", "sample_id", *GROUPS)}
    line |= {"request_failed": failed, "rules": rules, "ars": found["ars"], "earned": found["earned"],
             "total": found["total"], "full_points": found["correct"] and not failed,
             "points": json.dumps(found["points"])}
    return Verdict(line["full_points"], (line,))


def _rules(frame: pd.DataFrame) -> str:
    return str(frame["rules"].iloc[0]) if "rules" in frame and len(frame) else "ifforge"


def capability_map(frame: pd.DataFrame) -> dict[str, float | None]:
    """LIFBench's Eq. 4: per task, each point's mean earned weight over the task's samples; a
    capability's score is the sum of those means over every point (of every task) that measures
    it, over the sum of their weights. A task counts once however many samples it has."""
    answered = frame[~frame["request_failed"]]
    earned = dict.fromkeys(rubric.CAPABILITIES, 0.0)
    weight = dict.fromkeys(rubric.CAPABILITIES, 0.0)
    for task, part in answered.groupby("task"):
        means = pd.DataFrame([json.loads(p) for p in part["points"]]).mean()
        for point, point_weight, capabilities in points_of(str(task), _rules(frame)):
            for capability in capabilities:
                earned[capability] += float(means[point])
                weight[capability] += point_weight
    return {c: round(earned[c] / weight[c], 6) if weight[c] else None for c in rubric.CAPABILITIES}


def stability(frame: pd.DataFrame, column: str) -> dict[str, Any] | None:
    """IFS across the groups of `column` (LIFBench's Eq. 6): per task, the sample standard
    deviation over the mean of the groups' ARS; the mean over tasks."""
    answered = frame[~frame["request_failed"]]
    if answered.empty or answered[column].nunique() < 2:
        return None
    cv, means = variation(answered, "task", column, "ars", ddof=1)
    return {"ifs": round(float(cv.mean()), 6) if len(cv) else None, "groups": int(answered[column].nunique()),
            "tasks": int(len(cv)), "tasks_never_scored": int((means <= 0).sum()),
            "by_task": {str(task): round(float(value), 4) for task, value in cv.items()}}


TITLES = {"task": "By task", "scenario": "By scenario", "length_tokens": "By length (tokens)",
          "expression_id": "By expression (e0: the original template)", "variables_id": "By variable set"}


class LifbenchReport(Report):
    name = "LIFBench"
    groups = GROUPS
    metrics = {"ars": "ars", "full_points": "full_points_share"}
    empty = {"samples": 0, "request_failures": 0}
    columns = ("group", "samples", "ARS (weighted)", "mean ARS", "full points", "failed requests")

    def scores(self, part: pd.DataFrame) -> dict[str, Any]:
        answered = part[~part["request_failed"]]
        full = int(answered["full_points"].sum())
        row: dict[str, Any] = {"samples": int(len(answered)), "request_failures": int(part["request_failed"].sum())}
        if len(answered):
            row["ars"] = round(weighted_ars(list(zip(answered["task"], answered["ars"]))), 4)
            row["mean_ars"] = round(float(answered["ars"].mean()), 4)
        row |= {"full_points": full, "full_points_share": round(full / len(answered), 4) if len(answered) else None,
                "full_points_ci95": wilson(full, len(answered)), "full_points_shown": shown(full, len(answered))}
        return row

    def summarise(self, frame: pd.DataFrame) -> dict[str, Any]:
        """The groups' numbers, then the share of each rubric point earned per task, the capability
        map and the stability of every perspective."""
        summary = super().summarise(frame)
        if frame.empty:
            return summary
        for task, part in frame[~frame["request_failed"]].groupby("task"):
            points = pd.DataFrame([json.loads(p) for p in part["points"]])
            weights = {point: weight for point, weight, _ in points_of(task, _rules(frame))}
            summary["by_task"][task]["points"] = {k: round(float(points[k].mean() / weights[k]), 4) for k in points}
        summary["rules"] = _rules(frame)
        summary["capabilities"] = capability_map(frame)
        summary["stability"] = {name: stability(frame, column) for name, column in PERSPECTIVES.items()}
        return summary

    def line(self, label: str, row: dict[str, Any]) -> str:
        if not row.get("samples"):
            return f"| {label} | 0 | | | | {row.get('request_failures', 0)} |"
        return (f"| {label} | {row['samples']} | {row['ars']:.3f} | {row['mean_ars']:.3f} | {row['full_points_shown']} "
                f"| {row['request_failures']} |")

    def sections(self, summary: dict[str, Any]) -> list[str]:
        """A table per group, the rubric points per task, the capability map, stability per perspective."""
        rules = {"paper": "paper (LIFBench's own EvaluateFunc verdicts)", "ifforge": "ifforge (LIFEval, fixed)"}
        lines = [f"Rules: {rules.get(summary.get('rules', 'ifforge'), summary.get('rules'))}", "",
                 "## Overall", "", *table_lines(self.columns, [self.line("overall", summary["overall"])])]
        for key in GROUPS:
            rows = [self.line(str(value), row) for value, row in summary.get(f"by_{key}", {}).items()]
            lines += ["", f"## {TITLES[key]}", "", *table_lines(self.columns, rows)]
        points = [f"| {task} | " + ", ".join(f"{k} {v:.2f}" for k, v in row.get("points", {}).items()) + " |"
                  for task, row in summary.get("by_task", {}).items()]
        lines += ["", "## Rubric points (share of each point's weight earned)", "",
                  *table_lines(("task", "points"), points)]
        capabilities = [f"| {k} | {'n/a' if v is None else f'{v:.3f}'} |"
                        for k, v in summary.get("capabilities", {}).items()]
        lines += ["", "## Capability map", "", *table_lines(("capability", "score"), capabilities)]
        stable = [f"| {name} | n/a (one group) | | | |" if ifs is None else
                  f"| {name} | {ifs['ifs']} | {ifs['groups']} | {ifs['tasks']} | {ifs['tasks_never_scored']} |"
                  for name, ifs in summary.get("stability", {}).items()]
        lines += ["", "## Stability (IFS = std / mean of ARS across a perspective's groups, per task, averaged; "
                  "lower is steadier)", "",
                  *table_lines(("perspective", "IFS", "groups", "tasks", "tasks never scored"), stable)]
        lines += ["", "ARS: a sample's rubric points earned over its task's total weight; a task's ARS is the mean of "
                  "its samples'; overall, tasks are weighted by their total weight. Full points: every rubric point "
                  "earned (95% Wilson interval). Failed requests are not answers and are left out of every score."]
        return lines

    def plots(self, summary: dict[str, Any], folder: Path) -> list[Path]:
        """ARS by length and by task; the capability map beside the IFS of each perspective."""
        plt = pyplot()
        made = []
        by_length = {k: v for k, v in summary.get("by_length_tokens", {}).items() if v.get("samples")}
        if by_length:
            figure, axis = plt.subplots(figsize=(6, 4))
            axis.plot([int(k) for k in by_length], [v["ars"] for v in by_length.values()], marker="o")
            axis.set_xscale("log", base=2)
            axis.set(xlabel="prompt length (tokens)", ylabel="ARS", ylim=(0, 1), title="ARS by length")
            made.append(save_figure(figure, folder / "ars_by_length.png", 100))
        tasks = {k: v for k, v in summary.get("by_task", {}).items() if v.get("samples")}
        if tasks:
            figure, axis = plt.subplots(figsize=(7, 4))
            axis.bar(list(tasks), [v["ars"] for v in tasks.values()])
            axis.set(ylabel="ARS", ylim=(0, 1), title="ARS by task")
            axis.tick_params(axis="x", rotation=45)
            made.append(save_figure(figure, folder / "ars_by_task.png", 100))
        capabilities = {k: v for k, v in summary.get("capabilities", {}).items() if v is not None}
        stable = {k: v["ifs"] for k, v in summary.get("stability", {}).items() if v and v["ifs"] is not None}
        if capabilities or stable:
            figure, (left, right) = plt.subplots(1, 2, figsize=(9, 4))
            left.bar(list(capabilities), list(capabilities.values()))
            left.set(ylim=(0, 1), title="capability map")
            left.tick_params(axis="x", rotation=45)
            right.bar(list(stable), list(stable.values()), color="tab:orange")
            right.set(title="IFS by perspective (lower: steadier)")
            made.append(save_figure(figure, folder / "capabilities_and_ifs.png", 100))
        return made

    def headline(self, summary: dict[str, Any]) -> str:
        overall = summary["overall"]
        values = {name: (value or {}).get("ifs") for name, value in summary.get("stability", {}).items()}
        ifs = ", ".join(f"{name} {'n/a' if value is None else f'{value:.3f}'}" for name, value in values.items())
        return (f"ARS {overall.get('ars') or 0:.3f}, full points {overall.get('full_points_shown', '-')}"
                + (f"; IFS (lower is steadier): {ifs}" if ifs else ""))


REPORT = LifbenchReport()
