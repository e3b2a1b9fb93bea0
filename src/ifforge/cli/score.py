"""`ifforge score`: score replies produced elsewhere, of any family, without asking the model anything
(except LogicIF's `--extractor llm`): an evaluation's `responses.jsonl`, the benchmark's rows with a
reply beside each, or LogicIF's own result files (`llm_response`, `llm_output`). The family's checker
reads them, as `ifforge evaluate` would have."""

from __future__ import annotations

import argparse
from pathlib import Path

from ifforge.cli.common import add_family_options, fail, family_options_given


def register(commands) -> None:
    parser = commands.add_parser("score", help="score replies produced elsewhere (any family; LogicIF's result files)")
    parser.add_argument("results", help="JSONL of replies: each with its row's fields (or only what names its row, "
                                        "with --benchmark) and its reply: response (raw), responses (a chat), "
                                        "tool_calls (IFEval-FC), or LogicIF's llm_response / llm_output")
    parser.add_argument("--benchmark", help="the benchmark the replies answer: it alone gives the gold and the rows' "
                                            "fields (a reply carrying others is refused), and a row without a reply "
                                            "is scored as wrong (IFEval-FC and LIFBench need it)")
    parser.add_argument("--model", help="the model a family's option may ask to read replies (LogicIF: --extractor llm)")
    parser.add_argument("--base-url", help="its server (default: OPENAI_BASE_URL)")
    parser.add_argument("--out", help="folder for scores.parquet, report.md, plots (default: RESULTS_scored/)")
    parser.add_argument("--title")
    parser.add_argument("--allow-failures", type=share, default=0.0, metavar="SHARE",
                        help="share of rows whose reply is a failed request (request_failed) that still ends well "
                             "(default 0: any ends the command with exit 1, as evaluate; they are never scored)")
    add_family_options(parser, "score")
    parser.set_defaults(run=run)


def share(text: str) -> float:
    """A share from 0 to 1, or one clear argparse error."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a share from 0 to 1")
    return value


def run(args: argparse.Namespace) -> int:
    import os
    import sys

    from ifforge.eval.asking import Asker
    from ifforge.eval.evaluation import BenchmarkError, EvalSettings, check_rows_under
    from ifforge.eval.results_file import read_results
    from ifforge.eval.template import score
    from ifforge.families.options import OptionError

    settings = EvalSettings(model=args.model or "", base_url=args.base_url or os.environ.get("OPENAI_BASE_URL"),
                            api_key=os.environ.get("OPENAI_API_KEY"), options=family_options_given(args))
    try:
        family, results, rows = read_results(Path(args.results), args.benchmark and Path(args.benchmark))
        try:
            settings = settings.for_family(family)
        except OptionError as error:
            raise BenchmarkError(f"{args.results}: {error}") from None
        if rows:
            check_rows_under(rows, settings.options, Path(args.benchmark))
    except BenchmarkError as error:
        return fail(error)
    cache = Path(Path(args.results).with_suffix("").as_posix() + "_extract_cache.sqlite")
    folder = Path(args.out or Path(args.results).with_suffix("").as_posix() + "_scored")
    run = {"family": family.id, "results": str(args.results), "benchmark": args.benchmark, "cases": len(results),
           "parameters": settings.options.fingerprint()}  # the options `ifforge view` judges again by
    with Asker(settings, cache) as asker:  # a model is asked only where a family's option says so
        family.refine(results, rows, settings, asker)
        summary = score(family, results, rows, settings, folder, args.title or Path(args.results).stem, run,
                        asker if family.asks(settings.options) else None, rows_known=bool(rows))
    print((folder / "report.md").read_text())
    print(f"written to {folder}; every sample: {folder / 'samples.html'} (open it in a browser)", file=sys.stderr)
    failures = summary["request_failures"]
    if failures > args.allow_failures * len(results):  # a file's failed requests are not a score, as evaluate's
        return fail(f"{failures} of {len(results)} rows are failed requests (allowed: {args.allow_failures:.0%}): "
                    f"not scored; the report in {folder} covers the rest", 1)
    return 0
