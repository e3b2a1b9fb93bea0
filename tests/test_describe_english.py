"""Offline descriptions are English, never code: project seeds, real standard-library code, and the
fine points (floor division, remainders, slices, ties, sort keys) said with their exact semantics."""

import json
import re

import pytest
from conftest import PROJECT, needs_fixture
from stdlib_functions import FUNCTIONS, seed_name, write_seeds

from ifforge.families.logicif.codeops.describe.narrate import Undescribable, describe, holds_code, uncovered
from ifforge.families.logicif.configs import ExecuteConfig, TrackerConfig, from_settings
from ifforge.families.logicif.records import Tracker
from ifforge.families.logicif.settings import LogicIFSettings
from ifforge.families.logicif.stages import complexity, execute, instrument, load, verify
from ifforge.families.logicif.stages import describe as describe_stage

COUNTER = [Tracker(name="loop_iterations", kind="loop_iterations", explanation="iterations of the loop `for v in a`")]


def _measured(folder):
    """Every seed of `folder` through load, instrument, execute and complexity: {task_id: item}."""
    seeds, _ = load.load_seed_dir(folder)
    settings = from_settings(ExecuteConfig, LogicIFSettings())
    trackers = from_settings(TrackerConfig, LogicIFSettings())
    items = {}
    for seed in seeds:
        instrumented = instrument.run(seed, trackers).kept
        executed = instrumented and execute.run(instrumented, settings).kept
        if executed:
            items[seed.task_id] = complexity.run(executed).kept
    return items


@pytest.fixture(scope="module")
def stdlib_items(tmp_path_factory):
    folder = tmp_path_factory.mktemp("stdlib")
    write_seeds(folder)
    return _measured(folder)


def _text(body: str, params: str = "a", helpers: str = "") -> str:
    """The description of an instrumented-style `f` (stats first, returns (result, stats))."""
    source = (f"{helpers}\n\ndef f({params}):\n    stats = {{'loop_iterations': 0}}\n"
              + "".join(f"    {line}\n" for line in body.strip().splitlines()))
    return describe(source, COUNTER, {}, "int")


def test_standard_library_functions_are_described_without_code_or_dropped_naming_the_construct(stdlib_items):
    assert len(FUNCTIONS) == 25
    described, dropped = [], {}
    for task_id, item in stdlib_items.items():
        outcome = describe_stage.run(item)
        if outcome.kept is None:
            [drop] = outcome.dropped
            assert drop.reason == "not_describable" and drop.detail.startswith("no clear English for ")
            dropped[task_id] = drop.detail
            continue
        text = outcome.kept.instruction.description
        assert holds_code(text) == [], (task_id, holds_code(text)[:5])
        assert verify.run(outcome.kept).kept is not None, task_id
        described.append(task_id)
    assert len(described) >= 15, dropped
    assert seed_name("textwrap", "indent") in described  # its inner helper yields: steps that produce values
    assert seed_name("bisect", "bisect_right") in described and seed_name("zipfile", "_gen_crc") in described


def test_a_hex_mask_is_covered_as_written_or_as_its_value(stdlib_items):
    item = stdlib_items[seed_name("zipfile", "_gen_crc")]
    text = describe_stage.run(item).kept.instruction.description
    assert "0xedb88320" in text and str(0xEDB88320) in text
    source = "def f(a):\n    stats = {'loop_iterations': 0}\n    return (a & 0xff, stats)\n"
    assert uncovered("INPUTS: a. OUTPUTS: loop_iterations from 0; keep the low bits, 0xff.", source, COUNTER) == []
    assert uncovered("INPUTS: a. OUTPUTS: loop_iterations from 0; keep the low bits, 255.", source, COUNTER) == []
    assert uncovered("INPUTS: a. OUTPUTS: loop_iterations from 0; keep the low bits.", source, COUNTER) == ["255"]  # 0xff, under either name, is missing
    masked = _text("v = a & 0xff\nreturn (v, stats)")
    assert uncovered(masked, "def f(a):\n    stats = {'loop_iterations': 0}\n    v = a & 0xff\n    return (v, stats)\n",
                     COUNTER) == []


def test_floor_division_and_remainder_are_told_with_negative_examples_python_agrees_with():
    text = _text("return (a // 2 + a % 3, stats)")
    assert "a floor-divided by 2" in text and "the remainder of a divided by 3" in text
    assert f"-7 floor-divided by 2 is {-7 // 2}" in text
    assert f"the remainder of -7 divided by 3 is {-7 % 3}, and of 7 divided by -3 is {7 % -3}" in text
    assert f"6 divided by 3 is {6 / 3}" in _text("return (a / 3, stats)")


def test_slices_say_which_bound_is_included_and_what_negative_bounds_mean():
    text = _text("return ((a[1:3], a[-2:], a[:a[0]], a[:]), stats)")
    assert "the part of a from position 1 up to position 3" in text
    assert "the part of a from position -2 to the end" in text
    assert "the part of a before position (item 0 of a)" in text
    assert "a copy of a" in text
    assert "includes position i but not position j" in text and "a negative bound has the length added" in text
    assert text.count("includes position i") == 1  # said once, at the step that needs it
    assert [1, 2, 3, 4][-2:] == [3, 4]  # the rule's reading: -2 becomes 4 - 2 = 2
    nested = _text("return (a[a[0] - 1] - 1, stats)")  # which "minus 1" belongs where is never in doubt
    assert "(item ((item 0 of a) minus 1) of a) minus 1" in nested


def test_min_takes_the_first_of_ties_and_sorted_keys_are_spelled_out():
    text = _text("return ((min(a, key=lambda p: p[1]), sorted(a, key=lambda p: (p[1], p[0]), reverse=True)), stats)")
    assert "the first of the items of a for which item 1 of p is smallest (with p standing for the item)" in text
    assert "On a tie for smallest or largest, the first of the tied items is taken" in text
    assert ("sorted from largest to smallest by (the pair of item 1 of p and item 0 of p) "
            "(with p standing for the item)") in text
    assert "Sorting is stable" in text and "also when sorting from largest to smallest" in text
    pairs = [[1, 2], [0, 2], [5, 1]]
    assert min(pairs, key=lambda p: p[1]) == [5, 1] and min([[1, 2], [0, 2]], key=lambda p: p[1]) == [1, 2]


