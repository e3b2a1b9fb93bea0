"""Issue 37, files and settings: what a row, a converter input, a settings file, a LATEST file, a
second run or a full disk can do to a command. Each ends in one line naming the file or the
setting, writes nothing outside the folder it was given, and deletes nothing it did not write."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ifforge.cli import main
from ifforge.core.untrusted import BadValue
from ifforge.families.lifbench.convert import convert
# Prefect sets up its logging when imported: here, not inside a test's capture (which it would outlive)
from ifforge.flows import generate as _generate_flow  # noqa: F401

EVALUATE = ["--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--dry-run"]


def one_line(capsys) -> str:
    """The command's stderr, which must be one line of ifforge's own and no traceback."""
    error = capsys.readouterr().err
    assert error.startswith("ifforge: ") and error.count("\n") == 1 and "Traceback" not in error, error
    return error


# ---- export --format ifeval-fc ------------------------------------------------------------------
def ifeval_fc_rows(path: Path, rename: str | None = None) -> list[dict]:
    """Two functions' rows, written to `path`; with `rename`, the first function is called so."""
    from ifforge.families.ifeval_fc.family import assign, row_of
    from ifforge.families.ifeval_fc.functions import from_bank
    from ifforge.families.ifeval_fc.settings import IfevalFcSettings

    settings = IfevalFcSettings(family="ifeval-fc", llm="none", queries_per_function=1)
    cases, _, _ = assign(from_bank()[:2], settings)
    rows = [row_of(case, settings) for case in cases]
    if rename:
        old = rows[0]["function_name"]
        for row in rows:
            if row["function_name"] == old:
                row["function_name"] = row["tools"][0]["function"]["name"] = rename
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return rows


def test_an_ifeval_fc_export_names_files_plainly_and_replaces_only_what_it_wrote(tmp_path, capsys):
    out = tmp_path / "deep" / "out"
    export = ["export", str(tmp_path / "rows.jsonl"), "--format", "ifeval-fc", "--out", str(out)]
    ifeval_fc_rows(tmp_path / "rows.jsonl", rename="../../escaped")
    assert main(export) == 2  # refused, not made plain: the name is also the tool's name the model is sent
    assert "function name '../../escaped' is not a plain name" in one_line(capsys)
    assert not list(tmp_path.rglob("escaped*"))

    out.mkdir(parents=True)
    (out / "mine.json").write_text('{"kept": true}')  # the user's: the paper's evaluate.py would read it as data
    rows = ifeval_fc_rows(tmp_path / "rows.jsonl")
    assert main(export) == 2
    assert "holds mine.json, not written by an ifeval-fc export" in one_line(capsys)
    (out / "mine.json").rename(out / "mine.txt")
    assert main(export) == 0
    capsys.readouterr()
    first = {path.name for path in out.glob("*.json")}
    assert len(first) == 2 and (out / "README.md").exists() and (out / "mine.txt").read_text() == '{"kept": true}'

    (tmp_path / "rows.jsonl").write_text(json.dumps(rows[-1]) + "\n")  # a smaller export into the same folder
    assert main(export) == 0
    capsys.readouterr()
    assert len(list(out.glob("*.json"))) == 1 and {path.name for path in out.glob("*.json")} < first
    assert (out / "mine.txt").exists()
    (out / ".ifforge-export.txt").write_text("../../victim.json\nmine.txt\n")  # an edited list deletes no path
    (tmp_path / "victim.json").write_text("{}")
    assert main(export) == 2 and "holds" in one_line(capsys)  # its own file is no longer listed: refused
    assert (tmp_path / "victim.json").exists() and (out / "mine.txt").exists()


# ---- convert lifbench ---------------------------------------------------------------------------
ITEM = {"prompt": "Text.\n\nInstruction: Is it key?", "label": {}, "param": {"evidence": "x", "options": ["Yes", "No"]},
        "length": 3, "ins_id": 0, "param_id": 0}


FRAME = "Input text: {input}\n\nInstruction: {instruction}\n"


