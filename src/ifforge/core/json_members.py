"""A JSON object read member by member, for a file where one value must not cost the whole line.

The bounded reader (`core.untrusted.parse_json`) refuses a line whole for one value it will not
keep: NaN, Infinity, a number too large for a float (1e400), nesting past its limit. Python's own
reader takes them, so a file written by Python's `json` (LogicIF's result files) can hold them in
one field of one line. Read member by member, that field is named with its reason and the others
are kept; a line that is not JSON to any reader is still refused. Nothing here parses a value
itself: the members are found by counting brackets outside strings, then each is read by the
bounded reader.
"""

from __future__ import annotations

import json
from typing import Any

from ifforge.core.untrusted import BadValue, parse_json


def _value_end(text: str, start: int) -> int:
    """Where the JSON value starting at `start` ends: the `,` or closing bracket after it at its own
    level (strings skipped, nesting counted, nothing parsed, so any depth is fine)."""
    depth, position, in_string = 0, start, False
    while position < len(text):
        char = text[position]
        if in_string:
            if char == "\\":
                position += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
        elif char in "]}":
            if depth == 0:
                break
            depth -= 1
        elif char == "," and depth == 0:
            break
        position += 1
    return position


def members(text: str) -> list[tuple[str, str]] | None:
    """(key, value text) of a JSON object's top-level members, the values left unread; None when
    `text` is not one object."""
    text = text.strip()
    if not (text.startswith("{") and text.endswith("}")):
        return None
    found, position = [], 1
    if not text[1:-1].strip():
        return found
    while position < len(text):
        end = _value_end(text, position)
        member = text[position:end].lstrip()
        try:
            key, after = json.JSONDecoder().raw_decode(member)
        except ValueError:
            return None
        value = member[after:].lstrip()
        if not isinstance(key, str) or not value.startswith(":"):
            return None
        found.append((key, value[1:]))
        if end == len(text) - 1:
            return found
        if text[end] != ",":
            return None
        position = end + 1
    return None


def _member(text: str) -> tuple[Any, str | None] | None:
    """(the member's value, None); (None, why) for a value the bounded reader refuses but Python's
    own reader (LogicIF's) takes; None for a value no reader takes: it is not JSON."""
    try:
        return parse_json(text), None
    except BadValue as error:
        try:
            json.loads(text)
        except json.JSONDecodeError:
            return None
        except (RecursionError, ValueError):
            pass
        return None, str(error)


def read_object(text: str) -> tuple[dict[str, Any], dict[str, str]]:
    """A JSON object's members, and why each member left out could not be read; `BadValue` when
    the text is not a JSON object (to any reader)."""
    try:
        value = parse_json(text)
    except BadValue as error:
        found = members(text)
        if found is None:
            raise
        fields, unreadable = {}, {}
        for key, value_text in found:  # a key given twice: the last one counts, as Python's reader takes it
            member = _member(value_text)
            if member is None:
                raise error from None
            if member[1]:
                unreadable[key] = member[1]
                fields.pop(key, None)
            else:
                fields[key] = member[0]
                unreadable.pop(key, None)
        return fields, unreadable
    if not isinstance(value, dict):
        raise BadValue("a row must be a JSON object")
    return value, {}