def test_truthiness_and_value_returning_or_are_said_exactly():
    text = _text("if a:\n    return (a or 7, stats)\nreturn (0, stats)")
    assert "If a counts as true, stop: the result is a if it counts as true, otherwise 7." in text
    assert "0, None, false, empty text and empty collections count as false" in text
    # a name whose kind is certain needs no rule: "is not empty", "is not 0", or the flag itself
    known = describe("def f(a, b, c):\n    stats = {'loop_iterations': 0}\n    if a and b and not c:\n"
                     "        return (1, stats)\n    return (0, stats)\n", COUNTER,
                     {"a": "list[int]", "b": "int", "c": "bool"}, "int")
    assert "If a is not empty and b is not 0 and (c is false), stop" in known and "count as false" not in known


def test_parameter_lists_read_as_english_without_stray_commas():
    helper = "def g1(e, g, h=2):\n    return e + g * h\n"
    text = _text("return (g1(a, 1), stats)", helpers=helper)
    assert "g1, takes e, g and h (h is 2 unless it is given) and does this:" in text
    assert "g," not in text and "h," not in text


def test_dead_code_and_docstrings_are_not_narrated():
    helper = 'def g1(b):\n    """Secret domain hint about loans."""\n    return b\n'
    text = _text('"""Another hint."""\nv1 = 1\nif 0 and v1:\n    v1 = 99\nif False:\n    v1 = 98\n'
                 'v2 = 97 if False else 5\nreturn (g1(v1), stats)\nv1 = 96', helpers=helper)
    for hidden in ("hint", "99", "98", "97", "96"):
        assert hidden not in text
    assert "Set p to 5." in text and not re.search(r"\bv\d+\b", text)  # numbered names get role names


def test_mixed_input_and_output_types_are_declared_truthfully(tmp_path):
    (tmp_path / "mixed.py").write_text(
        "def mixed(x):\n    out = []\n    for c in str(x):\n        out.append(c)\n"
        "    return len(out) if isinstance(x, int) else str(x)\n\n"
        '# input: [12]\n# input: ["ab"]\n# input: [7]\n# input: ["xyz"]\n')
    item = _measured(tmp_path)["mixed"]
    text = describe_stage.run(item).kept.instruction.description
    assert "a whole number or a piece of text" in text.split("LOGICS:")[0]
    assert "The result (a whole number or a piece of text)" in text.split("OUTPUTS:")[1]
    stack = _measured_one("stack_calculator")
    kinds = {case.output_type for case in stack.executed.cases}
    assert kinds == {"int", "str"}  # half its outputs are error texts
    assert "The result (a whole number or a piece of text)" in describe_stage.run(stack).kept.instruction.description


def test_a_choice_of_kinds_inside_a_choice_is_bracketed_so_each_or_reads_one_way():
    from ifforge.families.logicif.codeops.describe.narrate import type_words

    assert type_words("Union[dict, list[Union[int, str]], int, None]") == (
        "a dictionary or (a list whose items are each a whole number or a piece of text) or a whole number or "
        "None (nothing)")
    assert type_words("Union[int, str]") == "a whole number or a piece of text"
    assert type_words("Union[str, bool]") == "a piece of text or true or false"
    assert type_words("list[Union[int, str]]") == "a list whose items are each a whole number or a piece of text"


def test_a_helpers_input_with_a_with_of_its_own_is_bracketed():
    text = _text('for x in a:\n    stats["loop_iterations"] += 1\nreturn (g(a.replace("-", "_"), 2), stats)',
                 helpers="def g(s, n):\n    return s * n")
    assert 'what g gives back with (a with every occurrence of "-" replaced by "_" (left to right, not ' \
           'overlapping)) and 2' in text


def _measured_one(task_id):
    seeds, _ = load.load_seed_dir(PROJECT / "seeds" / "logicif")
    [seed] = [s for s in seeds if s.task_id == task_id]
    executed = execute.run(instrument.run(seed, from_settings(TrackerConfig, LogicIFSettings())).kept,
                           from_settings(ExecuteConfig, LogicIFSettings())).kept
    return complexity.run(executed).kept


def test_an_undescribable_construct_drops_the_item_with_its_name(tmp_path):
    (tmp_path / "mapped.py").write_text(
        "def mapped(xs):\n    total = 0\n    for x in xs:\n        if x > 2:\n            total += x\n"
        "    return list(map(int.__add__, xs, [total, len(xs)]))\n\n"
        "# input: [[1, 2, 3]]\n# input: [[]]\n# input: [[5, 6]]\n# input: [[4]]\n")
    outcome = describe_stage.run(_measured(tmp_path)["mapped"])
    assert outcome.kept is None
    [drop] = outcome.dropped
    assert drop.reason == "not_describable" and "a function passed as a value with several inputs" in drop.detail
    with pytest.raises(Undescribable, match="with statement"):
        _text("with open(a) as h:\n    pass\nreturn (1, stats)")


def test_holds_code_finds_code_and_lets_quoted_data_and_english_pass():
    assert holds_code("Append `v7 // v8` to the end of `v2`.")
    assert holds_code("Set v1 to sorted(v2, key=lambda p: p[0]).")
    assert holds_code('Hand back f"error at {v4}".')
    assert holds_code("Check whether v3 == 0 and v2[1:] is empty.")
    assert holds_code("Call v2.append(3).")
    assert holds_code("Set x = n * m.") and holds_code("Keep going while i <= n.")
    assert holds_code('Put the text "a == b" at the end of v2, then v1 floor-divided by 2 (e.g. 7 gives 3).') == []
    assert holds_code("1.2.b1. Set v3 to the item of v2 at position -1, the last item.") == []
    logicif = [json.loads(line)["description"] for line in needs_fixture("tasks.jsonl").read_text().splitlines()]
    assert sum(bool(holds_code(text)) for text in logicif) > len(logicif) // 2  # LogicIFEval's own texts slip often


