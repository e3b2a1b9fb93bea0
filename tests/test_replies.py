"""A model reply cannot end a run (issue 21, part 2; issue 37, parts 2 and 3): hostile replies are
verdicts, a 200 without an answer or with a field of the wrong type is a failed request (retried,
never cached, never scored), a body is bounded, an empty reply is the model's answer, every
family's evaluate ends with its report, a re-run asks again for exactly what failed, a cache from
another install decides nothing, and Ctrl-C stops a run with a request in flight. Every reply
comes from the stub OpenAI-compatible server, over HTTP."""

import asyncio
import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path

import pytest

from ifforge.core import jsontext
from ifforge.core.llm.cache import ResponseCache
from ifforge.core.llm.client import LLM, LLMConfig, LLMUnavailable, resume_requests, stop_requests, Stopped
from ifforge.core.llm.hub import close_hub, hub_for
from ifforge.eval import template
from ifforge.eval.evaluation import EvalSettings, RequestsFailed
from ifforge.families import get_family
from ifforge.families.base import Reply
from ifforge.testing.openai_stub import Answer, StubServer

HUGE = "9" * 5000  # Python refuses to read an int of more than 4,300 digits
DEEP = "[" * 3000 + "]" * 3000  # deeper than the interpreter's recursion
HOSTILE = (f'{{"output": {HUGE}, "stats": {{"n": 1}}}}', f'Sure: {{"output": {DEEP}, "stats": {{}}}}',
           f"**Output:** 0x{'f' * 5000}\n**Statistics:** {{\"n\": {HUGE}}}", f"[ANSWER][{HUGE}] 1 [\\ANSWER]",
           f"### Final Results ###\n[Step1] : {DEEP}\n[Step{HUGE}] : 1\n[Final] : 0x{'f' * 5000}",
           f"[Final] : {HUGE}", "{" * 200_000, "x" * (jsontext.MAX_CHARS + 1))
NO_ANSWER = {  # a 200 that carries no answer, each way a server was seen to send one
    "html": Answer(body="<html><body><h1>502 Bad Gateway</h1></body></html>", content_type="text/html"),
    "empty body": Answer(body=""),
    "no choices": Answer(no_choices=True),
}


def test_the_json_reader_refuses_what_python_cannot_read_and_reads_the_rest():
    assert jsontext.last_json_object(f'{{"output": {HUGE}}}') is None
    assert jsontext.last_json_object(f'{{"output": {DEEP}}}') is None
    assert jsontext.refusal(DEEP) == "nests brackets deeper than 100 levels"
    assert "longer than" in jsontext.refusal("x" * (jsontext.MAX_CHARS + 1))
    with pytest.raises(ValueError, match="4300 digits"):
        jsontext.loads(HUGE)
    with pytest.raises(ValueError, match="4300 digits"):
        jsontext.python_literal(f"[1, 0x{'f' * 5000}]")
    with pytest.raises(ValueError, match="deeper"):
        jsontext.loads("[" * 150 + "]" * 150)
    # what is within the bounds reads as before: an object after a broken one, the largest int allowed
    text = f'{{broken {{"output": {"9" * 4300}, "stats": {{"n": [[1]]}}}} and prose'
    assert jsontext.last_json_object(text, ("output",))["stats"] == {"n": [[1]]}
    assert jsontext.loads(" [1, 2] ") == [1, 2] and jsontext.python_literal("(1, {2})") == (1, {2})


def logicif_line(result: dict) -> dict:
    """LogicIF's verdict line on a reply that carries its row (as `responses.jsonl` keeps it)."""
    return get_family("logicif").check(result, Reply(result)).lines[0]


def _rows_of_every_family() -> dict[str, list[dict]]:
    from test_exports import ifeval_fc_rows, lifbench_rows, mcbench_rows, pacific_rows

    logicif = [{"family": "logicif", "task_id": f"t{k}", "test_case_id": case, "instruction": f"[t{k}#{case}] Do it.",
                "code_output": {"output": k, "stats": {"n": case}}} for k in range(3) for case in range(2)]
    return {"logicif": logicif, "pacific": pacific_rows()[:6], "ifeval-fc": ifeval_fc_rows()[:6],
            "mcbench": mcbench_rows()[:6], "lifbench": lifbench_rows()[:4]}


@pytest.fixture(scope="module")
def family_rows():
    return _rows_of_every_family()


