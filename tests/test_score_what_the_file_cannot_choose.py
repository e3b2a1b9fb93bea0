"""`ifforge score` and `evaluate` on files that try to choose their score: the gold comes from the
benchmark alone, a row counts once, every report says how many rows had no reply (scored as
wrong), LogicIF's result files are scored case by case whatever one case holds, and IFEval-FC
replies are read as IFEval-FC's, their malformed calls named in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from conftest import needs_fixture
from ifforge.cli import main
from test_score_any_family import FAMILIES, runs  # noqa: F401 (a fixture)

DENOMINATOR = {"logicif": "cases", "pacific": "samples", "ifeval-fc": "cases", "mcbench": "rows", "lifbench": "samples"}


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def _refused(command: list[str], capsys) -> str:
    assert main(command) == 2
    error = capsys.readouterr().err
    assert error.startswith("ifforge: ") and error.count("\n") == 1 and "Traceback" not in error
    return error


def _hits(family_id: str, overall: dict) -> int:
    """The rows right by the family's headline measure."""
    return {"logicif": lambda: overall["case_both_right"],
            "pacific": lambda: round(overall["prompt_accuracy"] * overall["samples"]),
            "ifeval-fc": lambda: overall["format_right"],
            "mcbench": lambda: overall["final_accuracy_counts"][0],
            "lifbench": lambda: overall["full_points"]}[family_id]()


@pytest.mark.parametrize("family_id, field, forged", [
    ("logicif", "code_output", {"output": "forged", "stats": {}}), ("pacific", "gold", ["forged"]),
    ("mcbench", "gold_final", 12345), ("ifeval-fc", "rule_id", "quotation"), ("lifbench", "length_tokens", 99)])
def test_a_reply_carrying_other_gold_than_the_benchmarks_is_refused(runs, tmp_path, capsys,  # noqa: F811
                                                                    family_id, field, forged):
    base = runs[family_id]["folder"]
    replies = _lines(base / "responses.jsonl")
    replies[1][field] = forged if replies[1].get(field) != forged else "other"
    path = _write(tmp_path / "replies.jsonl", replies)
    benchmark = base / "benchmark.jsonl"
    error = _refused(["score", str(path), "--benchmark", str(benchmark), "--out", str(tmp_path / "out")], capsys)
    assert error == (f"ifforge: {path}:2: field {field!r} differs from the benchmark's ({benchmark}): the gold comes "
                     "from the benchmark only\n")
    assert not (tmp_path / "out").exists()


def test_wrong_replies_with_their_own_gold_score_nothing_against_the_benchmark(runs, tmp_path, capsys):  # noqa: F811
    base = runs["logicif"]["folder"]
    wrong = [{**reply, "response": '{"output": "wrong", "stats": {}}', "code_output": {"output": "wrong", "stats": {}}}
             for reply in _lines(base / "responses.jsonl")]
    path = _write(tmp_path / "forged.jsonl", wrong)
    assert main(["score", str(path), "--out", str(tmp_path / "alone")]) == 0  # no benchmark: the file's own gold
    capsys.readouterr()
    alone = json.loads((tmp_path / "alone" / "report.json").read_text())
    assert alone["overall"]["case_both"] == 1.0 and alone["replies"]["rows"] is None
    assert "No benchmark given: the gold is the replies file's own" in (tmp_path / "alone" / "report.md").read_text()
    benchmark = ["--benchmark", str(base / "benchmark.jsonl")]
    assert "field 'code_output' differs" in _refused(["score", str(path), *benchmark], capsys)
    bare = _write(tmp_path / "bare.jsonl", [{k: v for k, v in reply.items() if k != "code_output"} for reply in wrong])
    assert main(["score", str(bare), *benchmark, "--out", str(tmp_path / "scored")]) == 0
    capsys.readouterr()
    assert json.loads((tmp_path / "scored" / "report.json").read_text())["overall"]["case_both_right"] == 0


@pytest.mark.parametrize("family_id", FAMILIES)
def test_a_repeated_reply_is_refused_not_counted_twice(runs, tmp_path, capsys, family_id):  # noqa: F811
    base = runs[family_id]["folder"]
    first = _lines(base / "responses.jsonl")[0]
    path = _write(tmp_path / "replies.jsonl", [first] * 100)
    error = _refused(["score", str(path), "--benchmark", str(base / "benchmark.jsonl")], capsys)
    assert error.startswith(f"ifforge: {path}: lines 1 and 2 both answer task_id {first['task_id']!r}")
    assert "one reply per row" in error


