"""Reading an MCBench reply: the `### Final Results ###` block, its `[Stepk] : value` lines and its
`[Final] : value` line, and the values in them.

Decisions, so scores are reproducible:
- the block starts at the last `### Final Results ###` line (any number of `#`, any case); a reply
  without it is read whole (format following asks only for `[Final]`);
- a line is `[Stepk]` or `[Final]`, then an optional colon, then the value up to the line's end
  (a list or object that does not close on its line goes on over the next lines, until it reads
  or the next label); markdown bold or backticks around the label or the value do not matter;
  when a label comes twice, the last one counts (a model that corrects itself);
- a value is read as JSON, else as a Python literal (tuples and sets become lists; it is read,
  never run), else `-inf`/`-Infinity` (minus infinity, gold's null), a percentage (`45%` is 0.45),
  a fraction of two numbers (`3/7`), and at last the first number in the text. A value that none
  of these reads stays unread (it matches nothing).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ifforge.core import jsontext

_BLOCK = re.compile(r"#{2,}\s*final\s+results\s*#{2,}", re.IGNORECASE)
_LINE = re.compile(r"^[\s*`>_-]*\[\s*(step\s*(\d{1,9})|final)\s*\][\s*`_]*[:：=]?(.*)$", re.IGNORECASE | re.MULTILINE)  # a step number of at most 9 digits: int() refuses 4,301
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
UNREAD = object()  # a value that could not be read (None is a value: JSON null, minus infinity)


@dataclass
class Reply:
    block: bool = False  # the `### Final Results ###` line was there
    steps: dict[int, str] = field(default_factory=dict)  # step number -> raw value text
    final: str | None = None  # the raw `[Final]` value, None when absent


def parse_reply(text: str | None) -> Reply:
    reply = Reply()
    if not text:
        return reply
    markers = list(_BLOCK.finditer(text))
    if markers:
        reply.block = True
        text = text[markers[-1].end():]
    matches = list(_LINE.finditer(text))
    for match, following in zip(matches, [m.start() for m in matches[1:]] + [len(text)]):
        raw = _continued(match[3], text[match.end():following].splitlines())
        if match[2] is not None:
            reply.steps[int(match[2])] = raw
        else:
            reply.final = raw
    return reply


def _structured(text: str) -> bool:
    try:
        jsontext.loads(text)
        return True
    except ValueError:
        pass
    try:
        jsontext.python_literal(text)
        return True
    except ValueError:
        return False


def _continued(line: str, lines: list[str]) -> str:
    """The label line's value; a list or object wrapped over the next lines, joined back (as written:
    cleaning each piece would drop the commas between them)."""
    value = _clean(line)
    if not value.startswith(("[", "{")) or _structured(value):
        return value
    joined = line.strip()
    for more in lines:
        joined = f"{joined}\n{more.strip()}"
        if _structured(_clean(joined)):
            return _clean(joined)
    return value


def _clean(raw: str) -> str:
    """The value without markdown around it or a sentence's full stop after it."""
    value = raw.strip().rstrip(".;,").strip()
    while len(value) >= 2 and value[0] == value[-1] and value[0] in "*`_":
        value = value[1:-1].strip()
    return value.strip("*").strip()


def _plain(value: Any) -> Any:
    """Python literals as JSON values: tuples and sets are lists, keys are strings."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v) for v in value), key=lambda v: json.dumps(v, ensure_ascii=False))
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def read_value(raw: str | None) -> Any:
    """The value of a step or final answer, or UNREAD."""
    if raw is None:
        return UNREAD
    text = raw.strip().rstrip(".;,").strip().replace("\u2212", "-")  # a typographic minus is a minus
    if not text:
        return UNREAD
    try:
        value = jsontext.loads(text)
        return None if value == float("-inf") else value
    except ValueError:
        pass
    try:
        return _plain(jsontext.python_literal(text))
    except ValueError:
        pass
    if re.fullmatch(r"[-−]\s*(inf|infinity|∞)", text, re.IGNORECASE):
        return None
    short = len(text) <= 100  # the two patterns below backtrack: on a long run of digits, for seconds
    if short and (match := re.fullmatch(r"([-+]?\d*\.?\d+)\s*%", text)):
        return float(match[1]) / 100
    if short and (match := re.fullmatch(r"([-+]?\d*\.?\d+)\s*/\s*(\d*\.?\d+)", text)):
        denominator = float(match[2])
        return float(match[1]) / denominator if denominator else UNREAD
    if match := _NUMBER.search(text):
        return float(match[0])
    return UNREAD
