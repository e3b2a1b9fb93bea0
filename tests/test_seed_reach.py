"""Seed code that reaches past the code policy (issue 37, section 1). Each hostile seed here once
passed: a class pattern reached the real builtins (today's date in gold behind the walls, a file
written on the host without them), gold from entropy survived a perturbed pass that never finished,
and gold from a text's `hash` survived two hash seeds. Outside seeds need walls, or a setting."""

import json
import shutil

import pytest
from conftest import PROJECT

from ifforge.cli import main
from ifforge.core.sandbox import _child as child
from ifforge.core.sandbox import isolation
from ifforge.core.sandbox import execution as sandbox
from ifforge.core.sandbox.codepolicy import policy_problem
from ifforge.core.sandbox.execution import Limits, run_cases
from ifforge.families import get_family, load_family_settings
from ifforge.families.logicif.configs import ExecuteConfig, from_settings
from ifforge.families.logicif.records import InstrumentedFunction, TestInput, Tracker
from ifforge.families.logicif.settings import LogicIFSettings
from ifforge.families.logicif.stages import execute, load

# the real builtins, reached through keyword class patterns: no `a.b` names a hidden attribute
REACH = '''
def real_builtins():
    match object:
        case object(__subclasses__=subclasses):
            pass
    for klass in subclasses():
        match klass:
            case object(__init__=object(__globals__={"__builtins__": {"open": _} as found})):
                return found
'''
TODAY = REACH + '''
import datetime
def f(x):
    clock = real_builtins()["__import__"]("time")
    return str(datetime.date.fromtimestamp(clock.time()))
'''
WRITER = REACH + '''
def f(path):
    with real_builtins()["open"](path, "w") as handle:
        handle.write("escaped")
    return "written"
'''


@pytest.fixture
def no_bubblewrap(monkeypatch, tmp_path):
    """This machine as one without bubblewrap: `bwrap` is not on the PATH, so the sandbox finds no
    walls. Warm children started behind them are stopped first, the ones without them after."""
    empty = tmp_path / "path-without-bwrap"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv("IFFORGE_ALLOW_UNWALLED_SEEDS", raising=False)
    isolation.detect.cache_clear()
    sandbox._POOL_OF_CHILDREN.close()
    assert isolation.detect().method == "rlimits"
    yield
    monkeypatch.undo()
    isolation.detect.cache_clear()
    sandbox._POOL_OF_CHILDREN.close()


def test_a_class_pattern_that_reaches_the_real_builtins_is_refused_with_its_file_and_line(tmp_path):
    [result] = run_cases(TODAY, "f", [[1]])
    assert result.status == "forbidden" and result.line == 4, result
    assert "uses the attribute __subclasses__ in a class pattern" in result.error
    (tmp_path / "today.py").write_text(TODAY + "# input: [1]\n")
    seeds, dropped = load.load_seed_dir(tmp_path)
    assert not seeds and dropped[0].reason == "bad_seed"
    assert dropped[0].detail.startswith(f"{tmp_path / 'today.py'}:4: uses the attribute __subclasses__")


def test_without_walls_a_class_pattern_writes_nothing_on_the_host(no_bubblewrap, tmp_path):
    target = tmp_path / "host.txt"
    [result] = run_cases(WRITER, "f", [[str(target)]])
    assert result.status == "forbidden" and result.line == 4 and not target.exists()


def _match(pattern: str, then: str = "return 1") -> str:
    return f"def f(x):\n    y = 1\n    match x:\n        {pattern}:\n            {then}\n"


