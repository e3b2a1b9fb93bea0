"""Seeded chain building: types that chain, outputs kept near a target length.

For each step the builder runs every candidate instruction (the trusted pool, in process) on the
running value and prefers those whose output length is nearest the target (characters for
strings, bits for numbers), then draws among the best few, so chains stay varied. Every value
stays in the portable domain (`instructions.portable`), so the Java and C++ versions shown to a
model compute what the Python reference computes. The values it saw are kept as `planned`; the
gold itself comes from running the same code in the sandbox.
"""

from __future__ import annotations

import random
import string
from typing import Any

from ifforge.families.pacific import instructions
from ifforge.families.pacific.records import Chain, Step

SHORTLIST = 3  # draw among this many of the candidates nearest the target length
LETTERS = string.ascii_lowercase + string.ascii_uppercase
MAX_BITS = instructions.PORTABLE_LIMIT.bit_length() - 2  # 30: numbers of this many bits stay portable


class ChainError(ValueError):
    pass


def value_length(value: Any) -> int:
    """Characters for strings, bits of the absolute value for numbers (at least 1)."""
    return len(value) if isinstance(value, str) else max(1, abs(value).bit_length())


def initial_value(rng: random.Random, target: int) -> int | str:
    if rng.random() < 0.5:
        bits = min(target, MAX_BITS)
        return rng.randrange(1 << max(0, bits - 1), 1 << bits)  # exactly `target` bits, within the portable domain
    return "".join(rng.choice(LETTERS) for _ in range(target))


def build_chain(task_id: str, length: int, target: int, rng: random.Random, pool: list[str]) -> Chain:
    """One chain of `length` steps drawn from `pool` (instruction ids)."""
    value = initial_value(rng, target)
    start = value
    steps: list[Step] = []
    planned: list[Any] = []
    previous: str | None = None
    for _ in range(length):
        candidates = []
        kind = "str" if isinstance(value, str) else "int"
        for instruction_id in pool:
            cls = instructions.REGISTRY[instruction_id]
            if cls.input_type != kind or instruction_id == previous:
                continue
            if previous is not None and (instruction_id in instructions.REGISTRY[previous].conflicts):
                continue
            instruction = cls(**cls.sample_args(rng))
            if not instruction.accepts(value):
                continue
            output = instructions.run_python(instruction, value)
            if not instructions.portable(output):
                continue
            candidates.append((abs(value_length(output) - target), instruction_id, instruction, output))
        if not candidates:
            raise ChainError(f"{task_id}: no instruction of the pool takes a {kind} after {previous!r}")
        candidates.sort(key=lambda c: (c[0], c[1]))
        distance, instruction_id, instruction, output = rng.choice(candidates[:SHORTLIST])
        steps.append(Step(id=instruction_id, args=instruction.args()))
        planned.append(output)
        previous, value = instruction_id, output
    return Chain(task_id=task_id, chain_length=length, output_length=target, initial_input=start, steps=steps,
                 planned=planned, origin="")


def build_all(seed: int, chain_lengths: list[int], output_lengths: list[int], samples: int,
              pool: list[str]) -> list[Chain]:
    """Every chain of a run. Each (length, target, index) has its own generator derived from the
    seed, so adding a setting never changes the chains of the others."""
    chains = []
    for length in chain_lengths:
        for target in output_lengths:
            for index in range(samples):
                task_id = f"L{length:02d}-O{target:02d}-{index:03d}"
                rng = random.Random(f"pacific:{seed}:{length}:{target}:{index}")
                chain = build_chain(task_id, length, target, rng, pool)
                chains.append(chain.model_copy(update={"origin": f"seed {seed}, {task_id}"}))
    return chains


def chain_code(chain: Chain) -> str:
    """The module the sandbox runs: each step's reference function, then `chain(x)` giving every output."""
    parts = [instructions.get(step.id, **step.args).python(name=f"step_{i}") for i, step in enumerate(chain.steps, 1)]
    calls = ", ".join(f"step_{i}" for i in range(1, len(chain.steps) + 1))
    parts.append(f"def chain(x):\n    outputs = []\n    for step in ({calls},):\n        x = step(x)\n"
                 f"        outputs.append(x)\n    return outputs\n")
    return "\n\n".join(part.strip() + "\n" for part in parts)