def test_prose_a_capable_model_writes_is_not_taken_for_code():
    assert holds_code("Count the square(s) and the match(es) you pass, U.S. style, on the row - which is the last.") == []
    assert holds_code("Subtract: v1 - v2.") and holds_code("Use n - 1.") and holds_code("Take (a plus b) - c.")
    assert holds_code("Call g1(v2).") and holds_code("Call v2.append.")


def test_coverage_takes_number_words_skips_positions_and_does_not_take_the_article_for_the_name_a():
    source = ("def f(a, b):\n    stats = {'hits': 0}\n    v = 0\n    for x in a[1:]:\n        if x > 7:\n"
              "            v += 1\n            stats['hits'] += 1\n    return (v + a[-1] + b[0], stats)\n")
    hits = [Tracker(name="hits", kind="llm", explanation="")]
    words = "INPUTS: a list a and b. LOGICS: From zero, add One per item above seven to hits. OUTPUTS: the sum."
    assert uncovered(words, source, hits) == []  # 0, 1, 7 as words; 1 and -1 and 0 as positions need none
    assert uncovered(words.replace("zero", "nothing"), source, hits) == ["0"]  # v = 0 is a number, not a position
    assert uncovered(words.replace("list a and", "list and"), source, hits) == ["a"]  # only articles left
    for named in ("Add a to b.", "the list a contains", "Look at a, then", "the input a of whole numbers"):
        assert "a" not in uncovered(words.replace("a list a and b.", named + " b."), source, hits), named


def test_tracker_updates_of_any_shape_are_told_from_the_code_and_the_records():
    """Trackers other than today's loop/branch/peak ones (sizes, depths, counts of comprehension
    rounds) are narrated from the statements that update them, and their explanations lose their code."""
    source = ("def f(a):\n    stats = {'rounds': 0, 'deepest': 0, 'sizes': 0}\n"
              "    v1 = [x * 2 for x in a if x > 0]\n    stats['rounds'] += len(a)\n"
              "    stats['deepest'] = max(stats['deepest'], len(v1) // 2)\n"
              "    stats['sizes'] = stats['sizes'] + len(v1)\n    return (v1, stats)\n")
    trackers = [Tracker(name="rounds", kind="llm", explanation="rounds of `[x * 2 for x in a if x > 0]`"),
                Tracker(name="deepest", kind="llm", explanation="the largest `len(v1) // 2` seen"),
                Tracker(name="sizes", kind="llm", explanation="sum of `len(v1)`")]
    text = describe(source, trackers, {"a": "list[int]"}, "list[int]")
    assert holds_code(text) == []
    assert "Add the length of a to rounds." in text
    assert "Raise deepest to (the length of row) floor-divided by 2 if that is larger." in text
    assert "Set sizes to sizes plus (the length of row)" in text
    assert "- deepest: the largest (the length of row) floor-divided by 2" in text  # v1 renamed there too
    assert "Start the counters rounds, deepest and sizes (kept in the dictionary stats) at 0." in text


def test_a_model_description_that_quotes_code_is_asked_again_in_plain_english():
    import asyncio

    from ifforge.core.llm.client import LLM, LLMConfig
    from ifforge.families.logicif.configs import DescribeConfig
    from ifforge.families.logicif.records import InstrumentedFunction, Tracker
    from ifforge.families.logicif.writer import code_problem, write_with_llm
    from ifforge.testing.openai_stub import Answer, StubServer

    quoted = "INPUTS: a list `a`.\nLOGICS: Set `b = a[0] // 2`.\nOUTPUTS: b and the counter."
    plain = ("INPUTS: a list a of whole numbers.\nLOGICS: Take the first item of a, divide it by 2 and round "
             "down (toward negative infinity), and call that b.\nOUTPUTS: b and the counter.")
    assert code_problem(plain) is None and "quotes code" in code_problem(quoted)
    source = "def f(a):\n    stats = {'c': 0}\n    return (a[0] // 2, stats)\n"
    function = InstrumentedFunction(task_id="t", original_source="def g(a):\n    return a[0] // 2\n", original_entry="g",
                                    anonymised_source=source, instrumented_source=source, renames={},
                                    trackers=[Tracker(name="c", kind="llm", explanation="")], inputs=[])
    with StubServer() as server:
        server.script(Answer(content=quoted), Answer(content=plain))
        llm = LLM(LLMConfig(model="m", base_url=server.url, api_key="k", max_retries=1, timeout=5))

        async def ask():
            try:
                return await write_with_llm(llm, "describe", function, {}, DescribeConfig(llm_reasks=1), "describe",
                                            [[[4, -3]]])
            finally:
                await llm.close()

        text, problem = asyncio.run(ask())
        assert text == plain + "\n" and problem == ""
        assert "quotes code" in server.requests[1]["messages"][-1]["content"]


def test_pure_path_and_url_functions_are_said_as_the_string_operations_they_are():
    from urllib.parse import unquote

    code = ("import os, posixpath, urllib.parse\ndef f(a, b):\n"
            "    return [os.path.basename(a), os.path.join(a, b, 'c'), urllib.parse.unquote(b),\n"
            "            os.path is not posixpath, os.path.commonprefix([a, b])], {}\n")
    text = describe(code, [], {}, "list")
    assert "whether paths do not follow POSIX rules here (they do, so this is false)" in text
    assert 'the part of a after its last "/" (all of a when it has no "/")' in text
    assert 'a, then each of b and "c" in turn added to it: a part that starts with "/" replaces' in text
    assert "each character cut short" in text and unquote("%E2%82x%FF") == "\ufffdx\ufffd"  # the words' reading
    assert "the longest beginning that every item of (a new list of a and b, in that order) shares" in text
    assert not holds_code(text), holds_code(text)
    with pytest.raises(Undescribable, match="os.path.join with these arguments"):
        describe(code.replace("b, 'c')", "b, start='c')"), [], {}, "list")


