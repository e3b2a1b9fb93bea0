"""Scores researchers can trust: LogicIF's answer format and result files, failures that are not
scores, run folders, task deciles, like-with-like comparison, dry runs and limits."""

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from ifforge.cli import main
from ifforge.eval.compare import compare
from ifforge.families.logicif.report import summarise
from ifforge.families.logicif.verdicts import extract_answer, judge
from ifforge.testing.openai_stub import Answer, StubServer

GOLD_OUTPUT, GOLD_STATS = [3, 1], {"swaps": 2, "passes": 1}


@pytest.mark.parametrize("reply, found", [
    ("Walked through it.\n\n**Output:** [3, 1]\n\n**Statistics:** {\"swaps\": 2, \"passes\": 1}", "labelled"),
    ("**Output:**\n`[3, 1]`\n\n**Statistics:**\n`{'swaps': 2, 'passes': 1}`", "labelled"),  # Python literal
    ("Output: **[3, 1]**\nStatistics:\n- `swaps = 2`\n- passes: 1\n\nDone.", "labelled"),  # bullets
    ("**Output:** ([3, 1], {'swaps': 2, 'passes': 1})\n\n**Statistics:** {'swaps': 2, 'passes': 1}", "labelled"),
    ("**Output:** the list ends up as 3 then 1\n**Statistics:** none\n\n---\n**Output:**\n"
     "**([3, 1], {'swaps': 2, 'passes': 1})**", "labelled"),  # only the final pair is an answer
    ("**Output:** [9]\n**Statistics:** {\"swaps\": 0, \"passes\": 0}\nOn second thought:\n"
     "{\"output\": [3, 1], \"stats\": {\"swaps\": 2, \"passes\": 1}}", "json"),  # JSON first, then labels
])
def test_logicif_labelled_answers_are_read(reply, found):
    verdict = judge(GOLD_OUTPUT, GOLD_STATS, reply)
    assert verdict.both_ok and verdict.extracted_by == found


def test_labels_without_a_value_or_code_in_them_are_no_answer():
    assert extract_answer("**Output:** it depends\n**Statistics:** several") == (None, "none")
    assert extract_answer("**Output:** __import__('os').system('true')\n**Statistics:** {}") == (None, "none")
    wrong = judge(GOLD_OUTPUT, GOLD_STATS, "**Output:** [1, 3]\n**Statistics:** {\"swaps\": 2, \"passes\": 1}")
    assert wrong.formatted and not wrong.output_ok and wrong.stats_ok


def _result(task, case, **answer):
    return {"task_id": task, "test_case_id": case, "code_output": {"output": case, "stats": {"n": case}},
            "complexity_score": 10.0 + len(task), **answer}


def test_score_reads_logicif_result_files(tmp_path, capsys):
    rows = [
        _result("a", 0, llm_response="**Output:** 0\n\n**Statistics:** {\"n\": 0}"),
        _result("a", 1, llm_response="**Output:** 1\n\n**Statistics:** {\"n\": 7}"),
        _result("bb", 0, llm_response="ignored", llm_output={"output": 0, "stats": {"n": 0}, "success": True}),
        _result("bb", 1, llm_response="x", llm_output={"output": None, "stats": None, "success": False}),
        _result("ccc", 0, llm_output={"output": 0, "stats": {"n": 0}, "success": True}),
    ]
    path = tmp_path / "sample_result.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert main(["score", str(path), "--out", str(tmp_path / "scored")]) == 0
    capsys.readouterr()
    report = json.loads((tmp_path / "scored" / "report.json").read_text())
    overall = report["overall"]
    assert (overall["cases"], overall["case_both_right"], overall["format_failures"]) == (5, 3, 1)
    assert (overall["tasks"], overall["task_both_right"]) == (3, 1)
    assert overall["extracted_by"] == {"labelled": 2, "given": 2, "none": 1}
    assert set(report["by_complexity_decile"]) == {"1", "2", "3"}  # LogicIF's top-level complexity_score


def test_deciles_bin_tasks_and_never_split_one():
    rows = []
    for task in range(40):
        for case in range(1 + task % 7):  # tasks of 1 to 7 cases
            rows.append({"task_id": f"t{task:02d}", "test_case_id": case, "formatted": True, "output_ok": True,
                         "stats_ok": case % 2 == 0, "both_ok": case % 2 == 0, "code_complexity_score": task + case})
    deciles = summarise(pd.DataFrame(rows))["by_complexity_decile"]
    assert [row["tasks"] for row in deciles.values()] == [4] * 10
    assert sum(row["cases"] for row in deciles.values()) == len(rows)


def test_compare_says_plainly_what_differs(tmp_path):
    def report(name, expressions, cases, failures=0):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({
            "title": name, "run": {"benchmark_sha256": "abc", "split": "full", "expressions": expressions},
            "overall": {"cases": cases - failures, "tasks": 40, "case_both_right": cases // 2, "task_both_right": 9,
                        "request_failures": failures}}))
        return path

    same = compare([report("m1", "original", 333), report("m2", "original", 333)])
    assert "Not like with like" not in same
    differs = compare([report("m1", "original", 333), report("m3", "all", 1998, failures=3)])
    assert "Not like with like" in differs
    assert "expressions differs: original, all" in differs and "cases differ: 333, 1998" in differs
    assert "failed requests (left out of accuracy): 0, 3" in differs
    assert "| m1 | 333 | 49.8% (166/333) [" in differs


