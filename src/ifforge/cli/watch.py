"""`ifforge watch`: regenerate when seed files are added or changed (see `ifforge.watch`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ifforge.cli.common import fail, key_value


def register(commands) -> None:
    parser = commands.add_parser("watch", help="regenerate when seed files are added or changed")
    parser.add_argument("seeds", help="seed folder to watch")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between looks")
    parser.add_argument("--local", action="store_true", help="run in this process even when a server is up")
    parser.add_argument("--now", action="store_true", help="also run once at start")
    parser.add_argument("--once", action="store_true", help="stop after the first run")
    parser.add_argument("--set", action="append", type=key_value, metavar="KEY=VALUE")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ifforge.watch import ended, trigger, watch

    folder = Path(args.seeds)
    if not folder.is_dir():
        return fail(f"{folder}: seed folder not found")
    options = dict(args.set or [])

    def on_change(summary: str) -> None:
        print(f"ifforge watch: {summary}", flush=True)
        started = trigger(folder, options, local=args.local)
        print(f"ifforge watch: {started.message}", flush=True)
        if started.flow_run_id:  # it runs elsewhere: say how it ended before watching on
            print(f"ifforge watch: {ended(started.flow_run_id)}", flush=True)

    print(f"ifforge watch: watching {folder} (Ctrl-C stops)", flush=True)
    try:
        watch(folder, on_change, interval=args.interval, run_first=args.now, max_runs=1 if args.once else None)
    except KeyboardInterrupt:
        pass
    return 0
