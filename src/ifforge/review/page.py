"""The review page: items rendered into `page.html` (a file of this package), the marks fetched by its script."""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

from ifforge.review.align import align_steps, description_steps

TIER_ORDER = ("easy", "medium", "hard")
# the reviewer's marks, the same under every item of every family
ACTIONS = """  <div class="actions">
    <button type="button" class="mark-faithful">faithful</button>
    <button type="button" class="mark-unfaithful">not faithful</button>
    <textarea class="comment" rows="2" placeholder="comment (what is wrong or unclear?)"></textarea>
  </div>"""


def _inline_code(text: str) -> str:
    """Escape, then show `backticked` names as code, as the descriptions use them."""
    return re.sub(r"`([^`\n]+)`", r"<code>\1</code>", html.escape(text))


def _render_view(item: dict[str, Any]) -> str:
    """Any family's item through its review view: source beside instruction, then the details."""
    view = item["view"]
    task_id = html.escape(str(item["task_id"]))
    details = "".join(f'<div class="label">{html.escape(label)}</div><pre class="input">{html.escape(text)}</pre>'
                      for label, text in view["details"].items())
    return f"""
<section class="item" tabindex="-1" data-task-id="{task_id}" data-tier="">
  <h2>{html.escape(view["title"])} <span class="badge">{html.escape(item["family"])}</span><span class="status" aria-live="polite"></span><span class="saved-at"></span><span class="others"></span></h2>
  <div class="pair">
    <div class="panel"><h3>Reference code</h3><pre class="code">{html.escape(view["source"])}</pre></div>
    <div class="panel"><h3>Instruction</h3><pre class="description">{html.escape(view["instruction"])}</pre></div>
  </div>
  <div class="facts"><div class="case">{details}</div></div>
{ACTIONS}
</section>"""


def _render_aligned(function: str, description: str) -> str:
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


def _render_cases(item: dict[str, Any]) -> str:
    def cell(value: Any) -> str:
        return f"<td><code>{html.escape(json.dumps(value, ensure_ascii=False))}</code></td>"

    rows = []
    for case in item.get("cases") or []:
        inputs, gold = case.get("input"), case.get("code_output") or {}
        call = (f"f({', '.join(json.dumps(arg, ensure_ascii=False) for arg in inputs)})"
                if isinstance(inputs, list) else json.dumps(inputs, ensure_ascii=False))
        rows.append(f'<tr class="case-row"><td>{html.escape(str(case.get("test_case_id")))}</td>'
                    f"<td><code>{html.escape(call)}</code></td>{cell(gold.get('output'))}{cell(gold.get('stats'))}</tr>")
    return (f'<table class="cases"><thead><tr><th>case</th><th>input</th><th>gold output</th><th>gold trackers</th>'
            f'</tr></thead><tbody>{"".join(rows)}</tbody></table>')


def _render_item(item: dict[str, Any]) -> str:
    if "view" in item:
        return _render_view(item)
    task_id = html.escape(str(item["task_id"]))
    trackers = "".join(f"<li><code>{html.escape(str(key))}</code></li>" for key in item.get("stats_keys") or [])
    difficulty = item.get("difficulty")
    badge = f'<span class="badge">{html.escape(str(difficulty))}</span>' if difficulty is not None else ""
    description = item.get("description") or ""
    return f"""
<section class="item" tabindex="-1" data-task-id="{task_id}" data-tier="{html.escape(str(difficulty or ''))}">
  <h2>{task_id} {badge}<span class="status" aria-live="polite"></span><span class="saved-at"></span><span class="others"></span></h2>
  {_render_aligned(item.get("function") or "", description)}
  <details class="full"><summary>The instruction as the model reads it</summary><div class="description">{_inline_code(description)}</div></details>
  <div class="facts">
    <div><h3>Trackers</h3><ul class="trackers">{trackers or "<li>none</li>"}</ul></div>
    <div class="case"><h3>Test cases ({len(item.get("cases") or [])})</h3>{_render_cases(item)}</div>
  </div>
{ACTIONS}
</section>"""


def render_page(items: list[dict[str, Any]], version: Path, token: str = "") -> str:
    """One self-contained page: the items are rendered here, the marks fetched by the script. `token`
    is the server's: its script sends it with every mark, and no other site can read it."""
    title = html.escape(f"Review {Path(version).parent.name}/{Path(version).name}")
    body = "".join(_render_item(item) for item in items) or "<p>No tasks in this version.</p>"
    tiers = sorted({str(item.get("difficulty")) for item in items if item.get("difficulty")},
                   key=lambda tier: (TIER_ORDER.index(tier) if tier in TIER_ORDER else len(TIER_ORDER), tier))
    options = "".join(f'<option value="{html.escape(tier)}">{html.escape(tier)}</option>' for tier in tiers)
    page = resources.files(__package__).joinpath("page.html").read_text(encoding="utf-8")
    return (page.replace("__TITLE__", title).replace("__COUNT__", str(len(items)))
            .replace("__TIERS__", options).replace("__TOKEN__", html.escape(token)).replace("__ITEMS__", body))
