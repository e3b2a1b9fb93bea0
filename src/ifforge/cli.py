"""`ifforge ...` commands. Prefect is imported only by the commands that run a flow."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ifforge.core import pyast
from ifforge.families.logicif.codeops.complexity import measure
from ifforge.families.logicif.codeops.source import SeedSyntaxError, top_level_functions


def _parse_option(text: str) -> tuple[str, object]:
    key, separator, value = text.partition("=")
    if not separator:
        raise argparse.ArgumentTypeError(f"--set expects KEY=VALUE, got {text!r}")
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = value
    return key.strip().replace("-", "_"), parsed


def _port(text: str) -> int:
    """A TCP port from the command line: 0 (any free one) to 65535, or one clear argparse error."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port (0 to 65535)")
    return port


def _temporary_port(args: argparse.Namespace) -> int:
    """`--temp-port P`: the port of Prefect's temporary server, checked before anything starts."""
    import os

    from ifforge.core.prefect_env import TEMP_PORT_VARIABLE, port_free

    if args.temp_port is None:
        return 0
    if not port_free(args.temp_port):
        print(f"ifforge: port {args.temp_port} for Prefect's temporary server is busy; choose another "
              "with --temp-port", file=sys.stderr)
        return 2
    os.environ[TEMP_PORT_VARIABLE] = str(args.temp_port)
    return 0


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ifforge")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def _generate(args: argparse.Namespace) -> int:
    from ifforge.core.llm_setup import LLMSetupError, resolve_llm
    from ifforge.core.settings import SettingsError
    from ifforge.families import get_family, load_family_settings

    options = dict(args.set or [])
    for flag in ("llm", "model", "base_url"):
        if getattr(args, flag) is not None:
            options[flag] = getattr(args, flag)
    if args.no_cache:
        options["no_cache"] = True
    if args.no_progress:
        options["progress"] = False
    local = options.get("llm") == "local"
    if local:
        if not options.get("model"):
            print("ifforge: --llm local needs --model FILE.gguf (or gemma3-270m)", file=sys.stderr)
            return 2
        options["local_model"] = options.pop("model")
        options["llm"] = "openai"
    if args.family:
        options["family"] = args.family
    for flag in ("seeds", "functions", "test_cases"):
        if getattr(args, flag) is not None:
            options[flag] = getattr(args, flag)
    try:  # validate before Prefect starts, so a typo costs no server start-up
        settings = load_family_settings({"out": args.out, "benchmark": args.benchmark, **options}, args.config)
        if not local:
            resolve_llm(settings, get_family(settings.family).llm_stages)
    except (SettingsError, LLMSetupError) as error:
        print(f"ifforge: {error}", file=sys.stderr)
        return 2
    if _temporary_port(args):
        return 2
    from ifforge.core.untrusted import InputError, check_out_dir

    try:  # the inputs' paths and the output folder, before Prefect starts or anything is written
        get_family(settings.family).check_inputs(settings)
        check_out_dir(settings.out)
    except InputError as error:
        print(f"ifforge: {error}", file=sys.stderr)
        return 2
    from ifforge.flows.generate import flow_for

    generate = flow_for(settings)

    def run() -> str:
        return generate(family=settings.family, out=args.out, benchmark=args.benchmark, options=options,
                        config=str(args.config) if args.config else None)

    if local:
        from ifforge.core.local_llm import LocalServer, LocalServerError

        try:
            with LocalServer(str(settings.local_model)) as server:
                print(f"ifforge: local llama.cpp server on {server.url} ({server.model_name})", file=sys.stderr)
                options.update(base_url=server.url, model=server.model_name)
                folder = run()
        except (LocalServerError, InputError) as error:
            print(f"ifforge: {error}", file=sys.stderr)
            return 2
    else:
        from ifforge.core.llm import LLMFatal
        from ifforge.flows.generate import LostItems

        try:
            folder = run()
        except InputError as error:
            print(f"ifforge: {error}", file=sys.stderr)
            return 2
        except (LostItems, LLMFatal) as error:  # the run is Failed in Prefect; here, one line
            print(f"ifforge: {error}", file=sys.stderr)
            return 1
    from ifforge.factory import outcome_line

    print(folder)  # stdout: the version's folder, for scripts; stderr, last: what it holds
    print(f"ifforge: {outcome_line(json.loads((Path(folder) / 'manifest.json').read_text()), folder)}", file=sys.stderr)
    return 0


