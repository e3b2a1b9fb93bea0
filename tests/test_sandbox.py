"""The sandbox contains what seed code does: every failure costs only its own case."""

import os
import time

from ifforge.core.sandbox.execution import Budget, Limits, run_cases

HOSTILE = '''
import os, sys
def f(x):
    if x == "loop":
        while True:
            pass
    if x == "loop_swallowing":
        try:
            while True:
                pass
        except Exception:
            return "caught"
    if x == "memory":
        return [0] * (10 ** 10)
    if x == "exit":
        sys.exit(3)
    if x == "hard_exit":
        os._exit(1)
    if x == "segfault":
        import ctypes
        ctypes.string_at(0)
    if x == "raise":
        raise KeyError("missing")
    if x == "set":
        return {1, 2}
    if x == "nan":
        return float("nan")
    if x == "print":
        print("noise " * 1000)
        return "printed"
    if x == "huge":
        return "x" * 5_000_000
    if x == "write":
        with open("scratch.txt", "w") as handle:
            handle.write("ok")
        return os.getcwd()
    return (x, 1)
'''

OS = Limits(policy=False)  # code the policy refuses: these tests are of the walls behind it
LIMITS = Limits(case_seconds=0.5, memory_bytes=512 << 20, policy=False)


def _run(cases):
    return run_cases(HOSTILE, "f", [[case] for case in cases], limits=LIMITS)


def test_each_failure_is_classified_and_costs_only_its_case():
    kinds = ["loop", "ok1", "memory", "exit", "hard_exit", "ok2", "segfault", "raise", "set", "nan",
             "print", "huge", "loop_swallowing", "ok3"]
    results = {kind: result for kind, result in zip(kinds, _run(kinds))}
    assert results["loop"].status == "timeout"
    assert results["loop_swallowing"].status == "timeout"  # an `except Exception` cannot eat the alarm
    assert results["memory"].status == "memory"
    assert results["exit"].status == "exception" and "SystemExit" in results["exit"].error
    assert results["hard_exit"].status == "crash"
    assert results["segfault"].status == "crash" and "signal 11" in results["segfault"].error
    assert results["raise"].status == "exception" and results["raise"].error.startswith("KeyError")
    assert results["raise"].line is not None
    assert results["set"].status == "not_json"
    assert results["nan"].status == "not_json"
    assert results["print"].status == "ok" and results["print"].output == "printed"
    assert results["huge"].status == "too_large"
    for kind in ("ok1", "ok2", "ok3"):
        assert results[kind].status == "ok"
        assert results[kind].output == [kind, 1]  # JSON round trip: a tuple comes back as a list
        assert results[kind].output_type == "tuple(str, int)"


def test_runs_in_a_fresh_temporary_directory():
    code = ("import os\ndef f(x):\n    before = sorted(os.listdir('.'))\n"
            "    open('left-behind.txt', 'w').write(x)\n    return [os.getcwd(), before]\n")
    first, second = run_cases(code, "f", [["one"]], limits=OS), run_cases(code, "f", [["two"]], limits=OS)
    for [result] in (first, second):
        assert result.ok and result.output[0] != os.getcwd()
        assert "left-behind.txt" not in result.output[1]  # nothing from an earlier run
    assert not os.path.exists(os.path.join(first[0].output[0], "left-behind.txt"))  # gone with the child


def test_tracked_mode_checks_the_return_shape():
    code = '''
def f(kind):
    if kind == "plain":
        return 5
    if kind == "no_dict":
        return 5, [1]
    if kind == "empty":
        return 5, {}
    if kind == "four":
        return 5, {"a": 1, "b": 2, "c": 3, "d": 4}
    return [1, 2], {"steps": 3}
'''
    results = run_cases(code, "f", [["plain"], ["no_dict"], ["empty"], ["four"], ["good"]], tracked=True)
    assert [r.status for r in results] == ["bad_shape"] * 4 + ["ok"]
    assert results[-1].output == [1, 2] and results[-1].stats == {"steps": 3}
    assert results[-1].output_type == "list[int]"


