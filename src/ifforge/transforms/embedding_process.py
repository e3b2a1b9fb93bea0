"""The embedding model in a process of its own, asked over a pipe.

Importing sentence-transformers and torch and loading the model take 5 to 13 s of CPU, mostly
Python holding the GIL: in the run's process that competed with importing Prefect and starting its
temporary server, and the run's process held torch's memory for the whole run. Here the model
loads on the other core while the run starts, and the run's process never imports torch. Texts go
in and float32 vectors come back, the same `encode` call as in-process; the process ends when its
pipe closes (the run ended, or died).

Run as `python -m ifforge.transforms.embedding_process MODEL_FOLDER` by `ModelProcess`.
"""

from __future__ import annotations

import atexit
import os
import pickle
import subprocess
import sys
import threading

import numpy as np

from ifforge.core.workers import end_child, read_frame, write_frame


class ModelProcessError(RuntimeError):
    """The model could not be loaded or asked (the message says why), or its process died."""


def _write(stream, value) -> None:
    write_frame(stream, pickle.dumps(value))


def _read(stream):
    payload = read_frame(stream)
    return None if payload is None else pickle.loads(payload)


class ModelProcess:
    """A sentence-transformers model at `path`, loading in a child process from the moment this is
    made; `encode` waits for the load. One request at a time (callers share it across threads)."""

    def __init__(self, path: str):
        # offline: a model comes from local files only, never a hub; no progress bar per tensor in a run's log
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p), "HF_HUB_OFFLINE": "1",
               "TRANSFORMERS_OFFLINE": "1", "HF_HUB_DISABLE_PROGRESS_BARS": "1"}
        self.path = path
        self.process = subprocess.Popen([sys.executable, "-m", "ifforge.transforms.embedding_process", path],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, close_fds=True)
        self._lock = threading.Lock()
        atexit.register(self.close)

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """Unit-length float32 vectors, one row per text (normalised, as numpy: the only way asked)."""
        with self._lock:
            try:
                _write(self.process.stdin, (list(texts), batch_size))
                reply = _read(self.process.stdout)
            except (OSError, ValueError):
                reply = None
            if reply is None:
                raise ModelProcessError(f"the embedding model's process for {self.path} ended "
                                        f"(exit status {self.process.poll()})")
        status, value = reply
        if status != "ok":
            raise ModelProcessError(value)
        data, shape = value
        return np.frombuffer(data, dtype=np.float32).reshape(shape)

    def close(self) -> None:
        end_child(self.process)


def _serve(path: str) -> None:
    requests, replies = sys.stdin.buffer, os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # whatever a library prints goes to stderr, never into the pipe
    sys.stdout = sys.stderr
    model, failure = None, None
    try:
        # lazy on purpose: torch underneath (seconds), in the model's own process
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()
        transformers_logging.set_verbosity_error()
        model = SentenceTransformer(path, device="cpu", local_files_only=True)
    except Exception as error:  # noqa: BLE001 - sent to the caller, which raises it with the model's path
        failure = f"{path}: the embedding model could not be loaded ({type(error).__name__}: {error})"
    while (request := _read(requests)) is not None:
        if model is None:
            _write(replies, ("error", failure))
            continue
        texts, batch_size = request
        try:
            vectors = model.encode(texts, batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True,
                                   show_progress_bar=False).astype(np.float32)
            _write(replies, ("ok", (vectors.tobytes(), vectors.shape)))
        except Exception as error:  # noqa: BLE001
            _write(replies, ("error", f"{path}: embedding failed ({type(error).__name__}: {error})"))


if __name__ == "__main__":
    _serve(sys.argv[1])
