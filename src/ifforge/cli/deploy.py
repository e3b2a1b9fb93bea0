"""`ifforge deploy`: serve the generate and evaluate deployments to a running `ifforge server`."""

from __future__ import annotations

import argparse

from ifforge.cli.common import fail


def register(commands) -> None:
    parser = commands.add_parser("deploy", help="serve the generate and evaluate deployments (needs `ifforge server`)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ifforge.core.prefect.env import configure

    if not configure():
        return fail("deployments need a running server: start `ifforge server` first")
    from ifforge.flows.serve import main as serve

    try:
        serve()
    except KeyboardInterrupt:
        pass
    return 0