def test_hostile_replies_are_verdicts_in_every_family(family_rows):
    for family_id, rows in family_rows.items():
        family = get_family(family_id)
        for row in {row.get("mode"): row for row in rows}.values():  # PACIFIC: a prompt and a chat; others: one
            for reply in HOSTILE:
                turns = len(row.get("messages", [])) if row.get("mode") == "chat" else 1
                replies = [{"text": reply, "tool_calls": [{"function": {"name": row["function_name"], "arguments": reply}}]}] \
                    if family_id == "ifeval-fc" else [reply] * turns
                if family_id == "logicif":
                    verdict = logicif_line({**row, "response": reply})
                    assert not verdict["both_ok"] and not verdict["request_failed"]
                else:
                    assert family.check(row, Reply.of(replies)).correct is False, (family_id, reply[:40])
    refused = logicif_line({**family_rows["logicif"][0], "response": "{" * 200_000})
    assert refused["unread"] == "reply nests brackets deeper than 100 levels" and not refused["formatted"]


def _llm(server, cache=None, **overrides):
    return LLM(LLMConfig(model="m", base_url=server.url, api_key="k", timeout=10, **overrides), cache)


def _chat(llm, text="hi"):
    async def go():
        try:
            return await llm.chat([{"role": "user", "content": text}], stage="t")
        finally:
            await llm.close()
    return asyncio.run(go())


def test_a_200_without_an_answer_is_a_failed_request_retried_then_asked_again_never_cached(tmp_path):
    for kind, answer in NO_ANSWER.items():
        cache = ResponseCache(tmp_path / f"{kind}.sqlite")
        with StubServer(lambda request: answer) as server:
            with pytest.raises(LLMUnavailable, match="answered 200 with"):
                _chat(_llm(server, cache, max_retries=1))
            assert len(server.requests) == 2, kind  # retried within the budget, like a 5xx
            server.handler = lambda request: Answer(content="an answer")
            assert _chat(_llm(server, cache)).text == "an answer"  # nothing was cached: asked again
            assert len(server.requests) == 3
            assert _chat(_llm(server, cache)).cached and len(server.requests) == 3
        cache.close()


def test_a_request_without_an_answer_in_a_generate_stage_is_lost_not_cached_and_asked_again(tmp_path):
    """A stage falls back when the model fails (as LogicIF's stages do); a fallback after a 200
    without an answer must not be cached as the item's outcome."""
    from ifforge.core.llm.client import LLMError
    from ifforge.core.records import Outcome
    from ifforge.core.runner import Stage, run_items
    from ifforge.core.store.versions import ItemCache

    async def ask(item, llm, config):
        try:
            return Outcome(kept=(await llm.chat([{"role": "user", "content": item}], stage="ask")).text)
        except LLMError:
            return Outcome(kept=f"fallback for {item}")

    def answer(request):
        text = request["messages"][-1]["content"]
        return Answer(no_choices=True) if text == "b" else Answer(content=text.upper())

    with StubServer(answer) as server:
        stage = Stage(name="ask", version="1", writes=str, reads=str, function=lambda item: None, llm_function=ask,
                      llm=LLMConfig(model="m", base_url=server.url, api_key="k", max_retries=1))
        cache, responses = ItemCache(tmp_path / "items"), tmp_path / "responses.sqlite"
        first = run_items(stage, ["a", "b", "c"], cache, response_cache=responses)
        assert first.lost == 1 and [o.kept for o in first.outcomes] == ["A", None, "C"]
        assert first.outcomes[1].dropped[0].reason == "llm_unreachable"
        assert "no choices" in first.outcomes[1].dropped[0].detail
        asked = len(server.requests)
        assert asked == 2 + 2  # a and c once, b twice (one retry)
        server.handler = lambda request: Answer(content=request["messages"][-1]["content"].upper())
        second = run_items(stage, ["a", "b", "c"], cache, response_cache=responses)
        assert [o.kept for o in second.outcomes] == ["A", "B", "C"] and second.lost == 0
        assert [r["messages"][-1]["content"] for r in server.requests[asked:]] == ["b"]  # exactly what failed


def _kind(request) -> str:
    """What the server says to a request, fixed by its content: no answer, a hostile answer, or a fine one."""
    kinds = [*NO_ANSWER, "hostile", "fine", "fine"]
    return kinds[zlib.crc32(json.dumps(request["messages"]).encode()) % len(kinds)]


def _flaky(request):
    kind = _kind(request)
    if kind in NO_ANSWER:
        return NO_ANSWER[kind]
    if kind == "hostile":
        return Answer(content=HOSTILE[zlib.crc32(json.dumps(request["messages"]).encode()) % 3])
    return Answer(content="I think the answer is 3.")


