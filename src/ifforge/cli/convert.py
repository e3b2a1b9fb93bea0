"""`ifforge convert`: an original benchmark's released files as ifforge rows, by the converter its
family declares (`Family.converter`; which files it reads is on its registry line, `Entry.converts`,
and its options are its options offered to `convert`)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ifforge.cli.common import add_family_options, fail, family_options_given
from ifforge.families import converting


def register(commands) -> None:
    parser = commands.add_parser("convert", help="an original benchmark's own files as ifforge rows")
    read = "; ".join(f"{family_id}: {files}" for family_id, files in converting().items())
    parser.add_argument("source", choices=list(converting()),
                        help=f"the family whose original's files these are ({read})")
    parser.add_argument("folder", help="the original's files, as its family reads them (see source)")
    parser.add_argument("--out", required=True, help="the rows .jsonl to write (then: ifforge evaluate OUT)")
    add_family_options(parser, "convert")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The original's files as rows our evaluate scores (with our rules, or `--rules paper`)."""
    from ifforge.core.store.versions import atomic_write
    from ifforge.core.untrusted import InputError

    from ifforge.families import get_family, options_of
    from ifforge.families.options import OptionError, validated

    family = get_family(args.source)
    try:
        options = validated(family.id, options_of(family.id), family_options_given(args))
        rows = family.converter(Path(args.folder), options.model_dump())
        atomic_write(Path(args.out), "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    except (InputError, OptionError, OSError) as error:
        return fail(error)
    print(f"{len(rows)} rows from {args.folder} written to {args.out} (score them: ifforge evaluate {args.out}, "
          "--rules paper as the paper does)")
    return 0
