"""IFEval-FC's settings: which cases to build from which functions, and how a model is asked."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, field_validator

from ifforge.core.settings import Settings
from ifforge.families.ifeval_fc.rules import REGISTRY

SYSTEM_MESSAGE = ("Answer every request by calling one of the functions you are given. Always call a function; "
                  "never ask the user to clarify or to add anything.")


class IfevalFcSettings(Settings):
    family: str = "ifeval-fc"  # these settings are ifeval-fc's
    seed: int = Field(0, description="draws rules, their arguments, parameters and distractors: the same seed "
                                     "gives the same benchmark byte for byte, a new one a new benchmark")
    queries_per_function: int = Field(5, ge=1, le=5, description="user queries asked per function and rule "
                                                                 "(the paper: 5)")
    rules: Annotated[list[str], AfterValidator(REGISTRY.check)] = Field(
        [], description="rule ids to draw from (default: the paper's 15; `all_upper`, "
                        "`all_lower`, `end_phrase`, `postscript` are off unless named)")
    relations: list[Literal["exactly", "at most", "at least"]] = Field(
        ["exactly", "at most", "at least"], description="relations a counting rule may take")
    rules_per_function: int = Field(1, ge=1, le=5, description="distinct rules drawn per function, each its own cases")
    distractors: int = Field(0, ge=0, le=10, description="other tools offered beside the right one in each prompt")
    bank: bool = Field(True, description="use the built-in bank of hand-written functions")
    functions: Path | None = Field(None, description="a JSONL file of more functions: {domain, tool, carriers, "
                                                     "queries} per line")
    llm_functions: int = Field(22, ge=0, description="functions an LLM writes when one is configured, spread "
                                                     "over the bank's domains")
    tool_choice: Literal["auto", "required"] = Field("auto", description="tool_choice sent with every request")
    system_message: str = Field(SYSTEM_MESSAGE, description="the system message of every row")

    @field_validator("relations")
    @classmethod
    def _some_relation(cls, relations: list[str]) -> list[str]:
        if not relations:
            raise ValueError("give at least one relation (exactly, at most, at least)")
        return relations