def test_every_familys_evaluate_scores_hostile_replies_keeps_failures_apart_and_a_rerun_asks_only_those(
        family_rows, tmp_path):
    for family_id, rows in family_rows.items():
        family, folder = get_family(family_id), tmp_path / family_id
        with StubServer(_flaky) as server:
            settings = EvalSettings(model="m", base_url=server.url, api_key="k", llm_max_retries=0)
            summary = template.evaluate(family, rows, settings, folder / "cache.sqlite", folder / "run1", "t")
            assert (folder / "run1" / "report.md").exists()
            results = [json.loads(line) for line in (folder / "run1" / "responses.jsonl").read_text().splitlines()]
            failed = sum(bool(r["request_failed"]) for r in results)
            assert summary["request_failures"] == failed > 0, family_id
            assert failed < len(rows), family_id  # the hostile and fine replies were scored as answers
            keys = [json.dumps(r["messages"]) for r in server.requests]
            no_answer = {k for k, r in zip(keys, server.requests) if _kind(r) in NO_ANSWER}
            answered = set(keys) - no_answer

            server.handler = lambda request: Answer(content="Now an answer.")
            server.requests.clear()
            template.evaluate(family, rows, settings, folder / "cache.sqlite", folder / "run2", "t")
            asked = {json.dumps(r["messages"]) for r in server.requests}
            assert no_answer <= asked and not asked & answered, family_id  # again: what failed, nothing else
            if family_id != "pacific":  # a chat also asks the turns it never reached
                assert asked == no_answer and len(server.requests) == len(no_answer), family_id
            results = [json.loads(line) for line in (folder / "run2" / "responses.jsonl").read_text().splitlines()]
            assert not any(r["request_failed"] for r in results)


def test_every_familys_evaluate_with_every_request_failed_still_writes_its_report(family_rows, tmp_path):
    with StubServer(lambda request: Answer(status=503)) as server:
        settings = EvalSettings(model="m", base_url=server.url, api_key="k", llm_max_retries=0, no_cache=True)
        for family_id, rows in family_rows.items():
            summary = template.evaluate(get_family(family_id), rows, settings, tmp_path / "c.sqlite", tmp_path / family_id, "t")
            assert summary["request_failures"] > 0 and (tmp_path / family_id / "report.md").exists(), family_id


def test_the_evaluate_flow_with_every_request_failed_reports_and_resends_nothing_itself(tmp_path, prefect_server):
    from test_evaluate import _benchmark

    from ifforge.flows.evaluate import evaluate

    _benchmark(tmp_path)
    with StubServer(lambda request: Answer(no_choices=True)) as server:
        state = evaluate(benchmark=str(tmp_path / "bench"), model="m", base_url=server.url,
                         options={"llm_max_retries": 1}, progress=False, return_state=True)
        assert state.is_failed() and isinstance(state.result(raise_on_failure=False), RequestsFailed)
        assert len(server.requests) == 9 * 2  # nine cases, one retry each in the client; no task retry on top
    report = json.loads((tmp_path / "bench" / "v001" / "evals" / "m" / "r001" / "report.json").read_text())
    assert report["overall"]["request_failures"] == 9 and report["overall"]["cases"] == 0


def test_stopping_cancels_requests_in_flight_and_refuses_new_ones_and_a_closed_hub_runs_nothing():
    release = threading.Event()  # the stub answers only once the test is over: no reply can end the asking

    def held(request):
        release.wait(timeout=120)
        return Answer(content="late")

    with StubServer(held) as server:
        hub = hub_for("stop-test")
        llm = hub.llm(LLMConfig(model="m", base_url=server.url, api_key="k"))

        async def three():
            return await asyncio.gather(*(llm.chat([{"role": "user", "content": str(i)}], stage="s") for i in range(3)))

        def outcome() -> BaseException | None:
            try:
                hub.run(three, "tag")
            except BaseException as error:  # noqa: BLE001 - the outcome is what is asserted
                return error
            return None

        stopper = threading.Thread(target=lambda: server.wait_for_requests(3) and stop_requests())
        try:
            stopper.start()
            # all three in flight, then stopped: cancelled, since the held replies never came
            assert type(outcome()).__name__ == "CancelledError"
            with pytest.raises(Stopped):
                hub.run(three, "tag")  # no new request once stopping
            resume_requests()
            assert len(server.requests) == 3

            # a hub closed while a shard waits on it: the shard is released, and the run opens no other hub
            ended: list[BaseException | None] = []
            waiting = threading.Thread(target=lambda: ended.append(outcome()))
            waiting.start()
            assert server.wait_for_requests(6)
            close_hub("stop-test")
            waiting.join(timeout=60)  # only so that a regression fails instead of hanging: the replies are held
            assert not waiting.is_alive() and type(ended[0]).__name__ == "CancelledError"
            with pytest.raises(Stopped):
                hub_for("stop-test")
        finally:
            resume_requests()
            release.set()
            stopper.join()


