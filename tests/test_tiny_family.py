"""A sixth family, written in `tests/tiny_family/` and registered by one line here, goes through
generate, floors and the card, evaluate (the flow, against the stub server), an export and the
review page: the generic code serves it without an edit."""

import json

import pytest
from floors_check import assert_floors_counted

from ifforge.exports import export
from ifforge.exports.benchmark import read_benchmark
from ifforge.families import FAMILIES, Entry, get_family
from ifforge.flows.evaluate import evaluate
from ifforge.flows.generate import generate
from ifforge.review import load_items, render_page
from ifforge.testing.openai_stub import Answer, StubServer


@pytest.fixture
def echo():
    with FAMILIES.registered(Entry("echo", "a word said back in capitals", "tiny_family.family")):
        yield get_family("echo")


def test_a_family_in_one_folder_and_one_registry_line_runs_end_to_end(echo, tmp_path, prefect_server, monkeypatch):
    folder = generate(family="echo", out=str(tmp_path / "out"), options={"progress": False, "words": 8, "seed": 1})
    rows = [json.loads(line) for line in open(f"{folder}/benchmark.jsonl")]
    assert len(rows) == 8 and all(row["gold"] == row["word"].upper() for row in rows)
    floors = assert_floors_counted(folder)  # the one baseline passes the words already in capitals
    assert floors["trivially_passed"]["rows"] == sum(row["word"].isupper() for row in rows)

    def model(request):
        """Right on short words, the word as given on long ones."""
        word = request["messages"][-1]["content"].rsplit(" ", 1)[-1]
        return Answer(content=word.upper() if len(word) <= 3 else word)

    monkeypatch.setenv("OPENAI_API_KEY", "test")
    with StubServer(model) as server:
        report = evaluate(benchmark=folder, model="stub", base_url=server.url, options={"llm_max_retries": 0})
    summary = json.loads(open(f"{report}/report.json").read())
    right = sum(len(row["word"]) <= 3 or row["word"].isupper() for row in rows)
    assert summary["overall"]["rows"] == 8 and 0 < summary["overall"]["right"] == right < 8
    assert summary["by_length"]["short"]["accuracy"] == 1.0 and summary["run"]["family"] == "echo"
    assert open(f"{report}/report.md").read().startswith("# Echo: ")

    written = export(read_benchmark(folder), "lm-eval", tmp_path / "lm-eval")
    assert written["rows"] == 8 and "accuracy" in (tmp_path / "lm-eval" / f"{written['task']}.yaml").read_text()

    page = render_page(load_items(folder), folder)
    assert all(f'data-task-id="{row["task_id"]}"' in page for row in rows) and "capital letters" in page


def test_a_plan_whose_stages_do_not_fit_fails_when_it_is_built_naming_both_stages(echo):
    """A stage that reads what the stage before it does not write is refused at plan time, before
    a run loads or computes anything."""
    from dataclasses import replace

    from tiny_family.family import Gold, Word

    from ifforge.families.base import BatchStage, PlanError, check_plan, checked_plan

    [capitals] = checked_plan(echo, echo.settings_class())
    assert (capitals.reads, capitals.writes) == (Word, Gold)
    shout = BatchStage("shout", lambda items, settings: (items, [], {}), reads=Word, writes=Word)
    with pytest.raises(PlanError, match="stage 'shout' reads Word, but stage 'capitals' writes Gold"):
        check_plan("echo", Word, [capitals, shout])
    with pytest.raises(PlanError, match="stage 'capitals' reads Gold, but the family's load writes Word"):
        check_plan("echo", Word, [replace(capitals, reads=Gold)])
    with pytest.raises(PlanError, match="family 'echo' must declare `loads`"):
        check_plan("echo", None, [capitals])
    check_plan("echo", Word, [capitals, replace(shout, reads=Gold, writes=Gold)])  # a fit: no error


def test_a_mismatched_plan_stops_generate_before_anything_runs(echo, tmp_path, monkeypatch):
    from tiny_family.family import Echo, Gold

    from ifforge.families.base import PlanError
    from ifforge.generation.run import GenerateRun

    plan = Echo.plan
    monkeypatch.setattr(Echo, "plan", lambda self, settings: [*plan(self, settings), *plan(self, settings)])
    run = GenerateRun(echo.settings_class(out=tmp_path / "out"))
    with pytest.raises(PlanError, match=f"stage 'capitals' reads Word, but stage 'capitals' writes {Gold.__name__}"):
        run.plan
    assert not (tmp_path / "out").exists()


def test_every_real_family_plan_fits():
    """Each shipped family's default plan (and LogicIF's with dedup off) passes the check."""
    from ifforge.families import FAMILIES, get_family
    from ifforge.families.base import checked_plan

    for family_id in FAMILIES:
        family = get_family(family_id)
        steps = checked_plan(family, family.settings_class())
        assert steps and steps[0].reads is family.loads, family_id
