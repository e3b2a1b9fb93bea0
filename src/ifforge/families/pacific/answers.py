"""Reading PACIFIC answers: `[ANSWER][i] value [\\ANSWER]` tags (also `[/ANSWER]`), and values by type.

Decisions, so scores are reproducible:
- tags are matched case-insensitively, with optional spaces between `[ANSWER]` and `[i]`;
  markdown bold or code fences around a tag do not matter (asterisks and backticks around the
  value are stripped);
- when a step is answered more than once, the last answer counts (a model that corrects itself);
- an opening tag without a closing tag takes the rest of its line;
- tags numbered outside 1..N are kept here and ignored by the scorer.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from ifforge.core.untrusted import MAX_INT_DIGITS

_OPENING = re.compile(r"\[\s*answer\s*\]\s*\[\s*(\d{1,9})\s*\]", re.IGNORECASE)  # at most 9 digits: int() refuses 4,301
_CLOSING = re.compile(r"\[\s*[\\/]\s*answer\s*\]", re.IGNORECASE)
_UNCLOSED_LINE = re.compile(r"[^\n]*")
_INT = re.compile(r"[+-]?\d+")


def parse_answers(text: str | None) -> dict[int, str]:
    """Step number -> the raw text inside its tags (stripped)."""
    answers: dict[int, str] = {}
    if not text:
        return answers
    position = 0
    while True:
        start = _OPENING.search(text, position)
        if start is None:
            break
        following = _OPENING.search(text, start.end())
        end = _CLOSING.search(text, start.end())
        if end is not None and (following is None or end.start() < following.start()):
            raw, position = text[start.end():end.start()], end.end()
        else:  # unclosed: the rest of the line
            raw = _UNCLOSED_LINE.match(text, start.end())[0]
            position = start.end()
        answers[int(start[1])] = _clean(raw)
    return answers


def _clean(raw: str) -> str:
    value = raw.strip()
    while len(value) >= 2 and value[0] == value[-1] and value[0] in "*`":
        value = value[1:-1].strip()
    return value.strip("*").strip() if value.startswith("**") or value.endswith("**") else value


def parse_chat(replies: list[str | None]) -> dict[int, str]:
    """Chat mode: reply i (from 0) answers step i + 1: its tag of that number, else its only tag."""
    answers: dict[int, str] = {}
    for index, reply in enumerate(replies):
        found = parse_answers(reply)
        if index + 1 in found:
            answers[index + 1] = found[index + 1]
        elif len(found) == 1:
            answers[index + 1] = next(iter(found.values()))
    return answers


def coerce(raw: str, expected: Literal["int", "str"]) -> tuple[Any, str]:
    """The value of the expected type, or (None, the problem). Whole numbers: an optional sign and
    digits, optionally quoted, optionally followed by a period; no thousands separators. Strings:
    one pair of surrounding double or single quotes (or backticks) removed, JSON escapes read when
    double-quoted, inner whitespace kept exactly."""
    value = raw.strip()
    if expected == "int":
        bare = value.strip("\"'`").strip()
        bare = bare[:-1] if bare.endswith(".") else bare
        if _INT.fullmatch(bare):
            if len(bare.lstrip("+-")) > MAX_INT_DIGITS:  # Python refuses to read it: a traceback, not a verdict
                return None, f"a whole number of more than {MAX_INT_DIGITS} digits"
            return int(bare), ""
        return None, f"not a whole number: {raw[:60]!r}"
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'`":
        if value[0] == '"':
            try:
                decoded = json.loads(value)
                if isinstance(decoded, str):
                    return decoded, ""
            except ValueError:
                pass
        return value[1:-1], ""
    return value, ""
