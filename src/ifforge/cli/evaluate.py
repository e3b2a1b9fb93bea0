"""`ifforge evaluate`: score a model on a benchmark (the evaluate flow), or estimate what that costs.

The settings and the rows are read and checked before Prefect starts; `--dry-run` sends nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ifforge.cli.common import (
    add_family_options,
    add_temp_port,
    fail,
    family_options_given,
    key_value,
    seconds,
    use_temp_port,
)


def register(commands) -> None:
    parser = commands.add_parser("evaluate", help="score a model on a benchmark (the evaluate flow)")
    parser.add_argument("benchmark", help="a version folder, a benchmark folder (its LATEST) or a .jsonl")
    parser.add_argument("--model", required=True)
    parser.add_argument("--base-url", help="OpenAI-compatible server (default: OPENAI_BASE_URL)")
    parser.add_argument("--split", choices=["full", "mini"], default="full")
    parser.add_argument("--expressions", default="original",
                        help="original (default), all (e0 = original plus e1..ek), or comma-separated ids (families "
                             "that keep rows under other expressions)")
    parser.add_argument("--temperature", type=float)
    parser.add_argument("--max-tokens", type=int, help="default 16000, as in the paper")
    parser.add_argument("--reasoning-effort", help="passed through to reasoning models")
    parser.add_argument("--system-prompt")
    parser.add_argument("--concurrency", type=int, help="requests in flight at most (setting llm_concurrency, default 8)")
    parser.add_argument("--max-retries", type=int,
                        help="retries of a failed request, with backoff (setting llm_max_retries, default 5)")
    parser.add_argument("--timeout", type=seconds, metavar="SECONDS",
                        help="seconds one request may take in all, reply included (setting llm_timeout, default 600)")
    parser.add_argument("--no-cache", action="store_true")
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument("--limit", type=int, help="only the first N tasks (all their cases)")
    parser.add_argument("--dry-run", action="store_true",
                        help="print cases, requests, cached requests and a token and cost estimate; send nothing")
    parser.add_argument("--allow-failures", type=float, metavar="SHARE",
                        help="share of failed requests that still ends the run well (default 0: any failure "
                             "ends it Failed, exit 1)")
    parser.add_argument("--price-input", type=float, metavar="USD",
                        help="price per 1M prompt tokens, for the cost (setting price_input_per_mtok)")
    parser.add_argument("--price-output", type=float, metavar="USD",
                        help="price per 1M completion tokens (setting price_output_per_mtok)")
    parser.add_argument("--set", action="append", type=key_value, metavar="KEY=VALUE",
                        help="any evaluate setting by its name, e.g. --set llm_rpm=500 --set llm_tpm=200000")
    parser.add_argument("--config", type=Path, help="settings file for the limits and prices it shares with "
                                                    "generate (default: ./ifforge.toml when present)")
    add_temp_port(parser)
    add_family_options(parser, "evaluate")
    parser.set_defaults(run=run)


def options_of(args: argparse.Namespace) -> dict:
    """The flow's `options`: every `--set`, with the evaluation flags given on top, each under its
    setting's name (`--concurrency` is `llm_concurrency`: see `FLAG_SETTINGS`), the family's
    options among them by theirs."""
    from ifforge.eval.evaluation import FLAG_SETTINGS

    flags = {"temperature": args.temperature, "max_tokens": args.max_tokens, "reasoning_effort": args.reasoning_effort,
             "system_prompt": args.system_prompt, "concurrency": args.concurrency, "no_cache": args.no_cache or None,
             "limit": args.limit, **family_options_given(args),
             "allow_failures": args.allow_failures, "price_input": args.price_input, "price_output": args.price_output,
             "max_retries": args.max_retries, "timeout": args.timeout}
    return dict(args.set or []) | {FLAG_SETTINGS.get(flag, flag): value for flag, value in flags.items()
                                   if value is not None}


def run(args: argparse.Namespace) -> int:
    import os

    from ifforge.core.settings import SettingsError
    from ifforge.eval.evaluation import (
        BenchmarkError,
        RequestsFailed,
        cache_file,
        check_options,
        dry_run,
        limit_tasks,
        load_eval_settings,
        load_rows,
        locate,
    )
    from ifforge.core.registry import UnknownId

    options = options_of(args)
    try:
        settings = load_eval_settings({"model": args.model, "split": args.split, "expressions": args.expressions,
                                       "base_url": args.base_url or os.environ.get("OPENAI_BASE_URL"),
                                       "api_key": os.environ.get("OPENAI_API_KEY"), **options}, args.config)
        rows_path, version = locate(Path(args.benchmark), args.split)
        rows = limit_tasks(load_rows(rows_path, args.expressions), settings.limit)  # checked for their family
        settings = check_options(rows, settings, rows_path)  # the family's, and every row can be scored under them
    except (BenchmarkError, UnknownId, SettingsError) as error:
        return fail(error)
    if args.dry_run:
        estimate = dry_run(rows, settings, cache_file(settings, version))
        print(json.dumps({"benchmark": str(rows_path), "model": settings.model, **estimate}, indent=2))
        return 0
    if use_temp_port(args):
        return 2
    _ask_early(rows, rows_path, version, settings, not args.no_progress)
    from ifforge.core.prefect.env import flow_run_settings
    from ifforge.eval.asking import drop_early
    from ifforge.flows.evaluate import evaluate

    try:
        with flow_run_settings():
            folder = evaluate(benchmark=args.benchmark, model=args.model, base_url=args.base_url, split=args.split,
                              expressions=args.expressions, options=options, progress=not args.no_progress,
                              config=str(args.config) if args.config else None)
    except RequestsFailed as error:
        return fail(error, 1)
    finally:
        drop_early()
    print(Path(folder) / "report.md")
    print(f"every sample: {Path(folder) / 'samples.html'} (open it in a browser)", file=sys.stderr)
    return 0


def _ask_early(rows: list, rows_path: Path, version: Path, settings, progress: bool) -> None:
    """Start asking now, while Prefect is imported and its temporary server starts (seconds, tens
    on a loaded machine); the flow takes the asking over by the run's fingerprint. Off a terminal,
    progress lines from the first reply (the flow's bar or lines take over with the asking)."""
    from ifforge.core.progress import off_terminal
    from ifforge.eval.asking import ask_early
    from ifforge.eval.evaluation import benchmark_check, cache_file, family_of, run_fingerprint
    from ifforge.families import get_family

    fingerprint = run_fingerprint(rows_path, benchmark_check(rows_path, version)["sha256"], settings)
    cache = None if settings.no_cache else cache_file(settings, version)
    lines = off_terminal("evaluate", len(rows), progress)
    ask_early(fingerprint, rows, settings, cache, get_family(family_of(rows, rows_path)), lines and lines.advance)
