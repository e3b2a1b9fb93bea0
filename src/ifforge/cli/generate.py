"""`ifforge generate`: the generate flow, from seeds (or LogicIF's files) to a benchmark version.

Settings, the LLM setup, the input paths and the output folder are checked before Prefect starts,
so a typo costs no server start-up. The settings are parsed once, here: the run built from them
(`generation.run.GenerateRun`) is handed to the flow, which parses, plans and loads nothing again.
With no Prefect server up, a run whose seeds and settings match a finished version returns it
without starting Prefect at all (with one up, the run is recorded there as usual). With `--llm
local` the run asks a llama.cpp server started for it and stopped after it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ifforge.cli.common import add_temp_port, fail, key_value, seconds, use_temp_port


def register(commands) -> None:
    parser = commands.add_parser("generate", help="run the generate flow (seeds -> benchmark version)")
    parser.add_argument("--family", help="benchmark family (default: logicif; `ifforge families` lists them)")
    parser.add_argument("--seeds", help="LogicIF: folder of seed .py files (default: the seeds shipped with ifforge)")
    parser.add_argument("--functions", help="LogicIF functions JSONL: {task_id, function} per line")
    parser.add_argument("--test-cases", help="LogicIF test cases JSONL: {task_id, test_cases} per line (optional: "
                                             "functions without test cases get generated inputs)")
    parser.add_argument("--out", help="outputs root (default: outputs)")
    parser.add_argument("--benchmark",
                        help="benchmark name, the folder under the outputs root (default: the family id)")
    parser.add_argument("--config", type=Path, help="settings file (default: ./ifforge.toml when present)")
    parser.add_argument("--set", action="append", type=key_value, metavar="KEY=VALUE",
                        help="any setting, e.g. --set min_cases=4 --set max_input_magnitude=1e5")
    parser.add_argument("--llm", choices=["auto", "none", "openai", "local"],
                        help="auto (default): LLM stages when a model and server are configured; none: offline; "
                             "local: start llama.cpp on --model FILE.gguf")
    parser.add_argument("--model", help="model name (or a GGUF file / gemma3-270m with --llm local)")
    parser.add_argument("--base-url", help="OpenAI-compatible server (default: OPENAI_BASE_URL)")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the LLM response cache")
    parser.add_argument("--timeout", type=seconds, metavar="SECONDS",
                        help="seconds one LLM request may take in all (setting llm_timeout; default 120, "
                             "1800 with --llm local)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    add_temp_port(parser)
    parser.set_defaults(run=run)


def options_of(args: argparse.Namespace) -> dict:
    """The flow's `options`: every `--set`, with the dedicated flags on top."""
    options = dict(args.set or [])
    for flag in ("llm", "model", "base_url"):
        if getattr(args, flag) is not None:
            options[flag] = getattr(args, flag)
    if args.no_cache:
        options["no_cache"] = True
    if args.timeout is not None:
        options["llm_timeout"] = args.timeout
    if args.no_progress:
        options["progress"] = False
    return options


def run(args: argparse.Namespace) -> int:
    from ifforge.core.llm.setup import LLMSetupError, resolve_llm
    from ifforge.core.settings import SettingsError
    from ifforge.families import get_family, load_family_settings

    options = options_of(args)
    local = options.get("llm") == "local"
    if local:  # the model is a file to serve: the run itself talks to that server over OpenAI's API
        if not options.get("model"):
            return fail("--llm local needs --model FILE.gguf (or gemma3-270m)")
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
        return fail(error)
    if use_temp_port(args):
        return 2
    from ifforge.core.untrusted import InputError, check_out_dir

    try:  # the inputs' paths and the output folder, before Prefect starts or anything is written
        get_family(settings.family).check_inputs(settings)
        check_out_dir(settings.out)
    except InputError as error:
        return fail(error)
    parameters = {"family": settings.family, "out": args.out, "benchmark": args.benchmark, "options": options,
                  "config": str(args.config) if args.config else None}  # the flow's, as the UI shows them
    from ifforge.core.store.runlock import Busy, writing

    try:  # one run at a time writes a benchmark folder: a second one stops here, before Prefect starts
        with writing(settings.benchmark_root):
            return _run_local(settings, parameters) if local else _generate(settings, parameters)
    except Busy as error:
        return fail(error)


def _generate(settings, parameters: dict) -> int:
    """The run itself, under the benchmark folder's lock: an unchanged version found without Prefect,
    else the flow, handed the run prepared here."""
    from ifforge.core.llm.client import LLMFatal
    from ifforge.core.prefect.env import reporting_server
    from ifforge.core.untrusted import InputError
    from ifforge.generation.run import GenerateRun, LostItems

    run = GenerateRun(settings)  # parsed once, planned and loaded at most once: the flow takes it over
    if reporting_server() is None:  # no UI to show a run in: an unchanged re-run need not start Prefect
        try:
            folder = run.finished()
        except InputError as error:
            return fail(error)
        if folder is not None:
            return _done(str(folder), f"nothing changed since {folder.name} (no Prefect server is up, so no "
                                      "flow run was recorded)")
    run.family.warm_up(settings)  # a model loads while Prefect starts
    try:
        folder = _flow_run(run, parameters)
    except InputError as error:
        return fail(error)
    except (LostItems, LLMFatal) as error:  # the run is Failed in Prefect; here, one line
        return fail(error, 1)
    return _done(folder)


def _run_local(settings, parameters: dict) -> int:
    """With `--llm local`: the run asks a llama.cpp server started for it, and stopped after it."""
    from ifforge.core.llm.local import LocalServer, LocalServerError
    from ifforge.core.untrusted import InputError
    from ifforge.generation.run import GenerateRun

    try:
        with LocalServer(str(settings.local_model)) as server:
            print(f"ifforge: local llama.cpp server on {server.url} ({server.model_name})", file=sys.stderr)
            served = {"base_url": server.url, "model": server.model_name}
            parameters["options"].update(served)
            run = GenerateRun(settings.model_copy(update=served))
            run.family.warm_up(run.settings)
            folder = _flow_run(run, parameters)
    except (LocalServerError, InputError) as error:
        return fail(error)
    return _done(folder)


def _flow_run(run, parameters: dict) -> str:
    """The generate flow, handed the prepared run."""
    from ifforge.core.prefect.env import flow_run_settings
    from ifforge.flows.generate import generate
    from ifforge.generation.run import handing_over

    with flow_run_settings(), handing_over(run, parameters):
        return generate(**parameters)


def _done(folder: str, note: str | None = None) -> int:
    from ifforge.generation.artifacts import outcome_line

    if note:
        print(f"ifforge: {note}", file=sys.stderr)
    print(folder)  # stdout: the version's folder, for scripts; stderr, last: what it holds
    print(f"ifforge: {outcome_line(json.loads((Path(folder) / 'manifest.json').read_text()), folder)}", file=sys.stderr)
    return 0
