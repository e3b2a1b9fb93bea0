"""`ifforge convert`: an original benchmark's released files as ifforge rows (IFEval-FC's data/)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ifforge.cli.common import fail


def register(commands) -> None:
    parser = commands.add_parser("convert", help="an original benchmark's own files as ifforge rows")
    parser.add_argument("source", choices=["ifeval-fc"], help="ifeval-fc: the IFEval-FC repository's data/ folder")
    parser.add_argument("folder", help="the IFEval-FC repository or its data/ folder")
    parser.add_argument("--system-message", default="paper",
                        help="paper (default: the paper's own, read from its evaluate.py), ifforge (ours), or a text")
    parser.add_argument("--out", required=True, help="the rows .jsonl to write (then: ifforge evaluate OUT)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The IFEval-FC paper's data files as rows our evaluate scores (with our checkers, or `--rules paper`)."""
    from ifforge.core.store import atomic_write
    from ifforge.core.untrusted import InputError
    from ifforge.families.ifeval_fc import paper

    try:
        rows = paper.convert(Path(args.folder), args.system_message)
        atomic_write(Path(args.out), "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    except (InputError, OSError) as error:
        return fail(error)
    print(f"{len(rows)} rows from {args.folder} written to {args.out} (score them: ifforge evaluate {args.out}, --rules paper as the paper does)")
    return 0
