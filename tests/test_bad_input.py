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
from ifforge.core.llm.client import parse_reply
from ifforge.core.sandbox.execution import run_cases
from ifforge.core.store.versions import ItemCache, VersionStore, atomic_path, write_json
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
    _seed(tmp_path, "_private", GOOD + INPUTS)  # skipped by rule, and said so
    _seed(tmp_path, "__init__", "")  # a package marker is not a seed: nothing to say
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
    assert detail["_private"] == f"{tmp_path / '_private.py'}: a file whose name starts with '_' is not read as a seed " \
        "(rename it to make it one)"
    assert "__init__" not in detail


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

    from ifforge.core.prefect.env import configure

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


# ---- files that stay where they are (issue 21, part 3) ------------------------------------------

SECRET = "hunter2-do-not-ship"


def _hostile_seed_folder(tmp_path: Path) -> Path:
    """A seed folder holding one good seed and every kind of file that once leaked, crashed or hung a run."""
    import socket

    outside, folder = tmp_path / "outside", tmp_path / "seeds"
    outside.mkdir()
    folder.mkdir()
    (outside / "secret.py").write_text(f"def f(n):\n    return {SECRET!r} * n\n# input: [1]\n# input: [2]\n# input: [3]\n")
    _seed(folder, "good", GOOD + INPUTS)
    (folder / "leak.py").symlink_to(outside / "secret.py")  # a link out of the folder: refused
    (folder / "alias.py").symlink_to(folder / "good.py")  # a link that stays inside: a seed like any other
    (folder / "folder.py").mkdir()
    (folder / "dangling.py").symlink_to(folder / "nowhere.py")
    os.mkfifo(folder / "pipe.py")  # opened for reading, it blocks until a writer comes: none will
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(folder / "socket.py"))
    _seed(folder, "bom", b"\xef\xbb\xbf" + (GOOD + INPUTS).encode())
    _seed(folder, "docstring", 'def f(n):\n    """Counts.\n    # input: [99]\n    """\n    x = "# input: [98]"\n'
                               "    return n\n# input: [1]\n# input: [2]\n# input: [3]\n")
    return folder


def test_seeds_that_are_no_file_or_lead_outside_their_folder_are_dropped_never_opened(tmp_path):
    import threading

    folder = _hostile_seed_folder(tmp_path)
    loaded: list = []
    worker = threading.Thread(target=lambda: loaded.append(load_seed_dir(folder)), daemon=True)
    worker.start()
    worker.join(60)  # a hang guard (the FIFO), not a speed check: a blocked open never returns
    assert loaded, "loading the seeds blocked (on the FIFO)"
    seeds, dropped = loaded[0]
    assert sorted(s.task_id for s in seeds) == ["alias", "bom", "docstring", "good"]
    assert {d.task_id: d.detail for d in dropped} == {
        "dangling": f"{folder / 'dangling.py'}: is a symbolic link to {folder / 'nowhere.py'}, which does not exist",
        "folder": f"{folder / 'folder.py'}: is a folder, not a file: not read",
        "leak": f"{folder / 'leak.py'}: leads to {tmp_path / 'outside' / 'secret.py'}, outside the folder {folder}: "
                "not read",
        "pipe": f"{folder / 'pipe.py'}: is a named pipe (FIFO), not a file: not read",
        "socket": f"{folder / 'socket.py'}: is a socket, not a file: not read"}
    assert all(d.reason == "bad_seed" for d in dropped)
    assert not any(SECRET in s.source for s in seeds)
    by_id = {s.task_id: s for s in seeds}
    assert by_id["bom"].source == GOOD + INPUTS and [i.args for i in by_id["bom"].inputs] == [[3], [4], [5]]
    assert [(i.line, i.args) for i in by_id["docstring"].inputs] == [(7, [1]), (8, [2]), (9, [3])]


