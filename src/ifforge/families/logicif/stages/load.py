"""Load stage: seed files or LogicIF's JSONL pair become `SeedFunction` records.

Nothing here runs seed code: sources are parsed, inputs are read from `# input: [...]` comments
(one JSON array of positional arguments each; real comments only, found by Python's tokenizer, so
such a line inside a docstring or any string is text, not an input). A seed may have none: the
inputs stage generates them. A bad seed is dropped with one message that names its file and line;
so is a seed that touches what the sandbox's policy refuses, a `.py` that is no regular file (a
folder, a FIFO, a dangling link) or a link leading out of the seed folder, which is never opened.
The other seeds load as usual. A function that returns nothing but changes an argument in place is
made to return that argument (codeops/instrument/changed_arguments.py), once, here: every later
stage sees one ordinary function.
"""

from __future__ import annotations

import hashlib
import io
import re
import stat
import tokenize
from pathlib import Path

from ifforge.core.sandbox.codepolicy import policy_problem
from ifforge.core.untrusted import (
    BadValue,
    InputError,
    TooLarge,
    check_task_id,
    parse_json,
    read_file,
    read_lines,
)
from ifforge.families.logicif.codeops.common.source import SeedSyntaxError, choose_entry, libcst_readable
from ifforge.families.logicif.codeops.instrument.changed_arguments import return_changed
from ifforge.families.logicif.records import DroppedItem, SeedFunction, TestInput

STAGE = "load"
MAX_SEED_BYTES = 100_000  # LogicIF's functions are a few kB; a 5 MB seed held a run for ten minutes
INPUT_LINE = re.compile(r"^#\s*input:\s*(?P<json>.*?)\s*$")  # matched against a comment token


def _drop(task_id: str, origin: str, reason: str, detail: str) -> DroppedItem:
    return DroppedItem(task_id=task_id, stage=STAGE, reason=reason, detail=detail, origin=origin)


def _source_text(path: Path, inside: Path | None, max_bytes: int) -> str:
    """Seed source: a regular file (in `inside`), UTF-8 and not too large, or a `SeedSyntaxError`."""
    try:
        data = read_file(path, inside, max_bytes)
    except TooLarge as error:
        raise SeedSyntaxError(f"{error} (setting max_seed_bytes)", None) from None
    except BadValue as error:
        raise SeedSyntaxError(str(error), None) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise SeedSyntaxError(f"is not UTF-8 text (byte {data[error.start]:#04x})", line) from None


def input_comments(source: str) -> list[tuple[int, str]]:
    """(line, JSON text) of each `# input:` comment on a line of its own: comment tokens only, so
    never text in a docstring or any other string."""
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            alone = token.type == tokenize.COMMENT and not token.line[:token.start[1]].strip()
            match = INPUT_LINE.match(token.string) if alone else None
            if match:
                found.append((token.start[0], match["json"]))
    except (tokenize.TokenError, SyntaxError) as error:  # the source parsed, so this is rare
        raise SeedSyntaxError(f"cannot be read as Python tokens ({error})", None) from None
    return found


def parse_seed_file(path: Path, display: str | None = None, max_bytes: int = MAX_SEED_BYTES,
                    inside: Path | None = None) -> SeedFunction:
    """One seed file as a record; raises `SeedSyntaxError` (with a line) on bad input."""
    display = display or str(path)
    source = _source_text(Path(path), inside, max_bytes)
    try:
        task_id = check_task_id(Path(path).stem)
    except BadValue as error:
        raise SeedSyntaxError(f"has a name that cannot be a task id: {error}", None) from None
    entry = choose_entry(source, Path(path).stem)
    refused = policy_problem(source)
    if refused:
        raise SeedSyntaxError(refused.reason, refused.line)
    inputs = []
    for number, text in input_comments(source):
        try:
            args = parse_json(text)
        except BadValue as error:
            raise SeedSyntaxError(f"input {error}", number) from None
        if not isinstance(args, list):
            raise SeedSyntaxError("input must be a JSON array of positional arguments", number)
        inputs.append(TestInput(args=args, line=number))
    return SeedFunction(task_id=task_id, source=return_changed(libcst_readable(source), entry), entry=entry,
                        inputs=inputs, origin=display)


