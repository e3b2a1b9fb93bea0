"""The LLM client (core/llm/client.py, its cache, limits and ledger) against a scripted OpenAI-compatible server on 127.0.0.1, through the real openai client."""

import asyncio
import threading

import pytest
from pydantic import BaseModel

from ifforge.core.jsontext import last_json_object
from ifforge.core.llm.cache import ResponseCache
from ifforge.core.llm.client import LLM, LLMConfig, LLMError, LLMFatal
from ifforge.core.llm.limits import AdaptiveConcurrency, RateLimit, RetryPolicy
from ifforge.core.llm.usage import Ledger
from ifforge.testing.openai_stub import Answer, StubServer


class Verdict(BaseModel):
    ok: bool
    score: int


class FakeClock:
    """Time that passes only when waited on: the waits are asserted, not timed on a busy machine."""

    def __init__(self):
        self.time = 0.0
        self.waits: list[float] = []

    def now(self) -> float:
        return self.time

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.time += seconds
        await asyncio.sleep(0)  # still a point where other requests run


def _llm(server, tmp_path=None, ledger=None, clock=None, **overrides):
    config = LLMConfig(model="stub-model", base_url=server.url, api_key="test", max_retries=3, timeout=5, **overrides)
    cache = ResponseCache(tmp_path / "cache.sqlite") if tmp_path is not None else None
    return LLM(config, cache, ledger=ledger, clock=clock)


def _ask(llm, model=Verdict, stage="test"):
    async def go():
        try:
            return await llm.chat_json([{"role": "user", "content": "Judge this. Reply in JSON."}], model, stage=stage)
        finally:
            await llm.close()
    return asyncio.run(go())


def test_last_json_object_skips_nested_and_prose():
    text = 'Plan: {"draft": 1}\nSo the answer is:\n```json\n{"output": [1, {"x": 2}], "stats": {"a": 1}}\n```\nDone.'
    assert last_json_object(text) == {"output": [1, {"x": 2}], "stats": {"a": 1}}
    assert last_json_object(text, required=("draft",)) == {"draft": 1}
    assert last_json_object("no json { here") is None


def test_prose_wrapped_json_is_extracted_and_validated():
    with StubServer() as server:
        server.script(Answer(content='Sure! Here you go:\n{"ok": true, "score": 7}\nAnything else?'))
        verdict, conversation = _ask(_llm(server))
    assert verdict == Verdict(ok=True, score=7)
    request = server.requests[0]
    assert request["response_format"]["type"] == "json_schema"
    assert request["model"] == "stub-model" and request["temperature"] == 0.0


def test_invalid_json_is_re_asked_with_the_error_then_given_up():
    with StubServer() as server:
        server.script(Answer(content="I think it is fine"), Answer(content='{"ok": "maybe", "score": 1}'),
                      Answer(content='{"ok": false, "score": 3}'))
        verdict, _ = _ask(_llm(server))
    assert verdict.score == 3 and len(server.requests) == 3
    second, third = server.requests[1]["messages"], server.requests[2]["messages"]
    assert "no JSON object found" in second[-1]["content"]
    assert "field ok" in third[-1]["content"]

    with StubServer(lambda request: Answer(content="never json")) as server:
        with pytest.raises(LLMError, match="never fit Verdict after 3 tries"):
            _ask(_llm(server))
        assert len(server.requests) == 3


def test_429_and_500_bursts_are_retried_with_backoff_honouring_retry_after():
    ledger, clock = Ledger(), FakeClock()
    with StubServer() as server:
        server.script(Answer(status=429, headers={"Retry-After": "0.3"}), Answer(status=500), Answer(status=503),
                      Answer(content='{"ok": true, "score": 1}'))
        llm = _llm(server, ledger=ledger, clock=clock, json_mode="json_object")
        verdict, _ = _ask(llm, stage="bursts")
    assert verdict.ok and len(server.requests) == 4
    first, second, third = clock.waits
    assert first == 0.3  # what Retry-After asked, over a backoff of at most 0.25 s
    assert 0.25 <= second <= 0.5 and 0.5 <= third <= 1.0  # doubled each time, jittered by half at most
    assert llm.concurrency.limit == 4.25  # the 429 halved the ceiling of 8; the answer crept back a quarter
    usage = ledger.snapshot()["bursts"]
    assert usage.retries == 3 and usage.calls == 1 and usage.failures == 0


