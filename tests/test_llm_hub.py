"""The run-level LLM hub, tools, real chats and honest failures, against the stub server over HTTP."""

import asyncio
import threading
import time

import pytest

from ifforge.core.llm.cache import ResponseCache
from ifforge.core.llm.client import LLM, LLMConfig, LLMUnavailable, track_unreachable
from ifforge.core.llm.hub import close_hub, hub_for
from ifforge.testing.openai_stub import Answer, StubServer


def _config(server, **overrides):
    return LLMConfig(**{"model": "stub-model", "base_url": server.url, "api_key": "k", "timeout": 5, "max_retries": 1,
                        **overrides})


def test_one_hub_bounds_the_requests_of_every_shard_and_counts_each_shards_own_calls():
    in_flight, peak, lock = [0], [0], threading.Lock()

    def slow(request):
        with lock:
            in_flight[0] += 1
            peak[0] = max(peak[0], in_flight[0])
        time.sleep(0.2)
        with lock:
            in_flight[0] -= 1
        return Answer(content="ok")

    with StubServer(slow) as server:
        hub = hub_for("run-test")
        config = _config(server, concurrency=3)

        def shard(tag):
            async def ask_all():
                llm = hub.llm(config)
                await asyncio.gather(*(llm.chat([{"role": "user", "content": f"{tag} {i}"}], stage="s")
                                       for i in range(8)))
            hub.run(ask_all, tag)

        threads = [threading.Thread(target=shard, args=(tag,)) for tag in ("a", "b")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        try:
            assert len(server.requests) == 16
            assert peak[0] == 3  # the ceiling holds for the whole run, not per shard
            assert hub.usage("a").calls == 8 and hub.usage("b").calls == 8
            assert len(hub.calls("a")) == 8
        finally:
            close_hub("run-test")


def _session(llm, *calls):
    """Run coroutine factories one after another on one loop (a client belongs to one loop)."""
    async def go():
        try:
            return [await call() for call in calls]
        finally:
            await llm.close()
    return asyncio.run(go())


def test_tool_calls_reach_the_reply_and_the_cache_and_tools_are_in_the_key(tmp_path):
    tools = [{"type": "function", "function": {"name": "book", "parameters": {"type": "object", "properties": {
        "note": {"type": "string"}}}}}]
    with StubServer(lambda r: Answer(tool_calls=[{"name": "book", "arguments": '{"note": "A B"}'}])) as server:
        llm = LLM(_config(server), ResponseCache(tmp_path / "c.sqlite"))

        def ask(choice):
            return lambda: llm.chat([{"role": "user", "content": "book it"}], stage="fc", tools=tools,
                                    tool_choice=choice)

        first, again, other = _session(llm, ask("auto"), ask("auto"), ask("required"))
    assert first.tool_calls[0]["function"] == {"name": "book", "arguments": '{"note": "A B"}'}
    assert first.finish_reason == "tool_calls" and not first.cached
    assert again.cached and again.tool_calls == first.tool_calls
    assert not other.cached and len(server.requests) == 2
    assert server.requests[0]["tools"] == tools and server.requests[0]["tool_choice"] == "auto"


def test_a_conversation_sends_the_models_own_replies_back(tmp_path):
    with StubServer(lambda r: Answer(content=f"answer {len(r['messages'])}")) as server:
        llm = LLM(_config(server), ResponseCache(tmp_path / "c.sqlite"))
        turns = ["one", "two", "three"]
        replies, again = _session(llm, lambda: llm.converse(turns, stage="chat", system="be brief"),
                                  lambda: llm.converse(turns, stage="chat", system="be brief"))
    assert [r.text for r in replies] == ["answer 2", "answer 4", "answer 6"]
    third = server.requests[2]["messages"]
    assert [m["role"] for m in third] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert third[2]["content"] == "answer 2" and third[4]["content"] == "answer 4"
    assert all(r.cached for r in again) and len(server.requests) == 3


def test_an_outage_is_not_cached_and_is_seen_by_the_caller(tmp_path):
    with StubServer(lambda r: Answer(content="back")) as server:
        server.script(Answer(status=503), Answer(status=503))  # down for one request's two tries
        llm = LLM(_config(server), ResponseCache(tmp_path / "c.sqlite"))

        async def during_outage():
            with track_unreachable() as seen:
                with pytest.raises(LLMUnavailable, match="InternalServerError"):
                    await llm.chat([{"role": "user", "content": "hello"}], stage="s")
            return seen

        seen, reply = _session(llm, during_outage, lambda: llm.chat([{"role": "user", "content": "hello"}], stage="s"))
    assert seen.count == 1 and server.url in seen.last
    assert reply.text == "back" and not reply.cached and len(server.requests) == 3


def test_the_timeout_bounds_the_whole_request_even_when_bytes_keep_coming():
    with StubServer() as server:
        server.script(Answer(content="x" * 200, trickle=0.05), Answer(content="fine"))
        llm = LLM(_config(server, timeout=1.0, max_retries=1))
        [reply] = _session(llm, lambda: llm.chat([{"role": "user", "content": "hi"}], stage="s"))
    # waited out, the trickle is a whole reply ("xxx..."), and a byte every 0.05 s never trips a read
    # timeout: only a bound on the whole request gives it up and asks again (the second request)
    assert reply.text == "fine" and len(server.requests) == 2


def test_the_server_is_part_of_the_cache_key(tmp_path):
    cache_path = tmp_path / "c.sqlite"
    answers = []
    for text in ("from A", "from B"):
        with StubServer(lambda r, text=text: Answer(content=text)) as server:
            llm = LLM(_config(server), ResponseCache(cache_path))
            [reply] = _session(llm, lambda: llm.chat([{"role": "user", "content": "q"}], stage="s"))
            answers.append(reply.text)
    assert answers == ["from A", "from B"]


@pytest.fixture(autouse=True)
def _no_hub_left():
    yield
    close_hub("run-test")


def test_at_the_ceiling_lower_priorities_go_first_and_a_cancelled_waiter_gives_its_place_back():
    from ifforge.core.llm.limits import AdaptiveConcurrency, priority

    async def scenario():
        gate = AdaptiveConcurrency(1)
        order = []

        async def request(name, level, hold=0.0):
            with priority(level):
                async with gate:
                    order.append(name)
                    await asyncio.sleep(hold)

        first = asyncio.create_task(request("holder", 5, hold=0.05))
        await asyncio.sleep(0.01)  # the holder has the only place
        waiters = [asyncio.create_task(request(name, level)) for name, level in
                   (("shard3", 3), ("shard1", 1), ("cancelled", 0), ("shard2", 2), ("shard1-later", 1))]
        await asyncio.sleep(0.01)
        waiters[2].cancel()
        await asyncio.gather(first, *waiters, return_exceptions=True)
        return order, gate.in_flight

    order, in_flight = asyncio.run(scenario())
    assert order == ["holder", "shard1", "shard1-later", "shard2", "shard3"]
    assert in_flight == 0