def test_evaluate_and_export_refuse_a_row_asked_twice(runs, tmp_path, capsys):  # noqa: F811
    row = _lines(runs["mcbench"]["folder"] / "benchmark.jsonl")[0]
    path = _write(tmp_path / "rows.jsonl", [row] * 30)
    for command in (["evaluate", str(path), "--model", "m", "--dry-run"],
                    ["export", str(path), "--format", "inspect", "--out", str(tmp_path / "export")]):
        error = _refused(command, capsys)
        assert error == (f"ifforge: {path}: lines 1 and 2 are the same row (task_id {row['task_id']!r}): each row "
                         "once (a repeated row would count twice)\n")
    assert not (tmp_path / "export").exists()


@pytest.mark.parametrize("family_id", FAMILIES)
def test_every_report_says_how_many_rows_had_no_reply_and_counts_them_wrong(runs, tmp_path, capsys,  # noqa: F811
                                                                           family_id):
    base = runs[family_id]["folder"]
    rows = _lines(base / "benchmark.jsonl")
    path = _write(tmp_path / "three.jsonl", _lines(base / "bare.jsonl")[:3])
    subset = _write(tmp_path / "subset.jsonl", rows[:3])  # a benchmark of those three rows only
    reports = {}
    for name, benchmark in (("all", base / "benchmark.jsonl"), ("subset", subset)):
        assert main(["score", str(path), "--benchmark", str(benchmark), "--out", str(tmp_path / name)]) == 0
        capsys.readouterr()
        reports[name] = json.loads((tmp_path / name / "report.json").read_text())
    n = len(rows)
    assert reports["all"]["replies"] == {"rows": n, "answered": 3, "without_reply": n - 3, "not_in_file": n - 3,
                                         "failed_requests": 0, "unreadable": 0}
    text = (tmp_path / "all" / "report.md").read_text()
    assert f"**Replies:** 3 of {n} rows answered; {n - 3} without a reply ({n - 3} not in the replies file: " \
           "scored as wrong, no answer)." in text
    overall, three = reports["all"]["overall"], reports["subset"]["overall"]
    assert overall[DENOMINATOR[family_id]] == n and three[DENOMINATOR[family_id]] == 3
    assert _hits(family_id, overall) == _hits(family_id, three)  # the same replies right, over every row
    assert len(_lines(tmp_path / "all" / "responses.jsonl")) == 3  # the replies given, nothing made up
    scored = pd.read_parquet(tmp_path / "all" / "scores.parquet")["task_id"]
    assert set(scored) == {row["task_id"] for row in rows}  # every row has its verdict


def _logicif_line(case: dict, **changes) -> dict:
    return {**{k: case[k] for k in ("task_id", "test_case_id", "code_output")}, "llm_response": case["response"],
            **changes}


def test_logicif_result_files_are_scored_case_by_case(tmp_path, capsys):
    cases = [json.loads(line) for line in needs_fixture("cases.jsonl").read_text().splitlines()[:8]]
    lines = [json.dumps(_logicif_line(case)) for case in cases]
    deep = "[" * 150 + "]" * 150
    lines[1] = lines[1][:-1] + ', "llm_output": {"output": NaN, "stats": {}, "success": true}}'
    lines[2] = lines[2].replace('"code_output": {"output": ', '"code_output": {"output": Infinity, "was": ', 1)
    lines[3] = lines[3][:-1] + ', "input": [1e400]}'  # not read by the verdict: left out, the case scored
    lines[4] = lines[4][:-1] + ', "llm_output": {"output": ' + deep + ', "stats": {}}}'
    lines[5] = lines[5][:-1] + ', "llm_output": {"output": ' + "[" * 5000 + "]" * 5000 + ', "stats": {}}}'
    lines[6] = json.dumps({**_logicif_line(cases[6]), "code_output": {"output": cases[6]["code_output"]["output"]},
                           "llm_output": {"output": cases[6]["code_output"]["output"], "stats": {}}})  # no stats
    lines[7] = lines[7][:-1] + ', "llm_response": 1e400}'  # a duplicate key: the last one is read, as json does
    path = tmp_path / "sample_result.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert main(["score", str(path), "--out", str(tmp_path / "scored")]) == 0, capsys.readouterr().err
    capsys.readouterr()
    frame = pd.read_parquet(tmp_path / "scored" / "scores.parquet")
    assert list(zip(frame["task_id"], frame["test_case_id"])) == [(c["task_id"], c["test_case_id"]) for c in cases]
    assert list(frame["unread"].fillna("")) == [
        "", "field 'llm_output' holds NaN, which is not a JSON number",
        "field 'code_output' holds Infinity, which is not a JSON number", "",
        "field 'llm_output' is nested deeper than 100 levels", "field 'llm_output' is nested deeper than 100 levels",
        "", "field 'llm_response' holds inf, which is not a JSON number"]
    assert frame["both_ok"][3] and frame["both_ok"][6]  # a gold without stats is {}, as LogicIF reads it
    report = json.loads((tmp_path / "scored" / "report.json").read_text())
    assert report["overall"]["cases"] == 8 and report["replies"]["unreadable"] == 5
    assert report["overall"]["extracted_by"]["unreadable"] == 5
    broken = tmp_path / "broken.jsonl"
    broken.write_text(lines[0] + "\n" + '{"task_id": "x", "test_case_id": 1, "code_output": {oops}}\n')
    assert ":2: is not JSON (" in _refused(["score", str(broken)], capsys)  # not JSON to any reader: one line


