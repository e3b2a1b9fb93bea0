"""`ifforge server`: the Prefect server and UI on 127.0.0.1 until Ctrl-C; flows started meanwhile
report to it."""

from __future__ import annotations

import argparse

from ifforge.cli.common import port, serve_until_stopped


def register(commands) -> None:
    parser = commands.add_parser("server", help="the Prefect server and UI on 127.0.0.1 (offline, sqlite)")
    parser.add_argument("--port", type=port, default=4200, help="port (default 4200); later runs find it on any port")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import os

    from ifforge.core.prefect.env import prefect_home
    from ifforge.core.prefect.server import PrefectServer

    os.environ.setdefault("PREFECT_HOME", str(prefect_home()))  # the project's, where later runs look for it
    return serve_until_stopped(lambda: PrefectServer(args.port), lambda server: (
        f"Prefect UI: {server.ui_url}   (API {server.api_url}; flows started now report here). Ctrl-C stops it."))