def test_a_one_line_if_before_an_otherwise_says_which_check_the_otherwise_answers():
    text = _text("if a > 1:\n    if a > 5:\n        a = 0\nelse:\n    a = 2\nreturn (a, stats)")
    assert "2.1. If a is greater than 5, set a to 0." in text
    assert "Otherwise (for step 2):" in text  # not the one-line check just above it
    plain = _text("if a > 1:\n    if a > 5:\n        a = 0\n    a += 1\nelse:\n    a = 2\nreturn (a, stats)")
    assert "Otherwise:" in plain  # with a step between them there is no doubt


def test_a_rule_is_said_once_at_the_first_step_that_needs_it_and_never_as_a_preamble():
    text = _text("v1 = a // 2\nv2 = v1 // 3\nreturn (v2 % 4, stats)")
    steps = text.split("LOGICS:")[1]
    assert text.count("rounds the quotient down") == 1 and text.count("takes the sign of b") == 1
    first = next(line for line in steps.splitlines() if "floor-divided" in line)
    assert "rounds the quotient down" in first  # the note sits on the step that first floor-divides
    assert "Rule 1" not in text and "see rule" not in text


def _typed(body: str, types: dict) -> str:
    source = (f"import re\n\ndef f({', '.join(types)}):\n    stats = {{'loop_iterations': 0}}\n"
              + "".join(f"    {line}\n" for line in body.strip().splitlines()))
    return describe(source, COUNTER, types, "str")


def test_a_repr_field_is_said_only_on_a_value_whose_repr_words_are_exact():
    text = _typed("for v in a:\n    stats['loop_iterations'] += 1\nreturn (f'{b!r}={c!r}', stats)",
                  {"a": "list[int]", "b": "str", "c": "int"})
    assert "in quotes as Python shows a text" in text and "c written as text" in text
    assert "double quotes when it holds a single quote" in text and holds_code(text) == []
    listed = _typed("for v in a:\n    stats['loop_iterations'] += 1\nreturn (f'{a!r}', stats)", {"a": "list[int]"})
    assert "a as Python displays it" in listed and "in square brackets for a list" in listed  # an input is plain
    with pytest.raises(Undescribable, match="!r conversion"):  # a set shows its items in Python's own order
        _typed("for v in a:\n    stats['loop_iterations'] += 1\nreturn (f'{set(a)!r}', stats)", {"a": "list[int]"})


def test_a_dictionary_display_copying_another_with_double_star_is_said_in_order():
    text = _typed("d = {**b, 'x': 1}\nfor v in a:\n    stats['loop_iterations'] += 1\nreturn (d, stats)",
                  {"a": "list[int]", "b": "dict"})
    assert "a new dictionary with every key and value of b, then mapping" in text
    assert "replacing the value of a key already there" in text and holds_code(text) == []
    with pytest.raises(Undescribable, match=r"\*\* after other keys"):
        _typed("d = {'x': 1, **b}\nfor v in a:\n    stats['loop_iterations'] += 1\nreturn (d, stats)",
               {"a": "list[int]", "b": "dict"})


def test_two_names_set_to_one_value_are_not_all_set():
    text = _typed("p = q = None\nfor v in a:\n    stats['loop_iterations'] += 1\nreturn (p, stats)",
                  {"a": "list[int]"})
    assert "Set p and q to None." in text and " all to None" not in text


def test_a_re_sub_replacement_with_group_references_says_each_group():
    text = _typed("for v in a:\n    stats['loop_iterations'] += 1\n"
                  "return (re.sub(r'([\"\\\\])', r'\\\\\\1', b), stats)", {"a": "list[int]", "b": "str"})
    assert ('replaced by the text made of "\\\\", followed by the text group 1 of that match covers'
            in text), text
    with pytest.raises(Undescribable, match="octal or letter escape"):
        _typed("for v in a:\n    stats['loop_iterations'] += 1\nreturn (re.sub('x', r'\\x41', b), stats)",
               {"a": "list[int]", "b": "str"})


def test_a_match_used_as_a_check_is_said_as_whether_the_pattern_matches():
    text = _typed("for v in a:\n    stats['loop_iterations'] += 1\n    if not re.search(r'^x+$', b):\n"
                  "        return (1, stats)\n    if re.match('y', b):\n        return (2, stats)\nreturn (0, stats)",
                  {"a": "list[int]", "b": "str"})
    assert "matches nowhere in b" in text and "matches at the very start of b" in text
    assert "or None if" not in text and "counts as false" not in text


def test_str_and_bytes_with_an_encoding_are_said_as_decoding_and_encoding():
    text = _typed("for v in a:\n    stats['loop_iterations'] += 1\nreturn (str(bytes(b, 'latin-1'), 'latin-1'), stats)",
                  {"a": "list[int]", "b": "str"})
    assert 'the bytes of the text b in the encoding "latin-1"' in text and "spell in the encoding" in text


def test_a_table_built_by_a_module_level_loop_is_built_first_as_numbered_steps():
    source = ("DAYS = [31, 28, 31]\nBEFORE = [0]\ntotal = 0\nfor d in DAYS:\n    BEFORE.append(total)\n"
              "    total += d\ndel total, d\n\n"
              "def f(a):\n    stats = {'loop_iterations': 0}\n    for v in a:\n"
              "        stats['loop_iterations'] += 1\n    return (BEFORE[a[0]], stats)\n")
    text = describe(source, COUNTER, {}, "int")
    setup = text.split("First, once, build the fixed values:")[1].split("The main steps")[0]
    assert "fixed values: DAYS is the list [31, 28, 31]; BEFORE is the list [0]; total is 0." in text
    assert "1. For each d of DAYS, in order:" in setup and "Put total at the end of BEFORE." in setup
    assert "Forget the variable total. Forget the variable d." in setup and holds_code(text) == []


def test_args_and_kwargs_are_any_number_of_values_and_a_star_call_passes_each_item():
    text = _text("for v in a:\n    stats['loop_iterations'] += 1\nreturn (g(*a, **b), stats)", "a, b",
                 helpers="def g(first, *rest, **named):\n    return len(rest) + len(named)")
    assert ("takes first, any number of further values, in order, as the tuple rest and any number of further "
            "named values, as the dictionary named from each name to its value") in text
    assert "what g gives back with each item of a in order and each key of the dictionary b set to its value" in text
    alone = describe("def f(*items):\n    stats = {'loop_iterations': 0}\n    return (len(items), stats)\n",
                     [], {}, "int")
    assert "You're given one input: any number of values, in order, as the tuple items." in alone


