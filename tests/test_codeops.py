"""Anonymiser and instrumenter, checked by running the code (in the sandbox), not by reading it."""

import ast
import builtins
import re

import pytest

from ifforge.families.logicif.codeops.anonymise import anonymise
from ifforge.families.logicif.codeops.instrument import NothingToTrack, instrument
from ifforge.families.logicif.codeops.narrate import Undescribable, describe, holds_code, uncovered
from ifforge.core.sandbox import run_cases

TRICKY = {
    "closures_and_nonlocal": ('''
def tally_events(events, bonus):
    score = 0
    seen = []
    def record(points, label="x"):
        nonlocal score
        score += points
        seen.append(label)
    def double_last():
        nonlocal score
        score *= 2
    for kind, points in events:
        if kind == "hit":
            record(points, label=kind)
        elif kind == "double":
            double_last()
    return score + bonus, seen
''', [[[["hit", 3], ["double", 0], ["hit", 1]], 2], [[], 5], [[["double", 0]], 1]]),
    "recursion_and_helpers_calling_helpers": ('''
def depth_of(node):
    return 0 if not node else 1 + max(depth_of(child) for child in node)

def weight(node, factor=2):
    return factor * depth_of(node) + len(node)

def tree_summary(forest):
    return [weight(tree, factor=3) for tree in forest], depth_of(forest)
''', [[[[], [[]], [[], [[]]]]], [[]], [[[[[]]]]]]),
    "shadowed_builtins_and_comprehensions": ('''
def shadows(values):
    sum = 0
    len_seen = {}
    for max in values:
        sum += max
        len_seen[max] = len([v for v in values if v == max])
    pairs = [(a, b) for a in values for b in values if a < b and b - a == 1]
    total = __builtins__ if False else None
    return sum, sorted(len_seen.items()), pairs, {k: v for k, v in len_seen.items() if v > 1}
''', [[[1, 2, 2, 3]], [[]], [[5, 4, 5]]]),
    "global_and_defaults_and_keywords": ('''
import math
from collections import Counter
LIMIT = 10
calls = 0

def clamp(value, low=0, high=LIMIT):
    global calls
    calls += 1
    return max(low, min(value, high))

def normalise(numbers, scale=1, *extra, sep="-", **options):
    global calls
    calls = 0
    clamped = [clamp(n * scale, high=options.get("high", LIMIT)) for n in numbers]
    common = Counter(clamped).most_common(1)
    return sep.join(str(c) for c in clamped), math.floor(sum(clamped) / 3), common, calls, extra
''', [[[1, 20, -3], 2], [[], 1], [[4, 4, 9], 3, 7, 8]]),
    "lambda_walrus_try_while": ('''
def parse_tokens(tokens):
    out = []
    key = lambda item, weight=1: (len(item) * weight, item)
    index = 0
    while (token := tokens[index] if index < len(tokens) else None) is not None:
        index += 1
        try:
            number = int(token)
        except ValueError as error:
            out.append(("word", token, str(error)[:10]))
            continue
        else:
            out.append(("number", number, ""))
        finally:
            out.sort(key=key)
    return out, index
''', [[["3", "x", "10"]], [[]], [["abc", "-4"]]]),
}


UNDESCRIBABLE = {"global_and_defaults_and_keywords": r"\*args or \*\*kwargs", "lambda_walrus_try_while": "lambda"}


def _assert_same_behaviour(original, entry, other, other_entry, inputs, tracked=False):
    expected = run_cases(original, entry, inputs)
    got = run_cases(other, other_entry, inputs, tracked=tracked)
    assert all(r.ok for r in expected), [r.error for r in expected]
    assert all(r.ok for r in got), [r.error for r in got]
    assert [r.output for r in got] == [r.output for r in expected]
    assert [r.output_type for r in got] == [r.output_type for r in expected]
    return got


