"""benchmarks/logicif_agreement.py on an outside candidate file: every line is read on its own, as
`ifforge score` reads it, so a line ifforge refuses is named with its reason and hides no other."""

import importlib.util
import json
from pathlib import Path

PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "logicif_agreement.py"
SPEC = importlib.util.spec_from_file_location("logicif_agreement", PATH)
script = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(script)

GOLD = {"output": [1, 2], "stats": {"swaps": 1}}


def line(**fields) -> str:
    return json.dumps({"task_id": "t", "test_case_id": 0, "code_output": GOLD, **fields})


def test_each_line_is_read_alone_and_scored_as_ifforge_score_scores_it(tmp_path):
    path = tmp_path / "theirs.jsonl"
    path.write_text("\n".join([
        line(llm_output={"output": [1.0, 2], "stats": {"swaps": True}, "success": False}, llm_response="x"),
        line(llm_output={"output": float("nan"), "stats": {}}),
        "",
        "{not json",
        line(llm_response='Done.\n{"output": [1, 2], "stats": {"swaps": 1}}'),
    ]) + "\n")
    cases = script.outside_cases(path)
    assert [case["where"] for case in cases] == ["theirs.jsonl:1", "theirs.jsonl:2", "theirs.jsonl:4",
                                                 "theirs.jsonl:5"]
    # a case whose answer holds NaN is that case's failure, with its reason, not the file's refusal
    assert cases[1]["refused"] is None and "NaN" in cases[1]["result"]["unreadable"]
    assert "not JSON" in cases[2]["refused"] and cases[2]["group"] is None
    assert cases[0]["group"] == "t" and cases[0]["raw"].startswith('{"task_id"')
    # a failed extraction with the right answer: no answer by default, right under --rules paper
    assert script.ours_outside(cases[0], "given", "ifforge") == [False, False, False]
    assert script.ours_outside(cases[0], "given", "paper") == [True, True, True]
    assert script.ours_outside(cases[0], "reply", "ifforge") == [False, False, False]  # "x" states nothing
    assert script.ours_outside(cases[1], "given", "paper") == [False, False, False]
    assert script.ours_outside(cases[1], "reply", "ifforge") is None  # no reply to read
    assert script.ours_outside(cases[3], "given", "paper") == [True, True, True]  # no llm_output: the reply