def test_built_ins_are_said_exactly_or_the_item_is_dropped_naming_them():
    text = _text("for v in a:\n    stats['loop_iterations'] += 1\nr = iter(a)\n"
                 "return ((next(r, None), next(r), repr(3), repr('x'), callable(a)), stats)")
    assert "Set r to a reader of the items of a, in order, that gives each of them once." in text
    assert "the next item the reader r gives (it moves on past it), or None if it has none left" in text
    assert "the steps stop with an error if it has none left" in text
    assert "3 written as text" in text and '"x" in quotes as Python shows a text' in text
    assert "what " not in text and holds_code(text) == []
    for call, construct in [("repr(set(a))", "built-in repr"), ("hasattr(a[0], str(a[1]))", "built-in hasattr"),
                            ("type(a)", "built-in type"), ("id(a)", "built-in id")]:
        with pytest.raises(Undescribable, match=construct):
            _text(f"for v in a:\n    stats['loop_iterations'] += 1\nreturn ({call}, stats)")
    marker = _text("m = object()\nfor v in a:\n    stats['loop_iterations'] += 1\nreturn (a[0] is m, stats)")
    assert "Set m to a new marker object, equal to nothing but itself." in marker
    held = _text("g = len\nfor v in a:\n    stats['loop_iterations'] += 1\nreturn (g(a), stats)")
    assert "what the function held in g gives back when called with a" in held


def test_from_imports_are_read_as_their_module_function_or_dropped_naming_it():
    text = _text("for v in a:\n    stats['loop_iterations'] += 1\nreturn (floor(a[0] / 2), stats)",
                 helpers="from math import floor")
    assert "rounded down to a whole number" in text
    counted = _text("for v in a:\n    stats['loop_iterations'] += 1\nreturn (Counter(a), stats)",
                    helpers="from collections import Counter")
    assert "a new dictionary from each distinct item of a, in order of first appearance, to how many times" in counted
    with pytest.raises(Undescribable, match=r"imported function itertools\.batched"):
        _text("for v in a:\n    stats['loop_iterations'] += 1\nreturn (list(batched(a, 2)), stats)",
              helpers="from itertools import batched")
    chained = _text("for v in a:\n    stats['loop_iterations'] += 1\nreturn (list(chain(a, a)), stats)",
                    helpers="from itertools import chain")  # vocab/lib_itertools.py has its words
    assert "the results of going through the items of a and the items of a, one after the other, in order" in chained


def test_isinstance_against_a_module_tuple_of_types_names_each_type():
    text = _text("for v in a:\n    stats['loop_iterations'] += 1\nreturn (isinstance(a, KINDS), stats)",
                 helpers="KINDS = (bytes, bytearray)")
    assert "a is bytes or a changeable bytes value" in text


def test_module_names_bound_to_a_method_or_a_namedtuple_are_said_where_they_are_used():
    helpers = ("import re\nfrom collections import namedtuple\n_join = ''.join\n_bits = int.bit_length\n"
               "Pair = namedtuple('Pair', 'low high')\n_digit = re.compile(r'[0-9]')")
    text = _text("for v in a:\n    stats['loop_iterations'] += 1\n"
                 "return ((_join(a), _bits(len(a)), Pair(1, 2), _digit.search(b, 2)), stats)", "a, b", helpers)
    assert "the items of a joined into one text with nothing between them" in text
    assert "the number of binary digits of the absolute value of (the length of a)" in text
    assert "Pair makes a tuple whose items are also named low and high" in text and "a new Pair tuple of 1 and 2" in text
    assert "in b beginning at position 2 or later (the start of the text stays at position 0)" in text
    assert "_join is" not in text and holds_code(text) == []


def test_an_empty_class_is_a_kind_of_marker_object_and_a_class_with_class_fields_is_dropped():
    text = _text("for v in a:\n    stats['loop_iterations'] += 1\nreturn (a[0] is MISSING, stats)",
                 helpers='class _Missing:\n    "A marker."\n    pass\n\nMISSING = _Missing()')
    assert "_Missing is a kind of object of its own with nothing in it (each one made equals only itself)" in text
    assert "MISSING is a new object of the class _Missing" in text
    with pytest.raises(Undescribable, match="class other than a kind of error"):
        _text("for v in a:\n    stats['loop_iterations'] += 1\nreturn (a, stats)",
              helpers="class Box:\n    size = 3\n\n    def get(self):\n        return self.size")


def test_an_exact_type_check_a_shallow_copy_and_a_function_name_are_said_in_words():
    text = _text("for v in a:\n    stats['loop_iterations'] += 1\n"
                 "if type(a) is list:\n    return (copy.copy(a), stats)\n"
                 "return (int != type(a[0]), stats)", helpers="import copy")
    assert "If a is exactly a list (of that very kind, not of a kind built on it)" in text
    assert "a shallow copy of a (a list, dictionary or set becomes a new one holding the very same items" in text
    assert "whether item 0 of a is not exactly a whole number (of that very kind: true and false do not count" in text
    named = _text("for v in a:\n    stats['loop_iterations'] += 1\nreturn (g(a), stats)",
                  helpers="def g(c, e=str):\n    return e(c) + e.__name__")
    assert "e is the built-in function str (called with a value, it gives that value written as text)" in named
    assert "the name of the function or class held in e" in named
    assert holds_code(text) == [] and holds_code(named) == []
    for written in ("type(a) is object", "type(a) == type(v)()"):  # no exact kind named: still dropped
        with pytest.raises(Undescribable):
            _text(f"for v in a:\n    stats['loop_iterations'] += 1\nreturn (type(a).__name__ if {written} else 0, stats)")


