"""`ifforge llm serve`: llama.cpp's OpenAI-compatible server on 127.0.0.1, up until Ctrl-C."""

from __future__ import annotations

import argparse

from ifforge.cli.common import port, serve_until_stopped


def register(commands) -> None:
    llm = commands.add_parser("llm", help="local model serving").add_subparsers(dest="llm_command", required=True)
    serve = llm.add_parser("serve", help="llama.cpp's OpenAI-compatible server on 127.0.0.1 (extra: ifforge[local])")
    serve.add_argument("--model", required=True, help="a GGUF file, or gemma3-270m (from its PyPI package)")
    serve.add_argument("--port", type=port, help="port (default: a free one)")
    serve.add_argument("--chat-format", help="llama.cpp chat format, when the GGUF does not carry a template")
    serve.add_argument("--n-ctx", type=int, default=8192, help="context size")
    serve.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    from ifforge.core.llm.local import LocalServer

    return serve_until_stopped(
        lambda: LocalServer(args.model, port=args.port, chat_format=args.chat_format, context=args.n_ctx),
        lambda server: (f"serving {server.model_name} at {server.url}  (OPENAI_BASE_URL={server.url} "
                        f"IFFORGE_MODEL={server.model_name}); Ctrl-C stops it"))