def seed_paths(folder: Path) -> list[Path]:
    """The seed files of a folder, sorted; an `InputError` when there is no such folder or no seed."""
    folder = Path(folder)
    if not folder.exists():
        raise InputError(f"{folder}: seed folder not found")
    if not folder.is_dir():
        raise InputError(f"{folder}: --seeds takes a folder of .py files, and this is a file "
                         "(for LogicIF's JSONL pair use --functions and --test-cases)")
    paths = sorted(p for p in folder.rglob("*.py") if not p.name.startswith(("_", ".")))
    if not paths:
        raise InputError(f"{folder}: no seed files (*.py, not starting with '_' or '.') in this folder")
    return paths


def check_jsonl_pair(functions: Path, test_cases: Path | None) -> None:
    """The files named on the command line exist and are regular files (links the user named are
    followed); a FIFO, a folder or a device is refused before anything opens it."""
    for path in (functions, test_cases) if test_cases else (functions,):
        if not Path(path).is_file():
            raise InputError(f"{path}: file not found" if not Path(path).exists() else f"{path}: not a file")


def _lines(path: Path) -> list[tuple[int, str | BadValue]]:
    try:
        return read_lines(path)
    except BadValue as error:
        raise InputError(f"{path}: {error}") from None


def _files_state(folder: Path, max_bytes: int) -> str:
    """A hash of what a seed folder holds: each `.py` file's path and bytes (as much as a seed may
    have; of anything but a regular file only its kind: it is never opened here)."""
    digest = hashlib.sha256()
    for path in sorted(Path(folder).rglob("*.py")):
        try:
            mode = path.stat().st_mode
            digest.update(f"{path}\0{mode}\0".encode())
            if stat.S_ISREG(mode):
                with path.open("rb") as file:
                    digest.update(file.read(max_bytes + 1) + b"\0")
        except OSError as error:
            digest.update(f"{error.errno}\0".encode())
    return digest.hexdigest()


_last_read: tuple[tuple, list[SeedFunction], list[DroppedItem]] | None = None  # the folder read last, and what it gave


def load_seed_dir(folder: Path, max_bytes: int = MAX_SEED_BYTES) -> tuple[list[SeedFunction], list[DroppedItem]]:
    """Every `*.py` under `folder` (sorted), one seed each; task id = file stem, which must be unique.
    A folder read again with no file changed (`generate` checks for an unchanged version, then its
    flow loads, in one process) is not parsed again: parsing and checking is a few ms a seed."""
    global _last_read
    key = (str(Path(folder).resolve()), max_bytes, _files_state(folder, max_bytes))
    if _last_read is not None and _last_read[0] == key:
        return list(_last_read[1]), list(_last_read[2])
    seeds: list[SeedFunction] = []
    dropped: list[DroppedItem] = []
    first_seen: dict[str, str] = {}
    for path in sorted(Path(folder).rglob("_*.py")):  # skipped by rule, but never silently
        if path.name != "__init__.py":
            dropped.append(_drop(path.stem[:128], str(path), "skipped_file",
                                 f"{path}: a file whose name starts with '_' is not read as a seed "
                                 "(rename it to make it one)"))
    for path in seed_paths(folder):
        display = str(path)
        task_id = path.stem
        if task_id in first_seen:
            dropped.append(_drop(task_id, f"{display}:1", "duplicate_task_id",
                                 f"{display}:1: task id {task_id!r} is already used by {first_seen[task_id]}"))
            continue
        try:
            seed = parse_seed_file(path, display, max_bytes, inside=folder)
        except SeedSyntaxError as error:
            where = f"{display}:{error.line}" if error.line else display
            dropped.append(_drop(task_id[:128], where, "bad_seed", f"{where}: {error}"))
            continue
        first_seen[task_id] = display
        seeds.append(seed)
    _last_read = (key, list(seeds), list(dropped))
    return seeds, dropped


