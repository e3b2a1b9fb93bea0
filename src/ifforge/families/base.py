"""What a benchmark family is: settings, loading, a stage plan, export, scoring and a review view.

The generic flows (`ifforge.flows.generate` / `evaluate`) know only this shape. A family's plan is
a list of steps: `BatchStage`s (whole-batch work, such as dedup) and `core.runner.Stage`s
(per-item work, run in shards and cached per item). Per-item stages that follow each other are
pipelined shard by shard, so an item moves on as soon as its shard is done.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ifforge.core.records import DroppedItem
from ifforge.core.runner import Stage
from ifforge.core.settings import Settings
from ifforge.core.store import VersionStore


JSON_KINDS = {str: "text", bool: "true or false", int: "a whole number", float: "a number", list: "a list",
              dict: "an object", type(None): "null"}
Kind = type | tuple[type, ...]
NUMBER = (int, float)


def _kind_name(value: Any) -> str:
    return next((name for kind, name in JSON_KINDS.items() if isinstance(value, kind)), type(value).__name__)


def field_problem(row: dict[str, Any], fields: dict[str, Kind]) -> str | None:
    """The first field of `fields` that `row` lacks or holds with another JSON type (`object`: any),
    as a phrase that follows a file and line; None when all fit. `true` is not a number here."""
    for key, kind in fields.items():
        if key not in row:
            return f"missing field {key!r}"
        kinds = kind if isinstance(kind, tuple) else (kind,)
        value = row[key]
        if object not in kinds and (not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds)):
            wanted = " or ".join(JSON_KINDS[k] for k in kinds if not (k is int and float in kinds))
            return f"field {key!r} must be {wanted}, not {_kind_name(value)}"
    return None


TEXT_OR_NULL = (str, type(None))
ANSWER_KINDS: dict[str, Kind] = {"response": TEXT_OR_NULL, "llm_response": TEXT_OR_NULL,
                                 "responses": (list, type(None))}


def answer_problem(result: dict[str, Any], answers: tuple[str, ...]) -> str | None:
    """The first reply field a checker would read as text that holds something else (a replies
    file's `response: 5` would end the scoring with a traceback), as a phrase naming the field."""
    given = {key: ANSWER_KINDS[key] for key in answers if key in ANSWER_KINDS and key in result}
    problem = field_problem(result, given)
    if problem:
        return problem
    replies = (result.get("responses") if "responses" in answers else None) or []
    wrong = next((place for place, reply in enumerate(replies) if not isinstance(reply, TEXT_OR_NULL)), None)
    if wrong is None:
        return None
    return f"field 'responses[{wrong}]' must be text or null, not {_kind_name(replies[wrong])}"


@dataclass(frozen=True)
class BatchStage:
    """Whole-batch work: `function(items, settings) -> (kept, dropped, counts for the manifest)`."""

    name: str
    function: Callable[[list, Settings], tuple[list, list[DroppedItem], dict[str, Any]]]
    identity: Any = None  # what decides its result besides the items (goes into the run fingerprint)


Step = Stage | BatchStage


@dataclass(frozen=True)
class Loaded:
    """What `Family.load` read: the items, what it skipped (with file and line), and the inputs
    as the manifest names them (paths and content hashes)."""

    items: list
    dropped: list[DroppedItem]
    inputs: dict[str, Any]


class Family:
    """One benchmark family. Subclasses set the class attributes and implement the methods."""

    id: str = ""
    title: str = ""  # one line for `ifforge families`
    measures: str = ""  # what a score on it says about a model (the card's first line)
    follows: str = ""  # the published benchmark it follows, as the card cites it
    settings_class: type[Settings] = Settings
    llm_stages: tuple[str, ...] = ()  # stages that may use a model (names accepted by stage_models)
    own_exports: dict[str, str] = {}  # export formats only this family writes: format -> module with `write`
    rule_modes: tuple[str, ...] = ("ifforge",)  # with "paper": `--rules paper` scores as the original's own code

    def load(self, settings: Settings) -> Loaded:
        raise NotImplementedError

    def outside_code(self, settings: Settings) -> str | None:
        """The code a run would execute that does not ship with ifforge (a user's seeds), named for a
        message; None when there is none. It runs only behind bubblewrap's walls, or with the setting
        `allow_unwalled_seeds` (`isolation.require_walls`), and the manifest says which."""
        return None

    def check_inputs(self, settings: Settings) -> None:
        """Cheap checks of the inputs' paths before a run starts (raise `InputError`); load checks the rest."""

    def plan(self, settings: Settings) -> list[Step]:
        raise NotImplementedError

    def side_work(self, settings: Settings) -> dict[str, Callable[[Settings], Any]]:
        """Work that does not depend on the items (runs beside the stages): name -> function."""
        return {}

    def side_identity(self, settings: Settings) -> Any:
        """What decides the side work's results (goes into the run fingerprint)."""
        return None

    def warm_up(self, settings: Settings) -> None:
        """Start, in the background, slow loads the run will need (a model), so that they overlap the
        start of Prefect's temporary server rather than follow it. Nothing by default."""

    def write_loaded(self, store: VersionStore, items: list) -> None:
        """Per-item artifacts of what was loaded, before any stage ran."""

    def export(self, store: VersionStore, items: list, settings: Settings, side: dict[str, Any]) -> dict[str, Any]:
        """Write the benchmark files; return counts (at least `tasks` and `rows`) for the manifest."""
        raise NotImplementedError

    def summary_table(self, store: VersionStore) -> list[dict[str, Any]]:
        """Rows of the finished-tasks table published to Prefect."""
        return []

    # ---- evaluate -------------------------------------------------------------------------------
    def scorer(self):
        """This family's part of the one evaluate: an `eval.template.Scorer` (its scoring module,
        imported when the family is first scored)."""
        raise NotImplementedError

    def evaluate(self, rows: list[dict[str, Any]], settings: Any, cache_path: Path, folder: Path,
                 title: str, on_done: Callable[[], None] | None = None, run: dict[str, Any] | None = None,
                 ) -> dict[str, Any]:
        """Ask a model every row, write responses and scores and a report in `folder`; return the summary
        (with `request_failures`, `headline` and `table`). `run` holds the run's facts for the report."""
        self.check_rows(rows)
        return self.scorer().evaluate(rows, settings, Path(cache_path), Path(folder), title, on_done, run)

    row_fields: dict[str, Kind] = {"task_id": object}  # what every row needs to be asked and scored

    def row_problem(self, row: dict[str, Any]) -> str | None:
        """Why this family cannot ask or score `row` ("missing field 'gold'", "field 'mode' must be
        ..."), or None. Rows read from a file are checked with it line by line (`checked_rows`)."""
        return field_problem(row, self.row_fields)

    def result_problem(self, result: dict[str, Any]) -> str | None:
        """Why a reply scored elsewhere (`ifforge score`) cannot be scored, or None: a field the scorer
        reads of its row that it lacks or holds with another type, or no reply field at all."""
        scorer = self.scorer()
        problem = field_problem(result, {key: kind for key, kind in self.row_fields.items() if key in scorer.carried})
        problem = problem or answer_problem(result, scorer.answers)
        if problem or result.get("request_failed") or any(key in result for key in scorer.answers):
            return problem
        return f"no answer field (one of {', '.join(scorer.answers)})"

    def rules_problem(self, row: dict[str, Any], rules: str) -> str | None:
        """Why `row` cannot be scored under `rules` (`--rules paper` may need the original's fields), or None."""
        return None

    def check_rows(self, rows: list[dict[str, Any]]) -> None:
        """Refuse rows this family cannot score (raise `BenchmarkError` naming the row and field),
        before anything is asked."""
        from ifforge.eval.evaluation import BenchmarkError

        for number, row in enumerate(rows, 1):
            problem = self.row_problem(row)
            if problem:
                raise BenchmarkError(f"row {number} ({row.get('task_id', '?')}): {problem}")

    def turns(self, row: dict[str, Any]) -> list[str]:
        """The user turns `evaluate` sends for one row: the chat's user messages, else its one prompt.
        Exports send exactly these, so their replies are the ones `evaluate` would score."""
        messages = [m["content"] for m in row.get("messages", []) if m.get("role", "user") == "user"]
        return messages or [row.get("instruction") or row.get("prompt") or ""]

    def request(self, row: dict[str, Any]) -> dict[str, Any]:
        """What `evaluate` sends for one row besides its user turns: `system` (a system message or
        None), `tools` (OpenAI `tools` entries or None) and `tool_choice`. Exports send the same."""
        return {"system": None, "tools": None, "tool_choice": None}

    def text_row(self, row: dict[str, Any]) -> dict[str, Any] | None:
        """The row for a harness that can only send text and read text back (lm-eval): the row
        itself when it needs no tools; a family whose rows need tools returns a row rewritten for a
        text protocol (its `turns` and `check` then use it), or None to leave the row out."""
        return None if self.request(row).get("tools") else row

    def check(self, row: dict[str, Any], replies: list) -> dict[str, Any]:
        """One row's verdict on a model's replies (one per user turn; one in prompt mode), by this
        family's own checker: at least `correct` (bool), plus the family's finer numbers. A reply
        is the text, or a dict with `text` and `tool_calls` (OpenAI-shaped) where the row offers
        tools. Exports (inspect-ai, lm-eval) call this, so they score exactly as `ifforge evaluate` does."""
        raise NotImplementedError

    def aggregate(self, verdicts: list[tuple[str, dict[str, Any]]]) -> dict[str, float]:
        """The headline scores of `check` verdicts, as (task_id, verdict) pairs, by name: what the
        family's report gives, so exports report the same numbers. By default, the share correct."""
        return {"accuracy": sum(bool(v["correct"]) for _, v in verdicts) / len(verdicts)} if verdicts else {}

    # ---- review ---------------------------------------------------------------------------------
    def review_view(self, row: dict[str, Any]) -> dict[str, Any]:
        """One benchmark row as the review page shows it: a title, the `source` (code or data), the
        `instruction` text, and `details` (label -> text)."""
        return {"title": row.get("task_id", "?"), "source": "", "instruction": str(row.get("prompt", "")),
                "details": {}}
