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