def _cached_replies(path: Path, count: int, timeout: float = 60.0) -> bool:
    """Whether another process's response cache comes to hold `count` replies within `timeout` s:
    the test goes on when they are there, not after a guess of how long writing them takes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(sqlite3.Error):  # not made yet, or its table not yet
            with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
                if db.execute("SELECT count(*) FROM replies").fetchone()[0] >= count:
                    return True
        time.sleep(0.05)
    return False


def test_ctrl_c_stops_evaluate_with_requests_in_flight_and_the_rerun_asks_only_the_unanswered(
        tmp_path, prefect_server):
    from prefect.settings import PREFECT_API_URL

    from ifforge.flows.evaluate import evaluate

    rows = [{"task_id": f"t{k}", "test_case_id": 0, "input": [k], "code_output": {"output": k, "stats": {"n": k}},
             "instruction": f"[t{k}#0] Do it."} for k in range(4)]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    slow = {"[t1#0] Do it.", "[t3#0] Do it."}

    def answer(request):
        text = request["messages"][-1]["content"]
        return Answer(content="later", delay=60) if text in slow else Answer(content="no idea")

    env = {**os.environ, "PREFECT_API_URL": PREFECT_API_URL.value(), "OPENAI_API_KEY": "k",
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[1] / "src"), os.environ.get("PYTHONPATH", "")])}
    with StubServer(answer) as server:
        process = subprocess.Popen([sys.executable, "-m", "ifforge.cli", "evaluate", str(tmp_path / "rows.jsonl"),
                                    "--model", "m", "--base-url", server.url, "--no-progress", "--timeout", "300"],
                                   env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert server.wait_for_requests(4, timeout=120) and len(server.requests) == 4
            assert _cached_replies(tmp_path / "evals" / ".llm_cache.sqlite", 2)  # the two quick answers
            process.send_signal(signal.SIGINT)
            _, err = process.communicate(timeout=45)  # the slow replies would take 60 s
        finally:
            if process.poll() is None:
                process.kill()
        assert process.returncode == 130, err[-2000:]
        # ours is the last line but for Prefect's own when its temporary server was up by then
        # ("Stopping temporary server", logged at exit)
        said = [line for line in err.strip().splitlines() if "Stopping temporary server" not in line]
        assert said[-1].startswith("ifforge: evaluate stopped"), err[-2000:]

        server.handler = lambda request: Answer(content="no idea")
        server.requests.clear()
        folder = evaluate(benchmark=str(tmp_path / "rows.jsonl"), model="m", base_url=server.url, progress=False)
        assert sorted(r["messages"][-1]["content"] for r in server.requests) == sorted(slow)
        assert json.loads((Path(folder) / "report.json").read_text())["overall"]["cases"] == 4


def test_a_signal_while_the_llm_client_is_still_being_imported_stops_cleanly(monkeypatch):
    """Ctrl-C a second after the start met `llm.client` half imported (no `stop_requests` yet): the
    command died with an AttributeError (exit 1) instead of stopping (130)."""
    import types

    import ifforge.cli as cli
    from ifforge.cli import _stop

    monkeypatch.setattr(cli, "_SIGNALLED", [])  # what `_stop` notes stays in this test
    monkeypatch.setitem(sys.modules, "ifforge.core.llm.client", types.ModuleType("ifforge.core.llm.client"))
    with pytest.raises(KeyboardInterrupt):
        _stop(signal.SIGINT, None)
    with pytest.raises(SystemExit) as stopped:
        _stop(signal.SIGTERM, None)
    assert stopped.value.code == 128 + signal.SIGTERM


def test_a_signal_that_a_library_wraps_in_its_own_error_still_stops_the_command(monkeypatch, capsys):
    """Ctrl-C while Prefect imported met pydantic's serializer, which wrapped the KeyboardInterrupt in
    a PydanticSerializationError: the command died with that traceback (exit 1), not stopped (130)."""
    import types

    import ifforge.cli as cli

    def interrupted(args):
        try:
            cli._stop(signal.SIGINT, None)
        except KeyboardInterrupt as interrupt:
            raise RuntimeError("Error calling function `_ser_model`: KeyboardInterrupt") from interrupt

    def broken(args):
        raise RuntimeError("a real failure, no signal")

    monkeypatch.setattr(signal, "signal", lambda *args: None)  # keep pytest's own handlers
    monkeypatch.setattr(cli, "_SIGNALLED", [])
    # no request is stopped for real: this process's later tests still ask
    monkeypatch.setitem(sys.modules, "ifforge.core.llm.client", types.ModuleType("ifforge.core.llm.client"))
    monkeypatch.setattr(cli, "build_parser", lambda: _parser_running(interrupted))
    assert cli.main(["evaluate"]) == 130
    assert capsys.readouterr().err.startswith("ifforge: evaluate stopped")

    monkeypatch.setattr(cli, "_SIGNALLED", [])
    monkeypatch.setattr(cli, "build_parser", lambda: _parser_running(broken))
    with pytest.raises(RuntimeError, match="a real failure"):
        cli.main(["evaluate"])


def _parser_running(run):
    import argparse

    made = argparse.ArgumentParser()
    made.add_subparsers(dest="command").add_parser("evaluate").set_defaults(run=run)
    return made


def test_timeout_flags_and_local_serving_defaults():
    from ifforge.cli import build_parser
    from ifforge.families import load_family_settings

    parser = build_parser()
    assert parser.parse_args(["evaluate", "b", "--model", "m", "--timeout", "30"]).timeout == 30.0
    assert parser.parse_args(["generate", "--timeout", "45.5"]).timeout == 45.5
    for bad in ("0", "-1", "soon", "inf"):
        with pytest.raises(SystemExit):
            parser.parse_args(["evaluate", "b", "--model", "m", "--timeout", bad])
    local = load_family_settings({"local_model": "model.gguf"}, None)
    assert (local.llm_concurrency, local.llm_timeout, local.llm_max_retries) == (1, 1800.0, 1)
    chosen = load_family_settings({"local_model": "model.gguf", "llm_concurrency": 2, "llm_timeout": 90}, None)
    assert (chosen.llm_concurrency, chosen.llm_timeout, chosen.llm_max_retries) == (2, 90.0, 1)
    remote = load_family_settings({}, None)
    assert (remote.llm_concurrency, remote.llm_timeout, remote.llm_max_retries) == (8, 120.0, 5)


def test_evaluate_against_a_server_that_refuses_connections_reports_failed_requests_not_a_traceback(
        tmp_path, prefect_server):
    """Every request fails within milliseconds while the command imports Prefect (which loads
    httpx): openai once met httpx half imported there and the command crashed with a traceback."""
    from prefect.settings import PREFECT_API_URL

    rows = [{"task_id": f"t{k}", "test_case_id": 0, "input": [k], "code_output": {"output": k, "stats": {"n": k}},
             "instruction": f"[t{k}#0] Do it."} for k in range(300)]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    env = {**os.environ, "PREFECT_API_URL": PREFECT_API_URL.value(), "OPENAI_API_KEY": "k",
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[1] / "src"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "ifforge.cli", "evaluate", str(tmp_path / "rows.jsonl"), "--model", "m",
                           "--base-url", f"http://127.0.0.1:{closed}/v1", "--no-progress", "--max-retries", "0"],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr[-3000:]
    assert "300 of 300 requests failed" in done.stderr and "Traceback" not in done.stderr, done.stderr[-3000:]


# ---- issue 37: replies that end a run or fill memory, empty replies, caches from elsewhere --------------

BOUND = 100_000  # max_reply_bytes of the client's own test (evaluate keeps its default, 4,000,000)
_squeeze = zlib.compressobj(9, zlib.DEFLATED, 31)  # gzip: 10 MB of text in about 10 kB, past the bound only inflated
BOMB = _squeeze.compress(b'{"choices": [{"message": {"content": "' + b"a" * 10_000_000) + _squeeze.flush()


def _body(message: dict, usage: object = "tokens", finish_reason: object = "stop") -> str:
    """A chat-completion body around `message`; any field may hold any type."""
    return json.dumps({"id": "c", "object": "chat.completion", "created": 0, "model": "m",
                       "choices": [{"index": 0, "finish_reason": finish_reason,
                                    "message": {"role": "assistant", **message}}],
                       "usage": {"prompt_tokens": 7, "completion_tokens": 5} if usage == "tokens" else usage})


def _call(name: object, arguments: object) -> dict:
    return {"id": "call_0", "type": "function", "function": {"name": name, "arguments": arguments}}


UNREADABLE_200 = {  # kind: (the body, what the row's error says)
    "content a number": (_body({"content": 5}), "choices[0].message.content that is a number, not text"),
    "content a list": (_body({"content": [{"type": "text", "text": "4"}]}), "message.content that is a list"),
    "a call without function": (_body({"content": None, "tool_calls": [{"id": "c", "type": "function"}]}),
                                "tool_calls[0] without a function"),
    "a number for a name": (_body({"content": None, "tool_calls": [_call(5, [1, 2])]}),
                            "tool_calls[0].function.name that is a number"),
    "tokens in words": (_body({"content": "4"}, usage={"prompt_tokens": "lots", "completion_tokens": 1}),
                        "usage.prompt_tokens that is text, not a whole number"),
    "not UTF-8": (b'{"choices": [{"message": {"content": "\xff\xfe"}}]}', "a body that is not UTF-8 text (byte 0xff"),
    "arguments an object": (_body({"content": None, "tool_calls": [_call("f", {"a": 1})]}),
                            "function.arguments that is an object, not text (JSON)"),
    "a custom call": (_body({"content": None, "tool_calls": [{"id": "c", "type": "custom",
                                                               "custom": {"name": "f", "input": "x"}}]}),
                      "tool_calls[0] of type 'custom', not a function call"),
    "an integer past the bound": ('{"created": ' + HUGE + ', "choices": []}', "holds an integer of more than 4300"),
    "an endless body": (None, "reply is over 4,000,000 bytes (setting llm_max_reply_bytes)"),
    "a gzip bomb": (BOMB, "reply is over 4,000,000 bytes (setting llm_max_reply_bytes)"),
}
READABLE = ("right", "right, gzipped", "a lone surrogate in the text", "a lone surrogate in the arguments",
            "an answer past the integer bound")


def _json_format_row() -> dict:
    """An IFEval-FC row whose rule (`json_format`) the value `{"ok": true}` follows."""
    from ifforge.families.ifeval_fc import functions
    from ifforge.families.ifeval_fc.family import assign, row_of
    from ifforge.families.ifeval_fc.settings import IfevalFcSettings

    settings = IfevalFcSettings(family="ifeval-fc", llm="none", queries_per_function=1, distractors=1, seed=2)
    config = functions.CheckConfig(queries=1, rules=["json_format", "python_list", "title_format"])
    cases, _, _ = assign([functions.check(f, config).kept for f in functions.from_bank()], settings)
    return next(row for row in map(lambda case: row_of(case, settings), cases) if row["rule_id"] == "json_format")


def _hostile_rows() -> dict[str, list[dict]]:
    """A LogicIF and an IFEval-FC row per kind of reply; the kind leads the prompt, in brackets."""
    fc = _json_format_row()
    kinds = [*UNREADABLE_200, *READABLE]
    logicif = [{"family": "logicif", "task_id": f"t{i}", "test_case_id": 0, "instruction": f"[{kind}] Do it.",
                "code_output": {"output": i, "stats": {"n": i}}} for i, kind in enumerate(kinds)]
    ifeval_fc = [{**fc, "task_id": f"fc{i}", "messages": [*fc["messages"][:-1], {
        **fc["messages"][-1], "content": f"[{kind}] {fc['messages'][-1]['content']}"}]} for i, kind in enumerate(kinds)]
    return {"logicif": logicif, "ifeval-fc": ifeval_fc}


def _hostile_answer(rows_by_text: dict[str, dict], request: dict) -> Answer:
    """What the server says to a row: its kind's body; a readable kind answers the row right."""
    row = rows_by_text[request["messages"][-1]["content"]]
    kind = request["messages"][-1]["content"][1:].split("]")[0]
    if kind == "an endless body":
        return Answer(endless=True)
    if kind == "a gzip bomb":
        return Answer(body=BOMB, headers={"Content-Encoding": "gzip"})
    if kind in UNREADABLE_200:
        return Answer(body=UNREADABLE_200[kind][0])
    if row["family"] == "logicif":
        gold = row["code_output"]
        text = {"a lone surrogate in the text": "\ud800 " + json.dumps(gold),
                "a lone surrogate in the arguments": '{"output": "\\ud800", "stats": {}}',
                "an answer past the integer bound": f'{{"output": {HUGE}, "stats": {{}}}}'}.get(kind, json.dumps(gold))
        body = _body({"content": text})
    else:
        value = "\ud800 x" if kind == "a lone surrogate in the arguments" else '{"ok": true}'
        body = _body({"content": "\ud800" if kind == "a lone surrogate in the text" else None,
                      "tool_calls": [_call(row["function_name"], json.dumps({row["parameter"]: value}))]})
    if kind == "right, gzipped":
        return Answer(body=zlib.compress(body.encode()), headers={"Content-Encoding": "deflate"})
    return Answer(body=body)


