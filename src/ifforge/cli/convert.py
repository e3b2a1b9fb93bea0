"""`ifforge convert`: an original benchmark's released files as ifforge rows, by the converter its
family declares (`Family.converter`; the family's docs page says which files it reads)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ifforge.cli.common import fail
from ifforge.families import FAMILIES


def register(commands) -> None:
    parser = commands.add_parser("convert", help="an original benchmark's own files as ifforge rows")
    parser.add_argument("source", choices=list(FAMILIES),
                        help="the family whose original's files these are (ifeval-fc: the IFEval-FC repository's "
                             "data/ folder; lifbench: LIFBench's data/ folder, its prompts/, else prompts rendered "
                             "from its meta/, or one <scenario>-<task>.json)")
    parser.add_argument("folder", help="the original repository or its data/ folder (lifbench: also one file)")
    parser.add_argument("--system-message", default="paper",
                        help="ifeval-fc only: paper (default: the paper's own, read from its evaluate.py), "
                             "ifforge (ours), or a text")
    parser.add_argument("--out", required=True, help="the rows .jsonl to write (then: ifforge evaluate OUT)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The original's files as rows our evaluate scores (with our rules, or `--rules paper`)."""
    from ifforge.core.store.versions import atomic_write
    from ifforge.core.untrusted import InputError

    from ifforge.families import get_family

    family = get_family(args.source)
    if family.converter is None:
        converts = ", ".join(key for key in FAMILIES if get_family(key).converter is not None)
        return fail(f"{family.id} has no converter of its original's files (families with one: {converts})")
    try:
        rows = family.converter(Path(args.folder), {"system_message": args.system_message})
        atomic_write(Path(args.out), "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    except (InputError, OSError) as error:
        return fail(error)
    print(f"{len(rows)} rows from {args.folder} written to {args.out} (score them: ifforge evaluate {args.out}, "
          "--rules paper as the paper does)")
    return 0
