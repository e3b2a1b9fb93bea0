"""What several commands share: option types, the one-line error exit, Prefect's temporary port,
and serving a child server until Ctrl-C."""

from __future__ import annotations

import argparse
import json
import sys
from typing import get_args


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


def add_family_options(parser: argparse.ArgumentParser, command: str) -> None:
    """A flag for every option a family offers `command` (`families.options`), built from the
    registry without importing any family's code: one flag per name, its choices those of every
    family that has it, its help the family's (each family's, where they differ)."""
    from ifforge.families import FAMILIES, options_of
    from ifforge.families.options import choices, commands_of, flag

    offered: dict[str, list[tuple[str, type]]] = {}
    for family_id in FAMILIES:
        options = options_of(family_id)
        for name in options.model_fields:
            if command in commands_of(options, name):
                offered.setdefault(name, []).append((family_id, options))
    group = parser.add_argument_group("the family's options", "each for the families named (`ifforge families`)")
    for name, owners in offered.items():
        helps: dict[str, list[str]] = {}
        for family_id, options in owners:
            helps.setdefault(options.model_fields[name].description or "", []).append(family_id)
        shown = "; ".join(text if len(helps) == 1 else f"{', '.join(ids)}: {text}" for text, ids in helps.items())
        allowed = list(dict.fromkeys(value for _, options in owners for value in choices(options, name)))
        kind = owners[0][1].model_fields[name].annotation
        if kind is bool:
            group.add_argument(flag(name), dest=name, action="store_true", default=None, help=shown)
        else:
            inner = [arg for arg in get_args(kind) if arg is not type(None)] or [kind]  # `int | None`: int
            group.add_argument(flag(name), dest=name, choices=allowed or None, help=shown,
                               type=str if allowed else inner[0])
    parser.set_defaults(family_options=tuple(offered))


def family_options_given(args: argparse.Namespace) -> dict:
    """The family options given on the command line, by name (those not given are left out)."""
    return {name: getattr(args, name) for name in getattr(args, "family_options", ())
            if getattr(args, name) is not None}