@pytest.fixture(scope="module")
def hostile():
    """One stub server for the module's hostile replies, and the rows that ask for them."""
    rows = _hostile_rows()
    by_text = {row.get("instruction") or row["messages"][-1]["content"]: row for family in rows.values() for row in family}
    with StubServer(lambda request: _hostile_answer(by_text, request)) as server:
        yield server, rows


def _responses(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "responses.jsonl").read_text().splitlines()]


def test_a_200_that_cannot_be_read_is_that_rows_failure_with_its_reason_and_a_rerun_reads_the_cache_safely(
        hostile, tmp_path):
    import sqlite3

    import pandas as pd

    server, rows = hostile
    settings = EvalSettings(model="m", base_url=server.url, api_key="k", llm_max_retries=0)
    for family_id, family_rows_ in rows.items():
        folder, cache = tmp_path / family_id, tmp_path / f"{family_id}.sqlite"
        summary = template.evaluate(get_family(family_id), family_rows_, settings, cache, folder / "run1", "t")
        assert summary["request_failures"] == len(UNREADABLE_200), family_id
        results = _responses(folder / "run1")
        for result, kind in zip(results, [*UNREADABLE_200, *READABLE]):
            if kind in UNREADABLE_200:
                assert result["request_failed"] and UNREADABLE_200[kind][1] in result["error"], (family_id, kind)
            else:
                assert not result["request_failed"], (family_id, kind, result.get("error"))
        verdicts = pd.read_parquet(folder / "run1" / "scores.parquet")  # lone surrogates were written, as U+FFFD
        if family_id == "logicif":
            right = verdicts.set_index("task_id")["both_ok"]
            assert right[[f"t{len(UNREADABLE_200) + i}" for i in range(3)]].all()  # right, gzipped, surrogate in text
            unread = verdicts.set_index("task_id")["unread"][f"t{len(UNREADABLE_200) + 4}"]
            assert unread == "reply holds an integer of more than 4300 digits"
        else:
            assert verdicts["correct"].sum() == 4 and "\ufffd x" in "".join(verdicts["values"])
        assert sqlite3.connect(cache).execute("SELECT max(length(reply) + length(coalesce(extra, ''))) "
                                              "FROM replies").fetchone()[0] < BOUND

        # rows an older version (or a hand) left in the cache with fields of the wrong type: asked again
        with sqlite3.connect(cache) as db:
            keys = [key for (key,) in db.execute("SELECT key FROM replies ORDER BY key")]
            for key, extra, tokens in zip(keys, ['{"tool_calls": [{"function": {"name": 5, "arguments": [1]}}]}',
                                                 "[" * 5000, '{"tool_calls": "x"}', None, None],
                                          [1, 1, 1, "lots", -1]):
                db.execute("UPDATE replies SET extra = ?, prompt_tokens = ? WHERE key = ?", (extra, tokens, key))
        asked = len(server.requests)
        summary = template.evaluate(get_family(family_id), family_rows_, settings, cache, folder / "run2", "t")
        assert summary["request_failures"] == len(UNREADABLE_200)
        assert len(server.requests) - asked == len(UNREADABLE_200) + 5  # the failures, and the five rows refused
        assert [r["request_failed"] for r in _responses(folder / "run2")] == [r["request_failed"] for r in results]


