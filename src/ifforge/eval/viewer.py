"""The sample viewer: one static HTML file beside a run's report (`samples.html`) showing every row as
it was judged: what the model was sent (every turn, the system message, the tools), what it replied,
the gold, the verdict and its reason (part by part, where a family judges parts), with filters by
verdict, reason, tier and task.

It is written by every `ifforge evaluate` and `ifforge score` run and again by `ifforge view`, from
the family's contract alone (`request`, `check`'s verdict, `sample_view`). The file needs no
network and no server: its style and script are inline, the rows are JSON inside it, and the
script puts every value in the page as text, never as HTML. Long texts that begin alike (an input
asked under several instructions) are kept once, each later one as the earlier one's first
characters and its own rest, so a run of long prompts stays a few megabytes.
"""

from __future__ import annotations

import html
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any

from ifforge.core.llm.client import failure_kind
from ifforge.core.registry import UnknownId
from ifforge.core.store.versions import atomic_write
from ifforge.eval.evaluation import (BenchmarkError, EvalSettings, family_of, load_rows, locate, locate_report,
                                     read_jsonl)
from ifforge.eval.results_file import no_answer
from ifforge.families import get_family
from ifforge.families.base import Family, Reply, Request, Verdict

Row = dict[str, Any]
FILE = "samples.html"
SHARED_FROM = 4096  # a text this long may be kept as an earlier text's start and its own rest
HEAD = SHARED_FROM // 2  # ... when it starts with the same characters as that text, at least this many


class Texts:
    """The page's table of texts: each distinct text once; a long text that starts like an earlier
    one as `[that text's index, characters shared, the rest]`."""

    def __init__(self) -> None:
        self.entries: list[str | list] = []
        self._index: dict[str, int] = {}
        self._by_head: dict[str, str] = {}

    def add(self, text: str | None) -> int | None:
        if text is None:
            return None
        if text in self._index:
            return self._index[text]
        entry: str | list = text
        if len(text) >= SHARED_FROM:
            earlier = self._by_head.setdefault(text[:HEAD], text)
            shared = _shared_start(earlier, text) if earlier is not text else 0
            if shared >= HEAD:
                entry = [self._index[earlier], shared, text[shared:]]
        self._index[text] = len(self.entries)
        self.entries.append(entry)
        return self._index[text]


