"""The LLM stages and the generate flow against the scripted server: what is kept, dropped, retried."""

import asyncio
import json

import pytest
from oracle import Oracle

from ifforge.cli import main
from ifforge.flows.generate import generate
from ifforge.core.llm.client import LLM, LLMConfig
from ifforge.core.sandbox import isolation
from ifforge.families.logicif.configs import InstrumentConfig
from ifforge.families.logicif.stages import instrument, load
from ifforge.testing.openai_stub import Answer, StubServer

SEEDS = {
    "alpha": '''
def alpha(values, limit):
    tag = "alpha-mark"
    total = 0
    for value in values:
        if value > limit:
            total += value
    return total, tag
''',
    "bravo": '''
def bravo(words):
    tag = "bravo-mark"
    seen = []
    for word in words:
        if word not in seen:
            seen.append(word)
    return len(seen)
''',
    "charlie": '''
def step(x):
    return x * 2 + 1

def charlie(n):
    tag = "charlie-mark"
    value = 0
    while value < n:
        value = step(value)
    return value
''',
    "delta": '''
def delta(grid):
    tag = "delta-mark"
    count = 0
    for row in grid:
        for cell in row:
            if cell == 1:
                count += 1
    return count
''',
}
INPUTS = {
    "alpha": [[[1, 5, 9], 4], [[], 0], [[3, 3], 2], [[7], 10]],
    "bravo": [[["a", "b", "a"]], [[]], [["x"]], [["p", "q", "p", "q"]]],
    "charlie": [[0], [5], [20], [1]],
    "delta": [[[[1, 0], [1, 1]]], [[]], [[[0]]], [[[1, 1, 1]]]],
}
MARKERS = {task: f'"{task}-mark"' for task in SEEDS}


@pytest.fixture
def seed_dir(tmp_path):
    folder = tmp_path / "seeds"
    folder.mkdir()
    for task, source in SEEDS.items():
        lines = "".join(f"# input: {json.dumps(args)}\n" for args in INPUTS[task])
        (folder / f"{task}.py").write_text(source.lstrip() + "\n\n" + lines)
    return folder


def _seed(seed_dir, task):
    seeds, _ = load.load_seed_dir(seed_dir)
    return next(s for s in seeds if s.task_id == task)


def _config(llm_reasks: int) -> InstrumentConfig:
    """What the instrument stage receives: its typed config."""
    return InstrumentConfig(case_seconds=2.0, memory_mb=1024, function_seconds=20.0, llm_reasks=llm_reasks,
                            min_cases=3, max_tracker_value=50, max_decimal_places=6, max_input_magnitude=1e6,
                            max_input_length=10_000, max_output_length=10_000,
                            input_max_steps=20_000)


def _run(coroutine_factory, server):
    async def go():
        llm = LLM(LLMConfig(model="stub", base_url=server.url, api_key="k", timeout=5, max_retries=1))
        try:
            return await coroutine_factory(llm)
        finally:
            await llm.close()
    return asyncio.run(go())


def test_llm_anonymisation_is_kept_after_a_re_ask_and_falls_back_when_it_never_passes(seed_dir):
    oracle = Oracle(markers=MARKERS, wrong_once={"alpha"}, always_wrong={"bravo"})
    with StubServer(oracle) as server:
        alpha = _run(lambda llm: instrument.run_llm(_seed(seed_dir, "alpha"), llm, _config(llm_reasks=2)), server)
        assert alpha.kept.path == "llm" and "after 2 tries" in alpha.kept.notes[0]
        second_ask = server.requests[1]["messages"][-1]["content"]
        assert "tracker keys" in second_ask and "not_a_tracker" in second_ask
        bravo = _run(lambda llm: instrument.run_llm(_seed(seed_dir, "bravo"), llm, _config(llm_reasks=1)), server)
    assert bravo.kept.path == "deterministic"
    assert "LLM anonymisation not used" in bravo.kept.notes[-1] and "tracker keys" in bravo.kept.notes[-1]
    assert oracle.kinds.count("anonymise") == 2 + 2