def test_a_reply_past_the_integer_bound_says_why_no_answer_was_read():
    row = {"family": "logicif", "task_id": "t0", "test_case_id": 0, "code_output": {"output": 1, "stats": {"n": 1}}}
    for reply in (f'{{"output": {HUGE}, "stats": {{"n": 1}}}}', f"**Output:** {HUGE}\n**Statistics:** {{\"n\": 1}}",
                  f"**Output:** 0x{'f' * 5000}\n**Statistics:** {{\"n\": 1}}"):
        verdict = logicif_line({**row, "response": reply})
        assert verdict["unread"] == "reply holds an integer of more than 4300 digits" and not verdict["formatted"]
    for reply in HOSTILE:  # every reply the reader refused says why
        verdict = logicif_line({**row, "response": reply})
        assert verdict.get("unread") or "{" not in reply, reply[:40]


def test_a_body_is_bounded_compressed_and_inflated_by_the_setting_llm_max_reply_bytes(hostile):
    from ifforge.eval.evaluation import load_eval_settings

    server, _ = hostile
    config = load_eval_settings({"model": "m", "base_url": server.url, "api_key": "k", "llm_max_retries": 0,
                                 "llm_max_reply_bytes": BOUND}).config_for()
    assert config.max_reply_bytes == BOUND
    for kind in ("an endless body", "a gzip bomb"):  # the endless one would end only in a timeout, unbounded
        with pytest.raises(LLMUnavailable, match="over 100,000 bytes"):
            _chat(LLM(config), f"[{kind}] Do it.")
    with StubServer(lambda request: Answer(body=b"x", headers={"Content-Encoding": "br"})) as other:
        with pytest.raises(LLMUnavailable, match="Content-Encoding 'br'"):
            _chat(_llm(other, max_retries=0))


