"""LIFBench's settings: which scenarios, tasks, lengths, expressions and variable sets make the grid."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, field_validator, model_validator

from ifforge.core.settings import Settings
from ifforge.families.lifbench.tasks import TASKS

LENGTHS = [3 * 1024, 6 * 1024, 13 * 1024, 28 * 1024, 60 * 1024, 120 * 1024]  # the released data's six buckets


class LifbenchSettings(Settings):
    family: str = "lifbench"  # these settings are lifbench's
    seed: int = Field(0, description="the same seed gives the same benchmark byte for byte (on the same Python, "
                                     "whose documentation is the prose); a new one new inputs and variables")
    scenarios: list[Literal["list", "multidoc", "onedoc"]] = Field(["list", "multidoc", "onedoc"],
                                                                   description="scenarios to build")
    tasks: Annotated[list[str], AfterValidator(TASKS.check)] = Field(
        [], description="task ids to keep (default: every task of the scenarios)")
    lengths: list[Annotated[int, Field(ge=1024, le=1_048_576)]] = Field(
        LENGTHS, description="input lengths in tokens (cl100k_base), the long input alone as in the paper; "
                             "the released data's six buckets by default, short ones (e.g. [1024]) for quick runs")
    samples: int = Field(1, ge=1, description="inputs per (scenario, length)")
    expressions: int = Field(2, ge=0, description="rewritten templates per task beside the original (e0): "
                                                  "chosen by k-means among the rewrites")
    rewrites: int = Field(12, ge=1, description="rewrites asked of the model per template (with an LLM)")
    variable_sets: int = Field(2, ge=1, description="variable sets per (input, task): the variables perspective")
    grid: Literal["sampled", "paper"] = Field(
        "sampled", description="paper: the paper's full grid, every task under as many wordings as the paper has "
                               "(the template and its bank, no clustering) and as many variable sets (5 or 6), "
                               "2,802 rows at the six lengths; `expressions` and `variable_sets` are then unused")

    @model_validator(mode="after")
    def _tasks_in_scenarios(self):
        """A task outside the chosen scenarios would leave an empty benchmark: say so instead."""
        stray = [task for task in self.tasks if TASKS[task].scenario not in self.scenarios]
        if stray:
            raise ValueError(f"task {stray[0]!r} belongs to scenario {TASKS[stray[0]].scenario!r}, "
                             f"which is not among scenarios {self.scenarios}")
        return self

    @field_validator("lengths", "scenarios")
    @classmethod
    def _once_each(cls, values: list) -> list:
        if not values or len(set(values)) != len(values):
            raise ValueError(f"give each value once, at least one: {values}")
        return values
