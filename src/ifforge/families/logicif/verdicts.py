"""Case verdicts by LogicIFEval's rules, made explicit.

The answer is taken from the response in this order, and how it was found is kept:
1. `json`: the last JSON object holding both `output` and `stats` (what our instructions ask for);
2. `labelled`: LogicIF's own answer format, `**Output:** <value>` then `**Statistics:** <object>`
   (the last such pair; values as JSON, or as Python literals, which are read, never run);
3. `llm`: on request, an LLM's extraction, as LogicIF's release does it (`extraction.py`).
A response with none of these is a format failure, counted apart; so is a response the bounded
reader refuses (`core/jsontext.py`: too long, too deeply nested, an integer too long), with the reason. Output passes iff it equals the
gold output, state passes iff the whole tracker dict equals the gold one, with Python equality after
JSON decoding (so `true == 1` and `20 == 20.0`), as the original release does. `strict_types` also
requires the same JSON types everywhere (`true` is not `1`, `20` is not `20.0`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ifforge.core.jsontext import decode_at, last_json_object, noting, python_literal, refusal
# a label on its own: "**Output:**", "Output:", "### Statistics", "__Stats__:", "- **Output**:"
_LABEL = re.compile(r"(?im)^[ \t>#*_-]*(output|statistics|stats)[ \t*_]*:?[ \t*_]*(?::[ \t*_]*)?(?=\S|$)")
_FENCE = re.compile(r"^```[a-zA-Z]*\s*|\s*```$")
_BULLET = re.compile(r"^[ \t]*[-*+]?[ \t]*[*_`]*([A-Za-z_][A-Za-z0-9_]*)[*_`]*[ \t]*[:=][ \t]*[*_`]*(.+?)[*_`]*[ \t]*$")


@dataclass(frozen=True)
class Verdict:
    formatted: bool
    output_ok: bool
    stats_ok: bool
    extracted_by: str = "none"  # json, labelled, llm, given (a LogicIF `llm_output`), none
    reason: str = ""  # why no answer was read, when the reply was refused unread

    @property
    def both_ok(self) -> bool:
        return self.output_ok and self.stats_ok


def _literal(text: str) -> tuple[bool, Any]:
    """(True, value) when `text` is one JSON value or Python literal, read without running anything."""
    text = _FENCE.sub("", text.strip()).strip().strip("`*_").strip()  # code marks and **bold**
    if not text:
        return False, None
    try:
        value, end = decode_at(text)
        if not text[end:].strip():
            return True, value
    except ValueError:
        pass
    try:
        return True, python_literal(text)
    except ValueError:
        return False, None


def _json_safe(value: Any) -> Any:
    """Python literals as JSON would hold them: tuples become lists, keys become strings."""
    return json.loads(json.dumps(value, default=list))


def _value_after(text: str) -> tuple[bool, Any]:
    """The value following a label: the whole block, else its first line."""
    ok, value = _literal(text)
    if ok:
        return True, value
    first = text.strip().splitlines()[0] if text.strip() else ""
    return _literal(first)


def _stats_after(text: str) -> dict[str, Any] | None:
    """The tracker dict after a Statistics label: an object, or lines of `name = value` / `name: value`."""
    stripped = _FENCE.sub("", text.strip()).strip().strip("`*_").strip()
    if stripped.startswith("{"):
        ok, value = _literal(stripped[:stripped.rfind("}") + 1])
        if ok and isinstance(value, dict):
            return value
        try:
            value, _ = decode_at(stripped)
            if isinstance(value, dict):
                return value
        except ValueError:
            pass
    found: dict[str, Any] = {}
    for line in stripped.splitlines():
        if not line.strip():
            if found:
                break
            continue
        match = _BULLET.match(line)
        if not match:
            break
        ok, value = _literal(match.group(2))
        if not ok:
            break
        found[match.group(1)] = value
    return found or None


def _split_pair(output: Any, stats: dict[str, Any] | None) -> tuple[Any, dict[str, Any] | None]:
    """A model that writes the function's whole return value, `(output, {trackers})`, as its Output:
    the pair splits when its dict has the trackers' names (or no Statistics label says otherwise)."""
    if isinstance(output, (list, tuple)) and len(output) == 2 and isinstance(output[1], dict) and output[1]:
        if stats is None or set(output[1]) == set(stats):
            return output[0], stats if stats is not None else output[1]
    return output, stats


def labelled_answer(response: str) -> dict[str, Any] | None:
    """LogicIF's labelled format: the last `Output:` label with a value, and the `Statistics:` label
    right after it (or, without one, an Output value that is the `(output, {trackers})` pair)."""
    labels = [(m.group(1).lower(), m.start(), m.end()) for m in _LABEL.finditer(response)] + [("end", len(response), 0)]
    for position in range(len(labels) - 2, -1, -1):
        kind, _, end = labels[position]
        if kind != "output":
            continue
        next_kind, next_start, next_end = labels[position + 1]
        ok, output = _value_after(response[end:next_start])
        if not ok:
            continue
        stats = None
        if next_kind in ("statistics", "stats"):
            stats = _stats_after(response[next_end:labels[position + 2][1]])
        output, stats = _split_pair(output, stats)
        if stats is not None:
            return {"output": _json_safe(output), "stats": _json_safe(stats)}
    return None


def extract_answer(response: str | None) -> tuple[dict[str, Any] | None, str]:
    """(the answer holding `output` and `stats`, how it was found) or (None, "none")."""
    if not response or refusal(response):
        return None, "none"
    answer = last_json_object(response, required=("output", "stats"))
    if answer is not None:
        return answer, "json"
    answer = labelled_answer(response)
    return (answer, "labelled") if answer is not None else (None, "none")


def strictly_equal(gold: Any, got: Any) -> bool:
    """Equal with the same JSON types all the way down."""
    if type(gold) is not type(got):
        return False
    if isinstance(gold, dict):
        return gold.keys() == got.keys() and all(strictly_equal(gold[k], got[k]) for k in gold)
    if isinstance(gold, list):
        return len(gold) == len(got) and all(strictly_equal(a, b) for a, b in zip(gold, got))
    return gold == got


def judge_answer(gold_output: Any, gold_stats: dict[str, Any], answer: dict[str, Any] | None, extracted_by: str,
                 strict_types: bool = False) -> Verdict:
    """The verdict on an answer already extracted (`{output, stats}`), or a format failure."""
    if not isinstance(answer, dict) or "output" not in answer or "stats" not in answer:
        return Verdict(formatted=False, output_ok=False, stats_ok=False)
    equal = strictly_equal if strict_types else (lambda a, b: a == b)
    return Verdict(formatted=True, output_ok=equal(gold_output, answer["output"]),
                   stats_ok=equal(gold_stats, answer["stats"]), extracted_by=extracted_by)


def judge(gold_output: Any, gold_stats: dict[str, Any], response: str | None, strict_types: bool = False) -> Verdict:
    """The verdict on a reply; one with no answer read says why when a bound of the reader was met
    (the whole reply refused, or the only answer in it holding a 5,000-digit integer)."""
    with noting() as bounds:
        answer, how = extract_answer(response)
    verdict = judge_answer(gold_output, gold_stats, answer, how, strict_types)
    refused = (refusal(response) or next(iter(bounds), None)) if response and not verdict.formatted else None
    return Verdict(False, False, False, reason=f"reply {refused}") if refused else verdict