def test_code_that_does_not_load_fails_every_case_clearly():
    results = run_cases("def f(:\n", "f", [[1], [2]])
    assert all(r.status == "exception" and "SyntaxError" in r.error for r in results)
    results = run_cases("def g(a):\n    return a\n", "f", [[1]])
    assert results[0].status == "exception" and "no function named f" in results[0].error


def test_hash_seed_is_fixed_per_run_and_settable():
    code = "def f(words):\n    return list(set(words))\n"
    words = [[f"w{i}" for i in range(30)]]
    first = run_cases(code, "f", [words], limits=Limits(hash_seed=0))[0].output
    again = run_cases(code, "f", [words], limits=Limits(hash_seed=0))[0].output
    other = run_cases(code, "f", [words], limits=Limits(hash_seed=1))[0].output
    assert first == again
    assert first != other


def test_each_case_runs_as_if_alone_in_one_warm_child():
    code = '''
import os
import time
SEEN = []
def f(a, acc=[]):
    SEEN.append(a)
    acc.append(a)
    open("mine.txt", "a").write(str(a))
    return [os.getppid(), len(SEEN), len(acc), sorted(os.listdir("."))]
'''
    results = run_cases(code, "f", [[i] for i in range(200)], limits=OS)
    assert all(r.ok for r in results), results[0].error
    assert len({r.output[0] for r in results}) == 1  # one warm parent for all cases
    assert all(r.output[1:4] == [1, 1, ["mine.txt"]] for r in results)  # fresh globals, defaults, directory


def test_code_that_forges_protocol_lines_costs_only_its_case():
    code = '''
import os
import time
def f(x):
    if x == 2:
        for fd in range(3, 10):
            try:
                os.write(fd, b"not a result\\n")
            except OSError:
                pass
    return x
'''
    results = run_cases(code, "f", [[1], [2], [3]], limits=OS)
    assert results[0].ok and results[2].ok and results[2].output == 3
    assert results[1].status == "crash"


def test_a_time_budget_bounds_all_passes_over_one_function():
    code = "def f(x):\n    while True:\n        pass\n"
    budget = Budget(1.5)
    limits = Limits(case_seconds=0.5)
    first = run_cases(code, "f", [[i] for i in range(4)], limits=limits, budget=budget)
    second = run_cases(code, "f", [[i] for i in range(4)], limits=limits, budget=budget)
    assert all(r.status == "timeout" for r in first + second)
    ran_out = [r for r in first + second if "time budget of 1.5 s is spent" in r.error]
    # a case that used its whole 0.5 s is one of at most 3 in 1.5 s: the budget stopped the rest unrun
    assert len(first + second) - len(ran_out) <= 3 and ran_out
    assert all(r in ran_out for r in second)


def test_random_state_is_fresh_for_every_case_and_set_by_the_random_seed():
    code = "import random\ndef f(x):\n    return [random.random(), random.randint(1, 10**9)]\n"
    first = [r.output for r in run_cases(code, "f", [[i] for i in range(5)])]
    again = [r.output for r in run_cases(code, "f", [[i] for i in range(5)])]
    other = [r.output for r in run_cases(code, "f", [[i] for i in range(5)], limits=Limits(random_seed=1))]
    assert all(output == first[0] for output in first)  # each case starts from the same state
    assert first == again and other[0] != first[0]


