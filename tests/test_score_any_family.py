"""`ifforge score` and `ifforge compare` for every family: replies produced elsewhere are scored as
`evaluate` scores them (whole rows, or only what names a row with `--benchmark`), runs of several
families are put side by side, and a file that is not ifforge's is one line naming file, line and field."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ifforge.cli import main
from ifforge.eval.evaluation import EvalSettings
from ifforge.eval.template import verdict_frame
from ifforge.families import get_family
from test_exports import (
    ifeval_fc_call,
    ifeval_fc_rows,
    lifbench_reply,
    lifbench_rows,
    logicif_rows,
    mcbench_reply,
    mcbench_rows,
    pacific_reply,
    pacific_rows,
)

FAMILIES = ("logicif", "pacific", "ifeval-fc", "mcbench", "lifbench")


def _reply(family: str, rows: list[dict], row: dict, extra) -> dict:
    """The reply fields `evaluate` would have kept for `row` (the same replies test_exports gives)."""
    if family == "logicif":
        return {"response": extra[row["instruction"]]}
    if family == "pacific":
        if row["mode"] == "chat":
            return {"responses": [pacific_reply(rows, row["messages"][:k]) for k in range(1, len(row["messages"]) + 1)]}
        return {"response": pacific_reply(rows, [{"role": "user", "content": row["prompt"]}])}
    if family == "ifeval-fc":
        name, arguments = ifeval_fc_call(rows, row["messages"][-1]["content"])
        if name is None:
            return {"response": "Could you tell me more first?", "tool_calls": []}
        raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
        return {"response": None, "tool_calls": [{"id": "c1", "type": "function",
                                                  "function": {"name": name, "arguments": raw}}]}
    if family == "mcbench":
        return {"response": mcbench_reply(rows, row["prompt"])}
    return {"response": lifbench_reply(rows, row["prompt"])}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, dict]:
    """Per family: its benchmark rows, the replies as `evaluate` keeps them (row fields the family
    carries + reply), the same replies with only what names their row, and the overall numbers the
    family's report gives them in process."""
    folder = tmp_path_factory.mktemp("families")
    built = {"logicif": logicif_rows(2), "pacific": (pacific_rows()[:12], None), "ifeval-fc": (ifeval_fc_rows(), None),
             "mcbench": (mcbench_rows(), None), "lifbench": (lifbench_rows(), None)}
    out = {}
    for family_id, (rows, extra) in built.items():
        family = get_family(family_id)
        rows = [{**row, "family": family_id} for row in rows]
        replies = [_reply(family_id, rows, row, extra) for row in rows]
        results = [{**family.carry(row), **reply} for row, reply in zip(rows, replies)]
        bare = [{**{key: row[key] for key in family.keys}, **reply} for row, reply in zip(rows, replies)]
        settings = EvalSettings(model="")
        expected = family.report.summarise(verdict_frame(family, [dict(r) for r in results], rows, settings))["overall"]
        base = folder / family_id
        base.mkdir()
        for name, content in (("benchmark.jsonl", rows), ("responses.jsonl", results), ("bare.jsonl", bare)):
            (base / name).write_text("".join(json.dumps(item) + "\n" for item in content))
        out[family_id] = {"folder": base, "rows": rows, "expected": json.loads(json.dumps(expected))}
    return out


def _score(paths: list[str], out: Path, capsys) -> dict:
    assert main(["score", *paths, "--out", str(out)]) == 0, capsys.readouterr().err
    capsys.readouterr()
    return json.loads((out / "report.json").read_text())


@pytest.mark.parametrize("family_id", FAMILIES)
def test_score_reads_every_familys_replies_as_evaluate_scores_them(runs, family_id, capsys):
    run = runs[family_id]
    base = run["folder"]
    benchmark = ["--benchmark", str(base / "benchmark.jsonl")]
    joined = _score([str(base / "bare.jsonl"), *benchmark], base / "joined", capsys)  # only task ids and replies
    assert joined["overall"] == run["expected"]
    assert joined["run"]["family"] == family_id and joined["run"]["cases"] == len(run["rows"])
    if get_family(family_id).needs_rows:
        assert main(["score", str(base / "responses.jsonl")]) == 2
        error = capsys.readouterr().err
        assert error == f"ifforge: {base / 'responses.jsonl'}: {family_id} replies are scored against their " \
                        "benchmark's rows: give --benchmark\n"
    else:  # what an evaluation kept is enough on its own
        alone = _score([str(base / "responses.jsonl")], base / "alone", capsys)
        assert alone["overall"] == run["expected"]


