"""A version's card (`card.md` beside `manifest.json`, the README of its datasets export): what it
measures and the paper it follows, how each stage made it, its size by group, the floors, the
known differences from the original, the settings that regenerate it and how to cite it. Every
line comes from the manifest, the rows and the family's own declarations: nothing is written by hand."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ifforge.eval.evaluation import BenchmarkError, read_jsonl
from ifforge.eval.floors import counts_by_group, floors, floors_lines, group_lines
from ifforge.families import get_family

DOCS = Path(__file__).resolve().parents[2] / "docs" / "families"
DIFFERENCES = "## Differences from the original"


def differences(family_id: str) -> list[str]:
    """The family docs page's differences section (its table and reasons), or a pointer to it."""
    page = DOCS / f"{family_id}.md"
    try:
        text = page.read_text()
    except OSError:
        return [f"See the family's documentation page, `docs/families/{family_id}.md`, section \"Differences from the original\"."]
    if DIFFERENCES not in text:
        return [f"`docs/families/{family_id}.md` lists none."]
    section = text.split(DIFFERENCES, 1)[1].split("\n## ", 1)[0].strip("\n")
    return [line.replace("](../", "](docs/") for line in section.splitlines()]


def stage_lines(manifest: dict[str, Any]) -> list[str]:
    lines = ["| stage | made by | in | out |", "|---|---|---|---|"]
    counts, llm = manifest.get("stages") or {}, manifest.get("llm") or {}
    for name, identity in (manifest.get("stages_used") or {}).items():
        model = (llm.get(name) or {}).get("model") or ((identity or {}).get("llm") or {}).get("model")
        made = f"model `{model}`" if model else "deterministic (code)"
        row = counts.get(name, {})
        lines.append(f"| {name} | {made} | {row.get('in', '')} | {row.get('out', '')} |")
    return lines


def size_lines(family, rows: Iterable[dict[str, Any]]) -> list[str]:
    """Rows and tasks, then counts of rows by tier, category and each of the report's groups the rows
    carry: one pass, so `rows` may be a file read as it goes."""
    count, tasks = 0, set()

    def counted():
        nonlocal count
        for row in rows:
            count += 1
            tasks.add(row["task_id"])
            yield row

    groups = counts_by_group(family, counted())
    return [f"{count} rows, {len(tasks)} tasks.", "", *group_lines(groups)]


def toml_lines(parameters: dict[str, Any]) -> list[str]:
    """The settings as an `ifforge.toml` (values TOML cannot hold, such as none, are left out)."""
    lines = []
    for key, value in sorted(parameters.items()):
        if value is None or isinstance(value, dict) or (isinstance(value, list) and any(isinstance(v, (dict, list)) or v is None for v in value)):
            continue
        lines.append(f"{key} = {json.dumps(value, ensure_ascii=False)}")
    return lines


def unwalled_lines(manifest: dict[str, Any]) -> list[str]:
    """Where code from outside ifforge ran without the sandbox's walls (a setting allowed it), a line saying so."""
    unwalled = (manifest.get("sandbox") or {}).get("unwalled")
    return [f"Without the sandbox's walls: {unwalled}; that code could read and write the files of the machine "
            "that made this version and reach its network.", ""] if unwalled else []


def render(manifest: dict[str, Any], rows: Iterable[dict[str, Any]], floors: dict[str, Any] | None) -> str:
    family = get_family(manifest["family"])
    parameters = manifest.get("parameters") or {}
    name = f"{manifest.get('benchmark')} {manifest.get('version')}"
    lines = [f"# {name} ({family.id})", "",
             f"Measures {family.measures}.", "", f"Follows {family.follows}.", "",
             "## How it was made", "", *stage_lines(manifest), "",
             f"Inputs: `{json.dumps(manifest.get('inputs') or {}, ensure_ascii=False)}`.", "",
             *unwalled_lines(manifest),
             "## Size", "", *size_lines(family, rows), "", *family.card_lines(manifest),
             "## Floors: what a trivial answer scores", "",
             "Scored by the family's own checker, as `ifforge evaluate` would score these replies.", ""]
    lines += floors_lines(floors) if floors else ["No floors were computed for this version."]
    lines += ["", "## Differences from the original", "", *differences(family.id), "",
              "## Regenerate", "",
              f"Fingerprint `{manifest.get('fingerprint')}`, seed `{parameters.get('seed')}`. With these settings in "
              f"`ifforge.toml`, `ifforge generate --config ifforge.toml` writes the same rows (an LLM stage "
              f"gives the same text from the same response cache):", "", "```toml", *toml_lines(parameters), "```", "",
              "## Cite", "", f"The benchmark this follows: {family.follows}.",
              f"This version: ifforge, `{manifest.get('benchmark')}` {manifest.get('version')}, "
              f"fingerprint `{manifest.get('fingerprint')}`.", ""]
    return "\n".join(lines)


def read_card(version: Path) -> str:
    """The version's card.md, or (for a version written before cards) one rendered from its files,
    its floors computed now."""
    version = Path(version)
    card = version / "card.md"
    if card.exists():
        return card.read_text()
    try:
        manifest = json.loads((version / "manifest.json").read_text())
    except (OSError, ValueError) as error:
        raise BenchmarkError(f"{version}: no readable manifest.json ({error})") from error
    rows = read_jsonl(version / "benchmark.jsonl")
    floors_file = version / "floors.json"
    found = json.loads(floors_file.read_text()) if floors_file.exists() else floors(get_family(manifest["family"]), rows)
    return render(manifest, rows, found)
