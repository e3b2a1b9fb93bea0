"""Reading what users and models hand us: JSON values and text lines, with limits and clear errors.

Every check here exists because a value passed it once and broke a run later: an integer of
thousands of digits (Python refuses to turn it into text), nesting deep enough to exhaust the
interpreter's recursion, a lone surrogate (valid in a JSON escape, not writable as UTF-8), NaN
(not JSON at all), a line that is not UTF-8, a task id that is a path; a "file" that is a FIFO (it
hung a run), a directory or a dangling link (they crashed one), or a link out of the seed folder (it
put a secret into a benchmark). A `BadValue` names what is wrong, phrased to follow "input", "line N"
or the file's name: callers add the file and line and drop only that item.
"""

from __future__ import annotations

import codecs
import json
import math
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

MAX_DEPTH = 100  # nesting levels of one value; LogicIF's inputs use fewer than 5
MAX_INT_DIGITS = 4300  # Python's own limit for int <-> str (sys.get_int_max_str_digits)
SURROGATE = re.compile("[\ud800-\udfff]")
TASK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,127}$")


class BadValue(ValueError):
    """A value or line we refuse, with a message that says why."""


class TooLarge(BadValue):
    """A file over its size limit (callers name the setting that raises it)."""


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


KINDS = {stat.S_ISDIR: "a folder", stat.S_ISFIFO: "a named pipe (FIFO)", stat.S_ISSOCK: "a socket",
         stat.S_ISCHR: "a character device", stat.S_ISBLK: "a block device"}


def _kind(mode: int) -> str:
    return next((name for test, name in KINDS.items() if test(mode)), "not a regular file")


def read_file(path: Path, inside: Path | None = None, max_bytes: int | None = None) -> bytes:
    """The bytes of a regular file a user handed us, without a UTF-8 byte-order mark. Looked at
    (lstat, stat) before it is opened and opened without blocking, so a FIFO, a device, a folder
    or a dangling link is refused, never read; with `inside`, so is a file whose real path
    (links followed) leaves that folder. `BadValue`s follow the file's name; `TooLarge` too."""
    path = Path(path)
    try:
        link = stat.S_ISLNK(os.lstat(path).st_mode)
        if inside is not None:
            real, root = Path(os.path.realpath(path)), Path(os.path.realpath(inside))
            if not real.is_relative_to(root):
                raise BadValue(f"leads to {real}, outside the folder {inside}: not read")
        try:
            info = os.stat(path)
        except FileNotFoundError:
            raise BadValue(f"is a symbolic link to {os.readlink(path)}, which does not exist") from None
        if not stat.S_ISREG(info.st_mode):
            raise BadValue(f"is {_kind(info.st_mode)}{' (through a link)' if link else ''}, not a file: not read")
        if max_bytes is not None and info.st_size > max_bytes:
            raise TooLarge(f"is {info.st_size:,} bytes, over the limit of {max_bytes:,}")
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
        with os.fdopen(fd, "rb") as handle:
            opened = os.fstat(fd)
            if (opened.st_dev, opened.st_ino) != (info.st_dev, info.st_ino):
                raise BadValue("was replaced while it was being opened: not read")
            data = handle.read() if max_bytes is None else handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise BadValue("file not found") from None
    except OSError as error:
        raise BadValue(f"cannot be read ({error.strerror or error})") from None
    if max_bytes is not None and len(data) > max_bytes:  # it grew after we looked
        raise TooLarge(f"is over the limit of {max_bytes:,} bytes")
    return data.removeprefix(codecs.BOM_UTF8)


def read_lines(path: Path) -> list[tuple[int, str | BadValue]]:
    """The lines of a text file, numbered from 1; a line that is not UTF-8 comes as a `BadValue`.
    A file that cannot be read at all (see `read_file`) raises `BadValue` instead."""
    lines: list[tuple[int, str | BadValue]] = []
    for number, raw in enumerate(read_file(path).split(b"\n"), start=1):
        try:
            lines.append((number, raw.decode("utf-8").rstrip("\r")))
        except UnicodeDecodeError as error:
            lines.append((number, BadValue(f"is not UTF-8 text (byte {raw[error.start]:#04x} at column "
                                           f"{error.start + 1})")))
    return lines


def read_json_lines(path: Path) -> list[tuple[int, str | BadValue]]:
    """`read_lines` of a file of JSON lines. A file whose first line opens a JSON array is one
    array, not lines (LIFBench releases its per-task files so): refused as a whole, saying what it
    is and what turns it into rows, where reading it line by line said only "line 1: is not JSON"."""
    lines = read_lines(path)
    first = next((line for _, line in lines if isinstance(line, BadValue) or line.strip()), "")
    if isinstance(first, str) and first.lstrip().startswith("["):
        raise BadValue("is a JSON array, not JSON lines (one object a line); if it is one of LIFBench's "
                       "per-task files, `ifforge convert lifbench FILE --out rows.jsonl` makes rows of it")
    return lines


def parsed_lines(path: Path, parse: Callable[[str], Any], error: Callable[[str], Exception],
                 read: Callable[[Path], list[tuple[int, str | BadValue]]] = read_lines) -> Iterator[tuple[int, Any]]:
    """(line number, `parse(line)`) of every non-empty line of a text file (`read`: how its lines
    are read); a file or line that cannot be read or parsed is one `error` naming the file and line."""
    try:
        lines = read(path)
    except BadValue as problem:
        raise error(f"{path}: {problem}") from None
    for number, line in lines:
        if isinstance(line, BadValue):
            raise error(f"{path}:{number}: {line}")
        if not line.strip():
            continue
        try:
            parsed = parse(line)
        except BadValue as problem:
            raise error(f"{path}:{number}: {problem}") from None
        yield number, parsed


def plain_name(value: Any, what: str) -> str:
    """A name that becomes a file or folder name: letters, digits, `_`, `-`, `.`; never a path."""
    text = str(value)
    if not TASK_ID.match(text) or ".." in text:
        raise BadValue(f"{what} {text[:80]!r} is not a plain name (letters, digits, '_', '-', '.'; "
                       "at most 128 characters; no '/' or '..')")
    return text


def check_task_id(task_id: Any) -> str:
    """A task id becomes a folder name: only plain names (see `plain_name`)."""
    return plain_name(task_id, "task id")


def clean_text(text: str) -> str:
    """Model replies may carry lone surrogates from JSON escapes: replace them, so they can be stored."""
    return SURROGATE.sub("\ufffd", text)
