"""Finalize stage: described functions become benchmark tasks, rows in LogicIFEval's format, a mini split.

Rows carry LogicIFEval's keys (`task_id, test_case_id, input, code_output{output, stats}, function,
description, instruction, stats_keys, output_format, complexity_metrics`) plus `difficulty` and who
wrote the description (`description_by`: model or deterministic, `description_model`). The
`function` is the self-contained form LogicIF's executor runs; gold came from running it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ifforge.core.prompts import Prompt
from ifforge.families.logicif.records import BenchmarkTask, DescribedFunction, TestCase
from ifforge.families.logicif import difficulty
from ifforge.families.logicif.typenames import output_format

STAGE = "finalize"


def to_task(item: DescribedFunction) -> BenchmarkTask:
    measured = item.measured
    function = measured.executed.function
    return BenchmarkTask(
        task_id=function.task_id,
        function=measured.executed.exported_source,
        description=item.instruction.description,
        stats_keys=[tracker.name for tracker in function.trackers],
        output_format=output_format(measured),
        complexity=measured.complexity,
        difficulty=measured.difficulty or "medium",
        executed_steps=difficulty.executed_steps(measured),
        cases=measured.executed.cases,
        trackers=function.trackers,
        path=function.path,
        description_by=item.instruction.written_by,
        description_model=item.instruction.model,
    )


def rows(task: BenchmarkTask, solve: Prompt) -> list[dict[str, Any]]:
    """One row per test case, as LogicIFEval's benchmark files hold them."""
    return [row(task, case, instruction_text(task, case, solve)) for case in task.cases]


def instruction_text(task: BenchmarkTask, case: TestCase, solve: Prompt) -> str:
    """The prompt a model is given for one case: the solve template (or a rewording of it) filled in."""
    return solve.render(
        description=task.description.strip(),
        input=", ".join(repr(arg) for arg in case.input) if case.input else "(no inputs)",
        stats_keys=", ".join(task.stats_keys),
        output_format=task.output_format,
    )


def row(task: BenchmarkTask, case: TestCase, instruction: str) -> dict[str, Any]:
    return {
        "family": "logicif",
        "task_id": task.task_id,
        "test_case_id": case.test_case_id,
        "input": case.input,
        "code_output": {"output": case.output, "stats": case.stats},
        "function": task.function,
        "description": task.description,
        "description_by": task.description_by,  # "model" or "deterministic" (ifforge's renderer)
        "description_model": task.description_model,  # the model that wrote it; None: deterministic
        "instruction": instruction,
        "stats_keys": task.stats_keys,
        "output_format": task.output_format,
        "complexity_metrics": task.complexity.logicif_view(),
        "difficulty": task.difficulty,
        "complexity_score": task.complexity.code_complexity_score,  # LogicIF's top-level copy
        "executed_steps": case.steps,  # lines of the function this case executes
        "input_origin": case.origin,  # where a generated input came from; None: written in the seed
    }


def mini_split(task_ids: Iterable[str], fraction: float, seed: int) -> list[str]:
    """Task ids of the mini split: each task's own hash decides (stable as seeds come and go), so
    every tier is sampled at the same expected share."""
    return sorted(task_id for task_id in task_ids if difficulty.in_mini(task_id, fraction, seed))


def task_table(tasks: list[BenchmarkTask], mini: Iterable[str]) -> list[dict[str, Any]]:
    """One row per task for `tasks.parquet`."""
    table = []
    for task in tasks:
        table.append({
            "task_id": task.task_id,
            "difficulty": task.difficulty,
            "in_mini": task.task_id in mini,
            "n_cases": len(task.cases),
            "executed_steps": task.executed_steps,
            "output_format": task.output_format,
            "stats_keys": list(task.stats_keys),
            "tracker_kinds": [tracker.kind for tracker in task.trackers],
            "path": task.path,
            **task.complexity.model_dump(),
            "function": task.function,
            "description": task.description,
            "description_by": task.description_by,
            "description_model": task.description_model,
        })
    return table
