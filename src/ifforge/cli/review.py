"""`ifforge review`: serve the review page (or print review statistics) for one benchmark version."""

from __future__ import annotations

import argparse
import json

from ifforge.cli.common import fail, port


def register(commands) -> None:
    parser = commands.add_parser("review", help="human verification page for a benchmark version")
    parser.add_argument("version", help="a version folder, or a benchmark folder (its LATEST)")
    parser.add_argument("--host", default="127.0.0.1", help="address to serve on (default: this machine only)")
    parser.add_argument("--port", type=port, default=0, help="port (default: a free one)")
    parser.add_argument("--stats", action="store_true", help="print coverage and inter-reviewer agreement")
    parser.add_argument("--json", action="store_true", help="with --stats: the statistics as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import time

    from ifforge.core.store.versions import latest_version
    from ifforge.review import ReviewServer, format_stats, review_stats

    version = latest_version(args.version)
    if not (version / "benchmark.jsonl").exists():
        return fail(f"{version}: no benchmark.jsonl (give a version folder or a benchmark folder)")
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
        return fail(error)
    except KeyboardInterrupt:
        return 0