def test_reverse_runs_cases_last_to_first_and_alone_runs_each_case_in_a_process_of_its_own():
    code = "import builtins\ndef f(x):\n    builtins.calls = getattr(builtins, 'calls', 0) + 1\n    return [x, builtins.calls]\n"
    cases = [[i] for i in range(4)]
    forward = [r.output for r in run_cases(code, "f", cases, limits=OS)]
    backward = [r.output for r in run_cases(code, "f", cases, limits=OS, reverse=True)]
    alone = [r.output for r in run_cases(code, "f", cases, limits=OS, alone=True)]
    assert forward == [[0, 1], [1, 2], [2, 3], [3, 4]]  # a leak no fresh module reaches: order shows it
    assert backward == [[0, 4], [1, 3], [2, 2], [3, 1]]
    assert alone == [[0, 1], [1, 1], [2, 1], [3, 1]]  # nothing an earlier case did reaches the next


def test_count_steps_counts_the_lines_each_call_executes():
    code = "def helper(v):\n    return v * 2\n\ndef f(n):\n    total = 0\n    for i in range(n):\n        total += helper(i)\n    return total\n"
    results = run_cases(code, "f", [[0], [3]], count_steps=True)
    assert [r.output for r in results] == [0, 6]
    assert [r.steps for r in results] == [1 + 1 + 1, 1 + 3 * (2 + 1) + 1 + 1]  # helper's line counts too
    assert run_cases(code, "f", [[3]])[0].steps is None


def test_a_case_that_leaves_a_thread_or_a_process_running_ends_its_runner():
    code = '''
import os, threading, time
def f(kind):
    seen = [threading.active_count(), sorted(os.listdir("."))]
    if kind == "thread":
        threading.Thread(target=time.sleep, args=(5,), daemon=True).start()
    if kind == "process" and os.fork() == 0:
        time.sleep(5)
        os._exit(0)
    if kind == "file":
        open("note.txt", "w").write("x")
    return seen
'''
    kinds = ["thread", "after", "process", "after", "file", "after"]
    results = run_cases(code, "f", [[kind] for kind in kinds], limits=OS)
    assert all(r.ok for r in results), [r.error for r in results]
    assert all(r.output == [1, []] for r in results)  # no case meets what an earlier one left


def test_a_subclass_of_a_json_kind_is_named_by_that_kind():
    # a str-based token class returned: its JSON is text, and its class name (which anonymising renames)
    # must not reach the output type, or the anonymised function seems to give another output
    code = ("class Token(str):\n    pass\n\nclass Level(int):\n    pass\n\n"
            "def f(x):\n    return Token(x), Level(len(x)), [Token(x)]\n")
    [result] = run_cases(code, "f", [["ab"]])
    assert result.ok and result.output == ["ab", 2, ["ab"]]
    assert result.output_type == "tuple(str, int, list[str])"


ORDER_PROBE = '''
import json, tempfile
from ifforge.core.sandbox import _child
events = []
_child._sweep = lambda own: events.append("swept")
code = "def f(x):\\n    with open('left.txt', 'w') as handle:\\n        handle.write(x)\\n    return x\\n"
request = {"code": code, "entry": "f", "indices": [0, 1], "cases": [["a"], ["b"]], "tracked": False,
           "case_seconds": 5, "memory_bytes": 1 << 30, "output_limit": 1 << 20, "print_limit": 1000,
           "random_seed": 0, "policy": False, "count_steps": False, "coverage": False, "alone": False}
after = _child.run_from(compile(code, "<seed>", "exec"), request, 0,
                        lambda position, message: events.append([position, message["status"]]), (),
                        tempfile.mkdtemp(), False)
print(json.dumps([events, after]))
'''


def test_a_case_that_leaves_something_is_reported_only_after_the_sweep():
    """The child sweeps what a case left (processes, files) before it reports that case, so a result
    read means nothing of its case still runs however slow the machine; the runner then stops, and
    the next case gets a new one. Run in a fresh interpreter: `run_from` forks."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    import ifforge

    source = str(Path(ifforge.__file__).parent.parent)
    done = subprocess.run([sys.executable, "-c", ORDER_PROBE], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": source})
    assert done.returncode == 0, done.stderr
    events, after = json.loads(done.stdout)
    assert events == ["swept", [0, "ok"]] and after == 1