def test_logicif_jsonl_files_with_a_bom_keep_their_first_line_and_a_fifo_is_refused(tmp_path):
    functions, cases = tmp_path / "functions.jsonl", tmp_path / "cases.jsonl"
    functions.write_bytes(b"\xef\xbb\xbf" + json.dumps({"task_id": "first", "function": GOOD}).encode() + b"\n")
    cases.write_bytes(b"\xef\xbb\xbf" + json.dumps({"task_id": "first", "test_cases": [[3], [4], [5]]}).encode())
    seeds, dropped = load_logicif_jsonl(functions, cases)
    assert [(s.task_id, len(s.inputs)) for s in seeds] == [("first", 3)] and not dropped
    os.mkfifo(tmp_path / "pipe.jsonl")
    with pytest.raises(ValueError, match=r"pipe\.jsonl: not a file"):
        load_logicif_jsonl(tmp_path / "pipe.jsonl")


PACIFIC_ROW = {"family": "pacific", "task_id": "p1", "mode": "prompt", "form": "code", "chain_length": 2,
               "output_length": 1, "gold": [1, 2], "prompt": "Go."}
MCBENCH_ROW = {"family": "mcbench", "task_id": "m1", "prompt": "Go.", "gold_steps": [1, 2], "gold_final": 2}
LIFBENCH_ROW = {"family": "lifbench", "task_id": "l1", "sample_id": "s", "scenario": "List", "task": "single_id",
                "length_tokens": 4000, "expression_id": "e0", "variables_id": "v0", "prompt": "Go.", "gold": "x",
                "facts": {}}


@pytest.mark.parametrize("row, line", [
    ({**PACIFIC_ROW, "mode": "chat"}, "field 'messages' must be a list of objects with text 'content'"),
    ({k: v for k, v in PACIFIC_ROW.items() if k != "gold"}, "missing field 'gold'"),
    ({**PACIFIC_ROW, "mode": "voice"}, "field 'mode' must be 'chat' or 'prompt', not 'voice'"),
    ({k: v for k, v in MCBENCH_ROW.items() if k != "gold_final"}, "missing field 'gold_final'"),
    ({**MCBENCH_ROW, "gold_steps": "1, 2"}, "field 'gold_steps' must be a list, not text"),
    ({**MCBENCH_ROW, "gold_final": True}, "field 'gold_final' must be a number, not true or false"),
    ({k: v for k, v in LIFBENCH_ROW.items() if k != "prompt"}, "missing field 'prompt'"),
    ({**LIFBENCH_ROW, "task": "dance"}, "field 'task': unknown task 'dance'"),
    ({"family": "logicif", "task_id": "t", "test_case_id": 0, "code_output": {"output": 1}, "instruction": "x"},
     "field 'code_output' has no 'stats' (the gold)"),
    ({"family": ["pacific"], "task_id": "t"}, "field 'family' must be text"),
])
def test_evaluate_names_the_file_line_and_field_of_a_row_it_cannot_score(tmp_path, capsys, row, line):
    good = {"pacific": PACIFIC_ROW, "mcbench": MCBENCH_ROW, "lifbench": LIFBENCH_ROW}.get(row["family"], row) \
        if isinstance(row["family"], str) else row
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(good) + "\n\n" + json.dumps(row) + "\n")  # the bad row is on line 3
    for command in (["evaluate", str(rows), "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--dry-run"],
                    ["export", str(rows), "--format", "inspect", "--out", str(tmp_path / "export")]):
        assert main(command) == 2
        error = capsys.readouterr().err
        assert error.startswith(f"ifforge: {rows}:") and line in error and "Traceback" not in error
        assert error.count("\n") == 1
    assert not (tmp_path / "export").exists()


