"""LogicIF's review view: one item per task (a reviewer checks the function once), its code line by
line with each step of the description beside the statement it renders, its trackers and every
test case with its gold.

Where each step goes is the describer's own record (`codeops.describe.places`), written beside the
task as `items/<task>/steps.json` with the hashes of the description and the function it was made
for. The page never guesses from the text: a description the record was not made for (a model's,
or a version written before the record existed) is shown whole beside the code.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path
from typing import Any

from ifforge.families.base import ReviewGuide

ITEM_FIELDS = ("task_id", "test_case_id", "function", "description", "stats_keys", "input",
               "code_output", "output_format", "difficulty")
CASE_FIELDS = ("test_case_id", "input", "code_output")
GUIDE = ReviewGuide(
    source="Function", instruction="Instruction, step by step",
    guidance="For each task, check that following the instruction gives exactly what the function computes, "
             "trackers included, on every test case. Each step stands beside the first line of the statement it "
             "renders; the steps give variables names of their own, the code keeps the anonymised ones.")


def steps_path(task_id: str) -> str:
    return f"items/{task_id}/steps.json"


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def steps_file(task: Any, places: list) -> dict[str, Any]:
    """The record of where each step stands, for the description and function it was made for."""
    return {"description_sha256": _sha256(task.description), "function_sha256": _sha256(task.function),
            "steps": [place.model_dump(mode="json") for place in places]}


def read_steps(version: Path | None, row: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The steps' places of this row's task, or None when there is no record made for its text and
    code (a model's description, an older version, a file edited since)."""
    path = Path(version) / steps_path(str(row.get("task_id"))) if version is not None else None
    if path is None or not path.is_file():
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(record, dict) or record.get("description_sha256") != _sha256(row.get("description") or "") \
            or record.get("function_sha256") != _sha256(row.get("function") or ""):
        return None
    return record.get("steps")


def _inline_code(text: str) -> str:
    """Escape, then show `backticked` names as code, as the descriptions use them."""
    return re.sub(r"`([^`\n]+)`", r"<code>\1</code>", html.escape(text))


def _step(index: int, place: dict[str, Any], lines: list[str]) -> str:
    """One run of the description's lines (a step, with what leads into it and what follows it)."""
    first, last = place["lines"]
    text = "\n".join(line.strip() for line in lines[first - 1:last]).strip("\n")
    label = f' data-step="{html.escape(str(place["step"]))}"' if place.get("step") else ""
    return (f'<div class="step" data-row="{index}"{label} data-function="{html.escape(str(place["function"]))}" '
            f'data-first="{place["first"]}" data-last="{place["last"]}">{_inline_code(text)}</div>')


def _aligned(function: str, description: str, places: list[dict[str, Any]] | None) -> str:
    """The code line by line, each step in the cell beside the first line of the statement it renders;
    without a record, the code beside the whole description."""
    code = function.splitlines() or [""]
    lines = description.splitlines()
    beside: dict[int, list[str]] = {}
    covered: set[int] = set()
    for index, place in enumerate(places or []):
        beside.setdefault(place["first"], []).append(_step(index, place, lines))
        covered.update(range(place["lines"][0], place["lines"][1] + 1))
    rest = "\n".join(line for number, line in enumerate(lines, start=1) if number not in covered).strip()
    if places is None:
        note = ('<tr class="unplaced"><td></td><td class="src"><em>No record of where each step stands (the '
                'description was not written by ifforge\'s renderer for this code): read it whole.</em></td>'
                f'<td class="steps" rowspan="{len(code) + 1}"><div class="description">{_inline_code(rest)}</div></td></tr>')
    else:
        note = (f'<tr class="unplaced"><td></td><td></td><td class="steps"><div class="step">{_inline_code(rest)}'
                "</div></td></tr>" if rest else "")
    cell = (lambda n: "") if places is None else (lambda n: f'<td class="steps">{"".join(beside.get(n, []))}</td>')
    told = {n for place in places or [] for n in range(place["first"], place["last"] + 1)}  # lines a step renders
    rows = "".join(f'<tr class="code-line{" told" if n in told else ""}" data-line="{n}"><td class="ln">{n}</td>'
                   f'<td class="src"><code>{html.escape(text)}</code></td>{cell(n)}</tr>'
                   for n, text in enumerate(code, start=1))
    return (f'<table class="aligned"><thead><tr><th></th><th>{html.escape(GUIDE.source)}</th>'
            f"<th>{html.escape(GUIDE.instruction)}</th></tr></thead><tbody>{note}{rows}</tbody></table>")


def _cases(cases: list[dict[str, Any]]) -> str:
    def cell(value: Any) -> str:
        return f"<td><code>{html.escape(json.dumps(value, ensure_ascii=False))}</code></td>"

    rows = []
    for case in cases:
        inputs, gold = case.get("input"), case.get("code_output") or {}
        call = (f"f({', '.join(json.dumps(arg, ensure_ascii=False) for arg in inputs)})"
                if isinstance(inputs, list) else json.dumps(inputs, ensure_ascii=False))
        rows.append(f'<tr class="case-row"><td>{html.escape(str(case.get("test_case_id")))}</td>'
                    f"<td><code>{html.escape(call)}</code></td>{cell(gold.get('output'))}{cell(gold.get('stats'))}</tr>")
    return (f'<table class="cases"><thead><tr><th>case</th><th>input</th><th>gold output</th><th>gold trackers</th>'
            f'</tr></thead><tbody>{"".join(rows)}</tbody></table>')


def review_item(rows: list[dict[str, Any]], version: Path | None = None) -> dict[str, Any]:
    """The task's fields (its first case's), every case, where each step stands, and the page's view."""
    item = {key: rows[0].get(key) for key in ITEM_FIELDS}
    item["cases"] = [{key: row.get(key) for key in CASE_FIELDS} for row in rows]
    item["steps"] = read_steps(version, rows[0])
    trackers = "".join(f"<li><code>{html.escape(str(key))}</code></li>" for key in item.get("stats_keys") or [])
    description = item.get("description") or ""
    body = f"""{_aligned(item.get("function") or "", description, item["steps"])}
  <details class="full"><summary>The instruction as the model reads it</summary><div class="description">{_inline_code(description)}</div></details>
  <div class="facts">
    <div><h3>Trackers</h3><ul class="trackers">{trackers or "<li>none</li>"}</ul></div>
    <div class="case"><h3>Test cases ({len(item["cases"])})</h3>{_cases(item["cases"])}</div>
  </div>"""
    difficulty = item.get("difficulty")
    return {**item, "view": {"title": str(item["task_id"]), "badge": difficulty, "tier": difficulty, "html": body}}
