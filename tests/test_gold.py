"""Gold that matches the code (issue 21, part 1): a row's gold is what its function returns on its
input, anywhere, any day. Each hostile seed below once reached benchmark.jsonl; each test fails if
it would again. The policy refuses them before they run; the walls behind it are tested too."""

import json

import pytest

from ifforge.core.sandbox import _child as child
from ifforge.core.sandbox import isolation
from ifforge.core.sandbox.codepolicy import policy_problem
from ifforge.core.sandbox.execution import Limits, run_cases
from ifforge.families.logicif.stages import load

OS = Limits(policy=False)  # the OS walls alone, as if the policy were bypassed

# the attacker's seed: every result line rewritten on its way out
FORGER = '''
import os
real_write = os.write
def forged(fd, data):
    return real_write(fd, data.replace(b'"output": 4', b'"output": 424242').replace(b'"steps": 3', b'"steps": 1'))
os.write = forged
def f(x):
    total = x
    total += 1
    return 4
'''


def test_a_seed_that_rewrites_its_result_lines_is_refused_before_it_runs(tmp_path):
    [result] = run_cases(FORGER, "f", [[1]], count_steps=True)
    assert result.status == "forbidden" and result.line == 3 and "uses os.write" in result.error
    (tmp_path / "forger.py").write_text(FORGER + "# input: [1]\n")
    seeds, dropped = load.load_seed_dir(tmp_path)
    assert not seeds and dropped[0].reason == "bad_seed"
    assert dropped[0].detail.startswith(f"{tmp_path / 'forger.py'}:3: uses os.write")


def test_behind_the_policy_the_result_lines_are_out_of_the_cases_reach():
    [result] = run_cases(FORGER, "f", [[1]], count_steps=True, limits=OS)
    assert result.ok and result.output == 4 and result.steps == 3  # what f returned, and its lines


@pytest.mark.parametrize("reach", [
    "import builtins",
    "return print.__self__",
    "return f.__globals__",
    "return ().__class__.__base__.__subclasses__()",
    "return (i for i in [1]).gi_frame.f_back",
    "return __builtins__",
    "return __import__('os')",
    "return open('/proc/self/fd/1')",
    "return '{0.__globals__}'.format(f)",
    "return x.format(f)",
    "return getattr(f, '__globals__')",
    "return type(x).mro()",
    "from operator import attrgetter",
    "import sys; return sys.modules",
    "from . import secrets",
])
def test_every_door_to_the_interpreter_is_refused_with_its_line(reach):
    refusal = policy_problem(f"def f(x):\n    y = 1\n    {reach}\n")
    assert refusal is not None and refusal.line == 3, refusal


@pytest.mark.parametrize("reach", [
    "import os; return os.system(x)",
    "import os; return os.environ",
    "import os; return os.getcwd()",
    "import os; return os.path.expanduser(x)",
    "import os.path as where; return where.exists(x)",
    "from os import path; return path.realpath(x)",
    "from os.path import abspath",
    "import posixpath; return posixpath.os",
    "from posixpath import expandvars",
    "import types; return types.CodeType",
    "from types import new_class",
    "import urllib; return urllib.request",
    "import urllib.request",
])
def test_the_pure_corners_of_os_types_and_urllib_open_no_other_door(reach):
    refusal = policy_problem(f"def f(x):\n    y = 1\n    {reach}\n")
    assert refusal is not None and refusal.line == 3, refusal


