"""`ifforge compare`: several runs' reports side by side, of any family (a table per family), each
run's paired difference from the first where they scored the same rows; or, with `--paired`, one
model's runs on an original benchmark and its regeneration, paired by source function."""

from __future__ import annotations

import argparse

from ifforge.cli.common import fail


def register(commands) -> None:
    parser = commands.add_parser("compare", help="several runs' reports side by side, any family; --paired: "
                                                 "one model on an original benchmark and on its regeneration")
    parser.add_argument("reports", nargs="+", help="eval folders or report.json files (with --paired: ORIGINAL FRESH)")
    parser.add_argument("--paired", action="store_true",
                        help="two runs of one model, ORIGINAL then FRESH (a regeneration of it): each run's score, "
                             "the difference paired by source function with a bootstrap interval, by tier, a verdict")
    parser.add_argument("--metric", help="with --paired: the family's metric to compare (default: its first, "
                                         "the headline)")
    parser.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    parser.add_argument("--seed", type=int, default=0,
                        help="bootstrap seed (default 0: the same runs give the same interval)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ifforge.eval.compare import compare, paired_report
    from ifforge.eval.evaluation import BenchmarkError, locate_report

    if args.paired and len(args.reports) != 2:
        return fail(f"--paired takes two runs, ORIGINAL then FRESH, not {len(args.reports)}")
    if args.metric and not args.paired:
        return fail("--metric goes with --paired (without it, every metric of the family is compared)")
    if args.resamples < 100:
        return fail(f"--resamples {args.resamples}: at least 100 for a 95% interval")
    try:
        paths = [locate_report(given) for given in args.reports]
        if args.paired:
            text = paired_report(paths[0], paths[1], args.metric, args.resamples, args.seed)
        else:
            text = compare(paths, args.resamples, args.seed)
    except BenchmarkError as error:
        return fail(error)
    print(text, end="")
    return 0
