"""Seeded chain building: types that chain, every instruction about as often, outputs near a target length.

At each step the builder runs every candidate instruction (the trusted pool, in process) on the
running value and keeps those whose output length is within `tolerance(target)` of the target
(characters for strings, bits for numbers); among those it draws uniformly, so every instruction of
the pool is used about as often (steering to the single nearest length made four instructions most
of every chain). A drawn step that leaves the value unchanged is rejected and redrawn (counted in
the chain's `redraws`): "repeat the last value" must never be right. Only when no candidate is near
enough does it take one of the few nearest. Every value stays in the portable domain
(`instructions.portable`), so the Java and C++ versions shown to a model compute what the Python
reference computes. The values it saw are kept as `planned`; the gold itself comes from running
the same code in the sandbox.
"""

from __future__ import annotations

import random
import string
from typing import Any

from ifforge.families.pacific import instructions
from ifforge.families.pacific.records import Chain, Step

SHORTLIST = 3  # when no candidate is near the target, draw among this many of the nearest
PAPER_CHAIN_LENGTHS = [3, 5, 8, 10, 15]  # the PACIFIC paper's instructions per chain
PAPER_OUTPUT_LENGTHS = [3, 5, 10]
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


def tolerance(target: int) -> int:
    """How far from the target an output may be and still count as near: wide enough that most
    instructions qualify at each step, narrow enough that the output-length knob means something."""
    return max(1, target // 2)


def draw(rng: random.Random, candidates: list[tuple], target: int, used: list[str]) -> tuple[tuple | None, int]:
    """(the drawn candidate, identity steps rejected before it). Candidates are (distance,
    instruction id, instruction, output, changed); among the near ones, those the chain has used
    least are drawn first, so a long chain does not repeat one instruction."""
    near = [c for c in candidates if c[0] <= tolerance(target)]
    redraws = 0
    while near:
        fewest = min(used.count(c[1]) for c in near)
        pick = rng.choice([c for c in near if used.count(c[1]) == fewest])
        near.remove(pick)
        if pick[4]:
            return pick, redraws
        redraws += 1
    changing = sorted((c for c in candidates if c[4]), key=lambda c: (c[0], c[1]))
    return (rng.choice(changing[:SHORTLIST]) if changing else None), redraws


def build_chain(task_id: str, length: int, target: int, rng: random.Random, pool: list[str]) -> Chain:
    """One chain of `length` steps drawn from `pool` (instruction ids), none leaving the value unchanged."""
    value = initial_value(rng, target)
    start = value
    steps: list[Step] = []
    planned: list[Any] = []
    previous: str | None = None
    redraws = 0
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
            changed = type(output) is not type(value) or output != value
            candidates.append((abs(value_length(output) - target), instruction_id, instruction, output, changed))
        pick, rejected = draw(rng, candidates, target, [step.id for step in steps])
        redraws += rejected
        if pick is None:
            raise ChainError(f"{task_id}: no instruction of the pool changes a {kind} after {previous!r}")
        distance, instruction_id, instruction, output, _ = pick
        steps.append(Step(id=instruction_id, args=instruction.args()))
        planned.append(output)
        previous, value = instruction_id, output
    return Chain(task_id=task_id, chain_length=length, output_length=target, initial_input=start, steps=steps,
                 planned=planned, origin="", redraws=redraws)


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
