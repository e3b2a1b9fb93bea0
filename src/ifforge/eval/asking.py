"""Asking a model every row of a benchmark, for any family, through the run's LLM hub (generate's:
`core.llm.hub`), so evaluate has generate's limits, response cache and ledger under the same
setting names. Results come in row order, and a request that still fails is recorded as a failure
(`request_failed`, `error`), never as an answer. A family says what its rows carry and what each
is sent (`Family.request`); `write_results` keeps every raw reply, the verdicts and the calls beside
the report."""

from __future__ import annotations

import asyncio
import json
import threading
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

import pandas as pd

from ifforge.core.llm.client import LLM, LLMError, failure_kind
from ifforge.core.llm.hub import LLMHub
from ifforge.core.store.versions import atomic_path, atomic_write
from ifforge.families.base import Family, Request

Row = dict[str, Any]


def messages_for(request: Request, system_prompt: str | None = None) -> list[dict[str, str]]:
    """A one-turn request's messages: the run's system prompt in place of the row's own, when given."""
    system = system_prompt if system_prompt is not None else request.system
    return ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": request.turns[0]}]


def usage(*replies) -> Row:
    """Tokens and cache hits of a row's replies (several in a chat), for the run's totals and cost;
    and `empty_reply`, why a reply was empty ("empty reply, finish_reason=length"; in a chat, which
    turn): the model's answer all the same, scored as wrong and counted like any other."""
    row = {"prompt_tokens": sum(r.prompt_tokens or 0 for r in replies),
           "completion_tokens": sum(r.completion_tokens or 0 for r in replies),
           "cached": all(r.cached for r in replies)}
    empty = [f"turn {turn}: {r.why_empty}" if len(replies) > 1 else r.why_empty
             for turn, r in enumerate(replies, 1) if r.why_empty]
    return row | ({"empty_reply": "; ".join(empty)} if empty else {})


async def ask(llm: LLM, request: Request, system_prompt: str | None = None) -> Row:
    """One row's reply fields, as `responses.jsonl` keeps them: `response` (a chat: `responses`,
    each turn asked with the model's earlier replies; with tools: its `tool_calls` and
    `finish_reason` too), and usage."""
    if request.chat:
        system = system_prompt if system_prompt is not None else request.system
        replies = await llm.converse(list(request.turns), stage="evaluate", system=system)
        return {"responses": [reply.text for reply in replies], **usage(*replies)}
    reply = await llm.chat(messages_for(request, system_prompt), stage="evaluate", tools=request.tools,
                           tool_choice=request.tool_choice)
    tools = {"tool_calls": list(reply.tool_calls), "finish_reason": reply.finish_reason} if request.tools else {}
    return {"response": reply.text, **tools, **usage(reply)}


def failure_reasons(results: list[Row]) -> dict[str, int]:
    """The failed requests counted by their reason ("timeout", "http 500"), most frequent first."""
    counts = Counter(failure_kind(result.get("error")) for result in results if result.get("request_failed"))
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def reasons_text(reasons: dict[str, int]) -> str:
    """'2 timeout, 1 http 500'."""
    return ", ".join(f"{count} {reason}" for reason, count in reasons.items())


def failures_line(reasons: dict[str, int], total: int) -> str:
    """'3 of 396 requests failed: 2 timeout, 1 http 500' ('' when none failed)."""
    failed = sum(reasons.values())
    return f"{failed} of {total} request{'s' * (total != 1)} failed: {reasons_text(reasons)}" if failed else ""


def failed_fields(request: Request) -> Row:
    """The reply fields a failed request gets in their place: no text, and no call where tools were offered."""
    return {"response": None, **({"tool_calls": []} if request.tools else {})}


T = TypeVar("T")


