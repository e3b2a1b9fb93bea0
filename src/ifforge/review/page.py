"""The review page: items rendered into `page.html` (a file of this package), the marks fetched by its script."""

from __future__ import annotations

import html
from importlib import resources
from pathlib import Path
from typing import Any

TIER_ORDER = ("easy", "medium", "hard")
# the reviewer's marks, the same under every item of every family
ACTIONS = """  <div class="actions">
    <button type="button" class="mark-faithful">faithful</button>
    <button type="button" class="mark-unfaithful">not faithful</button>
    <textarea class="comment" rows="2" placeholder="comment (what is wrong or unclear?)"></textarea>
  </div>"""


def _pair(view: dict[str, Any], guide: dict[str, str]) -> str:
    """A view's source beside its instruction, under its family's labels, then its details."""
    details = "".join(f'<div class="label">{html.escape(label)}</div><pre class="input">{html.escape(str(text))}</pre>'
                      for label, text in view["details"].items())
    return f"""<div class="pair">
    <div class="panel"><h3>{html.escape(guide["source"])}</h3><pre class="code">{html.escape(view["source"])}</pre></div>
    <div class="panel"><h3>{html.escape(guide["instruction"])}</h3><pre class="description">{html.escape(view["instruction"])}</pre></div>
  </div>
  <div class="details">{details}</div>"""


def _guidance(items: list[dict[str, Any]]) -> str:
    """What a reviewer checks, once per family on the page, in the family's words."""
    said: dict[str, str] = {}
    for item in items:
        said.setdefault(str(item.get("family")), item["guide"]["guidance"])
    return "".join(f'<p class="help" data-family="{html.escape(family)}">{html.escape(text)} Mark it faithful or '
                   "not faithful and say why in the comment. Every mark is saved at once; a changed comment is saved "
                   "when you leave the box.</p>" for family, text in said.items())


def _render_item(item: dict[str, Any]) -> str:
    """One task through its family's view (`Family.review_view`): the family's own html, or its
    source beside its instruction under the family's labels (`Family.review_guide`); the reviewer's
    marks under it."""
    view = item["view"]
    task_id, tier, title = (html.escape(str(value)) for value in (item["task_id"], view.get("tier") or "", view["title"]))
    badge = view.get("badge", item.get("family"))
    badge = f'<span class="badge">{html.escape(str(badge))}</span>' if badge is not None else ""
    status = '<span class="status" aria-live="polite"></span><span class="saved-at"></span><span class="others"></span>'
    return f"""
<section class="item" tabindex="-1" data-task-id="{task_id}" data-tier="{tier}">
  <h2>{title} {badge}{status}</h2>
  {view.get("html") or _pair(view, item["guide"])}
{ACTIONS}
</section>"""


def render_page(items: list[dict[str, Any]], version: Path, token: str = "") -> str:
    """One self-contained page: the items are rendered here, the marks fetched by the script. `token`
    is the server's: its script sends it with every mark, and no other site can read it."""
    title = html.escape(f"Review {Path(version).parent.name}/{Path(version).name}")
    body = "".join(_render_item(item) for item in items) or "<p>No tasks in this version.</p>"
    tiers = sorted({str(item["view"]["tier"]) for item in items if item["view"].get("tier")},
                   key=lambda tier: (TIER_ORDER.index(tier) if tier in TIER_ORDER else len(TIER_ORDER), tier))
    options = "".join(f'<option value="{html.escape(tier)}">{html.escape(tier)}</option>' for tier in tiers)
    page = resources.files(__package__).joinpath("page.html").read_text(encoding="utf-8")
    return (page.replace("__TITLE__", title).replace("__COUNT__", str(len(items))).replace("__TIERS__", options)
            .replace("__TOKEN__", html.escape(token)).replace("__GUIDANCE__", _guidance(items)).replace("__ITEMS__", body))
