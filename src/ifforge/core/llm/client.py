"""The request to any OpenAI-compatible server (OpenAI, vLLM, llama.cpp, Ollama): how one model is
reached (`LLMConfig`), and `LLM`, which asks it.

What a caller gets: the response cache consulted first (`cache`), the limits of its server
(`limits`), a body bounded in bytes (`body`) and read field by field (`reply`),
retries as its `RetryPolicy` (`limits`) says: exponential backoff and jitter on 429 / 5xx /
timeouts / dropped connections (honouring Retry-After) and on a 200 that carries no answer (a body
that is no chat completion, no choices, a field of the wrong type: never cached), an empty reply
asked once more and then kept as the model's answer, JSON replies validated against a pydantic
model with bounded re-asks, and every call and every billed token in its ledger (`usage`). A
run shares clients, limits, caches and ledger through its hub (`hub`). Nothing random or
time-based goes into a request, so a re-run is byte-identical and hits the cache.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import re
import threading
from dataclasses import dataclass
from typing import Any

# httpx before openai, in this thread: openai uses httpx only if some other code has loaded it, and
# reads it from `sys.modules` without waiting for the import. Evaluate asks from a thread while this
# one imports Prefect, which loads httpx: a request built meanwhile (a server that refuses
# connections fails within milliseconds) met httpx half imported and crashed the command.
import httpx  # noqa: F401
import openai
from pydantic import BaseModel, ValidationError

from ifforge.core.jsontext import last_json_object, refusal
from ifforge.core.llm.body import BadBody, BoundedClient
from ifforge.core.llm.cache import ResponseCache, request_key
from ifforge.core.llm.config import JsonMode, LLMConfig  # noqa: F401 - re-exported: callers name it with the client
from ifforge.core.llm.limits import AdaptiveConcurrency, Clock, RateLimit, RetryPolicy
from ifforge.core.llm.reply import Completion, read_cached, read_completion
from ifforge.core.llm.usage import Ledger

log = logging.getLogger(__name__)

class LLMError(RuntimeError):
    """A call that failed for good (retries spent, or a reply that never fit); the reason is the message."""


FAILURE_KINDS = {"TimeoutError": "timeout", "APITimeoutError": "timeout", "APIConnectionError": "connection failed",
                 "NoAnswer": "no answer in a 200"}


def failure_kind(message: str | None) -> str:
    """A failed request's reason in a few words, to count failures by ("timeout", "http 500"), from
    its message as `LLM._failed` words it ("InternalServerError: Error code: 500 - ...")."""
    if not message:
        return "no error given"
    code = re.search(r"Error code: (\d{3})", message)
    if code:
        return f"http {code[1]}"
    kind = message.split(":", 1)[0].strip()
    return FAILURE_KINDS.get(kind, kind if kind.isidentifier() else "other")


class LLMUnavailable(LLMError):
    """Retries spent on 429 / 5xx / timeouts / dropped connections: the server, not the model, failed."""


class NoAnswer(RuntimeError):
    """A 200 that carries no answer: a body over its bound or that is no chat completion (an HTML
    page, nothing, not UTF-8), no choices, a field of the wrong type (`reply`). A failed
    request, retried like a 5xx and never cached. An empty message is an answer, not this."""


class LLMFatal(RuntimeError):
    """401, 403 or 404: no retry can help, the run must stop. Not an LLMError, so no fallback swallows it."""


class Stopped(BaseException):
    """The run is stopping (Ctrl-C, TERM; see `stop_requests`). A BaseException, so no `except
    Exception` of a stage takes it for the item's failure: nothing is cached, the item is asked again."""


class Deferred(BaseException):
    """Raised by a recording client (`LLM.collect`) in place of sending a request: the request is
    kept for a batch. A BaseException, so no `except Exception` of a stage takes it for a failure."""


@dataclass
class Unreachable:
    """How often the current item met an unreachable server (see `track_unreachable`)."""

    count: int = 0
    last: str = ""


_STOPPING = threading.Event()
_IN_FLIGHT: dict[asyncio.Task, asyncio.AbstractEventLoop] = {}  # every `_send` running, on its loop
_IN_FLIGHT_LOCK = threading.Lock()


def stop_requests() -> None:
    """Cancel every LLM request in flight in this process (CancelledError) and refuse new ones
    (`Stopped`), so Ctrl-C or TERM ends a run in seconds, not when the slowest reply comes. What
    was answered is cached; what was not is asked again by the next run."""
    _STOPPING.set()
    with _IN_FLIGHT_LOCK:
        running = list(_IN_FLIGHT.items())
    for task, loop in running:
        with contextlib.suppress(RuntimeError):  # a loop closed meanwhile: nothing left to cancel
            loop.call_soon_threadsafe(task.cancel)


