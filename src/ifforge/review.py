"""Human verification of benchmark items: is each instruction faithful to its function?

An LLM writes the natural-language `description` of every anonymised function, so a person has to
check that following the description gives what the code gives. `ReviewServer` serves one page
(standard library only) where reviewers mark each task "faithful" or "not faithful"; every
reviewer's marks live in `<version>/reviews/<reviewer>.json`, so several people can review the same
version and their files can be copied around. The page is made for hundreds of items: each step
of a description beside the code line it describes (`align_steps`), every test case, filters by
tier, status and reviewer, a jump to the next unreviewed item and keys for all of it.
`review_stats` measures coverage and agreement between reviewers; `export_verified` keeps only
the tasks enough people reviewed and no one rejected.

    python -m ifforge.review serve out/logicif/v001 [--port 8000]
    python -m ifforge.review stats out/logicif/v001
    python -m ifforge.review export out/logicif/v001 verified.jsonl
"""

from __future__ import annotations

import argparse
import html
import json
import math
import re
import sys
import threading
from collections import Counter
from datetime import UTC, datetime
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import combinations
from pathlib import Path
from typing import Any, Self
from urllib.parse import parse_qs, urlsplit

from ifforge.core.store import atomic_write, write_json

BENCHMARK = "benchmark.jsonl"
REVIEWS = "reviews"
VERDICTS = ("faithful", "not_faithful")
REVIEWER_PATTERN = re.compile(r"[A-Za-z0-9._-]{1,64}")
MAX_COMMENT = 5000
MAX_BODY = 64 * 1024
ITEM_FIELDS = ("task_id", "test_case_id", "function", "description", "stats_keys", "input",
               "code_output", "output_format", "difficulty")
CASE_FIELDS = ("test_case_id", "input", "code_output")

# One lock for every read-modify-write of a reviewer file, shared by all servers in this process.
_LOCK = threading.Lock()


class ReviewError(ValueError):
    """Bad input from a reviewer; `field` names what to fix (sent back as HTTP 400)."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


# ---------------------------------------------------------------------------------------------
# Reading the version folder
# ---------------------------------------------------------------------------------------------

def read_rows(version: Path) -> list[dict[str, Any]]:
    path = Path(version) / BENCHMARK
    if not path.exists():
        raise FileNotFoundError(f"{version}: no {BENCHMARK} here (give a benchmark version folder)")
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise ValueError(f"{path}:{number}: not JSON ({error.msg})") from None
    return rows


def load_items(version: Path) -> list[dict[str, Any]]:
    """One item per task (a reviewer checks the function once), with every test case of the task."""
    items: dict[str, dict[str, Any]] = {}
    for row in read_rows(version):
        if row["task_id"] not in items:
            family = row.get("family", "logicif")
            items[row["task_id"]] = ({key: row.get(key) for key in ITEM_FIELDS} if family == "logicif"
                                     else {"task_id": row["task_id"], "family": family, "view": _family_view(row)})
            items[row["task_id"]]["cases"] = []
        if "view" not in items[row["task_id"]]:
            items[row["task_id"]]["cases"].append({key: row.get(key) for key in CASE_FIELDS})
    return list(items.values())


def check_reviewer(name: Any) -> str:
    """Reviewer names become file names, so only a safe alphabet is allowed."""
    if not isinstance(name, str) or not name:
        raise ReviewError("reviewer", "reviewer: give your name")
    if not REVIEWER_PATTERN.fullmatch(name) or name.startswith("."):
        raise ReviewError("reviewer", "reviewer: use 1-64 of the characters A-Z a-z 0-9 . _ - "
                          "(not starting with '.')")
    return name


def _reviewer_path(version: Path, reviewer: str) -> Path:
    return Path(version) / REVIEWS / f"{check_reviewer(reviewer)}.json"


class ReviewFileError(ReviewError):
    """A reviewer file that is not what the page writes (hand-edited, truncated): named, never guessed at."""

    def __init__(self, path: Path, problem: str):
        super().__init__("file", f"{path}: {problem}; fix the file or move it away")


def _read_marks(path: Path) -> dict[str, dict[str, Any]]:
    try:
        marks = json.loads(path.read_text())
    except UnicodeDecodeError:
        raise ReviewFileError(path, "not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise ReviewFileError(path, f"not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(marks, dict):
        raise ReviewFileError(path, "not a review file (expected an object of task id -> mark)")
    for task, record in marks.items():
        if not isinstance(record, dict) or record.get("verdict") not in VERDICTS:
            raise ReviewFileError(path, f"the mark of task {task!r} has no verdict ({' or '.join(VERDICTS)})")
    return marks


def load_reviews(version: Path, reviewer: str) -> dict[str, dict[str, Any]]:
    path = _reviewer_path(version, reviewer)
    return _read_marks(path) if path.exists() else {}


def all_reviews(version: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """{reviewer: {task_id: record}} for every reviewer file of the version."""
    folder = Path(version) / REVIEWS
    if not folder.is_dir():
        return {}
    return {path.stem: _read_marks(path)
            for path in sorted(folder.glob("*.json")) if REVIEWER_PATTERN.fullmatch(path.stem)}


def save_review(version: Path, task_ids: set[str], body: Any) -> dict[str, Any]:
    """Validate one mark and store it in the reviewer's file; returns the stored record."""
    if not isinstance(body, dict):
        raise ReviewError("body", "body: expected a JSON object")
    reviewer = check_reviewer(body.get("reviewer"))
    task_id = body.get("task_id")
    if not isinstance(task_id, str) or task_id not in task_ids:
        raise ReviewError("task_id", f"task_id: unknown task {task_id!r}")
    verdict = body.get("verdict")
    if verdict not in VERDICTS:
        raise ReviewError("verdict", f"verdict: must be one of {', '.join(VERDICTS)}, got {verdict!r}")
    comment = body.get("comment") or ""
    if not isinstance(comment, str):
        raise ReviewError("comment", "comment: must be text")
    if len(comment) > MAX_COMMENT:
        raise ReviewError("comment", f"comment: at most {MAX_COMMENT} characters")
    record = {"verdict": verdict, "comment": comment.strip(),
              "at": datetime.now(UTC).isoformat(timespec="seconds")}
    with _LOCK:
        reviews = load_reviews(version, reviewer)
        reviews[task_id] = record
        write_json(_reviewer_path(version, reviewer), reviews)
    return {"reviewer": reviewer, "task_id": task_id, **record}