def test_the_scores_are_the_replies_not_a_constant(runs):
    """The test replies are right on some rows only, so the numbers above could have come out otherwise."""
    mcbench = runs["mcbench"]
    n = len(mcbench["rows"])
    assert mcbench["expected"]["final_accuracy_counts"] == [len(range(0, n, 3)), n]  # every third reply is right
    assert 0 < runs["pacific"]["expected"]["prompt_accuracy"] < 1
    assert 0 < runs["ifeval-fc"]["expected"]["format_right"] < runs["ifeval-fc"]["expected"]["cases"]
    assert 0 < runs["lifbench"]["expected"]["full_points"] < runs["lifbench"]["expected"]["samples"]
    assert 0 < runs["logicif"]["expected"]["case_both_right"] < runs["logicif"]["expected"]["cases"]


def test_compare_puts_every_familys_runs_side_by_side(runs, capsys):
    reports = []
    for family_id in FAMILIES:
        base = runs[family_id]["folder"]
        _score([str(base / "bare.jsonl"), "--benchmark", str(base / "benchmark.jsonl")], base / "one", capsys)
        report = json.loads((base / "one" / "report.json").read_text())
        twin = base / "two"  # a second model's run of the same family, its verdicts beside it
        shutil.copytree(base / "one", twin, dirs_exist_ok=True)
        (twin / "report.json").write_text(json.dumps({**report, "title": f"{family_id}-other"}))
        reports += [str(base / "one"), str(twin)]
    assert main(["compare", *reports]) == 0
    out = capsys.readouterr().out
    sections = ("\n" + out).split("\n## ")[1:]
    assert [section.split("\n", 1)[0] for section in sections] == list(FAMILIES)
    for family_id, section in zip(FAMILIES, sections):
        report = get_family(family_id).report
        overall = runs[family_id]["expected"]
        table = section.strip().split("\n\n")[1].splitlines()
        assert table[3].startswith(f"| {family_id}-other |") and len(table) == 4  # header, rule, two runs
        if family_id != "logicif":  # LogicIF keeps its Table-1 columns (test_scores, test_evaluate)
            assert table[0] == "| model | " + " | ".join(report.columns[1:]) + " |"
            assert table[3] == report.line(f"{family_id}-other", overall)
        # the same rows in each pair: each family's every metric, by name, paired; the same replies: no difference
        difference = section.split("\n### Differences from the first run", 1)[1]
        measured = [line for line in difference.splitlines() if line.startswith(f"| {family_id}-other: ")]
        assert [line.split(" | ")[0][2:].split(": ", 1)[1] for line in measured][:len(report.metrics)] == \
            list(report.metrics)
        assert measured and all(" | +0.0 | +0.0 to +0.0 |" in line for line in measured)
    assert "Not like with like" not in out  # each pair scored the same file


def test_a_report_that_is_not_one_is_one_line(tmp_path, capsys):
    broken = tmp_path / "report.json"
    for content, message in (("{not json", "not a report.json (JSONDecodeError"),
                             ('{"title": "x"}', "not a report.json (no 'overall' object)"),
                             ('{"overall": {"rows": 3}, "run": {"family": "mcbench"}}', "not a mcbench report"),
                             ('{"overall": {}, "run": {"family": "chess"}}', "run.family: unknown family 'chess'")):
        broken.write_text(content)
        assert main(["compare", str(broken)]) == 2
        error = capsys.readouterr().err
        assert error.startswith(f"ifforge: {broken}: ") and message in error and error.count("\n") == 1


LIFBENCH_REPLY = {"family": "lifbench", "sample_id": "s", "task": "single_id", "length_tokens": 4000,
                  "response": "x"}


