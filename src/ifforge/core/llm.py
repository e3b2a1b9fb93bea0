"""The one door to any OpenAI-compatible server (OpenAI, vLLM, llama.cpp, Ollama).

What every caller gets without asking: a persistent response cache (sqlite; a re-run makes no
call it made before, even after a crash), many requests in flight with a concurrency that halves
on 429 and creeps back up (AIMD), request- and token-per-minute limits, retries with exponential
backoff and jitter on 429 / 5xx / timeouts / dropped connections (honouring Retry-After), JSON
replies validated against a pydantic model with bounded re-asks, and a usage ledger per stage
(calls, cache hits, tokens, retries, failures, latency, cost from user-given prices).
Nothing random or time-based goes into a request, so a re-run is byte-identical and hits the cache.
"""

from __future__ import annotations

import asyncio
import collections
import contextvars
import hashlib
import json
import logging
import random
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import openai
from pydantic import BaseModel, ConfigDict, ValidationError

from ifforge.core.jsontext import last_json_object

log = logging.getLogger("ifforge.core.llm")

JsonMode = Literal["auto", "json_schema", "json_object", "none"]


class LLMConfig(BaseModel):
    """How to reach one model; every field but the key and limits is part of the cache key."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str
    base_url: str | None = None
    api_key: str | None = None
    temperature: float = 0.0
    max_tokens: int | None = 4096
    extra_body: dict[str, Any] = {}  # e.g. {"reasoning_effort": "high"}, passed through and keyed
    timeout: float = 120.0
    max_retries: int = 5
    concurrency: int = 8
    requests_per_minute: int | None = None
    tokens_per_minute: int | None = None
    json_mode: JsonMode = "auto"
    reasks: int = 2
    price_input_per_mtok: float | None = None
    price_output_per_mtok: float | None = None

    def generation_parameters(self) -> dict[str, Any]:
        return {"temperature": self.temperature, "max_tokens": self.max_tokens, **self.extra_body}


class LLMError(RuntimeError):
    """A call that failed for good (retries spent, or a reply that never fit); the reason is the message."""


@dataclass(frozen=True)
class Reply:
    text: str
    prompt_tokens: int
    completion_tokens: int
    cached: bool
    latency: float


@dataclass
class Usage:
    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    failures: int = 0
    reasks: int = 0
    latency_seconds: float = 0.0

    def report(self, config: LLMConfig | None = None) -> dict[str, Any]:
        row: dict[str, Any] = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in self.__dict__.items()}
        if config and config.price_input_per_mtok is not None and config.price_output_per_mtok is not None:
            row["cost"] = round(self.prompt_tokens / 1e6 * config.price_input_per_mtok
                                + self.completion_tokens / 1e6 * config.price_output_per_mtok, 6)
        return row


CALL_TAG: contextvars.ContextVar[str | None] = contextvars.ContextVar("ifforge_call_tag", default=None)


class Ledger:
    """Usage per stage for this process; a flow reads the difference a stage made. Each logged call
    carries the CALL_TAG of the work that made it, so a shard can hand back exactly its own calls."""

    def __init__(self):
        self._lock = threading.Lock()
        self.by_stage: dict[str, Usage] = collections.defaultdict(Usage)
        self.calls: list[dict[str, Any]] = []

    def add(self, stage: str, **deltas: float) -> None:
        with self._lock:
            usage = self.by_stage[stage]
            for name, value in deltas.items():
                setattr(usage, name, getattr(usage, name) + value)

    def record_call(self, entry: dict[str, Any]) -> None:
        with self._lock:
            self.calls.append({**entry, "tag": CALL_TAG.get()})

    def calls_tagged(self, tag: str) -> list[dict[str, Any]]:
        with self._lock:
            return [{k: v for k, v in call.items() if k != "tag"} for call in self.calls if call["tag"] == tag]

    def snapshot(self) -> dict[str, Usage]:
        with self._lock:
            return {stage: Usage(**usage.__dict__) for stage, usage in self.by_stage.items()}


LEDGER = Ledger()

# JSON modes learnt per server, so a later client does not ask the same server what it rejected
_JSON_MODE_BY_SERVER: dict[str | None, JsonMode] = {}


def usage_since(before: dict[str, Usage], stage: str) -> Usage:
    now = LEDGER.snapshot().get(stage, Usage())
    then = before.get(stage, Usage())
    return Usage(**{k: getattr(now, k) - getattr(then, k) for k in now.__dict__})


class ResponseCache:
    """Replies by request hash in sqlite; each write commits at once, so a crash loses nothing."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, model TEXT, reply TEXT, "
                         "prompt_tokens INTEGER, completion_tokens INTEGER, created REAL)")
        self._db.commit()

    def get(self, key: str) -> tuple[str, int, int] | None:
        with self._lock:
            row = self._db.execute("SELECT reply, prompt_tokens, completion_tokens FROM replies WHERE key = ?",
                                   (key,)).fetchone()
        return tuple(row) if row else None

    def put(self, key: str, model: str, reply: str, prompt_tokens: int, completion_tokens: int) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO replies VALUES (?, ?, ?, ?, ?, ?)",
                             (key, model, reply, prompt_tokens, completion_tokens, time.time()))
            self._db.commit()

    def close(self) -> None:
        with self._lock:
            self._db.close()


