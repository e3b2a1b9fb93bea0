"""MCBench's settings: which metrics, rubric variants and pair categories, how many pairs, and the
sandbox's limits. The same settings and seed give the same benchmark byte for byte."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, field_validator

from ifforge.core.settings import Settings
from ifforge.families.mcbench.metrics import METRICS

Variant = Literal["requirement", "example", "code"]
Category = Literal["plain", "non_latin", "emoji", "adversarial"]


def _once(values: list, what: str) -> list:
    if not values:
        raise ValueError(f"give at least one {what}")
    if len(set(values)) != len(values):
        raise ValueError(f"a {what} is listed twice: {values}")
    return values


class McbenchSettings(Settings):
    family: str = "mcbench"  # these settings are mcbench's
    seed: int = Field(0, description="picks the pairs: the same seed gives the same benchmark byte for byte, a new "
                                     "one new pairs")
    metrics: Annotated[list[str], AfterValidator(METRICS.check)] = Field(
        [], description="metric ids to include (default: all 33; `ifforge families` names "
                        "the family, the README lists the ids)")
    variants: list[Variant] = Field(["requirement", "example", "code"],
                                    description="rubric variants: the requirements only; + an example per step; "
                                                "+ an example and reference code per step")
    categories: list[Category] = Field(["plain", "non_latin", "emoji", "adversarial"],
                                       description="pair categories (the paper: plain, Dzongkha, emoji, harmful)")
    pairs_per_category: int = Field(10, ge=1, description="pairs (A, B) per category, shared by every metric "
                                                          "(the paper: 10)")
    spare_pairs: int | None = Field(None, ge=0, description="spare pairs per category (default: half of "
                                                           "pairs_per_category): a metric whose final value on a "
                                                           "pair is what a constant answer, 0 or 1, gives takes the "
                                                           "category's next spare instead; 0: every metric on the "
                                                           "same pairs")
    case_seconds: float = Field(10.0, gt=0, description="sandbox wall-clock limit per (metric, pair)")
    memory_mb: int = Field(512, ge=64, description="sandbox address-space limit")

    @field_validator("metrics")
    @classmethod
    def _metrics_once(cls, ids: list[str]) -> list[str]:
        return _once(ids, "metric") if ids else ids

    @field_validator("variants")
    @classmethod
    def _variants_once(cls, values: list[str]) -> list[str]:
        return _once(values, "variant")

    @field_validator("categories")
    @classmethod
    def _categories_once(cls, values: list[str]) -> list[str]:
        return _once(values, "category")

    @property
    def spares(self) -> int:
        return self.pairs_per_category // 2 if self.spare_pairs is None else self.spare_pairs