def test_the_retry_policy_retries_what_the_server_failed_within_its_budget_and_caps_its_waits():
    class Failure(Exception):
        def __init__(self, status=None, retry_after=None):
            self.status_code = status
            self.response = type("Response", (), {"headers": {"retry-after": retry_after} if retry_after else {}})()

    policy = RetryPolicy(retries=12)
    for status in (None, 408, 429, 500, 503):
        assert policy.transient(Failure(status)) and policy.wait(Failure(status), 0) is not None
    for status in (400, 401, 404, 422):
        assert not policy.transient(Failure(status)) and policy.wait(Failure(status), 0) is None
    assert policy.wait(Failure(500), 12) is None  # the budget is spent
    assert 15.0 <= policy.wait(Failure(500), 10) <= 30.0  # 0.25 * 2**10 s, capped at 30 s
    assert policy.wait(Failure(429, "1000"), 0) == 120.0  # Retry-After is honoured up to two minutes
    assert policy.wait(Failure(429, "Wed, 21 Oct 2026 07:28:00 GMT"), 0) <= 0.25  # a date: the backoff alone


def test_retries_are_bounded_and_client_errors_are_not_retried():
    with StubServer(lambda request: Answer(status=500)) as server:
        with pytest.raises(LLMError, match="InternalServerError"):
            _ask(LLM(LLMConfig(model="m", base_url=server.url, api_key="k", max_retries=2, timeout=5,
                               json_mode="json_object")))
        assert len(server.requests) == 3  # one try + two retries
    for status, hint in ((401, "OPENAI_API_KEY"), (403, "OPENAI_API_KEY"), (404, "model name")):
        with StubServer(lambda request: Answer(status=status, error="no")) as server:
            with pytest.raises(LLMFatal, match=f"answered {status} for model 'stub-model': check .*{hint}") as error:
                _ask(_llm(server, json_mode="json_object"))
            assert server.url in str(error.value)
            assert len(server.requests) == 1  # never retried
    with StubServer(lambda request: Answer(status=400, error="bad request")) as server:
        with pytest.raises(LLMError, match="BadRequestError"):
            _ask(_llm(server, json_mode="none"))
        assert len(server.requests) == 1


def test_a_slow_reply_times_out_and_is_retried_and_dropped_connections_too():
    with StubServer() as server:
        server.script(Answer(content='{"ok": true, "score": 9}', delay=2.0), Answer(drop=True),
                      Answer(content='{"ok": true, "score": 2}'))
        llm = LLM(LLMConfig(model="m", base_url=server.url, api_key="k", timeout=0.5, max_retries=3))
        verdict, _ = _ask(llm, stage="slow")
    assert verdict.score == 2 and len(server.requests) == 3


def test_json_schema_rejected_by_the_server_falls_back_to_json_object():
    def llama_like(request):
        if request.get("response_format", {}).get("type") == "json_schema":
            return Answer(status=500, error="('body', 'response_format', 'type'): Input should be 'text' or 'json_object'")
        assert request["response_format"]["schema"]["title"] == "Verdict"
        return Answer(content='{"ok": true, "score": 5}')

    with StubServer(llama_like) as server:
        verdict, _ = _ask(_llm(server))
    assert verdict.score == 5
    assert [r["response_format"]["type"] for r in server.requests] == ["json_schema", "json_object"]


def test_the_cache_answers_a_repeated_request_without_calling(tmp_path):
    ledger = Ledger()
    with StubServer(lambda request: Answer(content='{"ok": true, "score": 4}')) as server:
        first, _ = _ask(_llm(server, tmp_path, ledger), stage="cached")
        second, _ = _ask(_llm(server, tmp_path, ledger), stage="cached")  # a new client, as after a crash
        assert first == second and len(server.requests) == 1
        _ask(_llm(server, tmp_path, ledger, temperature=0.5), stage="cached")  # a parameter is part of the key
        assert len(server.requests) == 2
    usage = ledger.snapshot()["cached"]
    assert usage.calls == 2 and usage.cache_hits == 1


def test_the_same_model_name_on_another_server_is_asked_again(tmp_path):
    with StubServer(lambda request: Answer(content='{"ok": true, "score": 1}')) as first, \
            StubServer(lambda request: Answer(content='{"ok": false, "score": 2}')) as second:
        one, _ = _ask(_llm(first, tmp_path))
        other, _ = _ask(_llm(second, tmp_path))  # one cache file, one model name, two servers
    assert (one.score, other.score) == (1, 2) and len(first.requests) == len(second.requests) == 1


