"""How deep a version's cases go, measured by running them in the sandbox on the original function:
per task and overall, the lines a case executes (median and quartiles), the share of the function's
branch arcs the cases take, and the share of trivial outputs (None, empty, 0, False). The seed's own
cases ("given") and the generated ones are measured apart, so a version whose seeds came with their
original cases (LogicIF's files, `--functions` with `--test-cases`) shows both side by side.

A branch arc is one way out of a decision (`if`, `for`, `while`): into its body, or past it. The
sandbox records the line-to-line arcs a call takes; a decision's body arc is (its line, its body's
first line), and any other arc from its line is the way past. Found on the code's own lines, so it
needs no coverage tool and counts the same on every machine."""

from __future__ import annotations

import ast
import statistics
from typing import Any

from ifforge.core import pyast
from ifforge.core.sandbox import execution as sandbox
from ifforge.families.logicif.filters import trivial  # the inputs stage's own measure

GROUPS = ("given", "generated")


def decisions(source: str) -> list[tuple[int, int]]:
    """(decision line, its body's first line) of every `if`, `for` and `while` whose body starts on a
    line of its own; each has two branch arcs."""
    found = []
    for node in ast.walk(pyast.parse(source)):
        if isinstance(node, (ast.If, ast.For, ast.While, ast.AsyncFor)) and node.body[0].lineno != node.lineno:
            found.append((node.lineno, node.body[0].lineno))
    return sorted(set(found))


def arcs_taken(points: list[tuple[int, int]], arcs: set[tuple[int, int]]) -> int:
    """How many of the decisions' branch arcs (two each) the arcs take."""
    taken = 0
    for line, body in points:
        taken += (line, body) in arcs
        taken += any(start == line and end != body for start, end in arcs)
    return taken


def figures(results: list[sandbox.CaseResult], points: list[tuple[int, int]]) -> dict[str, Any] | None:
    """The depth of one group of cases of one function (None when the group is empty)."""
    ran = [r for r in results if r.ok and r.steps is not None]
    if not ran:
        return None
    lines = sorted(r.steps for r in ran)
    quartiles = statistics.quantiles(lines, n=4, method="inclusive") if len(lines) > 1 else [lines[0]] * 3
    arcs = {tuple(arc) for r in ran for arc in (r.arcs or [])}
    return {"cases": len(ran), "lines_median": statistics.median(lines), "lines_q1": quartiles[0],
            "lines_q3": quartiles[2], "branch_arcs": 2 * len(points), "branch_arcs_taken": arcs_taken(points, arcs),
            "trivial_share": round(sum(trivial(r.output) for r in ran) / len(ran), 4)}


def measure_task(source: str, entry: str, cases: list[tuple[list, str | None]],
                 limits: sandbox.Limits) -> dict[str, dict | None]:
    """Per group, the figures of one task's cases (arguments, origin: None for the seed's own)."""
    points = decisions(source)
    results = sandbox.run_cases(source, entry, [args for args, _ in cases], limits=limits, coverage=True)
    by_group: dict[str, list] = {group: [] for group in GROUPS}
    for (_, origin), result in zip(cases, results):
        by_group["given" if origin is None else "generated"].append(result)
    return {group: figures(found, points) for group, found in by_group.items()}


def overall(tasks: dict[str, dict[str, dict | None]]) -> dict[str, dict | None]:
    """Per group, over its tasks: the median and quartiles of the tasks' median lines a case, the
    branch arcs taken over all of them, the share of trivial outputs over every case, and the
    tasks whose outputs are trivial in most cases."""
    summary: dict[str, dict | None] = {}
    for group in GROUPS:
        found = [task[group] for task in tasks.values() if task.get(group)]
        if not found:
            summary[group] = None
            continue
        medians = sorted(f["lines_median"] for f in found)
        quartiles = statistics.quantiles(medians, n=4, method="inclusive") if len(medians) > 1 else [medians[0]] * 3
        cases = sum(f["cases"] for f in found)
        summary[group] = {
            "tasks": len(found), "cases": cases, "lines_median": statistics.median(medians),
            "lines_q1": quartiles[0], "lines_q3": quartiles[2],
            "branch_arcs": sum(f["branch_arcs"] for f in found),
            "branch_arcs_taken": sum(f["branch_arcs_taken"] for f in found),
            "trivial_share": round(sum(f["trivial_share"] * f["cases"] for f in found) / cases, 4),
            "tasks_mostly_trivial": sum(f["trivial_share"] > 0.5 for f in found)}
    return summary


def measure(items: list[tuple[str, str, str, list[tuple[list, str | None]]]], limits: sandbox.Limits) -> dict:
    """The manifest's `depth`: per task (task id, original source, entry, cases) and overall."""
    tasks = {task_id: measure_task(source, entry, cases, limits) for task_id, source, entry, cases in items}
    return {"tasks": tasks, "overall": overall(tasks)}


def _n(value: float) -> str:
    return f"{round(value, 1):g}"


def _share(f: dict) -> str:
    total = f["branch_arcs"]
    return f"{f['branch_arcs_taken']}/{total} ({f['branch_arcs_taken'] / total:.0%})" if total else "no branches"


def _cells(f: dict | None) -> list[str]:
    if not f:
        return ["", "", ""]
    return [f"{_n(f['lines_median'])} ({_n(f['lines_q1'])}-{_n(f['lines_q3'])})", _share(f), f"{f['trivial_share']:.0%}"]


SECTION = "Depth: how far the cases go"


def card_section(depth: dict | None) -> list[str]:
    """The card's depth section (its lines under the heading `SECTION`): overall, then a line per
    task; the seed's own cases beside the generated ones when a version has both."""
    if not depth or not depth.get("tasks"):
        return []
    summary = depth["overall"]
    groups = [g for g in GROUPS if summary.get(g)]
    lines = ["Measured by running each case on the original function in the sandbox: lines executed a case "
             "(median, and quartiles), branch arcs taken (each `if`, `for` and `while` has two: into its body and "
             "past it), and the share of trivial outputs (None, empty, 0, False). \"given\": the cases the seeds "
             "came with; \"generated\": inputs ifforge made.", ""]
    for group in groups:
        f = summary[group]
        lines.append(f"- {group}: {f['tasks']} tasks, {f['cases']} cases; lines a case, median over tasks "
                     f"{_n(f['lines_median'])} (quartiles {_n(f['lines_q1'])}-{_n(f['lines_q3'])}); branch arcs taken "
                     f"{_share(f)}; trivial outputs {f['trivial_share']:.0%} of cases, trivial in most cases: "
                     f"{f['tasks_mostly_trivial']} of {f['tasks']} tasks.")
    header = "| task |" + "".join(f" {g}: lines a case | {g}: branch arcs | {g}: trivial |" for g in groups)
    lines += ["", header, "|---|" + "---|---|---|" * len(groups)]
    for task_id, task in sorted(depth["tasks"].items()):
        lines.append("| " + " | ".join([task_id, *(cell for g in groups for cell in _cells(task.get(g)))]) + " |")
    return [*lines, ""]
