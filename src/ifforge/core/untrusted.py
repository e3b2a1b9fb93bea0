"""Reading what users and models hand us: JSON values and text lines, with limits and clear errors.

Every check here exists because a value passed it once and broke a run later: an integer of
thousands of digits (Python refuses to turn it into text), nesting deep enough to exhaust the
interpreter's recursion, a lone surrogate (valid in a JSON escape, not writable as UTF-8), NaN
(not JSON at all), a line that is not UTF-8, a task id that is a path. A `BadValue` names what is
wrong, phrased to follow "input" or "line N": callers add the file and line and drop only that item.
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MAX_DEPTH = 100  # nesting levels of one value; LogicIF's inputs use fewer than 5
MAX_INT_DIGITS = 4300  # Python's own limit for int <-> str (sys.get_int_max_str_digits)
SURROGATE = re.compile("[\ud800-\udfff]")
TASK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,127}$")


class BadValue(ValueError):
    """A value or line we refuse, with a message that says why."""


class InputError(ValueError):
    """The run's inputs or output folder cannot be used at all: a message for the user, not a traceback."""


def check_out_dir(path: Path) -> Path:
    """`--out` must be a folder we can write in; find out before anything is written there."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise InputError(f"--out {path}: is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path, prefix=".ifforge-write-test-")
        os.close(fd)
        os.unlink(probe)
    except OSError as error:
        raise InputError(f"--out {path}: cannot write there ({error.strerror or error})") from None
    return path


def _refuse_constant(name: str) -> Any:
    raise BadValue(f"holds {name}, which is not a JSON number")


def parse_json(text: str) -> Any:
    """`json.loads` for untrusted text: errors are `BadValue`s that say what is wrong and where."""
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise BadValue(f"is not JSON ({error.msg} at column {error.colno})") from None
    except RecursionError:
        raise BadValue(f"is nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as error:  # int digits limit, or ours
        if isinstance(error, BadValue):
            raise
        if "digits" in str(error):
            raise BadValue(f"holds an integer of more than {MAX_INT_DIGITS} digits") from None
        raise BadValue(str(error)) from None
    check_value(value)
    return value


def check_value(value: Any) -> None:
    """Refuse values a run cannot store or show: too deep, lone surrogates, infinite floats."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, tuple, dict)):
            if depth > MAX_DEPTH:
                raise BadValue(f"is nested deeper than {MAX_DEPTH} levels")
            children = list(item.items()) if isinstance(item, dict) else item
            for child in children:
                if isinstance(item, dict):
                    stack.append((child[0], depth + 1))
                    stack.append((child[1], depth + 1))
                else:
                    stack.append((child, depth + 1))
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as error:
                raise BadValue(f"holds a lone surrogate ({item[error.start]!r} at position {error.start} of a "
                               "string): not valid Unicode text") from None
        elif isinstance(item, float) and not math.isfinite(item):  # 1e999 parses as inf
            raise BadValue(f"holds {item}, which is not a JSON number")


def read_lines(path: Path) -> Iterator[tuple[int, str | BadValue]]:
    """The lines of a text file, numbered from 1; a line that is not UTF-8 comes as a `BadValue`."""
    data = Path(path).read_bytes()
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            yield number, raw.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError as error:
            yield number, BadValue(f"is not UTF-8 text (byte {raw[error.start]:#04x} at column {error.start + 1})")


def check_task_id(task_id: Any) -> str:
    """A task id becomes a folder name: only plain names (letters, digits, `_`, `-`, `.`; no path)."""
    text = str(task_id)
    if not TASK_ID.match(text) or ".." in text:
        raise BadValue(f"task id {text[:80]!r} is not a plain name (letters, digits, '_', '-', '.'; "
                       "at most 128 characters; no '/' or '..')")
    return text


def clean_text(text: str) -> str:
    """Model replies may carry lone surrogates from JSON escapes: replace them, so they can be stored."""
    return SURROGATE.sub("\ufffd", text)
