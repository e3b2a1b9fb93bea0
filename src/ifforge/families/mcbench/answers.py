"""Reading an MCBench reply: its `[Stepk] : value` and `[Final] : value` labels and the values after
them, as the paper asks for them (the answer must include `[Final]`), after `### Final Results ###`.

Decisions, so scores are reproducible:
- a label counts wherever it stands on a line (the paper: the answer includes `[Final]`), except
  inside a quoted string (a step's words may hold "[Final]"), then an optional colon, then its
  value: the rest of the line up to the next label (a list or object that does not close on its
  line goes on over the next lines, until it reads or the next label);
  markdown bold or backticks around the label or the value do not matter;
- a label's value is taken from after the last `### Final Results ###` line (any number of `#`,
  any case) when the label is there, else from anywhere in the reply; of several, the last whose
  value reads counts (a model that corrects itself; a label named in a sentence does not hide the
  value given), else the last (only the last 10 are read: a bound on the work a reply can cause);
- a value is read as JSON, else as a Python literal (tuples and sets become lists; it is read,
  never run), else `-inf`/`-Infinity` (minus infinity, gold's null), a percentage (`45%` is 0.45)
  or a fraction of two numbers (`3/7`);
- a value written with words around it is read too (`LCS length = 4`, `the words are ["a", "b"]`),
  looked for after its last `=` outside brackets and quotes (the result of a working), else in the
  whole text: the text as a value, the text without asides in parentheses (`0.571 (4/7)`), the
  first list or object in it, the first quoted string, and at last the last number (the result
  follows its working: `the value of step 3 is 5` is 5). A value that none of these reads stays
  unread (it matches nothing).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ifforge.core import jsontext

_BLOCK = re.compile(r"#{2,}\s*final\s+results\s*#{2,}", re.IGNORECASE)
_LABEL = re.compile(r"\[\s*(step\s*(\d{1,9})|final)\s*\][\s*`_]*[:：=]?", re.IGNORECASE)  # int() refuses 4,301 digits
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"|(?<![\w\'])\'(?:[^\'\\]|\\.)*\'(?![\w\'])')
_ASIDE = re.compile(r"\([^()]*\)")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
UNREAD = object()  # a value that could not be read (None is a value: JSON null, minus infinity)


@dataclass
class Reply:
    block: bool = False  # the `### Final Results ###` line was there
    steps: dict[int, str] = field(default_factory=dict)  # step number -> raw value text
    final: str | None = None  # the raw `[Final]` value, None when absent
    final_given: bool = False  # `[Final]` stands somewhere in the reply (the paper's format following)


def parse_reply(text: str | None) -> Reply:
    reply = Reply()
    if not text:
        return reply
    markers = [m for m in _BLOCK.finditer(text) if not _quoted_at(text, m.start())]
    reply.block = bool(markers)
    block_start = markers[-1].end() if markers else 0
    found: dict[int | str, list[tuple[int, str]]] = {}
    matches = [m for m in _LABEL.finditer(text) if not _quoted_at(text, m.start())]
    for match, following in zip(matches, [m.start() for m in matches[1:]] + [len(text)]):
        line_end = text.find("\n", match.end(), following)
        line_end = following if line_end < 0 else line_end
        raw = _continued(text[match.end():line_end], text[line_end:following].splitlines())
        found.setdefault(int(match[2]) if match[2] is not None else "final", []).append((match.start(), raw))
    for label, occurrences in found.items():
        chosen = _chosen(occurrences, block_start)
        if label == "final":
            reply.final, reply.final_given = chosen, True
        else:
            reply.steps[label] = chosen
    return reply


def _quoted_at(text: str, position: int) -> bool:
    """Whether `position` stands inside a quoted string of its line: a label or marker written in a
    text the model quotes (a step's list of words holding "[Final]") is part of that text."""
    before = text[text.rfind("\n", 0, position) + 1:position]
    return before.replace('\\"', "").count('"') % 2 == 1 or before.endswith("'")


def _chosen(occurrences: list[tuple[int, str]], block_start: int, looked_at: int = 10) -> str:
    """The occurrences after the block when there are any, else all; of the last `looked_at` of
    them (a bound on the work a reply can ask for), the last that reads, else the last."""
    pool = [raw for start, raw in occurrences if start >= block_start] or [raw for _, raw in occurrences]
    if len(pool) == 1:
        return pool[0]
    return next((raw for raw in reversed(pool[-looked_at:]) if read_value(raw) is not UNREAD), pool[-1])


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


def _whole(text: str) -> Any:
    """The value when the text is nothing but a value, or UNREAD."""
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
    return UNREAD


def _bracketed(text: str, tries: int = 5) -> Any:
    """The first list or object written inside the text that reads (of the first `tries` that close;
    brackets are matched in one pass, so a long text costs one pass)."""
    opened: list[int] = []
    spans: list[tuple[int, int]] = []
    for i, c in enumerate(text):
        if c in "[{":
            opened.append(i)
        elif c in "]}" and opened:
            start = opened.pop()
            if not opened:
                spans.append((start, i))
                if len(spans) == tries:
                    break
    for start, end in spans:
        value = _whole(text[start:end + 1])
        if isinstance(value, (list, dict)):
            return value
    return UNREAD


def _last_equals(text: str) -> int | None:
    """Where the last `=` outside brackets and quotes stands (`x = (a + b) / 2 = 0.5`), or None."""
    depth, quoted, found = 0, False, None
    for i, c in enumerate(text):
        if c == '"':
            quoted = not quoted
        elif not quoted:
            depth += 1 if c in "([{" else -1 if c in ")]}" else 0
            if c == "=" and depth == 0:
                found = i
    return found


def _found_in(text: str) -> Any:
    for candidate in (text, _ASIDE.sub(" ", text)):
        if (value := _whole(_clean(candidate))) is not UNREAD:
            return value
    if (value := _bracketed(text)) is not UNREAD:
        return value
    if quoted := _QUOTED.search(text):
        value = _whole(quoted[0])
        if isinstance(value, str):
            return value
    numbers = _NUMBER.findall(text[-10_000:])  # the tail: a bound on the work
    return float(numbers[-1]) if numbers else UNREAD


def _with_words(text: str) -> Any:
    """A value written with words around it: looked for after the last `=` (the result of a working),
    then in the whole text (the module's docstring says in which order)."""
    equals = _last_equals(text)
    if equals is not None and (value := _found_in(text[equals + 1:])) is not UNREAD:
        return value
    return _found_in(text)


def read_value(raw: str | None) -> Any:
    """The value of a step or final answer, or UNREAD."""
    if raw is None:
        return UNREAD
    text = raw.strip().rstrip(".;,").strip().replace("\u2212", "-")  # a typographic minus is a minus
    if not text:
        return UNREAD
    value = _whole(text)
    return _with_words(text) if value is UNREAD else value
