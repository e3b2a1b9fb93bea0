"""The generic generate run's records: its fingerprint, per-item artifacts, the manifest (with the
floors and the card) and the lines and summary a run reports. `ifforge.generation` puts them in
order (`GenerateRun`); no orchestration engine here.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ifforge.core.records import DroppedItem
from ifforge.core.runner import Stage, StageRun
from ifforge.core.settings import Settings
from ifforge.core.store.versions import (
    MANIFEST,
    VersionStore,
    canonical_json,
    content_hash,
    latest_version,
    provenance,
)
from ifforge.core.sandbox.isolation import UNWALLED_SETTING
from ifforge.core.sandbox.execution import describe_isolation
from ifforge import card
from ifforge.eval.floors import floors
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
        family.independent_identity(settings),
        os.urandom(8).hex() if settings.no_cache else None,  # --no-cache asks again: always a new version
    )


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


def previous_manifest(store: VersionStore) -> dict[str, Any] | None:
    """The manifest of the version LATEST named before this run (None for a first run, or when this
    run rewrites that same version, or when it cannot be read)."""
    try:
        latest = latest_version(store.benchmark_root)  # a folder beside LATEST, or an InputError
        if latest == store.benchmark_root or latest.name == store.version:
            return None
        return json.loads((latest / MANIFEST).read_text())
    except (OSError, ValueError):
        return None


def changes(previous: dict[str, Any] | None, settings: Settings, plan: list,
            stage_counts: dict[str, Any]) -> dict[str, Any] | None:
    """What differs from the previous version and what that cost: the settings that change output,
    the stages whose identity (config, code, model, prompts) changed, hence invalidated, the stages
    whose every item was reused, and the stages recomputed only because items reaching them changed."""
    if previous is None:
        return None
    runtime = {name for name, info in type(settings).model_fields.items()
               if (info.json_schema_extra or {}).get("affects_output") is False}
    before, now = previous.get("parameters") or {}, settings.model_dump(mode="json")
    differ = {name: {"before": before.get(name), "now": value} for name, value in now.items()
              if name not in runtime and before.get(name) != value}
    used = previous.get("stages_used") or {}
    invalidated = [step.name for step in plan if used.get(step.name) != json.loads(canonical_json(step_identity(step)))]
    recomputed = {name: row["computed"] for name, row in stage_counts.items()
                  if name not in invalidated and row.get("computed")}
    reused = [step.name for step in plan if step.name not in invalidated and step.name not in recomputed]
    return {"previous_version": previous.get("version"), "settings": differ, "invalidated": invalidated,
            "reused": reused, "recomputed": recomputed, "removed": sorted(set(used) - {s.name for s in plan})}


def changes_line(changed: dict[str, Any]) -> str:
    """One log line: which settings changed since which version, and which stages that invalidated."""
    settings = ", ".join(f"{k} {v['before']!r} -> {v['now']!r}" for k, v in changed["settings"].items()) or "no setting"
    recomputed = ", ".join(f"{k} ({n} computed)" for k, n in changed["recomputed"].items())
    return (f"since {changed['previous_version']}: {settings} changed; invalidated: "
            f"{', '.join(changed['invalidated']) or 'nothing'}; reused: {', '.join(changed['reused']) or 'nothing'}"
            + (f"; recomputed: {recomputed}" if recomputed else ""))


def sandbox_record(family, settings: Settings) -> dict[str, Any]:
    """The walls seed code ran behind on this machine, and under `unwalled` (for the manifest and the
    card) the code from outside ifforge that ran without bubblewrap's walls because a setting allowed it."""
    record = describe_isolation()
    outside = family.outside_code(settings)
    if outside and record["method"] != "bubblewrap":
        record["unwalled"] = f"{outside} ran without bubblewrap's walls (setting {UNWALLED_SETTING})"
    return record