def test_pure_path_url_and_text_functions_run_and_their_modules_hide_the_rest():
    code = '''
import binascii, os, posixpath, unicodedata, urllib.parse
from os import path
from types import MappingProxyType, SimpleNamespace
NAMES = MappingProxyType({"a": 1})
def f(x: str):
    where = os.path.join(os.fspath(x), "b.txt")
    return [where, path.splitext(where), posixpath.basename(where), urllib.parse.quote(x + " ?"),
            unicodedata.category(x[0]), binascii.hexlify(x.encode()).decode(), NAMES["a"],
            isinstance(NAMES, MappingProxyType), SimpleNamespace(n=1).n]
'''
    [result] = run_cases(code, "f", [["a/x"]])
    assert result.ok, result.error
    assert result.output == ["a/x/b.txt", ["a/x/b", ".txt"], "b.txt", "a/x%20%3F", "Ll", "612f78", 1, True, 1]
    seen = child._Walls().builtins()["__import__"]
    os_view = seen("os")
    assert hasattr(os_view.path, "join") and not hasattr(os_view, "environ") and not hasattr(os_view, "system")
    assert not hasattr(os_view.path, "expanduser") and not hasattr(os_view.path, "os")
    assert not hasattr(seen("posixpath"), "abspath") and not hasattr(seen("types"), "CodeType")
    assert not hasattr(seen("urllib.parse", None, None, ("quote",)), "sys")
    made_up = "import os\ndef f(x):\n    return getattr(os, 'sys' + 'tem')('true')\n"
    [result] = run_cases(made_up, "f", [[1]])
    assert result.status == "exception" and "system" in result.error


def test_doors_opened_only_at_run_time_are_walled_in_the_child():
    """Names made from pieces pass the reading; the builtins a case gets refuse them when it runs."""
    seen = child._Walls().builtins()
    with pytest.raises(AttributeError, match="__globals__"):
        seen["getattr"](test_doors_opened_only_at_run_time_are_walled_in_the_child, "__glo" + "bals__")
    with pytest.raises(AttributeError, match="now"):
        seen["getattr"](__import__("datetime").datetime, "n" + "ow")
    class Sly(str):
        def startswith(self, *args):
            return False
    with pytest.raises(AttributeError, match="__globals__"):
        seen["getattr"](test_doors_opened_only_at_run_time_are_walled_in_the_child, Sly("__globals__"))
    with pytest.raises(ImportError, match="may not import socket"):
        seen["__import__"]("so" + "cket")
    assert "open" not in seen and "eval" not in seen and "id" not in seen
    enum = seen["__import__"]("enum")
    assert not hasattr(enum, "sys") and hasattr(enum, "Enum")  # a module's modules are not in its view
    sys = seen["__import__"]("sys")
    assert hasattr(sys, "setrecursionlimit") and not hasattr(sys, "modules")
    abc = seen["__import__"]("collections.abc", None, None, ("Sequence",))
    assert abc.Sequence is __import__("collections.abc").abc.Sequence


def test_honest_code_keeps_its_standard_tools():
    code = '''
from __future__ import annotations
import collections.abc, datetime, enum, sys
from collections import Counter, namedtuple
from dataclasses import dataclass
from typing import List
Pair = namedtuple("Pair", "left right")
class Level(enum.IntEnum):
    LOW = 1
@dataclass
class Box:
    size: int
    def __lt__(self, other):
        return self.size < other.size
def f(xs: List[int]):
    sys.setrecursionlimit(5000)
    day = datetime.date(2020, 1, 1) + datetime.timedelta(days=len(xs))
    smallest = min(Box(x) for x in xs)
    return [Counter(xs).most_common(1), str(day), "{0:>3}|{1}".format(smallest.size, __name__),
            isinstance(xs, collections.abc.Sequence), Pair(1, 2), Level.LOW, {True: 1, 2: "b"}]
'''
    [result] = run_cases(code, "f", [[[3, 1, 3]]])
    assert result.ok, result.error
    assert result.output == [[[3, 2]], "2020-01-04", "  1|__sandbox__", True, [1, 2], 1, {"true": 1, "2": "b"}]
    assert json.dumps(result.output)


def test_state_hidden_on_builtins_never_becomes_gold():
    hidden = ("import builtins\ndef f(x):\n    seen = getattr(builtins, 'seen', False)\n"
              "    builtins.seen = True\n    return x + 1000 if seen else x\n")
    assert {r.status for r in run_cases(hidden, "f", [[1], [2], [3]])} == {"forbidden"}
    # where a fresh module cannot reach and the policy allows: a standard class's attribute
    leak = hidden.replace("import builtins", "from collections import Counter").replace("builtins.", "Counter.") \
        .replace("getattr(builtins,", "getattr(Counter,")
    cases = [[1], [2], [3], [4], [5]]
    shared = [r.output for r in run_cases(leak, "f", cases)]
    alone = [r.output for r in run_cases(leak, "f", cases, alone=True)]
    assert shared == [1, 1002, 1003, 1004, 1005]  # the leak is real in one process
    assert alone == [1, 2, 3, 4, 5]  # gold runs so: what f(x) alone returns