def _bench(folder: Path) -> Path:
    rows = [{"task_id": f"t{t}", "test_case_id": c, "input": [c], "code_output": {"output": c, "stats": {"n": c}},
             "instruction": f"[t{t}#{c}] Do it.", "stats_keys": ["n"], "difficulty": "easy",
             "complexity_metrics": {"code_complexity_score": float(t)}} for t in range(3) for c in range(3)]
    version = folder / "bench" / "v001"
    version.mkdir(parents=True)
    (version / "benchmark.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return version


def _estimate(version, url):
    from ifforge.eval.evaluation import EvalSettings, dry_run, load_rows

    settings = EvalSettings(model="m", base_url=url)
    return dry_run(load_rows(version / "benchmark.jsonl"), settings, version / "evals" / ".llm_cache.sqlite")


def _artifacts(flow_run_id) -> dict:
    """A flow run's artifacts by key, their data decoded."""
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as client:
        response = client._client.post("/artifacts/filter", json={
            "artifacts": {"flow_run_id": {"any_": [str(flow_run_id)]}}, "limit": 20, "offset": 0})
    return {row["key"]: json.loads(row["data"]) if isinstance(row["data"], str) and row["type"] == "table"
            else row["data"] for row in response.json()}


def test_failed_requests_are_not_scores_and_a_rerun_asks_only_them(tmp_path, prefect_server):
    """(No capsys here: Prefect's log handler would keep its closed stream.)"""
    from ifforge.eval.evaluation import RequestsFailed
    from ifforge.flows.evaluate import evaluate

    version = _bench(tmp_path)
    broken = {("t1", "2")}

    def model(request):
        text = request["messages"][-1]["content"]
        if text.startswith("Below is a model's reply"):  # the LLM extractor, asked only with --extractor llm
            return Answer(content='{"found": true, "output": 1, "stats": {"n": 1}}')
        task, case = re.match(r"\[(\w+)#(\d)\]", text).groups()
        if (task, case) in broken:
            return Answer(status=500, error="the server is down")
        if (task, case) == ("t2", "1"):
            return Answer(content="I counted once and got one, with n at one.")
        return Answer(content=f'{{"output": {case}, "stats": {{"n": {case}}}}}')

    options = {"llm_max_retries": 0}
    with StubServer(model) as server:
        assert main(["evaluate", str(version), "--model", "m", "--base-url", server.url, "--dry-run"]) == 0
        estimate = _estimate(version, server.url)
        assert (estimate["cases"], estimate["requests"], estimate["already_cached"]) == (9, 9, 0)
        assert server.requests == []  # a dry run sends nothing

        state = evaluate(benchmark=str(version), model="m", base_url=server.url, options=options, progress=False,
                         return_state=True)
        with pytest.raises(RequestsFailed, match="1 of 9 requests failed: 1 http 500, after retries"):
            state.result()
        table = _artifacts(state.state_details.flow_run_id)["bench-m-evaluate-table"]
        assert table[0]["group"] == "overall" and table[0]["why they failed"] == "1 http 500"  # the UI says why too
        folder = version / "evals" / "m" / "r001"
        report = json.loads((folder / "report.json").read_text())["overall"]
        assert (report["cases"], report["request_failures"], report["tasks"], report["tasks_left_out"]) == (8, 1, 2, 1)
        assert report["case_both_right"] == 7 and report["format_failures"] == 1  # t2#1 has no answer
        assert "**1 task(s) left out of task accuracy** (a case of each had a failed request" in \
            (folder / "report.md").read_text()
        assert (folder / "report.md").read_text().count("failed request: 1 http 500") == 1  # said once, with why
        assert "**Replies:** 8 of 9 rows answered; 1 without a reply (1 failed request: 1 http 500; not scored)." in \
            (folder / "report.md").read_text()  # every report says how many rows had no reply
        asked = len(server.requests)

        assert _estimate(version, server.url)["already_cached"] == 8

        broken.clear()  # the server is back: the same run asks only what failed
        again = evaluate(benchmark=str(version), model="m", base_url=server.url, options=options, progress=False)
        assert len(server.requests) == asked + 1 and Path(again) == folder
        assert json.loads((folder / "report.json").read_text())["overall"]["request_failures"] == 0
        assert "**Replies:** 9 of 9 rows answered; 0 without a reply." in (folder / "report.md").read_text()

        extracted = evaluate(benchmark=str(version), model="m", base_url=server.url, progress=False,
                             options={**options, "extractor": "llm", "limit": 2})
        report = json.loads(Path(extracted, "report.json").read_text())
        assert report["overall"]["cases"] == 6 and Path(extracted).name == "r002"  # first two tasks; new run
        assert len(server.requests) == asked + 1  # t2 is beyond the limit: no extraction asked

        full = evaluate(benchmark=str(version), model="m", base_url=server.url, progress=False,
                        options={**options, "extractor": "llm"})
        overall = json.loads(Path(full, "report.json").read_text())["overall"]
        assert overall["extracted_by"] == {"json": 8, "llm": 1} and overall["case_both_right"] == 9
        assert json.loads(Path(full, "report.json").read_text())["by_extraction"]["llm"]["cases"] == 1

        broken.add(("t0", "0"))
        command = ["evaluate", str(version), "--model", "m2", "--base-url", server.url, "--no-progress",
                   "--max-retries", "0"]
        assert main(command) == 1  # one failed request: the command fails
        assert main([*command, "--allow-failures", "0.2"]) == 0  # 20% allowed: it ends well, still reported
        assert main(["compare", str(version / "evals" / "m"), str(version / "evals" / "m2")]) == 0  # latest runs