def test_ifeval_fc_replies_without_a_family_are_ifeval_fcs(runs, tmp_path, capsys):  # noqa: F811
    base = runs["ifeval-fc"]["folder"]
    bare = base / "bare.jsonl"
    error = _refused(["score", str(bare)], capsys)
    assert error.startswith(f"ifforge: {bare}:1: which family? No field 'family' and no --benchmark")
    assert "missing field" not in error and "--benchmark" in error
    mixed = _lines(bare)
    mixed[0]["family"] = "ifeval-fc"  # one names its family, the others do not
    path = _write(tmp_path / "mixed.jsonl", mixed)
    assert main(["score", str(path), "--benchmark", str(base / "benchmark.jsonl"), "--out", str(tmp_path / "o")]) == 0
    capsys.readouterr()
    assert json.loads((tmp_path / "o" / "report.json").read_text())["overall"] == runs["ifeval-fc"]["expected"]


@pytest.mark.parametrize("tool_calls, field", [
    ("call it", "field 'tool_calls' must be a list"), ([3], "field 'tool_calls[0]' must be an object"),
    ([{"function": 3}], "field 'tool_calls[0].function' must be an object"),
    ([{"function": {"name": 5, "arguments": [1]}}], "field 'tool_calls[0].function.name' must be text"),
    ([{"function": {"name": "f", "arguments": 7}}], "field 'tool_calls[0].function.arguments' must be text"),
    ([{"name": ["f"], "arguments": "{}"}], "field 'tool_calls[0].name' must be text")])
def test_malformed_tool_calls_are_one_line(runs, tmp_path, capsys, tool_calls, field):  # noqa: F811
    base = runs["ifeval-fc"]["folder"]
    replies = _lines(base / "bare.jsonl")
    replies[2]["tool_calls"] = tool_calls
    path = _write(tmp_path / "replies.jsonl", replies)
    error = _refused(["score", str(path), "--benchmark", str(base / "benchmark.jsonl")], capsys)
    assert error.startswith(f"ifforge: {path}:3: {field}")


@pytest.mark.parametrize("family_id", FAMILIES)
def test_a_reply_that_is_not_text_is_one_line(runs, tmp_path, capsys, family_id):  # noqa: F811
    base = runs[family_id]["folder"]
    replies = _lines(base / "bare.jsonl")
    replies[1] = {**{k: v for k, v in replies[1].items() if k not in ("responses", "tool_calls")}, "response": 5}
    path = _write(tmp_path / "replies.jsonl", replies)
    error = _refused(["score", str(path), "--benchmark", str(base / "benchmark.jsonl")], capsys)
    assert error == f"ifforge: {path}:2: field 'response' must be text or null, not a whole number\n"


def test_failed_requests_in_a_replies_file_are_not_a_score(runs, tmp_path, capsys):  # noqa: F811
    base = runs["pacific"]["folder"]
    replies = _lines(base / "responses.jsonl")
    for reply in replies[:2]:  # a file that calls its two wrong replies failed requests
        reply.update(request_failed=True, response=None, responses=None)
    path = _write(tmp_path / "replies.jsonl", replies)
    command = ["score", str(path), "--benchmark", str(base / "benchmark.jsonl"), "--out", str(tmp_path / "out")]
    assert main(command) == 1
    error = capsys.readouterr().err
    assert error.endswith(f"ifforge: 2 of {len(replies)} rows are failed requests (allowed: 0%): not scored; the "
                          f"report in {tmp_path / 'out'} covers the rest\n")
    n = len(replies)
    assert f"**Replies:** {n - 2} of {n} rows answered; 2 without a reply (2 failed requests: 2 no error given; not scored)." in \
        (tmp_path / "out" / "report.md").read_text()
    assert main([*command, "--allow-failures", "0.2"]) == 0
    capsys.readouterr()
