"""What several commands share: option types, the one-line error exit, Prefect's temporary port,
and serving a child server until Ctrl-C."""

from __future__ import annotations

import argparse
import json
import sys


def fail(message: object, code: int = 2) -> int:
    """Say what went wrong in one line on stderr; the exit code to return (2: bad input)."""
    print(f"ifforge: {message}", file=sys.stderr)
    return code


def key_value(text: str) -> tuple[str, object]:
    """`--set KEY=VALUE`: the value as JSON when it is JSON, else as text."""
    key, separator, value = text.partition("=")
    if not separator:
        raise argparse.ArgumentTypeError(f"--set expects KEY=VALUE, got {text!r}")
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = value
    return key.strip().replace("-", "_"), parsed


def seconds(text: str) -> float:
    """A duration from the command line: a number of seconds above 0, or one clear argparse error."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text} is not a duration (a number of seconds above 0)")
    return value


def port(text: str) -> int:
    """A TCP port from the command line: 0 (any free one) to 65535, or one clear argparse error."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"{number} is not a port (0 to 65535)")
    return number


def add_temp_port(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--temp-port", type=port, metavar="PORT",
                        help="port of Prefect's temporary server when no `ifforge server` is up (default: random)")


def use_temp_port(args: argparse.Namespace) -> int:
    """`--temp-port P`: the port of Prefect's temporary server, checked before anything starts;
    0, or 2 when the port is busy (said on stderr)."""
    import os

    from ifforge.core.prefect.env import TEMP_PORT_VARIABLE, port_free

    if args.temp_port is None:
        return 0
    if not port_free(args.temp_port):
        return fail(f"port {args.temp_port} for Prefect's temporary server is busy; choose another with --temp-port")
    os.environ[TEMP_PORT_VARIABLE] = str(args.temp_port)
    return 0


def serve_until_stopped(start, banner) -> int:
    """Run a child server (`start()` makes it) until it exits or Ctrl-C / TERM stops it."""
    import time

    from ifforge.core.child_server import ChildServerError

    try:
        with start() as server:
            print(banner(server), flush=True)
            while server.process.poll() is None:
                time.sleep(0.5)
            return fail(f"the {server.label} exited with {server.process.returncode}", 1)
    except ChildServerError as error:
        return fail(error)
    except KeyboardInterrupt:
        return 0