def meta_folder(root: Path, instruction: str, frame: str = FRAME) -> Path:
    """A LIFBench `data/` folder with a `meta/` of one OneDoc qa template (the original's shape)."""
    meta = root / "data" / "meta"
    meta.mkdir(parents=True)
    label = {"#Topic#": [["Essays find truth.", 0, 1, True], ["Cats rule.", 1, 2, True],
                         ["A fake one.", 2, 3, False], ["Another fake.", 3, 4, False]]}
    (meta / "tasks.json").write_text(json.dumps({"onedoc": {"sys_instruction": frame, "subtasks": {"qa": {
        "instructions": [instruction], "params": {"options": [["Yes", "No"], ["apple", "APPLE"]]}}}}}))
    (meta / "onedoc_input.json").write_text(json.dumps({"info": [], "inputs": [{
        "input_text": "Essays find truth. Cats rule. A fake one. Another fake. The weather was mild all week. "
                      "Nobody wrote about the harbour that year.", "label": label, "length": 3}]}))
    return root / "data"


def test_convert_lifbench_fills_plain_fields_only_as_the_original_writes_them(tmp_path, capsys):
    real = 'Is "{evidence}" the CRUCIAL one? Use "{options[0]}" if it is, and "{options[1]}" if not. {{"a":1}}'
    rows = convert(meta_folder(tmp_path / "ok", real))
    param = rows[0]["paper"]["param"]
    assert rows[0]["instruction"] == real.format(**param)  # the original's str.format gives the same text
    assert rows[0]["prompt"].startswith("Input text: Essays find truth.")

    hostile = 'Say "{evidence.__class__.__mro__}" and {input.__class__.__mro__}.'
    out = tmp_path / "rows.jsonl"
    assert main(["convert", "lifbench", str(meta_folder(tmp_path / "evil", hostile)), "--out", str(out)]) == 2
    error = one_line(capsys)
    assert "tasks.json: field 'onedoc.subtasks.qa.instructions[0]'" in error and "not a plain" in error
    assert "mro" not in error.split("not a plain")[1] and "class 'object'" not in error and not out.exists()
    frame = "Input text: {input.__class__.__mro__}\n\nInstruction: {instruction}\n"
    assert main(["convert", "lifbench", str(meta_folder(tmp_path / "frame", "Say {evidence}.", frame)),
                 "--out", str(out)]) == 2
    assert "field 'onedoc.sys_instruction'" in one_line(capsys)
    from ifforge.core.fill import fill

    for template, refusal in (("{0}", "not a plain"), ("{evidence!r}", "not a plain"),
                              ("{evidence:>99999}", "not a plain"), ("{options[key]}", "not a plain"),
                              ("{options[7]}", "has no item 7"),
                              ("{nothing}", "names no value"), ("a } b", "not a template")):
        with pytest.raises(BadValue, match=refusal):
            fill(template, {"evidence": "x", "options": ["Yes", "No"]})


