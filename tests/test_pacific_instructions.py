"""PACIFIC's instruction pool: shape, types, edge cases, and values worked out by hand."""

import ast
import json
import random

import pytest

from ifforge.families.pacific import instructions
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
    assert text.endswith(".") and "{" not in text
    for marker in ("`", "==", "//", "**", "lambda", "def ", "%"):
        assert marker not in text, (instruction_id, marker)


def test_arguments_are_checked_and_unknown_ids_named():
    with pytest.raises(ValueError, match="takes arguments \\['key'\\]"):
        get("caesar")
    with pytest.raises(ValueError, match="unknown instruction 'nope'"):
        get("nope")
    assert instructions.get("caesar", key=4).args() == {"key": 4}