def test_llm_anonymisation_that_changes_the_output_or_leaks_names_is_refused(seed_dir):
    seed = _seed(seed_dir, "alpha")
    good = json.loads(Oracle(markers=MARKERS).anonymise(
        f"Original code:\n```python\n{seed.source}\n```\nThe entry function `alpha`", False).content.split("\n", 1)[1])
    wrong = dict(good, function=good["function"].replace("return ((", "return ((1 + ", 1).replace(
        "return ((1 + v2, v1), stats)", "return ((v2 + 1, v1), stats)"))
    leaky = dict(good, function=good["function"].replace("v2", "total"))
    with StubServer() as server:
        server.script(*(Answer(content=json.dumps(reply)) for reply in (wrong, leaky)))
        outcome = _run(lambda llm: instrument.run_llm(seed, llm, _config(llm_reasks=1)), server)
    asks = [r["messages"][-1]["content"] for r in server.requests]
    assert "but the original returns" in asks[1]
    assert outcome.kept.path == "deterministic" and "still there: total" in outcome.kept.notes[-1]


def test_llm_trackers_that_tell_nothing_are_sent_back(seed_dir):
    """A model's loop counter that only repeats an input's length is refused like a wrong output."""
    from ifforge.families.logicif.codeops.instrument.anonymise import anonymise
    from ifforge.families.logicif.codeops.instrument.trackers import build, propose

    seed = _seed(seed_dir, "alpha")
    probe = propose(anonymise(seed.source, "alpha").source)
    loop = [c for c in probe.candidates if c.role == "loop"]
    code, trackers = build(probe, loop)  # runs once per value: len(values) on every input
    dull = {"function": code, "trackers": [{"name": t.name, "explanation": t.explanation} for t in trackers]}
    good = json.loads(Oracle(markers=MARKERS).anonymise(
        f"Original code:\n```python\n{seed.source}\n```\nThe entry function `alpha`", False).content.split("\n", 1)[1])
    with StubServer() as server:
        server.script(*(Answer(content=json.dumps(reply)) for reply in (dull, good)))
        outcome = _run(lambda llm: instrument.run_llm(seed, llm, _config(llm_reasks=1)), server)
    second_ask = server.requests[1]["messages"][-1]["content"]
    assert "tracker 'loop_iterations' is always argument 1's length or value" in second_ask
    assert outcome.kept.path == "llm" and [t.name for t in outcome.kept.trackers] == ["branch_hits"]


@pytest.mark.skipif(isolation.detect().method != "bubblewrap", reason="bubblewrap is not installed here")
def test_a_model_reply_with_a_module_level_write_cannot_touch_the_host(seed_dir, tmp_path):
    seed = _seed(seed_dir, "alpha")
    good = json.loads(Oracle(markers=MARKERS).anonymise(
        f"Original code:\n```python\n{seed.source}\n```\nThe entry function `alpha`", False).content.split("\n", 1)[1])
    target = tmp_path / "written-by-the-model.txt"
    hostile = dict(good, function=(f"try:\n    open({str(target)!r}, 'w').write('pwned')\nexcept OSError:\n    pass\n"
                                   + good["function"]))
    with StubServer() as server:
        server.script(Answer(content=json.dumps(hostile)))
        outcome = _run(lambda llm: instrument.run_llm(seed, llm, _config(llm_reasks=0)), server)
    # the code policy refuses `open` before anything runs: the model's function is not used
    assert outcome.kept.path == "deterministic"
    assert not target.exists()
    # without the write, the same reply passes every check and is the one kept
    with StubServer() as server:
        server.script(Answer(content=json.dumps(good)))
        outcome = _run(lambda llm: instrument.run_llm(seed, llm, _config(llm_reasks=0)), server)
    assert outcome.kept.path == "llm"