def resume_requests() -> None:
    """Accept requests again after `stop_requests` (a process that goes on, such as a test's)."""
    _STOPPING.clear()


UNREACHABLE: contextvars.ContextVar[Unreachable | None] = contextvars.ContextVar("ifforge_unreachable", default=None)


@contextlib.contextmanager
def track_unreachable():
    """Count, for the work inside, the requests that failed for good on an unreachable server. A
    caller that falls back on such a failure can then refuse to cache its fallback as an answer."""
    seen = Unreachable()
    token = UNREACHABLE.set(seen)
    try:
        yield seen
    finally:
        UNREACHABLE.reset(token)


@dataclass(frozen=True)
class Checked:
    """What `chat_checked` ends with: the last reply, what its check refused (None: it passed), tries."""

    reply: Any
    problem: str | None
    tries: int

    @property
    def tries_said(self) -> str:
        return f"{self.tries} tr{'y' if self.tries == 1 else 'ies'}"


@dataclass(frozen=True)
class Reply:
    text: str
    prompt_tokens: int
    completion_tokens: int
    cached: bool
    latency: float
    tool_calls: tuple[dict[str, Any], ...] = ()  # {"id", "type": "function", "function": {"name", "arguments"}}
    finish_reason: str | None = None

    @property
    def why_empty(self) -> str:
        """"empty reply, finish_reason=length" for a reply with no text and no call, else "": the
        model's answer all the same, scored as wrong."""
        return "" if self.text or self.tool_calls else f"empty reply, finish_reason={self.finish_reason}"


# JSON modes learnt per server, so a later client does not ask the same server what it rejected
_JSON_MODE_BY_SERVER: dict[str | None, JsonMode] = {}


