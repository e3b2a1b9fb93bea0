"""Records every family shares: the base record, a drop with its reason, one item's outcome, and
what an item must have for whole-batch transforms (dedup) to take it.

Each family defines its own records (one type per hand-off) in `families/<id>/records.py`.
"""

from __future__ import annotations

from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict

T = TypeVar("T")


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class DroppedItem(Record):
    """Something a stage let go of, and why; a whole task or one of its test cases."""

    task_id: str
    stage: str
    reason: str
    detail: str = ""
    test_case_id: int | None = None
    origin: str | None = None


class Outcome(BaseModel, Generic[T]):
    """One item through one stage: the record it became, or nothing, and what was dropped."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kept: T | None = None
    dropped: list[DroppedItem] = []
    evidence: list[Any] = []  # what a person needs to see why (e.g. every verification round)


class Sourced(Protocol):
    """Any item known by an id and its source text (code or prose): what dedup reads. An `origin`
    attribute, when the item has one, is carried into its drop."""

    @property
    def task_id(self) -> str: ...

    @property
    def source(self) -> str: ...