# ---------------------------------------------------------------------------------------------
# Web server
# ---------------------------------------------------------------------------------------------

class ReviewServer:
    """Serves the review page of one version folder; writes only `<version>/reviews/`."""

    def __init__(self, version: Path, host: str = "127.0.0.1", port: int = 0):
        self.version = Path(version)
        self.items = load_items(self.version)
        self.task_ids = {item["task_id"] for item in self.items}
        all_reviews(self.version)  # a corrupt reviewer file is said now, not at the first page load
        self.page = render_page(self.items, self.version).encode()
        try:
            self.httpd = ThreadingHTTPServer((host, port), _Handler)
        except OSError as error:
            raise ReviewError("port", f"cannot serve on {host}:{port}: {error.strerror or error}; choose another "
                              "--port (or leave it out for a free one)") from None
        self.httpd.daemon_threads = True
        self.httpd.review = self  # type: ignore[attr-defined]
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/"

    def start(self) -> Self:
        # A short poll interval only makes stop() quick; requests are served at once regardless.
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="review-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join()
            self._thread = None
        self.httpd.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _Handler(BaseHTTPRequestHandler):
    server_version = "ifforge-review"

    @property
    def review(self) -> ReviewServer:
        return self.server.review  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: Any) -> None:  # quiet: marks are already on disk
        pass

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")  # a reload must show the marks on disk
        self.end_headers()
        self.wfile.write(body)

    def _json(self, value: Any, status: int = HTTPStatus.OK) -> None:
        self._send(status, json.dumps(value, ensure_ascii=False).encode(), "application/json; charset=utf-8")

    def _error(self, error: ReviewError, status: int = HTTPStatus.BAD_REQUEST) -> None:
        self._json({"error": str(error), "field": error.field}, status)

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        try:
            if url.path in ("/", "/index.html"):
                self._send(HTTPStatus.OK, self.review.page, "text/html; charset=utf-8")
            elif url.path == "/api/items":
                self._json(self.review.items)
            elif url.path == "/api/reviews":
                reviewer = parse_qs(url.query).get("reviewer", [""])[0]
                self._json(load_reviews(self.review.version, reviewer))
            elif url.path == "/api/verdicts":  # every reviewer's verdicts, for the status and reviewer filters
                self._json({name: {task: record["verdict"] for task, record in marks.items()}
                            for name, marks in all_reviews(self.review.version).items()})
            else:
                self._json({"error": f"no such page {url.path}"}, HTTPStatus.NOT_FOUND)
        except ReviewFileError as error:
            self._error(error, HTTPStatus.INTERNAL_SERVER_ERROR)
        except ReviewError as error:
            self._error(error)

    def do_POST(self) -> None:
        if urlsplit(self.path).path != "/api/review":
            self._json({"error": f"no such endpoint {self.path}"}, HTTPStatus.NOT_FOUND)
            return
        try:
            # JSON only: a cross-site form cannot send it without a CORS preflight, which we never allow.
            if "application/json" not in self.headers.get("Content-Type", ""):
                raise ReviewError("Content-Type", "Content-Type: send the review as application/json")
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_BODY:
                raise ReviewError("body", f"body: expected 1 to {MAX_BODY} bytes of JSON")
            try:
                body = json.loads(self.rfile.read(length))
            except (json.JSONDecodeError, UnicodeDecodeError):
                raise ReviewError("body", "body: not valid JSON") from None
            self._json(save_review(self.review.version, self.review.task_ids, body))
        except ReviewFileError as error:
            self._error(error, HTTPStatus.INTERNAL_SERVER_ERROR)
        except ReviewError as error:
            self._error(error)


