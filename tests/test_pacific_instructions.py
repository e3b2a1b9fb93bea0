"""PACIFIC's instruction pool: shape, types, edge cases, and values worked out by hand."""

import ast
import json
import random

import pytest

from ifforge.families.pacific import chains, instructions
from ifforge.families.pacific.instructions import REGISTRY, get, run_python

INTS = [0, 1, -1, 2, -7, 9, 10, 99, 1000, 999999, 10**30]
STRINGS = ["", "a", "Z", "abc", "Hello, World!", "zzz", "ünïcödé", "  spaced  ", "aAbB09"]

# (id, args, input, expected), each worked out from the instruction's English text
BY_HAND = [
    ("next_prime", {}, 7, 11), ("next_prime", {}, -3, 1000003), ("next_prime", {}, 0, 2),
    ("next_square", {}, 9, 16), ("next_square", {}, -5, 0), ("next_square", {}, 10, 16),
    ("digits_at_two", {}, 123, 11), ("digits_at_two", {}, -10, 2),
    ("invert_bits", {}, 5, 10), ("invert_bits", {}, 0, 1), ("invert_bits", {}, -12, 3),
    ("digit_sum", {}, -456, 15), ("digit_sum", {}, 0, 0),
    ("reverse_digits", {}, 1200, 21), ("reverse_digits", {}, -35, -53),
    ("collatz_step", {}, 6, 3), ("collatz_step", {}, -3, -8), ("collatz_step", {}, 0, 0),
    ("count_ones", {}, 7, 3), ("count_ones", {}, -8, 1),
    ("mod_add", {"add": 3, "mod": 7}, 5, 1), ("mod_add", {"add": 3, "mod": 7}, -10, 0),
    ("digits_to_pairs", {}, 305, "ghabkl"), ("digits_to_pairs", {}, -9, "st"),
    ("word_at", {}, 3, "cloud"), ("word_at", {}, -2, "lemon"),
    ("roman", {}, 1994, "MCMXCIV"), ("roman", {}, 20000, "N"), ("roman", {}, -1, "MMMMMMMMMCMXCIX"),
    ("weekday", {}, 3, "Wednesday"), ("weekday", {}, -1, "Saturday"),
    ("binary", {}, 5, "101"), ("binary", {}, -2, "-10"), ("binary", {}, 0, "0"),
    ("base3", {}, 5, "12"), ("base3", {}, -3, "-10"),
    ("hex", {}, 255, "ff"), ("hex", {}, -16, "-10"),
    ("alternate_caps_reverse", {}, "abcd", "dCbA"), ("alternate_caps_reverse", {}, "", ""),
    ("sort_characters", {}, "bAa1 ", " 1Aab"), ("sort_characters", {}, "", ""),
    ("shift_back_one", {}, "Abz!", "Zay!"), ("shift_back_one", {}, "", ""),
    ("caesar", {"key": 3}, "xyz-A", "abc-D"), ("caesar", {"key": 25}, "b", "a"),
    ("vowels_to_gh", {}, "Oyster", "ghystghr"), ("vowels_to_gh", {}, "", ""),
    ("move_prefix", {}, "abcab", "ababc"), ("move_prefix", {}, "cba", "bac"), ("move_prefix", {}, "", ""),
    ("swap_case", {}, "aB-ü", "Ab-ü"),
    ("dedupe_characters", {}, "banana", "ban"), ("dedupe_characters", {}, "aAa", "aA"),
    ("rotate_left", {"k": 2}, "hello", "llohe"), ("rotate_left", {"k": 4}, "abc", "bca"),
    ("rotate_left", {"k": 1}, "", ""),
    ("run_length", {}, "aaab", "3a1b"), ("run_length", {}, "", ""),
    ("alphabet_sum", {}, "Abc!", 6), ("alphabet_sum", {}, "", 0),
    ("code_sum", {}, "AB", 131), ("code_sum", {}, "", 0),
    ("length", {}, " a, ", 4), ("count_vowels", {}, "AEiy", 3), ("count_vowels", {}, "", 0),
    ("first_code", {}, "a", 97), ("first_code", {}, "", 0),
    ("distinct_count", {}, "aAbba", 3), ("distinct_count", {}, "", 0),
]


def test_the_pool_is_large_and_covers_every_type_combination():
    assert len(REGISTRY) >= 28
    combos = {}
    for instruction_id, cls in REGISTRY.items():
        assert cls.id == instruction_id
        combos[(cls.input_type, cls.output_type)] = combos.get((cls.input_type, cls.output_type), 0) + 1
        assert cls.conflicts <= set(REGISTRY), instruction_id
    assert set(combos) == {("int", "int"), ("int", "str"), ("str", "str"), ("str", "int")}
    assert min(combos.values()) >= 5, combos


