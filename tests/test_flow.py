"""The generate flow end to end through the real Prefect engine (a temporary local server)."""

import json
import os
import shutil
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
from conftest import PROJECT, needs_fixture

from ifforge.flows.generate import generate
from floors_check import assert_floors_counted

LOGICIF_KEYS = {"task_id", "test_case_id", "input", "code_output", "function", "description", "instruction",
                "stats_keys", "output_format", "complexity_metrics"}


@pytest.fixture(autouse=True)
def _prefect(prefect_server):
    """The session's shared Prefect server (conftest)."""


SEEDS = ("bank_ledger", "robot_grid_walk", "printer_queue", "tic_tac_toe_judge")


def _seed_folder(folder: Path) -> Path:
    folder.mkdir(parents=True)
    for name in SEEDS:
        shutil.copy(PROJECT / "seeds" / "logicif" / f"{name}.py", folder)
    (folder / "broken.py").write_text("def broken(a):\n    return a\n\n# input: [1]\n# input: [oops]\n")
    return folder


@pytest.fixture
def first_run(tmp_path, caplog, capfd):
    """The first threads run of the four seeds (and a broken one), with what it logged and printed.
    (The same run in this process and on Dask: test_engines.py.)"""
    seeds, out = _seed_folder(tmp_path / "seeds"), tmp_path / "out"
    version = Path(generate(seeds=str(seeds), out=str(out), options={"progress": False}))
    return SimpleNamespace(seeds=seeds, out=out, version=version, log=caplog.text, stderr=capfd.readouterr().err)


def _manifest(version):
    return json.loads((version / "manifest.json").read_text())


