"""`ifforge ...`: one module per command, each adding its own subparser with `register(commands)`.

A command module parses its options and calls the module that owns the idea; it holds no logic
of its own. Prefect and the heavy libraries are imported only by the commands that need them.
"""

from __future__ import annotations

import argparse
import sys

from ifforge.cli import (
    batch,
    compare,
    complexity,
    convert,
    deploy,
    evaluate,
    export,
    families,
    generate,
    llm,
    review,
    score,
    server,
    watch,
)

COMMANDS = (families, generate, evaluate, score, convert, compare, server, deploy, watch, review, export, llm, batch,
            complexity)  # in the order `ifforge --help` lists them


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ifforge")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ifforge", description="Verifiable instruction-following benchmarks.")
    parser.add_argument("--version", action="version", version=f"ifforge {_version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.register(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    import signal

    args = build_parser().parse_args(argv)
    # a TERM (from `timeout`, a supervisor, CI) unwinds like Ctrl-C, so child servers are stopped too
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    return args.run(args)
