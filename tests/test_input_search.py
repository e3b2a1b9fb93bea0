"""The coverage-guided search of the inputs stage: changes that learn what the code needs."""

import random

from ifforge.families.logicif.codeops.inputs import mutate as m
from ifforge.families.logicif.configs import InputsConfig, from_settings
from ifforge.families.logicif.records import SeedFunction
from ifforge.families.logicif.settings import LogicIFSettings
from ifforge.families.logicif.stages import inputs

GRIDS = '''
def f(n, m, top, bottom):
    hits = 0
    for j in range(m):
        for i in range(n):
            if top[i][j] == '#' and bottom[i][j] == '#':
                hits += 1
    return hits
'''

NONE_ONLY = '''
def f(items):
    for item in items:
        if item > 3:
            items.append(0) if len(items) < 5 else None
'''


def _run(source, entry="f"):
    seed = SeedFunction(task_id="t", source=source, entry=entry, inputs=[], origin="t.py")
    return inputs.run(seed, from_settings(InputsConfig, LogicIFSettings()))


def test_the_constants_the_code_compares_are_read_from_comparisons_and_subscripts():
    numbers, texts = m.compared_constants("def f(g, k):\n    return g[0][2] == '#' or k in ('ab', 'c') or k > 7\n")
    assert {0, 2, 7} <= set(numbers) and {"#", "ab", "c", "a", "b"} <= set(texts)


def test_a_world_makes_sizes_and_grids_agree():
    rng = random.Random(1)
    for _ in range(20):
        n, w, top, bottom = m._world([1, 1, [[0]], [[0]]], rng, [], ["#"])
        assert len(top) == n and all(len(row) == w for row in top) and len(bottom) == n


def test_a_retype_changes_one_slot_of_every_record():
    changed = m._retype([[[1, 5], [2, 6]]], random.Random(0), [], [])
    firsts, seconds = {type(r[0]) for r in changed[0]}, {type(r[1]) for r in changed[0]}
    assert sorted([firsts, seconds], key=repr) == [{int}, {str}]  # one slot text in every record, the other numbers


def test_mutate_never_raises_and_never_changes_its_argument():
    rng = random.Random(3)
    for args in ([], [0], [""], [[[]]], [{"a": [1]}], ["ab", [1, 2], [["x", "y"]]]):
        before = repr(args)
        for _ in range(50):
            m.mutate(args, rng, [0, 4], ["#", "."])
        assert repr(args) == before


def test_the_search_reaches_a_branch_that_needs_two_grids_of_the_compared_character():
    outcome = _run(GRIDS)
    assert outcome.kept is not None, outcome.dropped
    outputs = set()
    for case in outcome.kept.inputs:
        n, width, top, bottom = case.args
        outputs.add(sum(1 for i in range(n) for j in range(width) if top[i][j] == "#" and bottom[i][j] == "#"))
    assert max(outputs) > 0 and len(outputs) > 1
    assert any(i.origin.endswith("searched") for i in outcome.kept.inputs)
    assert outcome.evidence[0]["search"]["tried"] <= inputs.SEARCH_ROUNDS_MOST * inputs.SEARCH_BATCH


def test_a_function_whose_every_call_returns_one_output_is_dropped_with_the_reason():
    outcome = _run(NONE_ONLY)
    assert outcome.kept is None and outcome.dropped[0].reason == "one_output"
    assert "returned null" in outcome.dropped[0].detail


def test_selection_prefers_calls_with_a_non_trivial_output_while_most_are_trivial():
    from ifforge.core.sandbox.execution import CaseResult
    from ifforge.families.logicif.codeops.inputs.candidates import Candidate
    pool = [(Candidate([i], "random"), CaseResult(index=i, status="ok", output=0, arcs=[[i, i]], steps=3))
            for i in range(8)]
    pool += [(Candidate([10 + i], "random"), CaseResult(index=10 + i, status="ok", output=i + 1, arcs=[], steps=9))
             for i in range(6)]
    chosen = inputs.select(pool, 0, 8, 12, random.Random(0))
    trivial = sum(inputs.trivial(pool[i][1].output) for i, _ in chosen)
    assert len(chosen) <= 12 and 2 * trivial <= len(chosen)
