"""`ifforge score`: score responses produced elsewhere, LogicIF's result files (`llm_response`,
`llm_output`) or ours, without asking the model anything (except `--extractor llm`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ifforge.cli.common import fail


def register(commands) -> None:
    parser = commands.add_parser("score", help="score responses in LogicIF's result format")
    parser.add_argument("results", help="JSONL with task_id, test_case_id, code_output and the answer: "
                                        "response or llm_response (raw), or llm_output (LogicIF's extraction)")
    parser.add_argument("--benchmark", help="the benchmark the responses answer (adds tiers and complexity)")
    parser.add_argument("--strict-types", action="store_true")
    parser.add_argument("--extractor", choices=["rules", "llm"], default="rules",
                        help="llm: where the rules find no answer, an LLM extracts it (needs --model)")
    parser.add_argument("--model", help="model for --extractor llm")
    parser.add_argument("--base-url", help="server for --extractor llm (default: OPENAI_BASE_URL)")
    parser.add_argument("--rules", choices=["ifforge", "paper"], default="ifforge",
                        help="paper: the original's own scorer (families that have one: ifeval-fc, lifbench; needs --benchmark)")
    parser.add_argument("--out", help="folder for scores.parquet, report.md, plots (default: RESULTS_scored/)")
    parser.add_argument("--title")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import os

    from ifforge.eval.asking import Asker
    from ifforge.eval.evaluation import (
        BenchmarkError,
        EvalSettings,
        check_rules,
        family_of,
        load_rows,
        locate,
        read_results,
    )
    from ifforge.families import get_family
    from ifforge.families.logicif.scoring import by_key, extract_with_llm

    try:
        results = read_results(args.results)
        rows_path = locate(Path(args.benchmark), "full")[0] if args.benchmark else None
        rows = load_rows(rows_path) if rows_path else []
        if args.extractor == "llm" and not args.model:
            raise BenchmarkError("--extractor llm needs --model (and --base-url or OPENAI_BASE_URL)")
        family = get_family(family_of(rows, rows_path) if rows else "logicif")  # rows say their family
        if args.rules not in family.rule_modes:
            raise BenchmarkError(f"{family.id} has no `--rules {args.rules}`"
                                 + ("" if rows else " (give --benchmark: its rows say their family)"))
        check_rules(rows, args.rules, rows_path)
    except BenchmarkError as error:
        return fail(error)
    settings = EvalSettings(model=args.model or "", base_url=args.base_url or os.environ.get("OPENAI_BASE_URL"),
                            api_key=os.environ.get("OPENAI_API_KEY"), strict_types=args.strict_types, rules=args.rules)
    if args.extractor == "llm":
        cache = Path(args.results).with_suffix("").as_posix() + "_extract_cache.sqlite"
        with Asker(settings, Path(cache)) as asker:
            found = extract_with_llm(results, settings, asker, by_key(rows))
        print(f"the LLM extractor found {found} answer(s) the rules did not", file=sys.stderr)
    folder = Path(args.out or Path(args.results).with_suffix("").as_posix() + "_scored")
    family.scorer().score(results, rows, settings, folder, args.title or Path(args.results).stem)
    print((folder / "report.md").read_text())
    print(f"written to {folder}", file=sys.stderr)
    return 0
