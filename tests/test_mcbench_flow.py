"""MCBench end to end through the real Prefect engine: generate (same seed, same bytes), evaluate a
model on the local stub server, and the family's checker agreeing with the report; review.
ItemsOnDisk small (3 metrics, one pair per category): the test-time budget is shared."""

import json

from ifforge.flows.evaluate import evaluate
from ifforge.flows.generate import generate
from ifforge.testing.openai_stub import Answer, StubServer
from floors_check import assert_floors_counted

OPTIONS = {"progress": False, "metrics": ["levenshtein", "jaccard", "bleu"], "pairs_per_category": 1, "seed": 3}


def block(values: list, final) -> str:
    lines = [f"[Step{k}] : {json.dumps(v, ensure_ascii=False)}" for k, v in enumerate(values, 1)]
    return "Working...\n### Final Results ###\n" + "\n".join(lines) + f"\n[Final] : {final}"


def test_mcbench_generates_the_same_benchmark_for_the_same_seed_and_scores_a_model(tmp_path, prefect_server,
                                                                                  monkeypatch):
    out = tmp_path / "out"
    folder = generate(family="mcbench", out=str(out), options=OPTIONS)
    assert folder == str(out / "mcbench" / "v001")
    rows = [json.loads(line) for line in open(f"{folder}/benchmark.jsonl")]
    assert len(rows) == 3 * 4 * 3  # metrics x pairs (one per category) x variants
    manifest = json.loads(open(f"{folder}/manifest.json").read())
    assert manifest["family"] == "mcbench" and manifest["stages"]["gold"]["computed"] == 3
    assert_floors_counted(folder)
    assert (out / "mcbench" / "v001" / "items" / "bleu" / "reference.py").exists()
    assert generate(family="mcbench", out=str(out), options=OPTIONS) == folder  # nothing changed: same version
    again = generate(family="mcbench", out=str(tmp_path / "again"), options=OPTIONS)
    assert open(f"{again}/benchmark.jsonl").read() == open(f"{folder}/benchmark.jsonl").read()  # byte for byte
    # (a new seed giving new pairs is checked without Prefect, in test_mcbench_family.py)

    by_prompt = {row["prompt"]: row for row in rows}

    def model(request):
        """Right on code rows; step 1 wrong but the final right on example rows; no answer block otherwise."""
        row = by_prompt[request["messages"][-1]["content"]]
        steps = list(row["gold_steps"])
        if row["variant"] == "code":
            return Answer(content=block(steps, row["gold_final"]))
        if row["variant"] == "example":
            return Answer(content=block(["wrong"] + steps[1:], row["gold_final"] * 1.04))
        return Answer(content=f"The NLP score is {row['gold_final']}.")

    monkeypatch.setenv("OPENAI_API_KEY", "test")
    with StubServer(model) as server:
        report = evaluate(benchmark=folder, model="stub-model", base_url=server.url, options={"llm_max_retries": 0})
    summary = json.loads(open(f"{report}/report.json").read())
    overall = summary["overall"]
    steps = {variant: sum(r["steps"] for r in rows if r["variant"] == variant) for variant in ("code", "example")}
    assert overall["rows"] == 36 and overall["final_accuracy"] == round(2 / 3, 4)
    assert overall["format_following"] == round(2 / 3, 4)
    assert overall["following_depth_counts"] == [steps["code"] + steps["example"] - 12,
                                                 sum(r["steps"] for r in rows)]
    assert summary["by_variant"]["code"]["following_depth"] == 1.0
    assert summary["by_variant"]["requirement"]["final_accuracy"] == 0.0
    assert set(summary["by_metric"]) == {"bleu", "jaccard", "levenshtein"}
    assert set(summary["by_category"]) == {"plain", "non_latin", "emoji", "adversarial"}
    assert "| overall | 36 | 66.7% (24/36)" in open(f"{report}/report.md").read()

    from ifforge.review import load_items, render_page

    page = render_page(load_items(folder), folder)
    assert rows[0]["task_id"] in page and "gold per step" in page