def test_generate_writes_a_versioned_benchmark_and_recomputes_only_what_changed(first_run):
    seeds, out, version = first_run.seeds, first_run.out, first_run.version
    assert version == out / "logicif" / "v001"
    log = first_run.log  # one line per stage with its counts; no loading bars
    assert "load: 5 in, 4 out (1 dropped), " in log and "dedup: 4 in, 4 out, 4 embedded, " in log
    assert "instrument: 4 in, 4 out, 4 computed, 0 reused, " in log and "export: 4 in, 4 out, " in log
    assert "(load:bad_seed 1); descriptions: all deterministic (written by ifforge's renderer, no model)" in log
    assert "Loading weights" not in first_run.stderr

    manifest = _manifest(version)
    assert manifest["stages"]["load"] == {"in": 5, "out": 4}
    assert manifest["stages"]["dedup"]["out"] == 4 and manifest["stages"]["dedup"]["embedding_model"] == "all-MiniLM-L6-v2"
    assert manifest["stages"]["instrument"]["computed"] == 4
    assert manifest["export"]["tasks"] == 4
    assert manifest["export"]["descriptions"] == {"model": 0, "deterministic": 4, "models": []}
    assert manifest["paths"]["bank_ledger"] == {"instrument": "deterministic", "evolved_turns": 0,
                                                "description_by": "deterministic", "description_model": None}
    assert manifest["dropped"]["items"] == {"load:bad_seed": 1}
    dropped = [json.loads(line) for line in (version / "dropped.jsonl").read_text().splitlines()]
    assert dropped[0]["detail"].startswith(f"{seeds / 'broken.py'}:5: input is not JSON")
    assert all((version / path).exists() for path in manifest["artifacts"])

    rows = [json.loads(line) for line in (version / "benchmark.jsonl").read_text().splitlines()]
    assert {row["task_id"] for row in rows} == {"bank_ledger", "robot_grid_walk", "printer_queue", "tic_tac_toe_judge"}
    for row in rows:
        assert LOGICIF_KEYS <= set(row)
        assert set(row["code_output"]) == {"output", "stats"}
        assert list(row["code_output"]["stats"]) == row["stats_keys"]
        assert row["description"].startswith("INPUTS:") and row["description"] in row["instruction"]
        assert row["function"].startswith("def f(") and (row["description_by"], row["description_model"]) == (
            "deterministic", None)
    fixture_keys = set(json.loads(needs_fixture("cases.jsonl").read_text().splitlines()[0])) - {"response"}
    assert fixture_keys <= set(rows[0])

    expression_rows = [json.loads(line) for line in (version / "benchmark_expressions.jsonl").read_text().splitlines()]
    assert len(expression_rows) == 6 * len(rows)  # the original (e0) and five chosen expressions
    assert {row["expression_id"] for row in expression_rows} == {"e0", "e1", "e2", "e3", "e4", "e5"}
    first_case = [r for r in expression_rows if (r["task_id"], r["test_case_id"]) == (rows[0]["task_id"], 0)]
    assert len({r["instruction"] for r in first_case}) == 6
    assert all(rows[0]["description"].strip() in r["instruction"] for r in first_case)
    chosen = json.loads((version / "expressions" / "expressions.json").read_text())
    assert chosen["k"] == 5 and len(chosen["chosen"]) == 5
    assert (version / "expressions" / "clusters.png").stat().st_size > 1000
    assert len((version / "expressions" / "rewrites.jsonl").read_text().splitlines()) >= 40

    tasks = pd.read_parquet(version / "tasks.parquet")
    assert sorted(tasks.task_id) == sorted({row["task_id"] for row in rows})
    assert set(tasks.difficulty) <= {"easy", "medium", "hard"} and tasks.in_mini.any()

    item = version / "items" / "bank_ledger"
    for name in ("seed.py", "seed.json", "function_anonymised.py", "function_with_stats.py", "instrument.json",
                 "execute.json", "function_exported.py", "complexity.json", "description_turn_1.txt", "describe.json", "verify.json",
                 "verification_history.json", "task.json"):
        assert (item / name).exists(), name
    provenance = json.loads((item / "execute.json").read_text())["provenance"]
    assert provenance["stage"] == "execute" and len(provenance["input_hash"]) == 64 and provenance["stage_version"]

    # nothing changed: the same version, nothing recomputed, nothing rewritten
    cached_items = sorted((out / "logicif" / ".cache").rglob("*.json"))
    mtime = (version / "benchmark.jsonl").stat().st_mtime_ns
    assert generate(seeds=str(seeds), out=str(out), options={"progress": False}) == str(version)
    assert sorted((out / "logicif" / ".cache").rglob("*.json")) == cached_items  # no stage result was added
    assert (version / "benchmark.jsonl").stat().st_mtime_ns == mtime
    assert sorted(p.name for p in (out / "logicif").glob("v*")) == ["v001"]

    # poisoned gold, in the export and in the item cache: noticed by hash, computed again, never reused
    clean = (version / "benchmark.jsonl").read_text()
    poisoned_row = json.loads(clean.splitlines()[0])
    poisoned_row["code_output"]["output"] = "poisoned"
    (version / "benchmark.jsonl").write_text(json.dumps(poisoned_row) + "\n" + "".join(
        line + "\n" for line in clean.splitlines()[1:]))
    entry = next(p for p in (out / "logicif" / ".cache" / "execute").rglob("*.json") if b"bank_ledger" in p.read_bytes())
    digest, _, body = entry.read_bytes().partition(b"\n")
    value = json.loads(body)
    value["kept"]["cases"][0]["output"] = "poisoned"
    entry.write_bytes(digest + b"\n" + json.dumps(value).encode())
    assert generate(seeds=str(seeds), out=str(out), options={"progress": False}) == str(version)
    assert (version / "benchmark.jsonl").read_text() == clean
    assert _manifest(version)["stages"]["execute"]["computed"] == 1
    assert all(len(digest) == 64 for digest in _manifest(version)["artifact_sha256"].values())

    # a reviewer vetoes a chosen expression: a new version, with the next nearest rewrite instead
    vetoed = chosen["chosen"][0]["rewrite_id"]
    (out / "logicif" / "expressions_veto.txt").write_text(f"{vetoed}  # too chatty\n")
    vetoed_version = generate(seeds=str(seeds), out=str(out), options={"progress": False})
    assert vetoed_version == str(out / "logicif" / "v002")
    after = json.loads((out / "logicif" / "v002" / "expressions" / "expressions.json").read_text())
    assert vetoed not in [c["rewrite_id"] for c in after["chosen"]] and len(after["chosen"]) == 5

    # one seed changed: a new version, and only that seed's items recomputed
    printer = seeds / "printer_queue.py"
    printer.write_text(printer.read_text() + "# input: [[], 2]\n")
    second = generate(seeds=str(seeds), out=str(out), options={"progress": False})
    assert second == str(out / "logicif" / "v003")
    stages = _manifest(out / "logicif" / "v003")["stages"]
    assert stages["instrument"] == {"in": 4, "out": 4, "computed": 1, "reused": 3}
    assert stages["execute"]["computed"] == 1
    assert (version / "manifest.json").exists()  # the old version is untouched


def test_generate_takes_logicif_input_files_and_keeps_task_ids(tmp_path, monkeypatch):
    from ifforge.families import get_family

    family, plans = get_family("logicif"), []
    build = family.plan
    monkeypatch.setattr(family, "plan", lambda settings: plans.append(settings.shard_size) or build(settings))
    tasks = [json.loads(line) for line in needs_fixture("tasks.jsonl").read_text().splitlines()][:6]
    cases = [json.loads(line) for line in needs_fixture("cases.jsonl").read_text().splitlines()]
    functions = tmp_path / "functions.jsonl"
    functions.write_text("".join(json.dumps({"task_id": t["task_id"], "function": t["function"]}) + "\n" for t in tasks))
    test_cases = tmp_path / "test_cases.jsonl"
    test_cases.write_text("".join(
        json.dumps({"task_id": t["task_id"], "test_cases": [c["input"] for c in cases if c["task_id"] == t["task_id"]]})
        + "\n" for t in tasks))
    folder = generate(functions=str(functions), test_cases=str(test_cases), out=str(tmp_path / "out"),
                      benchmark="from-logicif", options={"progress": False, "shard_size": 2, "expressions": 0})
    assert plans == [2]  # the flow builds the plan once; each of the 3 shards of each stage is handed its stage
    rows = [json.loads(line) for line in open(f"{folder}/benchmark.jsonl")]
    manifest = json.loads(open(f"{folder}/manifest.json").read())
    kept = {row["task_id"] for row in rows}
    dropped = {d for d in manifest["dropped"].get("items", {})}
    assert kept <= {t["task_id"] for t in tasks}
    assert len(kept) >= 4, (kept, dropped)
    assert manifest["inputs"]["functions_sha256"]
    assert_floors_counted(folder)