# ---------------------------------------------------------------------------------------------
# Statistics and export
# ---------------------------------------------------------------------------------------------

def cohen_kappa(a: list[str], b: list[str]) -> tuple[float, float, bool]:
    """(observed agreement, kappa, degenerate). Degenerate: chance agreement is 1, kappa undefined."""
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b)) / n
    count_a, count_b = Counter(a), Counter(b)
    expected = sum(count_a[label] * count_b[label] for label in VERDICTS) / (n * n)
    if expected >= 1:
        return observed, (1.0 if observed == 1 else 0.0), True
    return observed, (observed - expected) / (1 - expected), False


def review_stats(version: Path) -> dict[str, Any]:
    """Coverage and inter-reviewer agreement: how much was checked, and how far reviewers can be trusted."""
    tasks = [item["task_id"] for item in load_items(version)]
    known = set(tasks)
    reviews = {name: {task: record for task, record in marks.items() if task in known}
               for name, marks in all_reviews(version).items()}
    per_task = Counter(task for marks in reviews.values() for task in marks)
    n = len(tasks)
    reviewers = {
        name: {"reviewed": len(marks),
               **{verdict: sum(r["verdict"] == verdict for r in marks.values()) for verdict in VERDICTS}}
        for name, marks in reviews.items()}
    pairs = []
    for first, second in combinations(sorted(reviews), 2):
        shared = [task for task in tasks if task in reviews[first] and task in reviews[second]]
        pair: dict[str, Any] = {"reviewers": [first, second], "shared": len(shared),
                                "agreement": None, "kappa": None, "kappa_degenerate": False}
        if shared:
            observed, kappa, degenerate = cohen_kappa([reviews[first][t]["verdict"] for t in shared],
                                                      [reviews[second][t]["verdict"] for t in shared])
            pair.update(agreement=observed, kappa=kappa, kappa_degenerate=degenerate)
            if degenerate:
                pair["kappa_note"] = ("expected agreement is 1 (both gave one and the same verdict "
                                      "throughout): kappa is undefined, set to 1.0 if they agree, else 0.0")
        pairs.append(pair)
    at_least = {k: sum(count >= k for count in per_task.values()) for k in (1, 2)}
    return {
        "tasks": n,
        "reviewers": reviewers,
        "coverage": {
            "reviewed_once": at_least[1], "reviewed_twice": at_least[2],
            "at_least_one": at_least[1] / n if n else 0.0,
            "at_least_two": at_least[2] / n if n else 0.0,
        },
        "pairs": pairs,
        "verified": len(verified_task_ids(version)),
    }