def _read_jsonl(path: Path, required: tuple[str, ...], dropped: list[DroppedItem]) -> list[tuple[int, dict]]:
    rows = []
    for number, line in _lines(path):
        where = f"{path}:{number}"
        if isinstance(line, BadValue):
            dropped.append(_drop(f"{Path(path).name}:{number}", where, "bad_jsonl", f"{where}: {line}"))
            continue
        if not line.strip():
            continue
        try:
            row = parse_json(line)
        except BadValue as error:
            dropped.append(_drop(f"{Path(path).name}:{number}", where, "bad_jsonl", f"{where}: {error}"))
            continue
        missing = [key for key in required if not isinstance(row, dict) or key not in row]
        if missing:
            dropped.append(_drop(f"{Path(path).name}:{number}", where, "bad_jsonl",
                                 f"{where}: missing field {missing[0]!r}"))
            continue
        try:
            row["task_id"] = check_task_id(row["task_id"])
        except BadValue as error:
            dropped.append(_drop(f"{Path(path).name}:{number}", where, "bad_task_id", f"{where}: {error}"))
            continue
        rows.append((number, row))
    return rows


def load_logicif_jsonl(functions: Path, test_cases: Path | None = None,
                       max_bytes: int = MAX_SEED_BYTES) -> tuple[list[SeedFunction], list[DroppedItem]]:
    """LogicIF's own input files: `{task_id, function}` and, optionally, `{task_id, test_cases:
    [[args...], ...]}`; a function without test cases loads with none (the inputs stage makes them)."""
    dropped: list[DroppedItem] = []
    check_jsonl_pair(functions, test_cases)
    cases_by_task: dict[str, tuple[int, list]] = {}
    for number, row in _read_jsonl(test_cases, ("task_id", "test_cases"), dropped) if test_cases else ():
        task_id, where = str(row["task_id"]), f"{test_cases}:{number}"
        if task_id in cases_by_task:
            dropped.append(_drop(task_id, where, "duplicate_task_id",
                                 f"{where}: task id {task_id!r} already has test cases on line {cases_by_task[task_id][0]}"))
            continue
        cases = row["test_cases"]
        if not isinstance(cases, list) or not all(isinstance(case, list) for case in cases):
            dropped.append(_drop(task_id, where, "bad_jsonl", f"{where}: test_cases must be a list of argument lists"))
            continue
        cases_by_task[task_id] = (number, cases)

    seeds: list[SeedFunction] = []
    first_seen: dict[str, int] = {}
    for number, row in _read_jsonl(functions, ("task_id", "function"), dropped):
        task_id, where = str(row["task_id"]), f"{functions}:{number}"
        if task_id in first_seen:
            dropped.append(_drop(task_id, where, "duplicate_task_id",
                                 f"{where}: task id {task_id!r} is already defined on line {first_seen[task_id]}"))
            continue
        first_seen[task_id] = number
        size = len(str(row["function"]).encode())
        if size > max_bytes:
            dropped.append(_drop(task_id, where, "bad_seed", f"{where}: function is {size:,} bytes, over the limit of "
                                 f"{max_bytes:,} (setting max_seed_bytes)"))
            continue
        try:
            entry = choose_entry(str(row["function"]), task_id)
        except SeedSyntaxError as error:
            inner = f" (line {error.line} of the function)" if error.line else ""
            dropped.append(_drop(task_id, where, "bad_seed", f"{where}: function {error}{inner}"))
            continue
        refused = policy_problem(str(row["function"]))
        if refused:
            inner = f" (line {refused.line} of the function)" if refused.line else ""
            dropped.append(_drop(task_id, where, "bad_seed", f"{where}: function {refused.reason}{inner}"))
            continue
        case_line, cases = cases_by_task.get(task_id, (None, []))
        inputs = [TestInput(args=args, line=case_line) for args in cases]
        source = return_changed(libcst_readable(str(row["function"])), entry)
        seeds.append(SeedFunction(task_id=task_id, source=source, entry=entry, inputs=inputs, origin=where))
    return seeds, dropped