def _user_names(source):
    """Names the author chose (those that look like generated ones cannot be told apart)."""
    tree = ast.parse(source)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    shadowed = {"sum", "max"} & names
    return {n for n in (names - set(dir(builtins))) | shadowed if not re.fullmatch(r"[a-z]|[vgp]\d+", n)}


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_anonymiser_keeps_behaviour_and_hides_names(name):
    source, inputs = TRICKY[name]
    entry = [n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)][-1]
    result = anonymise(source, entry)
    _assert_same_behaviour(source, entry, result.source, "f", inputs)
    left = {n.id for n in ast.walk(ast.parse(result.source)) if isinstance(n, ast.Name)}
    left |= {a.arg for a in ast.walk(ast.parse(result.source)) if isinstance(a, ast.arg)}
    assert not (_user_names(source) & left), _user_names(source) & left
    assert "f" in {n.name for n in ast.parse(result.source).body if isinstance(n, ast.FunctionDef)}
    # imports, attributes and strings are left alone
    for kept in ("Counter(", ".most_common(", "math.floor(", '"hit"', ".append("):
        if kept in source:
            assert kept in result.source


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_instrumenter_keeps_the_output_and_adds_one_to_three_trackers(name):
    source, inputs = TRICKY[name]
    entry = [n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)][-1]
    anonymised = anonymise(source, entry).source
    code, trackers = instrument(anonymised)
    assert 1 <= len(trackers) <= 3
    results = _assert_same_behaviour(source, entry, code, "f", inputs, tracked=True)
    for result in results:
        assert list(result.stats) == [t.name for t in trackers]
        assert all(isinstance(v, int) for v in result.stats.values())


def test_tracker_values_count_what_they_say():
    source = '''
def walk(steps, limit):
    position = 0
    visited = []
    for step in steps:
        if step > 0:
            position += step
        visited.append(position)
        if len(visited) > limit:
            visited.pop(0)
    return position
'''
    code, trackers = instrument(anonymise(source, "walk").source)
    assert [t.kind for t in trackers] == ["loop_iterations", "branch_taken", "peak_size"]
    [result] = run_cases(code, "f", [[[1, -2, 3, 4, -1], 2]], tracked=True)
    assert result.output == 8
    assert result.stats == {"loop_iterations": 5, "branch_hits": 3, "peak_size": 3}


def test_recursive_entry_counts_every_call():
    source = '''
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
'''
    code, trackers = instrument(anonymise(source, "fib").source)
    results = _assert_same_behaviour(source, "fib", code, "f", [[0], [1], [6]], tracked=True)
    assert [r.stats["recursive_calls"] for r in results] == [1, 1, 25]
    assert [r.stats["branch_hits"] for r in results] == [1, 1, 13]


def test_helper_calls_are_counted_where_they_surely_run():
    source = '''
def double(x):
    return 2 * x

def run(values):
    total = double(1) + double(2)
    if values and double(values[0]) > 100:
        total = 0
    return total + sum(double(v) for v in values)
'''
    code, trackers = instrument(anonymise(source, "run").source)
    assert "helper_calls" in [t.name for t in trackers]
    [result] = _assert_same_behaviour(source, "run", code, "f", [[[1, 2]]], tracked=True)
    assert result.stats["helper_calls"] == 2  # the two calls of the first statement line


def test_a_function_with_nothing_to_count_is_refused():
    with pytest.raises(NothingToTrack):
        instrument(anonymise("def add(a, b):\n    return a + b\n", "add").source)


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_description_mentions_every_parameter_tracker_and_constant(name):
    source, _ = TRICKY[name]
    entry = [n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)][-1]
    code, trackers = instrument(anonymise(source, entry).source)
    if name in UNDESCRIBABLE:  # said plainly or not at all: these name what English cannot carry
        with pytest.raises(Undescribable, match=UNDESCRIBABLE[name]):
            describe(code, trackers, {}, "int")
        return
    text = describe(code, trackers, {}, "int")
    assert text.startswith("INPUTS:") and "\n\nLOGICS:" in text and "\n\nOUTPUTS:" in text
    assert uncovered(text, code, trackers) == [] and holds_code(text) == []
