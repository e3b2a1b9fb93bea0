"""The coverage-guided search of the inputs stage: changes that learn what the code needs."""

import random
import re

from ifforge.families.logicif.codeops.inputs import compares
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


SPLIT = '''
def f(values, cap):
    total = 0
    for value in values:
        if value > cap:
            total += value - cap
        elif value == cap:
            total -= 1
        else:
            total += 1
    return total
'''


def test_every_valid_proposal_is_kept_unless_the_places_go_to_calls_that_reach_more_and_each_has_its_fate():
    from ifforge.families.logicif.codeops.inputs.candidates import Candidate
    proposed = [[[1, 2, 3], 5], [[4, 4], 5], [[9, 1], 5], [[5, 5, 5], 5], [[0], 5], [[2, 2, 2, 2], 3],
                [[7, 7], 6], [[1, 2, 3], 5], [["x"], 5]]  # a repeat, and one that fails
    seed = SeedFunction(task_id="t", source=SPLIT, entry="f", inputs=[], origin="t.py")
    config = from_settings(InputsConfig, LogicIFSettings())
    outcome = inputs.generate(seed, config, [Candidate(args, "llm") for args in proposed])
    kept = [i.args for i in outcome.kept.inputs if i.origin == "llm"]
    valid = [args for args in proposed[:7] if args != [[1, 2, 3], 5] or proposed.index(args) == 0]
    fates = outcome.evidence[0]["proposals"]
    assert len(fates) == len(proposed)  # every proposal recorded
    assert sorted(map(str, kept)) == sorted(map(str, valid))  # none displaced: 7 of at most 12 places
    assert [f["fate"].split(":")[0] for f in fates] == ["kept"] * 7 + ["same as an earlier proposal", "rejected"]
    assert len(outcome.kept.inputs) <= config.inputs_max


def test_proposals_beyond_the_places_left_by_calls_reaching_more_arcs_say_so():
    from ifforge.core.sandbox.execution import CaseResult
    from ifforge.families.logicif.codeops.inputs.candidates import Candidate
    pool = [(Candidate([i], "random"), CaseResult(index=i, status="ok", output=i + 1, arcs=[[i + 1, i + 1]], steps=3))
            for i in range(4)]  # each reaches an arc of its own
    pool += [(Candidate([10 + i], "llm"), CaseResult(index=10 + i, status="ok", output=i + 1, arcs=[[0, 0]],
                                                      steps=2 + i)) for i in range(5)]
    chosen = [i for i, _ in inputs.select(pool, 0, 3, 6, random.Random(0))]
    assert len(chosen) == 6 and set(range(4)) <= set(chosen)  # the arcs first
    assert {pool[i][0].args[0] for i in chosen if i >= 4} == {14, 13}  # the deepest proposals, not left out


def test_an_operator_between_two_types_teaches_the_other_sides_type():
    import dataclasses

    from ifforge.families.logicif.codeops.inputs import lessons
    from ifforge.families.logicif.codeops.inputs.candidates import Signature
    source = "def f(items, limits):\n    for item in items:\n        if item >= limits:\n            return item\n    return 0\n"
    parameters = [dataclasses.replace(p, shape=("list", ("int",))) if p.name == "limits" else p
                  for p in Signature(source, "f").parameters]  # as a plural name may be read: a list
    error = "TypeError: '>=' not supported between instances of 'int' and 'list'"
    learned = lessons.learn(parameters, [([[1, 2], [3]], error, "        if item >= limits:")])
    assert learned.shapes == {"limits": ("int",)}  # the list met a whole number: it should be one


def test_calls_that_all_end_at_one_early_exit_keep_learning_from_the_failed_ones():
    from pathlib import Path

    from ifforge.families.logicif.stages import load
    seeds, _ = load.load_seed_dir(Path(__file__).resolve().parents[1] / "seeds" / "logicif")
    maze = next(s for s in seeds if s.task_id == "maze_shortest_path").model_copy(update={"inputs": []})
    outcome = inputs.run(maze, from_settings(InputsConfig, LogicIFSettings()))  # its limit looks like a list at first
    assert outcome.kept is not None and len({str(i.args[1]) for i in outcome.kept.inputs}) > 1
    assert len({type(i.args[1]) for i in outcome.kept.inputs}) == 1 and isinstance(outcome.kept.inputs[0].args[1], int)


TEMPLATE_PREFIX = '''
def f(owner, name):
    pattern = '<%s>' % owner
    if len(name) > len(pattern) and name.startswith(pattern):
        return name[len(pattern):]
    return None
'''

MONTH_PHRASE = '''
MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun']


def f(text):
    day = month = None
    for word in text.split():
        if word.lower() in MONTHS:
            month = MONTHS.index(word.lower()) + 1
        elif word.isdigit():
            day = int(word)
    if month is None or day is None:
        return None
    return [day, month]
'''


def test_the_constants_include_module_collections_text_searches_and_template_parts():
    numbers, texts = m.compared_constants("DAYS = ['mon', 'tue']\ndef f(s, t):\n"
                                          "    return s.split(':')[0] in DAYS and t.startswith('<%s>' % s)\n")
    assert {"mon", "tue", ":", "<", ">"} <= set(texts)


