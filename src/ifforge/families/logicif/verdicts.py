"""Case verdicts by LogicIFEval's rules, made explicit.

The answer is the last JSON object in the response that holds both `output` and `stats` (no LLM
in the loop); a response without one is a format failure, counted apart. Output passes iff it
equals the gold output, state passes iff the whole tracker dict equals the gold one, with Python
equality after JSON decoding (so `true == 1` and `20 == 20.0`), as the original release does.
`strict_types` also requires the same JSON types everywhere (`true` is not `1`, `20` is not `20.0`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ifforge.core.jsontext import last_json_object


@dataclass(frozen=True)
class Verdict:
    formatted: bool
    output_ok: bool
    stats_ok: bool

    @property
    def both_ok(self) -> bool:
        return self.output_ok and self.stats_ok


def extract_answer(response: str | None) -> dict[str, Any] | None:
    """The last JSON object holding `output` and `stats`, or None (a format failure)."""
    if not response:
        return None
    return last_json_object(response, required=("output", "stats"))


def strictly_equal(gold: Any, got: Any) -> bool:
    """Equal with the same JSON types all the way down."""
    if type(gold) is not type(got):
        return False
    if isinstance(gold, dict):
        return gold.keys() == got.keys() and all(strictly_equal(gold[k], got[k]) for k in gold)
    if isinstance(gold, list):
        return len(gold) == len(got) and all(strictly_equal(a, b) for a, b in zip(gold, got))
    return gold == got


def judge(gold_output: Any, gold_stats: dict[str, Any], response: str | None, strict_types: bool = False) -> Verdict:
    answer = extract_answer(response)
    if answer is None:
        return Verdict(formatted=False, output_ok=False, stats_ok=False)
    equal = strictly_equal if strict_types else (lambda a, b: a == b)
    return Verdict(formatted=True, output_ok=equal(gold_output, answer["output"]),
                   stats_ok=equal(gold_stats, answer["stats"]))