class LLM:
    """One model behind one server, shared by all the calls of a stage (or several stages)."""

    def __init__(self, config: LLMConfig, cache: ResponseCache | None = None, *, ledger: Ledger | None = None,
                 concurrency: AdaptiveConcurrency | None = None, rate: RateLimit | None = None,
                 clock: Clock | None = None):
        self.config = config
        self.clock = clock or Clock()  # latencies and retry waits; a test's own makes them exact
        self.retry = RetryPolicy(config.max_retries)
        self.cache = cache
        self.ledger = ledger or Ledger()  # a client of its own counts alone
        self.client = openai.AsyncOpenAI(base_url=config.base_url, api_key=config.api_key or "not-needed",
                                         max_retries=0, timeout=config.timeout,
                                         http_client=BoundedClient(config.max_reply_bytes))
        self.concurrency = concurrency or AdaptiveConcurrency(config.concurrency)
        self.rate = rate or RateLimit(config.requests_per_minute, config.tokens_per_minute, clock=self.clock)
        self._json_mode: JsonMode = _JSON_MODE_BY_SERVER.get(config.base_url, config.json_mode) \
            if config.json_mode == "auto" else config.json_mode
        self.collect: dict[str, dict[str, Any]] | None = None  # set: record misses for a batch, never send

    def request_body(self, messages: list[dict[str, Any]], schema: dict | None = None, tools: list[dict] | None = None,
                     tool_choice: Any = None) -> dict[str, Any]:
        """The chat-completions body `_send` would send, as one JSON object (a batch request's body)."""
        body = {"model": self.config.model, "messages": messages, **self._format(schema),
                **{k: v for k, v in {"tools": tools, "tool_choice": tool_choice}.items() if v is not None},
                "temperature": self.config.temperature}
        if self.config.max_tokens:
            body["max_tokens"] = self.config.max_tokens
        return {**body, **self.config.extra_body}

    async def close(self) -> None:
        await self.client.close()

    # ---- plain text ---------------------------------------------------------------------------
    async def chat(self, messages: list[dict[str, Any]], *, stage: str, schema: dict | None = None,
                   prompt_versions: dict[str, str] | None = None, tools: list[dict] | None = None,
                   tool_choice: Any = None) -> Reply:
        """One reply, from the cache when this exact request was answered before. Only answers are
        cached (an empty one too): a request that failed is asked again next time, and so is a
        cached row the reply reader refuses."""
        key = request_key(self.config, messages, schema, prompt_versions or {}, tools, tool_choice)
        if self.cache is not None:
            hit = self.cache.get(key)
            cached = read_cached(*hit) if hit is not None else None
            if cached is not None and cached.problem is None:
                self.ledger.add(stage, cache_hits=1)
                return Reply(cached.text, cached.prompt_tokens, cached.completion_tokens, True, 0.0,
                             cached.tool_calls, cached.finish_reason)
        if self.collect is not None:
            self.collect[key] = self.request_body(messages, schema, tools, tool_choice)
            raise Deferred(key)
        reply = await self._send(messages, stage=stage, schema=schema, tools=tools, tool_choice=tool_choice)
        if self.cache is not None:
            extra = {"tool_calls": list(reply.tool_calls), "finish_reason": reply.finish_reason}
            self.cache.put(key, self.config.model, reply.text, reply.prompt_tokens, reply.completion_tokens, extra)
        return reply

    async def converse(self, turns: list[str], *, stage: str, system: str | None = None) -> list[Reply]:
        """A real multi-turn chat: each user turn goes with the model's own earlier replies. Each
        request is cached on its own, so a resumed conversation re-sends nothing it sent before."""
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
        replies = []
        for turn in turns:
            messages.append({"role": "user", "content": turn})
            reply = await self.chat(list(messages), stage=stage)
            messages.append({"role": "assistant", "content": reply.text})
            replies.append(reply)
        return replies

    async def _send(self, messages, *, stage: str, schema: dict | None, tools: list[dict] | None = None,
                    tool_choice: Any = None) -> Reply:
        task = asyncio.current_task()
        with _IN_FLIGHT_LOCK:
            _IN_FLIGHT[task] = asyncio.get_running_loop()
        try:
            if _STOPPING.is_set():
                raise Stopped("the run is stopping: no new requests")
            return await self._attempts(messages, stage=stage, schema=schema, tools=tools, tool_choice=tool_choice)
        finally:
            with _IN_FLIGHT_LOCK:
                _IN_FLIGHT.pop(task, None)

    async def _attempts(self, messages, *, stage: str, schema: dict | None, tools: list[dict] | None,
                        tool_choice: Any) -> Reply:
        """Send until answered; a failure is tried again as `self.retry` says. An empty reply is
        asked once more at once (within the retries), then kept: it is the model's answer."""
        estimated = sum(len(str(m.get("content") or "")) for m in messages) // 4 + (self.config.max_tokens or 0)
        tooling = {k: v for k, v in {"tools": tools, "tool_choice": tool_choice}.items() if v is not None}
        attempt, empty_before = 0, False
        while True:
            try:
                reply = await self._once(messages, stage, schema, tooling, estimated, attempt)
            except (openai.APIStatusError, openai.APIConnectionError, TimeoutError, NoAnswer) as failure:
                if getattr(failure, "status_code", None) == 429:
                    self.concurrency.throttled()
                wait = self.retry.wait(failure, attempt)
                if wait is None:
                    raise self._failed(failure, stage) from failure
                attempt += 1
                self.ledger.add(stage, retries=1)
                log.info("%s: %s, retry %d in %.2fs", stage, type(failure).__name__, attempt, wait)
                await self.clock.sleep(wait)
                continue
            if reply is None:  # the server refused the json_schema form: the same try in json_object form
                continue
            if not reply.why_empty or empty_before or attempt >= self.retry.retries:
                return reply
            empty_before, attempt = True, attempt + 1
            self.ledger.add(stage, retries=1)
            log.info("%s: %s, asked once more", stage, reply.why_empty)

    async def _once(self, messages, stage: str, schema: dict | None, tooling: dict[str, Any], estimated: int,
                    attempt: int) -> Reply | None:
        """One request: its reply, None when the server refused the json_schema form, or the failure
        raised (NoAnswer for a 200 without an answer, TimeoutError for a reply not complete in time)."""
        await self.rate.wait(estimated)
        started = self.clock.now()
        try:
            async with self.concurrency:
                # the whole request, not each read: a server trickling a byte a second is cut off too
                response = await asyncio.wait_for(self.client.chat.completions.with_raw_response.create(
                    model=self.config.model, messages=messages, **self._format(schema), **tooling,
                    temperature=self.config.temperature,
                    **({"max_tokens": self.config.max_tokens} if self.config.max_tokens else {}),
                    **({"extra_body": self.config.extra_body} if self.config.extra_body else {}),
                ), self.config.timeout)
        except openai.APIStatusError as error:
            if error.status_code in (401, 403, 404):
                raise self._fatal(error) from error
            if schema is not None and self._rejects_json_schema(error):
                return None
            raise
        except asyncio.TimeoutError:
            raise TimeoutError(f"no complete reply within {self.config.timeout:g} s") from None
        except (openai.APIConnectionError, BadBody) as error:  # a timeout of openai's is a connection error
            cause = error if isinstance(error, BadBody) else error.__cause__  # older openai wraps it
            if isinstance(cause, BadBody):
                raise NoAnswer(f"the server's reply {cause}") from error
            raise
        read = read_completion(response.http_response.content)
        reply = self._counted(read, stage, self.clock.now() - started, attempt)
        if read.problem is not None:
            raise NoAnswer(f"the server answered 200 with {read.problem}")
        return reply

    def _failed(self, failure: Exception, stage: str) -> LLMError:
        """The error of a request whose retries are spent or whose failure no retry can mend:
        LLMUnavailable when the server failed (and counted for `track_unreachable`), else LLMError."""
        self.ledger.add(stage, failures=1)
        message = f"{type(failure).__name__}: {str(failure)[:300]}"
        unavailable = self.retry.transient(failure)
        seen = UNREACHABLE.get()
        if unavailable and seen is not None:
            seen.count += 1
            seen.last = f"{self.config.base_url or 'the OpenAI API'}: {message}"
        return (LLMUnavailable if unavailable else LLMError)(message)

    def _counted(self, read: Completion, stage: str, latency: float, attempt: int) -> Reply:
        """The reply of a 200, its tokens in the ledger (billed even when the reply is no answer);
        a call, and a line of `llm_calls.jsonl`, when it is one."""
        self.concurrency.succeeded()
        tokens = {"prompt_tokens": read.prompt_tokens, "completion_tokens": read.completion_tokens}
        if read.problem is not None:
            self.ledger.add(stage, **tokens)
        else:
            self.ledger.add(stage, calls=1, latency_seconds=latency, **tokens)
            self.ledger.record_call({"stage": stage, "model": self.config.model, **tokens,
                                     "latency": round(latency, 3), "attempts": attempt + 1})
        log.debug("%s: %d+%d tokens in %.2fs", stage, read.prompt_tokens, read.completion_tokens, latency)
        return Reply(read.text, read.prompt_tokens, read.completion_tokens, False, latency, read.tool_calls,
                     read.finish_reason)

    def _fatal(self, error: openai.APIStatusError) -> LLMFatal:
        where = self.config.base_url or "the OpenAI API"
        hint = {401: "check OPENAI_API_KEY", 403: "check OPENAI_API_KEY and the key's access to this model",
                404: "check the model name (--model) and the base URL (OPENAI_BASE_URL / --base-url)"}
        return LLMFatal(f"{where} answered {error.status_code} for model {self.config.model!r}: "
                        f"{hint[error.status_code]} ({str(error)[:200]})")

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

    def reasked(self, stage: str) -> None:
        """Count a re-ask a stage makes because its own check refused an answer (`chat_json` counts
        the re-asks for a reply that is no JSON of the right shape): every re-ask is in `reasks`."""
        self.ledger.add(stage, reasks=1)

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
                self.ledger.add(stage, reasks=1)
            reply = await self.chat(conversation, stage=stage, schema=schema, prompt_versions=prompt_versions)
            parsed, problem = parse_reply(reply.text, model)
            conversation = conversation + [{"role": "assistant", "content": reply.text}]
            if parsed is not None:
                return parsed, conversation
            conversation.append({"role": "user", "content": (
                f"Your reply could not be used: {problem}. Reply again with only one JSON object that fits "
                f"this JSON schema: {json.dumps(schema)}")})
        raise LLMError(f"reply never fit {model.__name__} after {self.config.reasks + 1} tries: {problem}")

    async def chat_checked(self, messages: list[dict[str, str]], model: type[BaseModel] | None, *, stage: str,
                           prompt_versions: dict[str, str], check, reasks: int, again: str) -> Checked:
        """Ask until `check` (reply -> problem or None; may be async) finds nothing to refuse, re-asking
        with the problem (`again` holds `{problem}`) at most `reasks` times; every re-ask is counted.
        `model` None asks for text. A request that fails ends the asking with its error as the problem."""
        conversation, reply, problem = list(messages), None, "no reply"
        for attempt in range(reasks + 1):
            if attempt:
                self.reasked(stage)
            try:
                if model is None:
                    answer = await self.chat(conversation, stage=stage, prompt_versions=prompt_versions)
                    reply, conversation = answer.text, conversation + [{"role": "assistant", "content": answer.text}]
                else:
                    reply, conversation = await self.chat_json(conversation, model, stage=stage,
                                                               prompt_versions=prompt_versions)
            except LLMError as error:
                return Checked(None, str(error), attempt + 1)
            problem = check(reply)
            if asyncio.iscoroutine(problem):
                problem = await problem
            if problem is None:
                return Checked(reply, None, attempt + 1)
            conversation = conversation + [{"role": "user", "content": again.format(problem=problem)}]
        return Checked(reply, problem, reasks + 1)


def parse_reply(text: str, model: type[BaseModel]) -> tuple[BaseModel | None, str]:
    """The last JSON object in `text` validated as `model`, or None and the reason it failed."""
    value = last_json_object(text)
    if value is None:
        refused = refusal(text)
        return None, f"no JSON object read: the reply {refused}" if refused else "no JSON object found in the reply"
    try:
        return model.model_validate(value), ""
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        return None, f"field {where}: {first['msg']}"