def test_a_module_level_text_used_only_as_a_pattern_is_said_as_the_pattern_where_it_is_used():
    helpers = "import re\n_VAR = r'\\$\\((\\w+)\\)'\n_SHOWN = 'x+'"
    text = _text("for v in a:\n    stats['loop_iterations'] += 1\n"
                 "return ((re.search(_VAR, b), re.match(_SHOWN, b), _SHOWN), stats)", "a, b", helpers)
    assert 'the first match of the pattern matching (the text "$(", then (group 1' in text
    assert "the match of the pattern matching the text \"x\" repeated 1 or more times" in text
    assert "_VAR is" not in text and '_SHOWN is "x+"' in text  # a text also used as text stays a fixed value
    assert holds_code(text) == []


def test_a_changing_method_kept_in_a_name_is_said_with_the_object_it_belongs_to():
    text = _text("out = []\nadd = out.append\nfor v in a:\n    stats['loop_iterations'] += 1\n    add(v)\n"
                 "out = [out]\nadd = out.append\nadd(0)\nreturn (out, stats)")  # stored twice: not read in place
    assert "Set add to the method append of out (it belongs to the very object out holds now" in text
    assert "Put v at the end of the object add belongs to." in text and holds_code(text) == []
    with pytest.raises(Undescribable, match="attribute out.append"):  # used as a value too: not a kept method
        _text("out = []\nadd = out.append\nfor v in a:\n    stats['loop_iterations'] += 1\n    add(v)\n"
              "out = [out]\nadd = out.append\nreturn ((out, add), stats)")


def _wildcard_by_the_words(wildcard: str, text: str) -> bool:
    """Whether the wildcard matches all of the text, read as `wildcards.RULE` says, not as fnmatch does it."""
    pieces, i = [], 0
    while i < len(wildcard):
        c, i = wildcard[i], i + 1
        end = wildcard.find("]", i + (wildcard[i:i + 1] == "!") + (wildcard[i + (wildcard[i:i + 1] == "!"):][:1] == "]"))
        if c == "[" and end >= 0:
            body, i = wildcard[i:end], end + 1
            negated, spans, k = body.startswith("!"), [], int(body.startswith("!"))
            while k < len(body):  # "a character followed by - and one more character" is a range
                wide = body[k + 1:k + 2] == "-" and k + 2 < len(body)
                spans.append((body[k], body[k + 2] if wide else body[k]))
                k += 3 if wide else 1
            pieces.append(lambda ch, s=spans, n=negated: any(lo <= ch <= hi for lo, hi in s) != n)
        else:
            pieces.append(c if c == "*" else (lambda ch: True) if c == "?" else (lambda ch, c=c: ch == c))

    def rest(p: int, t: int) -> bool:
        if p == len(pieces):
            return t == len(text)
        if pieces[p] == "*":
            return any(rest(p + 1, u) for u in range(t, len(text) + 1))
        return t < len(text) and pieces[p](text[t]) and rest(p + 1, t + 1)
    return rest(0, 0)


def test_the_words_for_a_wildcard_match_what_fnmatch_does_on_random_wildcards():
    import fnmatch
    import random

    from ifforge.families.logicif.codeops.describe.wildcards import RULE
    for said in ('"*" matches any run of characters (none, one or more, line breaks included)',  # what the
                 '(a "]" just after the "[", or just after "[!", belongs to the set)',  # reading below does
                 'a character followed by "-" and one more character standing for every character from the first',
                 'from a place in a text only by taking all the rest of the text', "capital and small letters apart"):
        assert said in RULE
    rng = random.Random(7)
    for _ in range(3000):  # the characters a wildcard gives a meaning to, and a few plain ones
        wildcard = "".join(rng.choice("ab-!]^[*?\\z\n&") for _ in range(rng.randint(0, 8)))
        text = "".join(rng.choice("ab-!]^[*?\\z\n") for _ in range(rng.randint(0, 6)))
        assert _wildcard_by_the_words(wildcard, text) == fnmatch.fnmatchcase(text, wildcard), (wildcard, text)
        found = re.compile(fnmatch.translate(wildcard)).search(text)  # from a place: all the rest, or nothing
        first = next((s for s in range(len(text) + 1) if _wildcard_by_the_words(wildcard, text[s:])), None)
        assert (found and found.start()) == first or found is None and first is None, (wildcard, text)


def test_a_copy_of_the_wildcard_translation_is_said_by_the_wildcard_rules_and_a_changed_one_is_dropped():
    import fnmatch
    import inspect
    import textwrap
    translate = textwrap.dedent(inspect.getsource(fnmatch.translate)).replace("def translate(pat)", "def g(pat)")
    uses = ("for v in a:\n    stats['loop_iterations'] += 1\nm = re.compile(g(b)).match\n"
            "return (m(a[0]) is not None, stats)")
    text = _text(uses, "a, b", helpers=f"import re\n\n{translate}")
    assert "A helper you will use, g, takes pat and makes a pattern from the wildcard pat, doing this:" in text
    assert "the match of the pattern made from the wildcard b at the very start of item 0 of a, or None" in text
    assert ('"?" matches any one character' in text) and holds_code(text) == []
    assert '")\\\\Z"' in text and '"\\\\n"' in _text("return (fr'\\n{a}', stats)")  # a raw f-string's backslash is itself
    changed = translate.replace("add('.')", "add('..')")
    with pytest.raises(Undescribable, match="regular expression that is not written in the code"):
        _text(uses, "a, b", helpers=f"import re\n\n{changed}")


def _shown_by_the_words(value) -> str:
    """The 'shown' and 'repr' rules read as a person would, to compare with Python's own display."""
    if isinstance(value, str):
        quote = '"' if "'" in value and '"' not in value else "'"
        escapes = {"\\": "\\\\", quote: "\\" + quote, "\n": "\\n", "\t": "\\t", "\r": "\\r"}
        return quote + "".join(escapes.get(ch) or (ch if ch.isprintable() else f"\\x{ord(ch):02x}" if ord(ch) < 256
                                                   else f"\\u{ord(ch):04x}" if ord(ch) < 65536 else
                                                   f"\\U{ord(ch):08x}") for ch in value) + quote
    if isinstance(value, list):
        return "[" + ", ".join(map(_shown_by_the_words, value)) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(map(_shown_by_the_words, value)) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_shown_by_the_words(k)}: {_shown_by_the_words(v)}" for k, v in value.items()) + "}"
    return str(value)  # a number, true, false or None, written as text


