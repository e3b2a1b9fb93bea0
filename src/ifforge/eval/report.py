"""Aggregate case verdicts into the numbers researchers compare, and write them down.

Case-level and task-level accuracy (a task passes only if all its cases pass) for output, state
and both: overall, per difficulty tier, per expression, and by complexity decile; format failures
apart; LIFBench's stability (IFS): per task, the coefficient of variation of its score across
expressions, averaged over tasks (lower is more stable).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from ifforge.core.store import atomic_path, atomic_write

KINDS = ("output_ok", "stats_ok", "both_ok")
TIERS = ("easy", "medium", "hard")


def _accuracy(frame: pd.DataFrame, task_keys: list[str]) -> dict[str, Any]:
    if frame.empty:
        return {"cases": 0, "tasks": 0}
    tasks = frame.groupby(task_keys)[list(KINDS)].all()
    row: dict[str, Any] = {"cases": len(frame), "tasks": len(tasks),
                           "format_failures": int((~frame["formatted"]).sum())}
    for kind in KINDS:
        name = kind.removesuffix("_ok").replace("stats", "state")
        row[f"case_{name}"] = round(float(frame[kind].mean()), 4)
        row[f"task_{name}"] = round(float(tasks[kind].mean()), 4)
    return row


def stability(frame: pd.DataFrame) -> dict[str, Any] | None:
    """IFS: mean over tasks of std / mean of the task's case-level score across expressions."""
    if "expression_id" not in frame or frame["expression_id"].nunique() < 2:
        return None
    per_expression = frame.groupby(["task_id", "expression_id"])["both_ok"].mean().unstack()
    means = per_expression.mean(axis=1)
    spread = per_expression.std(axis=1, ddof=0)
    scored = means > 0
    cv = (spread[scored] / means[scored])
    return {"ifs": round(float(cv.mean()), 4) if len(cv) else None, "tasks": int(scored.sum()),
            "tasks_never_solved": int((~scored).sum()), "expressions": int(frame["expression_id"].nunique())}


def summarise(frame: pd.DataFrame) -> dict[str, Any]:
    """Every table of the report, as plain data (also written as report.json)."""
    keys = ["task_id", "expression_id"] if "expression_id" in frame else ["task_id"]
    summary: dict[str, Any] = {"overall": _accuracy(frame, keys)}
    if "difficulty" in frame:
        summary["by_difficulty"] = {tier: _accuracy(frame[frame["difficulty"] == tier], keys)
                                    for tier in TIERS if (frame["difficulty"] == tier).any()}
    if "expression_id" in frame and frame["expression_id"].nunique() > 1:
        summary["by_expression"] = {str(e): _accuracy(part, keys) for e, part in frame.groupby("expression_id")}
        summary["stability"] = stability(frame)
    if "code_complexity_score" in frame and frame["code_complexity_score"].nunique() > 1:
        deciles = pd.qcut(frame["code_complexity_score"].rank(method="first"), 10, labels=False, duplicates="drop")
        summary["by_complexity_decile"] = {int(d) + 1: _accuracy(part, keys) for d, part in frame.groupby(deciles)}
    return summary


