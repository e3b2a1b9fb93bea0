"""The one reader of JSON that a model wrote: whole texts, or the objects inside prose.

A reply is untrusted input. Python's own reader turns a reply into a traceback in two ways: an
integer of more than 4,300 digits (ValueError) and nesting deep enough to exhaust the interpreter's
recursion (RecursionError); and trying every `{` of a huge reply costs time in proportion to its
length times its nesting. So every read here is bounded: a reply longer than `MAX_CHARS`, with
brackets nested deeper than `MAX_DEPTH`, or holding an integer longer than `MAX_INT_DIGITS` digits
is read as holding no JSON, and `refusal` says why (`noting` collects the bounds met inside a
text, for a reply in which no answer was found). A string holding a lone surrogate (a `"\\ud800"`
escape) comes back with U+FFFD in its place, so every value read can be stored. Python literals a
reply writes are read under the same bounds (`python_literal`). Nothing here raises anything but
`ValueError`.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import re
from typing import Any

from ifforge.core import pyast
from ifforge.core.untrusted import MAX_DEPTH, MAX_INT_DIGITS, SURROGATE, clean_text

MAX_CHARS = 1_000_000  # about 250k tokens: far beyond any reply a max_tokens setting lets through
_MAX_INT_BITS = int(MAX_INT_DIGITS * 3.3219)  # log2(10): `0x` and 3,600 hex digits is as long as 4,300 decimal ones
_BRACKETS = re.compile(r"[\[\]{}]")
_JSON_TOKENS = re.compile(r'\\.|["\[\]{}]', re.DOTALL)  # an escape (two characters), a quote, a bracket


class Unreadable(ValueError):
    """A text (or a value in it) beyond the reader's bounds; the message says which bound."""


_NOTED: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("ifforge_bounds_met", default=None)


def _unreadable(reason: str) -> Unreadable:
    """The error for a bound met, noted for `noting`."""
    noted = _NOTED.get()
    if noted is not None:
        noted.append(reason)
    return Unreadable(reason)


@contextlib.contextmanager
def noting():
    """The reasons of every bound the reads inside met, in order: a reply whose only answer holds
    a 5,000-digit integer is read as holding none, and this says why."""
    noted: list[str] = []
    token = _NOTED.set(noted)
    try:
        yield noted
    finally:
        _NOTED.reset(token)


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _unreadable(f"holds an integer of more than {MAX_INT_DIGITS} digits")
    return int(digits)


def clean(value: Any) -> Any:
    """`value` with every lone surrogate in its strings (keys too) replaced by U+FFFD: a JSON or
    Python escape can make one, and no file can hold it."""
    try:
        return _clean(value)
    except RecursionError:
        raise _unreadable(f"nests brackets deeper than {MAX_DEPTH} levels") from None


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        return type(value)(_clean(item) for item in value)
    if isinstance(value, dict):
        return {_clean(key): _clean(item) for key, item in value.items()}
    return value


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")  # what can put a lone surrogate in a value


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
        value, end = (_decoder if strict else _lenient).raw_decode(text, position)
    except RecursionError:
        raise _unreadable(f"nests brackets deeper than {MAX_DEPTH} levels") from None
    return (clean(value) if _SURROGATE_ESCAPE.search(text, position, end) else value), end


def loads(text: str, strict: bool = True) -> Any:
    """`json.loads` for a model's text, bounded; any failure is a ValueError."""
    reason = refusal(text, json_text=True)
    if reason:
        raise _unreadable(reason)
    value, end = decode_at(text, len(text) - len(text.lstrip()), strict)
    if text[end:].strip():
        raise json.JSONDecodeError("Extra data", text, end)
    return value


def python_literal(text: str) -> Any:
    """`ast.literal_eval`, bounded like `loads` (a hex literal may hold an integer no decimal text
    can: it is refused too); any failure is a ValueError."""
    reason = refusal(text)
    if reason:
        raise _unreadable(reason)
    try:
        value = pyast.literal_eval(text)
    except (SyntaxError, TypeError, MemoryError, RecursionError) as error:
        if "digits" in str(error):  # Python's own bound on a decimal literal
            raise _unreadable(f"holds an integer of more than {MAX_INT_DIGITS} digits") from None
        raise ValueError(f"not a Python literal ({type(error).__name__})") from None
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, int) and item.bit_length() > _MAX_INT_BITS:
            raise _unreadable(f"holds an integer of more than {MAX_INT_DIGITS} digits")
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
    return clean(value)


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