def format_stats(stats: dict[str, Any]) -> str:
    """Plain-text tables of `review_stats` for the terminal."""
    coverage = stats["coverage"]
    lines = [f"tasks: {stats['tasks']}   verified (all reviewers: faithful): {stats['verified']}",
             (f"coverage: >=1 review {coverage['reviewed_once']} ({coverage['at_least_one']:.0%}),  "
              f">=2 reviews {coverage['reviewed_twice']} ({coverage['at_least_two']:.0%})"), ""]
    if not stats["reviewers"]:
        return "\n".join(lines + ["no reviews yet"])
    width = max(8, *(len(name) for name in stats["reviewers"]))
    lines.append(f"{'reviewer':<{width}}  {'reviewed':>8}  {'faithful':>8}  {'not faithful':>12}")
    for name, counts in stats["reviewers"].items():
        lines.append(f"{name:<{width}}  {counts['reviewed']:>8}  {counts['faithful']:>8}  "
                     f"{counts['not_faithful']:>12}")
    if stats["pairs"]:
        pair_width = max(4, *(len(" / ".join(p["reviewers"])) for p in stats["pairs"]))
        lines += ["", f"{'pair':<{pair_width}}  {'shared':>6}  {'agreement':>9}  {'kappa':>6}"]
        for pair in stats["pairs"]:
            agreement = "-" if pair["agreement"] is None else f"{pair['agreement']:.0%}"
            kappa = "-" if pair["kappa"] is None else f"{pair['kappa']:.2f}"
            mark = " *" if pair["kappa_degenerate"] else ""
            lines.append(f"{' / '.join(pair['reviewers']):<{pair_width}}  {pair['shared']:>6}  "
                         f"{agreement:>9}  {kappa:>6}{mark}")
        if any(p["kappa_degenerate"] for p in stats["pairs"]):
            lines.append("* expected agreement is 1 (one verdict throughout): kappa undefined, set by convention")
    return "\n".join(lines)


def verified_task_ids(version: Path, min_reviewers: int = 1) -> set[str]:
    """Tasks at least `min_reviewers` people reviewed and none rejected: safe to publish as human-checked."""
    verdicts: dict[str, list[str]] = {}
    for marks in all_reviews(version).values():
        for task, record in marks.items():
            verdicts.setdefault(task, []).append(record["verdict"])
    known = {item["task_id"] for item in load_items(version)}
    return {task for task, seen in verdicts.items()
            if task in known and set(seen) == {"faithful"} and len(seen) >= min_reviewers}


