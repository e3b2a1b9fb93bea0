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
from typing import Any

import pandas as pd

from ifforge.eval.intervals import figure, share, shown, weighted_interval
from ifforge.eval.plots import Plot
from ifforge.eval.report import Report, table_lines, variation
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


def capability_scores(frame: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """Each capability's Eq. 4 score with its 95% interval: the score is a weighted mean over tasks
    (each weighing the weight of its points that measure the capability) of each sample's earned
    share of those points, so `weighted_interval` gives its interval; n is the samples it rests on."""
    answered = frame[~frame["request_failed"]]
    groups: dict[str, dict[str, tuple[float, list[float]]]] = {c: {} for c in rubric.CAPABILITIES}
    for task, part in answered.groupby("task"):
        earned = pd.DataFrame([json.loads(p) for p in part["points"]])
        for capability in rubric.CAPABILITIES:
            measured = [(point, weight) for point, weight, capabilities in points_of(str(task), _rules(frame))
                        if capability in capabilities]
            total = sum(weight for _, weight in measured)
            if total:
                shares = sum(earned[point] for point, _ in measured) / total
                groups[capability][str(task)] = (total, [float(v) for v in shares])
    scores = capability_map(frame)
    return {c: {"score": scores[c], "score_ci95": weighted_interval(groups[c]),
                "score_n": sum(len(values) for _, values in groups[c].values())}
            for c in rubric.CAPABILITIES if scores[c] is not None}


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


TITLES = {"task": "By task", "scenario": "By scenario", "length_tokens": "By input length bucket (tokens)",
          "expression_id": "By expression (e0: the original template)", "variables_id": "By variable set"}


class LifbenchReport(Report):
    name = "LIFBench"
    groups = GROUPS
    metrics = {"ars": "ars", "full_points": "full_points_share"}
    empty = {"samples": 0, "request_failures": 0}
    columns = ("group", "samples", "ARS (weighted)", "mean ARS", "full points", "failed requests")
    headline_shares = (("ARS", "ars"), ("full points", "full_points_share"))
    titles = TITLES
    drawn = (Plot("length_tokens", "ars", "input length bucket (tokens)", "ARS by input length bucket"),
             Plot("task", "ars", "task"), Plot("scenario", "ars", "scenario"),
             Plot("capability", "score", "capability", "Capability map (LIFBench's Eq. 4)", "capability score"))

    def scores(self, part: pd.DataFrame) -> dict[str, Any]:
        answered = part[~part["request_failed"]]
        full = int(answered["full_points"].sum())
        row: dict[str, Any] = {"samples": int(len(answered)), "request_failures": int(part["request_failed"].sum())}
        if len(answered):
            row["ars"] = round(weighted_ars(list(zip(answered["task"], answered["ars"]))), 4)
            row["ars_n"] = int(len(answered))
            row["ars_ci95"] = weighted_interval({str(task): (rubric.total(str(task)), [float(v) for v in part["ars"]])
                                                 for task, part in answered.groupby("task")})
            row["mean_ars"] = round(float(answered["ars"].mean()), 4)
        shares = share("full_points_share", full, len(answered))
        row |= {"full_points": full, **shares, "full_points_ci95": shares["full_points_share_ci95"],
                "full_points_shown": shown(full, len(answered))}
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
        summary["by_capability"] = capability_scores(frame)
        summary["stability"] = {name: stability(frame, column) for name, column in PERSPECTIVES.items()}
        return summary

    def line(self, label: str, row: dict[str, Any]) -> str:
        if not row.get("samples"):
            return f"| {label} | 0 | | | | {row.get('request_failures', 0)} |"
        return (f"| {label} | {row['samples']} | {figure(row, 'ars')} | {row['mean_ars']:.3f} "
                f"| {row['full_points_shown']} "
                f"| {row['request_failures']} |")

    def sections(self, summary: dict[str, Any]) -> list[str]:
        """The rules, the rubric points per task, the capability map, stability per perspective."""
        rules = {"paper": "paper (LIFBench's own EvaluateFunc verdicts)", "ifforge": "ifforge (LIFEval, fixed)"}
        lines = ["## Rules", "", f"Rules: {rules.get(summary.get('rules', 'ifforge'), summary.get('rules'))}"]
        points = [f"| {task} | " + ", ".join(f"{k} {v:.2f}" for k, v in row.get("points", {}).items()) + " |"
                  for task, row in summary.get("by_task", {}).items()]
        lines += ["", "## Rubric points (share of each point's weight earned)", "",
                  *table_lines(("task", "points"), points)]
        scored = summary.get("by_capability") or {}
        capabilities = [f"| {k} | {figure(scored[k], 'score') if k in scored else 'n/a'} |"
                        for k in summary.get("capabilities", {})]
        lines += ["", "## Capability map", "", *table_lines(("capability", "score"), capabilities)]
        stable = [f"| {name} | n/a (one group) | | | |" if ifs is None else
                  f"| {name} | {shown_ifs(ifs['ifs'])} | {ifs['groups']} | {ifs['tasks']} | {ifs['tasks_never_scored']} |"
                  for name, ifs in summary.get("stability", {}).items()]
        return lines + ["", "## Stability (IFS = std / mean of ARS across a perspective's groups, per task, averaged; "
                        "lower is steadier)", "",
                        *table_lines(("perspective", "IFS", "groups", "tasks", "tasks never scored"), stable)]

    def notes(self, summary: dict[str, Any]) -> list[str]:
        return ["ARS: a sample's rubric points earned over its task's total weight; a task's ARS is the mean of "
                "its samples'; overall, tasks are weighted by their total weight (its 95% interval: from the spread "
                "of the samples around that weighted mean, each sample weighted as its task, with Student's t). Full "
                "points: every rubric point earned. Length buckets: the length the input was built to (tokens), not "
                "the prompt's own count. Failed requests are not answers and are left out of every score."]

    def headline_extra(self, summary: dict[str, Any]) -> str:
        """IFS of each perspective (lower: steadier)."""
        def ifs(value: dict[str, Any] | None) -> str:
            return "n/a" if not value or value.get("ifs") is None else f"{value['ifs']:.3f}"

        stability = summary.get("stability") or {}
        return ("IFS (lower is steadier): " + ", ".join(f"{name} {ifs(value)}" for name, value in stability.items())) if stability else ""


REPORT = LifbenchReport()


def shown_ifs(value: float | None) -> str:
    """An IFS as the report shows it: three decimals, as the capability map's scores (report.json keeps six)."""
    return "n/a (no task scored)" if value is None else f"{value:.3f}"
