"""LogicIF's settings: its inputs, the execute filters, dedup, expressions and the mini split."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from ifforge.core.settings import Settings, _llm, _runtime


class LogicIFSettings(Settings):
    family: str = "logicif"  # these settings are logicif's
    seeds: Path | None = Field(None, description="folder of seed .py files (default: the seeds shipped with ifforge)")
    functions: Path | None = Field(None, description="LogicIF functions JSONL ({task_id, function} per line)")
    test_cases: Path | None = Field(None, description="LogicIF test cases JSONL ({task_id, test_cases} per line)")
    max_seed_bytes: int = Field(100_000, ge=1, description="refuse a seed (file or JSONL function) larger than this")
    min_cases: int = Field(3, ge=1, description="drop a function left with fewer cases than this")
    # inf: no cap (a limit of these two may be lifted; NaN fails `gt`, so it stays refused)
    max_tracker_value: float = Field(50, gt=0, allow_inf_nan=True,
                                     description="drop a case with a tracker value >= this")
    max_decimal_places: int = Field(6, ge=0, description="drop a case whose output has more decimal places")
    max_input_magnitude: float = Field(
        1e6, gt=0, allow_inf_nan=True, description="drop a case with a number in its input above this in absolute value"
    )
    max_input_length: int = Field(
        10_000, ge=1, description="drop a case whose input, as JSON, is longer than this many characters"
    )
    max_output_length: int = Field(
        10_000, ge=1, description="drop a case whose output, as JSON, is longer than this many characters"
    )
    input_seed: int = Field(0, description="seed of generated inputs: another value gives other inputs, same difficulty")
    input_candidates: int = Field(80, ge=1, le=2000, description="candidate inputs tried per function without inputs")
    inputs_min: int = Field(8, ge=1, description="generated inputs kept per function, at least (when enough run)")
    inputs_max: int = Field(12, ge=1, description="generated inputs kept per function, at most")
    generate_inputs_below: int = Field(
        1, ge=0, description="generate inputs for a seed with fewer given inputs than this (0: never; 1: only none)")
    input_max_steps: int = Field(20_000, ge=1, description="drop a candidate input whose call runs more lines")
    case_seconds: float = Field(2.0, gt=0, description="sandbox wall-clock limit per case")
    memory_mb: int = Field(1024, ge=64, description="sandbox address-space limit per child")
    function_seconds: float = Field(
        20.0, gt=0, description="sandbox time budget for all runs of one function in one stage")
    tier_rule: Literal["static", "executed", "combined"] = Field(
        "static", description="rank tasks into difficulty thirds by LogicIF's static complexity score, the lines "
                              "a case executes, or both (mean of the two ranks)")
    mini_fraction: float = Field(0.25, gt=0, le=1, description="share of tasks in the mini split (by each task's own hash)")
    sample_seed: int = Field(0, description="seed of the mini split's hash")

    # embeddings: dedup of seeds, clustering of template rewrites
    dedup: bool = Field(True, description="drop near-duplicate seeds (embedding match confirmed by structure)")
    dedup_threshold: float = Field(0.7, gt=0, le=1, description="cosine similarity above which seeds may be duplicates")
    dedup_structural: float = Field(
        0.75, ge=0, le=1, description="structural similarity (Jaccard of AST shingles) from which an embedding match "
                                      "is confirmed as a duplicate")
    expressions: int = Field(5, ge=0, description="rewritten expressions of the solve prompt per task (0: none)")
    rewrites: int = Field(40, ge=1, description="rewrites to cluster (LLM) before choosing the expressions")
    expression_template: str = Field("solve", description="prompt name or .md file whose rewrites are clustered")
    expressions_veto: Path | None = _runtime(
        "file of vetoed rewrite ids, one per line (default: <out>/<benchmark>/expressions_veto.txt)", default=None)

    evolve_turns: int = _llm(1, "evolution turns per function (LLM only)", ge=0)
    verify_rounds: int = _llm(3, "verify / refine rounds before an item is dropped", ge=1)

    @model_validator(mode="after")
    def _inputs_min_is_at_most_inputs_max(self) -> LogicIFSettings:
        if self.inputs_min > self.inputs_max:
            raise ValueError(f"inputs_min ({self.inputs_min}) is more than inputs_max ({self.inputs_max})")
        return self
