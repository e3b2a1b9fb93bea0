"""`ifforge batch list|cancel`: the Batch API batches a run has submitted and not yet saved."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ifforge.cli.common import fail


def register(commands) -> None:
    parser = commands.add_parser("batch", help="Batch API batches submitted by `generate --set llm_batch=true`")
    parser.add_argument("batch_command", choices=["list", "cancel"], help="list the pending batches, or cancel them")
    parser.add_argument("--out", default="outputs", help="outputs root of the run (default: outputs)")
    parser.add_argument("--llm-cache", help="the run's response cache, if not <out>/.llm_cache.sqlite")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import os

    import openai

    from ifforge.core.llm import batch as llm_batch
    from ifforge.core.untrusted import InputError

    cache = Path(args.llm_cache) if args.llm_cache else Path(args.out) / ".llm_cache.sqlite"
    folder = llm_batch.batch_folder(cache)
    try:
        batches = llm_batch.pending(folder) if folder.is_dir() else []
        if not batches:
            print(f"ifforge: no pending batches in {folder}", file=sys.stderr)
            return 0
        if args.batch_command == "list":
            for path, state in batches:
                print(f"{state['batch_id']}\t{state.get('stage')}\t{state.get('requests')} requests\t"
                      f"{state.get('base_url') or 'OpenAI'}\t{path}")
            return 0
        for batch_id, status in llm_batch.cancel(folder, os.environ.get("OPENAI_API_KEY")):
            print(f"{batch_id}\t{status}")
    except (InputError, openai.OpenAIError) as error:
        return fail(error)
    return 0