def test_a_plain_value_is_shown_as_python_displays_it_and_anything_else_is_dropped():
    import random

    rng = random.Random(7)
    pieces = ["", "it's", 'say "hi"', "both ' \"", "a\\b\n\t\r\x00\x85é€\U0001F600", 3, -2.5, 1e22, True, None]
    for _ in range(300):
        value = [rng.choice(pieces), (rng.choice(pieces),), {rng.choice(["k", "'"]): [rng.choice(pieces)]}]
        assert _shown_by_the_words(value) == repr(value)
    text = _typed("for v in a:\n    stats['loop_iterations'] += 1\nreturn (repr(a), stats)", {"a": "list[int]"})
    assert "a as Python displays it" in text and "round brackets for a tuple (with a comma after its item" in text
    assert "backslash-n" in text and holds_code(text) == []
    helper = ("def g(x):\n    try:\n        s = repr(x)\n    except Exception:\n        s = object.__repr__(x)\n"
              "    return s[:5]")
    fed = _text("for v in a:\n    stats['loop_iterations'] += 1\nreturn (tuple(map(g, a)), stats)", helpers=helper)
    assert "Set s to x as Python displays it." in fed and "Try" not in fed  # its handler can never run
    for body, helpers in [("b = [set(a)]\nfor v in a:\n    stats['loop_iterations'] += 1\nreturn (repr(b), stats)", ""),
                          ("b = [[]]\nb[0].append({1})\nfor v in a:\n    stats['loop_iterations'] += 1\n"
                           "return (repr(b[1:]), stats)", ""),  # a set put into a list makes nothing plain
                          ("h({2})\nfor v in a:\n    stats['loop_iterations'] += 1\nreturn (sorted(a, key=h), stats)",
                           "def h(x):\n    return repr(x)")]:  # a helper also given a set
        with pytest.raises(Undescribable, match="built-in repr"):
            _text(body, helpers=helpers)


def test_printing_shows_a_line_that_changes_neither_the_result_nor_any_counter():
    text = _text("for v in a:\n    stats['loop_iterations'] += 1\n    print(v, 'x', sep='-')\nprint()\n"
                 "print(f'{a}', end='')\nreturn (0, stats)")
    assert 'Show v written as text and "x" on one line, with "-" between each two (showing it changes' in text
    assert "Show an empty line" in text and 'then "" (empty text) (and no line break)' in text
    assert "changes neither the result nor any counter" in text and holds_code(text) == []
    with pytest.raises(Undescribable, match="printing somewhere other than the screen"):
        _text("print(a, file=b)\nreturn (0, stats)", "a, b")


def test_bytes_of_numbers_a_starred_unpacking_and_a_bound_pattern_method_are_said_in_words():
    text = _text("for v in a:\n    stats['loop_iterations'] += 1\n    c = bytes((v,))\n    if c == b'0':\n"
                 "        assert False, 'no'\nfirst, *rest, last = _pieces(b, 1)\n"
                 "return ((ord(b'A'), first, rest, last), stats)", "a, b",
                 helpers="import re\n_pieces = re.compile(r'[,;]').split")
    assert "Set c to the bytes holding just the one value v (it must be from 0 to 255)." in text
    assert 'If c equals the bytes "0", stop with an error.' in text
    assert 'the value of the one byte of the bytes "A"' in text
    assert ("Taking the items of the list of pieces of b split at only the first match of the pattern matching one "
            "character that is one of") in text
    assert "(there must be at least 2), set first to the first, rest to a new list of those in between and last to " \
           "the last." in text
    assert "_pieces is a function which, called with a text, gives the list of pieces of that text split" in text
    assert holds_code(text) == []


def test_a_pattern_built_when_the_module_loads_is_said_when_no_order_of_its_sets_changes_what_it_matches():
    body = "for v in a:\n    stats['loop_iterations'] += 1\nfirst, *rest = _pieces(b, 1)\nreturn ((first, rest), stats)"
    text = _text(body, "a, b", helpers="import re\nWSP = set(' \\t')\n"
                                      "_pieces = re.compile(r'([{}]+)'.format(''.join(WSP))).split")
    assert 'split at only the first match of the pattern matching group 1, which is (one character that is one of: ' \
           '"\\t"; " ") repeated 1 or more times' in text  # the set's items said in sorted order, on every run
    assert holds_code(text) == []
    said = _text("return (re.split('[' + '%s' % ''.join(frozenset(';,')) + ']', b), stats)", "a, b",
                 helpers="import re")
    assert 'split at every match of the pattern matching one character that is one of: ","; ";"' in said
    for built, why in [("''.join(set('ab'))", "order changes"),  # a set joined outside a character class
                       ("'[{}]'.format(''.join(set('a-z')))", "order changes"),  # a range in some orders only
                       ("'[{}]'.format(''.join(set('^ab')))", "order changes"),  # "none of" in some orders only
                       ("'[{}]'.format(''.join(set('abcdefg')))", "too large")]:
        with pytest.raises(Undescribable, match=why):
            _text(f"return (re.split({built}, b), stats)", "a, b", helpers="import re")


def test_a_yes_or_no_phrase_tested_is_said_as_its_clause_or_its_denial():
    code = ("import os\ndef f(a):\n    n = 0\n    for ch in a:\n        if not os.path.isabs(ch):\n"
            "            n += 1\n        elif os.path.isabs(ch + ch):\n            n -= 1\n    return n, {}\n")
    text = describe(code, [], {}, "int")
    assert 'If it is not the case that ch starts with "/"' in text
    assert "whether" not in text.split("LOGICS")[1].split("OUTPUTS")[0] and "counts as" not in text, text
    assert not holds_code(text), holds_code(text)


def _main_steps(code: str, types: dict[str, str]) -> list[str]:
    """The main steps of `code`'s description with the inputs' declared types, one per line."""
    text = describe(code, [], types, "int")
    assert not holds_code(text), holds_code(text)
    return [line.strip() for line in text.split("The main steps")[1].split("\nOUTPUTS:")[0].splitlines()[1:]
            if line.strip()]


