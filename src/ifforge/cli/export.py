"""`ifforge export`: a reviewed subset as JSONL, or any benchmark as an inspect-ai task, an
lm-evaluation-harness task, a Hugging Face datasets folder, or a format its family writes itself
(`Family.exports`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ifforge.cli.common import add_family_options, fail, family_options_given


def register(commands) -> None:
    parser = commands.add_parser("export",
                                 help="a reviewed subset (jsonl), or an inspect-ai / lm-eval / datasets export")
    parser.add_argument("version", help="a version folder, a benchmark folder (its LATEST) or a rows .jsonl")
    parser.add_argument("--format", default="jsonl",
                        help="jsonl: the verified rows; inspect: an inspect-ai task; lm-eval: an "
                             "lm-evaluation-harness task; hf: a Hugging Face datasets folder with a card; or a format "
                             "of the benchmark's own family (ifeval-fc: IFEval-FC rows as the paper's data files, for "
                             "its evaluate.py)")
    parser.add_argument("--verified-only", action="store_true", help="only items every reviewer marked faithful")
    parser.add_argument("--min-reviewers", type=int, default=1, metavar="N",
                        help="with --verified-only: only items at least N people reviewed (default 1)")
    parser.add_argument("--split", choices=["full", "mini"], default="full")
    parser.add_argument("--expressions", default="original", help="original, all, or ids (e.g. e1,e2), of families "
                                                                   "that keep rows under other expressions")
    parser.add_argument("--out", help="output file (jsonl) or folder (default: <version>/benchmark_verified.jsonl, "
                                      "<version>/exports/<format>/)")
    add_family_options(parser, "export")  # what the exported task scores with (each row carries it)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return verified_jsonl(args) if args.format == "jsonl" else task_export(args)


def verified_jsonl(args: argparse.Namespace) -> int:
    """The reviewed subset, as LogicIF-style JSONL."""
    from ifforge.core.store.versions import latest_version
    from ifforge.review import export_verified

    version = latest_version(args.version)
    if not args.verified_only:
        return fail("a jsonl export is the reviewed subset: add --verified-only "
                    "(or --format inspect|lm-eval|hf for the whole benchmark)")
    out = Path(args.out or version / "benchmark_verified.jsonl")
    try:
        path, tasks = export_verified(version, out, args.min_reviewers)
    except (ValueError, OSError) as error:
        return fail(error)
    print(f"{tasks} verified tasks (at least {args.min_reviewers} reviewer(s), none against) written to {path}")
    return 0


def task_export(args: argparse.Namespace) -> int:
    """The benchmark (or its reviewed subset) as a task another harness runs."""
    from dataclasses import replace

    from ifforge.eval.evaluation import BenchmarkError, EvalSettings, check_options
    from ifforge.exports import export
    from ifforge.exports.benchmark import read_benchmark

    try:
        benchmark = read_benchmark(Path(args.version), args.split, args.expressions, args.verified_only,
                                   min_reviewers=args.min_reviewers)
        chosen = check_options(benchmark.rows, EvalSettings(model="", options=family_options_given(args)),
                               benchmark.source).options
        carried = chosen.carried()  # each row carries what its family's checker scores it by
        if carried:
            benchmark = replace(benchmark, rows=[{**row, **carried} for row in benchmark.rows])
        out = Path(args.out) if args.out else benchmark.source.parent / "exports" / args.format / benchmark.name
        written = export(benchmark, args.format, out)
    except (BenchmarkError, ValueError, OSError) as error:
        return fail(error)
    except ImportError as error:
        return fail(f"the {args.format} export needs {error.name}: pip install {(error.name or '').replace('_', '-')} (see docs/exports.md)")
    left = written.get("left_out_chat_rows")
    print(f"{written['rows']} rows of {benchmark.name} ({benchmark.family}) exported to {written['folder']}"
          + (f" as {written['files']} files" if "files" in written else "")
          + (f"; {left} rows left out (multi-turn chats, which lm-eval cannot ask; use --format inspect)"
             if left else ""))
    if written.get("protocol") not in (None, "prompt"):
        print(f"note: lm-eval sends no tools, so these rows use the {written['protocol']} protocol (the tools shown in "
              "the prompt, the call written as JSON in the reply): scores are not comparable with `ifforge evaluate` "
              "or the inspect export, which use the tools API")
    print(f"run: {written['run']}")
    return 0