def test_every_instruction_is_hand_checked():
    assert {case[0] for case in BY_HAND} == set(REGISTRY)


@pytest.mark.parametrize("instruction_id,args,value,expected", BY_HAND)
def test_values_worked_out_by_hand(instruction_id, args, value, expected):
    assert run_python(get(instruction_id, **args), value) == expected


@pytest.mark.parametrize("instruction_id", sorted(REGISTRY))
def test_edge_values_give_the_declared_type_deterministically(instruction_id):
    cls = REGISTRY[instruction_id]
    instruction = cls(**cls.sample_args(random.Random(5)))
    for value in INTS if cls.input_type == "int" else STRINGS:
        out = run_python(instruction, value)
        assert not isinstance(out, bool)
        assert isinstance(out, int if cls.output_type == "int" else str), (value, out)
        assert run_python(instruction, value) == out and json.loads(json.dumps(out)) == out


@pytest.mark.parametrize("instruction_id", sorted(REGISTRY))
def test_code_is_one_function_of_one_argument_and_text_is_english(instruction_id):
    cls = REGISTRY[instruction_id]
    instruction = cls(**cls.sample_args(random.Random(2)))
    tree = ast.parse(instruction.python("step_3"))
    assert len(tree.body) == 1 and isinstance(tree.body[0], ast.FunctionDef)
    assert tree.body[0].name == "step_3" and len(tree.body[0].args.args) == 1
    text = instruction.describe()
    assert text.endswith(".")
    text = text.split(" that order is: ")[0]  # the sort's listing names characters ({ % `), not code
    assert "{" not in text
    for marker in ("`", "==", "//", "**", "lambda", "def ", "%"):
        assert marker not in text, (instruction_id, marker)


def test_arguments_are_checked_and_unknown_ids_named():
    with pytest.raises(ValueError, match="takes arguments \\['key'\\]"):
        get("caesar")
    with pytest.raises(ValueError, match="unknown instruction 'nope'"):
        get("nope")
    assert instructions.get("caesar", key=4).args() == {"key": 4}


PRINTABLE = "".join(chr(c) for c in range(32, 127))  # the portable domain's characters


def english_sort_order() -> str:
    """The character order sort_characters' English states, read word by word: `space`, `X to Y`
    ranges, and single characters; other words join the runs."""
    text = get("sort_characters").describe()
    tokens = text.split("that order is: ", 1)[1].removesuffix(" at the end.").split(" ")
    order, i = [], 0
    while i < len(tokens):
        if tokens[i] == "space":
            order.append(" ")
        elif len(tokens[i]) == 1 and tokens[i + 1:i + 2] == ["to"]:
            order += [chr(c) for c in range(ord(tokens[i]), ord(tokens[i + 2]) + 1)]
            i += 2
        elif len(tokens[i]) == 1:
            order.append(tokens[i])
        i += 1
    return "".join(order)


def test_the_sort_english_places_every_printable_character_where_the_gold_does():
    order = english_sort_order()
    assert sorted(order) == sorted(PRINTABLE) and len(order) == len(PRINTABLE)
    rng = random.Random(3)
    for _ in range(200):
        value = "".join(rng.choice(PRINTABLE) for _ in range(rng.randint(0, 40)))
        assert run_python(get("sort_characters"), value) == "".join(sorted(value, key=order.index)), value
        # move_prefix's "never decrease in Unicode code point" is the same order
        end = 1
        while end < len(value) and order.index(value[end - 1]) <= order.index(value[end]):
            end += 1
        assert run_python(get("move_prefix"), value) == value[end:] + value[:end], value


def test_every_sort_step_of_generated_chains_matches_the_english():
    order = english_sort_order()
    sorts = 0
    for seed in range(3):
        for chain in chains.build_all(seed, [3, 8, 15], [3, 5, 10], 4, sorted(REGISTRY)):
            inputs = [chain.initial_input] + chain.planned[:-1]
            for step, value, out in zip(chain.steps, inputs, chain.planned):
                assert not isinstance(out, str) or set(out) <= set(order), (chain.task_id, out)
                if step.id == "sort_characters":
                    sorts += 1
                    assert out == "".join(sorted(value, key=order.index)), (chain.task_id, value)
    assert sorts > 20
