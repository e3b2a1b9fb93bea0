"""LogicIF's numbers: case and task accuracy, and the tables, plots and comparison built on them.

Case-level and task-level accuracy (a task passes only if all its cases pass) for output, state
and both: overall, per difficulty tier, per expression, and by complexity decile of the tasks;
every accuracy with its counts and a 95% Wilson interval (tasks are few: the intervals are wide).
Requests that failed are not answers: they are counted apart and left out of every accuracy, and a
task with a failed case is left out of task accuracy. Format failures are answers: they count as
wrong, and are counted apart too. Stability (IFS): per task, the coefficient of variation of its
score across expressions, averaged over tasks (lower is more stable).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from ifforge.eval.intervals import shown, wilson
from ifforge.eval.plots import Plot, draw
from ifforge.eval.report import Report, table_lines, variation

KINDS = ("output_ok", "stats_ok", "both_ok")
NAMES = {"output_ok": "output", "stats_ok": "state", "both_ok": "both"}
TIERS = ("easy", "medium", "hard")
PREFACE = ("Accuracy: case level, and task level (a task passes only if all its cases pass); each as percent "
           "(right/total) [95% Wilson interval]. Failed requests are not answers: they are left out of every "
           "accuracy (and their tasks out of task accuracy).")


def task_keys(frame: pd.DataFrame) -> list[str]:
    """What makes a task: its id, and its expression when the cases come under several."""
    return ["task_id", "expression_id"] if "expression_id" in frame else ["task_id"]


def accuracy(frame: pd.DataFrame, keys: list[str]) -> dict[str, Any]:
    """Counts, exact shares and intervals; failed requests apart (their tasks leave task accuracy)."""
    failed = frame["request_failed"] if "request_failed" in frame else pd.Series(False, index=frame.index)
    answered = frame[~failed]
    if answered.empty:
        return {"cases": 0, "tasks": 0, "request_failures": int(failed.sum())}
    incomplete = set(frame.loc[failed, keys].itertuples(index=False, name=None))
    tasks = answered.groupby(keys)[list(KINDS)].all()
    tasks = tasks[[(key if isinstance(key, tuple) else (key,)) not in incomplete for key in tasks.index]]
    row: dict[str, Any] = {"cases": len(answered), "tasks": len(tasks),
                           "format_failures": int((~answered["formatted"]).sum()),
                           "request_failures": int(failed.sum()), "tasks_left_out": len(incomplete)}
    if "extracted_by" in answered:
        row["extracted_by"] = {str(k): int(v) for k, v in answered["extracted_by"].value_counts().items()}
    for kind in KINDS:
        name = NAMES[kind]
        for level, part in (("case", answered[kind]), ("task", tasks[kind])):
            right, total = int(part.sum()), int(len(part))
            row[f"{level}_{name}_right"] = right
            row[f"{level}_{name}"] = right / total if total else None
            row[f"{level}_{name}_ci95"] = wilson(right, total)
            row[f"{level}_{name}_counts"] = [right, total]
    return row


def stability(frame: pd.DataFrame) -> dict[str, Any] | None:
    """IFS: mean over tasks of std / mean of the task's case-level score across expressions."""
    if "expression_id" not in frame or frame["expression_id"].nunique() < 2:
        return None
    if "request_failed" in frame:
        frame = frame[~frame["request_failed"]]
    cv, means = variation(frame, "task_id", "expression_id", "both_ok")
    return {"ifs": round(float(cv.mean()), 4) if len(cv) else None, "tasks": int(len(cv)),
            "tasks_never_solved": int((means <= 0).sum()), "expressions": int(frame["expression_id"].nunique())}


def task_deciles(frame: pd.DataFrame) -> pd.Series | None:
    """Each case's decile (1 = simplest) by its task's complexity: tasks are binned, never split."""
    if "code_complexity_score" not in frame:
        return None
    per_task = frame.groupby("task_id")["code_complexity_score"].mean()
    if per_task.nunique() < 2:
        return None
    bins = min(10, len(per_task))
    decile = pd.qcut(per_task.rank(method="first"), bins, labels=False) + 1
    return frame["task_id"].map(decile)


