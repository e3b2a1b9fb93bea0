"""The main pipeline's pieces that are not stages: its stage list, fingerprint, artifacts and export.

The Prefect flow in `flows/generate.py` only wires these together; everything here runs without
an orchestration engine, so a test or another engine can drive the same steps.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd

from ifforge.artifacts import VersionStore, canonical_json, content_hash, provenance
from ifforge.prompts import Prompt
from ifforge.records import (
    DescribedFunction,
    DroppedItem,
    ExecutedFunction,
    InstrumentedFunction,
    MeasuredFunction,
    Outcome,
    SeedFunction,
)
from ifforge.settings import Settings
from ifforge.stages import complexity, describe, execute, finalize, instrument
from ifforge.stages.runner import Stage

STAGES: dict[str, Stage] = {
    "instrument": Stage("instrument", instrument.VERSION, InstrumentedFunction, instrument.run),
    "execute": Stage("execute", execute.VERSION, ExecutedFunction, execute.run,
                     reads_settings=("min_cases", "max_tracker_value", "max_decimal_places",
                                     "max_input_magnitude", "max_input_length", "case_seconds", "memory_mb")),
    "complexity": Stage("complexity", complexity.VERSION, MeasuredFunction, complexity.run),
    "describe": Stage("describe", describe.VERSION, DescribedFunction, describe.run),
}
ORDER = ["load", "instrument", "execute", "complexity", "describe", "finalize"]


def fingerprint(seeds: list[SeedFunction], settings: Settings, solve: Prompt) -> str:
    """Everything that changes what a run writes: inputs, settings, stage code and prompts."""
    return content_hash(
        [seed.model_dump(mode="json") for seed in seeds],
        settings.output_fingerprint(),
        {name: stage.version for name, stage in STAGES.items()},
        solve.hash,
    )


def task_id_of(item: Any) -> str:
    if isinstance(item, (SeedFunction, InstrumentedFunction)):
        return item.task_id
    if isinstance(item, ExecutedFunction):
        return item.function.task_id
    if isinstance(item, MeasuredFunction):
        return item.executed.function.task_id
    if isinstance(item, DescribedFunction):
        return item.measured.executed.function.task_id
    raise TypeError(type(item).__name__)


def write_load_artifacts(store: VersionStore, seeds: list[SeedFunction]) -> None:
    for seed in seeds:
        folder = f"items/{seed.task_id}"
        store.write(f"{folder}/seed.py", seed.source)
        store.write(f"{folder}/seed.json", {
            "task_id": seed.task_id, "entry": seed.entry, "origin": seed.origin,
            "inputs": [i.model_dump() for i in seed.inputs],
            "provenance": provenance("load", "1", content_hash(seed)),
        })


def write_stage_artifacts(store: VersionStore, stage: Stage, items: list, outcomes: list[Outcome],
                          keys: list[str]) -> None:
    """Per item: what this stage made of it (code as .py, the rest as JSON), with provenance."""
    for item, outcome, key in zip(items, outcomes, keys):
        folder = f"items/{task_id_of(item)}"
        origin = provenance(stage.name, stage.version, key, stage.prompt_hash, stage.model)
        kept = outcome.kept
        record: dict[str, Any] = {"provenance": origin, "kept": kept is not None,
                                  "dropped": [d.model_dump() for d in outcome.dropped]}
        if isinstance(kept, InstrumentedFunction):
            store.write(f"{folder}/function_anonymised.py", kept.anonymised_source)
            store.write(f"{folder}/function_with_stats.py", kept.instrumented_source)
            record |= {"renames": kept.renames, "trackers": [t.model_dump() for t in kept.trackers], "path": kept.path}
        elif isinstance(kept, ExecutedFunction):
            record |= {"cases": [c.model_dump() for c in kept.cases]}
        elif isinstance(kept, MeasuredFunction):
            record |= {"complexity_metrics": kept.complexity.model_dump()}
        elif isinstance(kept, DescribedFunction):
            store.write(f"{folder}/description_turn_1.txt", kept.instruction.description)
            record |= {"instruction": kept.instruction.model_dump(exclude={"description"})}
        store.write(f"{folder}/{stage.name}.json", record)


def write_benchmark(store: VersionStore, described: list[DescribedFunction], settings: Settings,
                    solve: Prompt) -> dict[str, Any]:
    """benchmark.jsonl, benchmark_mini.jsonl, tasks.parquet; returns counts for the manifest."""
    tasks = sorted((finalize.to_task(item) for item in described), key=lambda t: t.task_id)
    mini = finalize.mini_split(tasks, settings.mini_fraction, settings.sample_seed)
    all_rows, mini_rows = [], []
    for task in tasks:
        rows = finalize.rows(task, solve)
        all_rows += rows
        if task.task_id in mini:
            mini_rows += rows
        store.write(f"items/{task.task_id}/task.json", {
            "task_id": task.task_id, "difficulty": task.difficulty, "in_mini": task.task_id in mini,
            "stats_keys": task.stats_keys, "output_format": task.output_format, "n_cases": len(task.cases),
            "provenance": provenance("finalize", "1", content_hash(task), solve.hash),
        })
    store.write("benchmark.jsonl", "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in all_rows))
    store.write("benchmark_mini.jsonl", "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in mini_rows))
    table = pd.DataFrame(finalize.task_table(tasks, mini))
    parquet = store.path / "tasks.parquet"
    temporary = parquet.with_name(".tasks.parquet.tmp")
    table.to_parquet(temporary, index=False)
    temporary.replace(parquet)
    store.artifacts.append("tasks.parquet")
    return {
        "tasks": len(tasks),
        "cases": len(all_rows),
        "mini_tasks": len(mini),
        "mini_cases": len(mini_rows),
        "by_difficulty": dict(Counter(task.difficulty for task in tasks)),
    }


def dropped_summary(dropped: list[DroppedItem]) -> dict[str, dict[str, int]]:
    """Counts of drops by stage and reason; whole items and single cases apart."""
    summary: dict[str, dict[str, int]] = {}
    for item in dropped:
        scope = "cases" if item.test_case_id is not None else "items"
        key = f"{item.stage}:{item.reason}"
        summary.setdefault(scope, {})
        summary[scope][key] = summary[scope].get(key, 0) + 1
    return {scope: dict(sorted(counts.items())) for scope, counts in summary.items()}


def write_manifest(store: VersionStore, *, settings: Settings, inputs: dict[str, Any], stage_counts: dict[str, Any],
                   dropped: list[DroppedItem], export: dict[str, Any], timings: dict[str, float],
                   started: float) -> Path:
    store.write("dropped.jsonl", "".join(canonical_json(d) + "\n" for d in dropped))
    return store.write_manifest({
        "benchmark": settings.benchmark,
        "version": store.version,
        "fingerprint": store.fingerprint,
        "resumed": store.state == "resumed",
        "parameters": settings.model_dump(mode="json"),
        "inputs": inputs,
        "stage_versions": {name: stage.version for name, stage in STAGES.items()},
        "stages": stage_counts,
        "dropped": dropped_summary(dropped),
        "export": export,
        "seconds": {**{k: round(v, 3) for k, v in timings.items()}, "total": round(time.monotonic() - started, 3)},
        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    })
