"""The one reader of JSON that a model wrote: whole texts, or the objects inside prose.

A reply is untrusted input. Python's own reader turns a reply into a traceback in two ways: an
integer of more than 4,300 digits (ValueError) and nesting deep enough to exhaust the interpreter's
recursion (RecursionError); and trying every `{` of a huge reply costs time in proportion to its
length times its nesting. So every read here is bounded: a reply longer than `MAX_CHARS`, with
brackets nested deeper than `MAX_DEPTH`, or holding an integer longer than `MAX_INT_DIGITS` digits
is read as holding no JSON, and `refusal` says why. Python literals a reply writes are read under
the same bounds (`python_literal`). Nothing here raises anything but `ValueError`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ifforge.core import pyast
from ifforge.core.untrusted import MAX_DEPTH, MAX_INT_DIGITS

MAX_CHARS = 1_000_000  # about 250k tokens: far beyond any reply a max_tokens setting lets through
_MAX_INT_BITS = int(MAX_INT_DIGITS * 3.3219)  # log2(10): `0x` and 3,600 hex digits is as long as 4,300 decimal ones
_BRACKETS = re.compile(r"[\[\]{}]")
_JSON_TOKENS = re.compile(r'\\.|["\[\]{}]', re.DOTALL)  # an escape (two characters), a quote, a bracket


class Unreadable(ValueError):
    """A text (or a value in it) beyond the reader's bounds; the message says which bound."""


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise Unreadable(f"holds an integer of more than {MAX_INT_DIGITS} digits")
    return int(digits)


_decoder = json.JSONDecoder(parse_int=_bounded_int)
_lenient = json.JSONDecoder(parse_int=_bounded_int, strict=False)  # raw control characters inside strings


def refusal(text: str, json_text: bool = False) -> str | None:
    """Why `text` is not read at all (too long, nested too deep), or None. In prose a quote mark
    opens no string, so brackets are counted inside strings too: a reply needs over a hundred
    unclosed ones to be refused, which no answer has. With `json_text` (the whole text is one JSON
    value) brackets inside its strings are not counted: `{"body": "[[[..."}` nests one level."""
    if len(text) > MAX_CHARS:
        return f"is longer than {MAX_CHARS:,} characters"
    if text.count("[") + text.count("{") <= MAX_DEPTH:  # the common case: no scan needed
        return None
    depth, inside = 0, False
    for match in (_JSON_TOKENS if json_text else _BRACKETS).finditer(text):
        token = match.group()
        if token == '"':
            inside = not inside
        elif not inside and token in "[]{}":
            depth = depth + 1 if token in "[{" else max(0, depth - 1)
            if depth > MAX_DEPTH:
                return f"nests brackets deeper than {MAX_DEPTH} levels"
    return None


def decode_at(text: str, position: int = 0, strict: bool = True) -> tuple[Any, int]:
    """`JSONDecoder.raw_decode`, bounded: (value, end), or a ValueError (`Unreadable` past a bound).
    `strict=False` reads raw control characters (a newline) inside strings, as most clients do."""
    try:
        return (_decoder if strict else _lenient).raw_decode(text, position)
    except RecursionError:
        raise Unreadable(f"nests brackets deeper than {MAX_DEPTH} levels") from None


def loads(text: str, strict: bool = True) -> Any:
    """`json.loads` for a model's text, bounded; any failure is a ValueError."""
    reason = refusal(text, json_text=True)
    if reason:
        raise Unreadable(reason)
    value, end = decode_at(text, len(text) - len(text.lstrip()), strict)
    if text[end:].strip():
        raise json.JSONDecodeError("Extra data", text, end)
    return value


def python_literal(text: str) -> Any:
    """`ast.literal_eval`, bounded like `loads` (a hex literal may hold an integer no decimal text
    can: it is refused too); any failure is a ValueError."""
    reason = refusal(text)
    if reason:
        raise Unreadable(reason)
    try:
        value = pyast.literal_eval(text)
    except (SyntaxError, TypeError, MemoryError, RecursionError) as error:
        raise ValueError(f"not a Python literal ({type(error).__name__})") from None
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, int) and item.bit_length() > _MAX_INT_BITS:
            raise Unreadable(f"holds an integer of more than {MAX_INT_DIGITS} digits")
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
    return value


def json_objects(text: str) -> list[dict[str, Any]]:
    """Every top-level JSON object in `text`, in order (objects nested in another are not listed);
    none in a text `refusal` refuses, and an object with an over-long integer is skipped."""
    if refusal(text):
        return []
    found = []
    position = text.find("{")
    while position != -1:
        try:
            value, end = decode_at(text, position)
        except ValueError:
            position = text.find("{", position + 1)
            continue
        if isinstance(value, dict):
            found.append(value)
        position = text.find("{", end)
    return found


def last_json_object(text: str, required: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """The last top-level JSON object holding every key in `required`, or None."""
    for value in reversed(json_objects(text)):
        if all(key in value for key in required):
            return value
    return None
