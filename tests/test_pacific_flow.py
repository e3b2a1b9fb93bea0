"""PACIFIC end to end through the real Prefect engine: generate, evaluate (chat turn by turn), review."""

import json
import re

from ifforge.families.pacific.answers import parse_answers
from ifforge.flows.evaluate import evaluate
from ifforge.flows.generate import generate
from ifforge.testing.openai_stub import Answer, StubServer
from floors_check import assert_floors_counted

OPTIONS = {"progress": False, "chain_lengths": [3, 4], "output_lengths": [3], "samples": 2, "seed": 11}


def test_pacific_generates_the_same_benchmark_for_the_same_seed_and_scores_a_model(tmp_path, prefect_server,
                                                                                  monkeypatch):
    out = tmp_path / "out"
    folder = generate(family="pacific", out=str(out), options=OPTIONS)
    assert folder == str(out / "pacific" / "v001")
    rows = [json.loads(line) for line in open(f"{folder}/benchmark.jsonl")]
    assert len(rows) == 4 * 4  # 4 chains x (2 modes x 2 forms)
    manifest = json.loads(open(f"{folder}/manifest.json").read())
    assert manifest["family"] == "pacific" and manifest["stages"]["gold"]["computed"] == 4
    assert sum(manifest["export"]["by_instruction"].values()) == 2 * 3 + 2 * 4  # every step counted
    assert isinstance(manifest["export"]["identity_redraws"], int)
    assert_floors_counted(folder)
    assert (out / "pacific" / "v001" / "items" / rows[0]["chain_id"] / "chain.py").exists()
    assert generate(family="pacific", out=str(out), options=OPTIONS) == folder  # nothing changed: same version
    again = generate(family="pacific", out=str(tmp_path / "again"), options=OPTIONS)
    assert open(f"{again}/benchmark.jsonl").read() == open(f"{folder}/benchmark.jsonl").read()  # byte for byte
    other = generate(family="pacific", out=str(out), options={**OPTIONS, "seed": 12})
    assert other == str(out / "pacific" / "v002")
    assert open(f"{other}/benchmark.jsonl").read() != open(f"{folder}/benchmark.jsonl").read()
    polyglot = generate(family="pacific", out=str(out), options={**OPTIONS, "languages": ["python", "java", "cpp"]})
    checked = json.loads(open(f"{polyglot}/manifest.json").read())["stages"]["crosscheck"]
    assert checked["steps"] == 2 * 3 + 2 * 4 and checked["java_disagrees"] == checked["cpp_disagrees"] == 0
    polyglot_rows = [json.loads(line) for line in open(f"{polyglot}/benchmark.jsonl")]
    assert len(polyglot_rows) == 4 * 2 * 4  # 4 chains x 2 modes x (3 languages + text)
    assert {r["language"] for r in polyglot_rows} == {"python", "java", "cpp", None}

    gold = {row["task_id"]: row["gold"] for row in rows}
    by_prompt = {}
    for row in rows:
        if row["mode"] == "prompt":
            by_prompt[row["prompt"]] = row
        else:
            by_prompt[row["messages"][0]["content"]] = row

    def model(request):
        """Right on code-form rows, one wrong step on text-form rows; in chat, one step per turn."""
        messages = request["messages"]
        row = by_prompt[messages[0]["content"]]
        values = list(gold[row["task_id"]])
        if row["form"] == "nl":
            values[-1] = "wrong" if isinstance(values[-1], int) else 12345
        if row["mode"] == "chat":
            step = sum(1 for m in messages if m["role"] == "user")
            asked = re.findall(r"\[ANSWER\]\[(\d+)\]", messages[-1]["content"])
            assert asked == [str(step)]
            return Answer(content=f"[ANSWER][{step}] {json.dumps(values[step - 1])} [/ANSWER]")
        return Answer(content="\n".join(f"[ANSWER][{i}] {json.dumps(v)} [\\ANSWER]" for i, v in enumerate(values, 1)))

    monkeypatch.setenv("OPENAI_API_KEY", "test")
    with StubServer(model) as server:
        report = evaluate(benchmark=folder, model="stub-model", base_url=server.url, options={"llm_max_retries": 0})
    summary = json.loads(open(f"{report}/report.json").read())
    assert summary["overall"]["samples"] == 16 and summary["overall"]["prompt_accuracy"] == 0.5
    assert summary["by_form"]["code"]["prompt_accuracy"] == 1.0 and summary["by_form"]["nl"]["prompt_accuracy"] == 0.0
    assert summary["by_mode"]["chat"]["instruction_accuracy"] == summary["by_mode"]["prompt"]["instruction_accuracy"]
    chats = [r for r in server.requests if len(r["messages"]) > 1]
    assert chats and all(m["role"] in ("user", "assistant") for r in chats for m in r["messages"])
    assert parse_answers(chats[0]["messages"][1]["content"])  # the model's own reply went back in

    from ifforge.review import load_items, render_page

    page = render_page(load_items(folder), folder)
    assert rows[0]["task_id"] in page and "Reference code" in page and "gold per step" in page
