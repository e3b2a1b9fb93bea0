"""`ifforge compare`: differences with paired intervals where runs scored the same rows, and
`--paired ORIGINAL FRESH` for one model on a benchmark and its regeneration, checked with stub
models of known behaviour answered through the real evaluate flow."""

import hashlib
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ifforge.cli import main
from ifforge.eval import paired
from ifforge.testing.openai_stub import Answer, StubServer

FUNCTIONS = [f"f{index:02d}" for index in range(12)]  # the source functions both versions share
TIERS = ("easy", "medium", "hard")
CASES = 4


def _version(folder: Path, name: str, shift: int) -> Path:
    """A LogicIF benchmark of the 12 functions, 4 cases each, 4 functions a tier; `shift` makes
    another version's gold (a regeneration: other cases of the same functions)."""
    rows = [{"family": "logicif", "task_id": task, "test_case_id": case, "input": [case + shift],
             "code_output": {"output": case * 7 + shift, "stats": {"steps": case + shift}},
             "instruction": f"[{name}:{task}#{case}] Do the steps.", "stats_keys": ["steps"], "output_format": "int",
             "difficulty": TIERS[index // 4], "complexity_metrics": {"code_complexity_score": float(index)}}
            for index, task in enumerate(FUNCTIONS) for case in range(CASES)]
    version = folder / name / "v001"
    version.mkdir(parents=True)
    (version / "benchmark.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    return version


def _coin(*parts) -> bool:
    """A fair coin per row, fixed: chance, without a random state shared between tests."""
    return hashlib.sha256(":".join(map(str, parts)).encode()).digest()[0] % 2 == 0


def _equal_skill(version: str, task: str, case: int) -> bool:
    """Right on r of each function's 4 cases in the original, on r' in the fresh version, where r'
    is r of the next function of the same tier: the same share right in every tier, on other cases."""
    index = FUNCTIONS.index(task)
    right = [4, 3, 1, 2][index % 4] if version == "original" else [3, 1, 2, 4][index % 4]
    return case < right if version == "original" else case >= CASES - right


MODELS = {"memorised": lambda version, task, case: version == "original" or _coin(task, case),
          "steady": _equal_skill}


def _model(request: dict) -> Answer:
    """Every model the tests run: the model's name picks its behaviour; the gold is read off the
    benchmark's own rule (output 7 * case + shift), and a wrong answer is off by one."""
    version, task, case = re.match(r"\[(\w+):(\w+)#(\d)\]", request["messages"][-1]["content"]).groups()
    shift = 0 if version == "original" else 100
    right = MODELS[request["model"]](version, task, int(case))
    output = int(case) * 7 + shift + (0 if right else 1)
    return Answer(content=json.dumps({"output": output, "stats": {"steps": int(case) + shift}}))


_RUNS: dict = {}


@pytest.fixture
def runs(prefect_server, tmp_path_factory):
    """Each model's run on the original and on the fresh version, through `ifforge evaluate` (once
    for the file: the tests only read the runs)."""
    if not _RUNS:
        folder = tmp_path_factory.mktemp("paired")
        versions = {"original": _version(folder, "original", 0), "fresh": _version(folder, "fresh", 100)}
        with StubServer(_model) as server:
            for version in versions.values():
                for model in MODELS:
                    assert main(["evaluate", str(version), "--model", model, "--base-url", server.url,
                                 "--no-progress", "--max-retries", "0"]) == 0
        _RUNS.update({(name, model): version / "evals" / model / "r001" for name, version in versions.items()
                      for model in MODELS})
    return _RUNS


def _paired(runs, model, capsys, *extra):
    assert main(["compare", "--paired", str(runs[("original", model)]), str(runs[("fresh", model)]), *extra]) == 0
    return capsys.readouterr().out


def _row(out: str, label: str) -> list[str]:
    line = next(line for line in out.splitlines() if line.startswith(f"| {label} |"))
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_a_model_that_saw_the_original_shows_a_large_certain_drop(runs, capsys):
    out = _paired(runs, "memorised", capsys)
    expected = np.mean([np.mean([_coin(task, case) for case in range(CASES)]) for task in FUNCTIONS]) - 1
    label, units, original, fresh, difference, interval = _row(out, "accuracy")
    assert (units, original) == ("12", "100.0")
    assert float(fresh) == pytest.approx(100 * (1 + expected), abs=0.05)
    assert float(difference) == pytest.approx(100 * expected, abs=0.05) and float(difference) < -25
    low, high = (float(x) for x in interval.split(" to "))
    assert low <= float(difference) <= high < 0  # the interval excludes zero
    verdict = next(line for line in out.splitlines() if line.startswith("**Verdict:**"))
    assert verdict.startswith(f"**Verdict:** FRESH dropped by {-float(difference):.1f} points [")
    assert "the 95% interval excludes zero" in verdict
    for tier in TIERS:  # every tier, labelled, with its 4 functions
        assert _row(out, f"accuracy, difficulty = {tier}")[1:3] == ["4", "100.0"]
    assert "10,000 resamples" in out and "seed 0" in out
    # the seed and resamples asked for are the ones used and stated (that a seed moves the interval: below)
    other = _paired(runs, "memorised", capsys, "--seed", "7", "--resamples", "2000")
    assert "2,000 resamples" in other and "seed 7" in other and "the 95% interval excludes zero" in other
    assert "12 scored in both; 0 only in ORIGINAL, 0 only in FRESH" in out


def test_equal_skill_on_both_versions_shows_no_difference(runs, capsys):
    out = _paired(runs, "steady", capsys)
    _, units, original, fresh, difference, interval = _row(out, "accuracy")
    assert (units, original, fresh, difference) == ("12", "62.5", "62.5", "+0.0")
    low, high = (float(x) for x in interval.split(" to "))
    assert low < 0 < high  # the functions differ, in both directions: a spread that spans zero
    assert "**Verdict:** no difference shown: the 95% interval [" in out and "includes zero" in out
    for tier in TIERS:
        tier_low, tier_high = (float(x) for x in _row(out, f"accuracy, difficulty = {tier}")[5].split(" to "))
        assert tier_low < 0 < tier_high
    assert _paired(runs, "steady", capsys) == out  # a fixed seed: the same runs, the same interval


def test_task_level_metric_and_bad_requests(runs, capsys):
    out = _paired(runs, "memorised", capsys, "--metric", "task_accuracy")
    # a function passes only if all 4 cases pass: every one in the original, those whose 4 coins all came up
    passed = sum(all(_coin(task, case) for case in range(CASES)) for task in FUNCTIONS)
    assert _row(out, "task_accuracy")[2:4] == ["100.0", f"{100 * passed / 12:.1f}"]
    original, fresh = str(runs[("original", "memorised")]), str(runs[("fresh", "memorised")])
    for command, message in ((["compare", "--paired", original], "--paired takes two runs, ORIGINAL then FRESH"),
                             (["compare", "--paired", original, fresh, "--metric", "speed"],
                              "--metric 'speed': logicif reports accuracy, task_accuracy"),
                             (["compare", original, fresh, "--metric", "accuracy"], "--metric goes with --paired"),
                             (["compare", "--paired", original, original], "the same run as ORIGINAL")):
        assert main(command) == 2
        assert message in capsys.readouterr().err


def test_compare_gives_differences_only_where_the_rows_are_the_same(runs, capsys):
    assert main(["compare", str(runs[("original", "memorised")]), str(runs[("original", "steady")])]) == 0
    out = capsys.readouterr().out
    header = out.splitlines()[0]
    assert "task both, easy" in header and "task both, hard" in header  # every tier column says what it holds
    assert "## Differences from the first run (memorised on original/v001 (full))" in out
    assert "- steady on original/v001 (full): the same 48 rows as the first run" in out
    _, units, first, this, difference, interval = _row(out, "steady on original/v001 (full): accuracy")
    assert (units, first, this, difference) == ("12", "100.0", "62.5", "-37.5")
    low, high = (float(x) for x in interval.split(" to "))
    assert low <= -37.5 <= high < 0
    assert _row(out, "steady on original/v001 (full): accuracy, difficulty = medium")[1] == "4"

    assert main(["compare", str(runs[("original", "steady")]), str(runs[("fresh", "steady")])]) == 0
    out = capsys.readouterr().out
    assert "**No paired differences**: no run scored the same rows as the first:" in out
    assert (f"- steady on fresh/v001 (full) ({runs[('fresh', 'steady')] / 'report.json'}): its benchmark_sha256 "
            "differs from the first run's: the rows are not the same") in out
    assert "| steady on fresh" not in out.split("Differences from the first run")[1]  # no difference given

    # three runs: the one on the same rows is paired, the other is named with the reason
    assert main(["compare", *(str(runs[key]) for key in (("original", "steady"), ("fresh", "steady"),
                                                          ("original", "memorised")))]) == 0
    out = capsys.readouterr().out.split("Differences from the first run")[1]
    assert _row(out, "memorised on original/v001 (full): accuracy")[4] == "+37.5"
    assert "| steady on fresh" not in out and "its benchmark_sha256 differs" in out


def _edited(run: Path, folder: Path, edit) -> Path:
    """A copy of a run whose verdicts `edit` changed (its report.json as it was)."""
    folder.mkdir()
    (folder / "report.json").write_text((run / "report.json").read_text())
    edit(pd.read_parquet(run / "scores.parquet")).to_parquet(folder / "scores.parquet", index=False)
    return folder


def test_failed_requests_and_missing_functions_are_left_out_and_counted(runs, capsys, tmp_path):
    def fail_one(frame):
        failed = (frame["task_id"] == "f01") & (frame["test_case_id"] == 0)
        frame.loc[failed, ["request_failed", "both_ok", "output_ok", "stats_ok"]] = [True, False, False, False]
        return frame

    broken = _edited(runs[("original", "steady")], tmp_path / "broken", fail_one)
    assert main(["compare", str(runs[("original", "memorised")]), str(broken)]) == 0
    out = capsys.readouterr().out
    assert ("the same 47 rows as the first run (1 more, whose request failed in either run, set apart in both as "
            "a failed request is in a report)") in out
    # as LogicIF's report does, a task with a failed case leaves task accuracy in both runs: 11 tasks paired
    assert _row(out, "steady on original/v001 (full): task_accuracy")[1] == "11"
    assert _row(out, "steady on original/v001 (full): accuracy")[1] == "12"
    # f01 keeps 3 cases; steady was right on 3 of its 4 (cases 0-2): 2 of the 3 left (not 2 of 4), the
    # others as before (f00 4 of 4, f02-f11 23 of 40)
    assert _row(out, "steady on original/v001 (full): accuracy")[3] == f"{100 * (1 + 2 / 3 + 23 / 4) / 12:.1f}"

    fewer = _edited(runs[("fresh", "memorised")], tmp_path / "fewer", lambda frame: frame[frame["task_id"] != "f11"])
    assert main(["compare", "--paired", str(runs[("original", "memorised")]), str(fewer)]) == 0
    out = capsys.readouterr().out
    assert "- task_ids: 11 scored in both; 1 only in ORIGINAL, 0 only in FRESH" in out
    assert _row(out, "accuracy")[1] == "11" and _row(out, "accuracy, difficulty = hard")[1] == "3"


def test_the_bootstrap_interval_is_the_mean_s_spread():
    rng = np.random.default_rng(3)
    differences = rng.normal(-0.2, 0.3, size=400)
    low, high = paired.bootstrap(differences)
    half = 1.966 * differences.std(ddof=1) / np.sqrt(len(differences))  # Student's t interval, n large
    assert low == pytest.approx(differences.mean() - half, abs=0.006)
    assert high == pytest.approx(differences.mean() + half, abs=0.006)
    assert paired.bootstrap(np.full(5, -0.25)) == (-0.25, -0.25)  # no spread, no width
    assert paired.bootstrap(np.array([0.5])) is None  # one unit: no interval at all
    assert paired.bootstrap(differences, seed=1) != (low, high) and paired.bootstrap(differences) == (low, high)
    few = differences[:12]  # few units: wider than the plain 2.5% tails
    assert np.subtract(*reversed(paired.bootstrap(few))) > np.subtract(*np.percentile(
        np.random.default_rng(0).choice(few, size=(10_000, 12)).mean(axis=1), [97.5, 2.5]))
    # Student's t quantiles from the tables (97.5%): what widens the tails for few units
    for freedom, table in ((1, 12.706), (2, 4.303), (5, 2.571), (11, 2.201), (25, 2.060), (120, 1.980)):
        assert paired.student_t(0.975, freedom) == pytest.approx(table, abs=0.002)