def write_manifest(store: VersionStore, *, family, settings: Settings, plan: list, inputs: dict[str, Any],
                   stage_counts: dict[str, Any], dropped: list[DroppedItem], export: dict[str, Any],
                   timings: dict[str, float], started: float, llm: dict[str, Any], isolation: Any = None,
                   busy: dict[str, float] | None = None) -> Path:
    store.write("dropped.jsonl", "".join(canonical_json(d) + "\n" for d in dropped))
    export = dict(export)
    paths = export.pop("paths", None)  # which path (deterministic or LLM) made each item, where a family says
    changed = changes(previous_manifest(store), settings, plan, stage_counts)
    manifest = {
        "family": family.id,
        "benchmark": settings.benchmark,
        "version": store.version,
        "fingerprint": store.fingerprint,
        "resumed": store.state == "resumed",
        "parameters": settings.model_dump(mode="json"),
        "inputs": inputs,
        "stages_used": {step.name: step_identity(step) for step in plan},
        "changed": changed,
        "llm": llm,
        "notes": store.notes,
        "sandbox": sandbox_record(family, settings),
        "stages": stage_counts,
        "dropped": dropped_summary(dropped),
        "export": export,
        **({"paths": paths} if paths is not None else {}),
        "seconds": {**{k: round(v, 3) for k, v in timings.items()}, "total": round(time.monotonic() - started, 3)},
        # per-item stages: the seconds their shards ran, summed (shards overlap, so more than the wall time)
        "busy_seconds": {k: round(v, 3) for k, v in (busy or {}).items()},
        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    rows = WrittenRows(store.path / "benchmark.jsonl")
    found = floors(family, rows)
    store.write("floors.json", found)
    manifest["floors"] = floors_summary(found)
    store.write("card.md", card.render(manifest, rows, found))  # before the manifest, which marks the version finished
    return store.write_manifest(manifest)


class WrittenRows:
    """The benchmark rows the export just wrote, read from the file again at each pass (the floors
    and the card make three): at 10,000 seeds they are gigabytes as Python objects, never all in
    memory at once; a pass takes seconds. Empty when the export wrote no file."""

    def __init__(self, path: Path):
        self.path = path

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8", newline="\n") as lines:  # a row ends at "\n" alone
            for line in lines:
                if line.strip():
                    yield json.loads(line)


def floors_summary(found: dict[str, Any]) -> dict[str, Any]:
    """The floors as the manifest keeps them: every baseline's scores and rows passed, and how many
    rows some baseline passes (the rows themselves are in floors.json)."""
    passed = found["trivially_passed"]
    return {"rows": found["rows"], "baselines": found["baselines"],
            "trivially_passed": {"rows": passed["rows"], "share": passed["share"], "by_group": passed["by_group"]}}


def stage_line(name: str, counts: dict[str, Any], seconds: float, dropped: int | None = None) -> str:
    """The run's log line for one stage: `execute: 40 in, 38 out (2 dropped), 3 computed, 37 reused, 4.2 s`."""
    line = f"{name}: {counts.get('in', 0)} in, {counts.get('out', 0)} out"
    if dropped:
        line += f" ({dropped} dropped)"
    for key in ("computed", "reused", "embedded"):
        if key in counts:
            line += f", {counts[key]} {key}"
    return f"{line}, {seconds:.1f} s"


def summary_markdown(store: VersionStore, counts: dict, dropped: list[DroppedItem], export: dict, timings: dict,
                     usage: dict, changed: dict | None = None) -> str:
    """The run summary published to the Prefect UI."""
    lines = [f"# {store.path}", ""]
    if changed:
        lines += [f"Changed {changes_line(changed)}.", ""]
    lines += ["| stage | in | out | computed | reused | seconds |", "|---|---|---|---|---|---|"]
    for name, row in counts.items():
        lines.append(f"| {name} | {row['in']} | {row['out']} | {row.get('computed', '')} | {row.get('reused', '')} "
                     f"| {timings.get(name, 0):.2f} |")
    lines += ["", "## Dropped", ""] + [f"- {scope} {key}: {n}" for scope, by_reason in dropped_summary(dropped).items()
                                       for key, n in by_reason.items()]
    if usage:
        lines += ["", "## LLM", "", "| stage | model | calls | cache hits | tokens in | tokens out | retries | re-asks "
                  "| failures |", "|---|---|---|---|---|---|---|---|---|"]
        lines += [f"| {name} | {u['model']} | {u['calls']} | {u['cache_hits']} | {u['prompt_tokens']} | "
                  f"{u['completion_tokens']} | {u['retries']} | {u.get('reasks', 0)} | {u['failures']} |"
                  for name, u in usage.items()]
    lines += ["", f"Wall time {timings.get('total', sum(timings.values())):.1f} s."]
    lines += ["", f"Exported {export.get('tasks', 0)} tasks and {export.get('rows', 0)} rows."]
    written = descriptions_line(export.get("descriptions"))
    if written:
        lines += ["", written[0].upper() + written[1:] + "."]
    return "\n".join(lines)


def descriptions_line(written: dict[str, Any] | None) -> str | None:
    """Who wrote the descriptions, when the family counts them (`{model, deterministic, models}`): a
    model (which) or ifforge's deterministic renderer. An offline benchmark says so wherever it is read."""
    if not written or not (written["model"] or written["deterministic"]):
        return None
    models = ", ".join(written["models"])
    if not written["model"]:
        return "descriptions: all deterministic (written by ifforge's renderer, no model)"
    if not written["deterministic"]:
        return f"descriptions: all by model {models}"
    return f"descriptions: {written['model']} by model {models}, {written['deterministic']} deterministic"


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
    written = descriptions_line(manifest["export"].get("descriptions"))
    return f"{line}; {written}" if written else line