@pytest.mark.parametrize("code, line", [
    (_match("case object(__subclasses__=s)"), 4),
    (_match("case [object(__globals__=g)]"), 4),
    (_match("case object(now=clock)", "return clock()"), 4),  # the clock, by a keyword
    (_match("case str(format=fill)", "return fill(f)"), 4),  # a format string read at run time
    # positional parts read what the class lists when it runs: here a name made from pieces
    ("import abc, dataclasses\ndef f(x):\n    P = dataclasses.make_dataclass('P', ['__glo' + 'bals__'], "
     "bases=(abc.ABC,))\n    match x:\n        case P(g):\n            return g\n", 5),
    ("def f(x):\n    match int:\n        case str:\n            pass\n    match x:\n        case str(g):\n"
     "            return g\n", 6),  # `str` rebound by a capture pattern is not the builtin
    ("def f(x):\n    y = 1\n    return '{0:{1.__globals__}}'.format(1, f)\n", 3),  # a field in the format spec
    ("import os\ndef f(x):\n    return getattr(os, 'system')\n", 3),
    ("import os.path\ndef f(x):\n    return hasattr(os.path, 'exists')\n", 3),
    ("import operator\ndef f(x):\n    return operator.attrgetter('__globals__')(f)\n", 3),
    # which Python runs the code is a fact of the host, as the clock is
    ("import unicodedata\ndef f(x):\n    return unicodedata.unidata_version\n", 3),
    ("def f(x):\n    from unicodedata import unidata_version\n    return 1\n", 2),
    ("import unicodedata\ndef f(x):\n    return getattr(unicodedata, 'unidata_version')\n", 3),
    ("import sys\ndef f(x):\n    return sys.int_info.bits_per_digit\n", 3),
    ("import decimal\ndef f(x):\n    return decimal.HAVE_THREADS\n", 3),
])
def test_every_way_of_naming_an_attribute_is_checked_with_its_line(code, line):
    refusal = policy_problem(code)
    assert refusal is not None and refusal.line == line, (refusal, code)
    [result] = run_cases(code, "f", [[1]])
    assert result.status == "forbidden"


def test_names_made_at_run_time_find_no_interpreter_facts_in_the_child():
    code = ("import unicodedata, decimal, sys\ndef f(x):\n    for module, name in ((unicodedata, 'unidata_'), "
            "(decimal, 'HAVE_'), (sys, 'int_')):\n        if hasattr(module, name + x[0]):\n"
            "            return name\n    return unicodedata.category('a')\n")
    results = run_cases(code, "f", [[["version"]], [["THREADS"]], [["info"]]])
    assert [r.output for r in results] == ["Ll"] * 3, results
    seen = child._Walls().builtins()["__import__"]
    assert not hasattr(seen("unicodedata"), "unidata_version") and hasattr(seen("unicodedata"), "category")


def test_honest_patterns_formats_and_attribute_names_still_run():
    code = '''
import sys, unicodedata
from dataclasses import dataclass
@dataclass
class Move:
    dx: int
    dy: int
def f(steps):
    x = y = 0
    for step in steps:
        match step:
            case {"dx": int(dx), "dy": int(dy)}:
                step = Move(dx, dy)
        match step:
            case Move(dx=0, dy=dy):
                y += dy
            case Move(dx=dx, dy=dy):
                x, y = x + dx, y + dy
    label = "{0:{1}}|{2.real}".format(x / 3, ".2f", y)
    return [x, y, label, getattr(Move(1, 2), "d" + "y"), unicodedata.category("A"), sys.maxsize > 2 ** 62]
'''
    assert policy_problem(code) is None
    [result] = run_cases(code, "f", [[[{"dx": 0, "dy": 2}, {"dx": 3, "dy": 1}]]])
    assert result.ok and result.output == [3, 3, "1.00|3", 2, "Lu", True], result


def _instrumented(code: str, inputs: list[list]) -> InstrumentedFunction:
    return InstrumentedFunction(
        task_id="t", original_source=code.replace(", stats)", ")"), original_entry="f", anonymised_source=code,
        instrumented_source=code, renames={}, trackers=[Tracker(name="n", kind="loop_iterations", explanation="x")],
        inputs=[TestInput(args=args, line=i + 1) for i, args in enumerate(inputs)])


