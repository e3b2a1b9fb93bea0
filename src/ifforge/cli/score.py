"""`ifforge score`: score replies produced elsewhere, of any family, without asking the model anything
(except LogicIF's `--extractor llm`): an evaluation's `responses.jsonl`, the benchmark's rows with a
reply beside each, or LogicIF's own result files (`llm_response`, `llm_output`). The family's checker
reads them, as `ifforge evaluate` would have."""

from __future__ import annotations

import argparse
from pathlib import Path

from ifforge.cli.common import fail


def register(commands) -> None:
    parser = commands.add_parser("score", help="score replies produced elsewhere (any family; LogicIF's result files)")
    parser.add_argument("results", help="JSONL of replies: each with its row's fields (or only what names its row, "
                                        "with --benchmark) and its reply: response (raw), responses (a chat), "
                                        "tool_calls (IFEval-FC), or LogicIF's llm_response / llm_output")
    parser.add_argument("--benchmark", help="the benchmark the replies answer: it alone gives the gold and the rows' "
                                            "fields (a reply carrying others is refused), and a row without a reply "
                                            "is scored as wrong (IFEval-FC and LIFBench need it)")
    parser.add_argument("--strict-types", action="store_true", help="LogicIF: true is not 1, 20 is not 20.0")
    parser.add_argument("--extractor", choices=["rules", "llm"], default="rules",
                        help="LogicIF: llm: where the rules find no answer, an LLM extracts it (needs --model)")
    parser.add_argument("--model", help="model for --extractor llm")
    parser.add_argument("--base-url", help="server for --extractor llm (default: OPENAI_BASE_URL)")
    parser.add_argument("--rules", choices=["ifforge", "paper"], default="ifforge",
                        help="paper: the original's own scorer (families that have one: ifeval-fc, lifbench, logicif)")
    parser.add_argument("--paper-nltk", choices=["3.9", "3.10"], default="3.9",
                        help="ifeval-fc with --rules paper: count words as nltk 3.9.1 (3.9, default: the paper's "
                             "results) or nltk 3.10.3 and later (3.10) does")
    parser.add_argument("--out", help="folder for scores.parquet, report.md, plots (default: RESULTS_scored/)")
    parser.add_argument("--title")
    parser.add_argument("--allow-failures", type=share, default=0.0, metavar="SHARE",
                        help="share of rows whose reply is a failed request (request_failed) that still ends well "
                             "(default 0: any ends the command with exit 1, as evaluate; they are never scored)")
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
    from ifforge.eval.evaluation import BenchmarkError, EvalSettings, check_rules
    from ifforge.eval.results_file import read_results
    from ifforge.eval.template import score

    try:
        if args.paper_nltk != "3.9" and args.rules != "paper":
            raise BenchmarkError("--paper-nltk applies to --rules paper only (IFEval-FC's paper mode)")
        if args.extractor == "llm" and not args.model:
            raise BenchmarkError("--extractor llm needs --model (and --base-url or OPENAI_BASE_URL)")
        family, results, rows = read_results(Path(args.results), args.benchmark and Path(args.benchmark))
        if args.rules not in family.rule_modes:
            raise BenchmarkError(f"{args.results}: {family.id} has no `--rules {args.rules}` "
                                 f"(it has: {', '.join(family.rule_modes)})")
        if rows:
            check_rules(rows, args.rules, Path(args.benchmark))
    except BenchmarkError as error:
        return fail(error)
    settings = EvalSettings(model=args.model or "", base_url=args.base_url or os.environ.get("OPENAI_BASE_URL"),
                            api_key=os.environ.get("OPENAI_API_KEY"), strict_types=args.strict_types,
                            extractor=args.extractor, rules=args.rules, paper_nltk=args.paper_nltk)
    cache = Path(Path(args.results).with_suffix("").as_posix() + "_extract_cache.sqlite")
    folder = Path(args.out or Path(args.results).with_suffix("").as_posix() + "_scored")
    run = {"family": family.id, "results": str(args.results), "benchmark": args.benchmark, "cases": len(results),
           "parameters": {"rules": args.rules, "strict_types": args.strict_types, "extractor": args.extractor,
                          **({"paper_nltk": args.paper_nltk} if args.rules == "paper" else {})}}
    with Asker(settings, cache) as asker:  # a model is asked only with --extractor llm
        family.refine(results, rows, settings, asker)
        summary = score(family, results, rows, settings, folder, args.title or Path(args.results).stem, run,
                        asker if args.extractor == "llm" else None, rows_known=bool(rows))
    print((folder / "report.md").read_text())
    print(f"written to {folder}; every sample: {folder / 'samples.html'} (open it in a browser)", file=sys.stderr)
    failures = summary["request_failures"]
    if failures > args.allow_failures * len(results):  # a file's failed requests are not a score, as evaluate's
        return fail(f"{failures} of {len(results)} rows are failed requests (allowed: {args.allow_failures:.0%}): "
                    f"not scored; the report in {folder} covers the rest", 1)
    return 0