def summarise(frame: pd.DataFrame) -> dict[str, Any]:
    """Every table of the report, as plain data (also written as report.json)."""
    keys = task_keys(frame)
    summary: dict[str, Any] = {"overall": accuracy(frame, keys)}
    if "rules" in frame:
        summary["rules"] = "paper"
    if "difficulty" in frame:
        summary["by_difficulty"] = {tier: accuracy(frame[frame["difficulty"] == tier], keys)
                                    for tier in TIERS if (frame["difficulty"] == tier).any()}
    if "expression_id" in frame and frame["expression_id"].nunique() > 1:
        summary["by_expression"] = {str(e): accuracy(part, keys) for e, part in frame.groupby("expression_id")}
        summary["stability"] = stability(frame)
    deciles = task_deciles(frame)
    if deciles is not None:
        summary["by_complexity_decile"] = {int(d): accuracy(part, keys) for d, part in frame.groupby(deciles)}
    return summary


COLUMNS = [("case", "output"), ("case", "state"), ("case", "both"), ("task", "output"), ("task", "state"),
           ("task", "both")]


def line(label: str, row: dict[str, Any]) -> str:
    """One line of a table: cases, tasks, each accuracy with its counts and interval, failures."""
    cells = [str(label), str(row.get("cases", 0)), str(row.get("tasks", 0))]
    for level, name in COLUMNS:
        cells.append(shown(row.get(f"{level}_{name}_right", 0), row.get("cases" if level == "case" else "tasks", 0)))
    cells += [str(row.get("format_failures", 0)), str(row.get("request_failures", 0))]
    return "| " + " | ".join(cells) + " |"


def sections(summary: dict[str, Any]) -> list[str]:
    """LogicIF's own section: failed requests and the tasks they leave out, the rules, how answers
    were found, stability across expressions, and the failure modes when they were labelled."""
    overall = summary["overall"]
    lines: list[str] = []
    if overall.get("request_failures"):  # how many and why is the Replies line's; what it costs tasks is ours
        failed = overall["request_failures"]
        said = "" if summary.get("replies") else (
            f"{failed} failed request{'s' * (failed != 1)} (why not recorded), not scored: ")
        lines += [f"**{said}{overall.get('tasks_left_out', 0)} task(s) left out of task accuracy** (a case of each "
                  "had a failed request; see Replies). Run again to ask only those.", ""]
    if summary.get("rules") == "paper":
        lines += ["Scored with `--rules paper`: LogicIF's `compare_outputs`, a failed extraction of a LogicIF "
                  "result file compared as its null output and `{}` trackers.", ""]
    if overall.get("extracted_by"):
        found = ", ".join(f"{how}: {n}" for how, n in sorted(overall["extracted_by"].items()))
        lines += [f"Answers found by: {found} (json: the last JSON object; labelled: LogicIF's **Output:** / "
                  "**Statistics:** format; llm: an LLM's extraction, asked for with --extractor llm; given: "
                  "`llm_output` of a LogicIF result file; none: format failure; unreadable: a line whose answer or "
                  "gold could not be read; no reply: a benchmark row the replies file does not answer; the last "
                  "two count as format failures).", ""]
    if summary.get("by_expression"):
        ifs = summary.get("stability") or {}
        lines += [f"Stability (IFS, std / mean across expressions, lower is steadier): {ifs.get('ifs')} "
                  f"over {ifs.get('tasks')} tasks ({ifs.get('tasks_never_solved')} never solved, left out).", ""]
    failure_modes = summary.get("failure_modes")
    if failure_modes:
        lines += ["## Failure modes (LLM-labelled, not code-checked)", "", "| mode | cases |", "|---|---|"]
        lines += [f"| {mode} | {count} |" for mode, count in sorted(failure_modes.items(), key=lambda kv: -kv[1])]
    return (["## Answers and failures", "", *lines] if lines and not lines[0].startswith("## ") else lines)