def _shared_start(one: str, other: str) -> int:
    """How many first characters two texts share (by halving: string comparisons run in C)."""
    low, high = 0, min(len(one), len(other))
    while low < high:
        middle = (low + high + 1) // 2
        if one[:middle] == other[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _json_text(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value, indent=1, ensure_ascii=False, default=str)


def _plain(line: Row) -> Row:
    """A verdict line as a browser's JSON can carry it: numpy numbers and the like, NaN and the
    infinities as text (JSON has none of them: one would stop the page from reading its rows)."""
    return json.loads(json.dumps(line, default=str), parse_constant=str)


def sample(family: Family, number: int, row: Row, result: Row, verdict: Verdict, texts: Texts) -> Row:
    """One row as the page shows it: what was sent, what came back, the gold and the verdict."""
    try:
        request = family.request(row)
    except (KeyError, TypeError, IndexError, AttributeError):  # replies scored without their benchmark
        request = Request(())
    reply = Reply(result)
    view = family.sample_view(row, verdict)
    failed = reply.failed
    notes = [("not in the replies file: scored as no answer" if result.get("no_reply") else None),
             (None if request.turns else "what was sent is not known: the replies were scored without their benchmark"),
             result.get("empty_reply"), result.get("unreadable")]
    return {"n": number, "id": family.row_id({**result, **row}),  # the id of scores.parquet and every export
            "verdict": "failed" if failed else "right" if verdict.correct else "wrong",
            "reason": failure_kind(result.get("error")) if failed else str(view.get("reason")),
            "task": None if view.get("task") is None else str(view["task"]),
            "tier": None if view.get("tier") is None else str(view["tier"]),
            "system": texts.add(request.system), "turns": [texts.add(turn) for turn in request.turns],
            "tools": texts.add(_json_text(request.tools)),
            "replies": [] if failed else [texts.add(text) for text in reply.texts],
            "calls": _json_text(reply.tool_calls) if reply.tool_calls else None,
            "error": result.get("error") if failed else None,
            "note": "; ".join(str(note) for note in notes if note) or None,
            "gold": _json_text(view.get("gold")), "lines": [_plain(line) for line in verdict.lines]}


def page(family: Family, results: list[Row], rows: list[Row], verdicts: list[Verdict], title: str,
         overview: str = "") -> str:
    """The viewer's HTML: every reply beside its row (the reply's own fields when no row is known)."""
    texts = Texts()
    samples = [sample(family, number, row, result, verdict, texts)
               for number, (row, result, verdict) in enumerate(zip(rows or results, results, verdicts), 1)]
    data = {"title": title, "overview": overview, "texts": texts.entries, "samples": samples}
    # inside <script>: no "</script>", "<!--" or "&" can end or change it
    payload = (json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
               .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
               .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
    before, _, after = resources.files(__package__).joinpath(FILE).read_text(encoding="utf-8").partition("__DATA__")
    return before.replace("__TITLE__", html.escape(title)) + payload + after  # each filled once, whatever they hold


def overview_line(family: Family, results: list[Row], verdicts: list[Verdict]) -> str:
    failed = sum(1 for result in results if result.get("request_failed"))
    right = sum(1 for result, verdict in zip(results, verdicts) if verdict.correct and not result.get("request_failed"))
    return (f"{family.id}: {len(results)} rows; {right} right, {len(results) - right - failed} wrong, "
            f"{failed} failed requests (not scored). Click a row to see what was sent, the reply, the gold and the verdict.")


def write_viewer(folder: Path, family: Family, results: list[Row], rows: list[Row], verdicts: list[Verdict],
                 title: str) -> Path:
    """`samples.html` in the run's folder, written whole; its path."""
    path = Path(folder) / FILE
    atomic_write(path, page(family, results, rows, verdicts, title, overview_line(family, results, verdicts)))
    return path


def rebuild(given: Path) -> Path:
    """`samples.html` of an evaluation or `ifforge score` run written again from its files (a run
    folder, or a model's folder: its latest run): its replies (`responses.jsonl`), its benchmark's
    rows where the run names them and they are still there, each judged again by its family under
    the run's rules. Its path; one `BenchmarkError` naming the file when the run cannot be read."""
    # lazy on purpose: the template imports this module
    from ifforge.eval.template import verdicts

    folder = locate_report(Path(given)).parent
    report = json.loads((folder / "report.json").read_text())
    run = report.get("run") or {}
    results = read_jsonl(folder / "responses.jsonl", ())
    try:
        family = get_family(run.get("family") or family_of(results, folder / "responses.jsonl"))
    except UnknownId as error:
        raise BenchmarkError(f"{folder / 'report.json'}: {error}") from None
    rows = _rows_of(run, family, results, folder)
    parameters = run.get("parameters") or {}
    settings = EvalSettings(model=run.get("model") or "", options={
        name: parameters[name] for name in family.options.model_fields if parameters.get(name) is not None})
    judged = verdicts(family, results, rows, settings)
    overview = overview_line(family, results, judged)
    scores = folder / "scores.parquet"
    if scores.exists():
        import pandas as pd  # lazy on purpose: heavy, only to compare with the verdicts kept

        kept, made = len(pd.read_parquet(scores)), sum(len(verdict.lines) for verdict in judged)
        if kept != made:
            overview += (f" Judged again by this version: {made} verdict lines, where scores.parquet keeps {kept}: "
                         "the run was scored by another version, or its benchmark changed.")
    path = folder / FILE
    atomic_write(path, page(family, results, rows, judged, str(report.get("title") or folder.name), overview))
    return path


def _rows_of(run: Row, family: Family, results: list[Row], folder: Path) -> list[Row]:
    """The benchmark row of each reply, when the run names its benchmark and it is still there (a
    path relative to where the run was started is looked for in the version holding the run
    folder, `evals/<model>/rNNN`; a reply without its row stands for it); with a replies file's
    run, the rows it left unanswered join the results as replies with no answer, as `ifforge
    score` scored them."""
    benchmark = run.get("benchmark")
    if benchmark and not Path(benchmark).exists() and len(folder.resolve().parents) > 2:
        benchmark = folder.resolve().parents[2] / Path(benchmark).name
    if not benchmark or not Path(benchmark).exists():
        return []
    rows = load_rows(locate(Path(benchmark), run.get("split") or "full")[0], run.get("expressions") or "original")
    by_identity = {family.identity(row): row for row in rows}
    by_key = {family.key(row): row for row in rows}
    matched = [by_identity.get(family.identity(result)) or by_key.get(family.key(result)) or result
               for result in results]
    if run.get("results"):
        answered = {family.key(result) for result in results}
        for row in rows:
            if family.key(row) not in answered:
                results.append({**no_answer(family, family.carry(row)), "no_reply": True})
                matched.append(row)
    return matched


def serving(path: Path, port: int = 0) -> ThreadingHTTPServer:
    """A server on this machine (127.0.0.1) giving the one file `path` at `/` and nothing else; call
    `serve_forever` (the file needs no server: this is for a browser that cannot open local files)."""
    body = Path(path).read_bytes()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            found = self.path.split("?", 1)[0] in ("/", f"/{FILE}")
            self.send_response(200 if found else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8" if found else "text/plain")
            content = body if found else b"not found: the viewer is at /\n"
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

        def log_message(self, *args) -> None:  # quiet: the command prints the address once
            pass

    try:
        return ThreadingHTTPServer(("127.0.0.1", port), Handler)
    except OSError as error:
        raise BenchmarkError(f"cannot serve on 127.0.0.1:{port} ({error.strerror}): choose another --port") from None
