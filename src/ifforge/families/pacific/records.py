"""PACIFIC's records: a planned chain, and the chain with its gold from the sandbox."""

from __future__ import annotations

from typing import Any, Literal

from ifforge.core.records import Record


class Step(Record):
    """One instruction of a chain, by id and arguments (the pool in `instructions.py` renders it)."""

    id: str
    args: dict[str, Any] = {}


class Chain(Record):
    """A planned sample: an initial value and the instructions, with the values planning expected."""

    task_id: str
    chain_length: int
    output_length: int
    initial_input: int | str
    steps: list[Step]
    planned: list[Any]  # the in-process reference's outputs, checked against the sandbox's gold
    origin: str  # the seed and position that made it, so a person can rebuild it
    redraws: int = 0  # drawn steps rejected because they left the value unchanged


class GoldChain(Record):
    """A chain whose every step's gold came from running the reference code in the sandbox."""

    chain: Chain
    code: str  # the module that was run: every step's function, then `chain(x)`
    gold: list[Any]

    @property
    def task_id(self) -> str:
        return self.chain.task_id


Mode = Literal["prompt", "chat"]
Form = Literal["code", "nl"]