def test_a_text_built_from_another_parameter_by_a_template_is_found():
    outcome = _run(TEMPLATE_PREFIX)
    assert outcome.kept is not None, outcome.dropped
    outputs = {_call(TEMPLATE_PREFIX, case.args) for case in outcome.kept.inputs}
    assert len(outputs) > 1 and any(isinstance(o, str) for o in outputs)


def test_a_phrase_of_the_code_s_words_and_numbers_reaches_a_parsed_date():
    outcome = _run(MONTH_PHRASE)
    assert outcome.kept is not None, outcome.dropped
    outputs = [_call(MONTH_PHRASE, case.args) for case in outcome.kept.inputs]
    assert any(isinstance(o, list) for o in outputs)


def _call(source, args):
    space = {}
    exec(source, space)
    return space["f"](*args)


# ---- the rescue: only for seeds the search would drop (one output, or no working call)

PANGRAM = '''
def f(text):
    letters = "abcdefghijklmnopqrstuvwxyz"
    return all(c in text.lower() for c in letters)
'''

ANAGRAMS = '''
def f(word, words):
    word = word.lower()
    found = []
    for other in words:
        if word != other.lower():
            if sorted(word) == sorted(other.lower()):
                found.append(other)
    return found
'''

BITS = '''
def f(n):
    bits = []
    while n > 0.5:
        bits.append(n % 2)
        n = int(n / 2)
    return int("".join(str(b) for b in bits[::-1]))
'''

TYPED = '''
def f(s):
    if type(s) is not str:
        raise TypeError("only strings, not {}".format(type(s)))
    kept = ""
    for i in range(len(s)):
        if s[i] not in kept:
            kept += s[i]
    return kept
'''

ITERABLE = '''
def f(obj):
    try:
        iter(obj)
    except TypeError:
        return False
    return True
'''

SCALAR = '''
def g(obj):
    try:
        iter(obj)
    except TypeError:
        return False
    return True

def f(obj):
    return not g(obj) or isinstance(obj, (str, bytes))
'''

CALLED = '''
def f(value):
    if callable(value) or hasattr(value, "keys"):
        return True
    return False
'''

SOLVED = '''
def f(board):
    correct = [1, 2, 3, 4]
    for row in board:
        if sorted(row) != correct:
            return False
    for i in range(4):
        if sorted(row[i] for row in board) != correct:
            return False
    return True
'''


def _outputs(source, outcome):
    namespace = {}
    exec(source, namespace)
    return [namespace["f"](*case.args) for case in outcome.kept.inputs]


def test_the_rescue_finds_a_text_holding_every_letter_the_code_looks_for():
    outcome = _run(PANGRAM)
    assert outcome.kept is not None, outcome.dropped
    assert {True, False} <= set(_outputs(PANGRAM, outcome))
    assert outcome.evidence[0]["rescue"]["kept"] > 0


def test_the_rescue_puts_an_anagram_of_one_argument_into_another():
    outcome = _run(ANAGRAMS)
    assert outcome.kept is not None, outcome.dropped
    assert any(found for found in _outputs(ANAGRAMS, outcome))


def test_with_no_working_call_the_rescue_gives_an_argument_another_kind():
    outcome = _run(BITS)  # floats where whole numbers were meant
    assert outcome.kept is not None, outcome.dropped
    assert len(set(_outputs(BITS, outcome))) > 1
    assert any("rescued" in i.origin for i in outcome.kept.inputs)


def test_a_value_whose_kind_the_code_tests_is_drawn_as_other_kinds_from_the_first_round():
    # `type(s) is not str`: read as a list (len, s[i]), the texts it wants come with the first draw
    outcome = _run(TYPED)
    assert outcome.kept is not None, outcome.dropped
    assert any(isinstance(i.args[0], str) and i.args[0] for i in outcome.kept.inputs)
    assert not any("rescued" in i.origin for i in outcome.kept.inputs)


def test_a_type_predicate_keeps_calls_of_several_kinds_and_both_answers():
    # a caught TypeError, callable / hasattr, isinstance through a helper: other kinds from the first draw
    for source in (ITERABLE, CALLED, SCALAR):
        outcome = _run(source)
        assert outcome.kept is not None, outcome.dropped
        assert {True, False} <= set(_outputs(source, outcome))
        kinds = {type(i.args[0]) for i in outcome.kept.inputs}
        assert len(kinds) >= 2


def test_the_rescue_swaps_the_kind_of_an_argument_the_code_tests_and_only_that_one():
    from ifforge.families.logicif.codeops.inputs import rescue as r

    clues = r.read_clues(SCALAR, "f")
    assert clues.tested == [0] and r.read_clues(BITS, "f").tested == []
    rng = random.Random(5)
    swapped = [r._rekind([3, 4], rng, r.Clues([], [], [], [], [], [], tested=[1])) for _ in range(40)]
    assert all(args[0] == 3 for args in swapped)
    assert {type(args[1]) for args in swapped} >= {str, list, dict, float, bool, type(None)}
    assert not any(type(args[1]) is int for args in swapped)


