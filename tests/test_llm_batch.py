"""LLM stages through the Batch API: the batch fills the response cache, a killed run resumes its
batch, and batches can be cancelled; against the local test server's files and batches endpoints."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ifforge.cli import main
from ifforge.core.llm.client import LLMConfig
from ifforge.core.llm.batch import BatchEnded, BatchOptions, batch_folder
from ifforge.core.records import Outcome, Record
from ifforge.core.runner import Stage, run_items
from ifforge.core.settings import Settings, SettingsError, load_settings
from ifforge.core.store.versions import ItemCache
from ifforge.testing.openai_stub import Answer, StubServer


class Note(Record):
    task_id: str
    text: str


class EchoConfig(Record):
    rounds: int


ITEMS = [Note(task_id=f"t{i}", text=f"word{i}") for i in range(5)]


async def echo(item, llm, config):
    """A stage whose second request depends on the first reply (like a re-ask or a refine round)."""
    messages = [{"role": "user", "content": f"say {item.text}"}]
    replies = []
    for _ in range(config.rounds):
        reply = await llm.chat(messages, stage="echo")
        replies.append(reply.text)
        messages = messages + [{"role": "assistant", "content": reply.text}, {"role": "user", "content": "again"}]
    return Outcome(kept=item.model_copy(update={"text": " | ".join(replies)}))


def answer(request):
    return Answer(content=f"{request['messages'][0]['content']} after {len(request['messages'])}")


def run_echo(url, folder, batch=True, rounds=2, item_cache="cache"):
    stage = Stage("echo", "1", Note, lambda item: Outcome(kept=item), config=EchoConfig(rounds=rounds),
                  llm_function=echo, llm=LLMConfig(model="stub", base_url=url), reads=Note)
    responses = Path(folder) / ".llm_cache.sqlite"
    options = BatchOptions(batch_folder(responses), poll_seconds=0.02) if batch else None
    return run_items(stage, ITEMS, ItemCache(Path(folder) / item_cache), response_cache=responses, batch=options)


def _texts(run):
    return [outcome.kept.text for outcome in run.outcomes]


def _wait_for_state(folder, process=None):
    deadline = time.monotonic() + 60
    while not list(batch_folder(Path(folder) / "x").glob("*.json")):
        assert time.monotonic() < deadline and (process is None or process.poll() is None), "no batch submitted"
        time.sleep(0.02)
    [path] = batch_folder(Path(folder) / "x").glob("*.json")
    return json.loads(path.read_text())


def test_a_batch_run_fills_the_cache_and_an_online_run_after_it_asks_nothing(tmp_path):
    with StubServer(answer) as server:
        batched = run_echo(server.url, tmp_path / "a")
        assert server.requests == []  # not one online chat request
        assert server.calls.count(("POST", "/v1/batches")) == 2  # one per round of the conversation
        assert server.calls.count(("POST", "/v1/files")) == 2 and len(server.batch_requests) == 10
        assert _texts(batched) == [f"say word{i} after 1 | say word{i} after 3" for i in range(5)]
        assert batched.usage["calls"] == 10 and batched.usage["cache_hits"] == 10
        assert not list(batch_folder(tmp_path / "a" / "x").glob("*.json"))  # saved: state gone
        online = run_echo(server.url, tmp_path / "a", batch=False, item_cache="other")  # items computed again
        assert server.requests == [] and _texts(online) == _texts(batched) and online.usage["cache_hits"] == 10
        fresh = run_echo(server.url, tmp_path / "b", batch=False)  # an online run from nothing
        assert len(server.requests) == 10 and _texts(fresh) == _texts(batched)
        bodies = [sorted(json.dumps(r, sort_keys=True) for r in found) for found in (server.batch_requests,
                                                                                      server.requests)]
        assert bodies[0] == bodies[1]  # a batch line's body is exactly what the online request sends


def test_a_run_killed_while_waiting_resumes_its_batch_without_submitting_another(tmp_path):
    with StubServer(answer) as server:
        server.hold = True
        script = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import test_llm_batch as t; "
                  f"t.run_echo({server.url!r}, {str(tmp_path)!r}, rounds=1)")
        process = subprocess.Popen([sys.executable, "-c", script], env=os.environ.copy())
        try:
            state = _wait_for_state(tmp_path, process)
            time.sleep(0.1)  # polling
        finally:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
        assert server.calls.count(("POST", "/v1/batches")) == 1
        server.hold = False
        resumed = run_echo(server.url, tmp_path, rounds=1)
        assert server.calls.count(("POST", "/v1/batches")) == 1 and server.calls.count(("POST", "/v1/files")) == 1
        assert ("GET", f"/v1/batches/{state['batch_id']}") in server.calls
        assert server.requests == [] and _texts(resumed) == [f"say word{i} after 1" for i in range(5)]


def test_cancel_stops_the_waiting_run_keeps_nothing_half_and_the_next_run_submits_again(tmp_path, capsys):
    with StubServer(answer) as server:
        server.hold = True
        failures = []

        def waiting():
            try:
                run_echo(server.url, tmp_path, rounds=1)
            except BatchEnded as error:
                failures.append(error)

        thread = threading.Thread(target=waiting)
        thread.start()
        state = _wait_for_state(tmp_path)
        assert main(["batch", "list", "--out", str(tmp_path)]) == 0
        assert state["batch_id"] in capsys.readouterr().out
        assert main(["batch", "cancel", "--out", str(tmp_path)]) == 0
        assert capsys.readouterr().out.split() == [state["batch_id"], "cancelled"]
        thread.join(30)
        [failure] = failures
        assert "was cancelled" in str(failure) and "0 of 5" in str(failure)
        assert ("POST", f"/v1/batches/{state['batch_id']}/cancel") in server.calls
        assert not list(batch_folder(tmp_path / "x").glob("*.json"))
        server.hold = False
        again = run_echo(server.url, tmp_path, rounds=1)
        assert server.calls.count(("POST", "/v1/batches")) == 2 and server.requests == []
        assert _texts(again) == [f"say word{i} after 1" for i in range(5)]


def test_batch_mode_needs_the_response_cache():
    with pytest.raises(SettingsError, match="llm_batch"):
        load_settings({"llm_batch": True, "no_cache": True}, settings_class=lambda family: Settings)


def test_a_logicif_stage_of_a_run_takes_its_answers_from_a_batch(tmp_path):
    from ifforge.generation.shards import Shard, run_stage_shard
    from ifforge.families import get_family, load_family_settings
    from ifforge.families.logicif.records import SeedFunction

    source = "def gate(codes, key):\n    if sum(codes) == 777:\n        return key\n    return 0\n"
    seed = SeedFunction(task_id="gate", source=source, entry="gate", inputs=[], origin="gate.py")
    proposal = json.dumps({"inputs": [[[700, 70, 7], 3], [[1], 2]]})
    with StubServer(lambda request: Answer(content=proposal)) as server:
        settings = load_family_settings({"out": str(tmp_path), "model": "stub", "base_url": server.url,
                                         "llm_batch": True, "llm_batch_poll": 0.02, "progress": False})
        stage = next(step for step in get_family("logicif").plan(settings) if step.name == "inputs")
        run = run_stage_shard(stage, Shard(0, [seed]), settings, run_id="").run
    assert server.requests == [] and server.calls.count(("POST", "/v1/batches")) == 1
    assert "def gate(codes, key)" in server.batch_requests[0]["messages"][0]["content"]
    made = {json.dumps(i.args): i.origin for i in run.outcomes[0].kept.inputs}
    assert made[json.dumps([[700, 70, 7], 3])] == "llm"


def test_a_corrupt_batch_state_file_is_one_line_naming_it(tmp_path, capsys):
    folder = batch_folder(tmp_path / ".llm_cache.sqlite")
    folder.mkdir(parents=True)
    (folder / "describe-0123.json").write_text('{"batch_id": "b')  # cut off mid-write by something else
    assert main(["batch", "list", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "describe-0123.json: not a batch state file" in err and "Traceback" not in err
