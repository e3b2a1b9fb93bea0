"""Exported functions run unchanged in LogicIF's executor (separate globals and locals dicts)."""

import ast
import json

import pytest
from conftest import needs_fixture
from logicif_executor import call_like_logicif
from test_codeops import TRICKY

from ifforge.families.logicif.codeops.instrument.anonymise import anonymise
from ifforge.families.logicif.codeops.instrument.trackers import instrument
from ifforge.families.logicif.codeops.instrument.self_contained import NotSelfContained, self_contained


def _call_as_module(code, args):
    """f as an ordinary module runs it: one namespace for everything."""
    namespace = {}
    exec(code, namespace)
    return namespace["f"](*json.loads(json.dumps(args)))


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_an_instrumented_module_runs_in_logicifs_executor_once_self_contained(name):
    source, inputs = TRICKY[name]
    entry = [n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)][-1]
    module, _ = instrument(anonymise(source, entry).source)
    code = self_contained(module)
    assert [n.name for n in ast.parse(code).body] == ["f"]  # one statement: f
    for args in inputs:
        assert call_like_logicif(code, args) == _call_as_module(module, args)


def test_the_module_form_fails_there_and_globals_become_the_functions_own():
    source, inputs = TRICKY["global_and_defaults_and_keywords"]  # imports, a constant, `global` in two functions
    module, _ = instrument(anonymise(source, "normalise").source)
    with pytest.raises(NameError):  # what issue 23 saw on 141 of 349 rows
        call_like_logicif(module, inputs[0])
    code = self_contained(module)
    assert "global " not in code and code.count("nonlocal ") == 1  # the helper's; f's own `global` went
    assert code.index("import math") < code.index("stats = ")


def test_a_lone_function_is_left_as_it_is_and_logicifs_own_functions_too():
    lone = "\n  \ndef f(a):\n    stats = {'n': 0}\n    return (a, stats)\n"
    assert self_contained(lone) == lone.lstrip()
    for line in needs_fixture("tasks.jsonl").read_text().splitlines():
        function = json.loads(line)["function"]
        assert self_contained(function) == function


def test_docstring_stays_first_future_imports_go_and_an_emptied_block_keeps_a_pass():
    code = self_contained('from __future__ import annotations\nN = 2\n\ndef f(a):\n    """doc"""\n'
                          '    if a:\n        global N\n    N = N + a\n    return (N, {})\n')
    assert code.startswith('def f(a):\n    """doc"""\n    N = 2\n') and "__future__" not in code
    assert "        pass\n" in code
    assert call_like_logicif(code, [3]) == (5, {})


def test_annotations_that_read_moved_names_go_and_a_constant_default_takes_its_literal():
    code = self_contained("from typing import List, Any\nLIMIT = 3\n\ndef g(x: Any) -> List[int]:\n    return [x]\n\n"
                          "def f(a: List[int], b: Any = LIMIT) -> tuple:\n    return (g(a) + [b], {})\n")
    assert code.startswith("def f(a, b=3):\n    from typing import List, Any\n    LIMIT = 3\n    def g(x):\n")
    assert call_like_logicif(code, [1]) == ([1, 3], {})
    future = self_contained("from __future__ import annotations\nN = 1\n\ndef f(a: Later) -> Later:\n"
                            "    return (a + N, {})\n")
    assert future == "def f(a):\n    N = 1\n    return (a + N, {})\n"


@pytest.mark.parametrize("source, why", [
    ("def g(x):\n    return len(x)\n\ndef f(a):\n    len = 3\n    return (g(a) + len, {})\n", "binds len"),
    ("K = 2\n\ndef f(K):\n    return (K, {})\n", "binds K"),
    ("def f(a):\n    return (a and f(a - 1)[0], {})\n", "calls f by name"),
    ("def f(a):\n    return (a, {})\n\nSTART = f(1)\n", "outside f refers to f"),
    ("N = 1\n\ndef g():\n    N = 2\n    def h():\n        global N\n        return N\n    return h()\n\n"
     "def f(a):\n    return (g() + a, {})\n", "global N in h skips the binding in g"),
    ("from math import *\n\ndef f(a):\n    return (floor(a), {})\n", "does not compile"),
    ("def f(a):\n    return (a, {})\n\ndef f(b):\n    return (b, {})\n", "2 top-level functions named f"),
    ("LIMIT = len('abc')\n\ndef f(a, b=LIMIT):\n    return (a + b, {})\n", "defaults or annotations of f read LIMIT"),
    ("LIMIT = 3\nLIMIT = 4\n\ndef f(a, b=LIMIT):\n    return (a + b, {})\n", "read LIMIT"),
    ("import functools\n\n@functools.cache\ndef f(a):\n    return (a, {})\n", "read functools"),
])
def test_what_would_change_meaning_is_refused_with_the_reason(source, why):
    with pytest.raises(NotSelfContained, match=why):
        self_contained(source)


def test_a_function_that_passes_itself_to_a_helper_runs_in_an_inner_function_and_exports():
    """`helper(f, ...)` (a name for an error message, a registry) reads f by name without calling it:
    like a recursive f, its body moves into an inner function, where the name resolves."""
    source = '''
def _options(fn, options):
    factory = options.pop("factory", list)
    if options:
        raise TypeError(fn.__name__ + " got " + repr(sorted(options)))
    return factory


def joined(*parts, **options):
    out = _options(joined, options)()
    for part in parts:
        out.extend(part)
    return out
'''
    module, _ = instrument(anonymise(source, "joined").source)
    code = self_contained(module)
    assert call_like_logicif(code, [[1, 2], [3]]) == _call_as_module(module, [[1, 2], [3]])
    assert call_like_logicif(code, [[1, 2], [3]])[0] == [1, 2, 3]


MUTUAL = '''
def quoted(value):
    if isinstance(value, list):
        return "{" + joined(value) + "}"
    return str(value)


def joined(values):
    return " ".join(map(quoted, values))
'''


@pytest.mark.parametrize("entry, args, expected", [
    ("joined", [[1, [2, [3]], 4]], "1 {2 {3}} 4"),  # the helper calls f by name
    ("quoted", [[1, [2, 3]]], "{1 {2 3}}"),  # the helper hands f to map by name
])
def test_a_helper_that_reaches_back_to_the_function_moves_in_and_reaches_its_inner_body(entry, args, expected):
    """A pair of functions that call each other (a nested value quoted item by item): the helper,
    moved into f, must reach f's own body (the inner function a recursive f's body becomes), not
    the outer f, which is out of its reach in LogicIF's executor and returns the counters too."""
    module, _ = instrument(anonymise(MUTUAL, entry).source)
    code = self_contained(module)
    assert call_like_logicif(code, args)[0] == expected
    assert call_like_logicif(code, args) == _call_as_module(module, args)
