"""`ifforge card`: print a generated version's card (card.md beside its manifest)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ifforge.cli.common import fail


def register(commands) -> None:
    parser = commands.add_parser("card", help="print a version's card: what it measures, how it was made, floors")
    parser.add_argument("version", help="a version folder (outputs/logicif/v001) or a benchmark folder (its LATEST)")
    parser.add_argument("--check", action="store_true",
                        help="instead, list what the card lacks before it is published (empty sections, links that "
                             "are not absolute, no licence); exit 1 if anything")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ifforge.card import check_card, read_card
    from ifforge.eval.evaluation import BenchmarkError, locate

    try:
        _, version = locate(Path(args.version), "full")
        text = read_card(version)
    except BenchmarkError as error:
        return fail(error)
    if not args.check:
        print(text)
        return 0
    problems = check_card(text)
    print("\n".join(problems) if problems else "ready to publish: no empty section, every link absolute, a licence")
    return 1 if problems else 0
