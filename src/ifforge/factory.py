"""The generic generate run's pieces that are not orchestration: fingerprint, one stage shard,
per-item artifacts and the manifest. `ifforge.flows.generate` wires them as Prefect tasks; any
other engine could drive the same steps.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from ifforge.core.llm_batch import BatchOptions, batch_folder
from ifforge.core.records import DroppedItem
from ifforge.core.runner import Stage, StageRun, run_items
from ifforge.core.settings import Settings
from ifforge.core.store import ItemCache, VersionStore, canonical_json, content_hash, provenance
from ifforge.families import get_family
from ifforge.core.sandbox import describe_isolation
from ifforge.families.base import BatchStage


def step_identity(step: Stage | BatchStage) -> Any:
    return step.identity() if isinstance(step, Stage) else {"name": step.name, "identity": step.identity}


def fingerprint(family, items: list, settings: Settings, plan: list) -> str:
    """Everything that changes what a run writes: family, inputs, settings, stage code, models, prompts."""
    return content_hash(
        family.id,
        [item.model_dump(mode="json") for item in items],
        settings.output_fingerprint(),
        [step_identity(step) for step in plan],
        family.side_identity(settings),
        os.urandom(8).hex() if settings.no_cache else None,  # --no-cache asks again: always a new version
    )


def stage_of(settings: Settings, name: str) -> Stage:
    stage = next((s for s in get_family(settings.family).plan(settings) if s.name == name), None)
    if not isinstance(stage, Stage):
        raise KeyError(f"family {settings.family!r} has no per-item stage {name!r}")
    return stage


def run_stage_shard(stage_name: str, items: list | StageRun, settings: Settings, run_id: str,
                    shard: int = 0) -> StageRun:
    """One shard of one per-item stage (the body of the flow's stage task). `items` may be the
    previous stage's run of the same shard: its kept items go on, so shards are pipelined. The
    shard's index is its requests' priority (see `core.llm.priority`)."""
    from ifforge.core.progress import stage_bar

    if isinstance(items, StageRun):
        items = [outcome.kept for outcome in items.outcomes if outcome.kept is not None]
    stage = stage_of(settings, stage_name)
    cache = ItemCache(settings.benchmark_root / ".cache")
    batch = BatchOptions(batch_folder(settings.response_cache), settings.llm_batch_poll) if settings.llm_batch else None
    with stage_bar(stage_name, len(items), settings.progress) as advance:
        run = run_items(stage, items, cache, workers=settings.workers, run_id=run_id,
                        response_cache=None if settings.no_cache else settings.response_cache,
                        fresh=settings.no_cache, on_item=advance, priority=shard, batch=batch)
    run.items = items  # what went in, for the artifacts
    return run


def write_stage_artifacts(store: VersionStore, stage: Stage, items: list, run: StageRun) -> None:
    """Per item: `<stage>.json` (provenance, kept or dropped and why, the stage's own fields) and the
    files the stage names (code, descriptions), in `items/<task_id>/`."""
    for item, outcome, key in zip(items, run.outcomes, run.keys):
        folder = f"items/{item.task_id}"
        record: dict[str, Any] = {"provenance": provenance(stage.name, stage.version, key, stage.prompt_hash, stage.model),
                                  "kept": outcome.kept is not None, "dropped": [d.model_dump() for d in outcome.dropped]}
        if stage.artifacts is not None:
            fields, files = stage.artifacts(item, outcome)
            record |= fields
            for name, text in files.items():
                store.write(f"{folder}/{name}", text)
        store.write(f"{folder}/{stage.name}.json", record)


def dropped_summary(dropped: list[DroppedItem]) -> dict[str, dict[str, int]]:
    """Counts of drops by stage and reason; whole items and single cases apart."""
    summary: dict[str, dict[str, int]] = {}
    for item in dropped:
        scope = "cases" if item.test_case_id is not None else "items"
        key = f"{item.stage}:{item.reason}"
        summary.setdefault(scope, {})
        summary[scope][key] = summary[scope].get(key, 0) + 1
    return {scope: dict(sorted(counts.items())) for scope, counts in summary.items()}


def write_manifest(store: VersionStore, *, family, settings: Settings, plan: list, inputs: dict[str, Any],
                   stage_counts: dict[str, Any], dropped: list[DroppedItem], export: dict[str, Any],
                   timings: dict[str, float], started: float, llm: dict[str, Any], isolation: Any = None) -> Path:
    store.write("dropped.jsonl", "".join(canonical_json(d) + "\n" for d in dropped))
    export = dict(export)
    paths = export.pop("paths", None)  # which path (deterministic or LLM) made each item, where a family says
    return store.write_manifest({
        "family": family.id,
        "benchmark": settings.benchmark,
        "version": store.version,
        "fingerprint": store.fingerprint,
        "resumed": store.state == "resumed",
        "parameters": settings.model_dump(mode="json"),
        "inputs": inputs,
        "stages_used": {step.name: step_identity(step) for step in plan},
        "llm": llm,
        "notes": store.notes,
        "sandbox": describe_isolation(),  # the walls seed code ran behind on this machine
        "stages": stage_counts,
        "dropped": dropped_summary(dropped),
        "export": export,
        **({"paths": paths} if paths is not None else {}),
        "seconds": {**{k: round(v, 3) for k, v in timings.items()}, "total": round(time.monotonic() - started, 3)},
        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    })


def summary_markdown(store: VersionStore, counts: dict, dropped: list[DroppedItem], export: dict, timings: dict,
                     usage: dict) -> str:
    """The run summary published to the Prefect UI."""
    lines = [f"# {store.path}", "", "| stage | in | out | computed | reused | seconds |", "|---|---|---|---|---|---|"]
    for name, row in counts.items():
        lines.append(f"| {name} | {row['in']} | {row['out']} | {row.get('computed', '')} | {row.get('reused', '')} "
                     f"| {timings.get(name, 0):.2f} |")
    lines += ["", "## Dropped", ""] + [f"- {scope} {key}: {n}" for scope, by_reason in dropped_summary(dropped).items()
                                       for key, n in by_reason.items()]
    if usage:
        lines += ["", "## LLM", "", "| stage | model | calls | cache hits | tokens in | tokens out | retries | failures |",
                  "|---|---|---|---|---|---|---|---|"]
        lines += [f"| {name} | {u['model']} | {u['calls']} | {u['cache_hits']} | {u['prompt_tokens']} | "
                  f"{u['completion_tokens']} | {u['retries']} | {u['failures']} |" for name, u in usage.items()]
    lines += ["", f"Wall time {timings.get('total', sum(timings.values())):.1f} s."]
    lines += ["", f"Exported {export.get('tasks', 0)} tasks and {export.get('rows', 0)} rows."]
    return "\n".join(lines)


def _reasons(counts: dict[str, int]) -> str:
    return ", ".join(f"{key} {n}" for key, n in counts.items())


def outcome_line(manifest: dict[str, Any], folder: Path | str) -> str:
    """The run's last line, from its manifest: tasks written and drops by reason, and plainly so when
    nothing is left (a run that keeps no item is a finished run with an empty benchmark, not a crash)."""
    tasks, rows = manifest["export"].get("tasks", 0), manifest["export"].get("rows", 0)
    dropped = manifest.get("dropped", {})
    items, cases = dropped.get("items", {}), dropped.get("cases", {})
    loaded = manifest.get("stages", {}).get("load", {}).get("in", sum(items.values()))
    if tasks == 0:
        line = f"0 tasks in {folder}: every one of the {loaded} item(s) was dropped"
        line += f" ({_reasons(items)})" if items else ""
    else:
        line = f"{tasks} tasks, {rows} rows in {folder}"
        line += f"; {sum(items.values())} item(s) dropped ({_reasons(items)})" if items else "; no item dropped"
    if cases:
        line += f"; {sum(cases.values())} case(s) dropped ({_reasons(cases)})"
    return line
