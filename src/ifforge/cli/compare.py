"""`ifforge compare`: several runs' reports side by side, of any family (a table per family)."""

from __future__ import annotations

import argparse

from ifforge.cli.common import fail


def register(commands) -> None:
    parser = commands.add_parser("compare", help="several runs' reports side by side, any family")
    parser.add_argument("reports", nargs="+", help="eval folders or report.json files")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ifforge.eval.compare import compare
    from ifforge.eval.evaluation import BenchmarkError, locate_report

    try:
        text = compare([locate_report(given) for given in args.reports])
    except BenchmarkError as error:
        return fail(error)
    print(text, end="")
    return 0
