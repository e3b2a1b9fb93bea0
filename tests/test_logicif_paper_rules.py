"""LogicIF's extracted answers (`llm_output`, its result files' format) scored as its
`compare_outputs` does: a missing field is null or `{}`, and `--rules paper` also compares a failed
extraction, whose null output then matches a gold null (the one place the default differs)."""

import json

from ifforge.cli import main
from ifforge.eval.evaluation import EvalSettings
from ifforge.eval.template import verdict_frame
from ifforge.families.logicif.family import FAMILY


def _entry(case, gold_output, llm_output):
    """One line of a LogicIF result file (its sample_result.jsonl): the gold and the extraction."""
    return {"task_id": "search_binary_search", "test_case_id": case, "input": [[1, 2, 3], 2],
            "code_output": {"output": gold_output, "stats": {"probes": 2}},
            "llm_response": "(the model's reply)", "llm_output": llm_output}


ENTRIES = [
    _entry(0, 1, {"output": 1, "stats": {"probes": 2}, "success": True, "extract_response": "{}"}),
    _entry(1, 1, {"output": 1, "success": True}),  # the extractor lost the trackers: the output still counts
    _entry(2, 1, {"stats": {"probes": 2}, "success": True}),  # lost the output: null, wrong here
    _entry(3, None, {"output": None, "stats": {}, "success": False, "extract_response": "[ERROR]"}),
]


def verdicts(rules):
    frame = verdict_frame(FAMILY, ENTRIES, [], EvalSettings(model="", options={"rules": rules}))
    return [tuple(row) for row in frame[["formatted", "output_ok", "stats_ok"]].itertuples(index=False)]


def test_missing_fields_read_as_logicif_reads_them():
    assert verdicts("ifforge")[:3] == [(True, True, True), (True, True, False), (True, False, True)]


def test_a_failed_extraction_is_no_answer_except_in_paper_mode():
    assert verdicts("ifforge")[3] == (False, False, False)
    assert verdicts("paper")[3] == (True, True, False)  # compare_outputs: None == None
    assert verdicts("paper")[:3] == verdicts("ifforge")[:3]


def test_score_takes_rules_paper_for_logicif_result_files(tmp_path, capsys):
    path = tmp_path / "sample_result.jsonl"
    path.write_text("".join(json.dumps(entry) + "\n" for entry in ENTRIES))
    for rules in ("ifforge", "paper"):
        assert main(["score", str(path), "--rules", rules, "--out", str(tmp_path / rules)]) == 0
    capsys.readouterr()
    overall = {rules: json.loads((tmp_path / rules / "report.json").read_text())["overall"]
               for rules in ("ifforge", "paper")}
    assert overall["ifforge"]["format_failures"] == 1 and overall["paper"]["format_failures"] == 0
    assert overall["paper"]["case_output_right"] == overall["ifforge"]["case_output_right"] + 1
    assert "--rules paper" in (tmp_path / "paper" / "report.md").read_text()
    assert "--rules paper" not in (tmp_path / "ifforge" / "report.md").read_text()


def test_agreement_candidates_are_read_in_every_format_but_prose():
    """The agreement script's replies (benchmarks/logicif_agreement.py): the exact answer, written
    every way, is read right by the rules, except in prose (what `--extractor llm` is for)."""
    import importlib.util
    from pathlib import Path

    from ifforge.families.logicif.scoring import verdict_of

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "logicif_agreement.py"
    spec = importlib.util.spec_from_file_location("logicif_agreement", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    row = {"task_id": "t", "test_case_id": 0, "code_output": {"output": [[1, 2], None, "a"], "stats": {"n": 0, "m": 3}},
           "_source": "test"}
    cases = script.candidates([row])
    exact = {case["render"]: verdict_of(case, case | {"llm_output": None}).both_ok
             for case in cases if case["variant"] == "exact"}
    assert set(exact) == set(script.RENDERS)
    assert {render for render, right in exact.items() if not right} == {"prose"}
    missing = next(case for case in cases if case["variant"] == "missing_zero_tracker")
    assert missing["llm_output"]["stats"] == {"n": 0, "m": 3}  # LogicIF's extractor sets an unstated tracker to 0