def test_gold_whose_perturbed_pass_never_finishes_is_not_gold():
    """Under the gold's random seed it returns (with a random number in its gold); under the
    perturbed pass's it loops until its time is up: no pass confirms that gold."""
    code = ("import random\ndef f(n):\n    stats = {'n': n}\n    while random.random() < 0.2:\n"
            "        random.seed(1)\n    return (n + int(random.random() * 1000), stats)\n")
    worlds = [run_cases("import random\ndef f():\n    return random.random()\n", "f", [[]],
                        limits=Limits(random_seed=seed))[0].output for seed in (0, 1)]
    assert worlds[0] >= 0.2 > worlds[1]  # the gold's world returns, the perturbed one loops
    outcome = execute.run(_instrumented(code, [[1]]), from_settings(ExecuteConfig, LogicIFSettings(
        case_seconds=0.2, min_cases=1)))
    assert outcome.kept is None
    assert [d.reason for d in outcome.dropped] == ["unconfirmed", "too_few_cases"], outcome.dropped
    assert "time limit" in outcome.dropped[0].detail


def test_gold_from_a_texts_hash_is_dropped_where_two_hash_seeds_agree():
    """Words whose `hash` parity is the same under the gold's hash seed and the perturbed pass's
    (about half of all words) but not under every hash seed the gold is checked with."""
    words = [f"w{i}" for i in range(40)]
    parity = "def f(words):\n    return [hash(word) % 2 for word in words]\n"
    seen = {seed: run_cases(parity, "f", [[words]], limits=Limits(hash_seed=seed))[0].output
            for seed in (0, 1, 2, 3)}  # the gold's, the perturbed pass's, and those of execute.HASH_SEEDS
    fooling = [w for i, w in enumerate(words) if seen[0][i] == seen[1][i] and len({s[i] for s in seen.values()}) > 1]
    assert len(fooling) >= 3
    code = "def f(word):\n    stats = {'n': len(word)}\n    return (hash(word) % 2, stats)\n"
    outcome = execute.run(_instrumented(code, [[w] for w in fooling[:3]]),
                          from_settings(ExecuteConfig, LogicIFSettings()))
    assert outcome.kept is None
    assert [d.reason for d in outcome.dropped] == ["nondeterministic"] * 3 + ["too_few_cases"], outcome.dropped


def _outside_seeds(folder):
    folder.mkdir()
    shutil.copy(PROJECT / "seeds" / "logicif" / "bank_ledger.py", folder)
    return folder


def test_outside_seeds_run_without_walls_only_with_the_setting(no_bubblewrap, tmp_path, capsys):
    seeds, out = _outside_seeds(tmp_path / "seeds"), tmp_path / "out"
    functions = tmp_path / "functions.jsonl"
    functions.write_text(json.dumps({"task_id": "t", "function": "def f(a):\n    return a\n"}) + "\n")
    for given in (["--seeds", str(seeds)], ["--functions", str(functions)]):
        assert main(["generate", *given, "--out", str(out), "--no-progress"]) == 2
        error = capsys.readouterr().err.strip()
        assert len(error.splitlines()) == 1 and "Traceback" not in error
        assert f"the {given[0][2:]} in {given[1]} would run without the sandbox's walls" in error
        assert "set allow_unwalled_seeds = true" in error
    assert not out.exists()
    logicif = get_family("logicif")
    logicif.check_inputs(load_family_settings({}))  # the package's own seeds need no setting
    logicif.check_inputs(load_family_settings({"seeds": str(PROJECT / "seeds" / "logicif")}))
    logicif.check_inputs(load_family_settings({"seeds": str(seeds), "allow_unwalled_seeds": True}))


def test_a_run_allowed_without_walls_says_so_in_its_manifest_and_card(prefect_server, no_bubblewrap, tmp_path):
    from ifforge.flows.generate import generate

    seeds = _outside_seeds(tmp_path / "seeds")
    version = generate(seeds=str(seeds), out=str(tmp_path / "out"), options={
        "progress": False, "dedup": False, "expressions": 0, "allow_unwalled_seeds": True})
    manifest = json.loads((tmp_path / "out" / "logicif" / "v001" / "manifest.json").read_text())
    assert manifest["export"]["tasks"] == 1 and manifest["sandbox"]["method"] == "rlimits"
    assert manifest["sandbox"]["unwalled"] == (f"the seeds in {seeds} ran without bubblewrap's walls "
                                               "(setting allow_unwalled_seeds)")
    card = (tmp_path / "out" / "logicif" / "v001" / "card.md").read_text()
    assert f"Without the sandbox's walls: the seeds in {seeds} ran without bubblewrap's walls" in card
    assert version.endswith("v001")