def export_verified(version: Path, out: Path, min_reviewers: int = 1) -> tuple[Path, int]:
    """Write the benchmark rows (every test case) of verified tasks to `out`; returns (out, tasks)."""
    if not all_reviews(version):
        raise ValueError(f"{version}: no reviews in {Path(version) / REVIEWS}/ yet, so nothing is verified "
                         "(run `python -m ifforge.review serve` and mark some tasks first)")
    if min_reviewers < 1:
        raise ValueError(f"--min-reviewers: at least 1, got {min_reviewers}")
    keep = verified_task_ids(version, min_reviewers)
    rows = [row for row in read_rows(version) if row["task_id"] in keep]
    out = Path(out)
    atomic_write(out, "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    return out, len(keep)


# ---------------------------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------------------------

def _inline_code(text: str) -> str:
    """Escape, then show `backticked` names as code, as the descriptions use them."""
    return re.sub(r"`([^`\n]+)`", r"<code>\1</code>", html.escape(text))


def _family_view(row: dict[str, Any]) -> dict[str, Any]:
    from ifforge.families import get_family

    return get_family(row["family"]).review_view(row)


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
  <div class="actions">
    <button type="button" class="mark-faithful">faithful</button>
    <button type="button" class="mark-unfaithful">not faithful</button>
    <textarea class="comment" rows="2" placeholder="comment (what is wrong or unclear?)"></textarea>
  </div>
</section>"""


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?")
_TICKED = re.compile(r"`([^`\n]+)`")
_NUMBERING = re.compile(r"^\s*(?:\d+[.)]|[-*\u2022])\s*")  # "1. ", "2) ", "- ", "• "
# English words that are also common short names: matched only when a step puts them in backticks
_STOPWORDS = frozenset("a an the in is and or not to of it as by be on at with if for s t".split())


def description_steps(description: str) -> list[str]:
    """The description cut into steps: each line, and each sentence of a long line."""
    steps = []
    for line in description.splitlines():
        # a sentence ends at . ! ? or : after a word, never after a list number ("1. Add ...")
        steps += [part.strip() for part in re.split(r"(?<=[A-Za-z)\]`'\"][.!?:])\s+(?=[A-Z0-9])", line) if part.strip()]
    return steps


def align_steps(function: str, steps: list[str]) -> list[int]:
    """The code line (1-based) each step describes: the line sharing the most telling names with it
    (names rare in the code weigh more), the nearest one at or after the previous step's on a tie;
    a step naming nothing in the code stays with the step before it."""
    lines = function.splitlines() or [""]
    names = [set(_WORD.findall(line)) for line in lines]
    count = Counter(name for line_names in names for name in line_names)
    weight = {name: math.log((len(lines) + 1) / n) for name, n in count.items()}
    placed, previous = [], 1
    for step in steps:
        text = _NUMBERING.sub("", step)
        ticked = {word for code in _TICKED.findall(text) for word in _WORD.findall(code)}
        words = {w for w in _WORD.findall(text) if w.lower() not in _STOPWORDS and w != "I"} | ticked
        scores = [sum(weight[w] for w in words & line_names) for line_names in names]
        best = max(scores)
        if best > 0:
            previous = max(range(1, len(lines) + 1),
                           key=lambda n: (scores[n - 1] >= best - 1e-9, n >= previous, -abs(n - previous)))
        placed.append(previous)
    return placed


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
  <div class="actions">
    <button type="button" class="mark-faithful">faithful</button>
    <button type="button" class="mark-unfaithful">not faithful</button>
    <textarea class="comment" rows="2" placeholder="comment (what is wrong or unclear?)"></textarea>
  </div>
</section>"""


def render_page(items: list[dict[str, Any]], version: Path) -> str:
    """One self-contained page: the items are rendered here, the marks fetched by the script."""
    title = html.escape(f"Review {Path(version).parent.name}/{Path(version).name}")
    body = "".join(_render_item(item) for item in items) or "<p>No tasks in this version.</p>"
    tiers = sorted({str(item.get("difficulty")) for item in items if item.get("difficulty")},
                   key=lambda tier: (TIER_ORDER.index(tier) if tier in TIER_ORDER else len(TIER_ORDER), tier))
    options = "".join(f'<option value="{html.escape(tier)}">{html.escape(tier)}</option>' for tier in tiers)
    return (_PAGE.replace("__TITLE__", title).replace("__COUNT__", str(len(items)))
            .replace("__TIERS__", options).replace("__ITEMS__", body))


TIER_ORDER = ("easy", "medium", "hard")


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
  :root { --line: #d0d7de; --muted: #57606a; --ok: #1a7f37; --bad: #cf222e; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; background: #f6f8fa; }
  header { position: sticky; top: 0; z-index: 1; background: #fff; border-bottom: 1px solid var(--line);
           padding: 10px 20px; display: flex; flex-wrap: wrap; gap: 8px 20px; align-items: center; }
  header h1 { font-size: 18px; margin: 0; }
  header label { font-weight: 600; }
  #reviewer { font: inherit; padding: 4px 8px; width: 14em; border: 1px solid var(--line); border-radius: 6px; }
  #reviewer.invalid { border-color: var(--bad); }
  #message { color: var(--muted); }
  #message.error { color: var(--bad); }
  #progress { margin-left: auto; font-weight: 600; }
  main { padding: 16px 20px; max-width: 1600px; margin: 0 auto; }
  .help { color: var(--muted); margin: 0 0 12px; }
  .item { background: #fff; border: 1px solid var(--line); border-left: 6px solid var(--line);
          border-radius: 8px; padding: 12px 16px; margin-bottom: 18px; }
  .item.verdict-faithful { border-left-color: var(--ok); }
  .item.verdict-not_faithful { border-left-color: var(--bad); }
  h2 { font-size: 17px; margin: 0 0 8px; display: flex; align-items: center; gap: 10px; }
  h3 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 0 0 4px; }
  .badge { font-size: 12px; font-weight: 500; background: #eaeef2; border-radius: 10px; padding: 0 8px; }
  .status { font-size: 14px; font-weight: 600; }
  .status.faithful { color: var(--ok); } .status.not_faithful, .status.error { color: var(--bad); }
  .status.pending { color: var(--muted); font-weight: 400; }
  .saved-at { font-size: 12px; font-weight: 400; color: var(--muted); }
  .pair { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; }
  @media (max-width: 900px) { .pair { grid-template-columns: minmax(0, 1fr); } }
  pre, code { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  pre { margin: 0; background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; overflow-x: auto; }
  pre.code { max-height: 70vh; overflow: auto; }
  .description { white-space: pre-wrap; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px;
                 max-height: 70vh; overflow: auto; }
  .description code, .trackers code { background: #eff1f3; border-radius: 4px; padding: 0 3px; }
  .facts { display: grid; grid-template-columns: 14em minmax(0, 1fr); gap: 16px; margin-top: 12px; }
  .trackers { margin: 0; padding-left: 18px; }
  .case .label { font-size: 12px; color: var(--muted); margin-top: 4px; }
  .case pre { white-space: pre-wrap; word-break: break-word; }
  .actions { display: flex; gap: 10px; align-items: flex-start; margin-top: 12px; }
  .actions button { font: inherit; font-weight: 600; padding: 6px 14px; border-radius: 6px; cursor: pointer;
                    border: 1px solid var(--line); background: #fff; }
  .mark-faithful { color: var(--ok); } .mark-unfaithful { color: var(--bad); }
  .verdict-faithful .mark-faithful { background: var(--ok); color: #fff; border-color: var(--ok); }
  .verdict-not_faithful .mark-unfaithful { background: var(--bad); color: #fff; border-color: var(--bad); }
  .comment { flex: 1; font: inherit; padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; min-height: 2.4em; }
  .item { scroll-margin-top: 130px; }
  .item.current { box-shadow: 0 0 0 3px #0969da55; }
  .item:focus { outline: none; }
  header select, header button { font: inherit; padding: 3px 6px; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
  #keys { flex-basis: 100%; margin: 0; color: var(--muted); font-size: 13px; }
  #keys kbd { font: 12px ui-monospace, monospace; border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; padding: 0 4px; background: #f6f8fa; }
  .others { font-size: 12px; font-weight: 400; color: var(--muted); margin-left: auto; }
  table.aligned { width: 100%; border-collapse: collapse; table-layout: fixed; }
  table.aligned th { text-align: left; font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
  table.aligned th:first-child, table.aligned td.ln { width: 3em; }
  table.aligned td { vertical-align: top; border-top: 1px solid #eaeef2; padding: 1px 8px; }
  table.aligned td.ln { color: var(--muted); text-align: right; font: 12px ui-monospace, monospace; }
  table.aligned td.src code { white-space: pre; display: block; overflow-x: auto; background: #f6f8fa; }
  table.aligned td.steps { width: 50%; }
  .step { padding: 1px 0; }
  .step + .step { border-top: 1px dotted var(--line); }
  tr.code-line:has(.step) td.src code { background: #ddf4ff; }
  details.full { margin-top: 8px; }
  table.cases { border-collapse: collapse; font-size: 13px; }
  table.cases th, table.cases td { border: 1px solid var(--line); padding: 2px 8px; text-align: left; vertical-align: top; }
  table.cases code { white-space: pre-wrap; word-break: break-word; }
</style></head>
<body>
<header>
  <h1>__TITLE__</h1>
  <label for="reviewer">Your name</label>
  <input id="reviewer" autocomplete="username" placeholder="e.g. alice" maxlength="64">
  <label for="filter-tier">Tier</label>
  <select id="filter-tier"><option value="">all</option>__TIERS__</select>
  <label for="filter-status">Status</label>
  <select id="filter-status"><option value="">all</option><option value="todo">not reviewed by me</option>
    <option value="faithful">I marked faithful</option><option value="not_faithful">I marked not faithful</option>
    <option value="disputed">reviewers disagree</option></select>
  <label for="filter-reviewer">Reviewer</label>
  <select id="filter-reviewer"><option value="">anyone</option></select>
  <button type="button" id="next-unreviewed">next unreviewed</button>
  <span id="shown"></span>
  <span id="message"></span>
  <span id="progress"></span>
  <p id="keys">Keys, on the highlighted item (click one, or press n): <kbd>n</kbd> next unreviewed,
    <kbd>j</kbd>/<kbd>k</kbd> next/previous item, <kbd>f</kbd> faithful, <kbd>x</kbd> not faithful,
    <kbd>c</kbd> comment, <kbd>Esc</kbd> leave a box.</p>
</header>
<main>
<p class="help">For each task, check that following the <b>instruction</b> on the right gives exactly what the
<b>function</b> on the left computes, trackers included, on every test case: each step stands beside the code
line it describes. Mark it <b>faithful</b> or <b>not faithful</b> and say
why in the comment. Every mark is saved at once; a changed comment is saved when you leave the box.</p>
__ITEMS__
</main>
<script>
"use strict";
const TOTAL = __COUNT__;
const NAME_OK = /^(?!\\.)[A-Za-z0-9._-]{1,64}$/;
const LABEL = { faithful: "faithful", not_faithful: "not faithful" };
const reviewerBox = document.getElementById("reviewer");
const message = document.getElementById("message");
const items = Array.from(document.querySelectorAll(".item"));
let marks = {};   // task_id -> stored record of the current reviewer
let verdicts = {};   // reviewer -> task_id -> verdict, everyone's (for the filters)
let current = null;   // the item the keys act on
const tierBox = document.getElementById("filter-tier");
const statusBox = document.getElementById("filter-status");
const reviewerFilter = document.getElementById("filter-reviewer");

function say(text, isError) { message.textContent = text; message.className = isError ? "error" : ""; }
function reviewer() { return reviewerBox.value.trim(); }

function show(item, record) {
  const status = item.querySelector(".status");
  item.classList.remove("verdict-faithful", "verdict-not_faithful");
  status.className = "status";
  status.textContent = "";
  item.querySelector(".saved-at").textContent = "";
  if (!record) return;
  item.classList.add("verdict-" + record.verdict);
  status.classList.add(record.verdict);
  status.textContent = LABEL[record.verdict];
  item.querySelector(".saved-at").textContent = "saved " + new Date(record.at).toLocaleString();
}

function progress() {
  document.getElementById("progress").textContent = Object.keys(marks).length + " / " + TOTAL + " reviewed";
}

async function loadMarks() {
  const name = reviewer();
  marks = {};
  items.forEach(item => { show(item, null); item.querySelector(".comment").value = ""; });
  progress();
  applyFilters();
  if (!name) { reviewerBox.classList.remove("invalid"); say("Enter your name to start."); return; }
  if (!NAME_OK.test(name)) {
    reviewerBox.classList.add("invalid");
    say("Name: letters, digits, . _ - only (at most 64).", true);
    return;
  }
  reviewerBox.classList.remove("invalid");
  localStorage.setItem("ifforge-reviewer", name);
  say("Loading your marks...");
  try {
    const response = await fetch("api/reviews?reviewer=" + encodeURIComponent(name), { cache: "no-store" });
    const data = await response.json();
    if (name !== reviewer()) return;   // the name changed while we waited
    if (!response.ok) throw new Error(data.error);
    marks = data;
    items.forEach(item => {
      const record = marks[item.dataset.taskId];
      show(item, record);
      if (record) item.querySelector(".comment").value = record.comment || "";
    });
    progress();
    say("Reviewing as " + name + ".");
  } catch (error) { say("Could not load marks: " + error.message, true); }
  applyFilters();
}

function othersOf(task) {
  return Object.keys(verdicts).filter(who => task in verdicts[who]).map(who => [who, verdicts[who][task]]);
}

function showOthers(item) {
  item.querySelector(".others").textContent =
    othersOf(item.dataset.taskId).map(([who, verdict]) => who + ": " + LABEL[verdict]).join(", ");
}

async function loadVerdicts() {
  try {
    const response = await fetch("api/verdicts", { cache: "no-store" });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error);
    verdicts = data;
  } catch (error) { say("Could not load the reviews: " + error.message, true); }
  fillReviewers();
  items.forEach(showOthers);
  applyFilters();
}

function fillReviewers() {
  const chosen = reviewerFilter.value;
  reviewerFilter.replaceChildren(new Option("anyone", ""));
  Object.keys(verdicts).sort().forEach(who => reviewerFilter.add(new Option(who, who)));
  reviewerFilter.value = chosen in verdicts ? chosen : "";
}

function visible(item) {
  const task = item.dataset.taskId, mine = marks[task], status = statusBox.value, who = reviewerFilter.value;
  if (tierBox.value && item.dataset.tier !== tierBox.value) return false;
  if (status === "todo" && mine) return false;
  if ((status === "faithful" || status === "not_faithful") && (!mine || mine.verdict !== status)) return false;
  if (status === "disputed" && new Set(othersOf(task).map(pair => pair[1])).size < 2) return false;
  if (who && !(task in (verdicts[who] || {}))) return false;
  return true;
}

function applyFilters() {
  let count = 0;
  items.forEach(item => { item.hidden = !visible(item); if (!item.hidden) count++; });
  document.getElementById("shown").textContent = "showing " + count + " of " + TOTAL;
  if (current && current.hidden) setCurrent(null);
}

function shownItems() { return items.filter(item => !item.hidden); }

function setCurrent(item, scroll) {
  if (current) current.classList.remove("current");
  current = item;
  if (!item) return;
  item.classList.add("current");
  if (scroll) { item.scrollIntoView({ block: "start" }); item.focus({ preventScroll: true }); }
}

function move(step) {
  const list = shownItems();
  if (!list.length) return;
  const at = list.indexOf(current);
  setCurrent(list[at < 0 ? 0 : Math.min(list.length - 1, Math.max(0, at + step))], true);
}

function nextUnreviewed() {
  const list = shownItems(), at = list.indexOf(current);
  for (let k = 1; k <= list.length; k++) {
    const item = list[(at + k) % list.length];
    if (!marks[item.dataset.taskId]) { setCurrent(item, true); return; }
  }
  say("Every item shown is reviewed" + (reviewer() ? " by " + reviewer() : "") + ".");
}

// Saves of one item run one after another, so a comment saved on blur cannot overtake the click after it.
function save(item, verdict) {
  item.queue = (item.queue || Promise.resolve()).then(() => send(item, verdict));
  return item.queue;
}

async function send(item, verdict) {
  const name = reviewer();
  const status = item.querySelector(".status");
  if (!NAME_OK.test(name)) { say("Enter a valid name first.", true); reviewerBox.focus(); return; }
  status.className = "status pending";
  status.textContent = "saving...";
  try {
    const response = await fetch("api/review", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ reviewer: name, task_id: item.dataset.taskId, verdict: verdict,
                             comment: item.querySelector(".comment").value }),
    });
    const record = await response.json();
    if (!response.ok) throw new Error(record.error);
    if (name !== reviewer()) return;
    marks[item.dataset.taskId] = record;
    show(item, record);
    progress();
    const known = name in verdicts;
    (verdicts[name] = verdicts[name] || {})[item.dataset.taskId] = record.verdict;
    if (!known) fillReviewers();
    showOthers(item);
  } catch (error) {
    status.className = "status error";
    status.textContent = "not saved: " + error.message;
  }
}

items.forEach(item => {
  item.querySelector(".mark-faithful").addEventListener("click", () => save(item, "faithful"));
  item.querySelector(".mark-unfaithful").addEventListener("click", () => save(item, "not_faithful"));
  item.querySelector(".comment").addEventListener("change", () => {
    const record = marks[item.dataset.taskId];
    if (record) save(item, record.verdict);   // keep a comment edited after marking
  });
});

items.forEach(item => item.addEventListener("click", () => { if (current !== item) setCurrent(item, false); }));
[tierBox, statusBox, reviewerFilter].forEach(box => box.addEventListener("change", applyFilters));
document.getElementById("next-unreviewed").addEventListener("click", nextUnreviewed);

// Keys act on the current item; never while typing in a box (Esc leaves it).
const KEYS = {
  n: nextUnreviewed, j: () => move(1), k: () => move(-1),
  f: () => current && save(current, "faithful"), x: () => current && save(current, "not_faithful"),
  c: () => current && current.querySelector(".comment").focus(),
};
document.addEventListener("keydown", event => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName)) {
    if (event.key === "Escape") event.target.blur();
    return;
  }
  const act = KEYS[event.key];
  if (act) { event.preventDefault(); act(); }
});

let timer = null;
reviewerBox.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(loadMarks, 400); });
reviewerBox.value = localStorage.getItem("ifforge-reviewer") || "";
loadMarks();
loadVerdicts();
</script>
</body></html>
"""


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ifforge.review", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the review page of a version folder")
    serve.add_argument("version", type=Path)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    stats = commands.add_parser("stats", help="coverage and inter-reviewer agreement")
    stats.add_argument("version", type=Path)
    stats.add_argument("--json", action="store_true")
    export = commands.add_parser("export", help="write the rows of verified tasks to a .jsonl")
    export.add_argument("version", type=Path)
    export.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    try:
        if args.command == "serve":
            server = ReviewServer(args.version, args.host, args.port)
            print(f"reviewing {args.version} at {server.url}  (Ctrl-C to stop)")
            try:
                server.httpd.serve_forever()
            except KeyboardInterrupt:
                pass
            finally:
                server.httpd.server_close()
        elif args.command == "stats":
            result = review_stats(args.version)
            print(json.dumps(result, indent=2) if args.json else format_stats(result))
        else:
            path, count = export_verified(args.version, args.out)
            print(f"{count} verified tasks -> {path}")
    except (OSError, ValueError) as error:
        print(f"ifforge review: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
