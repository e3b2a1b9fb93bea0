"""`ifforge convert`: an original benchmark's released files as ifforge rows (IFEval-FC's data/,
LIFBench's prompt files or its data/ folder)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ifforge.cli.common import fail


def register(commands) -> None:
    parser = commands.add_parser("convert", help="an original benchmark's own files as ifforge rows")
    parser.add_argument("source", choices=["ifeval-fc", "lifbench"],
                        help="ifeval-fc: the IFEval-FC repository's data/ folder; lifbench: LIFBench's data/ folder "
                             "(its prompts/, else prompts rendered from its meta/) or one <scenario>-<task>.json")
    parser.add_argument("folder")
    parser.add_argument("--out", required=True, help="the rows .jsonl to write (then: ifforge evaluate OUT)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The original's files as rows our evaluate scores (LIFBench's also with --rules paper)."""
    from ifforge.core.store import atomic_write
    from ifforge.core.untrusted import InputError

    if args.source == "lifbench":
        from ifforge.families.lifbench.convert import convert
    else:
        from ifforge.families.ifeval_fc.paper import convert
    try:
        rows = convert(Path(args.folder))
        atomic_write(Path(args.out), "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    except (InputError, OSError) as error:
        return fail(error)
    print(f"{len(rows)} rows from {args.folder} written to {args.out} (score them: ifforge evaluate {args.out})")
    return 0