@pytest.mark.parametrize("reader", [
    "import time\ndef f(x):\n    return time.clock_gettime(0)",
    "import time\ndef f(x):\n    return time.monotonic()",
    "import socket\ndef f(x):\n    return socket.gethostname()",
    "import platform\ndef f(x):\n    return platform.node()",
    "def f(x):\n    return open('/proc/meminfo').read()",
    "import os\ndef f(x):\n    return os.uname().release",
    "import datetime\ndef f(x):\n    return str(datetime.datetime.now())",
    "from datetime import date\ndef f(x):\n    return str(date.today())",
])
def test_code_that_reads_the_host_or_the_clock_never_runs(reader):
    [result] = run_cases(reader, "f", [[1]])
    assert result.status == "forbidden" and result.line in (1, 2, 3), result


def test_a_clock_reached_by_a_name_made_at_run_time_fails_its_case():
    code = "import datetime\ndef f(x):\n    return str(getattr(datetime.datetime, 'n' + 'ow')())\n"
    [result] = run_cases(code, "f", [[1]])
    assert result.status == "exception" and "may not use the attribute 'now'" in result.error and result.line == 3


@pytest.mark.skipif(isolation.detect().method != "bubblewrap", reason="bubblewrap is not installed here")
def test_behind_the_policy_the_walls_hide_the_hosts_name_memory_uptime_and_kernel():
    code = '''
import socket
def f():
    seen = [socket.gethostname()]
    for path in ("/proc/meminfo", "/proc/uptime", "/proc/version", "/proc/sys/kernel/osrelease"):
        try:
            seen.append(open(path).read())
        except OSError as error:
            seen.append(type(error).__name__)
    return seen
'''
    [result] = run_cases(code, "f", [[]], limits=OS)
    assert result.ok and result.output == [isolation.HOST_NAME] + ["PermissionError"] * 4, result.output


def test_keys_that_would_become_one_json_key_are_not_gold():
    code = '''
def f(kind):
    if kind == "int_and_text":
        return {1: "a", "1": "b"}
    if kind == "bool_and_text":
        return [{True: 1, "true": 2}]
    if kind == "tracker":
        return 0, {"n": 1, "m": {None: 1, "null": 2}}
    if kind == "tuple_key":
        return {(1, 2): 3}
    return {1: "a", "2": "b"}
'''
    results = run_cases(code, "f", [["int_and_text"], ["bool_and_text"], ["tuple_key"], ["fine"]])
    assert [r.status for r in results] == ["not_json"] * 3 + ["ok"]
    assert "the dict keys 1 and '1' would both become the JSON key \"1\"" in results[0].error
    assert "JSON key \"true\"" in results[1].error and "tuple is not a JSON key" in results[2].error
    assert results[3].output == {"1": "a", "2": "b"}
    [tracker] = run_cases(code, "f", [["tracker"]], tracked=True)
    assert tracker.status == "not_json" and "JSON key \"null\"" in tracker.error


def test_a_result_line_that_repeats_a_key_is_refused():
    message, dirty = child._verdict(b'{"status": "ok", "output": 1, "output": 2}')
    assert message["status"] == "crash" and dirty
    message, dirty = child._verdict(b'{"status": "ok", "output": {"a": 1}}')
    assert message == {"status": "ok", "output": {"a": 1}} and not dirty


def test_overridden_methods_cannot_change_what_gold_says():
    code = '''
class Sly(dict):
    def items(self):
        return [("forged", 1)]
class Loud(int):
    def __repr__(self):
        return "999"
    def __index__(self):
        return 999
def f():
    return [Sly(real=2), Loud(7)]
'''
    [result] = run_cases(code, "f", [[]])
    assert result.ok and result.output == [{"real": 2}, 7]