def _families(args: argparse.Namespace) -> int:
    """One line per family: its id, whether it is built, what a sample is."""
    from ifforge.families import FAMILIES

    for entry in FAMILIES.values():
        state = "" if entry.module else f"  (not built yet: {entry.issue})"
        print(f"{entry.id:<10} {entry.title}{state}")
    return 0


def _evaluate(args: argparse.Namespace) -> int:
    import json
    import os

    from pydantic import ValidationError

    from ifforge.eval.evaluation import (
        BenchmarkError,
        EvalSettings,
        RequestsFailed,
        dry_run,
        limit_tasks,
        load_rows,
        locate,
    )
    from ifforge.families import UnknownFamily

    options = {k: v for k, v in {
        "temperature": args.temperature, "max_tokens": args.max_tokens, "reasoning_effort": args.reasoning_effort,
        "system_prompt": args.system_prompt, "strict_types": args.strict_types or None,
        "analyze_errors": args.analyze_errors or None, "analyzer_model": args.analyzer_model,
        "concurrency": args.concurrency, "no_cache": args.no_cache or None, "extractor": args.extractor,
        "extractor_model": args.extractor_model, "limit": args.limit, "allow_failures": args.allow_failures,
        "price_input": args.price_input, "price_output": args.price_output,
        "max_retries": args.max_retries}.items() if v is not None}
    try:
        settings = EvalSettings(model=args.model, base_url=args.base_url or os.environ.get("OPENAI_BASE_URL"),
                                split=args.split, expressions=args.expressions, **options)
        rows_path, version = locate(Path(args.benchmark), args.split)
        rows = limit_tasks(load_rows(rows_path, args.expressions), settings.limit)  # checked for their family
    except (BenchmarkError, ValidationError, UnknownFamily) as error:
        print(f"ifforge: {error}", file=sys.stderr)
        return 2
    if args.dry_run:
        estimate = dry_run(rows, settings, version / "evals" / ".llm_cache.sqlite")
        print(json.dumps({"benchmark": str(rows_path), "model": settings.model, **estimate}, indent=2))
        return 0
    if _temporary_port(args):
        return 2
    from ifforge.flows.evaluate import evaluate

    try:
        folder = evaluate(benchmark=args.benchmark, model=args.model, base_url=args.base_url, split=args.split,
                          expressions=args.expressions, options=options, progress=not args.no_progress)
    except RequestsFailed as error:
        print(f"ifforge: {error}", file=sys.stderr)
        return 1
    print(Path(folder) / "report.md")
    return 0


def _score(args: argparse.Namespace) -> int:
    """Score responses produced elsewhere: LogicIF's result files (`llm_response`, `llm_output`) or ours."""
    import asyncio
    import os

    from ifforge.eval.evaluation import BenchmarkError, EvalSettings, load_rows, locate
    from ifforge.families.logicif.scoring import SCORER, by_key, extract_with_llm

    try:
        results = load_rows(Path(args.results))
        rows = load_rows(locate(Path(args.benchmark), "full")[0]) if args.benchmark else []
        answer_fields = ("response", "llm_response", "llm_output")
        missing = next((i for i, r in enumerate(results, 1) if not any(k in r for k in answer_fields)), None)
        if missing:
            raise BenchmarkError(f"{args.results}:{missing}: no answer field (one of {', '.join(answer_fields)})")
        if args.extractor == "llm" and not args.model:
            raise BenchmarkError("--extractor llm needs --model (and --base-url or OPENAI_BASE_URL)")
    except BenchmarkError as error:
        print(f"ifforge: {error}", file=sys.stderr)
        return 2
    settings = EvalSettings(model=args.model or "", base_url=args.base_url or os.environ.get("OPENAI_BASE_URL"),
                            api_key=os.environ.get("OPENAI_API_KEY"), strict_types=args.strict_types)
    if args.extractor == "llm":
        cache = Path(args.results).with_suffix("").as_posix() + "_extract_cache.sqlite"
        found = asyncio.run(extract_with_llm(results, settings, Path(cache), by_key(rows)))
        print(f"the LLM extractor found {found} answer(s) the rules did not", file=sys.stderr)
    folder = Path(args.out or Path(args.results).with_suffix("").as_posix() + "_scored")
    SCORER.score(results, rows, settings, folder, args.title or Path(args.results).stem)
    print((folder / "report.md").read_text())
    print(f"written to {folder}", file=sys.stderr)
    return 0