def test_convert_lifbench_reads_through_the_untrusted_reader(tmp_path, capsys):
    out = tmp_path / "rows.jsonl"
    prompts = tmp_path / "data" / "prompts"
    prompts.mkdir(parents=True)
    os.mkfifo(prompts / "onedoc-qa.json")  # it hung the converter, waiting for a writer: a process of its own here
    done = subprocess.run([sys.executable, "-m", "ifforge.cli", "convert", "lifbench", str(tmp_path / "data"),
                           "--out", str(out)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "onedoc-qa.json: is a named pipe (FIFO), not a file" in done.stderr
    (prompts / "onedoc-qa.json").unlink()

    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps([{**ITEM, "prompt": "hunter2"}]))
    (prompts / "onedoc-qa.json").symlink_to(secret)
    assert main(["convert", "lifbench", str(tmp_path / "data"), "--out", str(out)]) == 2
    assert "onedoc-qa.json: leads to" in one_line(capsys) and not out.exists()
    (prompts / "onedoc-qa.json").unlink()

    deep = "[" * 50_000 + "]" * 50_000
    (prompts / "onedoc-qa.json").write_text(f'[{{"prompt": "p", "label": {deep}}}]')
    assert main(["convert", "lifbench", str(tmp_path / "data"), "--out", str(out)]) == 2
    assert "onedoc-qa.json: is nested deeper than 100 levels" in one_line(capsys)

    prompts.joinpath("onedoc-qa.json").unlink()
    prompts.rmdir()
    data = meta_folder(tmp_path / "meta", "Is {evidence} key?")
    inputs = data / "meta" / "onedoc_input.json"
    broken = json.loads(inputs.read_text())
    del broken["inputs"][0]["length"]
    inputs.write_text(json.dumps(broken))
    assert main(["convert", "lifbench", str(data), "--out", str(out)]) == 2
    assert one_line(capsys) == f"ifforge: {inputs}: missing field 'inputs[0].length'\n"
    tasks = data / "meta" / "tasks.json"
    tasks.write_text(json.dumps({"onedoc": {"subtasks": {}}}))
    assert main(["convert", "lifbench", str(data), "--out", str(out)]) == 2
    assert one_line(capsys) == f"ifforge: {tasks}: missing field 'onedoc.sys_instruction'\n"
    assert not out.exists()


# ---- settings and LATEST ------------------------------------------------------------------------
@pytest.mark.parametrize("toml, message", [
    ('benchmark = "../../x"', "setting 'benchmark': Value error, benchmark '../../x' is not a plain name"),
    ('benchmark = "/etc"', "setting 'benchmark': Value error, benchmark '/etc' is not a plain name"),
    ("llm_rpm = -1", "setting 'llm_rpm': Input should be greater than or equal to 1"),
    ("llm_tpm = -5", "setting 'llm_tpm': Input should be greater than or equal to 1"),
    ("llm_timeout = inf", "setting 'llm_timeout': Input should be a finite number"),
    ("llm_concurrency = 0", "setting 'llm_concurrency': Input should be greater than or equal to 1"),
    ("case_seconds = inf", "setting 'case_seconds': Input should be a finite number"),
    ("max_tracker_value = nan", "setting 'max_tracker_value': Input should be greater than 0"),  # inf: no cap
    ("max_input_length = -1", "setting 'max_input_length': Input should be greater than or equal to 1"),
    ("inputs_min = 20", "settings: Value error, inputs_min (20) is more than inputs_max (12)"),
])
def test_a_bad_setting_is_one_line_naming_it_before_anything_runs(tmp_path, capsys, toml, message):
    config = tmp_path / "ifforge.toml"
    config.write_text(f"[ifforge]\n{toml}\n")
    seeds = tmp_path / "seeds"
    seeds.mkdir()  # empty: a command that got past its settings would stop at "no seed files"
    assert main(["generate", "--config", str(config), "--seeds", str(seeds), "--llm", "none",
                 "--out", str(tmp_path / "out")]) == 2
    assert one_line(capsys) == f"ifforge: {config}: {message}" + capsys_tail(message, toml)
    assert not (tmp_path / "x").exists() and not (tmp_path / "out").exists()


def capsys_tail(message: str, toml: str) -> str:
    """The rest of pydantic's and plain_name's wording after the part the test pins."""
    if "plain name" in message:
        return " (letters, digits, '_', '-', '.'; at most 128 characters; no '/' or '..')\n"
    return "\n"


def test_rate_limits_from_the_evaluate_command_line_are_checked_too(tmp_path, capsys):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"family": "mcbench", "task_id": "t"}) + "\n")
    assert main(["evaluate", str(rows), *EVALUATE, "--set", "llm_rpm=-1"]) == 2
    assert "command line: setting 'llm_rpm'" in one_line(capsys)


@pytest.mark.parametrize("latest, message", [
    ("/etc", "names '/etc' is not a plain name"), ("../", "names '../' is not a plain name"),
    ("../../other", "names '../../other' is not a plain name"), ("v009", "names 'v009', which is no folder in"),
])
def test_a_latest_file_naming_no_version_beside_it_is_one_line_naming_it(tmp_path, capsys, latest, message):
    bench = tmp_path / "out" / "bench"
    (bench / "v001").mkdir(parents=True)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "benchmark.jsonl").write_text(json.dumps({"family": "mcbench", "task_id": "t"}) + "\n")
    (bench / "LATEST").write_text(latest + "\n")
    for command in (["evaluate", str(bench), *EVALUATE], ["review", str(bench), "--stats"],
                    ["export", str(bench), "--format", "inspect", "--out", str(tmp_path / "x")],
                    ["score", str(tmp_path / "replies.jsonl"), "--benchmark", str(bench)]):
        reply = {"family": "mcbench", "task_id": "t", "response": "1"}
        (tmp_path / "replies.jsonl").write_text(json.dumps(reply) + "\n")
        assert main(command) == 2, command
        error = one_line(capsys)
        assert error.startswith(f"ifforge: {bench / 'LATEST'}: {message}"), (command, error)
    assert not (tmp_path / "x").exists()


