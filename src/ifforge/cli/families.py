"""`ifforge families`: one line per family: its id and what a sample is."""

from __future__ import annotations

import argparse


def register(commands) -> None:
    parser = commands.add_parser("families", help="list the benchmark families, one line each")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ifforge.families import FAMILIES

    for entry in FAMILIES.values():
        print(f"{entry.id:<10} {entry.title}")
    return 0
