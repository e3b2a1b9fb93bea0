"""Find the JSON a model wrote inside prose: the last complete top-level JSON object in a text."""

from __future__ import annotations

import json
from typing import Any

_decoder = json.JSONDecoder()


def json_objects(text: str) -> list[dict[str, Any]]:
    """Every top-level JSON object in `text`, in order (objects nested in another are not listed)."""
    found = []
    position = text.find("{")
    while position != -1:
        try:
            value, end = _decoder.raw_decode(text, position)
        except json.JSONDecodeError:
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