def test_an_empty_reply_is_the_models_answer_scored_wrong_counted_and_asked_once_more(tmp_path):
    rows = [{"task_id": f"t{k}", "test_case_id": 0, "instruction": f"[t{k}] Do it.",
             "code_output": {"output": k, "stats": {"n": k}}} for k in range(3)]
    asked: dict[str, int] = {}

    def answer(request):  # t0: always empty (cut at max_tokens, billed); t1: right; t2: empty once, then right
        text = request["messages"][-1]["content"]
        asked[text] = asked.get(text, 0) + 1
        k = int(text[2])
        if k == 0 or (k == 2 and asked[text] == 1):
            return Answer(content="", finish_reason="length", usage={"prompt_tokens": 10, "completion_tokens": 300})
        return Answer(content=json.dumps({"output": k, "stats": {"n": k}}), usage={"prompt_tokens": 10,
                                                                                   "completion_tokens": 5})

    with StubServer(answer) as server:
        settings = EvalSettings(model="m", base_url=server.url, api_key="k")  # five retries: an empty reply uses one
        summary = template.evaluate(get_family("logicif"), rows, settings, tmp_path / "c.sqlite", tmp_path / "run1", "t")
        assert asked == {"[t0] Do it.": 2, "[t1] Do it.": 1, "[t2] Do it.": 2}
        report = json.loads((tmp_path / "run1" / "report.json").read_text())
        assert summary["request_failures"] == 0 and report["overall"]["cases"] == 3  # in every denominator
        assert report["overall"]["case_both_right"] == 2
        results = _responses(tmp_path / "run1")
        assert results[0]["response"] == "" and results[0]["empty_reply"] == "empty reply, finish_reason=length"
        import pandas as pd

        assert pd.read_parquet(tmp_path / "run1" / "scores.parquet")["unread"][0] == "empty reply, finish_reason=length"
        usage = report["run"]["llm"]["evaluate"]
        assert usage["calls"] == 5 and usage["completion_tokens"] == 3 * 300 + 2 * 5 and usage["prompt_tokens"] == 50
        server.requests.clear()
        again = template.evaluate(get_family("logicif"), rows, settings, tmp_path / "c.sqlite", tmp_path / "run2", "t")
        assert not server.requests and again["request_failures"] == 0  # the empty answer was kept: nothing to ask
        assert _responses(tmp_path / "run2")[0]["empty_reply"] == "empty reply, finish_reason=length"