class AdaptiveConcurrency:
    """At most `limit` requests in flight; halve on a 429, add one per `limit` successes."""

    def __init__(self, maximum: int):
        self.maximum = max(1, maximum)
        self.limit = float(self.maximum)
        self.in_flight = 0
        self._condition = asyncio.Condition()

    async def __aenter__(self):
        async with self._condition:
            await self._condition.wait_for(lambda: self.in_flight < int(self.limit))
            self.in_flight += 1

    async def __aexit__(self, *exc):
        async with self._condition:
            self.in_flight -= 1
            # wake only as many waiters as may start now (waking all of them costs O(n^2) wake-ups)
            self._condition.notify(max(1, int(self.limit) - self.in_flight))

    def succeeded(self) -> None:
        self.limit = min(self.maximum, self.limit + 1 / max(1.0, self.limit))

    def throttled(self) -> None:
        self.limit = max(1.0, self.limit / 2)


class RateLimit:
    """Sliding one-minute windows of requests and (estimated) tokens (`window` is for tests)."""

    def __init__(self, requests_per_minute: int | None, tokens_per_minute: int | None, window: float = 60.0):
        self.rpm, self.tpm, self.window = requests_per_minute, tokens_per_minute, window
        self._sent: collections.deque[tuple[float, int]] = collections.deque()
        self._lock = asyncio.Lock()

    async def wait(self, tokens: int) -> None:
        if not self.rpm and not self.tpm:
            return
        async with self._lock:
            while True:
                now = time.monotonic()
                while self._sent and now - self._sent[0][0] >= self.window:
                    self._sent.popleft()
                used = sum(t for _, t in self._sent)
                requests_ok = not self.rpm or len(self._sent) < self.rpm
                tokens_ok = not self.tpm or not self._sent or used + tokens <= self.tpm  # one big request may pass alone
                if requests_ok and tokens_ok:
                    self._sent.append((now, tokens))
                    return
                await asyncio.sleep(max(0.01, self.window - (now - self._sent[0][0])))


def request_key(config: LLMConfig, messages: list[dict[str, str]], schema: dict | None, prompt_versions: dict[str, str]) -> str:
    payload = {"model": config.model, "messages": messages, "parameters": config.generation_parameters(),
               "schema": schema, "json_mode": config.json_mode if schema else None, "prompts": prompt_versions}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