def test_the_rescue_builds_a_grid_whose_rows_and_columns_hold_each_value_once():
    outcome = _run(SOLVED)
    assert outcome.kept is not None, outcome.dropped
    assert {True, False} <= set(_outputs(SOLVED, outcome))


PLACED = '''
def f(word, at, extra):
    if word.get(at) in ("DT", "DD"):
        return ["T", 2]
    return ["T", 1]
'''

LISTED = '''
DEFAULTS = ["subject", "from", "date", "bytes"]


def f(lines):
    names = []
    for line in lines:
        names.append(line.partition(":")[0].lower())
    expected = DEFAULTS
    if names[:len(expected)] != expected:
        raise ValueError("the fields do not start with the defaults")
    return names[len(expected):]
'''


def test_the_rescue_puts_the_compared_constant_at_the_place_another_argument_names():
    outcome = _run(PLACED)  # random tables seldom hold "DT" under the key drawn for `at`
    assert outcome.kept is not None, outcome.dropped
    assert {("T", 1), ("T", 2)} <= {tuple(o) for o in _outputs(PLACED, outcome)}


def test_the_rescue_gives_a_list_argument_the_module_list_the_code_compares_with():
    outcome = _run(LISTED)  # no drawn list of texts starts with the four defaults
    assert outcome.kept is not None, outcome.dropped
    assert len({tuple(o) for o in _outputs(LISTED, outcome)}) > 1


def test_clues_read_places_named_by_another_parameter_and_compared_module_lists():
    from ifforge.families.logicif.codeops.inputs.rescue import _at_place, read_clues
    clues = read_clues("FIELDS = ['a', 'b']\ndef g(x):\n    return x\n"
                       "def f(s, i, t, k):\n    if s[i + 1] == '(' or t.get(k) in {'x', 'y'}:\n"
                       "        return 1\n    known = FIELDS\n    return s[:2] != known\n", "f")
    assert sorted(clues.placed, key=repr) == [(0, 1, 1, ["("]), (2, 3, 0, ["x", "y"])]
    assert clues.lists == [["a", "b"]]
    clues.placed = clues.placed[:1]
    for seed in range(20):
        s, i, _, _ = _at_place(["abcdef", seed - 5, {}, "k"], random.Random(seed), clues)
        assert s[i + 1] == "(" and len(s) in (6, 7)  # at most one character added, at the end


SET_ORDER = '''
def f(text, extra):
    left = set(text.split())
    out = []
    while left:
        word = left.pop()
        if word not in out:
            out.append(word)
    return out + [extra]
'''


def test_calls_whose_result_changes_with_the_hash_seed_are_not_chosen():
    """Execute confirms gold under other hash seeds and drops what changes; the inputs stage checks
    its choice the same way and chooses again from the calls that do not change."""
    from ifforge.core.sandbox import execution as sandbox
    outcome = _run(SET_ORDER)
    assert outcome.kept is not None, outcome.dropped
    assert outcome.evidence[0]["unsettled"] > 0
    cases = [case.args for case in outcome.kept.inputs]
    runs = [sandbox.run_cases(SET_ORDER, "f", cases, limits=sandbox.Limits(hash_seed=seed)) for seed in (0, 1, 2)]
    assert all(len({repr(run[i].output) for run in runs}) == 1 for i in range(len(cases)))


def test_only_code_with_a_set_hash_id_or_random_is_run_again():
    from ifforge.families.logicif.stages.inputs import may_vary
    assert may_vary("def f(a):\n    return sorted(set(a))\n") and may_vary("def f(a):\n    return {x for x in a}\n")
    assert may_vary("from random import shuffle\ndef f(a):\n    shuffle(a)\n    return a\n")
    assert not may_vary("def f(a):\n    return {k: len(k) for k in a}\n")


CHECK_DIGIT = '''
def f(code):
    if len(code) != 10 or not code[:-1].isdigit():
        return False
    total = sum((10 - i) * int(c) for i, c in enumerate(code[:-1]))
    last = 10 if code[-1] == "X" else int(code[-1]) if code[-1].isdigit() else -1
    return (total + last) % 11 == 0
'''


def test_the_rescue_tries_each_check_character_on_a_text_of_digits_of_the_compared_length():
    from ifforge.families.logicif.codeops.inputs.rescue import read_clues
    outcome = _run(CHECK_DIGIT)
    assert outcome.kept is not None, outcome.dropped
    assert {True, False} <= set(_outputs(CHECK_DIGIT, outcome))
    assert any("rescued" in i.origin for i in outcome.kept.inputs)
    assert read_clues(CHECK_DIGIT).checked == [10]
    # no remainder by a constant nor an alphabet of digits: the rescue draws as it did
    assert read_clues(PANGRAM).checked is None and read_clues(BITS).checked is None


def test_a_seed_the_search_already_varies_gets_no_rescue():
    outcome = _run(SPLIT)
    assert outcome.kept is not None and "rescue" not in outcome.evidence[0]


