"""`ifforge ...`: one module per command, each adding its own subparser with `register(commands)`.

A command module parses its options and calls the module that owns the idea; it holds no logic
of its own. Prefect and the heavy libraries are imported only by the commands that need them.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import gc
import os
import signal
import sys
import threading

from ifforge.cli import (
    batch,
    card,
    compare,
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
    view,
    watch,
)
from ifforge.cli.common import fail
from ifforge.core.untrusted import InputError
from ifforge.families import command_modules

COMMANDS = (families, generate, evaluate, score, view, convert, compare, server, deploy, watch, review, export, llm,
            batch, card)  # in the order `ifforge --help` lists them, before the commands families add


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
    for module in command_modules():  # a family's own commands (`Entry.commands`), from the registry
        importlib.import_module(module).register(commands)
    return parser


_SIGNALLED: list[int] = []  # the signals that asked this command to stop
_STOPPED: list[int] = []  # the exit status a command a signal stopped announced


def _stop(signum: int, frame) -> None:
    """Ctrl-C or TERM: cancel the LLM requests in flight (a reply can take minutes; the run must not
    wait for it), then unwind, so child servers are stopped too. What was answered is cached."""
    _SIGNALLED.append(signum)
    # not imported, or still being imported when the signal came: no request was ever sent
    stop_requests = getattr(sys.modules.get("ifforge.core.llm.client"), "stop_requests", None)
    if stop_requests is not None:
        stop_requests()
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    sys.exit(128 + signum)


def _last_at_exit() -> None:
    """After the exit handlers registered later (Prefect's, ours) have run; files and servers are
    closed by then. Python's last garbage collection would walk every object Prefect, pandas and
    the flow left (1.5 s after an evaluate's last line, on 2 cores) only to free memory the process
    is about to give back: frozen objects are left out of it. And a command a signal stopped ends
    here with the status it announced (130 or 143): past this point Python at times ended such a
    process by SIGINT itself, after the "stopped" line (a parent saw -2, not 130: a Ctrl-C test
    failed that way in 2 of 2 full runs, not once in 20 runs alone); where from is not known."""
    gc.freeze()
    if _STOPPED:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # closed, or a reader gone
                pass
        os._exit(_STOPPED[0])


def _register_last_at_exit() -> None:
    atexit.unregister(_last_at_exit)  # once, however often `main` is called in one process
    atexit.register(_last_at_exit)


def main(argv: list[str] | None = None) -> int:
    _register_last_at_exit()
    args = build_parser().parse_args(argv)
    if threading.current_thread() is threading.main_thread():  # signal handlers can only be set there
        signal.signal(signal.SIGTERM, _stop)  # from `timeout`, a supervisor, CI
        signal.signal(signal.SIGINT, _stop)
    try:
        return args.run(args)
    except BrokenPipeError:  # `ifforge ... | head` closed the pipe: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 0
    except KeyboardInterrupt:
        code = 128 + signal.SIGINT
    except SystemExit as stop:
        if stop.code != 128 + signal.SIGTERM:
            raise
        code = stop.code
    except InputError as error:  # a message for the user wherever it was raised (a LATEST naming no version, ...)
        return fail(error)
    except Exception as error:
        from ifforge.core.store.versions import disk_full, out_of_space

        if not _SIGNALLED and out_of_space(error):  # a full disk under any writer: one line, not a traceback
            return fail(disk_full(error))
        if not _SIGNALLED:
            raise
        # code the signal met may wrap its KeyboardInterrupt in an error of its own (pydantic's
        # serializer, while Prefect imports): the command was still asked to stop
        code = 128 + _SIGNALLED[0]
    if args.command in ("generate", "evaluate"):
        print(f"ifforge: {args.command} stopped; what was answered is cached: run the same command again to "
              "resume", file=sys.stderr)
    if _SIGNALLED:  # a real signal: this process ends with the status it says (see _last_at_exit)
        _STOPPED.append(code)
    return code
