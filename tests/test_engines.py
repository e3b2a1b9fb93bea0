"""One generate run, three engines: in this process with no Prefect, the Prefect flow on its thread
runner, and the flow on a Dask cluster write the same bytes of `benchmark.jsonl`. And the command
line parses, plans and loads once, handing its run to the flow."""

import shutil
from pathlib import Path

import pytest
from conftest import PROJECT

SEEDS = ("bank_ledger", "printer_queue", "robot_grid_walk")
QUICK = {"progress": False, "dedup": False, "expressions": 0}  # no embedding model: this is about engines


@pytest.fixture(scope="module")
def seeds(tmp_path_factory):
    folder = tmp_path_factory.mktemp("engines") / "seeds"
    folder.mkdir()
    for name in SEEDS:
        shutil.copy(PROJECT / "seeds" / "logicif" / f"{name}.py", folder)
    return folder


@pytest.fixture(scope="module")
def in_process(seeds):
    """The run in this process, no Prefect: the bytes every engine must write."""
    from ifforge.families import load_family_settings
    from ifforge.generation import generate

    settings = load_family_settings({"seeds": str(seeds), "out": str(seeds.parent / "in-process"), **QUICK})
    return generate(settings)


def test_in_process_a_run_needs_no_orchestrator(in_process):
    """(Nothing `ifforge.generation` imports is Prefect's: test_layers.py.)"""
    import json

    manifest = json.loads((in_process / "manifest.json").read_text())
    assert in_process.name == "v001" and manifest["export"]["tasks"] == len(SEEDS)
    assert manifest["stages"]["load"] == {"in": 3, "out": 3} and manifest["stages"]["instrument"]["computed"] == 3


def test_the_prefect_flow_writes_the_same_bytes(prefect_server, in_process, seeds, tmp_path):
    from ifforge.flows.generate import generate

    folder = Path(generate(seeds=str(seeds), out=str(tmp_path / "prefect"), options=QUICK))
    assert (folder / "benchmark.jsonl").read_bytes() == (in_process / "benchmark.jsonl").read_bytes()


def test_the_flow_with_its_shards_on_a_dask_cluster_writes_the_same_bytes_and_workers_run_no_prefect(
        prefect_server, in_process, seeds, tmp_path):
    """An existing cluster (`dask_address`): each shard's task run is recorded by the flow, its work
    done on a worker, which never imports Prefect (so it starts no server and reports to none)."""
    import json

    from distributed import Client, LocalCluster

    from ifforge.flows.generate import generate

    def imported_here() -> tuple[bool, bool]:  # runs on each worker (pickled by value)
        import sys

        return "ifforge.generation.shards" in sys.modules, "prefect" in sys.modules

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        folder = Path(generate(seeds=str(seeds), out=str(tmp_path / "dask"), options={
            **QUICK, "shard_size": 2, "task_runner": "dask", "dask_address": cluster.scheduler_address}))
        imported = client.run(imported_here)  # {worker address: (ran a shard, imported Prefect)}
    # the scheduler may give both shards to one worker when the machine is loaded: what holds is that
    # the shards ran on workers and no worker imported Prefect
    assert any(ran for ran, _ in imported.values()) and not any(prefect for _, prefect in imported.values())
    assert (folder / "benchmark.jsonl").read_bytes() == (in_process / "benchmark.jsonl").read_bytes()
    stages = json.loads((folder / "manifest.json").read_text())["stages"]
    assert stages["instrument"]["computed"] == 3 and stages["execute"]["computed"] == 3  # counted on the workers


def test_the_command_line_parses_plans_and_loads_once_and_the_flow_takes_its_run(
        prefect_server, seeds, tmp_path, monkeypatch):
    import ifforge.core.prefect.env as prefect_env
    import ifforge.generation.run as run_module
    from ifforge.cli import main
    from ifforge.families.logicif.family import LogicIF

    calls = {"settings": 0, "plan": 0, "load": 0}

    def counted(name, real):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return real(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(prefect_env, "reporting_server", lambda: None)  # so the command asks "finished?" first
    monkeypatch.setattr(LogicIF, "warm_up", lambda self, settings: None)
    monkeypatch.setattr(LogicIF, "plan", counted("plan", LogicIF.plan))
    monkeypatch.setattr(LogicIF, "load", counted("load", LogicIF.load))
    monkeypatch.setattr(run_module, "settings_of", counted("settings", run_module.settings_of))
    command = ["generate", "--seeds", str(seeds), "--out", str(tmp_path / "out"), "--no-progress",
               *(part for key, value in QUICK.items() if key != "progress" for part in ("--set", f"{key}={value}"))]
    assert main(command) == 0
    assert calls == {"settings": 0, "plan": 1, "load": 1}  # the flow parsed nothing: it took the command's run
    assert run_module._HANDED == {}  # and nothing is left for a later flow call
    assert (tmp_path / "out" / "logicif" / "v001" / "manifest.json").exists()
