"""Against a real Prefect server on 127.0.0.1: a flow run read back through the client, a run
started from the served deployment, and the seed-folder watcher."""

import asyncio
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time

import pytest
from conftest import PROJECT
from prefect.settings import PREFECT_API_URL, temporary_settings

from ifforge.core.prefect.server import PrefectServer
from ifforge.watch import ended, trigger, watch


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from conftest import drain_prefect_workers, stop_shared_prefect_server

    stop_shared_prefect_server()
    with PrefectServer(_free_port(), home=tmp_path_factory.mktemp("prefect-home")) as running:
        with temporary_settings(updates={PREFECT_API_URL: running.api_url}):
            yield running
            drain_prefect_workers()  # while this server is up: later flow tests here use the shared one


@pytest.fixture
def seeds(tmp_path):
    folder = tmp_path / "seeds"
    folder.mkdir()
    for name in ("printer_queue", "bus_route_load"):
        shutil.copy(PROJECT / "seeds" / "logicif" / f"{name}.py", folder)
    return folder


def test_a_flow_run_its_task_runs_and_artifacts_are_read_back_from_the_server(server, seeds, tmp_path):
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId
    from prefect.client.schemas.objects import Artifact
    from prefect.client.schemas.sorting import ArtifactSort, TaskRunSort

    from ifforge.flows.generate import generate

    state = generate(seeds=str(seeds), out=str(tmp_path / "out"), benchmark="Shop_Sims",
                     options={"progress": False, "expressions": 0}, return_state=True)  # rewrites are not read back here
    assert state.is_completed()
    flow_run_id = state.state_details.flow_run_id

    async def read():
        async with get_client() as client:
            flow_run = await client.read_flow_run(flow_run_id)
            this_run = FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id]))
            task_runs = await client.read_task_runs(flow_run_filter=this_run, sort=TaskRunSort.EXPECTED_START_TIME_ASC,
                                                    limit=200)
            # read_artifacts() sends null for the filters it is not given, which this server version
            # refuses (422); the same client's HTTP session with those keys left out is answered
            response = await client._client.post("/artifacts/filter", json={
                "artifacts": {"flow_run_id": {"any_": [str(flow_run_id)]}}, "limit": 50, "offset": 0,
                "sort": ArtifactSort.CREATED_DESC.value})
            artifacts = [Artifact.model_validate(row) for row in response.json()]
            return flow_run, task_runs, artifacts

    flow_run, task_runs, artifacts = asyncio.run(read())
    assert flow_run.state.is_completed() and flow_run.parameters["seeds"] == str(seeds)
    assert flow_run.name == "generate-shop-sims-v001"  # named after what it made
    names = {run.name.rsplit("-", 1)[0] for run in task_runs}
    assert {"load", "dedup", "instrument", "execute", "complexity", "describe", "verify", "export"} <= names
    assert all(run.state.is_completed() for run in task_runs)
    by_key = {artifact.key: artifact for artifact in artifacts}
    assert "| instrument | 2 | 2 |" in by_key["shop-sims-generate-summary"].data  # per benchmark, not family
    table = by_key["shop-sims-generate-tasks"].data
    table = json.loads(table) if isinstance(table, str) else table
    assert {row["task_id"] for row in table} == {"printer_queue", "bus_route_load"}


QUICK = {"progress": False, "dedup": False, "expressions": 0}  # no embedding model to load: this is about serving


def test_a_run_started_from_the_served_deployment(server, seeds, tmp_path):
    from prefect.deployments import run_deployment

    env = {**os.environ, "PREFECT_API_URL": server.api_url, "PREFECT_HOME": str(server.home)}
    serving = subprocess.Popen([sys.executable, "-m", "ifforge.flows.serve"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        out = tmp_path / "deployed"
        deadline = time.monotonic() + 90
        while True:  # the deployment exists once serve.py has registered it
            try:
                run = run_deployment("generate/generate", timeout=240, parameters={
                    "seeds": str(seeds), "out": str(out), "options": QUICK})
                break
            except Exception:  # noqa: BLE001 - not registered yet
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.25)
        assert run.state.is_completed(), run.state
        assert (out / "logicif" / "v001" / "manifest.json").exists()
        assert run.name == "generate-logicif-v001"  # named in a deployment run too (no family parameter given)

        # what `ifforge watch` does on a change: start the served deployment (it does not wait)
        os.environ["PREFECT_API_URL"] = server.api_url
        watched = tmp_path / "watched"
        started = trigger(seeds, {"out": str(watched), **QUICK})
        assert started.flow_run_id and started.message.startswith("started deployment run")
        # then it waits for the run's end, and says how it ended (`ifforge watch` prints this line)
        assert re.fullmatch(r"deployment run \S+ ended Completed(: .*)?", ended(started.flow_run_id, 0.25, 240))
        assert (watched / "logicif" / "v001" / "benchmark.jsonl").exists()
    finally:
        os.environ.pop("PREFECT_API_URL", None)
        serving.terminate()
        serving.wait(timeout=30)


def test_watch_calls_back_once_per_settled_change(tmp_path):
    folder = tmp_path / "seeds"
    folder.mkdir()
    (folder / "a.py").write_text("def a(x):\n    return x\n")
    calls, stop = [], threading.Event()
    thread = threading.Thread(target=watch, args=(folder, calls.append),
                              kwargs={"interval": 0.1, "settle": 0.3, "stop": stop, "max_runs": 2})
    thread.start()
    time.sleep(0.3)
    (folder / "a.py").write_text("def a(x):\n    return x + 1\n")
    (folder / "b.py").write_text("def b(x):\n    return x\n")  # in the same burst: one call
    deadline = time.monotonic() + 5
    while not calls and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    thread.join(timeout=5)
    assert calls == ["added: b.py; changed: a.py"]


def _configured(home, *code):
    """What a later, separate process finds: no PREFECT_API_URL, the project's PREFECT_HOME."""
    env = {k: v for k, v in os.environ.items() if k not in ("PREFECT_API_URL", "IFFORGE_NO_SERVER_PROBE")}
    env.update(PREFECT_HOME=str(home), IFFORGE_PREFECT_PORT=str(_free_port()))  # nothing on the default port
    return subprocess.run([sys.executable, "-c", "; ".join(code)], env=env, capture_output=True, text=True,
                          timeout=60).stdout.strip()


def test_later_runs_find_the_server_on_any_port_and_ignore_a_stale_record(server, tmp_path):
    from ifforge.cli import main

    record = json.loads((server.home / "ifforge-server.json").read_text())
    assert record["api_url"] == server.api_url and server.port != 4200
    assert _configured(server.home, "from ifforge.core.prefect.env import configure", "print(configure())") == \
        server.api_url
    stale = tmp_path / "home"
    stale.mkdir()
    (stale / "ifforge-server.json").write_text(json.dumps({"api_url": f"http://127.0.0.1:{_free_port()}/api"}))
    assert _configured(stale, "from ifforge.core.prefect.env import running_server", "print(running_server())") == \
        "None"
    assert main(["server", "--port", str(server.port)]) == 2  # already up there: one line, not a second server
