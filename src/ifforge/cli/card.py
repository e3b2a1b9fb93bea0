"""`ifforge card`: print a generated version's card (card.md beside its manifest)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ifforge.cli.common import fail


def register(commands) -> None:
    parser = commands.add_parser("card", help="print a version's card: what it measures, how it was made, floors")
    parser.add_argument("version", help="a version folder (outputs/logicif/v001) or a benchmark folder (its LATEST)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ifforge.card import read_card
    from ifforge.eval.evaluation import BenchmarkError, locate

    try:
        _, version = locate(Path(args.version), "full")
        print(read_card(version))
    except BenchmarkError as error:
        return fail(error)
    return 0