def test_generate_with_an_llm_keeps_drops_and_caches(seed_dir, tmp_path, prefect_server):
    oracle = Oracle(markers=MARKERS, wrong_once={"alpha"}, bad_evolution={"bravo"}, refine_once={"charlie"},
                    never_complete={"delta"}, prose_first={"alpha"})
    out = tmp_path / "out"
    with StubServer(oracle) as server:
        options = {"base_url": server.url, "model": "stub-model", "progress": False, "verify_rounds": 2,
                   "llm_cache": str(tmp_path / "responses.sqlite"), "rewrites": 20, "expressions": 3}
        folder = generate(seeds=str(seed_dir), out=str(out), options=options)
        manifest = json.loads(open(f"{folder}/manifest.json").read())
        requests_after_first = len(server.requests)

        assert manifest["stages_used"]["instrument"]["llm"]["model"] == "stub-model"
        for stage in ("instrument", "evolve", "describe", "verify"):
            assert manifest["llm"][stage]["calls"] > 0, stage
        assert oracle.kinds.count("rewrite") == 2  # two sets of ten rewrites, then enough
        chosen = json.loads(open(f"{folder}/expressions/expressions.json").read())
        assert len(chosen["chosen"]) == 3
        rewrites = [json.loads(line) for line in open(f"{folder}/expressions/rewrites.jsonl")]
        assert len(rewrites) == 20 and {r["origin"] for r in rewrites} == {"stub-model"}
        # every re-ask is counted: alpha's anonymisation failed its check once, its first description had no parts
        assert manifest["llm"]["instrument"]["reasks"] == 1 and manifest["llm"]["describe"]["reasks"] == 1
        # the template rewrites (side work) are counted like a stage, and logged call by call
        assert manifest["llm"]["expressions"]["calls"] == 2 and manifest["llm"]["expressions"]["model"] == "stub-model"
        logged = [json.loads(line) for line in open(f"{folder}/llm_calls.jsonl")]
        assert sum(call["stage"] == "expressions" for call in logged) == 2
        assert len(logged) == sum(usage["calls"] for usage in manifest["llm"].values())
        assert manifest["export"]["reviewer"] == {"model": "stub-model", "writer_model": "stub-model",
                                                  "same_as_writer": True}
        assert any("reviewer is the writer's own model" in note for note in manifest["notes"])
        rows = [json.loads(line) for line in open(f"{folder}/benchmark.jsonl")]
        assert {row["task_id"] for row in rows} == {"alpha", "bravo", "charlie"}
        assert manifest["dropped"]["items"] == {"verify:verification_failed": 1}
        dropped = [json.loads(line) for line in open(f"{folder}/dropped.jsonl")]
        assert "the order of the two updates is ambiguous" in dropped[0]["detail"]
        assert manifest["paths"]["alpha"] == {"instrument": "llm", "evolved_turns": 1, "description_by": "model",
                                              "description_model": "stub-model"}
        assert all((row["description_by"], row["description_model"]) == ("model", "stub-model") for row in rows)
        assert manifest["export"]["descriptions"] == {"model": 3, "deterministic": 0, "models": ["stub-model"]}
        assert manifest["paths"]["bravo"]["evolved_turns"] == 0

        items = out / "logicif" / folder.rsplit("/", 1)[1] / "items"
        evolve_bravo = json.loads((items / "bravo" / "evolve.json").read_text())
        assert "signature changed" in evolve_bravo["notes"][-1]
        history = json.loads((items / "charlie" / "verification_history.json").read_text())
        assert [r["passed"] for r in history] == [False, True]
        assert history[0]["review"]["coverage_percentage"] == 70
        assert "REFINED" in (items / "charlie" / "description_turn_2.txt").read_text()
        assert "REFINED" in next(r["description"] for r in rows if r["task_id"] == "charlie")
        delta_history = json.loads((items / "delta" / "verification_history.json").read_text())
        assert len(delta_history) == 2 and not any(r["passed"] for r in delta_history)
        assert (out / "logicif" / folder.rsplit("/", 1)[1] / "llm_calls.jsonl").exists()

        # the same run again: the finished version is found, no request is sent
        assert generate(seeds=str(seed_dir), out=str(out), options=options) == folder
        assert len(server.requests) == requests_after_first

        # one setting changed, and a new response cache: only the stage it invalidates asks the model
        kinds_before = len(oracle.kinds)
        rounds = generate(seeds=str(seed_dir), out=str(out),
                          options={**options, "verify_rounds": 3, "llm_cache": str(tmp_path / "other.sqlite")})
        asked = oracle.kinds[kinds_before:]
        assert rounds != folder
        assert sorted(set(asked)) == ["refine", "verify"], asked  # no anonymise, evolve, describe, rewrite
        # alpha and bravo pass at once, charlie after one refine, delta fails all three rounds
        assert asked.count("verify") == 1 + 1 + 2 + 3 and asked.count("refine") == 1 + 2
        changed = json.loads(open(f"{rounds}/manifest.json").read())["changed"]
        assert changed["previous_version"] == folder.rsplit("/", 1)[1]
        assert changed["settings"] == {"verify_rounds": {"before": 2, "now": 3}}
        assert changed["invalidated"] == ["verify"] and changed["recomputed"] == {}
        assert changed["reused"] == ["dedup", "inputs", "instrument", "evolve", "execute", "complexity", "describe"]
        stages = json.loads(open(f"{rounds}/manifest.json").read())["stages"]
        assert stages["describe"]["computed"] == 0 and stages["verify"]["computed"] == 4
        first_run, requests_after_first = requests_after_first, len(server.requests)

        # a fresh outputs root (no versions, no stage cache): the response cache still answers everything
        again = generate(seeds=str(seed_dir), out=str(tmp_path / "elsewhere"), options=options)
        assert len(server.requests) == requests_after_first
        replay = json.loads(open(f"{again}/manifest.json").read())
        assert all(replay["llm"][s]["calls"] == 0 and replay["llm"][s]["cache_hits"] > 0
                   for s in replay["llm"] if s != "inputs")  # these seeds have inputs: that stage asks nothing
        assert replay["llm"]["inputs"]["calls"] == 0
        assert [json.loads(l) for l in open(f"{again}/benchmark.jsonl")] == rows

        # --no-cache: the model is asked again (a new version; nothing served from any cache)
        fresh = generate(seeds=str(seed_dir), out=str(out), options={**options, "no_cache": True})
        assert fresh != folder and len(server.requests) - requests_after_first >= first_run - 2  # rewrites: 2
        assert json.loads(open(f"{fresh}/manifest.json").read())["llm"]["instrument"]["cache_hits"] == 0

    # --llm none: the deterministic path, and it says so
    offline = generate(seeds=str(seed_dir), out=str(out), options={"llm": "none", "progress": False})
    offline_manifest = json.loads(open(f"{offline}/manifest.json").read())
    assert offline_manifest["llm"] == {} and set(offline_manifest["paths"]["alpha"].values()) <= {"deterministic", 0, None}