def failure_mode_plot(summary: dict[str, Any], folder: Path, model: str) -> list[dict[str, Any]]:
    """The failure modes as shares of the labelled cases, each with its 95% Wilson interval."""
    modes = summary.get("failure_modes") or {}
    total = sum(modes.values())
    if not total:
        return []
    found = []
    for mode, count in sorted(modes.items(), key=lambda kv: -kv[1]):
        low, high = wilson(count, total)
        found.append({"group": mode, "value": round(count / total, 4), "low": low, "high": high, "n": count})
    title = f"Failure modes (LLM-labelled) of {total} wrong formatted cases"
    path = draw(found, folder / "failure_modes.png", title, model, "failure mode", "share of the labelled cases")
    return [{"file": path.name, "title": title, "model": model, "group": "failure_mode", "score": "share",
             "points": found}]


def compare_lines(reports: list[dict[str, Any]]) -> list[str]:
    """Several runs' report.json side by side, like LogicIFEval's Table 1."""
    header = ["model", "cases", "case both", "task output", "task state", "task both",
              *(f"task both, {tier}" for tier in TIERS), "format failures"]
    lines = []
    for data in reports:
        overall, tiers = data["overall"], data.get("by_difficulty", {})
        cells = [str(data.get("title", "?")), str(overall.get("cases", 0)),
                 shown(overall.get("case_both_right", 0), overall.get("cases", 0))]
        cells += [shown(overall.get(f"task_{k}_right", 0), overall.get("tasks", 0)) for k in ("output", "state", "both")]
        cells += [shown(tiers[t].get("task_both_right", 0), tiers[t].get("tasks", 0)) if t in tiers else "-"
                  for t in TIERS]
        cells.append(str(overall.get("format_failures", 0)))
        lines.append("| " + " | ".join(cells) + " |")
    return table_lines(header, lines)


def answer_found(scores: dict[str, Any]) -> float:
    """The share of answered cases whose reply held an answer the rules could read."""
    cases = scores.get("cases", 0)
    return (cases - scores.get("format_failures", 0)) / cases if cases else 0.0


class LogicIFReport(Report):
    """Case and task accuracy for output, state and both; by tier, expression, complexity decile and
    how answers were found; LogicIFEval's Table 1 when runs are compared."""

    name = "LogicIF"
    preface = PREFACE
    metrics = {"accuracy": "case_both", "task_accuracy": "task_both", "output_accuracy": "case_output",
               "state_accuracy": "case_state", "answer_found": answer_found}
    headline_shares = (("task accuracy (both)", "task_both"), ("case accuracy (both)", "case_both"))
    columns = ("group", "cases", "tasks", *(f"{level} {name}" for level, name in COLUMNS), "format fail", "failed req")
    tables = ("extraction", "difficulty", "expression", "complexity_decile")
    titles = {"extraction": "By how the answer was found", "difficulty": "By difficulty",
              "expression": "By expression", "complexity_decile": "By complexity decile of the tasks (1 = simplest)"}
    drawn = (Plot("difficulty", "task_both", "difficulty tier", "Task accuracy (both) by difficulty"),
             Plot("complexity_decile", "case_both", "complexity decile of the tasks (1 = simplest)",
                  "Case accuracy (both) by complexity decile (cases of one task are not independent)"),
             Plot("expression", "case_both", "expression", "Case accuracy (both) by expression"))

    def scores(self, part: pd.DataFrame) -> dict[str, Any]:
        return accuracy(part, task_keys(part))

    def summarise(self, frame: pd.DataFrame) -> dict[str, Any]:
        summary = summarise(frame)
        if "extracted_by" in frame and frame["extracted_by"].nunique() > 1:
            keys = task_keys(frame)
            summary["by_extraction"] = {str(how): accuracy(part, keys) for how, part in frame.groupby("extracted_by")}
        return summary

    def line(self, label: str, row: dict[str, Any]) -> str:
        return line(label, row)

    def sections(self, summary: dict[str, Any]) -> list[str]:
        return sections(summary)

    def extra_plots(self, summary: dict[str, Any], folder: Path, model: str) -> list[dict[str, Any]]:
        return failure_mode_plot(summary, folder, model)

    def compare_lines(self, reports: list[dict[str, Any]]) -> list[str]:
        return compare_lines(reports)


REPORT = LogicIFReport()
