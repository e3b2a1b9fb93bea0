"""`ifforge compare`: several models' reports side by side."""

from __future__ import annotations

import argparse

from ifforge.cli.common import fail


def register(commands) -> None:
    parser = commands.add_parser("compare", help="several models' reports side by side")
    parser.add_argument("reports", nargs="+", help="eval folders or report.json files")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ifforge.eval.evaluation import BenchmarkError, locate_report
    from ifforge.families.logicif.report import compare

    try:
        reports = [locate_report(given) for given in args.reports]
    except BenchmarkError as error:
        return fail(error)
    print(compare(reports), end="")
    return 0