def _compare(args: argparse.Namespace) -> int:
    from ifforge.families.logicif.report import compare

    reports = []
    for given in args.reports:
        path = Path(given)
        if path.is_dir() and not (path / "report.json").exists() and (path / "LATEST").exists():
            path = path / (path / "LATEST").read_text().strip()  # a model's folder: its latest run
        path = path / "report.json" if path.is_dir() else path
        if not path.exists():
            print(f"ifforge: {path}: no report.json (run ifforge evaluate or score first)", file=sys.stderr)
            return 2
        reports.append(path)
    print(compare(reports), end="")
    return 0


def _serve_until_stopped(start, banner) -> int:
    """Run a child server (`start()` makes it) until it exits or Ctrl-C / TERM stops it."""
    import time

    from ifforge.core.child_server import ChildServerError

    try:
        with start() as server:
            print(banner(server), flush=True)
            while server.process.poll() is None:
                time.sleep(0.5)
            print(f"ifforge: the {server.label} exited with {server.process.returncode}", file=sys.stderr)
            return 1
    except ChildServerError as error:
        print(f"ifforge: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


def _server(args: argparse.Namespace) -> int:
    """The Prefect server and UI on 127.0.0.1 until Ctrl-C; flows started meanwhile report to it."""
    import os

    from ifforge.core.prefect_env import prefect_home
    from ifforge.core.prefect_server import PrefectServer

    os.environ.setdefault("PREFECT_HOME", str(prefect_home()))  # the project's, where later runs look for it
    return _serve_until_stopped(lambda: PrefectServer(args.port), lambda server: (
        f"Prefect UI: {server.ui_url}   (API {server.api_url}; flows started now report here). Ctrl-C stops it."))


def _deploy(args: argparse.Namespace) -> int:
    from ifforge.core.prefect_env import configure

    if not configure():
        print("ifforge: deployments need a running server: start `ifforge server` first", file=sys.stderr)
        return 2
    from ifforge.flows.serve import main as serve

    try:
        serve()
    except KeyboardInterrupt:
        pass
    return 0


def _watch(args: argparse.Namespace) -> int:
    from ifforge.watch import trigger, watch

    folder = Path(args.seeds)
    if not folder.is_dir():
        print(f"ifforge: {folder}: seed folder not found", file=sys.stderr)
        return 2
    options = dict(args.set or [])

    def on_change(summary: str) -> None:
        print(f"ifforge watch: {summary}", flush=True)
        print(f"ifforge watch: {trigger(folder, options, local=args.local).message}", flush=True)

    print(f"ifforge watch: watching {folder} (Ctrl-C stops)", flush=True)
    try:
        watch(folder, on_change, interval=args.interval, run_first=args.now, max_runs=1 if args.once else None)
    except KeyboardInterrupt:
        pass
    return 0


def _version_folder(given: str) -> Path:
    path = Path(given)
    if (path / "LATEST").exists():
        path = path / (path / "LATEST").read_text().strip()
    return path


def _review(args: argparse.Namespace) -> int:
    """Serve the review page (or print review statistics) for one benchmark version."""
    import time

    from ifforge.review import ReviewServer, format_stats, review_stats

    version = _version_folder(args.version)
    if not (version / "benchmark.jsonl").exists():
        print(f"ifforge: {version}: no benchmark.jsonl (give a version folder or a benchmark folder)", file=sys.stderr)
        return 2
    try:
        if args.stats:
            stats = review_stats(version)
            print(json.dumps(stats, indent=2) if args.json else format_stats(stats))
            return 0
        with ReviewServer(version, host=args.host, port=args.port) as server:
            print(f"review page: {server.url}  (marks go to {version / 'reviews'}); Ctrl-C stops it", flush=True)
            while True:
                time.sleep(1)
    except (ValueError, OSError) as error:  # a busy port, a corrupt review file, rows that are not JSON
        print(f"ifforge: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


def _export(args: argparse.Namespace) -> int:
    """A reviewed subset as LogicIF-style JSONL, or any benchmark as an inspect-ai task, an
    lm-evaluation-harness task or a Hugging Face datasets folder."""
    from ifforge.eval.evaluation import BenchmarkError

    if args.format == "jsonl":
        from ifforge.review import export_verified

        version = _version_folder(args.version)
        if not args.verified_only:
            print("ifforge: a jsonl export is the reviewed subset: add --verified-only "
                  "(or --format inspect|lm-eval|hf for the whole benchmark)", file=sys.stderr)
            return 2
        out = Path(args.out or version / "benchmark_verified.jsonl")
        try:
            path, tasks = export_verified(version, out, args.min_reviewers)
        except (ValueError, OSError) as error:
            print(f"ifforge: {error}", file=sys.stderr)
            return 2
        print(f"{tasks} verified tasks (at least {args.min_reviewers} reviewer(s), none against) written to {path}")
        return 0
    from ifforge.exports import export
    from ifforge.exports.benchmark import read_benchmark

    try:
        benchmark = read_benchmark(Path(args.version), args.split, args.expressions, args.verified_only,
                                   min_reviewers=args.min_reviewers)
        out = Path(args.out) if args.out else benchmark.source.parent / "exports" / args.format / benchmark.name
        written = export(benchmark, args.format, out)
    except (BenchmarkError, ValueError, OSError) as error:
        print(f"ifforge: {error}", file=sys.stderr)
        return 2
    except ImportError as error:
        print(f"ifforge: the {args.format} export needs {error.name}: pip install 'ifforge[exports]'", file=sys.stderr)
        return 2
    left = written.get("left_out_chat_rows")
    print(f"{written['rows']} rows of {benchmark.name} ({benchmark.family}) exported to {written['folder']}"
          + (f"; {left} rows left out (multi-turn chats, which lm-eval cannot ask; use --format inspect)"
             if left else ""))
    if written.get("protocol") not in (None, "prompt"):
        print(f"note: lm-eval sends no tools, so these rows use the {written['protocol']} protocol (the tools shown in "
              "the prompt, the call written as JSON in the reply): scores are not comparable with `ifforge evaluate` "
              "or the inspect export, which use the tools API")
    print(f"run: {written['run']}")
    return 0


def _convert(args: argparse.Namespace) -> int:
    """The IFEval-FC paper's data files as rows our evaluate scores with our checkers."""
    from ifforge.core.store import atomic_write
    from ifforge.core.untrusted import InputError
    from ifforge.families.ifeval_fc import paper

    try:
        rows = paper.convert(Path(args.folder))
        atomic_write(Path(args.out), "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    except (InputError, OSError) as error:
        print(f"ifforge: {error}", file=sys.stderr)
        return 2
    print(f"{len(rows)} rows from {args.folder} written to {args.out} (score them: ifforge evaluate {args.out})")
    return 0


def _llm_serve(args: argparse.Namespace) -> int:
    """Start llama.cpp's OpenAI-compatible server and keep it up until Ctrl-C."""
    from ifforge.core.local_llm import LocalServer

    return _serve_until_stopped(
        lambda: LocalServer(args.model, port=args.port, chat_format=args.chat_format, context=args.n_ctx),
        lambda server: (f"serving {server.model_name} at {server.url}  (OPENAI_BASE_URL={server.url} "
                        f"IFFORGE_MODEL={server.model_name}); Ctrl-C stops it"))


def _complexity(args: argparse.Namespace) -> int:
    """One JSON line per function: each top-level function of a .py file, or each JSONL `function`."""
    from ifforge.core.untrusted import BadValue, read_file

    path = Path(args.file)
    try:
        text = read_file(path).decode("utf-8")
    except (BadValue, UnicodeDecodeError) as error:
        print(f"ifforge: {path}: {error if isinstance(error, BadValue) else 'is not UTF-8 text'}", file=sys.stderr)
        return 2
    failures = 0
    if path.suffix == ".jsonl":
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                source = row["function"]
                metrics = measure(source)
            except (json.JSONDecodeError, KeyError, TypeError, SyntaxError) as error:
                print(f"ifforge: {path}:{number}: {type(error).__name__}: {error}", file=sys.stderr)
                failures += 1
                continue
            print(json.dumps({"task_id": row.get("task_id"), "line": number, **metrics.model_dump()}))
        return 1 if failures else 0
    try:
        names = top_level_functions(text)
    except SeedSyntaxError as error:
        print(f"ifforge: {path}:{error.line}: {error}", file=sys.stderr)
        return 1
    import ast

    tree = pyast.parse(text)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in names:
            source = ast.get_source_segment(text, node, padded=False)
            decorators = "".join(f"@{ast.unparse(d)}\n" for d in node.decorator_list)
            metrics = measure(decorators + source if not source.startswith("@") else source)
            print(json.dumps({"file": str(path), "function": node.name, "line": node.lineno, **metrics.model_dump()}))
    return 0


def _batch(args: argparse.Namespace) -> int:
    """The Batch API batches a run has submitted and not yet saved: list them, or cancel them."""
    import os

    from ifforge.core import llm_batch

    import openai

    from ifforge.core.untrusted import InputError

    cache = Path(args.llm_cache) if args.llm_cache else Path(args.out) / ".llm_cache.sqlite"
    folder = llm_batch.batch_folder(cache)
    try:
        batches = llm_batch.pending(folder) if folder.is_dir() else []
        if not batches:
            print(f"ifforge: no pending batches in {folder}", file=sys.stderr)
            return 0
        if args.batch_command == "list":
            for path, state in batches:
                print(f"{state['batch_id']}\t{state.get('stage')}\t{state.get('requests')} requests\t"
                      f"{state.get('base_url') or 'OpenAI'}\t{path}")
            return 0
        for batch_id, status in llm_batch.cancel(folder, os.environ.get("OPENAI_API_KEY")):
            print(f"{batch_id}\t{status}")
    except (InputError, openai.OpenAIError) as error:
        print(f"ifforge: {error}", file=sys.stderr)
        return 2
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ifforge", description="Verifiable instruction-following benchmarks.")
    parser.add_argument("--version", action="version", version=f"ifforge {_version()}")
    commands = parser.add_subparsers(dest="command", required=True)

    families = commands.add_parser("families", help="list the benchmark families, one line each")
    families.set_defaults(run=_families)

    generate = commands.add_parser("generate", help="run the generate flow (seeds -> benchmark version)")
    generate.add_argument("--family", help="benchmark family (default: logicif; `ifforge families` lists them)")
    generate.add_argument("--seeds", help="LogicIF: folder of seed .py files (default: the seeds shipped with ifforge)")
    generate.add_argument("--functions", help="LogicIF functions JSONL: {task_id, function} per line")
    generate.add_argument("--test-cases", help="LogicIF test cases JSONL: {task_id, test_cases} per line (optional: "
                                               "functions without test cases get generated inputs)")
    generate.add_argument("--out", help="outputs root (default: outputs)")
    generate.add_argument("--benchmark", help="benchmark name, the folder under the outputs root (default: the family id)")
    generate.add_argument("--config", type=Path, help="settings file (default: ./ifforge.toml when present)")
    generate.add_argument("--set", action="append", type=_parse_option, metavar="KEY=VALUE",
                          help="any setting, e.g. --set min_cases=4 --set max_input_magnitude=1e5")
    generate.add_argument("--llm", choices=["auto", "none", "openai", "local"],
                          help="auto (default): LLM stages when a model and server are configured; none: offline; "
                               "local: start llama.cpp on --model FILE.gguf")
    generate.add_argument("--model", help="model name (or a GGUF file / gemma3-270m with --llm local)")
    generate.add_argument("--base-url", help="OpenAI-compatible server (default: OPENAI_BASE_URL)")
    generate.add_argument("--no-cache", action="store_true", help="neither read nor write the LLM response cache")
    generate.add_argument("--no-progress", action="store_true", help="no progress bars")
    generate.add_argument("--temp-port", type=_port, metavar="PORT",
                          help="port of Prefect's temporary server when no `ifforge server` is up (default: random)")
    generate.set_defaults(run=_generate)

    evaluate = commands.add_parser("evaluate", help="score a model on a benchmark (the evaluate flow)")
    evaluate.add_argument("benchmark", help="a version folder, a benchmark folder (its LATEST) or a .jsonl")
    evaluate.add_argument("--model", required=True)
    evaluate.add_argument("--base-url", help="OpenAI-compatible server (default: OPENAI_BASE_URL)")
    evaluate.add_argument("--split", choices=["full", "mini"], default="full")
    evaluate.add_argument("--expressions", default="original",
                          help="original (default), all (e0 = original plus e1..ek), or comma-separated ids")
    evaluate.add_argument("--temperature", type=float)
    evaluate.add_argument("--max-tokens", type=int, help="default 16000, as in the paper")
    evaluate.add_argument("--reasoning-effort", help="passed through to reasoning models")
    evaluate.add_argument("--system-prompt")
    evaluate.add_argument("--strict-types", action="store_true", help="true is not 1, 20 is not 20.0")
    evaluate.add_argument("--analyze-errors", action="store_true", help="LLM-label each failed case's failure mode")
    evaluate.add_argument("--analyzer-model", help="model for --analyze-errors (default: --model)")
    evaluate.add_argument("--concurrency", type=int)
    evaluate.add_argument("--max-retries", type=int, help="retries of a failed request (default 5, with backoff)")
    evaluate.add_argument("--no-cache", action="store_true")
    evaluate.add_argument("--no-progress", action="store_true")
    evaluate.add_argument("--extractor", choices=["rules", "llm"],
                          help="rules (default): last JSON answer, then LogicIF's **Output:**/**Statistics:**; "
                               "llm: also an LLM's extraction where the rules find none (reported apart)")
    evaluate.add_argument("--extractor-model", help="model for --extractor llm (default: --model)")
    evaluate.add_argument("--limit", type=int, help="only the first N tasks (all their cases)")
    evaluate.add_argument("--dry-run", action="store_true",
                          help="print cases, requests, cached requests and a token and cost estimate; send nothing")
    evaluate.add_argument("--allow-failures", type=float, metavar="SHARE",
                          help="share of failed requests that still ends the run well (default 0: any failure "
                               "ends it Failed, exit 1)")
    evaluate.add_argument("--price-input", type=float, metavar="USD", help="price per 1M prompt tokens (for cost)")
    evaluate.add_argument("--price-output", type=float, metavar="USD", help="price per 1M completion tokens")
    evaluate.add_argument("--temp-port", type=_port, metavar="PORT",
                          help="port of Prefect's temporary server when no `ifforge server` is up (default: random)")
    evaluate.set_defaults(run=_evaluate)

    score = commands.add_parser("score", help="score responses in LogicIF's result format")
    score.add_argument("results", help="JSONL with task_id, test_case_id, code_output and the answer: "
                                       "response or llm_response (raw), or llm_output (LogicIF's extraction)")
    score.add_argument("--benchmark", help="the benchmark the responses answer (adds tiers and complexity)")
    score.add_argument("--strict-types", action="store_true")
    score.add_argument("--extractor", choices=["rules", "llm"], default="rules",
                       help="llm: where the rules find no answer, an LLM extracts it (needs --model)")
    score.add_argument("--model", help="model for --extractor llm")
    score.add_argument("--base-url", help="server for --extractor llm (default: OPENAI_BASE_URL)")
    score.add_argument("--out", help="folder for scores.parquet, report.md, plots (default: RESULTS_scored/)")
    score.add_argument("--title")
    score.set_defaults(run=_score)

    convert = commands.add_parser("convert", help="an original benchmark's own files as ifforge rows")
    convert.add_argument("source", choices=["ifeval-fc"], help="ifeval-fc: the IFEval-FC repository's data/ folder")
    convert.add_argument("folder")
    convert.add_argument("--out", required=True, help="the rows .jsonl to write (then: ifforge evaluate OUT)")
    convert.set_defaults(run=_convert)

    compare_parser = commands.add_parser("compare", help="several models' reports side by side")
    compare_parser.add_argument("reports", nargs="+", help="eval folders or report.json files")
    compare_parser.set_defaults(run=_compare)

    server = commands.add_parser("server", help="the Prefect server and UI on 127.0.0.1 (offline, sqlite)")
    server.add_argument("--port", type=_port, default=4200, help="port (default 4200); later runs find it on any port")
    server.set_defaults(run=_server)

    deploy = commands.add_parser("deploy", help="serve the generate and evaluate deployments (needs `ifforge server`)")
    deploy.set_defaults(run=_deploy)

    watch_parser = commands.add_parser("watch", help="regenerate when seed files are added or changed")
    watch_parser.add_argument("seeds", help="seed folder to watch")
    watch_parser.add_argument("--interval", type=float, default=2.0, help="seconds between looks")
    watch_parser.add_argument("--local", action="store_true", help="run in this process even when a server is up")
    watch_parser.add_argument("--now", action="store_true", help="also run once at start")
    watch_parser.add_argument("--once", action="store_true", help="stop after the first run")
    watch_parser.add_argument("--set", action="append", type=_parse_option, metavar="KEY=VALUE")
    watch_parser.set_defaults(run=_watch)

    review = commands.add_parser("review", help="human verification page for a benchmark version")
    review.add_argument("version", help="a version folder, or a benchmark folder (its LATEST)")
    review.add_argument("--host", default="127.0.0.1", help="address to serve on (default: this machine only)")
    review.add_argument("--port", type=_port, default=0, help="port (default: a free one)")
    review.add_argument("--stats", action="store_true", help="print coverage and inter-reviewer agreement")
    review.add_argument("--json", action="store_true", help="with --stats: the statistics as JSON")
    review.set_defaults(run=_review)

    export = commands.add_parser("export", help="a reviewed subset (jsonl), or an inspect-ai / lm-eval / datasets export")
    export.add_argument("version", help="a version folder, a benchmark folder (its LATEST) or a rows .jsonl")
    export.add_argument("--format", choices=["jsonl", "inspect", "lm-eval", "hf"], default="jsonl",
                        help="jsonl: the verified rows; inspect: an inspect-ai task; lm-eval: an "
                             "lm-evaluation-harness task; hf: a Hugging Face datasets folder with a card")
    export.add_argument("--verified-only", action="store_true", help="only items every reviewer marked faithful")
    export.add_argument("--min-reviewers", type=int, default=1, metavar="N",
                        help="with --verified-only: only items at least N people reviewed (default 1)")
    export.add_argument("--split", choices=["full", "mini"], default="full")
    export.add_argument("--expressions", default="original", help="LogicIF: original, all, or ids (e.g. e1,e2)")
    export.add_argument("--out", help="output file (jsonl) or folder (default: <version>/benchmark_verified.jsonl, "
                                      "<version>/exports/<format>/)")
    export.set_defaults(run=_export)

    llm = commands.add_parser("llm", help="local model serving").add_subparsers(dest="llm_command", required=True)
    serve = llm.add_parser("serve", help="llama.cpp's OpenAI-compatible server on 127.0.0.1 (extra: ifforge[local])")
    serve.add_argument("--model", required=True, help="a GGUF file, or gemma3-270m (from its PyPI package)")
    serve.add_argument("--port", type=_port, help="port (default: a free one)")
    serve.add_argument("--chat-format", help="llama.cpp chat format, when the GGUF does not carry a template")
    serve.add_argument("--n-ctx", type=int, default=8192, help="context size")
    serve.set_defaults(run=_llm_serve)

    batch = commands.add_parser("batch", help="Batch API batches submitted by `generate --set llm_batch=true`")
    batch.add_argument("batch_command", choices=["list", "cancel"], help="list the pending batches, or cancel them")
    batch.add_argument("--out", default="outputs", help="outputs root of the run (default: outputs)")
    batch.add_argument("--llm-cache", help="the run's response cache, if not <out>/.llm_cache.sqlite")
    batch.set_defaults(run=_batch)

    complexity = commands.add_parser("complexity", help="complexity metrics per function of a .py or .jsonl file")
    complexity.add_argument("file")
    complexity.set_defaults(run=_complexity)
    return parser


def main(argv: list[str] | None = None) -> int:
    import signal

    args = build_parser().parse_args(argv)
    # a TERM (from `timeout`, a supervisor, CI) unwinds like Ctrl-C, so child servers are stopped too
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
