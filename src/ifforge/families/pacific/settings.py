"""PACIFIC's settings: which chains to build (the paper's knobs) and the sandbox's limits."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, field_validator, model_validator

from ifforge.core.settings import Settings
from ifforge.families.pacific.chains import PAPER_CHAIN_LENGTHS, PAPER_OUTPUT_LENGTHS
from ifforge.families.pacific.instructions import REGISTRY


Positive = Annotated[int, Field(ge=1)]


class PacificSettings(Settings):
    family: str = "pacific"  # these settings are pacific's
    seed: int = Field(0, description="picks the samples: the same seed gives the same benchmark byte for byte, "
                                     "a new one new samples at the same settings")
    chain_lengths: list[Positive] = Field([3, 5, 8], description="instructions per chain (the paper: 3, 5, 8, 10, 15)")
    output_lengths: list[Positive] = Field([3, 5, 10], description="target output length: characters for strings, "
                                                              "bits for numbers (the paper: 3, 5, 10)")
    grid: Literal["ours", "paper"] = Field("ours", description="paper: the paper's grid, chain lengths 3, 5, 8, "
                                                               "10, 15 by output lengths 3, 5, 10 (then leave "
                                                               "chain_lengths and output_lengths unset)")
    samples: int = Field(4, ge=1, description="chains per (chain length, output length)")
    modes: list[Literal["prompt", "chat"]] = Field(["prompt", "chat"], description="prompt: one prompt holds the "
                                                   "chain; chat: one instruction per turn")
    forms: list[Literal["code", "nl"]] = Field(["code", "nl"], description="instructions shown as Python code or "
                                                                          "natural language")
    languages: list[Literal["python", "java", "cpp"]] = Field(
        ["python"], description="languages the code form is shown in, a row each; Java and C++ are checked "
                                "against the Python reference at generation time (needs javac/java, g++)")
    instructions: Annotated[list[str], AfterValidator(REGISTRY.check)] = Field(
        [], description="instruction ids to draw from (default: the whole pool)")
    case_seconds: float = Field(5.0, gt=0, description="sandbox wall-clock limit per chain")
    memory_mb: int = Field(512, ge=64, description="sandbox address-space limit")

    @field_validator("languages")
    @classmethod
    def _languages_once(cls, languages: list[str]) -> list[str]:
        if not languages:
            raise ValueError("give at least one language (python, java, cpp)")
        if len(set(languages)) != len(languages):
            raise ValueError(f"a language is listed twice: {languages}")
        return languages

    @model_validator(mode="after")
    def _paper_grid(self) -> "PacificSettings":
        if self.grid == "paper":
            paper = {"chain_lengths": PAPER_CHAIN_LENGTHS, "output_lengths": PAPER_OUTPUT_LENGTHS}
            for name, lengths in paper.items():
                if name in self.model_fields_set and getattr(self, name) != lengths:
                    raise ValueError(f"grid 'paper' sets {name} to {lengths}: leave {name} unset, or drop grid")
                object.__setattr__(self, name, list(lengths))
        return self