def test_clues_read_alphabets_table_keys_grid_sides_and_compared_constants():
    from ifforge.families.logicif.codeops.inputs.rescue import read_clues
    clues = read_clues("from string import ascii_lowercase\nHEX = {'A': 10, 'B': 11}\n"
                       "def f(b, s):\n    for i in range(1, 10):\n        for k in range(3):\n"
                       "            if b[i][k] == '?' or s in ascii_lowercase:\n                return HEX\n")
    assert "abcdefghijklmnopqrstuvwxyz" in clues.alphabets and clues.keys == ["A", "B"]
    assert clues.sides == [3, 9] and "?" in clues.compared


def test_rescue_changes_never_change_their_argument_and_latin_grids_hold_each_value_once():
    from ifforge.families.logicif.codeops.inputs import rescue as r
    clues = r.read_clues("def f(g, s):\n    for i in range(9):\n        if s == 'x' and g[i] in 'abcde':\n"
                         "            return {'A': 1}\n")
    rng = random.Random(5)
    for args in ([], [0], ["ab", [1, 2]], [{"a": {"b": 1}}, "c"], [[[1, 2], [3]], 2.5], [[], {}]):
        before = repr(args)
        for _ in range(40):
            r.rescue_mutant(args, rng, clues, repair=True)
        assert repr(args) == before
    grid = r._latin([[0]], random.Random(2), clues)[0]
    assert len(grid) == 9 and all(sorted(row) == list(range(1, 10)) for row in grid)
    assert all(sorted(column) == list(range(1, 10)) for column in zip(*grid))
    assert all(sorted(grid[3 * a + i][3 * b + j] for i in range(3) for j in range(3)) == list(range(1, 10))
               for a in range(3) for b in range(3))


CLAMP = '''
def clamp(values, cap):
    for i in range(len(values)):
        if values[i] > cap:
            values[i] = cap
'''


def test_a_seed_that_changes_its_argument_in_place_loads_returning_it_and_keeps_varied_inputs(tmp_path):
    from ifforge.core.sandbox.execution import run_cases
    from ifforge.families.logicif.stages import load
    (tmp_path / "clamp.py").write_text(CLAMP)
    [seed], _ = load.load_seed_dir(tmp_path)
    assert seed.source.rstrip().endswith("return values")
    outcome = inputs.run(seed, from_settings(InputsConfig, LogicIFSettings()))
    assert outcome.kept is not None, outcome.dropped  # no longer one_output: the list it leaves is the output
    args = [case.args for case in outcome.kept.inputs]
    outputs = [result.output for result in run_cases(seed.source, "clamp", args)]
    assert all(isinstance(o, list) for o in outputs) and len({repr(o) for o in outputs}) > 1
    assert any(o != a[0] for o, a in zip(outputs, args))  # some calls changed the list they were given


def test_a_list_or_dict_handed_back_as_it_came_is_trivial_and_one_the_call_changed_is_not():
    assert inputs.trivial([3, 1, 2], [[3, 1, 2], 0]) and inputs.trivial({"a": 1}, [{"a": 1}])
    assert not inputs.trivial([1, 2, 3], [[3, 1, 2], 0]) and not inputs.trivial([3, 1, 2], [[3, 1, 2, 0]])
    assert not inputs.trivial([1], [1]) and inputs.trivial(0, [5])  # a number equal to an argument: as before


def test_a_lesson_about_a_star_parameter_shapes_its_items_and_never_breaks_the_draw():
    """A lesson that says `*nums` takes whole numbers (learned from an error on one item) is about the
    items: every candidate spreads a list of them (the draw used to slice the number and fail)."""
    from ifforge.families.logicif.codeops.inputs.candidates import candidates
    from ifforge.families.logicif.codeops.inputs.lessons import Lessons
    source = "def f(*nums):\n    total = 0\n    for n in nums:\n        if n > 3:\n            total += n\n    return total\n"
    lessons = Lessons(shapes={"nums": ("int",)}, former={"nums": ("int",)})
    found = candidates(source, "f", 7, 20, lessons)
    assert found and all(all(type(a) is int for a in c.args) for c in found)


def test_no_kept_call_gives_an_output_longer_than_max_output_length():
    """A function whose answer grows by thousands of items (an in-place `extend` of a copy, say) keeps
    only calls whose output a reader could write out: the rest are `output_too_large`."""
    source = ("def f(n):\n    out = []\n    for i in range(abs(n) % 7):\n        if i % 2:\n"
              "            out.extend([i] * 4000)\n        else:\n            out.append(i)\n    return out\n")
    outcome = _run(source)
    kept = outcome.kept
    assert kept is not None and kept.inputs
    from ifforge.core.store.versions import canonical_json
    assert all(len(canonical_json(_call(source, i.args))) <= 10_000 for i in kept.inputs)


