"""`ifforge view`: write a run's sample viewer again (`samples.html`: every row sent, replied and
judged, with filters) and print its path; `--serve` also serves it on this machine."""

from __future__ import annotations

import argparse
from pathlib import Path

from ifforge.cli.common import fail, port


def register(commands) -> None:
    parser = commands.add_parser("view", help="a run's sample viewer: every row's prompt, reply, gold and verdict")
    parser.add_argument("folder", metavar="RUN_FOLDER", help="an evaluation's run folder (evals/MODEL/rNNN), a model's folder (its latest "
                                    "run) or an `ifforge score` output folder")
    parser.add_argument("--serve", action="store_true", help="also serve it on http://127.0.0.1 until Ctrl-C")
    parser.add_argument("--port", type=port, default=0, help="with --serve: the port (default: a free one)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ifforge.eval.evaluation import BenchmarkError
    from ifforge.eval.viewer import rebuild, serving

    try:
        path = rebuild(Path(args.folder))
        print(path, flush=True)
        if not args.serve:
            return 0
        server = serving(path, args.port)
    except BenchmarkError as error:
        return fail(error)
    print(f"serving it on http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
