"""Asking a model every row of a benchmark, for any family: one client for the run (cached per
request, bounded, retried), results in row order, and a request that still fails recorded as a
failure (`request_failed`, `error`), never as an answer. Families say what they carry and how one
row is asked; `write_results` keeps every raw reply and the verdicts beside the report."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pandas as pd

from ifforge.core.llm_cache import ResponseCache
from ifforge.core.llm_client import LLM, LLMError
from ifforge.core.store import atomic_path, atomic_write

Row = dict[str, Any]


def user_messages(text: str, system: str | None) -> list[dict[str, str]]:
    """One user prompt, after the run's system prompt when it has one."""
    return ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": text}]


def usage(*replies) -> Row:
    """Tokens and cache hits of a row's replies (several in a chat), for the run's totals and cost."""
    return {"prompt_tokens": sum(r.prompt_tokens or 0 for r in replies),
            "completion_tokens": sum(r.completion_tokens or 0 for r in replies),
            "cached": all(r.cached for r in replies)}


async def ask_prompt(llm: LLM, row: Row, system: str | None) -> Row:
    """A one-prompt row (`prompt`): its reply's text and usage."""
    reply = await llm.chat(user_messages(row["prompt"], system), stage="evaluate")
    return {"response": reply.text, **usage(reply)}


async def ask_rows(rows: list[Row], settings, cache_path: Path | None,
                   carry: Callable[[Row], Row], ask: Callable[[LLM, Row], Awaitable[Row]],
                   failed: Row | None = None, on_done: Callable[[], None] | None = None) -> list[Row]:
    """`carry(row)` (what the scorer needs of the row) merged with `ask(llm, row)` (the reply's
    fields), or with `failed` and the error when the request failed after its retries."""
    cache = None if settings.no_cache or cache_path is None else ResponseCache(cache_path)
    llm = LLM(settings.llm_config(), cache)

    async def one(row: Row) -> Row:
        result = carry(row)
        try:
            result |= {**await ask(llm, row), "request_failed": False}
        except LLMError as error:
            result |= {**(failed or {}), "request_failed": True, "error": str(error)}
        if on_done:
            on_done()
        return result

    try:
        return list(await asyncio.gather(*(one(row) for row in rows)))
    finally:
        await llm.close()
        if cache is not None:
            cache.close()


def write_results(folder: Path, results: list[Row], frame: pd.DataFrame) -> None:
    """Every raw reply (`responses.jsonl`) and every verdict (`scores.parquet`), each written whole."""
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(folder / "responses.jsonl", "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in results))
    with atomic_path(folder / "scores.parquet") as temporary:
        frame.to_parquet(temporary, index=False)
