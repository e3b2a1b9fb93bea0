"""PACIFIC's Java and C++ versions: compiled and run, they agree with the Python reference on the
portable domain; a version that disagrees is caught; chains never leave that domain."""

import random
import subprocess

import pytest

from ifforge.families.pacific import chains, instructions, languages
from ifforge.families.pacific.records import Chain, Step
from ifforge.families.pacific.family import GoldConfig, compute_gold, crosscheck, rows_of
from ifforge.families.pacific.settings import PacificSettings

POOL = sorted(instructions.REGISTRY)
EDGE_INTS = [0, 1, -1, 2, -2, 7, -7, 10, 99, -100, 1000000, -1000001, 2**30, -(2**30), 2**31 - 1, -(2**31 - 1)]
EDGE_STRINGS = ["", "a", "Z", " ", "~", "aaab", "zzzZZZ", "Hello, World!", "a b\tc".replace("\t", " "), "0123456789",
                "".join(chr(c) for c in range(32, 127))]


def _needs(language):
    missing = languages.missing_tools(language)
    if missing:  # the issue allows Python only where a toolchain is absent; this machine kind has both
        pytest.skip(f"{', '.join(missing)} not installed")


def _calls(seed: int, per_instruction: int = 60) -> list:
    rng = random.Random(seed)
    calls = []
    for instruction_id in POOL:
        cls = instructions.REGISTRY[instruction_id]
        for _ in range(3):
            instruction = cls(**cls.sample_args(rng))
            values = EDGE_INTS if cls.input_type == "int" else EDGE_STRINGS
            calls += [(instruction, v) for v in values]
            for _ in range(per_instruction):
                if cls.input_type == "int":
                    value = rng.choice([rng.randint(-300, 300), rng.randint(-(2**31) + 1, 2**31 - 1)])
                else:
                    value = "".join(chr(rng.randint(32, 126)) for _ in range(rng.choice([0, 1, 2, 3, 8, 30])))
                calls.append((instruction, value))
    return calls


@pytest.mark.parametrize("language", ["java", "cpp"])
def test_every_instruction_agrees_with_python_on_the_portable_domain(language):
    _needs(language)
    calls = _calls(seed=17)
    assert {instruction.id for instruction, _ in calls} == set(POOL)
    got = languages.run(language, calls)
    wrong = [(i.id, i.args(), v, instructions.run_python(i, v), g)
             for (i, v), g in zip(calls, got) if instructions.run_python(i, v) != g]
    assert not wrong, wrong[:10]


def test_each_shown_cpp_function_compiles_alone_with_its_own_headers(tmp_path):
    _needs("cpp")
    files = []
    for instruction_id in POOL:
        cls = instructions.REGISTRY[instruction_id]
        source = cls(**cls.sample_args(random.Random(0))).source("cpp")
        assert source.count("transform(") == 1
        path = tmp_path / f"{instruction_id}.cpp"
        path.write_text(source)
        files.append(str(path))
    done = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", *files], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr[-3000:]


def test_sources_show_one_function_of_one_argument_with_the_declared_types():
    for instruction_id in POOL:
        cls = instructions.REGISTRY[instruction_id]
        instruction = cls(**cls.sample_args(random.Random(1)))
        java = instruction.source("java")
        wanted_out = "String" if cls.output_type == "str" else "long"
        wanted_in = "String x" if cls.input_type == "str" else "long x"
        assert java.startswith(f"static {wanted_out} transform({wanted_in}) {{"), java
        for name, value in instruction.args().items():
            assert f"{{{name}}}" not in java + instruction.source("cpp")  # every slot filled
            assert str(value) in java and str(value) in instruction.source("cpp")
    with pytest.raises(ValueError, match="unknown language 'rust'"):
        instructions.get("length").source("rust")


@pytest.mark.parametrize("language", ["java", "cpp"])
def test_a_version_that_disagrees_is_caught_and_its_chain_dropped(language, monkeypatch):
    _needs(language)
    # Java's and C++'s % truncates toward zero, Python's floors: the classic porting slip
    slip = {"java": "    return (x + {add}) % {mod};", "cpp": "    return (x + {add}) % {mod};"}[language]
    monkeypatch.setattr(instructions.REGISTRY["mod_add"], language, slip)
    assert languages.run(language, [(instructions.get("mod_add", add=1, mod=7), -9)]) == [-1]  # Python: 6
    chain = Chain(task_id="T", chain_length=2, output_length=3, initial_input=-20, origin="test",
                         steps=[Step(id="mod_add", args={"add": 1, "mod": 7}), Step(id="weekday")],
                         planned=[2, "Tuesday"])  # -19 floored mod 7 is 2; truncated, -5
    good = chains.build_all(3, [4], [5], 2, [i for i in POOL if i != "mod_add"])
    items = [compute_gold(c, GoldConfig(case_seconds=5, memory_mb=512)).kept for c in [chain, *good]]
    kept, dropped, counts = crosscheck(items, PacificSettings(family="pacific", languages=["python", language]))
    assert [c.task_id for c in kept] == [c.task_id for c in good]
    assert [d.reason for d in dropped] == ["language_mismatch"]
    assert "step 1 (mod_add)" in dropped[0].detail and language in dropped[0].detail
    assert counts[f"{language}_disagrees"] == 1 and counts["out"] == 2


def test_chains_stay_in_the_portable_domain_even_for_long_targets():
    for chain in chains.build_all(5, [3, 8, 15], [3, 10, 40], 4, POOL):
        assert instructions.portable(chain.initial_input), chain.initial_input
        assert all(instructions.portable(v) for v in chain.planned), chain.task_id
    assert not instructions.portable(2**31) and not instructions.portable("é") and not instructions.portable(True)


def test_code_rows_come_once_per_language_with_the_code_in_that_language():
    chain = chains.build_all(4, [3], [5], 1, POOL)[0]
    gold = compute_gold(chain, GoldConfig(case_seconds=5, memory_mb=512)).kept
    settings = PacificSettings(family="pacific", modes=["prompt"], languages=["python", "java", "cpp"])
    rows = rows_of(gold, settings)
    assert [(r["form"], r["language"]) for r in rows] == [("code", "python"), ("code", "java"), ("code", "cpp"),
                                                         ("nl", None)]
    assert len({r["task_id"] for r in rows}) == 4
    java, cpp = rows[1]["prompt"], rows[2]["prompt"]
    assert "```java\nstatic " in java and "Java function" in java and "def " not in java
    assert "```cpp\n" in cpp and "C++ function" in cpp and "def " not in cpp
    assert all({"code", "java", "cpp"} <= set(entry) for entry in rows[0]["instructions"])
    with pytest.raises(ValueError, match="listed twice"):
        PacificSettings(family="pacific", languages=["java", "java"])