def test_a_run_that_drops_every_item_ends_well_and_its_rerun_reports_the_same(tmp_path, capsys):
    from ifforge.cli import main

    folder = tmp_path / "seeds"
    folder.mkdir()
    (folder / "tiny.py").write_text("def tiny(a):\n    total = 0\n    for x in a:\n        total += x\n    return total\n"
                                    "\n# input: [[1, 2]]\n")  # one case: under min_cases
    (folder / "boom.py").write_text("def boom(a):\n    total = 0\n    for x in a:\n        total += x\n"
                                    "    return total // (total - total)\n\n# input: [[1]]\n# input: [[2]]\n# input: [[3]]\n")
    secret = tmp_path / "secret.py"  # a good seed, but outside the folder: its link is refused, it is never read
    secret.write_text("def leak(n):\n    return 'hunter2' * n\n\n# input: [1]\n# input: [2]\n# input: [3]\n")
    (folder / "leak.py").symlink_to(secret)
    (folder / "folder.py").mkdir()
    (folder / "dangling.py").symlink_to(folder / "nowhere.py")
    os.mkfifo(folder / "pipe.py")  # it once held a run until it was killed
    command = ["generate", "--seeds", str(folder), "--out", str(tmp_path / "out"), "--no-progress", "--set", "expressions=0"]
    assert main(command) == 0
    first = capsys.readouterr()
    version = tmp_path / "out" / "logicif" / "v001"
    assert first.out.splitlines()[-1] == str(version)
    manifest = _manifest(version)
    assert manifest["export"]["tasks"] == 0
    assert manifest["dropped"]["items"] == {"instrument:too_few_cases": 2, "load:bad_seed": 4}
    assert not any("hunter2" in path.read_text(errors="replace") for path in version.rglob("*") if path.is_file())
    assert (version / "benchmark.jsonl").read_text() == "" and pd.read_parquet(version / "tasks.parquet").empty
    drops = [json.loads(line) for line in (version / "dropped.jsonl").read_text().splitlines()]
    assert any("ZeroDivisionError" in drop["detail"] for drop in drops)  # why boom's cases were lost
    last = first.err.splitlines()[-1]
    assert last == (f"ifforge: 0 tasks in {version}: every one of the 6 item(s) was dropped (instrument:too_few_cases 2, "
                    "load:bad_seed 4)")

    assert main(command) == 0  # nothing changed: the same version, reported the same way
    again = capsys.readouterr()
    assert again.out.splitlines()[-1] == str(version) and again.err.splitlines()[-1] == last
    assert sorted(p.name for p in (tmp_path / "out" / "logicif").glob("v*")) == ["v001"]


def test_the_last_line_counts_tasks_and_drops_by_reason():
    from ifforge.generation.artifacts import outcome_line

    manifest = {"export": {"tasks": 3, "rows": 12}, "stages": {"load": {"in": 5}},
                "dropped": {"items": {"dedup:near_duplicate": 1, "load:bad_seed": 1}}}
    assert outcome_line(manifest, "v002") == "3 tasks, 12 rows in v002; 2 item(s) dropped (dedup:near_duplicate 1, load:bad_seed 1)"
    assert outcome_line({**manifest, "dropped": {}}, "v002") == "3 tasks, 12 rows in v002; no item dropped"


def test_a_run_that_fails_after_its_export_is_resumed_never_reported_unchanged(tmp_path, monkeypatch):
    from ifforge.families.logicif.family import LogicIF

    folder = tmp_path / "seeds"
    folder.mkdir()
    shutil.copy(PROJECT / "seeds" / "logicif" / "bank_ledger.py", folder)
    options = {"progress": False, "expressions": 0}

    def broken(self, store):
        raise RuntimeError("the Prefect artifact could not be published")

    monkeypatch.setattr(LogicIF, "summary_table", broken)
    with pytest.raises(RuntimeError, match="could not be published"):
        generate(seeds=str(folder), out=str(tmp_path / "out"), options=options)
    version = tmp_path / "out" / "logicif" / "v001"
    assert (version / "benchmark.jsonl").exists() and not (version / "manifest.json").exists()
    monkeypatch.undo()
    assert generate(seeds=str(folder), out=str(tmp_path / "out"), options=options) == str(version)
    manifest = _manifest(version)
    assert manifest["resumed"] is True and manifest["export"]["tasks"] == 1
    assert manifest["stages"]["instrument"]["computed"] == 0  # the first run's items, from the cache