@pytest.mark.parametrize("family_id, reply, with_benchmark, message", [
    ("lifbench", LIFBENCH_REPLY, True, ":2: missing field 'task_id'"),  # was an UnboundLocalError
    ("lifbench", {**LIFBENCH_REPLY, "task_id": "nowhere"}, True, ":2: no row with task_id 'nowhere' in "),
    ("mcbench", {"family": "mcbench", "task_id": "m", "gold_steps": [1], "response": "[Final] : 1"}, False,
     ":2: missing field 'gold_final'"),
    ("mcbench", {"family": "mcbench", "task_id": "m", "gold_steps": [1], "gold_final": 1}, False,
     ":2: no answer field (one of response)"),
    ("mcbench", {"family": "mcbench", "task_id": "m", "gold_steps": [1], "gold_final": 1, "unordered_steps": "1",
                 "response": "x"}, False, ":2: field 'unordered_steps' must be a list of step numbers"),
    ("pacific", {"family": "pacific", "task_id": "p", "mode": "prompt", "form": "code", "chain_length": 2,
                 "output_length": 1, "gold": "1, 2", "response": "x"}, False, ":2: field 'gold' must be a list"),
    ("mcbench", {"family": ["mcbench"], "task_id": "m"}, False, ":2: field 'family' must be text"),
    ("mcbench", {"family": "lifbench", "task_id": "m", "response": "x"}, False, ": rows of several families"),
])
def test_replies_that_cannot_be_scored_are_one_line(runs, tmp_path, capsys, family_id, reply, with_benchmark, message):
    base = runs[family_id]["folder"]
    good = json.loads((base / "responses.jsonl").read_text().splitlines()[0])
    path = tmp_path / "replies.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(reply) + "\n")  # the bad one on line 2
    command = ["score", str(path), "--out", str(tmp_path / "out")]
    assert main(command + (["--benchmark", str(base / "benchmark.jsonl")] if with_benchmark else [])) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"ifforge: {path}") and message in error and "Traceback" not in error
    assert error.count("\n") == 1 and not (tmp_path / "out").exists()


def test_replies_of_one_family_against_another_familys_benchmark_are_refused(runs, capsys):
    replies = runs["mcbench"]["folder"] / "responses.jsonl"
    benchmark = runs["lifbench"]["folder"] / "benchmark.jsonl"
    assert main(["score", str(replies), "--benchmark", str(benchmark)]) == 2
    assert capsys.readouterr().err == \
        f"ifforge: {replies}: replies of mcbench, but {benchmark} is a lifbench benchmark\n"


def test_ifeval_fc_replies_are_scored_by_the_papers_rules_on_request(runs, capsys):
    base = runs["ifeval-fc"]["folder"]
    paths = [str(base / "bare.jsonl"), "--benchmark", str(base / "benchmark.jsonl")]
    report = _score([*paths, "--rules", "paper"], base / "paper", capsys)
    assert report["rules"] == "paper" and report["overall"]["cases"] == runs["ifeval-fc"]["expected"]["cases"]
    mcbench = runs["mcbench"]["folder"] / "responses.jsonl"
    assert main(["score", str(mcbench), "--rules", "paper"]) == 2
    assert "mcbench has no `--rules paper` (it has: ifforge)" in capsys.readouterr().err
    assert main(["score", str(mcbench), "--strict-types"]) == 2  # another family's option
    assert "mcbench has no option --strict-types (setting strict_types; its options: rules)" in capsys.readouterr().err


@pytest.mark.parametrize("family_id", FAMILIES)
def test_every_familys_rows_in_the_sample_viewer_with_its_reasons(runs, family_id, capsys):
    """`samples.html` of a score run: every row with what was sent and the gold, each wrong one with
    its family's reason (not a bare "wrong"), the parts of a per-step verdict; `ifforge view` writes
    the same page again from the run's files."""
    from test_viewer import page_data, resolved

    base = runs[family_id]["folder"]
    out = base / "viewed"
    report = _score([str(base / "bare.jsonl"), "--benchmark", str(base / "benchmark.jsonl")], out, capsys)
    data = page_data((out / "samples.html").read_text())
    samples = data["samples"]
    assert len(samples) == len(runs[family_id]["rows"]) and {s["verdict"] for s in samples} == {"right", "wrong"}
    assert all(resolved(data["texts"], s["turns"][0]) and s["gold"] is not None and s["task"] for s in samples)
    assert all(s["reason"] == "right" for s in samples if s["verdict"] == "right")
    assert all(s["reason"] not in ("right", "wrong") for s in samples if s["verdict"] == "wrong")
    if family_id == "pacific":  # judged step by step: the parts are shown
        assert all(len(s["lines"]) == s["lines"][0]["chain_length"] for s in samples)
    assert report["run"]["parameters"]["rules"] == "ifforge"
    before = (out / "samples.html").read_text()
    assert main(["view", str(out)]) == 0 and capsys.readouterr().out == f"{out / 'samples.html'}\n"
    assert (out / "samples.html").read_text() == before