class Asker:
    """An evaluation's way to its models: one LLM hub for the run, so every model it asks (the
    evaluated one, the extractor, the error analyst) shares one ceiling and rate limit per server
    (`llm_concurrency`, `llm_rpm`, `llm_tpm`), one response cache and one ledger."""

    TAG = "evaluate"  # the ledger's name for the calls of this run

    def __init__(self, settings, cache_path: Path | None):
        self.settings = settings
        self.cache_path = None if settings.no_cache or cache_path is None else Path(cache_path)
        self.hub = LLMHub()

    def llm(self, model: str | None = None, **changes: Any) -> LLM:
        """The run's client for `model` (default: the evaluated one), `changes` made to its config."""
        config = self.settings.config_for(model)
        return self.hub.llm(config.model_copy(update=changes) if changes else config, self.cache_path)

    def run(self, make: Callable[[], Awaitable[T]]) -> T:
        """`make()` on the hub's event loop; blocks for its result."""
        return self.hub.run(make, self.TAG)

    def submit(self, make: Callable[[], Awaitable[T]]) -> Future[T]:
        """`make()` started on the hub's event loop; its future."""
        return self.hub.submit(make, self.TAG)

    def usage(self) -> dict[str, Row]:
        """Usage per stage (evaluate, extract, analyze_errors), with its cost at the prices given."""
        config = self.settings.config_for()
        return {stage: usage.report(config) for stage, usage in sorted(self.hub.ledger.snapshot().items())}

    def calls(self) -> list[Row]:
        """One line per request sent (cache hits are not requests)."""
        return self.hub.calls(self.TAG)

    def __enter__(self) -> Asker:
        return self

    def __exit__(self, *exc) -> None:
        self.hub.close()


def start_asking(rows: list[Row], asker: Asker, family: Family, settings,
                 on_done: Callable[[], None] | None = None) -> Future[list[Row]]:
    """Every row asked as its family's `request` says, started now (up to the ceiling): through the
    future, in row order, what the reply keeps of its row (`Family.carry`) merged with the reply's
    fields, or with `failed_fields` and the error when the request failed after its retries."""
    llm = asker.llm()

    async def one(row: Row) -> Row:
        result = family.carry(row)
        request = family.request(row)
        try:
            result |= {**await ask(llm, request, settings.system_prompt), "request_failed": False}
        except LLMError as error:
            result |= {**failed_fields(request), "request_failed": True, "error": str(error)}
        if on_done:
            on_done()
        return result

    async def every() -> list[Row]:
        return list(await asyncio.gather(*(one(row) for row in rows)))

    return asker.submit(every)


class EarlyAsking:
    """A run's asking, started before its evaluate flow (by `ifforge evaluate`, while Prefect is
    imported and its temporary server starts: seconds, tens of seconds on a loaded machine, in
    which the model could already answer). The flow's evaluate takes it over by the run's
    fingerprint: its Asker (hub, cache, ledger: the calls are the run's) and its results. Replies
    that came before the take-over advance the flow's progress then."""

    def __init__(self, fingerprint: str, rows: list[Row], settings, cache_path: Path | None, family: Family,
                 before: Callable[[], None] | None = None):
        self.fingerprint = fingerprint
        self.asker = Asker(settings, cache_path)
        self._lock = threading.Lock()
        self._done, self._advance = 0, before  # `before`: each reply's progress until the flow takes over
        self.results = start_asking(rows, self.asker, family, settings, self._one_done)

    def _one_done(self) -> None:
        with self._lock:
            self._done += 1
            advance = self._advance
        if advance:
            advance()

    def take(self, on_done: Callable[[], None] | None) -> tuple[Asker, Future[list[Row]]]:
        with self._lock:
            self._advance, done = on_done, self._done
        for _ in range(done if on_done else 0):
            on_done()
        return self.asker, self.results


_EARLY: list[EarlyAsking] = []  # at most one: a process runs one `ifforge evaluate`


def ask_early(fingerprint: str, rows: list[Row], settings, cache_path: Path | None, family: Family,
              before: Callable[[], None] | None = None) -> None:
    """Start asking the run `fingerprint` names now; `take_early` hands it to the flow."""
    drop_early()
    _EARLY.append(EarlyAsking(fingerprint, rows, settings, cache_path, family, before))


def take_early(fingerprint: str | None) -> EarlyAsking | None:
    """The early asking of this run, if one was started; one of another run is stopped (its
    requests are not this run's)."""
    early = _EARLY.pop() if _EARLY else None
    if early is not None and early.fingerprint != fingerprint:
        early.asker.hub.close()
        return None
    return early


def drop_early() -> None:
    """Stop an early asking no flow took (the flow failed before asking)."""
    while _EARLY:
        _EARLY.pop().asker.hub.close()


def write_results(folder: Path, results: list[Row], frame: pd.DataFrame, calls: list[Row] | None = None) -> None:
    """Every raw reply (`responses.jsonl`), every verdict (`scores.parquet`) and, when the run
    asked a model, every request it sent (`llm_calls.jsonl`, as generate's), each written whole."""
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(folder / "responses.jsonl", "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in results))
    if calls is not None:
        atomic_write(folder / "llm_calls.jsonl", "".join(json.dumps(call) + "\n" for call in calls))
    with atomic_path(folder / "scores.parquet") as temporary:
        frame.to_parquet(temporary, index=False)
