"""LogicIF's review view: one item per task (a reviewer checks the function once), its code line by
line beside the description's steps, its trackers and every test case with its gold."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from ifforge.review.align import align_steps, description_steps

ITEM_FIELDS = ("task_id", "test_case_id", "function", "description", "stats_keys", "input",
               "code_output", "output_format", "difficulty")
CASE_FIELDS = ("test_case_id", "input", "code_output")


def _inline_code(text: str) -> str:
    """Escape, then show `backticked` names as code, as the descriptions use them."""
    return re.sub(r"`([^`\n]+)`", r"<code>\1</code>", html.escape(text))


def _aligned(function: str, description: str) -> str:
    """The code line by line, each description step in the cell beside the line it describes."""
    steps = description_steps(description)
    beside: dict[int, list[str]] = {}
    for step, line in zip(steps, align_steps(function, steps)):
        beside.setdefault(line, []).append(f'<div class="step">{_inline_code(step)}</div>')
    rows = "".join(f'<tr class="code-line" data-line="{n}"><td class="ln">{n}</td>'
                   f'<td class="src"><code>{html.escape(text)}</code></td><td class="steps">{"".join(beside.get(n, []))}'
                   f"</td></tr>" for n, text in enumerate(function.splitlines() or [""], start=1))
    return f'<table class="aligned"><thead><tr><th></th><th>Function</th><th>Instruction, step by step</th></tr></thead>' \
           f"<tbody>{rows}</tbody></table>"


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


def review_item(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The task's fields (its first case's), every case, and the page's view of them."""
    item = {key: rows[0].get(key) for key in ITEM_FIELDS}
    item["cases"] = [{key: row.get(key) for key in CASE_FIELDS} for row in rows]
    trackers = "".join(f"<li><code>{html.escape(str(key))}</code></li>" for key in item.get("stats_keys") or [])
    description = item.get("description") or ""
    body = f"""{_aligned(item.get("function") or "", description)}
  <details class="full"><summary>The instruction as the model reads it</summary><div class="description">{_inline_code(description)}</div></details>
  <div class="facts">
    <div><h3>Trackers</h3><ul class="trackers">{trackers or "<li>none</li>"}</ul></div>
    <div class="case"><h3>Test cases ({len(item["cases"])})</h3>{_cases(item["cases"])}</div>
  </div>"""
    difficulty = item.get("difficulty")
    return {**item, "view": {"title": str(item["task_id"]), "badge": difficulty, "tier": difficulty, "html": body}}
