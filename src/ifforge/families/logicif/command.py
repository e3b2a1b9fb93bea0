"""`ifforge complexity`: LogicIF's complexity metrics, one JSON line per function of a .py file
(each top-level function) or of a JSONL file (each row's `function`). A command LogicIF adds to the
command line through its registry line (`Entry.commands`); the metrics code (radon, libcst) is
imported only when it runs."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path



def register(commands) -> None:
    parser = commands.add_parser("complexity", help="complexity metrics per function of a .py or .jsonl file")
    parser.add_argument("file")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ifforge.core.untrusted import BadValue, InputError, read_file

    path = Path(args.file)
    try:
        text = read_file(path).decode("utf-8")
    except (BadValue, UnicodeDecodeError) as error:
        raise InputError(f"{path}: {error if isinstance(error, BadValue) else 'is not UTF-8 text'}") from None
    return rows(path, text) if path.suffix == ".jsonl" else functions(path, text)


def rows(path: Path, text: str) -> int:
    """Each row's `function`; a row that cannot be measured is one line on stderr, and exit 1."""
    from ifforge.families.logicif.codeops.metrics.complexity_metrics import measure

    failures = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            metrics = measure(row["function"])
        except (json.JSONDecodeError, KeyError, TypeError, SyntaxError) as error:
            print(f"ifforge: {path}:{number}: {type(error).__name__}: {error}", file=sys.stderr)
            failures += 1
            continue
        print(json.dumps({"task_id": row.get("task_id"), "line": number, **metrics.model_dump()}))
    return 1 if failures else 0


def functions(path: Path, text: str) -> int:
    """Each top-level function of a module; a module that does not parse is one line, and exit 1."""
    from ifforge.families.logicif.codeops.metrics.complexity_metrics import measure_functions
    from ifforge.families.logicif.codeops.common.source import SeedSyntaxError

    try:
        measured = measure_functions(text)
    except SeedSyntaxError as error:
        print(f"ifforge: {path}:{error.line}: {error}", file=sys.stderr)
        return 1
    for name, line, metrics in measured:
        print(json.dumps({"file": str(path), "function": name, "line": line, **metrics.model_dump()}))
    return 0