def test_relations_give_a_graph_edges_to_its_own_nodes_and_take_an_asked_key_out():
    from ifforge.families.logicif.codeops.inputs.relations import linked, without_asked_key
    rng = random.Random(3)
    graph = [{"a": [], "b": [], "c": []}, 2]
    drawn = [linked(graph, rng) for _ in range(20)]
    assert graph == [{"a": [], "b": [], "c": []}, 2]  # the case itself is left alone
    assert any(any(d[0].values()) for d in drawn)
    assert all(set(item for items in d[0].values() for item in items) <= {"a", "b", "c"} for d in drawn)
    assert linked([{"a": 1, "b": []}], rng) == [{"a": 1, "b": []}]  # not every value a list: no graph
    record = ["x", {"ISBN": "1", "Title": "t"}]
    assert without_asked_key(record, rng, ["ISBN", "other"]) == ["x", {"Title": "t"}]
    assert without_asked_key(record, rng, ["nothing"]) == record


HEADER = '''
def f(head, size):
    if len(head) >= 4 and head[0] == ord(b"G") and head[1] in b"IK" and head[3] in b"78":
        return "gik"
'''

PREFIXED = '''
KINDS = ("0x", "0o")


def f(text):
    if text[:2] in KINDS and text[2] == "7":
        return len(text)
'''

SCRIPTS = '''
RANGES = ((0x3040, 0x309F), (0x1F600, 0x1F64F))


def f(ch):
    point = ord(ch)
    for low, high in RANGES:
        if low <= point <= high:
            return True
    return False
'''

GLUED = '''
def _glue(items):
    if not items:
        return None
    head = items[0]
    if hasattr(head, "upper"):
        return head.__class__().join(items)
    raise TypeError("cannot glue")


def f(*items):
    return _glue(items)
'''


def test_clues_read_the_constants_compared_at_fixed_places_and_code_points():
    from ifforge.core import pyast
    from ifforge.families.logicif.codeops.inputs import exact
    assert exact.places(pyast.parse(HEADER), ["head", "size"]) == [(0, 0, [71]), (0, 1, [73, 75]), (0, 3, [55, 56])]
    assert exact.places(pyast.parse(PREFIXED), ["text"]) == [(0, 0, ["0x", "0o"]), (0, 2, ["7"])]
    assert exact.points(pyast.parse(SCRIPTS)) == [0x3040, 0x309F, 0x1F600, 0x1F64F]
    assert exact.points(pyast.parse(SCRIPTS.replace("ord(ch)", "len(ch)"))) == []  # no code point read: none


def test_the_rescue_writes_the_compared_constants_at_the_places_the_code_reads():
    for source, want in ((HEADER, "gik"), (PREFIXED, None)):
        outcome = _run(source)  # random lists and texts never hold all the compared values at their places
        assert outcome.kept is not None, outcome.dropped
        found = _outputs(source, outcome)
        assert None in found and (want in found if want else any(isinstance(o, int) for o in found))


def test_the_rescue_puts_characters_at_the_code_points_a_range_table_compares_with():
    outcome = _run(SCRIPTS)  # drawn characters are ASCII: never inside the ranges
    assert outcome.kept is not None, outcome.dropped
    assert set(_outputs(SCRIPTS, outcome)) == {True, False}


def test_when_only_the_call_with_no_argument_runs_the_rescue_changes_the_calls_that_raised():
    outcome = _run(GLUED)  # numbers drawn for `*items`: every call with one raised; texts join
    assert outcome.kept is not None, outcome.dropped
    assert any(isinstance(o, str) for o in _outputs(GLUED, outcome))


CHAIN = '''
def f(table: dict[str, list[int]]):
    total = 0
    for key in (0, 1):
        for value in table[key]:
            if value > 2:
                total += value
    return total
'''


def test_a_key_error_for_a_whole_number_on_a_dict_teaches_a_list_of_its_values():
    from ifforge.families.logicif.codeops.inputs import lessons
    from ifforge.families.logicif.codeops.inputs.candidates import Signature
    parameters = Signature(CHAIN, "f").parameters
    line = "        for value in table[key]:"
    learned = lessons.learn(parameters, [([{"a": 1}], "KeyError: 0", line)])
    assert learned.shapes == {"table": ("list", ("list", ("int",)))}
    assert lessons.learn(parameters, [([{"a": 1}], "KeyError: 'b'", line)]).shapes == {}  # a text key: a dict
    outcome = _run(CHAIN)  # a JSON object has only text keys: every call with one raised
    assert outcome.kept is not None, outcome.dropped
    assert len(set(_outputs(CHAIN, outcome))) > 1


def test_a_parameter_whose_item_is_given_to_ord_is_text():
    from ifforge.families.logicif.codeops.inputs.candidates import Signature
    code = ("def f(s, key):\n    total = 0\n    for i in range(len(s)):\n        total += ord(key[i % len(key)])"
            " + s[i]\n    return total\n")
    shapes = {p.name: p.shape for p in Signature(code, "f").parameters}
    assert shapes["key"] == ("str",)  # `ord(key[...])`: each item is one character
    assert shapes["s"] != ("str",)  # s[i] is added to a number: not text


WIDER_KINDS = '''
TABLE = {"one": 1, "two": 2}


def f(word, salt, values_hash, parts, words, low=(1, 2)):
    chars = list(word)
    chars.reverse()
    n = (values_hash + ord(salt[0])) % 3
    head = parts[n] + salt
    total = sum(TABLE[w] for w in words)
    return "".join(chars), head, total, low
'''