def test_rows_files_that_are_missing_or_no_file_are_one_line_and_a_bom_keeps_the_first_row(tmp_path, capsys):
    evaluate = ["--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--dry-run"]
    os.mkfifo(tmp_path / "pipe.jsonl")
    for given, message in ((tmp_path / "missing.jsonl", "missing.jsonl: file not found"),
                           (tmp_path / "pipe.jsonl", "pipe.jsonl: is a named pipe (FIFO), not a file")):
        assert main(["evaluate", str(given), *evaluate]) == 2
        error = capsys.readouterr().err
        assert message in error and error.count("\n") == 1
    assert main(["score", str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl: file not found" in capsys.readouterr().err
    rows = tmp_path / "bom.jsonl"
    rows.write_bytes(b"\xef\xbb\xbf" + (json.dumps(MCBENCH_ROW) + "\n" + json.dumps({**MCBENCH_ROW, "task_id": "m2"})
                                        + "\n").encode())
    assert main(["evaluate", str(rows), *evaluate]) == 0
    assert json.loads(capsys.readouterr().out)["cases"] == 2


def test_convert_names_the_file_and_field_of_a_paper_file_that_does_not_fit(tmp_path, capsys):
    schema = {"name": "plan", "parameters": {"type": "object", "properties": {"notes": {"type": "string"}}}}
    good = {"chosen_param": "notes", "fn_schema": schema, "user_queries": ["A walk."],
            "format": {"name": "NCommasChecker", "args": {"N": 2, "comparison_option": "at most"}}}
    data = tmp_path / "data"
    data.mkdir()
    out = tmp_path / "rows.jsonl"
    cases = [({**good, "format": "NCommasChecker"}, "field 'format' must be an object"),
             ({**good, "fn_schema": "plan"}, "field 'fn_schema' must be an object"),
             ({**good, "fn_schema": {"name": "plan"}}, "missing field 'fn_schema.parameters'"),
             ({**good, "user_queries": "A walk."}, "field 'user_queries' must be a list"),
             ({**good, "user_queries": [3]}, "field 'user_queries': query 1 is not a non-empty text"),
             ({**good, "format": {"name": ["NCommasChecker"]}}, "field 'format.name': unknown checker"),
             ([good], "must hold a JSON object")]
    for content, message in cases:
        (data / "one.json").write_text(json.dumps(content))
        assert main(["convert", "ifeval-fc", str(data), "--out", str(out), "--system-message", "ifforge"]) == 2
        error = capsys.readouterr().err
        assert error == f"ifforge: {data / 'one.json'}: {message}" + error[len(f"ifforge: {data / 'one.json'}: {message}"):]
        assert error.count("\n") == 1 and not out.exists()
    (data / "one.json").write_text(json.dumps(good))
    (tmp_path / "secret.json").write_text(json.dumps({**good, "user_queries": [SECRET]}))
    (data / "two.json").symlink_to(tmp_path / "secret.json")
    assert main(["convert", "ifeval-fc", str(data), "--out", str(out), "--system-message", "ifforge"]) == 2
    assert "two.json: leads to" in capsys.readouterr().err and not out.exists()
    (data / "two.json").unlink()
    assert main(["convert", "ifeval-fc", str(data), "--out", str(out), "--system-message", "ifforge"]) == 0
    assert [json.loads(line)["messages"][-1]["content"] for line in out.read_text().splitlines()] == ["A walk."]


HOSTILE_NAME = 'x""";__import__("os").system("touch PWNED");"""y'


def test_a_rows_file_name_or_field_never_becomes_code_in_an_export(tmp_path, monkeypatch, capsys):
    """The inspect task.py and the lm-eval utils.py and YAML hold a rows file's name (and a row's
    `protocol`) only as data: importing them runs nothing, and the name comes back exactly."""
    import ast
    import importlib.util

    import yaml

    monkeypatch.chdir(tmp_path)
    row = {"family": "logicif", "task_id": "t", "test_case_id": 0, "code_output": {"output": 1, "stats": {}},
           "instruction": "Say 1.", "protocol": '"""\nimport os\nos.system("touch PWNED")\n"""'}
    rows = tmp_path / f"{HOSTILE_NAME}.jsonl"
    rows.write_text(json.dumps(row) + "\n")
    for export_format in ("inspect", "lm-eval"):
        assert main(["export", str(rows), "--format", export_format, "--out", str(tmp_path / export_format)]) == 0
    capsys.readouterr()
    lm_eval = tmp_path / "lm-eval"
    for path in (tmp_path / "inspect" / "task.py", lm_eval / "utils.py"):
        spec = importlib.util.spec_from_file_location(f"exported_{path.parent.name.replace('-', '_')}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    assert module.load_docs  # the utils module imported in full
    assert not (tmp_path / "PWNED").exists()
    task_py = (tmp_path / "inspect" / "task.py").read_text()
    constants = [node.value for node in ast.parse(task_py).body if isinstance(node, ast.Assign)]
    assert [ast.literal_eval(value) for value in constants] == [rows.name]  # the name (from the working folder), a literal
    [task_yaml] = lm_eval.glob("*.yaml")
    first_line = task_yaml.read_text().splitlines()[0]
    assert first_line.startswith("# ") and json.dumps(rows.name) in first_line  # one comment line, quoted
    loaded = yaml.load(task_yaml.read_text().replace("!function ", ""), Loader=yaml.SafeLoader)
    assert loaded["task"] == task_yaml.stem and loaded["task"].isidentifier()


def test_sandbox_folders_of_a_killed_run_are_removed_by_the_next(tmp_path):
    from ifforge.core.sandbox.execution import WORKDIR_PREFIX, remove_stale_workdirs

    script = ("import os, signal\nfrom ifforge.core.sandbox.execution import run_cases\n"
              "assert run_cases('def f():\\n    return 1\\n', 'f', [[]])[0].ok\n"
              "print(os.getpid(), flush=True)\nos.kill(os.getpid(), signal.SIGKILL)\n")
    killed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env={**os.environ, "TMPDIR": str(tmp_path)})
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    left = list(tmp_path.glob(f"{WORKDIR_PREFIX}{killed.stdout.strip()}-*"))
    assert left, "the killed run left no folder: nothing to test"
    mine = tmp_path / f"{WORKDIR_PREFIX}{os.getpid()}-live"
    mine.mkdir()
    assert remove_stale_workdirs(tmp_path) == len(left)
    assert not any(path.exists() for path in left) and mine.exists()


def test_a_fifo_or_folder_handed_to_any_command_is_one_line_not_a_hang(tmp_path, capsys):
    os.mkfifo(tmp_path / "pipe.py")
    os.mkfifo(tmp_path / "pipe.toml")
    (tmp_path / "folder.jsonl").mkdir()
    for command, message in ((["complexity", str(tmp_path / "pipe.py")], "pipe.py: is a named pipe (FIFO)"),
                             (["complexity", str(tmp_path / "folder.jsonl")], "folder.jsonl: is a folder"),
                             (["generate", "--config", str(tmp_path / "pipe.toml"), "--llm", "none"],
                              "pipe.toml: is a named pipe (FIFO)")):
        assert main(command) == 2
        error = capsys.readouterr().err
        assert message in error and error.count("\n") == 1


def test_convert_offers_the_families_that_convert_with_their_own_help_and_options(capsys, monkeypatch):
    from ifforge.families import FAMILIES, converting, get_family, options_of

    with_converter = [key for key in FAMILIES if get_family(key).converter is not None]
    assert list(converting()) == with_converter and with_converter  # the registry line says what the family has
    monkeypatch.setenv("COLUMNS", "1000")  # help on one line: no id broken at its hyphen
    with pytest.raises(SystemExit):
        main(["convert", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "{" + ",".join(with_converter) + "}" in shown
    assert all(f"{key}: {' '.join(files.split())}" in shown for key, files in converting().items())
    assert "--system-message" in shown.split("the family's options")[1]  # a family's option, in their group
    with pytest.raises(SystemExit):
        main(["convert", next(key for key in FAMILIES if key not in with_converter), ".", "--out", "x.jsonl"])
    assert "invalid choice" in capsys.readouterr().err
    without = next(key for key in with_converter if "system_message" not in options_of(key).model_fields)
    assert main(["convert", without, ".", "--out", "x.jsonl", "--system-message", "Hi."]) == 2
    assert f"{without} has no option --system-message" in capsys.readouterr().err
