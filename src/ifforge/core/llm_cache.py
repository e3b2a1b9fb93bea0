"""Replies already paid for: a persistent response cache (sqlite), keyed by everything that decides
a reply, so a re-run (of generate or evaluate, even after a crash) sends no request it sent before."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ifforge.core.llm_client import LLMConfig


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
        """(reply text, prompt tokens, completion tokens, extra: tool calls and finish reason)."""
        with self._lock:
            row = self._db.execute("SELECT reply, prompt_tokens, completion_tokens, extra FROM replies WHERE key = ?",
                                   (key,)).fetchone()
        return (row[0], row[1], row[2], json.loads(row[3]) if row[3] else {}) if row else None

    def put(self, key: str, model: str, reply: str, prompt_tokens: int, completion_tokens: int,
            extra: dict[str, Any] | None = None) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO replies (key, model, reply, prompt_tokens, completion_tokens, "
                             "created, extra) VALUES (?, ?, ?, ?, ?, ?, ?)",
                             (key, model, reply, prompt_tokens, completion_tokens, time.time(),
                              json.dumps(extra) if extra else None))
            self._db.commit()

    def close(self) -> None:
        with self._lock:
            self._db.close()



def request_key(config: LLMConfig, messages: list[dict[str, Any]], schema: dict | None, prompt_versions: dict[str, str],
                tools: list[dict] | None = None, tool_choice: Any = None) -> str:
    """Everything that decides the reply: model, messages, parameters, format, tools, prompts and
    the server (the same model name on another server is another model)."""
    payload = {"model": config.model, "messages": messages, "parameters": config.generation_parameters(),
               "schema": schema, "json_mode": config.json_mode if schema else None, "prompts": prompt_versions}
    if tools is not None or tool_choice is not None:
        payload |= {"tools": tools, "tool_choice": tool_choice}
    if config.base_url:
        payload["server"] = config.base_url.rstrip("/")
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