def test_kinds_are_read_through_joins_and_wider_through_sums_tables_and_defaults_no_input_can_be():
    from ifforge.families.logicif.codeops.inputs.candidates import STR, Signature
    plain = {p.name: p for p in Signature(WIDER_KINDS, "f").parameters}
    wide = {p.name: p for p in Signature(WIDER_KINDS, "f", wider=True).parameters}
    texts = (STR, ("list", STR))  # text, or a list of texts: what a join or a `+` with text takes
    assert plain["word"].shape not in texts and wide["word"].shape in texts  # the join of a copy: wider only
    assert plain["values_hash"].shape == ("list", ("int",)) and wide["values_hash"].shape == ("int",)
    assert plain["parts"].shape not in texts and wide["parts"].shape in texts
    assert wide["words"].shape == ("list", STR) and {"one", "two"} <= set(wide["words"].constants)
    assert not plain["low"].omitted and wide["low"].omitted and not wide["words"].omitted
    from ifforge.families.logicif.codeops.inputs.candidates import candidates
    lengths = {len(c.args) for c in candidates(WIDER_KINDS, "f", 3, 40, wider=True)}
    assert lengths == {5, 6} and {len(c.args) for c in candidates(WIDER_KINDS, "f", 3, 40)} == {6}
    assert [p.shape for p in plain.values()] == [p.shape for p in Signature(WIDER_KINDS, "f").parameters]


LOOKED_UP = '''
TABLE = {"one": 1, "two": 2, "three": 3, "ten": 10}


def f(numbers):
    total = 0
    for word in numbers:
        total = total * 10 + TABLE[word]
    return total
'''


def test_a_seed_the_plain_reading_leaves_with_one_output_is_read_wider_and_varies(monkeypatch):
    # the plain reading's run-time search (`correspond`) would find TABLE's keys itself: without it,
    # only the wider reading can save the seed
    monkeypatch.setattr(inputs, "CORRESPOND_ROUNDS", 0)
    outcome = _run(LOOKED_UP)  # plain: a list of whole numbers, which no key of TABLE is
    assert outcome.kept is not None, outcome.dropped
    assert len(set(_outputs(LOOKED_UP, outcome))) > 2
    assert any("read wider" in note for note in outcome.evidence[0]["notes"])
    working = LOOKED_UP.replace("TABLE[word]", "TABLE.get(word, 1)")  # varies with the plain reading too
    outcome = _run(working)
    assert outcome.kept is not None and not any("read wider" in note for note in outcome.evidence[0]["notes"])
    assert not any(isinstance(item, str) for case in outcome.kept.inputs for item in case.args[0])


def test_a_parameter_whose_copy_is_joined_is_text_in_the_wider_reading():
    """Only in the wider reading (a seed otherwise dropped): read always, it drew texts alone for
    `if all(map(lambda x: isinstance(x, str), v)): return ".".join(v)`, whose check then never failed."""
    from ifforge.families.logicif.codeops.inputs.candidates import STR, Signature
    code = ("def f(string, salt):\n    if salt:\n        string = list(string)\n        for i in range(len(string) - 1, 0, -1):\n"
            "            j = salt % i\n            string[i], string[j] = string[j], string[i]\n"
            "        string = ''.join(string)\n    return string\n")
    shape = Signature(code, "f", wider=True).parameters[0].shape
    assert shape in (STR, ("list", STR))  # a list of numbers makes the join raise: the loop never counts
    tested = ("def f(node):\n    if all(map(lambda x: isinstance(x, str), node)):\n        return '.'.join(node)\n"
              "    return list(node)\n")
    assert Signature(tested, "f").parameters[0].shape != Signature(tested, "f", wider=True).parameters[0].shape


COMPUTED_KEYS = '''
NAMES = ["north", "south", "east", "west"]
CODES = {name[::-1].upper(): place for place, name in enumerate(NAMES)}


def f(word):
    key = word.strip().upper()
    if key in CODES:
        steps = 0
        for ch in key:
            steps += ord(ch) % 3
        return CODES[key] * 10 + steps
    return -1
'''


def test_a_key_made_at_run_time_is_found_by_recording_what_the_code_compares():
    """No constant of the code is a key of CODES (they are made reversed and upper-cased when the module
    loads): the probe records `key in CODES`, sees `key` is the argument upper-cased, and puts each
    recorded key in its place; the outputs come from running the unchanged function."""
    outcome = _run(COMPUTED_KEYS)
    assert outcome.kept is not None, outcome.dropped
    outputs = {inputs.canonical_json(i.args): i.args[0].strip().upper() for i in outcome.kept.inputs}
    assert set(outputs.values()) & {"HTRON", "HTUOS", "TSAE", "TSEW"}
    assert any("compared" in i.origin for i in outcome.kept.inputs)


