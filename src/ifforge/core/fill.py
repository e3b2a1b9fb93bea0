"""Filling a template that came from a file: plain `{name}` fields only.

`str.format` on a template someone else wrote is code on the host: `{input.__class__.__mro__}`
walks from a value to Python's internals, `{x:>99999999}` asks for gigabytes. A template is text
with fields, so `fill` accepts `{name}` and `{name[N]}` (an item of a list by its position, as
LIFBench's own templates write `{options[0]}`), `{{` and `}}` for braces, and refuses anything
else (attributes, keys, conversions, format specs, positional `{}`) with a `BadValue` that names
the field. A value is written as `str.format` writes it (`str(value)`), so a plain template gives
the same text either way.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Any

from ifforge.core.untrusted import BadValue

FIELD = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[([0-9]{1,6})\])?")


def fill(template: str, values: Mapping[str, Any]) -> str:
    """`template` with each plain field replaced by its value (see the module docstring)."""
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError as error:  # a lone `{` or `}`
        raise BadValue(f"is not a template of plain {{name}} fields ({error})") from None
    out = []
    for literal, field, spec, conversion in parts:
        out.append(literal)
        if field is None:
            continue
        shown = "{" + field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
        match = FIELD.fullmatch(field)
        if match is None or spec or conversion:
            raise BadValue(f"field {shown} is not a plain {{name}} or {{name[N]}}: not filled")
        name, index = match.groups()
        if name not in values:
            raise BadValue(f"field {shown} names no value (there are: {', '.join(sorted(values)) or 'none'})")
        value = values[name]
        if index is not None:
            if not isinstance(value, (list, tuple)) or int(index) >= len(value):
                raise BadValue(f"field {shown}: {name} has no item {index}")
            value = value[int(index)]
        out.append(str(value))
    return "".join(out)