def test_an_outage_is_never_cached_the_run_fails_and_a_rerun_asks_exactly_for_what_was_lost(seed_dir, tmp_path,
                                                                                             prefect_server, capsys,
                                                                                             monkeypatch):
    oracle = Oracle(markers=MARKERS)
    down = {"describe"}  # the server fails every describe request, and only those

    def flaky(request):
        if down and "Explain the Python function below" in request["messages"][0]["content"]:
            return Answer(status=503)
        return oracle(request)

    out = tmp_path / "out"
    options = {"model": "stub-model", "progress": False, "llm_max_retries": 0, "expressions": 0,
               "evolve_turns": 0, "llm_cache": str(tmp_path / "responses.sqlite")}
    with StubServer(flaky) as server:
        options["base_url"] = server.url
        state = generate(seeds=str(seed_dir), out=str(out), options=options, return_state=True)
        assert state.is_failed() and "met an unreachable LLM server" in str(state.message or state.result(raise_on_failure=False))
        assert not (out / "logicif" / "v001" / "manifest.json").exists()  # left unfinished
        sent = len(server.requests)
        down.clear()  # the server is back
        folder = generate(seeds=str(seed_dir), out=str(out), options=options)
        assert folder == str(out / "logicif" / "v001")  # the unfinished version is resumed
        manifest = json.loads(open(f"{folder}/manifest.json").read())
        assert manifest["stages"]["instrument"]["computed"] == 0  # kept from the first run
        assert manifest["stages"]["describe"]["computed"] == 4  # the lost items, asked again
        assert manifest["llm"]["instrument"]["calls"] == 0 and len(server.requests) > sent

    monkeypatch.setenv("OPENAI_API_KEY", "wrong")
    with StubServer(lambda request: Answer(status=401, error="invalid key")) as server:
        code = main(["generate", "--seeds", str(seed_dir), "--out", str(tmp_path / "other"), "--no-progress",
                     "--base-url", server.url, "--model", "stub-model", "--set", "llm_max_retries=0",
                     "--set", "expressions=0", "--set", "evolve_turns=0"])
        assert len(server.requests) <= 4  # one request per item in flight, no retries: the run stopped
    assert code == 1  # the user sees one line naming the server, not a traceback of ours
    error = capsys.readouterr().err.splitlines()
    assert error[-1].startswith("ifforge: ") and server.url in error[-1]
