"""Typed records handed from one stage to the next.

One record type per hand-off, so a stage's signature says exactly what it needs and what it
produces, and every record round-trips through JSON for caching and artifacts.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from ifforge.core.records import DroppedItem, Outcome, Record  # noqa: F401 - LogicIF's stages import them here


class TestInput(Record):
    """Positional arguments for one call of a seed function, and where they were written."""

    __test__ = False  # not a pytest class

    args: list[Any]
    line: int | None = None
    origin: str | None = None  # generated inputs: "literal boundary", "edge shape", "random", "llm", ...


class SeedFunction(Record):
    """A seed as loaded: its source, the entry point and its test inputs."""

    task_id: str
    source: str
    entry: str
    inputs: list[TestInput]
    origin: str = Field(description="file (and line) the seed came from")


class Tracker(Record):
    """One state tracker added to a function: its key, what it counts, and the code it hangs on."""

    name: str
    kind: Literal["loop_iterations", "branch_taken", "peak_size", "peak_value", "helper_calls", "recursive_calls",
                  "comprehension_iterations", "value_changes", "repeated_items", "parts_checked", "missing_keys",
                  "computed_value", "found_keys", "false_items",
                  "llm"]
    explanation: str
    anchor: str = ""  # the loop header, condition, function or container the counter belongs to


class InstrumentedFunction(Record):
    """The anonymised function `f` that returns `(output, {tracker: value})`."""

    task_id: str
    original_source: str
    original_entry: str
    anonymised_source: str
    instrumented_source: str
    renames: dict[str, str]
    trackers: list[Tracker]
    inputs: list[TestInput]
    path: Literal["deterministic", "llm"] = "deterministic"
    evolved_turns: int = 0
    notes: list[str] = []  # what happened on the way: LLM fallbacks, rejected evolution turns


class TestCase(Record):
    """One executed input with its gold answer, as produced by running the code."""

    __test__ = False

    test_case_id: int
    input: list[Any]
    output: Any
    stats: dict[str, Any]
    output_type: str
    steps: int | None = None  # lines of the function executed for this input (None: not counted)
    origin: str | None = None  # where a generated input came from (None: written in the seed)


class ExecutedFunction(Record):
    """A function together with the test cases that survived execution and filtering."""

    function: InstrumentedFunction
    cases: list[TestCase]
    exported_source: str = Field(description="the self-contained f the cases ran: the row's `function`")

    @property
    def task_id(self) -> str:
        return self.function.task_id


class ComplexityMetrics(Record):
    cyclomatic_complexity: int
    max_nesting_depth: int
    code_complexity_score: float
    total_control_structures: int
    function_calls: int
    total_function_lines: int
    radon_cyclomatic_complexity: int
    radon_maintainability_index: float
    radon_halstead_volume: float

    def logicif_view(self) -> dict[str, Any]:
        """The six fields LogicIFEval ships, in its key order."""
        return {
            "cyclomatic_complexity": self.cyclomatic_complexity,
            "max_nesting_depth": self.max_nesting_depth,
            "code_complexity_score": self.code_complexity_score,
            "total_control_structures": self.total_control_structures,
            "function_calls": self.function_calls,
            "total_function_lines": self.total_function_lines,
        }


class MeasuredFunction(Record):
    executed: ExecutedFunction
    complexity: ComplexityMetrics
    difficulty: Literal["easy", "medium", "hard"] | None = None

    @property
    def task_id(self) -> str:
        return self.executed.task_id


class StepPlace(Record):
    """A run of a description's lines (`lines`: first and last, 1-based) and where the statement its
    step renders stands in the row's `function`: the innermost `function` holding it, its `first`
    and `last` line; `step` is its label ("3.1"), None for a line that is no numbered step."""

    lines: tuple[int, int]
    step: str | None
    function: str
    first: int
    last: int


class Instruction(Record):
    """The natural-language side of a task: how it was written and the text itself."""

    description: str
    path: Literal["deterministic", "llm"] = "deterministic"  # of the text as kept: a reviewer's rewrite is "llm"
    prompt_hash: str | None = None
    model: str | None = None
    notes: list[str] = []
    places: list[StepPlace] = []  # the describer's own text only: where each step's statement stands

    @property
    def written_by(self) -> Literal["model", "deterministic"]:
        """What the rows and the manifest say wrote the text: a model or ifforge's renderer."""
        return "model" if self.path == "llm" else "deterministic"


class BenchmarkTask(Record):
    """A finished task: everything the export needs."""

    task_id: str
    function: str
    description: str
    stats_keys: list[str]
    output_format: str
    complexity: ComplexityMetrics
    difficulty: Literal["easy", "medium", "hard"]
    cases: list[TestCase]
    trackers: list[Tracker]
    path: Literal["deterministic", "llm"] = "deterministic"
    description_by: Literal["model", "deterministic"] = "deterministic"
    description_model: str | None = None
    executed_steps: float | None = None  # mean lines executed per case


class Review(Record):
    """A reviewer's verdict on a description (LogicIF's four fields)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    desc_is_complete: bool
    reasoning: str = ""
    missing_aspects: list[str] = []
    coverage_percentage: float = Field(ge=0, le=100)

    def contradiction(self) -> str | None:
        """Why the verdict contradicts itself, or None: "complete" with missing aspects or under 100%
        coverage is no pass, and "incomplete" without a missing aspect gives refine nothing to fix."""
        if self.desc_is_complete and (self.missing_aspects or self.coverage_percentage < 100):
            return (f"desc_is_complete is true, yet missing_aspects lists {len(self.missing_aspects)} point(s) and "
                    f"coverage_percentage is {self.coverage_percentage:g}")
        if not self.desc_is_complete and not self.missing_aspects:
            return "desc_is_complete is false, yet missing_aspects is empty"
        return None


class VerificationRound(Record):
    round: int
    description: str
    review: Review | None = None  # None on the deterministic path
    uncovered: list[str] = []  # parameters, tracker keys and constants the text never mentions
    contradiction: str | None = None  # the reviewer's verdict contradicted itself (after its re-asks)
    passed: bool


class DescribedFunction(Record):
    measured: MeasuredFunction
    instruction: Instruction
    history: list[VerificationRound] = []

    @property
    def task_id(self) -> str:
        return self.measured.task_id