def test_concurrency_keeps_as_many_requests_in_flight_as_allowed_and_no_more():
    arrived = threading.Condition()
    count = {"seen": 0, "open": 0, "peak": 0}

    def hold_until_no_more_come(request):
        """Every request is held until all 16 are in or none has come for 0.5 s: the most held at
        once is the most the client lets out at once (the hold only paces the test)."""
        with arrived:
            count["seen"] += 1
            count["open"] += 1
            count["peak"] = max(count["peak"], count["open"])
            arrived.notify_all()
            while count["seen"] < 16:
                seen = count["seen"]
                if not arrived.wait_for(lambda: count["seen"] > seen, timeout=0.5):
                    break
            count["open"] -= 1
        return Answer(content='{"ok": true, "score": 1}')

    with StubServer(hold_until_no_more_come) as server:
        llm = _llm(server, concurrency=8)

        async def go():
            try:
                await asyncio.gather(*(llm.chat([{"role": "user", "content": f"q{i}"}], stage="many")
                                       for i in range(16)))
            finally:
                await llm.close()

        asyncio.run(go())
    assert len(server.requests) == 16
    assert count["peak"] == 8  # 8 at once, never the 16 asked for


def test_adaptive_concurrency_halves_on_throttle_and_recovers():
    limiter = AdaptiveConcurrency(16)
    limiter.throttled()
    limiter.throttled()
    assert limiter.limit == 4
    for _ in range(200):
        limiter.succeeded()
    assert limiter.limit == 16
    for _ in range(10):
        limiter.throttled()
    assert limiter.limit == 1


def test_usage_reports_cost_from_user_prices():
    from ifforge.core.llm.usage import Usage

    report = Usage(calls=2, prompt_tokens=1_000_000, completion_tokens=500_000).report(
        LLMConfig(model="m", price_input_per_mtok=1.0, price_output_per_mtok=4.0))
    assert report["cost"] == 3.0
    assert "cost" not in Usage(calls=1).report(LLMConfig(model="m"))


def test_rate_limit_holds_requests_and_tokens_to_the_window():
    def starts(requests, tokens_per_window, tokens):
        """When each request may start, on a clock that passes only when the limit waits."""
        clock = FakeClock()
        limit = RateLimit(requests, tokens_per_window, window=0.5, clock=clock)

        async def go():
            moments = []
            for amount in tokens:
                await limit.wait(amount)
                moments.append(clock.now())
            return moments
        return asyncio.run(go())

    # two requests per 0.5 s window: the third and fourth wait for the window to move on
    assert starts(2, None, [1, 1, 1, 1]) == [0.0, 0.0, 0.5, 0.5]
    # 100 tokens per window: 60 + 60 does not fit, so the second waits; an oversized first one passes alone
    assert starts(None, 100, [60, 60, 30]) == [0.0, 0.5, 0.5]
    assert starts(None, 100, [500]) == [0.0]


def test_the_install_secret_is_made_once_kept_private_and_differs_between_installs(tmp_path, monkeypatch):
    """Cache keys are signed with it (`llm.cache.install_secret`): a cache another install wrote
    holds no key this one asks for."""
    import stat

    from ifforge.core.llm.cache import install_secret, request_key

    config, messages = LLMConfig(model="m", base_url="http://127.0.0.1:1/v1"), [{"role": "user", "content": "hi"}]
    monkeypatch.setenv("IFFORGE_CACHE_DIR", str(tmp_path / "one"))
    secret, key = install_secret(), request_key(config, messages, None, {})
    assert stat.S_IMODE((tmp_path / "one" / "install-secret").stat().st_mode) == 0o600
    monkeypatch.setenv("IFFORGE_CACHE_DIR", str(tmp_path / "two"))
    assert install_secret() != secret and request_key(config, messages, None, {}) != key
    assert request_key(config.model_copy(update={"base_url": "http://127.0.0.1:2/v1"}), messages, None, {}) != \
        request_key(config, messages, None, {})  # another server, another key
    monkeypatch.setenv("IFFORGE_CACHE_DIR", str(tmp_path / "one"))
    assert request_key(config, messages, None, {}) == key  # made once: read again, not made anew
