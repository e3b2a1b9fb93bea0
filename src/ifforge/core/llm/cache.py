"""Replies already paid for: a persistent response cache (sqlite), keyed by everything that decides
a reply, so a re-run (of generate or evaluate, even after a crash) sends no request it sent before.

A cache is a file anyone can write, and evaluate keeps its own in the version folder, which is
shipped with a benchmark: a `.llm_cache.sqlite` planted there with right answers once decided a
score with no request sent. So the key is an HMAC under this install's secret (`install_secret`,
in ifforge's folder of the user's cache, never in the outputs): a cache another install wrote,
or one written by hand, holds no key this install asks for, and every request goes to the server.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import sqlite3
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from ifforge.core.llm.config import LLMConfig
from ifforge.core.store.versions import user_cache_dir

log = logging.getLogger(__name__)
SECRET_FILE = "install-secret"  # in `store.user_cache_dir()`
_SECRETS: dict[str, bytes] = {}  # per folder: read once a process


class ResponseCache:
    """Replies by request hash in sqlite; each write commits at once, so a crash of the process loses
    nothing. WAL with synchronous=NORMAL: commits do not wait for the disk (they run on the event
    loop that serves every request of the run), so a power cut may lose the last few replies."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, model TEXT, reply TEXT, "
                         "prompt_tokens INTEGER, completion_tokens INTEGER, created REAL)")
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(replies)")}
        if "extra" not in columns:  # caches written before tool calls were kept still open
            self._db.execute("ALTER TABLE replies ADD COLUMN extra TEXT")
        self._db.commit()

    def get(self, key: str) -> tuple[str, int, int, dict[str, Any]] | None:
        """(reply text, prompt tokens, completion tokens, extra: tool calls and finish reason), as
        stored: `reply.read_cached` reads its fields. An `extra` that is not JSON is a miss."""
        with self._lock:
            row = self._db.execute("SELECT reply, prompt_tokens, completion_tokens, extra FROM replies WHERE key = ?",
                                   (key,)).fetchone()
        if row is None:
            return None
        try:
            return row[0], row[1], row[2], json.loads(row[3]) if row[3] else {}
        except (ValueError, TypeError, RecursionError):
            return None

    def put(self, key: str, model: str, reply: str, prompt_tokens: int, completion_tokens: int,
            extra: dict[str, Any] | None = None) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO replies (key, model, reply, prompt_tokens, completion_tokens, "
                             "created, extra) VALUES (?, ?, ?, ?, ?, ?, ?)",
                             (key, model, reply, prompt_tokens, completion_tokens, time.time(),
                              json.dumps(extra, ensure_ascii=False) if extra else None))
            self._db.commit()

    def close(self) -> None:
        with self._lock:
            self._db.close()



def server_of(config: LLMConfig) -> str:
    """The server a config's requests go to, as `openai` finds it (OPENAI_BASE_URL when none is set)."""
    return (config.base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1").rstrip("/")


def install_secret() -> bytes:
    """This install's cache secret: 32 random bytes in `<user cache dir>/install-secret` (mode
    0600), made once (linked into place, so two runs starting together agree on one). Without a
    folder to keep it in, a secret of this process: its cache then answers only its own requests."""
    folder = user_cache_dir()
    if str(folder) in _SECRETS:
        return _SECRETS[str(folder)]
    secret = secrets.token_bytes(32)
    try:
        if folder is None:
            raise OSError("no home folder")
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / SECRET_FILE
        if not path.exists():
            fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{SECRET_FILE}-")
            try:
                os.write(fd, secret.hex().encode())
                os.close(fd)
                os.link(temporary, path)
            except FileExistsError:
                pass  # another run made it first: use its secret
            finally:
                os.unlink(temporary)
        try:
            stored = bytes.fromhex(path.read_text().strip())
        except ValueError:
            stored = b""
        if len(stored) < 16:
            raise ValueError(f"{path} holds no secret ifforge made: delete it, and a new one is made")
        secret = stored
    except (OSError, ValueError) as error:
        log.warning("no install secret for the LLM response cache (%s): replies are reused within this run only",
                    error)
    _SECRETS[str(folder)] = secret
    return secret


def request_key(config: LLMConfig, messages: list[dict[str, Any]], schema: dict | None, prompt_versions: dict[str, str],
                tools: list[dict] | None = None, tool_choice: Any = None) -> str:
    """Everything that decides the reply: model, messages, parameters, format, tools, prompts and
    the server (the same model name on another server is another model), signed with this
    install's secret (a cache written elsewhere answers nothing here)."""
    payload = {"model": config.model, "messages": messages, "parameters": config.generation_parameters(),
               "schema": schema, "json_mode": config.json_mode if schema else None, "prompts": prompt_versions,
               "server": server_of(config)}
    if tools is not None or tool_choice is not None:
        payload |= {"tools": tools, "tool_choice": tool_choice}
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8", "surrogatepass")
    return hmac.new(install_secret(), text, hashlib.sha256).hexdigest()
