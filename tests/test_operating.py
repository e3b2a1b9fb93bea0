"""Operating ifforge without Prefect running: busy ports get one line, the temporary server's
port can be pinned, names are what Prefect accepts, `--version`, and the one log line per stage."""

import socket

import pytest

from ifforge.cli import main
from ifforge.core.prefect.env import PortBusy, pin_temporary_port
from ifforge.flows.naming import slug


@pytest.fixture
def busy_port():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield taken.getsockname()[1]


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_busy_port_is_one_line_not_a_traceback(busy_port, capsys, tmp_path):
    assert main(["server", "--port", str(busy_port)]) == 2
    error = capsys.readouterr().err.strip()
    assert error == f"ifforge: port {busy_port} is busy (another program listens on it); choose another with --port"
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "a.py").write_text("def a(x):\n    return x\n\n# input: [1]\n")
    assert main(["generate", "--seeds", str(seeds), "--out", str(tmp_path / "out"), "--llm", "none",
                 "--temp-port", str(busy_port)]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        f"ifforge: port {busy_port} for Prefect's temporary server is busy; choose another with --temp-port"]
    assert not (tmp_path / "out").exists()  # nothing started, nothing written


def test_the_temporary_server_port_is_the_one_asked_for(busy_port):
    from prefect.server.api.server import SubprocessASGIServer

    prior = SubprocessASGIServer._instances.pop(None, None)  # the test session's own server, put back below
    try:
        port = _free_port()
        pin_temporary_port(port)
        assert SubprocessASGIServer().port == port  # the instance Prefect's client starts when it needs one
        with pytest.raises(PortBusy, match=f"port {busy_port} for Prefect's temporary server is busy"):
            pin_temporary_port(busy_port)
    finally:
        SubprocessASGIServer._instances.pop(None, None)
        if prior is not None:
            SubprocessASGIServer._instances[None] = prior


def test_names_are_what_prefect_accepts():
    assert slug("generate", "LogicIF", "v004") == "generate-logicif-v004"
    assert slug("evaluate", "Qwen/Qwen3-8B", "my_bench", "v001") == "evaluate-qwen-qwen3-8b-my-bench-v001"
    assert slug("", None, "--") == "run"


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    name, version = capsys.readouterr().out.split()
    assert name == "ifforge" and version[0].isdigit()


def test_changes_name_the_setting_the_stages_it_invalidated_and_what_was_reused():
    import json

    from ifforge.core.store.versions import canonical_json
    from ifforge.generation.artifacts import changes, changes_line, step_identity
    from ifforge.families import get_family, load_family_settings

    def plan_of(**options):
        settings = load_family_settings({"llm": "none", "dedup": False, **options})
        return settings, get_family("logicif").plan(settings)

    before, before_plan = plan_of(min_cases=3)
    previous = {"version": "v007", "parameters": before.model_dump(mode="json"),
                "stages_used": {s.name: json.loads(canonical_json(step_identity(s))) for s in before_plan}}
    now, plan = plan_of(min_cases=4, workers=7)  # workers changes how a run goes, not what it writes
    counts = {"load": {"in": 3, "out": 3}, "instrument": {"in": 3, "out": 3, "computed": 0},
              "execute": {"in": 3, "out": 2, "computed": 3}, "complexity": {"in": 2, "out": 2, "computed": 1},
              "describe": {"in": 2, "out": 2, "computed": 0}, "verify": {"in": 2, "out": 2, "computed": 0}}
    changed = changes(previous, now, plan, counts)
    # min_cases decides which cases execute keeps, and so which trackers instrument's probe may choose;
    # inputs reads it too (a seed left with fewer calls is read wider)
    assert changed == {"previous_version": "v007", "settings": {"min_cases": {"before": 3, "now": 4}},
                       "invalidated": ["inputs", "instrument", "execute"], "reused": ["describe", "verify"],
                       "recomputed": {"complexity": 1}, "removed": []}
    assert changes_line(changed) == ("since v007: min_cases 3 -> 4 changed; invalidated: inputs, instrument, "
                                     "execute; reused: describe, verify; recomputed: complexity (1 computed)")
    assert changes(None, now, plan, counts) is None  # a benchmark's first version


def test_flow_runs_send_no_heartbeats_to_a_temporary_server_and_keep_them_for_a_real_one():
    from prefect.settings import PREFECT_API_URL, get_current_settings, temporary_settings

    from ifforge.core.prefect.env import flow_run_settings

    default = get_current_settings().flows.heartbeat_frequency
    assert default is not None  # Prefect's own default sends them
    with temporary_settings(restore_defaults={PREFECT_API_URL}):  # no server: Prefect's temporary one
        with flow_run_settings():  # nothing outlives the run to read them
            assert get_current_settings().flows.heartbeat_frequency is None
        assert get_current_settings().flows.heartbeat_frequency == default
    with temporary_settings(updates={PREFECT_API_URL: "http://127.0.0.1:9/api"}):  # set in a profile, say
        with flow_run_settings():  # a server that stays: it watches for crashed runs
            assert get_current_settings().flows.heartbeat_frequency == default