class LLM:
    """One model behind one server, shared by all the calls of a stage (or several stages)."""

    def __init__(self, config: LLMConfig, cache: ResponseCache | None = None):
        self.config = config
        self.cache = cache
        self.client = openai.AsyncOpenAI(base_url=config.base_url, api_key=config.api_key or "not-needed",
                                         max_retries=0, timeout=config.timeout)
        self.concurrency = AdaptiveConcurrency(config.concurrency)
        self.rate = RateLimit(config.requests_per_minute, config.tokens_per_minute)
        self._json_mode: JsonMode = _JSON_MODE_BY_SERVER.get(config.base_url, config.json_mode) \
            if config.json_mode == "auto" else config.json_mode

    async def close(self) -> None:
        await self.client.close()

    # ---- plain text ---------------------------------------------------------------------------
    async def chat(self, messages: list[dict[str, str]], *, stage: str, schema: dict | None = None,
                   prompt_versions: dict[str, str] | None = None) -> Reply:
        """One reply, from the cache when this exact request was answered before."""
        key = request_key(self.config, messages, schema, prompt_versions or {})
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                LEDGER.add(stage, cache_hits=1)
                return Reply(text=hit[0], prompt_tokens=hit[1], completion_tokens=hit[2], cached=True, latency=0.0)
        reply = await self._send(messages, stage=stage, schema=schema)
        if self.cache is not None:
            self.cache.put(key, self.config.model, reply.text, reply.prompt_tokens, reply.completion_tokens)
        return reply

    async def _send(self, messages, *, stage: str, schema: dict | None) -> Reply:
        estimated = sum(len(m["content"]) for m in messages) // 4 + (self.config.max_tokens or 0)
        attempt = 0
        while True:
            await self.rate.wait(estimated)
            started = time.monotonic()
            try:
                async with self.concurrency:
                    response = await self.client.chat.completions.create(
                        model=self.config.model, messages=messages, **self._format(schema),
                        temperature=self.config.temperature,
                        **({"max_tokens": self.config.max_tokens} if self.config.max_tokens else {}),
                        **({"extra_body": self.config.extra_body} if self.config.extra_body else {}),
                    )
            except openai.APIStatusError as error:
                if schema is not None and self._rejects_json_schema(error):
                    continue
                failure: Exception = error
                retry, wait = self._retryable(error, attempt)
            except (openai.APITimeoutError, openai.APIConnectionError) as error:
                failure = error
                retry, wait = self._retryable(error, attempt)
            else:
                latency = time.monotonic() - started
                self.concurrency.succeeded()
                text = (response.choices[0].message.content or "") if response.choices else ""
                usage = response.usage
                prompt_tokens = getattr(usage, "prompt_tokens", 0) or 0
                completion_tokens = getattr(usage, "completion_tokens", 0) or 0
                LEDGER.add(stage, calls=1, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                           latency_seconds=latency)
                LEDGER.record_call({"stage": stage, "model": self.config.model, "prompt_tokens": prompt_tokens,
                                    "completion_tokens": completion_tokens, "latency": round(latency, 3),
                                    "attempts": attempt + 1})
                log.debug("%s: %d+%d tokens in %.2fs", stage, prompt_tokens, completion_tokens, latency)
                return Reply(text, prompt_tokens, completion_tokens, False, latency)
            if not retry:
                LEDGER.add(stage, failures=1)
                raise LLMError(f"{type(failure).__name__}: {str(failure)[:300]}") from failure
            attempt += 1
            LEDGER.add(stage, retries=1)
            log.info("%s: %s, retry %d in %.2fs", stage, type(failure).__name__, attempt, wait)
            await asyncio.sleep(wait)

    def _retryable(self, error: Exception, attempt: int) -> tuple[bool, float]:
        if attempt >= self.config.max_retries:
            return False, 0.0
        status = getattr(error, "status_code", None)
        if status is not None and status != 429 and status < 500 and status != 408:
            return False, 0.0
        if status == 429:
            self.concurrency.throttled()
        wait = min(30.0, 0.25 * 2 ** attempt) * random.uniform(0.5, 1.0)  # jitter: never all at once
        response = getattr(error, "response", None)
        header = response.headers.get("retry-after") if response is not None else None
        if header:
            try:
                wait = max(wait, min(120.0, float(header)))
            except ValueError:
                pass
        return True, wait

    def _format(self, schema: dict | None) -> dict[str, Any]:
        """The response_format this server accepts: OpenAI's json_schema, llama.cpp's json_object + schema, or none."""
        if schema is None or self._json_mode == "none":
            return {}
        if self._json_mode in ("auto", "json_schema"):
            return {"response_format": {"type": "json_schema",
                                        "json_schema": {"name": "reply", "schema": schema, "strict": False}}}
        return {"response_format": {"type": "json_object", "schema": schema}}

    def _rejects_json_schema(self, error: openai.APIStatusError) -> bool:
        """Servers that reject the json_schema form get json_object next (llama.cpp answers 500 and
        names `response_format` in its message); other errors take the retry path."""
        if self._json_mode != "auto":
            return False
        message = str(error)
        if error.status_code in (400, 422) or (error.status_code == 500 and "response_format" in message):
            log.info("server rejected response_format json_schema (%s); using json_object", error.status_code)
            self._json_mode = _JSON_MODE_BY_SERVER[self.config.base_url] = "json_object"
            return True
        return False

    # ---- JSON ---------------------------------------------------------------------------------
    async def chat_json(self, messages: list[dict[str, str]], model: type[BaseModel], *, stage: str,
                        prompt_versions: dict[str, str] | None = None) -> tuple[BaseModel, list[dict[str, str]]]:
        """A reply parsed into `model`; a reply that does not fit is re-asked with the error, a bounded
        number of times. Returns the parsed reply and the whole conversation."""
        schema = model.model_json_schema()
        conversation = list(messages)
        problem = ""
        for attempt in range(self.config.reasks + 1):
            if attempt:
                LEDGER.add(stage, reasks=1)
            reply = await self.chat(conversation, stage=stage, schema=schema, prompt_versions=prompt_versions)
            parsed, problem = parse_reply(reply.text, model)
            conversation = conversation + [{"role": "assistant", "content": reply.text}]
            if parsed is not None:
                return parsed, conversation
            conversation.append({"role": "user", "content": (
                f"Your reply could not be used: {problem}. Reply again with only one JSON object that fits "
                f"this JSON schema: {json.dumps(schema)}")})
        raise LLMError(f"reply never fit {model.__name__} after {self.config.reasks + 1} tries: {problem}")


def parse_reply(text: str, model: type[BaseModel]) -> tuple[BaseModel | None, str]:
    """The last JSON object in `text` validated as `model`, or None and the reason it failed."""
    value = last_json_object(text)
    if value is None:
        return None, "no JSON object found in the reply"
    try:
        return model.model_validate(value), ""
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        return None, f"field {where}: {first['msg']}"
