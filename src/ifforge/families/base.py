"""What a benchmark family is: one small contract, written once.

A family says what it is (`id`, `title`, what it `measures` and `follows`); how it is generated
(`settings_class`, `load`, `plan`, `export`); what a row is (`row_fields`, `keys`); what the model
is sent for a row (`request`: evaluate, every export and the dry run send exactly this); how a
reply is judged (`check` -> one `Verdict`, by its own rules or, where it has one, its original's
`paper` scorer); which numbers and groups its report gives (`report`: headline metrics computed
once from the verdicts, for evaluate, exports and floors alike); its trivial `baselines`; and
optionally a `converter` for its original's released files, its own `exports` and its review view
(`review_guide`: labels and guidance; `review_view` or `review_item`: what a reviewer sees of a task);
and what pairs two runs' rows and names their tier (`paired_by`, `tier`: `ifforge compare`).

Evaluate, floors, exports, compare and review are generic over this shape. A family's plan is a
list of steps: `BatchStage`s (whole-batch work, such as dedup) and `core.runner.Stage`s (per-item
work, run in shards and cached per item).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ifforge.core.records import DroppedItem
from ifforge.core.registry import Registry
from ifforge.core.runner import Stage
from ifforge.core.settings import Settings
from ifforge.core.store.versions import VersionStore
from ifforge.eval.baselines import Baseline, Empty
from ifforge.eval.report import Report
from ifforge.families import FAMILIES, options_of
from ifforge.families.options import Options, choices

if TYPE_CHECKING:
    import pandas as pd

Row = dict[str, Any]


# ---- what a row needs: its fields, with their JSON types -------------------------------------------
JSON_KINDS = {str: "text", bool: "true or false", int: "a whole number", float: "a number", list: "a list",
              dict: "an object", type(None): "null"}
Kind = type | tuple[type, ...]
NUMBER = (int, float)
TEXT_OR_NULL = (str, type(None))
ANSWER_KINDS: dict[str, Kind] = {"response": TEXT_OR_NULL, "llm_response": TEXT_OR_NULL,
                                 "responses": (list, type(None))}


def _kind_name(value: Any) -> str:
    return next((name for kind, name in JSON_KINDS.items() if isinstance(value, kind)), type(value).__name__)


def field_problem(row: Row, fields: dict[str, Kind]) -> str | None:
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


def answer_problem(result: Row, answers: tuple[str, ...]) -> str | None:
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


# ---- what is sent, what comes back, what it is judged ------------------------------------------
@dataclass(frozen=True)
class Request:
    """What the model is sent for one row, by `ifforge evaluate` and every export alike: the user
    `turns` (with `chat`, answered one by one, the model's own replies going back between them), a
    `system` message, and OpenAI `tools` with their `tool_choice`."""

    turns: tuple[str, ...]
    chat: bool = False
    system: str | None = None
    tools: list[dict[str, Any]] | None = None
    tool_choice: Any = None


@dataclass(frozen=True)
class Reply:
    """A model's answer to one request, as every checker reads it: the fields evaluate keeps of it
    (`response`; `responses` in a chat; `tool_calls`; `request_failed`; and whatever else a replies
    file brings, such as LogicIF's `llm_output`), as in `responses.jsonl`."""

    fields: Mapping[str, Any]

    @classmethod
    def of(cls, replies: list) -> Reply:
        """The replies a harness collected, one per user turn: text, or a dict with `text` and
        OpenAI-shaped `tool_calls`."""
        texts = [reply.get("text") if isinstance(reply, dict) else reply for reply in replies]
        calls = [call for reply in replies if isinstance(reply, dict) for call in reply.get("tool_calls") or []]
        return cls({"response": texts[-1] if texts else None, "responses": texts, "tool_calls": calls})

    @property
    def texts(self) -> list[str | None]:
        """The text of each turn's reply."""
        responses = self.fields.get("responses")
        return list(responses) if isinstance(responses, list) else [self.fields.get("response")]

    @property
    def text(self) -> str | None:
        """The last reply's text (the answer, in a one-prompt row)."""
        texts = self.texts
        return texts[-1] if texts else None

    @property
    def tool_calls(self) -> list[dict[str, Any]]:
        return list(self.fields.get("tool_calls") or [])

    @property
    def failed(self) -> bool:
        """The request failed: no answer, left out of every score."""
        return bool(self.fields.get("request_failed"))


@dataclass(frozen=True)
class Verdict:
    """One row's verdict: `correct`, and the lines its numbers are computed from (one line; or one
    per part, where the family scores parts, such as each step of a chain). The lines are the rows of
    `scores.parquet`: the report, the floors and the exports compute every number from them."""

    correct: bool
    lines: tuple[Row, ...]

    def as_dict(self) -> Row:
        """The verdict as JSON (an export keeps it beside each sample): its one line, or its parts."""
        if len(self.lines) == 1:
            return {**self.lines[0], "correct": self.correct}
        return {"correct": self.correct, "parts": list(self.lines)}

    @classmethod
    def from_dict(cls, data: Row) -> Verdict:
        return cls(bool(data["correct"]), tuple(data["parts"]) if "parts" in data else (dict(data),))


# ---- review -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReviewGuide:
    """How the review page presents a family's items: what its `source` and its `instruction` are
    called, and the `guidance` over its items (what a reviewer checks), as plain text."""

    source: str = "Source"
    instruction: str = "Instruction"
    guidance: str = "For each task, check that following the instruction gives exactly what the source says."


# ---- generation ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BatchStage:
    """Whole-batch work: `function(items, settings) -> (kept, dropped, counts for the manifest)`;
    it `reads` items of one record type and `writes` items of one, as a per-item `Stage` does."""

    name: str
    function: Callable[[list, Settings], tuple[list, list[DroppedItem], dict[str, Any]]]
    identity: Any = None  # what decides its result besides the items (goes into the run fingerprint)
    reads: type = field(kw_only=True)
    writes: type = field(kw_only=True)


Step = Stage | BatchStage


class PlanError(TypeError):
    """A plan whose stages do not fit together: a stage reads another type than the one before it writes."""


def check_plan(family_id: str, loads: type | None, steps: list[Step]) -> list[Step]:
    """`steps` as given, once every one reads what the step before it writes (the first: what the
    family's `load` gives), a subclass being a fit; else one `PlanError` naming both steps and types."""
    if not isinstance(loads, type):
        raise PlanError(f"family {family_id!r} must declare `loads`, the record type its load gives")
    before, given = "the family's load", loads
    for step in steps:
        if not isinstance(step.reads, type) or not isinstance(step.writes, type):
            raise PlanError(f"family {family_id!r}: stage {step.name!r} must declare the record types it reads "
                            f"and writes, not {step.reads!r} and {step.writes!r}")
        if not issubclass(given, step.reads):
            raise PlanError(f"family {family_id!r}: stage {step.name!r} reads {step.reads.__name__}, but "
                            f"{before} writes {given.__name__}")
        before, given = f"stage {step.name!r}", step.writes
    return steps


def checked_plan(family: Family, settings: Settings) -> list[Step]:
    """The family's plan for `settings`, checked before anything runs (`check_plan`)."""
    return check_plan(family.id, family.loads, family.plan(settings))


@dataclass(frozen=True)
class Loaded:
    """What `Family.load` read: the items, what it skipped (with file and line), and the inputs
    as the manifest names them (paths and content hashes)."""

    items: list
    dropped: list[DroppedItem]
    inputs: dict[str, Any]


# ---- the contract -------------------------------------------------------------------------------------
class Family:
    """One benchmark family. A subclass sets the declarations and implements `load`, `plan`,
    `export`, `check` (and `request` when its rows are not one `prompt`); the rest has defaults."""

    # who it is
    id: str = ""
    title: str = ""  # one line for `ifforge families`
    measures: str = ""  # what a score on it says about a model (the card's first line)
    follows: str = ""  # the published benchmark it follows, as the card cites it

    # its settings
    settings_class: type[Settings] = Settings
    loads: type | None = None  # the record type `load` gives: what the plan's first stage reads
    llm_stages: tuple[str, ...] = ()  # stages that may use a model (names accepted by stage_models)

    # its rows, and the replies scored against them
    row_fields: dict[str, Kind] = {"task_id": object}  # what every row needs to be asked and scored
    keys: tuple[str, ...] = ("task_id",)  # what names a row in its benchmark (a reply names its row so)
    carried: tuple[str, ...] = ("task_id",)  # what a reply keeps of its row (what `check` reads of it)
    answers: tuple[str, ...] = ("response",)  # reply fields: a reply scored elsewhere (`ifforge score`) has one
    needs_rows: bool = False  # `check` reads more of the row than a reply carries: score against the benchmark
    scores_unreadable: bool = False  # a reply whose own gold cannot be read is a failed case, not refused
    expression_rows: str | None = None  # the file beside the rows holding them under other expressions

    # its numbers (its evaluate/score/export options are on its registry line: `families.options`)
    report: Report = Report()  # metrics, groups, the report's sections and plots
    row_means: tuple[str, ...] = ()  # the report's metrics that are the mean of one value per row (failed
    # requests aside): exports hand harnesses those values row by row, so they give a standard error
    counted_by: tuple[str, ...] = ()  # tiers and categories the card and floors count rows by, before the
    # report's groups
    paired_by: str = "task_id"  # the verdict column two runs are paired by (`ifforge compare`): what a row of a
    # regenerated version shares with the original rows it was made from
    tier: str | None = None  # the verdict column naming a row's difficulty tier, for differences by tier
    tier_order: tuple[str, ...] = ()  # its values from easiest to hardest (others follow, alphabetically)
    baselines: Registry[type[Baseline]] = Registry("baseline", (Empty,))  # the floors on its card

    # what else it offers
    converter: Callable[[Path, dict[str, Any]], list[Row]] | None = None  # its original's files as rows (`Entry.converts`)
    exports: dict[str, str] = {}  # export formats only this family writes: format -> module with `write`
    review_guide: ReviewGuide = ReviewGuide()  # its review view's labels and guidance

    @property
    def options(self) -> type[Options]:
        """Its options class (`Entry.options`; the base `Options` for a family not registered, as a
        test's own): `check` gets one of these, or None."""
        return options_of(self.id) if self.id in FAMILIES else Options

    @property
    def rule_modes(self) -> tuple[str, ...]:
        """The rules it scores by: `ifforge`, and `paper` where it reproduces its original's scorer."""
        return choices(self.options, "rules")

    # ---- generate -----------------------------------------------------------------------------------
    def load(self, settings: Settings) -> Loaded:
        raise NotImplementedError

    def plan(self, settings: Settings) -> list[Step]:
        """The stages, in order, each declaring what it `reads` and `writes` (`checked_plan` checks
        that they fit before a run starts)."""
        raise NotImplementedError

    def export(self, store: VersionStore, items: list, settings: Settings, side: dict[str, Any]) -> dict[str, Any]:
        """Write the benchmark files; return counts (at least `tasks` and `rows`) for the manifest."""
        raise NotImplementedError

    def outside_code(self, settings: Settings) -> str | None:
        """The code a run would execute that does not ship with ifforge (a user's seeds), named for a
        message; None when there is none. It runs only behind bubblewrap's walls, or with the setting
        `allow_unwalled_seeds` (`isolation.require_walls`), and the manifest says which."""
        return None

    def check_inputs(self, settings: Settings) -> None:
        """Cheap checks of the inputs' paths before a run starts (raise `InputError`); load checks the rest."""

    def idle_llm_stages(self, settings: Settings) -> tuple[str, ...]:
        """LLM stages these settings switch off (they would ask nothing): the run's log leaves them out."""
        return ()

    def independent_work(self, settings: Settings) -> dict[str, Callable[[Settings], Any]]:
        """Work that does not depend on the items (runs beside the stages): name -> function."""
        return {}

    def independent_identity(self, settings: Settings) -> Any:
        """What decides the side work's results (goes into the run fingerprint)."""
        return None

    def warm_up(self, settings: Settings) -> None:
        """Start, in the background, slow loads the run will need (a model), so that they overlap the
        start of Prefect's temporary server rather than follow it. Nothing by default."""

    def write_loaded(self, store: VersionStore, items: list) -> None:
        """Per-item artifacts of what was loaded, before any stage ran."""

    def summary_table(self, store: VersionStore) -> list[dict[str, Any]]:
        """Rows of the finished-tasks table published to Prefect."""
        return []

    @property
    def docs_page(self) -> str:
        """Its page in ifforge's documentation (a path under docs/): the card takes its differences
        from the original from that page's section of that name."""
        return f"families/{self.id}.md"

    def card_sections(self, manifest: dict[str, Any], rows: Iterable[Row]) -> dict[str, list[str]]:
        """Sections of its own on a version's card, after the floors: title -> markdown lines.
        `rows` may be read more than once (a file read again at each pass)."""
        return {}

    def data_licences(self, rows: Iterable[Row]) -> list[str]:
        """Where its rows derive from material under a licence of its own (an original's released
        data, a corpus), one sentence each for the card's License section; empty when ifforge made
        all of it."""
        return []

    def made_by(self, rows: list[Row]) -> str:
        """A sentence on how these rows were made, for an export's card (LogicIF: who wrote the
        descriptions); empty when there is nothing to say beyond the version's card."""
        return ""

    # ---- rows and replies ---------------------------------------------------------------------------
    def row_problem(self, row: Row) -> str | None:
        """Why this family cannot ask or score `row` ("missing field 'gold'", "field 'mode' must be
        ..."), or None. Rows read from a file are checked with it line by line."""
        return field_problem(row, self.row_fields)

    def result_problem(self, result: Row) -> str | None:
        """Why a reply scored elsewhere (`ifforge score`) cannot be scored, or None: a field `check`
        reads of its row that it lacks or holds with another type, or no reply field at all."""
        problem = field_problem(result, {key: kind for key, kind in self.row_fields.items() if key in self.carried})
        problem = problem or answer_problem(result, self.answers)
        if problem or result.get("request_failed") or any(key in result for key in self.answers):
            return problem
        return f"no answer field (one of {', '.join(self.answers)})"

    def options_problem(self, row: Row, options: Options) -> str | None:
        """Why `row` cannot be scored under `options` (`--rules paper` may need the original's fields), or None."""
        return None

    def carry(self, row: Row) -> Row:
        """What a reply keeps of its row (its family too, so `responses.jsonl` can be scored again)."""
        return {key: row[key] for key in ("family", *self.carried) if key in row}

    def key(self, row: Row) -> str:
        """A row's or a reply's `keys`, as one comparable text."""
        return json.dumps([row.get(key) for key in self.keys], sort_keys=True, default=str)

    def row_id(self, row: Row) -> str:
        """The one id of a row wherever it goes: every export's sample id, the `row_id` column of
        `scores.parquet`, `floors.json`. Its `keys`, and its expression where it has one, joined by `/`."""
        return "/".join(str(row[key]) for key in (*self.keys, "expression_id") if key in row)

    def identity(self, row: Row) -> str:
        """What makes a row one of its own: its `keys` under its expression. Two with one identity are
        one row asked or answered twice, which would count twice."""
        return json.dumps([*(row.get(key) for key in self.keys), row.get("expression_id")], default=str)

    # ---- asking and judging -------------------------------------------------------------------------
    def request(self, row: Row) -> Request:
        """What the model is sent for one row: by default its chat's user messages (and system
        message), else its one `prompt`."""
        messages = row.get("messages") or []
        turns = [m["content"] for m in messages if m.get("role", "user") == "user"]
        system = next((m["content"] for m in messages if m.get("role") == "system"), None)
        return Request(tuple(turns or [row.get("prompt") or ""]), system=system)

    def text_row(self, row: Row) -> Row | None:
        """The row for a harness that can only send text and read text back (lm-eval): the row
        itself when it needs no tools; a family whose rows need tools returns a row rewritten for a
        text protocol (its `request` and `check` then read it), or None to leave the row out."""
        return None if self.request(row).tools else row

    def check(self, row: Row, reply: Reply, options: Options | None = None) -> Verdict:
        """One row's verdict on a reply, by this family's rules (`options`: an evaluation's, of its
        `options` class, whose `rules` may pick the original's; None: what the row itself carries, as
        an export writes it: `Options.carried`). A failed request (`reply.failed`) is judged too,
        and its lines say so (`request_failed`)."""
        raise NotImplementedError

    def asks(self, options: Options) -> bool:
        """Whether scoring under `options` asks a model (`ifforge score` then keeps its calls)."""
        return False

    def request_tokens(self, row: Row) -> int | None:
        """The exact prompt tokens of the row's request, when the row counts them (the dry run then
        takes them in place of its estimate of 4 characters a token); None when it does not."""
        return None

    def sample_view(self, row: Row, verdict: Verdict) -> Row:
        """What the sample viewer shows of one judged row beside what was sent and what came back:
        the `gold` (any JSON), a short `reason` for the verdict (the viewer filters by it, so a few
        words from a small set), and the row's `task` and `tier` to filter by (None: it has none)."""
        return {"gold": row.get("gold"), "reason": "right" if verdict.correct else "wrong",
                "task": row.get("task_id"), "tier": next((row[key] for key in self.counted_by if key in row), None)}

    def refine(self, results: list[Row], rows: list[Row], settings: Any, asker: Any) -> None:
        """Work on the replies before they are judged (LogicIF: an LLM finds answers its rules missed);
        `settings` are the evaluation's, its options (`settings.options`) of this family's class."""

    def annotate(self, results: list[Row], frame: pd.DataFrame, rows: list[Row], settings: Any, asker: Any,
                 folder: Path) -> Row:
        """Findings beyond the verdicts, written beside the report; returns what the summary gains
        (`asker` is None when replies made elsewhere are scored: no model to ask)."""
        return {}

    # ---- review ---------------------------------------------------------------------------------------
    def review_view(self, row: Row) -> Row:
        """One task as the review page shows it: a `title`, the `source` (code or data), the
        `instruction` text and `details` (label -> text), under `review_guide`'s labels; or the
        family's own `html`; with a `badge` and a `tier` to filter by when it has them."""
        return {"title": row.get("task_id", "?"), "source": "", "instruction": str(row.get("prompt", "")),
                "details": {}}

    def review_item(self, rows: list[Row], version: Path | None = None) -> Row:
        """What the reviewer sees of one task (all its rows; `version`: the folder they were read
        from, whose per-item artifacts a view may read): by default the view of its first row."""
        return {"view": self.review_view(rows[0])}