def test_an_empty_reply_in_a_generate_stage_is_its_answer_asked_once_more_then_cached(tmp_path):
    from ifforge.core.records import Outcome
    from ifforge.core.runner import Stage, run_items
    from ifforge.core.store.versions import ItemCache

    async def ask(item, llm, config):
        return Outcome(kept=(await llm.chat([{"role": "user", "content": item}], stage="ask")).text)

    with StubServer(lambda request: Answer(content="" if request["messages"][-1]["content"] == "b" else "A")) as server:
        stage = Stage(name="ask", version="1", writes=str, reads=str, function=lambda item: None, llm_function=ask,
                      llm=LLMConfig(model="m", base_url=server.url, api_key="k"))
        first = run_items(stage, ["a", "b"], ItemCache(tmp_path / "items"), response_cache=tmp_path / "r.sqlite")
        assert first.lost == 0 and [o.kept for o in first.outcomes] == ["A", ""] and len(server.requests) == 3
        second = run_items(stage, ["a", "b"], ItemCache(tmp_path / "items2"), response_cache=tmp_path / "r.sqlite")
        assert [o.kept for o in second.outcomes] == ["A", ""] and len(server.requests) == 3


def test_a_cache_planted_in_the_version_folder_decides_no_score(tmp_path, prefect_server, monkeypatch):
    """A `.llm_cache.sqlite` holding right answers, written by another install (its own secret) into
    the version folder a benchmark ships in: the score comes from the server, which answers wrong."""
    from test_evaluate import _benchmark

    from ifforge.eval.evaluation import cache_file, load_rows
    from ifforge.flows.evaluate import evaluate

    version, rows = _benchmark(tmp_path)
    right = {row["instruction"]: json.dumps(row["code_output"]) for row in rows}
    with StubServer(lambda request: Answer(content=right[request["messages"][-1]["content"]])) as server:
        settings = EvalSettings(model="m", base_url=server.url, api_key="k")
        planted = cache_file(settings, version)
        monkeypatch.setenv("IFFORGE_CACHE_DIR", str(tmp_path / "another-install"))
        template.evaluate(get_family("logicif"), load_rows(version / "benchmark.jsonl"), settings, planted, tmp_path / "x", "t")
        assert len(server.requests) == 9 and planted.exists()
        monkeypatch.undo()

        server.requests.clear()
        server.handler = lambda request: Answer(content='{"output": -1, "stats": {}}')
        folder = evaluate(benchmark=str(tmp_path / "bench"), model="m", base_url=server.url, progress=False)
        assert len(server.requests) == 9  # every row asked: the planted answers decided nothing
        report = json.loads((Path(folder) / "report.json").read_text())
        assert report["overall"]["cases"] == 9 and report["overall"]["case_both_right"] == 0