def test_the_probe_records_comparisons_lookups_that_miss_and_prefixes_in_the_sandbox():
    from ifforge.core.sandbox import execution as sandbox
    from ifforge.families.logicif.codeops.inputs import compares
    source = ('MARKS = {"a": "x-", "b": "y-"}\n\ndef f(s, k, n):\n    table = {str(i * 7): i for i in range(3)}\n'
              '    if s.startswith(MARKS["a"] + "z") or n >= len(MARKS) * 4:\n        return 1\n'
              '    return table.get(k, 0) + table[k]\n')
    probe = compares.probe_source(source, "f")
    record = sandbox.run_cases(probe, compares.PROBE, [["q", "9", 2]])[0]
    assert record.ok, record.error
    assert ["startswith", "q", "x-z"] in record.output and [">=", 2, 8] in record.output
    assert ["in", "9", ["0", "7", "14"]] in record.output  # the lookup that missed, then raised: still recorded
    found = compares.suggestions(["q", "9", 2], record.output, random.Random(0))
    assert ["x-zq", "9", 2] in found and ["q", "14", 2] in found and ["q", "9", 8] in found


def test_suggestions_follow_copies_and_pieces_of_a_text_and_never_change_their_argument():
    from ifforge.families.logicif.codeops.inputs import compares
    args = [" 12 ", ["ab-cd", 3]]
    before = repr(args)
    found = compares.suggestions(args, [["==", 12, 40], ["==", "cd", "zz"], ["in", 3, [5, 6]]], random.Random(1))
    assert repr(args) == before
    assert ["40", ["ab-cd", 3]] in found  # int(" 12 ") was compared with 40: the text of 40 in its place
    assert [" 12 ", ["ab-zz", 3]] in found  # a piece of a text compared: replaced where it stands
    assert {f[1][1] for f in found} >= {5, 6}


def test_suggestions_rename_a_key_of_a_dict_argument_the_code_looked_for():
    from ifforge.families.logicif.codeops.inputs import compares
    found = compares.suggestions([{"a": 1, "b": 2}], [["==", "b", "size"], ["in", "a", ["x", "y"]]], random.Random(0))
    assert [{"a": 1, "size": 2}] in found and [{"x": 1, "b": 2}] in found
    assert all(list(f[0].values()) == [1, 2] for f in found)  # the values stay, in their order


RUNTIME_PATTERN = '''
import re

SCRIPTS = {"kana": [(0x3041, 0x3096), (0x30A1, 0x30FA)], "greek": [(0x0391, 0x03A9)]}


def _matcher(*names):
    cls = "".join(f"\\\\U{lo:08x}-\\\\U{hi:08x}" for name in names for lo, hi in SCRIPTS[name])
    return re.compile(f"[{cls}]+").search


_has_kana = _matcher("kana")


def f(text):
    for part in text.split():
        if _has_kana(part):
            return len(part)
    return 0
'''


def test_an_expression_compiled_at_run_time_gives_texts_it_matches():
    """The character class exists only once the module has run (made of a table's ranges), and the
    match is a bound method called later: the probe records the expression when it is compiled."""
    outcome = _run(RUNTIME_PATTERN)
    assert outcome.kept is not None, outcome.dropped
    assert any(any(0x3041 <= ord(c) <= 0x30FA for c in i.args[0]) for i in outcome.kept.inputs)


VERSION_AT_LEAST = '''
import re


def f(version, minimum=(2, 0)):
    match = re.match(r"^(\\d+)\\.(\\d+)$", version)
    if not match:
        raise ValueError(version)
    return (int(match.group(1)), int(match.group(2))) >= minimum
'''


def test_calls_the_comparisons_ask_for_are_tried_with_the_codes_own_defaults_too():
    """A tuple default JSON cannot give: every drawn call passes a list and raises; the texts the
    expression matches, with the default left to the code, run."""
    outcome = _run(VERSION_AT_LEAST)
    assert outcome.kept is not None, outcome.dropped
    assert {len(i.args) for i in outcome.kept.inputs} == {1}
    assert all(re.fullmatch(r"\d+\.\d+", i.args[0]) for i in outcome.kept.inputs)


# ---- the wider reading, for a seed the plain reading drops

LONG_LINES = '''
def f(lines):
    found = 0
    for line in lines:
        if line.endswith(':') and len(line) > 3:
            found += 1
    return found
'''

SCALED = '''
def f(c):
    if c > 0.04:
        return ((c + 0.055) / 1.055) ** 2
    return c / 12.92
'''


def test_the_wider_reading_draws_the_other_reading_of_a_text_iterated_item_by_item():
    outcome = _run(LONG_LINES)  # the plain reading iterates a text: its characters are never longer than 3
    assert outcome.kept is not None, outcome.dropped
    assert any(_call(LONG_LINES, case.args) > 0 for case in outcome.kept.inputs)


def test_the_wider_reading_finds_numbers_that_bring_a_scaled_value_out_round():
    signature = inputs.Signature(SCALED, "f", wider=True)
    assert {0, 1, -12.92} <= set(signature.parameters[0].exact)
    assert inputs.Signature(SCALED, "f").parameters[0].exact == ()
    outcome = _run(SCALED)  # a random c gives an output of many decimal places, which no case may have
    assert outcome.kept is not None, outcome.dropped
    assert len({_call(SCALED, case.args) for case in outcome.kept.inputs}) > 1

FEW_ROUND = '''
def f(y):
    if y <= 0.0075:
        return y * 812.5432101
    return (y - 0.25) / 3.3
'''


