"""Bad input that once broke a whole run: each must cost only its item, with one line naming the file
and line, or stop the command with a message (not a traceback) before anything is written."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pydantic import BaseModel

from ifforge.cli import main
from ifforge.core import pyast
from ifforge.core.llm import parse_reply
from ifforge.core.sandbox import run_cases
from ifforge.core.store import ItemCache, VersionStore, atomic_path, write_json
from ifforge.core.untrusted import MAX_DEPTH, check_task_id, clean_text
from ifforge.families.logicif.stages.load import load_logicif_jsonl, load_seed_dir

class Named(BaseModel):
    name: str


GOOD = "def f(n):\n    total = 0\n    for i in range(n):\n        total += i\n    return total\n"
INPUTS = "# input: [3]\n# input: [4]\n# input: [5]\n"


def _seed(folder: Path, name: str, text: str | bytes) -> None:
    path = folder / f"{name}.py"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))


def test_each_bad_seed_is_skipped_with_its_file_and_line(tmp_path, monkeypatch):
    _seed(tmp_path, "good", GOOD + INPUTS)
    _seed(tmp_path, "big_int", GOOD + "# input: [" + "9" * 4301 + "]\n" + INPUTS)
    _seed(tmp_path, "deep", GOOD + "# input: [" + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "]\n" + INPUTS)
    _seed(tmp_path, "very_deep", GOOD + "# input: [" + "[" * 40_000 + "]" * 40_000 + "]\n" + INPUTS)
    _seed(tmp_path, "surrogate", GOOD + '# input: ["\\ud800"]\n' + INPUTS)
    _seed(tmp_path, "nan", GOOD + "# input: [NaN]\n" + INPUTS)
    _seed(tmp_path, "inf", GOOD + "# input: [1e999]\n" + INPUTS)
    _seed(tmp_path, "latin1", (GOOD + "# caf\xe9\n" + INPUTS).encode("latin-1"))
    _seed(tmp_path, "nested_code", "def f(x):\n    return " + "(" * 1000 + "x" + ")" * 1000 + "\n" + INPUTS)
    _seed(tmp_path, "huge", GOOD + "".join(f"def g{i}(a):\n    return a + {i}\n" for i in range(200_000)) + INPUTS)
    parsed = []
    real_parse = pyast.parse
    monkeypatch.setattr(pyast, "parse", lambda source, *rest: parsed.append(len(source)) or real_parse(source, *rest))
    seeds, dropped = load_seed_dir(tmp_path)
    assert parsed and max(parsed) < 100_000  # a 5 MB seed is refused by its size, never parsed (that took minutes)
    assert [s.task_id for s in seeds] == ["good"]
    detail = {d.task_id: d.detail for d in dropped}
    assert detail["big_int"] == f"{tmp_path / 'big_int.py'}:6: input holds an integer of more than 4300 digits"
    assert detail["deep"].startswith(f"{tmp_path / 'deep.py'}:6: input is nested deeper than {MAX_DEPTH}")
    assert detail["very_deep"].startswith(f"{tmp_path / 'very_deep.py'}:6: input is nested deeper")
    assert detail["surrogate"].startswith(f"{tmp_path / 'surrogate.py'}:6: input holds a lone surrogate")
    assert detail["nan"] == f"{tmp_path / 'nan.py'}:6: input holds NaN, which is not a JSON number"
    assert detail["inf"] == f"{tmp_path / 'inf.py'}:6: input holds inf, which is not a JSON number"
    assert detail["latin1"].startswith(f"{tmp_path / 'latin1.py'}:6: is not UTF-8 text")
    assert detail["nested_code"].startswith(f"{tmp_path / 'nested_code.py'}")
    assert "over the limit of 100,000" in detail["huge"]


def test_bad_jsonl_lines_and_task_ids_are_skipped_and_the_rest_loads(tmp_path):
    functions, cases = tmp_path / "functions.jsonl", tmp_path / "cases.jsonl"
    rows = [{"task_id": "ok", "function": GOOD}, {"task_id": "../../../../escape", "function": GOOD},
            {"task_id": "surrogate", "function": GOOD + "# \ud800\n"}, {"task_id": "a/b", "function": GOOD}]
    lines = [json.dumps(row).encode() for row in rows]
    lines.insert(2, b'{"task_id": "latin", "function": "def f(): return \'\xe9\'"}')
    functions.write_bytes(b"\n".join(lines) + b"\n")
    cases.write_text("".join(json.dumps({"task_id": t, "test_cases": [[3], [4], [5]]}) + "\n"
                             for t in ("ok", "../../../../escape", "surrogate", "latin", "a/b"))
                     + '{"task_id": "big", "test_cases": [[' + "1" * 5000 + "]]}\n")
    seeds, dropped = load_logicif_jsonl(functions, cases)
    assert [s.task_id for s in seeds] == ["ok"]
    details = [d.detail for d in dropped]
    assert any(d.startswith(f"{functions}:2: task id '../../../../escape' is not a plain name") for d in details)
    assert any(d.startswith(f"{functions}:3: is not UTF-8 text") for d in details)
    assert any(d.startswith(f"{functions}:4: holds a lone surrogate") for d in details)
    assert any(d.startswith(f"{functions}:5: task id 'a/b'") for d in details)
    assert any(d.startswith(f"{cases}:6: holds an integer of more than 4300 digits") for d in details)
    assert not (tmp_path.parent / "escape").exists()


def test_task_ids_must_be_plain_names():
    for bad in ("../x", "a/b", "", ".hidden", "..", "x" * 200, "tab\tid", "nul\x00"):
        with pytest.raises(ValueError):
            check_task_id(bad)
    assert check_task_id("pair_sum-2.v1") == "pair_sum-2.v1"


@pytest.mark.parametrize("args, message", [
    (["--seeds", "{empty}"], "no seed files"),
    (["--seeds", "{file}"], "--seeds takes a folder"),
    (["--seeds", "{missing}"], "seed folder not found"),
    (["--out", "{file}"], "is a file, not a folder"),
    (["--out", "/proc/ifforge-cannot-write-here"], "cannot write there"),
    (["--test-cases", "{file}"], "--test-cases needs --functions"),
])
def test_unusable_inputs_stop_the_command_with_a_message(tmp_path, capsys, args, message):
    empty, file = tmp_path / "empty", tmp_path / "seed.py"
    empty.mkdir()
    file.write_text(GOOD + INPUTS)
    paths = {"empty": empty, "file": file, "missing": tmp_path / "missing"}
    args = [a.format(**paths) for a in args]
    if "--out" not in args:
        args += ["--out", str(tmp_path / "out")]
    assert main(["generate", *args]) == 2
    error = capsys.readouterr().err
    assert message in error and "Traceback" not in error
    assert not list(tmp_path.glob("out/*/v*"))  # no finished-looking version left behind


def test_lone_surrogates_never_break_a_write(tmp_path):
    [result] = run_cases("def f():\n    return 'a' + chr(0xD800)\n", "f", [[]])
    assert result.status == "not_json" and "surrogate" in result.error
    cache = ItemCache(tmp_path / "cache")
    cache.put("stage", "ab" * 32, {"text": "x\ud800y"})
    assert cache.get("stage", "ab" * 32) == {"text": "x\ud800y"}
    write_json(tmp_path / "a.json", {"text": "x\ud800y"})
    assert json.loads((tmp_path / "a.json").read_text()) == {"text": "x\ud800y"}
    assert clean_text("model\ud800reply") == "model\ufffdreply"
    reply, problem = parse_reply('{"name": "x\\ud800y"}', Named)  # an escape in a model's JSON
    assert problem == "" and reply.name == "x\ufffdy"


def test_a_tampered_cache_entry_is_a_miss_not_a_result(tmp_path):
    cache = ItemCache(tmp_path)
    cache.put("execute", "cd" * 32, {"gold": 1})
    path = next(tmp_path.rglob("*.json"))
    path.write_bytes(path.read_bytes().replace(b'"gold": 1', b'"gold": 2'))
    assert cache.get("execute", "cd" * 32) is None and cache.mismatches == 1
    path.write_text('{"gold": 2}')  # no hash line at all
    assert cache.get("execute", "cd" * 32) is None


def test_a_finished_version_whose_files_changed_is_resumed_not_reused(tmp_path):
    store = VersionStore(tmp_path, "fp")
    store.write("benchmark.jsonl", '{"gold": 1}\n')
    store.write_manifest({})
    assert VersionStore(tmp_path, "fp").finished
    (store.path / "benchmark.jsonl").write_text('{"gold": 2}\n')
    again = VersionStore(tmp_path, "fp")
    assert again.path == store.path and again.state == "resumed"
    assert not (store.path / "manifest.json").exists()


def test_temporary_names_are_unique_and_a_killed_writer_leaves_nothing_for_long(tmp_path):
    with atomic_path(tmp_path / "clusters.png") as first, atomic_path(tmp_path / "clusters.png") as second:
        assert first != second and first.suffix == ".png"
        first.write_bytes(b"1")
        second.write_bytes(b"2")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    version = tmp_path / "bench" / "v001"
    version.mkdir(parents=True)
    stale = version / f".benchmark.jsonl.{dead}-abc123.tmp"
    stale.write_text("half")
    mine = version / f".benchmark.jsonl.{os.getpid()}-def456.tmp"
    mine.write_text("in progress")
    VersionStore(tmp_path / "bench", "fp")
    assert not stale.exists() and mine.exists()


def test_a_server_we_started_dies_with_us_even_on_sigkill():
    script = ("import subprocess, sys, time\nfrom ifforge.core.orphans import guard\n"
              "server = subprocess.Popen(['sleep', '1000'])\nguard(server.pid)\n"
              "print(server.pid, flush=True)\ntime.sleep(1000)\n")
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    server = int(parent.stdout.readline())
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        state = Path(f"/proc/{server}/stat").read_text().split()[2] if Path(f"/proc/{server}").exists() else "gone"
        if state in ("gone", "Z"):
            break
        time.sleep(0.2)
    assert state in ("gone", "Z"), "the server outlived the process that started it"


def test_prefect_temporary_servers_get_the_watchdog(monkeypatch):
    from prefect.server.api.server import SubprocessASGIServer

    from ifforge.core.prefect_env import configure

    start = SubprocessASGIServer.start
    monkeypatch.setattr(SubprocessASGIServer, "start", getattr(start, "__wrapped__", start))  # as prefect ships it
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    monkeypatch.setenv("IFFORGE_NO_SERVER_PROBE", "1")
    configure()  # what every flow module does first: no server up, so prefect's temporary one will run
    assert getattr(SubprocessASGIServer.start, "_ifforge_guarded", False)


def test_a_benchmark_file_that_is_not_utf8_or_json_is_named_with_its_line(tmp_path):
    from ifforge.eval.evaluation import BenchmarkError, read_jsonl

    rows = tmp_path / "benchmark.jsonl"
    rows.write_bytes(b'{"task_id": "a"}\n{"task_id": "caf\xe9"}\n')
    with pytest.raises(BenchmarkError, match=r"benchmark.jsonl:2: is not UTF-8 text"):
        read_jsonl(rows)
    rows.write_text('{"task_id": "a"}\n[1, 2]\n')
    with pytest.raises(BenchmarkError, match=r"benchmark.jsonl:2: a row must be a JSON object"):
        read_jsonl(rows)


def test_evaluation_knows_whether_the_rows_are_the_ones_generated(tmp_path):
    from ifforge.eval.evaluation import benchmark_check

    store = VersionStore(tmp_path, "fp")
    store.write("benchmark.jsonl", '{"task_id": "a"}\n')
    store.write_manifest({})
    rows = store.path / "benchmark.jsonl"
    assert benchmark_check(rows, store.path)["matches_manifest"] is True
    rows.write_text('{"task_id": "a", "code_output": "edited"}\n')
    check = benchmark_check(rows, store.path)
    assert check["matches_manifest"] is False and check["sha256"] != check["manifest_sha256"]
    loose = tmp_path / "rows.jsonl"
    loose.write_text('{"task_id": "a"}\n')
    assert benchmark_check(loose, tmp_path)["matches_manifest"] is None