def _table(rows: dict[str, dict[str, Any]], first: str) -> list[str]:
    columns = ["cases", "tasks", "case_output", "case_state", "case_both", "task_output", "task_state", "task_both",
               "format_failures"]
    lines = [f"| {first} | " + " | ".join(columns) + " |", "|" + "---|" * (len(columns) + 1)]
    for name, row in rows.items():
        cells = [f"{row[c]:.1%}" if isinstance(row.get(c), float) else str(row.get(c, "")) for c in columns]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def markdown(summary: dict[str, Any], title: str, failure_modes: dict[str, int] | None = None) -> str:
    lines = [f"# {title}", "", "Accuracy: case level, and task level (a task passes only if all its cases pass).", ""]
    lines += _table({"all": summary["overall"]}, "split")
    if summary.get("by_difficulty"):
        lines += ["", "## By difficulty", ""] + _table(summary["by_difficulty"], "tier")
    if summary.get("by_expression"):
        lines += ["", "## By expression", ""] + _table(summary["by_expression"], "expression")
        ifs = summary.get("stability") or {}
        lines += ["", f"Stability (IFS, std / mean across expressions, lower is steadier): {ifs.get('ifs')} "
                      f"over {ifs.get('tasks')} tasks ({ifs.get('tasks_never_solved')} never solved, left out)."]
    if summary.get("by_complexity_decile"):
        lines += ["", "## By complexity decile (1 = simplest)", ""] + _table(
            {str(k): v for k, v in summary["by_complexity_decile"].items()}, "decile")
    if failure_modes:
        lines += ["", "## Failure modes (LLM-labelled, not code-checked)", "", "| mode | cases |", "|---|---|"]
        lines += [f"| {mode} | {count} |" for mode, count in sorted(failure_modes.items(), key=lambda kv: -kv[1])]
    return "\n".join(lines) + "\n"


def plots(summary: dict[str, Any], folder: Path, failure_modes: dict[str, int] | None = None) -> list[Path]:
    """PNG plots: accuracy by tier, by complexity decile, and failure modes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    tiers = summary.get("by_difficulty") or {}
    if tiers:
        frame = pd.DataFrame({tier: {k: row.get(f"task_{k}") for k in ("output", "state", "both")}
                              for tier, row in tiers.items()}).T
        axis = frame.plot.bar(rot=0, ylim=(0, 1), title="Task accuracy by difficulty")
        axis.set_ylabel("accuracy")
        written.append(_save(axis.figure, folder / "accuracy_by_tier.png", plt))
    deciles = summary.get("by_complexity_decile") or {}
    if deciles:
        frame = pd.DataFrame({k: {m: row.get(f"case_{m}") for m in ("output", "state", "both")}
                              for k, row in deciles.items()}).T
        axis = frame.plot(marker="o", ylim=(0, 1), title="Case accuracy by complexity decile")
        axis.set_xlabel("complexity decile (1 = simplest)")
        written.append(_save(axis.figure, folder / "accuracy_by_complexity.png", plt))
    if failure_modes:
        axis = pd.Series(failure_modes).sort_values().plot.barh(title="Failure modes (LLM-labelled)")
        written.append(_save(axis.figure, folder / "failure_modes.png", plt))
    return written


def _save(figure, path: Path, plt) -> Path:
    figure.tight_layout()
    with atomic_path(path) as temporary:
        figure.savefig(temporary, dpi=110)
    plt.close(figure)
    return path


def write_report(frame: pd.DataFrame, folder: Path, title: str,
                 failure_modes: dict[str, int] | None = None) -> dict[str, Any]:
    folder.mkdir(parents=True, exist_ok=True)
    summary = summarise(frame)
    with atomic_path(folder / "scores.parquet") as temporary:
        frame.to_parquet(temporary, index=False)
    atomic_write(folder / "report.json", json.dumps({"title": title, **summary,
                                                     "failure_modes": failure_modes or {}}, indent=2))
    atomic_write(folder / "report.md", markdown(summary, title, failure_modes))
    plots(summary, folder, failure_modes)
    return summary


def compare(reports: list[Path]) -> str:
    """Several models' report.json side by side, like LogicIFEval's Table 1."""
    header = ["model", "case output", "case state", "case both", "task output", "task state", "task both",
              "easy", "medium", "hard", "format fail"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for path in reports:
        data = json.loads(Path(path).read_text())
        overall, tiers = data["overall"], data.get("by_difficulty", {})
        cells = [data.get("title", str(path))]
        cells += [f"{overall.get(k, 0):.1%}" for k in ("case_output", "case_state", "case_both", "task_output",
                                                        "task_state", "task_both")]
        cells += [f"{tiers[t]['task_both']:.1%}" if t in tiers else "-" for t in TIERS]
        cells.append(str(overall.get("format_failures", 0)))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