def test_a_seed_left_with_fewer_calls_than_execute_needs_is_read_wider_too():
    outcome = _run(FEW_ROUND)  # the plain reading keeps two calls (0 and -0.0): execute needs three
    assert outcome.kept is not None, outcome.dropped
    assert len(outcome.kept.inputs) >= 3
    assert len({_call(FEW_ROUND, case.args) for case in outcome.kept.inputs}) >= 3


# ---- the calls the comparisons ask for

FIELDS_SPLIT_AT_RUN_TIME = '''
def f(reply):
    if reply[:2] != 'ok':
        raise ValueError(reply)
    start = reply.find('[')
    if start < 0:
        raise ValueError(reply)
    end = reply.find(']', start + 1)
    if end < 0 or reply[start + 1] != reply[end - 1]:
        raise ValueError(reply)
    fields = reply[start + 1:end].split(reply[start + 1])
    if len(fields) != 4:
        raise ValueError(reply)
    return int(fields[2]) * 2
'''


def test_a_text_split_into_too_few_parts_is_given_the_number_a_comparison_asks_for():
    record = [["split", "x", ["x", 2]], ["!=", 2, 5]]
    made = compares.suggestions(["ok(x)"], record, random.Random(0))
    assert ["ok(x1x2x3x)"] in made  # the fields put in between the ends, which the code may compare
    assert compares._parted("a b", None, 1) == "a"


def test_with_no_working_call_the_calls_that_raised_furthest_down_are_probed_first():
    outcome = _run(FIELDS_SPLIT_AT_RUN_TIME)  # each check passed makes the next one the one that raises
    assert outcome.kept is not None, outcome.dropped
    assert len({_call(FIELDS_SPLIT_AT_RUN_TIME, case.args) for case in outcome.kept.inputs}) > 1


def test_suggestions_add_a_key_a_dict_argument_lacked():
    """`params["q"]` missed: the recorder keeps the dict as its keys; the dict gets the key, with a value it
    holds already or 1."""
    from ifforge.families.logicif.codeops.inputs import compares
    found = compares.suggestions(["x", {"a": 2}], [["in", "q", ["a"]]], random.Random(0))
    assert ["x", {"a": 2, "q": 2}] in found and ["x", {"a": 2, "q": 1}] in found
    assert ["x", {"q": 1}] in compares.suggestions(["x", {}], [["in", "q", []]], random.Random(0))


def test_suggestions_put_two_comparisons_asked_for_one_after_the_other_in_at_once():
    from ifforge.families.logicif.codeops.inputs import compares
    args = ["a/b", [[7, 8, {}]]]
    record = [["in", 7, ["a", "*"]], ["in", 8, ["b", "*"]]]  # `k in (kind, "*") and s in (sub, "*")`
    found = compares.suggestions(args, record, random.Random(0))
    assert any(f[1][0][0] in ("a", "*") and f[1][0][1] in ("b", "*") for f in found)
    assert args == ["a/b", [[7, 8, {}]]]


MEDIA_RANGES = '''
def _split(text):
    head, _, rest = text.partition(";")
    if "/" not in head:
        raise ValueError("no slash in " + head)
    kind, sub = head.split("/", 1)
    return kind.strip(), sub.strip()


def best(target, ranges):
    kind, sub = _split(target)
    best_q, best_fit = 0, -1
    for (k, s, params) in ranges:
        fit = (k == kind) * 10 + (s == sub)
        if k in (kind, "*") and s in (sub, "*") and fit > best_fit:
            best_fit = fit
            best_q = params["q"]
    return float(best_q)
'''


def test_ranges_that_match_only_when_two_fields_agree_at_once_are_found():
    """No change of one value makes a range match (both its fields must), so every call returned 0.0 and
    the seed was dropped; the record's two comparisons in a row give both values at once, and the
    `params["q"]` that then raises gives the key."""
    outcome = _run(MEDIA_RANGES, "best")
    assert outcome.kept is not None, outcome.dropped
    assert len({i.origin for i in outcome.kept.inputs}) > 1
    outputs = set()
    for i in outcome.kept.inputs:
        target, ranges = i.args
        kind, sub = target.split(";")[0].split("/", 1)
        matched = [r for r in ranges if r[0] in (kind.strip(), "*") and r[1] in (sub.strip(), "*")]
        outputs.add(bool(matched))
    assert outputs == {True, False}


def test_calls_that_raised_where_no_working_call_reached_are_probed_first():
    from ifforge.core.sandbox.execution import CaseResult
    from ifforge.families.logicif.codeops.inputs.candidates import Candidate
    working = [(Candidate([n], "random"), CaseResult(index=n, status="ok", arcs=[[1, 2], [2, 5]])) for n in range(3)]
    raised = [(Candidate(["far"], "random"), "KeyError at 9"), (Candidate(["near"], "random"), "ValueError at 2")]
    order = inputs.probe_order(working, raised)
    assert [c.args for c in order] == [["far"], [0], [1], [2], ["far"], ["near"]]
    assert [c.args for c in inputs.probe_order([], raised)] == [["far"], ["near"]]