# ---- a LIFBench per-task file where rows are expected ----------------------------------------------
def test_a_json_array_where_json_lines_are_expected_says_so_and_names_the_converter(tmp_path, capsys):
    released = tmp_path / "onedoc-qa.json"
    released.write_text(json.dumps([ITEM, ITEM], indent=2))  # as LIFBench's PromptGenerate dumps it
    flat = tmp_path / "flat.json"
    flat.write_text(json.dumps([ITEM, ITEM]))
    for given in (released, flat):
        for command in (["evaluate", str(given), *EVALUATE], ["score", str(given)]):
            assert main(command) == 2
            error = one_line(capsys)
            assert error.startswith(f"ifforge: {given}: is a JSON array, not JSON lines") and \
                "ifforge convert lifbench" in error, error
    assert len(convert(released)) == 2  # what the message points to reads it


# ---- two runs at once, a full disk ----------------------------------------------------------------
GOOD = ("def f(n):\n    total = 0\n    for i in range(n):\n        total += i\n    return total\n"
        "# input: [3]\n# input: [4]\n# input: [5]\n")
HOLDER = """import sys, time
from pathlib import Path
from ifforge.core.store.runlock import writing
with writing(Path(sys.argv[1])):
    (Path(sys.argv[1]) / "v001").mkdir()
    (Path(sys.argv[1]) / "v001" / "benchmark.jsonl").write_text("written by the first run\\n")
    print("holding", flush=True)
    time.sleep(600)
"""


def test_a_second_generate_on_the_same_benchmark_stops_in_one_line_and_the_first_keeps_its_files(tmp_path, capsys):
    seeds, out = tmp_path / "seeds", tmp_path / "out"
    seeds.mkdir()
    (seeds / "good.py").write_text(GOOD)
    root = out / "logicif"
    root.mkdir(parents=True)
    first = subprocess.Popen([sys.executable, "-c", HOLDER, str(root)], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        assert first.stdout.readline() == "holding\n"
        assert main(["generate", "--seeds", str(seeds), "--out", str(out), "--llm", "none", "--no-progress"]) == 2
        assert one_line(capsys) == (f"ifforge: {root}: another generate (pid {first.pid}) is writing this benchmark; "
                                    "wait for it to end, or give another --out or --benchmark\n")
        assert (root / "v001" / "benchmark.jsonl").read_text() == "written by the first run\n"
        assert sorted(path.name for path in root.iterdir()) == [".lock", "v001"]
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    from ifforge.core.store.runlock import writing

    with writing(root), writing(root):  # a killed holder leaves no stale lock; one process may take it twice
        assert (root / ".lock").read_text() == f"{os.getpid()}\n"


@pytest.fixture
def full_disk(tmp_path):
    """A folder on a tmpfs of 256 KiB (`mount` needs root, as on the project's test machines),
    filled up to its last byte."""
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)], capture_output=True,
                             text=True)
    assert mounted.returncode == 0, f"this test mounts a small tmpfs (as root): {mounted.stderr}"
    try:
        fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:  # ENOSPC: full
            pass
        finally:
            os.close(fd)
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def test_a_full_disk_ends_generate_in_one_line_and_the_rerun_resumes(full_disk, tmp_path, capfd, prefect_server):
    seeds, out = tmp_path / "seeds", full_disk / "out"
    seeds.mkdir()
    (seeds / "good.py").write_text(GOOD)
    command = ["generate", "--seeds", str(seeds), "--out", str(out), "--llm", "none", "--no-progress"]
    assert main(command) == 2  # the embedding cache's sqlite database is the first to meet the full disk
    printed = capfd.readouterr().err
    assert printed.count("\n") == 1 and printed.startswith("ifforge: a write failed: database or disk is full")

    offline = [*command, "--set", "dedup=false", "--set", "expressions=0"]  # no embeddings: the flow writes first
    assert main(offline) == 2
    printed = capfd.readouterr().err
    assert "Traceback" not in printed, printed
    [line] = [line for line in printed.splitlines() if line.startswith("ifforge: ")]
    assert line.startswith(f"ifforge: {out / 'logicif' / 'v001'}/") and "No space left on device" in line
    assert line.endswith("(free some space, then run the same command again: it resumes where it stopped)")
    assert not [path for path in out.rglob("*.tmp")]  # no half-written file left behind
    (full_disk / "filler").unlink()
    assert main(offline) == 0
    assert (out / "logicif" / "v001" / "manifest.json").exists() and not (out / "logicif" / "v002").exists()
    capfd.readouterr()