def test_an_operator_is_said_for_the_kinds_its_operands_have_or_not_at_all():
    # `%` on text formats, it is no remainder: a template the code does not write is said as what printf-style
    # formatting makes of it; one that may be text or a number has no exact words
    assert _main_steps("def f(a, b):\n    return a % b\n", {"a": "str", "b": "int"})[0].startswith(
        "1. Return the text that Python's printf-style formatting makes from the template a and the value b.")
    with pytest.raises(Undescribable, match="%|formatting"):
        describe("def f(a, b):\n    return a % b\n", [], {"a": "Union[int, str]", "b": "int"}, "int")
    assert _main_steps("def f(a, b):\n    return a % b\n", {"a": "int", "b": "int"})[0].startswith(
        "1. Return the remainder of a divided by b.")
    with pytest.raises(Undescribable, match="template"):  # a tuple on the right: the left must be a template
        describe("def f(a, b):\n    return a % (b, b)\n", [], {}, "int")
    # a module-level template is one text in every case: said field by field ("%d-%s" % (7, "x") == "7-x")
    assert _main_steps("T = '%d-%s'\ndef f(a, b):\n    return T % (a, b)\n", {"a": "int", "b": "str"}) == [
        '1. Return the text made of a written as a whole number (a decimal number is cut toward zero first), '
        'followed by "-", followed by b written as text. (Note: Written as text, 2.0 gives "2.0", true gives "True" '
        'and None gives "None".)']
    # text times a count is repetition ("ab" * 3 == "ababab", "ab" * 0 == "")
    assert _main_steps("def f(a, b):\n    return b * a\n", {"a": "str", "b": "int"}) == [
        "1. Return the text made of b copies of a, end to end (empty text when b is 0 or less)."]
    # `&` and `^` on true and false give true or false ((1 > 0) & (2 > 0) is True, not 1)
    assert _main_steps("def f(a, b):\n    x = (a > 0) & (b > 0)\n    return x ^ (a < b)\n", {"a": "int", "b": "int"}) == [
        "1. Set x to whether both (a is greater than 0) and (b is greater than 0).",
        "2. Return whether exactly one of these holds: x; (a is less than b)."]


def test_sets_lists_and_texts_change_in_place_by_their_own_meaning_of_an_operator():
    code = ("def f(a, b):\n    s = set(a)\n    t = {1, 2}\n    s |= t\n    s -= {3}\n    s ^= t\n    r = []\n"
            "    r += b\n    if s < t:\n        return r\n    return max(b, 'm')\n")
    assert _main_steps(code, {"a": "list[int]", "b": "str"}) == [
        "1. Set s to a new set of the distinct items of a; t to a new set of 1 and 2.",
        "2. Add every item of t to the set s.",
        "3. Remove from the set s every item of a new set holding just 3 that it holds.",
        "4. For each distinct item of t: remove it from the set s if it is there, otherwise add it.",
        "5. Set r to a new empty list.",
        "6. Put every item of b at the end of the list r, in order.",  # r += "xy" gives ["x", "y"]
        "7. If s is a proper subset of t (every item of s is in t, and t has more items), return r.",
        "8. Return the larger of b and \"m\". (Note: Texts compare character by character by Unicode code point "
        "(digits, then capitals, then lowercase; a text before any longer text it starts), lists and tuples item by "
        "item.)"]
    r = []
    r += "xy"
    assert r == ["x", "y"] and {1} < {1, 2} and not {1, 2} < {1, 2} and max("b", "m") == "m"


def test_printf_fields_are_said_by_the_kind_of_their_value():
    # %c on a one-character text is that character; + on a text field changes nothing ("%c|%+s" % ("x", 5) == "x|5")
    assert _main_steps("def f(a, b):\n    return '%c|%+s' % (a, b)\n", {"a": "str", "b": "int"}) == [
        '1. Return the text made of a written as text, followed by "|", followed by b written as text. (Note: Written '
        'as text, 2.0 gives "2.0", true gives "True" and None gives "None".)']
    assert "%c|%+s" % ("x", 5) == "x|5" and "%.3d" % 5 == "005"
    assert "zeros put before its digits to make at least 3" in describe("def f(a):\n    return '%.3d' % a\n", [],
                                                                       {"a": "int"}, "int")  # "%.3d" % 5 == "005"
    with pytest.raises(Undescribable, match="precision"):  # "%.3x" % 255 == "0ff": no words here
        describe("def f(a):\n    return '%.3x' % a\n", [], {"a": "int"}, "int")
    # a tuple's items fill the fields ("%s" % (1,) == "1"), and must be as many as the fields
    assert "the first item of t written as text (the steps stop with an error unless t has exactly 1 item)" in \
        describe("def f(a):\n    t = (a, a)\n    return '%s' % t\n", [], {"a": "int"}, "int")


def test_a_list_written_as_text_is_its_display_and_a_set_is_not_said():
    steps = _main_steps("def f(a):\n    x = [a, a]\n    return f'{x}' + str(x)\n", {"a": "int"})
    assert steps[1].startswith("2. Return (x as Python displays it) plus (x as Python displays it).")
    assert f"{[1, 1]}" + str([1, 1]) == "[1, 1][1, 1]" and str(["a"]) == "['a']"  # items shown as Python shows them
    with pytest.raises(Undescribable, match="written as text"):  # a set's display follows its own order
        describe("def f(a):\n    return str(set(a))\n", [], {"a": "list[int]"}, "int")
    assert "joins them end to end" in "\n".join(_main_steps("def f(a):\n    return sum(a, [])\n", {"a": "list"}))


def test_pieces_written_side_by_side_with_a_formatted_one_are_one_text():
    """`rf"<{tag}" "}x"` has no value before it runs (libcst gives None): the pieces are said in
    order as one text, the written ones joined, never as bytes."""
    text = _text('v = rf"<(?P<t>{a})\\b" "{x}" f"{a}!"\nreturn (v, stats)', params="a")
    assert ('the text made of "<(?P<t>", followed by a written as text, followed by ")\\\\b{x}", followed by a '
            'written as text, followed by "!"') in text
