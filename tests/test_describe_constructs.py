"""Constructs met on held-out code (issue 38), each said in words whose expected text was traced by hand
from the construct's meaning in Python: a fold (`functools.reduce`), a binary search (`bisect`), NaN
checks, an error kept only to be shown, text decoded with an encoding given by keyword."""

import re

import pytest

from ifforge.families.logicif.codeops.describe import vocab
from ifforge.families.logicif.codeops.describe.regex import gloss
from ifforge.families.logicif.codeops.describe.narrate import Undescribable, describe, holds_code


def _steps(source: str) -> list[str]:
    text = describe(source, [], {}, "int")
    assert not holds_code(text)
    main = text.split("\nThe main steps")[1].split("\nOUTPUTS:")[0]
    return [line.strip() for line in main.splitlines()[1:] if line.strip()]


def test_a_fold_with_a_lambda_starts_from_the_first_item_and_says_the_empty_case():
    steps = _steps("from functools import reduce\ndef f(xs):\n    return reduce(lambda a, b: a - b, xs)\n")
    assert steps == ["1. Return the result of combining the items of xs from first to last: start with the first item "
                     "of xs as the result so far (with no items at all, the steps stop with an error), then for each "
                     "following item in order, replace the result so far by (a minus b) (with a standing for the "
                     "result so far and b for the item)."]


def test_a_fold_with_a_start_value_and_a_helper():
    steps = _steps("import functools\ndef f(xs):\n    def h(a, b):\n        return a * 2 + b\n"
                   "    return functools.reduce(h, xs, 10)\n")
    assert steps[-1] == ("2. Return the result of combining the items of xs from first to last: start with 10 as the "
                         "result so far, then for each item of xs in order, replace the result so far by what the "
                         "helper h gives back for the result so far and the item.")


def test_a_fold_with_a_function_it_cannot_name_is_not_said():
    with pytest.raises(Undescribable, match="functools.reduce"):
        describe("from functools import reduce\ndef f(xs, fs):\n    return reduce(fs[0], xs)\n", [], {}, "int")


def test_a_binary_search_names_its_side_and_spells_the_search_once_from_the_library_file():
    steps = _steps("import bisect\ndef f(xs, x):\n    i = bisect.bisect_right(xs, x)\n"
                   "    bisect.insort(xs, x)\n    j = bisect.bisect_left(xs, x)\n    return i - j\n")
    assert steps[0].startswith("1. Set i to the rightmost place for x in xs, found by binary search. (Note: The "
                               "leftmost (or rightmost) place for x in a list, found by binary search: start with "
                               "low at 0 and high at the length of the list;")
    assert not holds_code(steps[0])
    assert steps[1] == ("2. Insert x into xs at the rightmost place for it, found by binary search (the items from "
                        "there on move one place later).")  # the note is said once
    assert steps[2] == "3. Set j to the leftmost place for x in xs, found by binary search."
    assert vocab.RULES["bisect"] in describe("import bisect\ndef f(xs, x):\n    return bisect.bisect(xs, x)\n",
                                             [], {}, "int")


def test_a_binary_search_over_part_of_the_list_is_not_said():
    with pytest.raises(Undescribable, match="bisect"):
        describe("import bisect\ndef f(xs, x):\n    return bisect.bisect_left(xs, x, 1)\n", [], {}, "int")


def test_nan_and_infinity_checks():
    steps = _steps("import math\ndef f(x):\n    if math.isnan(x) or math.isinf(x):\n        return 0\n    return x\n")
    assert steps[0].startswith("1. If x is the special decimal value NaN (not a number; only arithmetic such as "
                               "infinity minus infinity makes it) or (x is infinity or minus infinity), return 0.")


def test_an_error_kept_only_to_be_shown_is_named_and_one_used_otherwise_is_not_said():
    shown = _steps("def f(xs):\n    try:\n        return xs[0] + 1\n    except TypeError as error:\n"
                   "        print(error)\n")
    assert shown[2] == ("If any of those steps fails with an error of the kind TypeError, stop them right there "
                        "(calling the error error) and instead:")
    assert shown[3].startswith("1.x1. Show error written as text on a line of its own (showing it changes neither")
    with pytest.raises(Undescribable, match="keeps the error object"):
        describe("def f(xs):\n    try:\n        return xs[0]\n    except TypeError as e:\n        return str(e)\n",
                 [], {}, "int")


def test_text_decoded_with_the_encoding_given_by_keyword_reads_as_given_second():
    by_keyword = _steps("def f(x):\n    return str(x, encoding='utf8')\n")
    second = _steps("def f(x):\n    return str(x, 'utf8')\n")
    assert by_keyword == second
    assert by_keyword[0].startswith('1. Return the text the bytes x spell in the encoding "utf8" (the steps stop')


def test_a_value_of_its_own_kind_made_anew_is_said_as_that_built_in_when_the_kind_is_sure():
    source = "def f(d):\n    return type(d)([(k, 1) for k in d])\n"
    said = describe(source, [], {"d": "dict"}, "int")
    assert ("1. Return a new dictionary made from the pairs of (a new list of (the pair of k and 1), for each k of d in order) "
            "in order, each pair's first item a key and its second the value (a later pair with the same key "
            "replaces the value).") in said
    with pytest.raises(Undescribable, match="computed function"):  # of a kind not known: no words
        describe(source, [], {}, "int")


def test_a_dictionary_copied_keeps_keys_values_and_order():
    said = describe("def f(d):\n    e = dict(d)\n    return e\n", [], {"d": "dict"}, "int")
    assert "1. Set e to a new dictionary with the same keys and values as d, in the same order." in said


def test_the_name_of_a_values_kind():
    steps = _steps("def f(x):\n    return type(x).__name__\n")
    assert steps == ['1. Return the name of the kind of x ("int" for a whole number, "float" for a decimal number, '
                     '"str" for text, "bool" for true or false, "list", "tuple", "dict", "set", or "NoneType" for '
                     'None).']


def test_module_facts_are_found_by_registered_analyses_once_and_frozen():
    import dataclasses

    import libcst as cst

    from ifforge.families.logicif.codeops.describe import facts

    module = cst.parse_module("import re\nfrom math import floor as fl\nWORD = re.compile('a+')\nLIMIT = 3\n"
                              "def f(x):\n    add = x.append\n    add(1)\n    return fl(x[0])\n")
    found = facts.read(module, "stats", {"g"}, {"x": "list[int]"}, frozenset({"append"}))
    assert found.patterns == {"WORD"} and found.held == {"add": "append"}
    assert found.imported == {"fl": "math.floor"} and set(found.constants) == {"WORD", "LIMIT"}
    assert found.helpers == {"g"} and found.kinds == {"x": "list[int]"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        found.helpers = frozenset()
    with pytest.raises(TypeError):
        found.kinds["y"] = "int"


@pytest.mark.parametrize("body, construct", [
    ("    with open(x) as h:\n        return 1\n", "a with statement"),
    ("    match x:\n        case 1:\n            return 2\n", "the statement kind Match"),
    ("    async for y in x:\n        pass\n", "an async for loop"),
])
def test_a_statement_kind_with_no_handler_is_named_as_not_describable(body, construct):
    with pytest.raises(Undescribable) as raised:
        describe(f"def f(x):\n{body}    return 0\n", [], {}, "int")
    assert raised.value.construct == construct


def test_a_library_with_its_objects_methods_is_one_vocabulary_file(monkeypatch):
    """What a new file in vocab/ brings (as `vocab._register` reads it) is all the describer needs: its
    functions, its objects' methods and fields, and its rules; nothing else is edited."""
    import types

    for table in ("TABLE", "KINDS", "STEPS", "DECORATORS", "CONSTANTS", "RULES", "OBJECTS", "FILES"):
        monkeypatch.setattr(vocab, table, dict(getattr(vocab, table)))
    new = types.ModuleType("lib_fractions")
    new.LIBRARY = "fractions"
    new.WORDS = {"Fraction": lambda say, args, keywords: f"the fraction {say.grouped(args[0])} over "
                                                          f"{say.grouped(args[1])}{say.cite('lowest')}"}
    new.RULES = {"lowest": "A fraction is kept in lowest terms, its denominator positive."}
    new.OBJECTS = {"Fraction": {"fields": {"numerator": lambda say, made: f"the numerator of {say.value(made)}"},
                                "methods": {"limit_denominator": lambda say, made, args, keywords:
                                            f"the closest fraction to {say.value(made)} with a denominator of at "
                                            f"most {say.grouped(args[0])}"}}}
    vocab._register(new, new.LIBRARY, vocab.TABLE, vocab.KINDS, vocab.STEPS, vocab.DECORATORS)
    steps = _steps("from fractions import Fraction\ndef f(a, b):\n    n = Fraction(a, b).numerator\n"
                   "    return Fraction(a, b).limit_denominator(n)\n")
    assert steps == ["1. Set n to the numerator of the fraction a over b. (Note: A fraction is kept in lowest terms, "
                     "its denominator positive.)",
                     "2. Return the closest fraction to the fraction a over b with a denominator of at most n."]
    with pytest.raises(Undescribable, match="the method as_integer_ratio of fractions.Fraction"):
        describe("import fractions\ndef f(a):\n    return fractions.Fraction(a, 2).as_integer_ratio()\n",
                 [], {}, "int")


def test_a_pattern_built_at_load_time_from_the_string_modules_texts_is_said_as_the_parser_reads_it():
    """`'[' + string.punctuation + ']+'`: inside the class, "\\]" is an escaped bracket (so the backslash
    is not one of the characters) and ",-." is the range from "," to "."; traced from `string.punctuation`."""
    said = describe("import re\nimport string\nP = re.compile('[' + string.punctuation + ']+')\n"
                    "def f(text):\n    return P.split(text)\n", [], {"text": "str"}, "list")
    assert ('P is the pattern matching (one character that is one of: "!"; "\\""; "#"; "$"; "%"; "&"; "\'"; "("; ")"; '
            '"*"; "+"; from "," to "."; "/"; ":"; ";"; "<"; "="; ">"; "?"; "@"; "["; "]"; "^"; "_"; "`"; "{"; "|"; '
            '"}"; "~") repeated 1 or more times') in said
    assert not holds_code(said)


def test_an_assignment_inside_an_expression_names_the_value_where_it_is_set():
    """`(n := len(xs)) > 3`: n is set there, then compared; traced: xs of 5 items gives 5, of 2 gives 0."""
    steps = _steps("def f(xs):\n    if (n := len(xs)) > 3:\n        return n\n    return 0\n")
    assert steps == ["1. If (n, set at this point to the length of xs) is greater than 3, return n.", "2. Return 0."]


def test_a_match_iterator_gives_each_match_in_turn():
    """`re.finditer`: each item a match (its start, its text), left to right; traced on "a12b3": starts 1 and 4."""
    steps = _steps("import re\ndef f(s):\n    out = []\n    for m in re.finditer('[0-9]+', s):\n"
                   "        out.append(m.start())\n    return out\n")
    assert steps[1].startswith('2. For each m of (the matches of the pattern matching (one character that is one of: '
                               'from "0" to "9") repeated 1 or more times (as many as possible, giving back as the rest '
                               'of the pattern needs) in s, one after another, left to right and not overlapping '
                               '(each a match, not yet its text)), in order:')
    assert steps[2] == "2.1. Put the position in the text where the match m starts at the end of out."


def test_a_push_then_pop_on_a_heap_gives_the_smallest_after_adding():
    """`heapq.heappushpop(h, x)`: x is added first, so x itself comes back when it is the smallest (traced: h
    [1, 3] and x 0 give 0; x 2 gives 1); `heapreplace` takes out first."""
    steps = _steps("import heapq\ndef f(h, x):\n    y = heapq.heappushpop(h, x)\n    heapq.heappushpop(h, y)\n"
                   "    return heapq.heapreplace(h, x)\n")
    assert steps[0] == ("1. Set y to the smallest item of the heap h once x has been added to it, taken out of it. "
                        "(Note: A heap is a list from which taking out always removes the smallest item.)")
    assert steps[1] == "2. Add y to the heap h, then take the smallest item out of it."
    assert steps[2] == ("3. Return the smallest item of the heap h (which must not be empty), taken out of it, with "
                        "x added to the heap after that.")


def test_a_library_object_kept_in_a_name_has_its_methods_and_fields_said():
    """`d = date(y, m, 1)` then `d.weekday()`, `d.month`: traced on 2024, 1: a Monday, so 0 + 1 = 1. A name
    also bound another way (here a parameter) is not taken for the object."""
    steps = _steps("from datetime import date\ndef f(y, m):\n    d = date(y, m, 1)\n"
                   "    return d.weekday() + d.month\n")
    assert steps[0] == "1. Set d to the date day 1 of month m of year y (which must exist, in a year from 1 to 9999)."
    assert steps[1].startswith("2. Return (the weekday of d, as 0 for Monday up to 6 for Sunday) plus (the month of d "
                               "(1 to 12)).")
    with pytest.raises(Undescribable, match="the method isoformat of datetime.date"):
        describe("import datetime\ndef f(y):\n    d = datetime.date(y, 1, 1)\n    return d.isoformat()\n", [], {}, "int")
    with pytest.raises(Undescribable, match="weekday"):
        describe("from datetime import date\ndef f(y, d):\n    d = date(y, 1, 1)\n    return d.weekday()\n", [], {}, "int")


def test_a_value_written_as_json_says_the_writing_rules_once_and_each_keyword():
    """`json.dumps(d, sort_keys=True, indent=2)`; traced from the notes on {"b": [1], "a": None}: "{", then
    '  "a": null,' and '  "b": [', '    1', '  ]', then "}" (what `json.dumps` gives). Other keywords are not said."""
    steps = _steps("import json\ndef f(d):\n    return json.dumps(d, sort_keys=True, indent=2)\n")
    assert steps[0].startswith("1. Return the JSON text of d with the keys of every dictionary in it written in sorted "
                               "order (sorted as the keys are, before they are written as text), laid out on lines "
                               "with an indent of 2 spaces. (Note: The JSON text of a value is written thus: None as "
                               "null;")
    assert vocab.RULES["json"] in steps[0] and vocab.RULES["json_lines"] in steps[0]
    assert _steps("import json\ndef f(d):\n    return json.dumps(d)\n")[0] == \
        f"1. Return the JSON text of d. (Note: {vocab.RULES['json']})"
    by_name = describe("import json\ndef f(d, n):\n    return json.dumps(d, indent=n)\n", [], {"n": "int"}, "str")
    assert ("1. Return the JSON text of d, laid out on lines with an indent of n spaces (no spaces at all, only the "
            "line breaks, if n is 0 or less).") in by_name
    for keywords, construct in [("separators=(',', ':')", "arguments other than"), ("indent=-1", "indent"),
                                ("indent=k", "indent"), ("sort_keys=k", "sort_keys")]:
        with pytest.raises(Undescribable, match=construct):
            describe(f"import json\ndef f(d, k):\n    return json.dumps(d, {keywords})\n", [], {}, "str")


# ---- wording a hand trace found ambiguous (issue 38, s45 trace notes) --------------------------------
def test_a_repeat_inside_a_group_and_a_repeated_group_say_which_text_the_group_keeps():
    """`N([0-9]+)` against `N([0-9])+`: traced on "N093", group 1 is "093" for the first and "3" for the second;
    a list of characters repeated is bracketed, so "repeated" cannot belong to its last character alone."""
    assert re.match(r"N([0-9]+)", "N093")[1] == "093" and re.match(r"N([0-9])+", "N093")[1] == "3"
    digit = 'one character that is one of: from "0" to "9"'
    greedy = "as many as possible, giving back as the rest of the pattern needs"
    assert gloss(r"N([0-9]+)") == (f'the pattern matching (the text "N", then (group 1, which is ({digit}) repeated 1 or '
                                   f'more times ({greedy}; group 1 holds every repetition)))')
    assert gloss(r"N([0-9])+") == (f'the pattern matching (the text "N", then (group 1, which is {digit}) repeated 1 or '
                                   f'more times ({greedy}; group 1 keeps only the text of the last repetition))')
    # `(a)?` leaves group 1 out of the match when there is no "a"; `(a?)` makes it the empty text
    assert gloss("(a)?") == ('the pattern matching optionally (group 1, which is the text "a") (taken when it can be; '
                             'when it is left out, group 1 takes no part)')
    assert gloss("(a?)") == ('the pattern matching group 1, which is optionally the text "a" (taken when it can be; '
                             'group 1 is the empty text when it is left out)')
    assert gloss("[ab]+") == f'the pattern matching (one character that is one of: "a"; "b") repeated 1 or more times ({greedy})'
    # among other parts, a group or a choice is bracketed so that where it ends shows: `a(b)c` is not `a(bc)`
    assert gloss("a(b)c") == 'the pattern matching (the text "a", then (group 1, which is the text "b"), then the text "c")'
    assert gloss("(?:ab|cd)e") == ('the pattern matching ((either the text "ab" or the text "cd" (the first that fits, '
                                   'left to right)), then the text "e")')


def test_items_numbered_after_they_are_reversed_say_the_numbers_follow_the_reversed_order():
    """`enumerate(reversed(xs))` numbers the items from the last: traced on [1, 2, 3], the pairs are (0, 3), (1, 2),
    (2, 1), so the sum of i times x is 4 (numbering first and reversing after would give 8)."""
    assert sum(i * x for i, x in enumerate(reversed([1, 2, 3]))) == 4
    steps = _steps("def f(xs):\n    return sum(i * x for i, x in enumerate(reversed(xs)))\n")
    assert steps == ["1. Return the sum of the values (i times x), for each (i, x) of (the (position, item) pairs of "
                     "(the items of xs in reverse order), positions counted from 0 in that order) (0 if there are none)."]
    steps = _steps("def f(xs):\n    t = 0\n    for i, x in enumerate(reversed(xs)):\n        t += i * x\n    return t\n")
    assert steps == ["1. Set t to 0.", "2. For each x of xs, from last to first, with i counting from 0 in that order:",
                     "2.1. Add (i times x) to t.", "3. Return t."]
    steps = _steps("def f(xs):\n    t = 0\n    for i, x in enumerate(xs[::-1]):\n        t += i * x\n    return t\n")
    assert steps[1] == "2. For each x of xs, from last to first, with i counting from 0 in that order:"
    # a phrase numbered in a loop is bracketed: "in order" and the counting belong to the loop
    steps = _steps("def f(xs):\n    t = 0\n    for i, x in enumerate(xs[2:], 1):\n        t += i * x\n    return t\n")
    assert steps[1].startswith("2. For each x of (the part of xs from position 2 to the end) in order, with i counting "
                               "from 1:")
    # reversing the pairs after numbering: traced on [5, 6], [(1, 6), (0, 5)]
    steps = _steps("def f(xs):\n    return list(reversed(list(enumerate(xs))))\n")
    assert steps == ["1. Return a new list of the items of (the items of (a new list of the items of (the (position, "
                     "item) pairs of xs, positions counted from 0), in order) in reverse order), in order."]


def test_a_variable_is_not_named_with_a_noun_the_description_uses_for_something_else():
    """The anonymiser's `v1` holding a tuple is `pair` by its role; beside "the pair of (A) and (B)" (divmod) it is
    named otherwise, and a loop variable over texts is not `text` beside "a list of pieces of text". Where no
    phrase uses the word, the role name stays."""
    clash = "def f(a):\n    v1 = tuple(a)\n    v2 = 0\n    for v3 in v1:\n        v2 += sum(divmod(v3, 10))\n    return v2\n"
    assert _steps(clash)[:2] == [
        "1. Set cur to a tuple of the items of a, in order; p to 0. (Note: A dictionary gives its keys in the order "
        "they were first added, a set its items in Python's own order.)", "2. For each x of cur, in order:"]
    alone = "def f(a):\n    v1 = tuple(a)\n    v2 = 0\n    for v3 in v1:\n        v2 += v3\n    return v2\n"
    assert _steps(alone)[1:3] == ["2. For each x of pair, in order:", "2.1. Add x to p."]
    texts = describe("def f(a):\n    v1 = 0\n    for v2 in a:\n        if v2 != 'x':\n            v1 += len(v2)\n"
                     "    return v1\n", [], {"a": "list[str]"}, "int")
    assert "a, a list of pieces of text." in texts
    assert "2. For each s of a, in order:\n   2.1. If s does not equal \"x\", add the length of s to total.\n" in texts


def test_an_index_that_is_itself_an_item_is_bracketed():
    """`t[p][c[i][x]]`: the position in t[p] is c[i][x], said in brackets, never "item item x of ..."."""
    assert _steps("def f(t, c, i, x, p):\n    return t[p][c[i][x]]\n") == [
        "1. Return item (item x of (item i of c)) of (item p of t). (Note: Positions count from 0; -1 is the last one, "
        "-2 the one before.)"]


def test_joining_is_noted_only_where_both_sides_of_a_plus_can_be_texts():
    """`q = 0` then `q += y`: q only ever holds a number (a number plus a text fails), so "plus joins texts" is not
    said; `q += len(s)` adds a number whatever q is; a value taken from a list may be text, and keeps the note."""
    steps = _steps("def f(table):\n    q = 0\n    for k, y in table:\n        q += y\n    return q\n")
    assert steps[2] == "2.1. Add y to q."
    steps = _steps("def f(xs, q):\n    for s in xs:\n        q += len(s)\n    return q\n")
    assert steps[1] == "1.1. Add the length of s to q."
    steps = _steps("def f(xs):\n    out = xs[0]\n    for y in xs:\n        out += y\n    return out\n")
    assert steps[2] == "2.1. Add y to out. (Note: \"Plus\" on two texts, lists or tuples joins them end to end.)"
    assert _steps("def f(q, k):\n    return q + (1 if k else 0)\n") == [
        "1. Return q plus (1 if k counts as true, otherwise 0). (Note: 0, None, false, empty text and empty collections "
        "count as false; anything else counts as true.)"]  # either value of the choice is a number


def test_zip_with_its_strict_flag_is_said_by_how_it_ends():
    loop = "def f(a, b):\n    t = 0\n    for x, y in zip(a, b{}):\n        t += x * y\n    return t\n"
    assert _steps(loop.format(", strict=False")) == _steps(loop.format(""))  # the flag's default, written out
    assert _steps(loop.format(", strict=True"))[1] == (
        "2. For each position, taking x from a and y from b side by side (stop at the end of the shortest; if the "
        "others have items left then, the steps stop with an error there):")
    with pytest.raises(ValueError):  # the pairs up to the shortest's end are used first, then it fails
        for _ in zip([1], [1, 2], strict=True):
            pass
    with pytest.raises(Undescribable, match="zip"):
        _steps(loop.format(", strict=a == b"))


def test_isinstance_against_a_library_s_kind_of_value_says_which_plain_values_belong():
    from collections.abc import Hashable, Iterable
    steps = _steps("from collections.abc import Iterable, Hashable\ndef f(xs):\n    n = 0\n    for x in xs:\n"
                   "        if isinstance(x, Iterable):\n            n += 1\n        elif isinstance(x, Hashable):\n"
                   "            n += 2\n    return n\n")
    assert steps[2] == ("2.1. If x is something that can be gone through item by item (text, bytes, a list, tuple, "
                        "dictionary or set, a range, or values worked out one at a time; not a number, true, false or "
                        "None):")
    assert "x is a value that can be a dictionary key (anything but a list, a dictionary, a set or a changeable " \
           "bytes value; a tuple counts whatever it holds)" in steps[4]
    # the words agree with Python on every plain kind of value
    for value, iterable in [("ab", True), (b"a", True), ([1], True), ((1,), True), ({1: 2}, True), ({1}, True),
                            (range(2), True), (3, False), (2.5, False), (True, False), (None, False)]:
        assert isinstance(value, Iterable) == iterable
    for value, hashable in [([1], False), ({}, False), (set(), False), (bytearray(), False), ((1, [2]), True),
                            ("a", True), (None, True)]:
        assert isinstance(value, Hashable) == hashable
    with pytest.raises(Undescribable, match="Hashable|module-level class"):  # a class may make itself unhashable
        _steps("from collections.abc import Hashable\nclass K:\n    def __eq__(self, other):\n        return True\n"
               "def f(x):\n    return isinstance(x, Hashable)\n")
    class K:  # one that defines no such method keeps the default: its objects are keys, as the words say
        pass
    assert isinstance(K(), Hashable) and not isinstance(K(), Iterable)
    assert "(anything but a list" in _steps("from collections.abc import Hashable\nclass K:\n    pass\n"
                                            "def f(x):\n    return isinstance(x, Hashable)\n")[0]


def test_an_enum_is_said_as_its_members_each_equal_only_to_itself():
    code = ("from enum import Enum\nclass State(Enum):\n    'S.'\n    OFF = 0\n    ON = 1\ndef f(a):\n    s = State.OFF\n"
            "    for x in a:\n        if x > 0:\n            s = State.ON\n"
            "    return State.ON.value if s == State.ON else State.OFF.name\n")
    text = describe(code, [], {"a": "list[int]"}, "int")
    assert "State is a kind of value of its own with exactly these members, each equal only to itself (never to its " \
           "value, nor to a member of another kind): OFF (its value 0) and ON (its value 1)." in text
    assert _steps(code) == ["1. Set s to the member OFF of State.", "2. For each x of a, in order: (Note: A dictionary "
                            "gives its keys in the order they were first added, a set its items in Python's own order.)",
                            "2.1. If x is greater than 0, set s to the member ON of State.",
                            "3. Return 1 if s equals the member ON of State, otherwise \"OFF\"."]
    from enum import Enum
    State = Enum("State", {"OFF": 0, "ON": 1})
    assert State.OFF != 0 and State.ON.value == 1 and State.OFF.name == "OFF"
    for unclear in (code.replace("ON = 1", "ON = 0"),  # an alias: ON would be OFF
                    code.replace("s = State.OFF\n", "s = State(0)\n"),  # a member looked up by value
                    code.replace("for x in a:", "for x in State:")):  # the class gone through
        with pytest.raises(Undescribable):
            describe(unclear, [], {"a": "list[int]"}, "int")


def test_logarithms_are_said_where_their_value_is_exact():
    assert _steps("import math\ndef f(n):\n    return int(math.log10(n)) + 1\n")[0].startswith(
        "1. Return (the base-10 logarithm of n (a decimal number; a power of 10 gives exactly its exponent, 1000 giving "
        "3.0, and for a whole number up to 999999999999997 the part before the point is one less than its number of "
        "digits, while a larger one just below a power of 10 can come out as that power's exponent;")
    import math
    assert [math.log10(10 ** k) for k in range(6)] == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    for k in range(1, 16):  # the edges of each number of digits, as the words say
        for n in [10 ** (k - 1), 10 ** (k - 1) + 1, 10 ** k - 3, 10 ** k - 2, 10 ** k - 1]:
            assert (int(math.log10(n)) + 1 == len(str(n))) == (n <= 999999999999997)
    assert math.log(1000, 10) != 3.0  # why a logarithm to a base has no words
    with pytest.raises(Undescribable, match="math.log with a base"):
        _steps("import math\ndef f(n):\n    return math.log(n, 10)\n")


def test_itertools_says_which_tuples_come_and_in_which_order():
    import itertools
    steps = _steps("import itertools\ndef f(a, b):\n    return list(itertools.product(a, b))\n")
    assert "the results of taking one item of a and one item of b, as a tuple in that order, for every such choice: " \
           "the last one changes fastest" in steps[0]
    assert list(itertools.product([1, 2], [3, 4])) == [(1, 3), (1, 4), (2, 3), (2, 4)]  # the last changes fastest
    steps = _steps("from itertools import combinations\ndef f(a):\n    return list(combinations(a, 2))\n")
    assert "(for 3 items and 2 at a time: positions 0 and 1, 0 and 2, then 1 and 2;" in steps[0]
    assert list(itertools.combinations("abc", 2)) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert list(itertools.permutations("abc", 2))[:3] == [("a", "b"), ("a", "c"), ("b", "a")]
    with pytest.raises(Undescribable, match="computed count"):
        _steps("import itertools\ndef f(a, n):\n    return list(itertools.product(a, repeat=n))\n")


def test_a_slice_going_backwards_says_where_it_starts_and_stops():
    steps = _steps("def f(a, i):\n    return a[3:0:-1]\n")
    assert steps[0].startswith("1. Return the items of a from position 3 going back one position at a time down to "
                               "just after position 0 (that position itself left out), in that order; nothing if "
                               "position 0 does not come before position 3.")
    assert [0, 1, 2, 3, 4][3:0:-1] == [3, 2, 1] and [0, 1, 2][0:3:-1] == []
    assert "from its last position going back one position at a time down to just after position (i minus 1)" in \
        _steps("def f(a, i):\n    return a[: i - 1 : -1]\n")[0]
    with pytest.raises(Undescribable, match="step"):
        _steps("def f(a):\n    return a[::-2]\n")


def test_an_ellipsis_statement_does_nothing_as_pass_does():
    assert _steps("def f(a):\n    if a:\n        ...\n    return 1\n")[0] == \
        "1. If a counts as true, do nothing here. (Note: 0, None, false, empty text and empty collections count as " \
        "false; anything else counts as true.)"


def test_an_error_kept_only_as_the_cause_of_a_new_one_is_named_and_the_step_stops_with_the_new_kind():
    steps = _steps("def f(x):\n    try:\n        return 10 // x\n    except ZeroDivisionError as err:\n"
                   "        raise ValueError('no') from err\n")
    assert steps[2:4] == ["If any of those steps fails with an error of the kind ZeroDivisionError, stop them right "
                          "there (calling the error err) and instead:",
                          "1.x1. Stop with an error (of the kind ValueError)."]
    with pytest.raises(Undescribable, match="keeps the error object"):  # its text reaches the new error
        describe("def f(x):\n    try:\n        return 10 // x\n    except ZeroDivisionError as err:\n"
                 "        raise ValueError(str(err)) from err\n", [], {}, "int")


def test_rows_spread_into_zip_are_read_as_columns():
    steps = _steps("def f(rows):\n    out = []\n    for col in zip(*rows):\n        out.append(sum(col))\n"
                   "    return out\n")
    assert steps[1] == ("2. For each col of (the results of taking item k of each item of rows, in their order, as a "
                        "tuple, for each position k from 0 on (stopping at the end of the shortest; none at all if "
                        "there are no items)), in order: (Note: The values of \"the results of ...\" are worked out "
                        "one at a time, only when something goes through them, and only once: going through them a "
                        "second time gives nothing.)")
    with pytest.raises(Undescribable, match="unpacking"):  # two spread sources: which items pair up is not said
        describe("def f(a, b):\n    return list(zip(*a, *b))\n", [], {}, "int")
    spread_call = _steps("def g(n):\n    return [[n], [n]]\n\ndef f(n):\n    out = []\n"
                         "    for col in zip(*g(n)):\n        out.append(sum(col))\n    return out\n")[1]
    assert spread_call.count("what g gives back") == 1  # the rows are said once: one call, not two


def test_a_core_method_given_its_arguments_by_name_reads_as_given_in_their_places():
    assert _steps("def f(s):\n    return s.splitlines(keepends=True)\n") == _steps(
        "def f(s):\n    return s.splitlines(True)\n")
    kept = _steps("def f(s):\n    return s.splitlines(keepends=True)\n")[0]
    assert kept.startswith("1. Return the list of lines of s (each keeping its line break; no piece after a final "
                           "line break, none at all for empty text). (Note: A line break is a newline, a carriage "
                           "return (one break together with a newline right after it), or one of the rarer breaks: "
                           "the characters with codes 11, 12, 28, 29, 30, 133, 8232 and 8233.)")
    # a left-out place before one given takes its value when left out
    assert _steps("def f(s):\n    return s.encode(errors='ignore')\n")[0].startswith(
        '1. Return the bytes of s in the encoding "utf-8", characters that have none handled the "ignore" way.')
    with pytest.raises(Undescribable, match="keyword arguments"):
        describe("def f(s):\n    return s.splitlines(keep=True)\n", [], {}, "int")


def test_itertools_zip_longest_groupby_and_tee_have_words_in_their_library_file():
    longest = _steps("from itertools import zip_longest\ndef f(a, b):\n"
                     "    return list(zip_longest(a, b, fillvalue=0))\n")[0]
    assert longest.startswith("1. Return a new list of the items of (the results of taking the items at the same "
                              "position in a and b, as a tuple in that order, for each position from 0 up to the end "
                              "of the longest of them, 0 standing in for the item of each one that has no item at "
                              "that position), in order.")
    runs = _steps("import itertools\ndef f(xs):\n"
                  "    return [(k, len(list(g))) for k, g in itertools.groupby(xs, key=lambda v: v % 2)]\n")[0]
    assert ("the results of cutting the items of xs, in order, into runs of neighbouring items whose keys are equal "
            "(an item's key being (the remainder of v divided by 2) (with v standing for the item); a run goes on "
            "while the next item's key equals the key of the run's first item), each run given as a pair of that "
            "first key and a reader of the run's items in order; once the next pair is taken, the reader of an "
            "earlier run gives no more items") in runs
    copies = _steps("import itertools\ndef f(xs):\n    a, b = itertools.tee(xs)\n    return list(a) + list(b)\n")[0]
    assert "a tuple of 2 readers, each giving all the items of xs in order, one at a time, independently" in copies
    with pytest.raises(Undescribable, match="itertools.tee"):
        describe("import itertools\ndef f(xs, n):\n    return itertools.tee(xs, n)\n", [], {}, "int")
    with pytest.raises(Undescribable, match="itertools.tee of a reader"):  # the reader may be moved on after
        describe("import itertools\ndef f(xs):\n    r = iter(xs)\n    a, b = itertools.tee(r)\n    next(r)\n"
                 "    return list(a)\n", [], {}, "int")


def test_a_mixed_input_set_to_a_number_by_the_first_step_makes_a_remainder_after_it():
    source = "def f(n):\n    n = abs(int(n))\n    if n % 100 in (11, 12):\n        return 'th'\n    return 'x'\n"
    said = describe(source, [], {"n": "Union[int, str]"}, "str")
    assert "2. If (the remainder of n divided by 100) is one of 11 or 12, return \"th\"." in said
    counted = source.replace("    n = abs", "    stats = {'branch_hits': 0}\n    n = abs")  # as instrumented
    assert "If (the remainder of n divided by 100) is one of 11 or 12" in describe(counted, [], {"n": "Union[int, str]"}, "str")
    for unsettled in ("def f(n):\n    n = int(n % 7)\n    return n\n",  # the first step itself reads the input
                      "def f(n):\n    m = 0\n    n = int(n)\n    return n % 7\n",  # not the first step
                      "def f(n):\n    n = int(n)\n    if n:\n        n = 'a'\n    return n % 7\n"):  # text again
        with pytest.raises(Undescribable, match="text on some cases"):
            describe(unsettled, [], {"n": "Union[int, str]"}, "int")


def test_a_table_of_lambdas_is_said_as_functions_and_a_call_of_one_taken_from_it():
    said = describe('OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b}\n'
                    "def f(op, x, y):\n    if op in OPS:\n        return OPS[op](x, y)\n    return 0\n", [], {}, "int")
    assert ('OPS is a new dictionary mapping "+" to (a function that, given a and b, gives back (a plus b)) and "-" '
            'to (a function that, given a and b, gives back (a minus b)).') in said
    assert "1. If op is a key of OPS, return what the function (the value of OPS under the key op) gives back when " \
           "called with x and y." in said
    # a lambda reads its other names when called, not when made: one reading a variable of the steps is not said
    with pytest.raises(Undescribable, match="variable of the steps"):
        describe("def f(xs, n):\n    fs = [lambda: n]\n    n = 0\n    return fs[0]()\n", [], {}, "int")
    with pytest.raises(Undescribable, match="computed function"):  # a function a call gives back
        describe("def f(x):\n    return g(x)(x)\n", [], {}, "int")


def test_hasattr_on_an_input_names_the_json_kinds_that_have_the_attribute():
    said = _steps("def f(x):\n    if hasattr(x, '__len__'):\n        return len(x)\n    return -1\n")
    assert said[0] == "1. If x is a dictionary, a list or text, return the length of x."
    numbers = _steps("def f(x):\n    return hasattr(x, 'real')\n")[0]
    assert numbers == "1. Return whether x is a whole number, a decimal number or a truth value (true or false)."
    for unsure in ("import math\ndef f(x):\n    y = [x]\n    return hasattr(y, 'real')\n",  # a library's value?
                   "def f(x):\n    y = [x]\n    return hasattr(y, '__name__')\n",  # a function has it
                   "def f(x, k):\n    return hasattr(x, k)\n"):  # a name the code does not fix
        with pytest.raises(Undescribable, match="hasattr"):
            describe(unsure, [], {}, "int")


def test_hasattr_on_any_value_of_code_without_classes_or_imports_names_the_built_in_kinds_that_have_it():
    helper = ("def items_of(c):\n    return c.items() if hasattr(c, 'items') else c\n\n"
              "def f(x):\n    return list(items_of([x]))\n")
    assert "Return (the (key, value) pairs of c, in the order they were added) if c is a dictionary, otherwise c." \
        in describe(helper, [], {}, "list")
    grown = _steps("def f(x):\n    y = [x]\n    return hasattr(y, 'append')\n")[-1]
    assert grown == "2. Return whether y is a list."
    assert _steps("def f(x):\n    y = [x]\n    return hasattr(y, 'nothing')\n")[-1] == \
        "2. Return false (no value here ever has it)."


def test_a_partial_function_and_starmap_say_which_inputs_come_first():
    steps = _steps("import functools, itertools\ndef f(pairs, t):\n    def g(a, b, c):\n        return a * b + c\n"
                   "    h = functools.partial(g, t)\n    return list(itertools.starmap(h, pairs))\n")
    assert ("Set h to the function g with t fixed as its first input (as it is at this step; called with more inputs, "
            "it is called with this first, then those).") in steps[-2]
    assert steps[-1].startswith("3. Return a new list of the items of (the results of what the function held in h "
                                "gives back when called with the items of each item of pairs as its inputs, in "
                                "order, for each item in order), in order.")
    with pytest.raises(Undescribable, match="functools.partial"):  # a keyword fixed could be given again
        describe("import functools\ndef f(x):\n    h = functools.partial(int, base=2)\n    return h(x)\n", [], {}, "int")


def test_isinstance_of_an_input_against_a_standard_library_class_names_the_json_kinds_that_are_one():
    assert _steps("import numbers\ndef f(x):\n    return isinstance(x, (numbers.Number, list))\n")[0] == (
        "1. Return whether x is a list, a whole number, a decimal number or a truth value (true or false).")
    assert _steps("import decimal\ndef f(x):\n    return isinstance(x, decimal.Decimal)\n")[0] == (
        "1. Return false (x, an input, is never of such a kind).")
    for unsure in ("import numbers\ndef f(x):\n    x = [x]\n    return isinstance(x, numbers.Number)\n",
                   "import foo\ndef f(x):\n    return isinstance(x, foo.Bar)\n"):  # not an input; not reachable
        with pytest.raises(Undescribable, match="other than a built-in one"):
            describe(unsure, [], {}, "int")


def test_a_power_that_may_not_be_whole_says_a_negative_base_gives_a_complex_number():
    said = _steps("def f(x):\n    return str(x ** 0.5)\n")[0]
    assert "(Note: A negative number to a power that is not a whole number gives a complex number" in said
    assert str((-4) ** 0.5) in said  # the example is what Python shows
    assert "complex" not in _steps("def f(x):\n    return x ** 2\n")[0]


def test_chain_from_iterable_goes_through_each_item_in_turn_written_either_way():
    dotted = _steps("import itertools\ndef f(xs):\n    return list(itertools.chain.from_iterable(xs))\n")[0]
    imported = _steps("from itertools import chain\ndef f(xs):\n    return list(chain.from_iterable(xs))\n")[0]
    assert dotted == imported
    assert dotted.startswith("1. Return a new list of the items of (the results of going through the items of each "
                             "item of xs, one item after the other, in order), in order.")


def test_split_with_its_count_given_by_name_keeps_the_count_and_whitespace_runs_with_a_count_say_what_the_rest_keeps():
    # once read "split at the first None occurrences of ","": the count given by name was lost
    assert _steps("def f(x):\n    return x.split(',', maxsplit=1)\n") == _steps("def f(x):\n    return x.split(',', 1)\n")
    assert _steps("def f(x):\n    return x.split(',', maxsplit=1)\n")[0].startswith(
        '1. Return the list of pieces of x split at the first 1 occurrences of "," from the left')
    # runs of whitespace a limited number of times: the rest keeps its whitespace at the far end ("  a b  c  "
    # split once is "a" and "b  c  ", split from the right once "  a b" and "c")
    assert _steps("def f(x):\n    return x.split(maxsplit=1)\n") == _steps("def f(x):\n    return x.split(None, 1)\n")
    assert _steps("def f(x):\n    return x.split(maxsplit=1)\n")[0] == (
        "1. Return the list of pieces of x split at its first 1 runs of whitespace, counting from the left "
        "(whitespace at its start ignored; what follows the last of those runs, whitespace at its end included, "
        "stays one last piece; never an empty piece; split at every run, whitespace at its end ignored too, if 1 is "
        "negative or there are no more runs than that).")
    assert "split at its last 1 runs of whitespace, counting from the right (whitespace at its end ignored; what " \
           "comes before the first of those runs, whitespace at its start included, stays one first piece" in \
           _steps("def f(x):\n    return x.rsplit(None, 1)\n")[0]


def test_a_built_in_given_its_arguments_by_name_reads_as_given_in_their_places():
    for named, placed in (("int(x, base=2)", "int(x, 2)"), ("round(x, ndigits=2)", "round(x, 2)"),
                          ("sum(x, start=1)", "sum(x, 1)"), ("pow(x, exp=2)", "pow(x, 2)")):
        assert _steps(f"def f(x):\n    return {named}\n") == _steps(f"def f(x):\n    return {placed}\n")
    with pytest.raises(Undescribable, match="built-in int"):  # int's first input has no name
        describe("def f(x):\n    return int(x=x)\n", [], {}, "int")


_TABLE = ("import re\nRULES = [(r'(?i)(a)x$', r'\\1b'), ('$', 's')]\ndef f(w):\n    for rule, repl in RULES:\n"
          "        if re.search(rule, w):\n            return re.sub(rule, repl, w)\n    return w\n")


def test_a_table_of_patterns_a_loop_tries_in_turn_is_told_row_by_row():
    """Each row's pattern in words and its replacement as a template; traced: "AX" -> row 1 -> "Ab", "q" -> "qs"."""
    text = describe(_TABLE, [], {"w": "str"}, "int")
    assert not holds_code(text)
    assert ('The table RULES holds these 2 rows, in this order, each a pattern and a replacement:\n1. pattern: the pattern '
            'matching ((group 1, which is the text "a"), then the text "x", then the end of the text (or just before a '
            'line break that ends it)) (letters match regardless of case); replacement: the text made of the text group '
            '1 of that match covers (empty if it took no part), followed by "b"\n2. pattern: the pattern matching the '
            'end of the text (or just before a line break that ends it); replacement: "s"\n') in text
    assert ("1.1. If the pattern rule matches somewhere in w, return w with every match of the pattern rule (left to "
            "right, not overlapping) replaced by the replacement repl (the texts its row of RULES lists") in text
    steps = _steps("import re\nPATS = (r'^x', 'y$')\ndef f(s):\n    return any(re.search(p, s) for p in PATS)\n")
    assert steps[0].startswith("1. Return whether the pattern p matches somewhere in s holds for at least one case (for "
                               "each p of PATS in order; false if there are none).")
    labels = describe("import re\nKINDS = (('[0-9]+$', 'number'), ('[a-z]+$', 'word'))\ndef f(s):\n"
                      "    for pat, label in KINDS:\n        if re.match(pat, s):\n            return label\n    return ''\n",
                      [], {"s": "str"}, "int")
    assert "each a pattern and a text:\n1. pattern: the pattern matching (" in labels and '; text: "word"' in labels


def test_a_table_the_code_changes_or_reads_otherwise_is_not_told_as_fixed_patterns():
    for change in ("    RULES.append(('y', 'z'))\n", "    rule = 'y'\n"):
        source = _TABLE.replace("def f(w):\n", "def f(w):\n" + change)
        with pytest.raises(Undescribable, match="not written in the code"):
            describe(source, [], {"w": "str"}, "int")
    with pytest.raises(Undescribable, match="used with flags"):  # the rows are said without the flag
        describe(_TABLE.replace("re.sub(rule, repl, w)", "re.sub(rule, repl, w, flags=re.M)"), [], {"w": "str"}, "int")


def test_a_pattern_written_as_an_f_string_of_written_texts_is_folded_as_python_reads_it():
    """`rf'[{string.digits}\\-]+'`: the raw part keeps its backslash (an escaped minus in the class)."""
    said = describe("import re\nimport string\nP = re.compile(rf'[{string.digits}\\-]+')\ndef f(s):\n"
                    "    return P.findall(s)\n", [], {"s": "str"}, "list")
    assert 'P is the pattern matching (one character that is one of: "0"; "1"; "2"; "3"; "4"; "5"; "6"; "7"; "8"; "9"; "-")' in said
    with pytest.raises(Undescribable):  # `{A=}` writes "A=" and A's repr: not folded as a plain field
        describe("import re\nA = 'x'\nP = re.compile(f'{A=}')\ndef f(s):\n    return P.findall(s)\n", [], {"s": "str"}, "list")


def test_a_text_put_into_a_pattern_at_run_time_is_matched_as_itself_where_it_is_whole():
    """Loop names over written words with no special character, and `re.escape(...)`, fill a hole; where a
    repeat or a class would take part of the text (`[%s]`), the reader reads the text as a regular expression."""
    steps = _steps("import re\nWORDS = ['ab', 'cd']\ndef f(s):\n    for w in WORDS:\n"
                   "        if re.search(r'\\b%s$' % w, s):\n            return 1\n"
                   "    return re.sub('(%s)x' % re.escape(s[:2]), lambda m: m.group(1).upper(), s)\n")
    assert steps[1].startswith("1.1. If the pattern matching (a word boundary (between a word character and a non-word "
                               "character, or the text's edge), then the characters of w, each matched as itself, then "
                               "the end of the text (or just before a line break that ends it)) matches somewhere in s, "
                               "return 1.")
    assert steps[2].startswith("2. Return s with every match of the pattern matching ((group 1, which is the characters "
                               "of the part of s before position 2, each matched as itself), then the text \"x\") (left "
                               "to right, not overlapping) replaced by (the text group 1 of the match m covers (None if "
                               "that group took no part)) with every letter made a capital (with m standing for that match).")
    for split in ("'[%s]' % w", "'%s+' % w", "'\\\\%s' % w"):
        steps = _steps(f"import re\nWORDS = ['ab']\ndef f(s):\n    for w in WORDS:\n        if re.search({split}, s):\n"
                       "            return 1\n    return 0\n")
        assert "writes as a regular expression" in steps[1] and "matched as itself" not in steps[1]
    steps = _steps("import re\nWORDS = ['a.b']\ndef f(s):\n    for w in WORDS:\n        if re.search(r'%s$' % w, s):\n"
                   "            return 1\n    return 0\n")  # a word with a dot is no plain text
    assert "writes as a regular expression" in steps[1] and "matched as itself" not in steps[1]


def test_a_pattern_and_a_replacement_given_at_run_time_are_read_as_python_reads_them():
    text = describe("import re\ndef f(p, s, r):\n    return re.sub(p, r, s, flags=re.I)\n", [],
                    {"p": "str", "s": "str", "r": "str"}, "int")
    assert not holds_code(text)
    assert ("Return s with every match of the pattern that the text p writes as a regular expression (letters match "
            "regardless of case) (left to right, not overlapping) replaced by the text r read as a replacement "
            "template.") in text
    assert "a backslash followed by n, t, r, f, v, a or b stands for that control character" in text
    with pytest.raises(Undescribable):  # a number is no pattern
        describe("import re\ndef f(p, s):\n    return re.search(p, s)\n", [], {"p": "int", "s": "str"}, "int")


def test_escape_puts_a_backslash_only_before_the_characters_special_in_a_pattern():
    """Traced: re.escape("a.b c@") is "a\\.b\\ c@": "@" and the letters keep no backslash."""
    steps = _steps("import re\ndef f(s):\n    return re.escape(s)\n")
    assert steps == ['1. Return s with a backslash put before each of its characters that means something in a pattern '
                     '(each character of "\\t\\n\\u000b\\f\\r #$&()*+-.?[\\\\]^{|}~"), so that it matches itself as a '
                     'pattern.']


def test_a_dictionary_of_patterns_and_a_table_of_compiled_patterns_are_told_row_by_row():
    """`for pat, rep in FIX.items()` in the order the keys were added; `re.compile(p, flags)` cells with
    their flags; traced: "a  b-c" -> "a bc"; "ABz" -> "x" + "z" = "xz"."""
    text = describe("import re\nFIX = {r'\\s+': ' ', r'(\\w)-(\\w)': r'\\1\\2'}\ndef f(s):\n"
                    "    for pat, rep in FIX.items():\n        s = re.sub(pat, rep, s)\n    return s\n", [], {"s": "str"}, "int")
    assert not holds_code(text)
    assert ("The dictionary FIX holds these 2 keys with their values, in the order they were added, each key a pattern "
            "and its value a replacement:\n1. key: the pattern matching a whitespace character repeated 1 or more "
            "times (as many as possible, giving back as the rest of the pattern needs); value: \" \"\n") in text
    assert "replaced by the replacement rep (the texts its entry of FIX lists" in text
    steps = _steps("import re\nRULES = [(re.compile(r'^ab', re.I), 'x'), (re.compile('c$'), 'y')]\ndef f(s):\n"
                   "    for rx, rep in RULES:\n        if rx.search(s):\n            return rx.sub(rep, s)\n    return s\n")
    assert steps[1].startswith("1.1. If the pattern rx matches somewhere in s, return s with every match of the pattern "
                               "rx (left to right, not overlapping) replaced by the replacement rep")
    said = describe("import re\nRULES = [(re.compile(r'^ab', re.I), 'x')]\ndef f(s):\n    for rx, rep in RULES:\n"
                    "        if rx.search(s):\n            return rx.sub(rep, s)\n    return s\n", [], {"s": "str"}, "int")
    assert ('1. pattern: the pattern matching (the start of the text, then the text "ab") (letters match regardless of '
            'case); replacement: "x"') in said
    with pytest.raises(Undescribable):  # a compiled pattern handed on: no table
        describe("import re\nRULES = [(re.compile('a'), 'x')]\ndef g(p):\n    return p\ndef f(s):\n"
                 "    for rx, rep in RULES:\n        return g(rx).sub(rep, s)\n", [], {"s": "str"}, "int")


def test_named_groups_counts_and_subn_are_said_as_python_does_them():
    """Traced: re.sub('a', 'b', 'aaa', 2) is "bba", re.subn('a', 'b', 'aaa') is ("bbb", 3), and a 4th positional
    argument of re.sub is the count, not the flags; a group's name is said beside its number."""
    steps = _steps("import re\ndef f(s):\n    m = re.match(r'(?P<y>[0-9])', s)\n    if m:\n"
                   "        return m.groupdict()\n    return (re.sub('a', 'b', s, 2), re.subn('a', 'b', s, count=1))\n")
    assert steps[0].startswith('1. Set m to the match of the pattern matching group 1 (named "y"), which is one '
                               'character that is one of: from "0" to "9" at the very start of s')
    assert ("return a new dictionary from the name of each named group of the match m, in the order the groups appear, "
            "to the text that group covers (None for a group that took no part)") in steps[1]
    assert steps[2] == ('3. Return the pair of s with every match of the pattern matching the text "a" (left to right, '
                        'not overlapping; only the first 2 matches, the rest left as they are) replaced by "b" and (the '
                        'pair of (s with every match of the pattern matching the text "a" (left to right, not '
                        'overlapping; only the first match, the rest left as they are) replaced by "b") and the number '
                        'of matches replaced).')
    with pytest.raises(Undescribable, match="count"):
        _steps("import re\ndef f(s):\n    return re.sub('a', 'b', s, -1)\n")


def test_a_key_held_in_a_name_and_islice_bounds_say_what_none_means():
    """A key or a bound held in a name may be None, which means no key (the item itself) or no bound;
    a hand trace had to know Python to follow `groupby(xs, b)` with b None and `islice(b, a, None)`."""
    grouped = describe("import itertools\ndef f(xs, b=None):\n    return [k for k, g in itertools.groupby(xs, b)]\n",
                       [], {}, "list")
    assert "what the function held in b gives back for the item (the item itself when b holds None)" in grouped
    sliced = describe("import itertools\ndef f(xs, a):\n    return list(itertools.islice(xs, a, None))\n", [], {}, "list")
    assert "at positions from a (0 if it is None) to the end, counting from 0" in sliced
    fixed = describe("import itertools\ndef f(xs):\n    return list(itertools.islice(xs, 1, 3))\n", [], {}, "list")
    assert "at positions from 1 up to but not including 3, counting from 0" in fixed


# the core operations a seed may use, each with words (issue 38, round 5: vocabulary completeness); the
# census script that found the gaps is described in docs/stages/describe.md
_COMMON = {
    "math": "trunc factorial comb perm exp log2 fabs pow copysign fmod hypot lcm isfinite isclose prod fsum degrees "
            "radians sin cos tan atan atan2",
    "itertools": "count repeat cycle takewhile dropwhile filterfalse compress pairwise accumulate "
                 "combinations_with_replacement",
    "operator": "add sub mul truediv floordiv mod pow neg not_ eq lt contains getitem and_ or_ xor",
    "statistics": "mean fmean median median_low median_high mode multimode variance pvariance",
    "textwrap": "dedent indent", "string": "capwords", "heapq": "nlargest nsmallest",
}


def test_the_vocabulary_has_words_for_the_common_functions_of_the_computing_libraries():
    missing = [f"{module}.{name}" for module, names in _COMMON.items() for name in names.split()
               if f"{module}.{name}" not in vocab.TABLE]
    assert missing == []


def test_core_methods_once_without_words_are_said_exactly():
    steps = _steps("def f(d, ks, t, n):\n    s = set(d)\n    s.difference_update(ks)\n    s.intersection_update(ks, d)\n"
                   "    u = s.union(ks, d)\n    c = t.center(n, '*')\n    k = t.rindex('a', 2)\n"
                   "    p = t.split(None, n)\n    return (len(u), c, k, p, n.bit_count(), dict.fromkeys(ks, 0))\n")
    assert steps[1] == "2. Remove from the set s every item of ks that it holds."
    assert steps[2] == "3. Remove from the set s every item that is not in both ks and d."
    assert "u to a new set of the items that are in at least one of s, ks and d" in steps[3]
    assert 'c to t with copies of the character "*" added on both sides to a length of n' in steps[3]
    assert 'k to the position of the last occurrence of "a" in t that starts at position 2 or later' in steps[3]
    assert "how many of the binary digits of the absolute value of n are 1" in steps[-1]
    assert "a new dictionary with each distinct item of ks as a key, in order of first appearance, each holding 0 " \
           "(the very same value under every key)" in steps[-1]
    # once "after a leading + or - sign", which reads as code: every zfill was dropped
    assert _steps("def f(t):\n    return t.zfill(5)\n") == [
        "1. Return t padded on the left with zeros to a length of 5 (the zeros go after a leading plus or minus sign; "
        "unchanged if it is already that long)."]
    # the same for a format field's "+": "a + sign before a value" reads as arithmetic (a + sign)
    said = " ".join(_steps("def f(a, u):\n    return '%+.1f %s' % (a, u)\n"))
    assert "with a plus sign before a value that is not negative" in said and holds_code(said) == []


def test_a_bounded_queue_a_counter_update_and_a_type_alias_are_said_with_their_rules():
    steps = _steps("from collections import deque, Counter\nunicode = str\n\ndef f(xs, n, ys):\n"
                   "    q = deque(xs, n)\n    c = Counter(xs)\n    c.update(ys)\n"
                   "    return (list(q), c, isinstance(n, unicode), unicode(n), type(n)())\n")
    assert steps[0].startswith("1. Set q to a new queue of the last n items of xs, in order (all of them if there are "
                               "fewer, none if n is 0), that holds at most n items from then on: putting an item at "
                               "one end of it when it is full drops one from the other end")
    assert "if n is None, there is no largest size and it holds all the items given, in order" in steps[0]
    assert steps[1].startswith("2. Add to the counts of the counter c those of ys: for a dictionary, add each value")
    assert "whether n is text" in steps[2] and "n written as text" in steps[2]
    assert "a new value of the same kind as n, made from nothing: empty text, empty bytes, 0, 0.0" in steps[2]


def test_library_functions_are_said_when_called_and_when_passed_as_values():
    steps = _steps("import functools, operator, math, statistics\ndef f(xs, a, b):\n"
                   "    p = functools.reduce(operator.mul, xs, 1)\n    r = list(map(math.factorial, xs))\n"
                   "    return (p, r, operator.lt(a, b), statistics.median(xs), math.isclose(a, b))\n")
    assert "replace the result so far by the result so far times the item;" in steps[0]
    assert "the results of the product of the whole numbers from 1 up to each item (1 for 0" in steps[0]
    assert "whether a is less than b" in steps[-1]
    assert "with an even number of items, the two middle ones added and divided by 2" in steps[-1]
    assert "the absolute value of their difference is at most 0.000000001 times the larger of their absolute " \
           "values" in steps[-1]


def test_format_and_getattr_with_their_spec_or_name_written_are_said_as_a_format_field_and_an_attribute():
    steps = _steps("def f(n, x):\n    b = format(n, '08b')\n    k = len(x)\n"
                   "    return (b, format(x, '.2f'), format(n), getattr(k, 'denominator'), k.real)\n")
    assert steps[0].startswith("1. Set b to n written in binary, padded after the sign with zeros to at least 8 characters;")
    assert "x written as a decimal number with exactly 2 digits after the point" in steps[-1]
    assert "n written as text, 1 and k, in that order" in steps[-1]
    with pytest.raises(Undescribable, match="built-in format"):
        describe("def f(n, s):\n    return format(n, s)\n", [], {}, "int")


def test_an_ordered_dictionary_is_a_dictionary_that_also_compares_its_order():
    steps = _steps("from collections import OrderedDict\ndef f(xs):\n    d = OrderedDict()\n    for x in xs:\n"
                   "        d[x] = 1\n    return list(d)\n")
    assert steps[0] == ("1. Set d to a new empty dictionary (an ordered one: two ordered dictionaries are equal only if "
                        "their keys also come in the same order).")


def test_map_over_several_collections_calls_the_function_on_the_items_at_each_position():
    steps = _steps("import operator\ndef f(xs, ys):\n    return (list(map(max, xs, ys)), list(map(operator.mul, xs, ys)),"
                   " list(map(lambda u, v: u - v, xs, ys)))\n")
    assert "the results of the larger of the item of xs and the item of ys, for each position of xs and ys in turn " \
           "from the first, as long as every one of them has an item there" in steps[0]
    assert "the results of the item of xs times the item of ys, for each position" in steps[0]
    assert "(u minus v) (with u standing for the item of xs and v standing for the item of ys)" in steps[0]


def test_translate_with_a_table_written_in_the_code_says_each_character_it_changes_all_at_once():
    steps = _steps("SWAP = str.maketrans('ab', 'ba', '-')\n\ndef f(s):\n    return (s.translate(SWAP), "
                   "s.translate(str.maketrans({'x': 'y', ' ': None})))\n")
    assert 'the pair of (s with every "a" replaced by "b", every "b" replaced by "a" and every "-" removed, all at ' \
           'once (each character of s is looked at once' in steps[0]
    assert 's with every "x" replaced by "y" and every " " removed, all at once' in steps[0]
    with pytest.raises(Undescribable, match="translate"):  # a table made from texts known only at run time
        describe("def f(s, a, b):\n    return s.translate(str.maketrans(a, b))\n", [], {}, "int")


def test_a_sort_by_a_comparison_function_says_which_item_comes_first():
    steps = _steps("from functools import cmp_to_key\ndef f(xs):\n    def cmp(p, q):\n        return q - p\n"
                   "    return sorted(xs, key=cmp_to_key(cmp), reverse=True)\n")
    assert steps[-1].startswith("2. Return a new list of the items of xs, sorted so that one item comes after another "
                                "when what the helper cmp gives back for the one and the other is below 0 (items it "
                                "finds equal, at 0, keep their order).")


def test_whole_numbers_to_and_from_bytes_say_the_byte_order_written_in_the_code():
    steps = _steps("def f(n):\n    b = n.to_bytes(2, 'little')\n    return int.from_bytes(b, byteorder='big')\n")
    assert steps[0].startswith("1. Set b to the 2 bytes that write n in base 256, the least significant first (the "
                               "steps stop with an error if n is negative or does not fit in 2 bytes).")
    assert steps[1].startswith("2. Return the whole number the bytes b write in base 256, the most significant first "
                               "(0 for no bytes).")


def test_bytes_of_a_value_of_a_kind_the_code_does_not_fix_says_what_each_kind_gives():
    steps = _steps("def f(xs):\n    def g(v):\n        return bytes(v)\n    return g(xs)\n")
    assert steps[1].startswith("1.1. Return the bytes made from v: for a whole number n, n bytes of value 0; for bytes, "
                               "the same bytes; for a list or other collection of whole numbers, the bytes with those "
                               "values, in order")


def _parts(said: str, start: str, joiner: str) -> list[str]:
    """The parts of "<start>A<joiner>B<joiner>C." (a display said in words), each as said."""
    assert said.startswith(start) and said.endswith(".")
    return said[len(start):-1].split(joiner)


def test_unpacking_inside_a_tuple_says_each_part_in_place_and_reads_as_python_builds_it():
    source = "def f(text, splits):\n    cuts = (0, *splits, len(text))\n    return cuts\n"
    steps = _steps(source)
    words = steps[0].split(" (Note:")[0]
    assert words == "1. Set cuts to a tuple of 0, then each item of splits in order, then the length of text."
    meaning = {"0": lambda text, splits: [0], "each item of splits in order": lambda text, splits: list(splits),
               "the length of text": lambda text, splits: [len(text)]}
    namespace = {}
    exec(source, namespace)
    for text, splits in (("abcdef", [2, 4]), ("", []), ("xy", [1, 1, 0])):
        said = [v for part in _parts(words, "1. Set cuts to a tuple of ", ", then ") for v in meaning[part](text, splits)]
        assert tuple(said) == namespace["f"](text, splits)


def test_unpacking_inside_a_list_and_a_set_follows_how_each_is_said():
    listed = _steps("def f(a, x):\n    return [*a, x + 1]\n")[0].split(" (Note:")[0]
    assert listed == "1. Return a new list of each item of a in order, then (x plus 1)."
    for a, x in (([3, 1], 5), ([], 0)):
        assert [*a, x + 1] == [*a] + [x + 1]  # "each item of a in order, then x plus 1"
    joined = _steps("def f(a, b):\n    return {*a, *b}\n")
    assert joined == ["1. Return a new set of the items of a and the items of b."]  # a set: no order words
    for a, b in (([1, 2], [2, 3]), ([], [4, 4])):
        assert {*a, *b} == set(a) | set(b)
    assert "in order" not in _steps("def f(a):\n    return {0, *a}\n")[0]


def test_unpacking_a_dictionary_inside_a_dictionary_copies_then_sets():
    steps = _steps("def f(d, v):\n    return {**d, 'k': v}\n")
    assert steps == ['1. Return a new dictionary with every key and value of d, then mapping "k" to v (replacing the '
                     'value of a key already there).']
    d = {"k": 1, "j": 2}
    assert {**d, "k": 9} == {"k": 9, "j": 2} and list({**d, "k": 9}) == ["k", "j"]


def test_a_starred_part_is_never_taken_for_one_item():
    """`[*a] * 3`, `p, q = (*a, b)`, `"%s %s" % (*a, b)`: a starred part is not one item of the display."""
    assert "copies of a new list of each item of a in order" in _steps("def f(a):\n    return [*a] * 3\n")[0]
    with pytest.raises(Undescribable, match="printf-style"):
        describe("def f(a, b):\n    return '%s-%s' % (*a, b)\n", [], {}, "int")


def test_operator_index_keeps_a_whole_number_and_stops_on_anything_else():
    import operator

    said = describe("import operator\ndef f(x):\n    return operator.index(x) + 1\n", [], {}, "int")
    assert not holds_code(said)
    assert "Return (x taken strictly as a whole number) plus 1." in said
    assert vocab.RULES["whole_number_only"] in said
    for whole in (0, 7, -3, True, False):  # "a whole number unchanged, and true and false as 1 and 0"
        assert operator.index(whole) == int(whole) and type(operator.index(whole)) is int
    for other in (2.0, 1.5, "3", None, [1]):  # "anything else ... stops the steps with an error"
        with pytest.raises(TypeError):
            operator.index(other)
    known = describe("import operator\ndef f(x, s):\n    return operator.index(x) - operator.index(len(s))\n",
                     [], {"x": "int", "s": "str"}, "int")  # a whole number surely: kept, with no note
    assert "Return x minus (the length of s)." in known and vocab.RULES["whole_number_only"] not in known
    with pytest.raises(Undescribable, match="operator.index"):
        describe("import operator\ndef f(x):\n    return operator.index(x, 2)\n", [], {}, "int")


def test_a_flag_group_says_its_part_is_matched_with_that_flag_and_matches_as_python_does():
    import itertools

    assert gloss("(?i:ab)c") == ('the pattern matching ((the text "ab" (in this part, letters match regardless of '
                                 'case)), then the text "c")')
    assert gloss("(?i)a(?-i:b)c") == ('the pattern matching (the text "a", then (the text "b" (in this part, letters '
                                      'match only in the case written)), then the text "c") (letters match regardless '
                                      'of case)')
    for text in map("".join, itertools.product("aA", "bB", "cC")):
        assert bool(re.fullmatch("(?i:ab)c", text)) == (text[2] == "c")  # the case of a and b free, c as written
        assert bool(re.fullmatch("(?i)a(?-i:b)c", text)) == (text[1] == "b")
    dotted = gloss("(?s)a(?-s:.)")
    assert "(any one character except a line break (in this part, 'any character' excludes the line break))" in dotted
    assert re.fullmatch("(?s)a(?-s:.)", "a\n") is None and re.fullmatch("(?s:.)", "\n")
    assert gloss("(?i:ab)+c").startswith('the pattern matching ((the text "ab" (in this part, letters match '
                                         'regardless of case)) repeated 1 or more times')  # the note stays inside
    assert gloss("(?-i:ab)c") == 'the pattern matching (the text "ab", then the text "c")'  # never on: no note
    assert gloss("(?m:^)a") == ('the pattern matching ((the start of a line (in this part, start and end of text also '
                                'match at the start and end of every line)), then the text "a")')


def test_a_flag_group_keeps_the_case_blind_guards_of_the_whole_pattern_flag():
    assert gloss("(?i:[\u0100-\u017f])") == ('the pattern matching (one character that is one of: from "\u0100" to '
                                             '"\u017f"; "I"; "S"; "i"; "s") (in this part, letters match regardless '
                                             'of case)')  # the partners re adds, as under re.IGNORECASE
    assert re.fullmatch("(?i:[\u0100-\u017f])", "s") and not re.fullmatch("[\u0100-\u017f]", "s")
    for pattern in ("(?i:\u212a)", "x(?i:a\u017f)", "(?ia:\u00e9)", "(?a)(?i:\u0100)"):
        with pytest.raises(Undescribable, match="case-blind"):
            gloss(pattern)
    said = describe("import re\ndef f(s):\n    return re.sub(r'(?i:ab)c', 'x', s)\n", [], {}, "str")
    assert "every match of the pattern matching ((the text \"ab\" (in this part, letters match regardless of case))" \
        in said and not holds_code(said)


def test_an_int_enum_compared_only_is_said_as_its_numbers():
    code = ("from enum import IntEnum\nclass Code(IntEnum):\n    'Codes.'\n    OK = 0\n    BAD = 7\ndef f(a):\n    n = 0\n"
            "    for x in a:\n        if x in (Code.OK, Code.BAD) or x == Code.BAD:\n            n += 1\n    return n\n")
    text = describe(code, [], {"a": "list[int]"}, "int")
    assert "Code gives names to whole numbers, and the steps say each one they use as its number: OK for 0 and BAD " \
           "for 7" in text
    assert "2.1. If (x is one of 0 or 7) or (x equals 7), add 1 to n." in text
    from enum import IntEnum
    Code = IntEnum("Code", {"OK": 0, "BAD": 7})
    assert 7 in (Code.OK, Code.BAD) and Code.BAD == 7 and {7: 1}[Code.BAD] == 1
    assert repr(Code.BAD) != "7"  # what a result may show of a member: never said as its number
    for unclear in (code.replace("x == Code.BAD", "x is Code.BAD"),  # identity, not value
                    code.replace("return n", "return [n, Code.OK]"),  # a member kept in the result
                    code.replace("return n", "return repr([Code.OK])")):
        with pytest.raises(Undescribable, match="IntEnum"):
            describe(unclear, [], {"a": "list[int]"}, "int")


def test_a_lambda_may_read_an_input_nothing_sets_again():
    code = "def h(c, g):\n    return g(c)\ndef f(a, v):\n    return h(a, lambda _: v)\n"
    assert _steps(code)[-1] == "1. Return what h gives back with a and (a function that, given _, gives back v)."
    with pytest.raises(Undescribable, match="reads a variable of the steps"):  # v read when called: its last value
        _steps(code.replace("    return h(a", "    v = v + 1\n    return h(a"))


def test_a_container_method_behind_an_operator_passed_as_a_value_is_said_as_the_operator():
    code = ("def f(a, b):\n    u = set(a)\n    return [list(filter(u.__contains__, b)), list(map(a.__getitem__, b)),"
            " list(map(set, [a, b]))]\n")
    text = describe(code, [], {"a": "list[int]", "b": "list[int]"}, "list")
    assert "(the results of keeping the items of b, in order, for which (whether the item is in u) counts as true)" in text
    assert "(the results of item (each item) of a, for each item of b in order)" in text
    assert "(the results of a new set of the distinct items of each item, for each item of" in text
    assert list(filter({1}.__contains__, [1, 2])) == [x for x in [1, 2] if x in {1}]
    with pytest.raises(Undescribable, match="function passed as a value"):  # an owner of unknown kind
        describe("def f(a, b):\n    return list(filter(a.__contains__, b))\n", [], {}, "list")


def test_fields_and_methods_of_objects_of_a_class_of_the_code_are_said_wherever_the_object_is_held():
    code = ("class P:\n    def __init__(self, x):\n        self.x = x\n    def twice(self):\n        return self.x * 2\n"
            "def f(a):\n    ps = [P(v) for v in a]\n    best = P(0)\n    for p in ps:\n        if p.x > best.x:\n"
            "            best = p\n            best.x += 1\n    return [best.x, ps[0].twice()]\n")
    steps = _steps(code)
    assert "A new object of the class P, made with x, keeps its own fields (each a value stored under a name) and " \
           "equals only itself (never another object, even one made alike)" in describe(code, [], {}, "int")

    class Alike:
        def __init__(self, x):
            self.x = x
    assert Alike(1) != Alike(1) and [Alike(1)].count(Alike(1)) == 0
    assert steps[2].startswith("2.1. If the field x of p is greater than the field x of best:")
    assert steps[4] == "2.1.2. Add 1 to the field x of best."
    assert steps[5].startswith("3. Return a new list of the field x of best and what the method twice of the class P "
                               "gives back when called on the first item of ps (an object of that class) with no "
                               "inputs, in that order.")
    for unclear in (code.replace(".x", ".count"),  # a list has a count too: p.count would not surely be a field
                    code.replace("def twice", "def x"),  # a method and a field of one name
                    code.replace("P(0)\n", "P(0)\n    n = P.x\n")):  # the class itself holds no field
        with pytest.raises(Undescribable):
            _steps(unclear)


def test_a_named_tuple_class_is_a_record_made_by_place_or_by_name_and_read_by_its_items_names():
    code = ("from typing import NamedTuple\nclass P(NamedTuple):\n    'A point.'\n    x: int\n    y: int\n"
            "def f(a):\n    best = P(0, y=1)\n    for v in a:\n        if v > best.x:\n            best = P(y=best.y, x=v)\n"
            "    return list(best)\n")
    text = describe(code, [], {"a": "list[int]"}, "list[int]")
    assert "P makes a tuple whose items are also named x and y." in text
    assert "1. Set best to a new P tuple of 0 and 1." in text
    assert "2.1. If v is greater than the item named x of best, set best to a new P tuple of v and the item named y " \
           "of best." in text
    from typing import NamedTuple
    Point = NamedTuple("Point", [("x", int), ("y", int)])
    assert list(Point(y=5, x=1)) == [1, 5] and Point(1, 5).y == 5
    for unclear in (code.replace("    y: int\n", "    y: int = 0\n"),  # a default: no words yet
                    code.replace("best = P(y=best.y, x=v)", "best = P(y=best.y + 1, x=v * 2)"),  # worked out out of order
                    code.replace("    return list(best)\n", "    best.x = 3\n    return list(best)\n")):  # items are fixed
        with pytest.raises(Undescribable):
            describe(unclear, [], {"a": "list[int]"}, "list[int]")


def test_a_pattern_built_from_another_patterns_text_keeps_the_text_not_the_flags():
    code = ("import re\nP = re.compile(r'b+', re.I)\nQ = re.compile('x|' + P.pattern)\ndef f(a):\n    if a:\n"
            "        return Q.sub('-', a)\n    return P.sub('', a)\n")
    text = describe(code, [], {"a": "str"}, "str")
    assert "Q is the pattern matching either the text \"x\" or the text \"b\" repeated 1 or more times (as many as " \
           "possible, giving back as the rest of the pattern needs) (the first that fits, left to right)." in text
    import re
    assert re.compile("x|" + re.compile("b+", re.I).pattern).sub("-", "B") == "B"  # Q takes no flags from P


def test_isinstance_against_a_memory_view_is_named():
    steps = _steps("def f(a):\n    if isinstance(a, (str, memoryview)):\n        return 1\n    return 0\n")
    assert steps[0] == "1. If a is text or a memory view (a window onto the bytes of another value), return 1."
    assert isinstance(memoryview(b"x"), memoryview) and not isinstance(b"x", memoryview)


def test_a_dataclass_of_plain_fields_is_told_with_the_rules_its_objects_follow():
    code = ("from dataclasses import dataclass\n@dataclass(frozen=True)\nclass P:\n    'A point.'\n    x: int\n"
            "    y: int = 0\ndef f(a):\n    seen = set()\n    for v in a:\n        seen.add(P(v % 3))\n    return len(seen)\n")
    text = describe(code, [], {"a": "list[int]"}, "int")
    assert "P is a kind of object holding the fields x and y, in that order: making one gives its fields the values " \
           "given, in that order or by name (y is 0 when not given); two objects of P are equal when each field of " \
           "one equals the same field of the other, and one equals nothing else; comparing two for order (less, " \
           "greater) stops the steps with an error; its fields cannot be changed once it is made" in text
    assert "2.1. Add (a new object of the class P with its field x set to (the remainder of v divided by 3) and its " \
           "field y set to 0) to the set seen" in text
    from dataclasses import FrozenInstanceError, dataclass

    @dataclass(frozen=True)
    class Point:
        x: int
        y: int = 0
    assert len({Point(1), Point(1, 0), Point(y=0, x=1)}) == 1 and Point(1) != (1, 0) and repr(Point(1)).endswith(".Point(x=1, y=0)")
    with pytest.raises(FrozenInstanceError):
        Point(1).x = 2
    with pytest.raises(TypeError):
        Point(1) < Point(2)
    with pytest.raises(TypeError):  # not frozen: no object of it can be hashed
        {dataclass(type("Q", (), {"__annotations__": {"x": int}}))(1)}
    assert "one cannot be a key of a dictionary or an item of a set" in describe(
        code.replace("(frozen=True)", ""), [], {"a": "list[int]"}, "int")
    for unclear in (code.replace("        seen.add(P(v % 3))", "        q = P(v)\n        q.x = 1"),  # frozen
                    code.replace("    y: int = 0\n", "    y: list = None\n    def m(self):\n        return 1\n"),
                    code.replace("P(v % 3)", "P(y=v, x=v % 3)")):  # worked out in another order than said
        with pytest.raises(Undescribable):
            describe(unclear, [], {"a": "list[int]"}, "int")


def test_a_class_with_slots_for_every_field_it_sets_is_told_as_any_small_class():
    code = ("class Node:\n    __slots__ = ('val', 'nxt')\n    def __init__(self, val, nxt=None):\n        self.val = val\n"
            "        self.nxt = nxt\ndef f(a):\n    head = None\n    for v in a:\n        head = Node(v, head)\n"
            "    out = []\n    while head is not None:\n        out.append(head.val)\n        head = head.nxt\n    return out\n")
    steps = _steps(code)
    assert steps[5:7] == ["4.1. Put the field val of head at the end of out.", "4.2. Set head to the field nxt of head."]
    for unclear in (code.replace("('val', 'nxt')", "('val',)"),  # a field set outside the slots fails
                    code.replace("        head = head.nxt", "        head.val = 1\n        head = head.nxt")):
        with pytest.raises(Undescribable):
            _steps(unclear)


def test_a_dataclass_field_made_by_a_default_factory_is_a_new_empty_one_for_each_object():
    code = ("from dataclasses import dataclass, field\n@dataclass\nclass Bin:\n    cap: int\n"
            "    held: list = field(default_factory=list)\ndef f(a, c):\n    bins = []\n    for v in a:\n"
            "        if not bins or sum(bins[-1].held) + v > bins[-1].cap:\n            bins.append(Bin(c))\n"
            "        bins[-1].held.append(v)\n    return [b.held for b in bins]\n")
    text = describe(code, [], {"a": "list[int]", "c": "int"}, "list")
    assert "making one gives its fields the values given, in that order or by name (held is a new empty list when " \
           "not given)" in text
    assert "put (a new object of the class Bin with its field cap set to c and its field held set to a new empty " \
           "list) at the end of bins." in text
    assert "2.2. Put v at the end of the field held of the last item of bins." in text
    with pytest.raises(Undescribable):  # `items` is also a dictionary's method: p.items would not surely be a field
        describe(code.replace("held", "items"), [], {"a": "list[int]", "c": "int"}, "list")
    with pytest.raises(Undescribable):  # a factory other than an empty list, dictionary or set
        describe(code.replace("default_factory=list", "default_factory=lambda: [0]"), [], {"a": "list[int]", "c": "int"}, "list")


def test_a_base_and_a_type_variable_that_only_serve_type_checkers_need_no_words():
    code = ("from typing import Generic, TypeVar\nT = TypeVar('T')\nclass Stack(Generic[T]):\n"
            "    def __init__(self):\n        self.items: list[T] = []\n    def push(self, x: T) -> None:\n"
            "        self.items.append(x)\ndef f(a):\n    s = Stack()\n    for v in a:\n        s.push(v)\n"
            "    return s.items\n")
    text = describe(code, [], {"a": "list[int]"}, "list")
    assert "TypeVar" not in text and "Generic" not in text and "You can also use" not in text
    assert "A new object of the class Stack, made with no inputs" in text
    with pytest.raises(Undescribable):  # T read by a step is a value, not an aid
        describe(code.replace("return s.items", "return [s.items, T]"), [], {"a": "list[int]"}, "list")
    with pytest.raises(Undescribable):  # a base that changes what objects do
        describe(code.replace("Generic[T]", "dict"), [], {"a": "list[int]"}, "list")


def test_a_string_template_filled_from_a_dictionary_says_its_placeholders_and_what_stays():
    import string
    code = "from string import Template\ndef f(t, d):\n    return Template(t).safe_substitute(d)\n"
    text = describe(code, [], {"t": "str", "d": "dict"}, "str")
    assert ("Return t with its placeholders filled in from d (the steps stop with an error if t is not text): each "
            "placeholder whose name is a key of d is replaced by the value d holds under it written as text; a "
            "placeholder whose name is not a key of it stays as it is, and so does any other \"$\".") in text
    assert vocab.RULES["template"] in text
    # the rule's claims, checked on Python itself
    assert string.Template("$$a ${a}b $a_1 $1 $ $é ${c}").safe_substitute({"a": [1, "x"], "a_1": None}) == \
        "$a [1, 'x']b None $1 $ $é ${c}"
    strict = describe(code.replace("safe_substitute", "substitute"), [], {"t": "str", "d": "dict"}, "str")
    assert "or any other \"$\", stops the steps with an error (of the kind KeyError or ValueError)" in strict
    with pytest.raises(Undescribable):  # values given by name: no words
        describe(code.replace("(d)", "(d, a=1)"), [], {"t": "str", "d": "dict"}, "str")


def test_a_function_chosen_by_a_condition_and_called_is_the_choice_of_the_two_calls():
    steps = _steps("def f(xs, up):\n    return (sorted if up else list)(xs)\n")
    assert steps[0].startswith("1. Return (a new list of the items of xs, sorted from smallest to largest) if up "
                               "counts as true, otherwise (a new list of the items of xs, in order).")
    with pytest.raises(Undescribable, match="computed function"):  # a function a call gives back
        _steps("def f(xs, g):\n    return g(xs)(xs)\n")


def test_a_class_read_only_by_annotations_whose_defining_changes_nothing_else_needs_no_words():
    code = ("from enum import StrEnum\nclass Role(StrEnum):\n    'Roles.'\n    GIVEN = 'given'\n"
            "class Token:\n    text: str\n    role: Role | None = None\n    tags: frozenset[str] = frozenset()\n"
            "    @property\n    def size(self):\n        return len(self.text)\n"
            "def f(a: list[int]) -> list[Token]:\n    return [v + 1 for v in a]\n")
    text = describe(code, [], {"a": "list[int]"}, "list")
    assert "Token" not in text and "Role" not in text and "You can also use" not in text
    for unclear in (code.replace("-> list[Token]:", ":\n    t = Token"),  # read by a step
                    code.replace("class Token:", "@register\nclass Token:"),  # a decorator may change other values
                    code.replace("    GIVEN = 'given'", "    GIVEN = SEEN.append(1)")):  # a body that runs a call
        with pytest.raises(Undescribable, match="module-level class"):
            describe(unclear, [], {"a": "list[int]"}, "list")


def test_which_library_results_are_plain_is_said_by_the_library_file(monkeypatch):
    code = "import math\ndef f(x):\n    y = [math.floor(x)]\n    return str(y)\n"
    assert "2. Return y as Python displays it." in describe(code, [], {"x": "float"}, "str")
    assert {"math.floor", "re.sub", "urllib.parse.quote", "os.path.join"} <= vocab.PLAIN
    monkeypatch.setattr(vocab, "PLAIN", vocab.PLAIN - {"math.floor"})
    with pytest.raises(Undescribable, match="written as text"):
        describe(code, [], {"x": "float"}, "str")


def test_a_function_of_a_library_without_words_passed_as_a_value_is_no_method_of_a_value():
    with pytest.raises(Undescribable, match="function passed as a value"):  # once said as `str.split` on "shlex"
        describe("import shlex\ndef f(xs):\n    return list(map(shlex.split, xs))\n", [], {"xs": "list[str]"}, "list")
    steps = _steps("def f(xs, sep):\n    return list(map(sep.split, xs))\n")
    assert steps[0].startswith("1. Return a new list of the items of (the results of the list of pieces of sep split")


def test_a_query_text_read_into_names_and_values_says_what_is_skipped_and_what_stops():
    from urllib.parse import parse_qs
    code = "from urllib.parse import parse_qs\ndef f(q, s):\n    return parse_qs(q, strict_parsing=s, separator=';')\n"
    step = describe(code, [], {"q": "str", "s": "bool"}, "dict").split("1. Return ")[1]
    assert step.startswith("a new dictionary mapping each name, in the order first met, to the list of its values in "
                           "the order met, read from the query q: cut q at every occurrence of \";\" (no pieces at all "
                           "when q is empty) and take each piece in order: an empty piece, or a piece with no \"=\", "
                           "stops the steps with an error (of the kind ValueError) if s counts as true, and is "
                           "otherwise skipped; any other piece is split at its first \"=\" into a name and a value, and "
                           "skipped when the value is empty; in both parts each \"+\" becomes a space, and then each "
                           "part is replaced by the part with every escape")
    # the words' claims, on Python itself
    assert parse_qs("b=2;;a;a=x%41+y;c=;b=1&d=3=4", separator=";") == {"b": ["2", "1&d=3=4"], "a": ["xA y"]}
    with pytest.raises(ValueError):
        parse_qs("a=1;;b=2", strict_parsing=True, separator=";")
    for unclear in (code.replace("strict_parsing=s", "keep_blank_values=True"),  # blanks kept: other rules
                    code.replace("separator=';'", "separator=s")):  # a separator not written
        with pytest.raises(Undescribable, match="parse_qs"):
            describe(unclear, [], {"q": "str", "s": "bool"}, "dict")
    mixed = describe(code, [], {"q": "Union[str, int, list]", "s": "bool"}, "dict")
    assert ("read from the query q (when q is not text: an empty dictionary if q counts as false, and otherwise the "
            "steps stop with an error of the kind AttributeError): cut q") in mixed
    assert parse_qs(0) == parse_qs([]) == {}
    with pytest.raises(AttributeError):
        parse_qs([1])
    with pytest.raises(Undescribable, match="parse_qs"):  # a query worked out that may be bytes
        describe(code.replace("parse_qs(q,", "parse_qs(q.encode(),"), [], {"q": "str", "s": "bool"}, "dict")


def test_adding_a_library_is_adding_one_file_its_words_and_which_results_are_plain(monkeypatch):
    from types import SimpleNamespace
    for table in ("TABLE", "KINDS", "STEPS", "DECORATORS"):
        monkeypatch.setattr(vocab, table, dict(getattr(vocab, table)))
    for found in ("PLAIN", "AIDS"):
        monkeypatch.setattr(vocab, found, set(getattr(vocab, found)))
    monkeypatch.setattr(vocab, "FILES", {k: set(v) for k, v in vocab.FILES.items()})
    library = SimpleNamespace(__name__="vocab.lib_shlex", LIBRARY="shlex", PLAIN={"quote"},
                              WORDS={"quote": lambda say, args, keywords: f"{say.grouped(args[0])} made safe for a shell"})
    code = "import shlex\ndef f(x):\n    y = [shlex.quote(x)]\n    return str(y)\n"
    with pytest.raises(Undescribable):
        describe(code, [], {"x": "str"}, "str")
    vocab._register(library, library.LIBRARY, vocab.TABLE, vocab.KINDS, vocab.STEPS, vocab.DECORATORS)
    text = describe(code, [], {"x": "str"}, "str")
    assert "1. Set y to a new list holding just x made safe for a shell." in text
    assert "2. Return y as Python displays it." in text and vocab.FILES["lib_shlex"] == {"shlex.quote"}


_TEXT_CLASS = ("class Token(str):\n    kind_known = True\n    def __new__(cls, value, kind):\n"
               "        self = super().__new__(cls, value)\n        self.kind = kind\n        self.notes = []\n"
               "        return self\n    def __repr__(self):\n        return 'Token'\n    @property\n"
               "    def size(self):\n        return len(self)\nclass Space(Token):\n    def is_space(self):\n"
               "        return True\ndef f(v):\n    rest = v.lstrip()\n    t = Space(v[:len(v) - len(rest)], 'ws')\n"
               "    return [t.upper(), t + rest]\n")


def test_a_class_whose_objects_are_texts_is_said_as_the_text_it_is_made_from():
    text = describe(_TEXT_CLASS, [], {"v": "str"}, "list")
    assert ("Space is a kind of text of its own: each one made is a text (with fields of its own that no step reads) "
            "and behaves as that text in every step") in text
    assert "2. Set t to a new text equal to the part of v before position" in text
    assert "(an object of the class Space, a kind of text)" in text
    anonymised = _TEXT_CLASS.replace("self", "p").replace("(cls, value, kind)", "(b, c, d)").replace(
        "(cls, value)", "(b, c)").replace("= kind", "= d")
    assert "(an object of the class Space, a kind of text)" in describe(anonymised, [], {"v": "str"}, "list")
    for unclear in (_TEXT_CLASS.replace("[t.upper(), t + rest]", "repr(t)"),  # its own display
                    _TEXT_CLASS.replace("[t.upper(), t + rest]", "t.kind"),  # a field of its own
                    _TEXT_CLASS.replace("def size(self)", "def upper(self)"),  # a method named like text's
                    _TEXT_CLASS.replace("def __repr__(self)", "def __eq__(self, other)"),  # equality of its own
                    _TEXT_CLASS.replace("self.kind = kind", "self.kind = kind.strip()"),  # making works things out
                    _TEXT_CLASS.replace("'ws')", "v.strip())")):  # an input worked out but kept unread
        with pytest.raises(Undescribable):
            describe(unclear, [], {"v": "str"}, "list")


def test_a_class_only_asked_about_by_isinstance_needs_no_more_than_its_name():
    code = ("class Node(list):\n    size = 0\n    def __len__(self):\n        return 0\n    @property\n"
            "    def first(self):\n        return self[0]\ndef f(x):\n    if isinstance(x, (int, Node)):\n"
            "        return 1\n    return 2\n")
    text = describe(code, [], {"x": "list[int]"}, "int")
    assert "You can also use these fixed values: Node is a kind of object of its own (no step makes one)." in text
    assert "1. If x is a whole number or an object of the class Node (or of a class built on it)" in text
    for unclear in (code.replace("return 1", "return Node()"),  # one is made
                    code.replace("class Node(list):", "@register\nclass Node(list):")):  # its defining may do more
        with pytest.raises(Undescribable, match="module-level class"):
            describe(unclear, [], {"x": "list[int]"}, "int")


def test_a_library_constant_imported_by_name_is_said_by_its_library_file():
    steps = _steps("from math import pi\nfrom string import digits\ndef f(x):\n    if x > 0:\n        return pi\n"
                   "    return digits\n")
    assert steps == ["1. If x is greater than 0, return the number pi (3.141592653589793).", '2. Return "0123456789".']
    assert vocab.CONSTANTS["string.digits"] == '"0123456789"'


def test_an_input_of_no_one_kind_is_not_given_the_kind_a_later_step_sets():
    """`if not c: c = b + "s"` with c given as a whole number or None: c is text only after the step,
    so the check reads "counts as false" (0 counts as false), never "is empty", which a reader would
    not say of 0."""
    source = "def f(a, b, c=None):\n    if not c:\n        c = b + 's'\n    return b if a == 1 else c\n"
    said = describe(source, [], {"a": "int", "b": "str", "c": "Union[int, None]"}, "str")
    assert "c counts as false" in said and "c is empty" not in said
    said = describe(source, [], {"a": "int", "b": "str", "c": "str"}, "str")  # declared text: empty is exact
    assert "c is empty" in said


def test_a_kind_asked_of_a_literal_or_of_a_tuple_of_kinds_is_an_exact_kind_check():
    assert _steps("def f(c):\n    if type(c) == type(''):\n        return 1\n    return 0\n")[0] == (
        "1. If c is exactly text (of that very kind, not of a kind built on it), return 1.")
    assert _steps("def f(c):\n    if type(c) is not type(None):\n        return 1\n    return 0\n")[0] == (
        "1. If c is not None, return 1.")
    assert _steps("def f(x):\n    if type(x) in (list, type(())):\n        return 1\n    return 0\n")[0] == (
        "1. If x is exactly a list or exactly a tuple (of that very kind, not of a kind built on it), return 1.")
    assert _steps("def f(x):\n    if type(x) not in (int, float):\n        return 1\n    return 0\n")[0] == (
        "1. If x is not exactly a whole number and not exactly a decimal number (of that very kind: true and false "
        "do not count, nor a kind built on it), return 1.")
    assert _steps("def f(a, b):\n    if type(a) is not type(b):\n        return 1\n    return 0\n")[0].startswith(
        "1. If a is not of exactly the same kind as b (a whole number, a decimal number, true or false, text, bytes, "
        "None, a list, a tuple, a dictionary, a set and a fixed set are each a kind of its own, and an object of a "
        "class of the code is of the kind of its class, not of a kind it is built on), return 1.")


def test_translate_with_a_table_of_code_points_written_in_the_code_or_made_at_run_time():
    assert _steps("def f(s):\n    return s.translate({ord('a'): 'bb', 0x63: None, ord('d'): 101})\n") == [
        "1. Return s with every \"a\" replaced by \"bb\", every \"c\" removed and every \"d\" replaced by \"e\", all "
        "at once (each character of s is looked at once, and what it is replaced by is never changed again; every "
        "other character kept as it is)."]
    assert _steps("def f(s, t):\n    return s.translate(t)\n") == [
        "1. Return s with each character changed by looking its Unicode code point up in t, all at once: where t "
        "holds a value under that code point (as a key of a dictionary, or as a position of a list or text), a text "
        "value takes the character's place, a whole number puts the character with that code point in its place, "
        "and None removes the character (any other value stops the steps with an error); a character whose code "
        "point t does not hold is kept as it is."]
    with pytest.raises(Undescribable, match="translate"):  # text keys: no code point is a key, said by no rule here
        describe("def f(s):\n    return s.translate({'a': 'b'})\n", [], {}, "int")
    with pytest.raises(Undescribable, match="translate"):  # a dictionary that makes values for missing keys
        describe("from collections import defaultdict\ndef f(s):\n    return s.translate(defaultdict(str))\n", [], {},
                 "int")


def test_several_groups_of_a_match_asked_at_once_are_a_tuple_in_the_order_asked():
    steps = _steps("import re\ndef f(s):\n    m = re.match(r'(?P<h>a)(b)', s)\n    return m.group('h', 0, 2)\n")
    assert steps[1] == ("2. Return the tuple of the texts that group \"h\", the whole match and group 2 of the match "
                        "m cover, in that order (None for a group that took no part).")


def test_a_call_of_the_codes_own_function_between_two_checks_is_worked_out_once():
    steps = _steps("def g(c):\n    return c + 1\ndef f(x):\n    if 3 < g(x) < 7:\n        return 1\n    return 0\n")
    assert "3 is less than what g gives back with x and what g gives back with x is less than 7 (what g gives back " \
           "with x worked out only once)" in " ".join(steps)
    assert "worked out only once" not in " ".join(_steps("def f(x):\n    if 3 < len(x) < 7:\n        return 1\n"
                                                         "    return 0\n"))


def test_a_bytearray_is_the_bytes_bytes_would_make_as_a_changeable_value():
    steps = _steps("def f(n):\n    b = bytearray([1, 2])\n    c = bytearray()\n    b[0] = 65\n    return len(b) + len(c)\n")
    assert steps[0].startswith("1. Set b to (the bytes whose values are 1 and 2, in that order (each must be from 0 to "
                               "255)), as a new changeable bytes value; c to no bytes at all, as a new changeable "
                               "bytes value.")
    assert vocab_rule("bytearray") in steps[0]


def vocab_rule(key: str) -> str:
    from ifforge.families.logicif.codeops.describe.english import RULES
    return RULES[key]


def test_a_replacement_made_by_fixing_inputs_of_a_helper_is_what_the_helper_gives_back_for_each_match():
    source = ("import re\nimport functools\ndef cb(m, suffix):\n    return m.group(0) + suffix\n"
              "def f(s, t):\n    return re.sub('a', functools.partial(cb, suffix=t), s)\n")
    assert _steps(source)[-1].endswith("replaced by what the helper cb gives back with that match and suffix set to t.")
    with pytest.raises(Undescribable, match="partial"):  # a name the helper's inputs do not have
        describe(source.replace("suffix=t", "other=t"), [], {}, "str")


def test_a_library_imported_under_another_name_is_said_as_the_library():
    steps = _steps("import math as _m\ndef f(x):\n    if x > 0:\n        return _m.sqrt(x) + _m.pi\n    return 0.0\n")
    assert steps[0].startswith("1. If x is greater than 0, return (the square root of x (a decimal number)) plus (the "
                               "number pi (3.141592653589793)).")
    text = describe("import re as _re\nP = _re.compile('a+')\ndef f(x):\n    if P.match(x):\n        return 1\n"
                    "    return 0\n", [], {}, "int")
    assert 'P is the pattern matching the text "a" repeated 1 or more times' in text
    assert "1. If the pattern P matches at the very start of x, return 1." in text


def test_a_text_format_filled_from_the_items_of_a_list_reads_field_n_as_item_n():
    steps = _steps("def f(xs):\n    ys = list(xs)\n    return '{1}-{0}'.format(*ys)\n")
    assert steps[1].startswith("2. Return the text made of the second item of ys written as text, followed by \"-\", "
                               "followed by the first item of ys written as text.")


def test_a_printf_format_filled_from_a_computed_tuple_takes_item_n_and_needs_exactly_as_many():
    steps = _steps("def f(xs):\n    ys = list(xs)\n    return '%s-%s' % tuple(ys)\n")
    assert steps[1].startswith("2. Return the text made of the first item of ys written as text, followed by \"-\", "
                               "followed by the second item of ys written as text (the steps stop with an error "
                               "unless ys has exactly 2 items).")


def test_a_chain_of_the_items_of_a_list_goes_through_each_item_in_turn():
    for source in ("import itertools\ndef f(xs):\n    return list(itertools.chain(*xs))\n",
                   "from itertools import chain\ndef f(xs):\n    return list(chain(*xs))\n"):
        assert _steps(source)[0].startswith("1. Return a new list of the items of (the results of going through the "
                                            "items of each item of xs, one item after the other, in order), in order.")


def test_set_methods_given_the_items_of_a_list_and_named_on_the_kind_itself():
    steps = _steps("def f(xs, s):\n    t = set(s)\n    return len(t.union(*xs)) + len(t.intersection(*xs))\n")
    assert ("a new set of the items that are in t or in at least one item of xs" in steps[1]
            and "a new set of the items of t that are in every item of xs" in steps[1])
    steps = _steps("def f(xs):\n    return len(set.intersection(*xs))\n")
    assert steps[0].startswith("1. Return the length of a new set of the items that are in every item of xs "
                               "(the steps stop with an error if there is not at least one item, or if the first item "
                               "is not a set).")
    steps = _steps("def f(a, b):\n    return len(set.union(a, b))\n")  # a.union(b): the kind itself is no input
    assert steps[0].startswith("1. Return the length of (a new set of the items that are in a or in b (or "
                               "both) (the steps stop with an error if a is not a set)).")


def test_a_pattern_read_from_a_written_list_of_texts_built_at_run_time():
    steps = _steps("import re\ndef f(name, xs):\n    n = 0\n    for p in [f'{name}a', f'{name}b']:\n"
                   "        for x in xs:\n            if re.search(p, x):\n                n += 1\n    return n\n")
    assert "the pattern that the text p writes as a regular expression" in " ".join(steps)


def test_a_loop_that_unpacks_each_item_with_a_starred_name_splits_the_item_as_an_unpacking_does():
    """`for *state, val in items` (tkinter.ttk, heldout10): each item's own items, the starred name a new list."""
    steps = _steps("def f(xs):\n    out = []\n    for *state, val in xs:\n        out.append(len(state) + val)\n"
                   "    return out\n")
    assert steps[1] == ("2. For each item of xs, in order, take that item's own items in order (there must be at "
                        "least 1) and set state to a new list of all but the last and val to the last: (Note: A "
                        "dictionary gives its keys in the order they were first added, a set its items in Python's "
                        "own order.)")
    head = _steps("def f(xs):\n    for a, *b, c in xs:\n        return a\n    return 0\n")[0]
    assert head.startswith("1. For each item of xs, in order, take that item's own items in order (there must be at least 2) "
                    "and set a to the first, b to a new list of those in between and c to the last:")
    with pytest.raises(Undescribable, match="starred"):
        describe("def f(xs):\n    for (a, *b), c in xs:\n        return a\n", [], {}, "int")


def test_a_tuple_of_kinds_held_in_a_name_set_once_is_what_isinstance_asks_about():
    """`leaves = (bytes, str, int, float, bool, type(None))` then `isinstance(x, leaves)` (dpath, heldout10): the
    name is bound once in the whole module, so it holds that tuple wherever read; `type(None)` is None's kind."""
    steps = _steps("def f(x):\n    leaves = (bytes, str, int, type(None))\n    return isinstance(x, leaves)\n")
    assert steps == ["1. Set leaves to the tuple of these kinds of value (bytes; text; a whole number; None).",
                     "2. Return whether x is bytes, text, a whole number or None (true and false count as whole "
                     "numbers here)."]
    assert _steps("def f(v1):\n    v2 = (str, bool)\n    return isinstance(v1, v2)\n")[0].startswith(
        "1. Set kinds to the tuple")  # a numbered name gets a role that says what it holds (no "pair")
    fixed = describe("K = (str, type(None))\ndef f(x):\n    return isinstance(x, K)\n", [], {}, "int")
    assert "K is the tuple of these kinds of value (text; None)." in fixed
    with pytest.raises(Undescribable, match="isinstance"):  # bound twice: which tuple it holds depends on the steps
        describe("def f(x, ys):\n    k = (int, str)\n    for y in ys:\n        k = (str,)\n    return isinstance(x, k)\n",
                 [], {}, "int")


def test_a_type_alias_read_only_by_another_alias_that_annotations_read_needs_no_words():
    """`Segment = Union[int, str]` read by `Path = Union[str, Sequence[Segment]]`, read by `segments: Path`."""
    code = ("from typing import Union, Sequence\nSegment = Union[int, str]\nPath = Union[str, Sequence[Segment]]\n"
            "def f(x, y: Path):\n    if x:\n        return 1\n    return 2\n")
    assert describe(code, [], {}, "int").startswith("INPUTS: You're given two inputs: x; y.\n")
    with pytest.raises(Undescribable, match="type checkers"):  # the alias is also read as a value: it is said
        describe(code.replace("return 1", "return Segment"), [], {}, "int")


def test_an_abstract_kind_is_said_where_the_code_defines_only_kinds_of_error():
    """A kind of error of the code defines no method that makes its objects a sequence (or iterable, sized)."""
    code = "from collections.abc import Sequence\nclass E(Exception):\n    pass\n" \
           "def f(x):\n    if isinstance(x, Sequence):\n        raise E('no')\n    return 2\n"
    assert _steps(code)[0].startswith("1. If x is a sequence with positions (text, bytes, a list, a tuple or a range;")
    with pytest.raises(Undescribable, match="defines classes of its own"):
        describe(code.replace("    pass", "    def __len__(self):\n        return 1"), [], {}, "int")
    with pytest.raises(Undescribable, match="register|defines classes of its own"):
        describe(code.replace("    if isinstance", "    Sequence.register(E)\n    if isinstance"), [], {}, "int")


def test_a_lambda_may_read_a_name_set_once_to_a_written_value_nothing_changes():
    """lib2to3 (heldout10): `common_chars = "[]().,:"` then `lambda x: x in common_chars` passed to a helper: what
    the lambda reads when called is what was there when made. A list only tested with `in` cannot change either."""
    code = ("def g(xs, test):\n    return [test(x) for x in xs]\n"
            "def f(xs):\n    names = ['in', 'for']\n    chars = '[]()'\n    out = []\n    for x in xs:\n"
            "        if any(g(x, lambda y: y in chars or y in names)):\n            out.append(x)\n    return out\n")
    assert "(a function that, given y, gives back (whether (y is in chars) or (y is in names)))" in _steps(code)[2]
    for changed in ("    names.append('if')\n", "    chars = chars + 'x'\n", "    names[0] = 'x'\n"):
        with pytest.raises(Undescribable, match="reads a variable of the steps"):
            describe(code.replace("    out = []\n", "    out = []\n" + changed), [], {}, "int")


def test_the_largest_of_a_list_spread_into_max_says_what_one_or_no_item_gives():
    """`max(*xs)` compares xs's items when there are two or more, but one item's own items when there is one."""
    said = _steps("def f(xs: list):\n    return min(*xs)\n")[0]
    assert said.startswith("1. Return the smallest of the items of xs (when xs holds exactly one item, the smallest of "
                           "that item's own items instead, that item being a text or collection with at least one; "
                           "when it holds none, the steps stop with an error).")
    assert min(*[[3, 1]]) == 1 and min(*[3, 1]) == 1
    with_first = _steps("def f(a, xs):\n    return max(a, *xs)\n")[0]
    assert with_first.startswith("1. Return the largest of a and the items of xs (when xs is empty, the largest of "
                                 "the items of a instead, which must then be a text or collection with at least one "
                                 "item).")
    assert max("ab", *[]) == "b" and max(1, *[5]) == 5
    assert _steps("def f(a, xs):\n    return max(a, 0, *xs)\n")[0].startswith("1. Return the largest of a, 0 and the "
                                                                            "items of xs. (Note:")
    with pytest.raises(Undescribable):
        describe("def f(xs, ys):\n    return max(*xs, *ys)\n", [], {}, "int")


def test_a_dictionary_of_patterns_read_by_a_key_is_told_row_by_row_and_named_by_its_key():
    """sqlparse (heldout9): `_STRING_CONTENT[char].match(text, pos + 1)`, the dictionary written out in full and
    read only by a key (or `x in NAME`): the pattern under each key is the one written."""
    code = ("import re\nCONTENT = {'\"': re.compile(r'[^\"]*'), \"'\": re.compile(r\"[^']*\")}\n"
            "def f(text):\n    pos = 0\n    out = []\n    while pos < len(text):\n        char = text[pos]\n"
            "        if char in CONTENT:\n            end = CONTENT[char].match(text, pos + 1).end()\n"
            "            out.append(text[pos + 1:end])\n            pos = end + 1\n        else:\n"
            "            pos += 1\n    return out\n")
    text = describe(code, [], {}, "int")
    assert ("The dictionary CONTENT holds these 2 keys with their values, in the order they were added, each key a "
            "text and its value a pattern:\n1. key: \"\\\"\"; value: the pattern matching") in text
    assert "the match of the pattern the dictionary CONTENT holds under the key char (it must hold that key) " \
           "beginning exactly at position (pos plus 1) of text" in text
    assert not holds_code(text)
    by_re = describe("import re\nP = {'a': r'a+', 'b': r'b+'}\ndef f(k, s):\n    if re.match(P[k], s):\n"
                     "        return 1\n    return 0\n", [], {}, "int")
    assert "If the pattern the dictionary P holds under the key k (it must hold that key) matches at the very start" \
           in by_re
    for changed in ("    CONTENT['x'] = re.compile('x')\n", "    print(CONTENT)\n"):
        with pytest.raises(Undescribable, match="not written in the code"):
            describe(code.replace("    pos = 0\n", "    pos = 0\n" + changed), [], {}, "int")


def test_a_record_class_whose_methods_only_write_it_as_text_is_the_record_where_nothing_is_written_as_text():
    """tkinter `_VersionInfoType(namedtuple(...))` with `__str__` (heldout10): no step writes a value as text, so
    the method never runs and its objects are the tuples namedtuple makes."""
    code = ("import collections\nclass V(collections.namedtuple('V', ('major', 'minor'))):\n    __slots__ = ()\n"
            "    def __str__(self):\n        return f'{self.major}.{self.minor}'\n"
            "def f(a: int, b: int):\n    if a > b:\n        return V(a, b)\n    return V(b, a)\n")
    text = describe(code, [], {}, "int")
    assert "V makes a tuple whose items are also named major and minor" in text
    assert "1. If a is greater than b, return a new V tuple of a and b." in text
    for writing in ("str(V(a, b))", "f'{a}'", "'%d' % a", "repr(a)"):
        with pytest.raises(Undescribable, match="module-level class"):
            describe(code.replace("    return V(b, a)", f"    a = {writing}\n    return V(b, a)"), [], {}, "int")
    assert "V makes a tuple" in describe(code.replace("    if a > b", "    if isinstance(a, str):\n        return V(a, a)\n"
                                                      "    if a > b"), [], {}, "int")


def test_several_indices_are_one_tuple_key_as_python_reads_them():
    """`d[i, j]` is `d[(i, j)]`: read, set and deleted the same way; a slice among the indices stays unsaid."""
    steps = _steps("def f(d, i, j):\n    n = 0\n    d[i, j] = d[i, j + 1]\n    del d[i, 0]\n    return d[i, j]\n")
    assert steps == _steps("def f(d, i, j):\n    n = 0\n    d[(i, j)] = d[(i, j + 1)]\n    del d[(i, 0)]\n"
                           "    return d[(i, j)]\n")
    assert steps[3] == "4. Return item (the pair of i and j) of d."
    assert {(1, 2): 5}[1, 2] == 5
    with pytest.raises(Undescribable, match="several indices"):
        describe("def f(d, i):\n    return d[i, 1:2]\n", [], {}, "int")


def test_a_comprehension_that_unpacks_each_item_with_a_starred_name():
    said = _steps("def f(xs):\n    return [a + len(b) for a, *b in xs]\n")[0]
    assert said.startswith("1. Return a new list of (a plus (the length of b)), for each item of xs in order (taking "
                           "that item's own items in order (there must be at least 1), with a the first and b a new "
                           "list of the rest).")
    assert [a + len(b) for a, *b in [[1, 2, 3], [4]]] == [3, 4]


def test_a_type_for_type_checkers_is_never_said_as_an_item():
    """`Optional[x]` or `Union[a, b]` used as a value makes a type, not an item of Optional."""
    for code in ("from typing import Optional\ndef f(x):\n    return Optional[x]\n",
                 "from typing import Union\nA = Union[int, str]\ndef f(x):\n    return A\n",
                 "def f(x):\n    return list[x]\n"):
        with pytest.raises(Undescribable, match="type checkers"):
            describe(code, [], {}, "int")


def test_findall_says_how_a_reader_tells_whether_the_pattern_has_groups():
    """A hand trace read "(one character that is one of ...) repeated exactly 2 times" and could not tell
    whether those brackets were a group, which decides what findall gives: groups are always named."""
    from ifforge.families.logicif.codeops.describe.narrate import describe
    from ifforge.families.logicif.records import Tracker
    counter = [Tracker(name="loop_iterations", kind="loop_iterations", explanation="iterations of the loop")]
    source = ("import re\n\n\ndef f(a):\n    stats = {'loop_iterations': 0}\n    for v in a:\n"
              "        stats['loop_iterations'] += 1\n    return (re.findall('(a)b|[0-9]{2}', a), stats)\n")
    text = describe(source, counter, {"a": "str"}, "list")
    assert 'when the pattern has groups (its words name each one: "group 1, which is ...")' in text
    assert "group 1, which is the text \"a\"" in text


def test_a_list_holding_a_reversed_value_brackets_it_as_one_item():
    """`[ints, reversed(ints)]` was said "a new list of b and the items of b in reverse order", which a hand
    trace read two ways (two items, or b's items spliced in)."""
    from ifforge.families.logicif.records import Tracker
    counter = [Tracker(name="loop_iterations", kind="loop_iterations", explanation="iterations of the loop")]
    source = ("def f(a):\n    stats = {'loop_iterations': 0}\n    out = []\n    for d, m in [a, reversed(a)]:\n"
              "        stats['loop_iterations'] += 1\n        out.append(d + m)\n    return (out, stats)\n")
    text = describe(source, counter, {"a": "list[int]"}, "list")
    assert "a new list of a and (the items of a in reverse order), in that order" in text


def test_a_position_said_in_several_words_is_bracketed():
    """checkdigit's `TABLE[count % 8][int(value)]` read "item x turned into a whole number of (...)":
    where the position ends was a guess."""
    from ifforge.families.logicif.records import Tracker
    counter = [Tracker(name="loop_iterations", kind="loop_iterations", explanation="iterations of the loop")]
    source = ("def f(a, b):\n    stats = {'loop_iterations': 0}\n    total = 0\n    for v in a:\n"
              "        stats['loop_iterations'] += 1\n        total += b[int(v)]\n    return (total, stats)\n")
    text = describe(source, counter, {"a": "str", "b": "list[int]"}, "int")
    assert "item (v turned into a whole number) of b" in text


def test_zip_longest_of_the_items_of_a_list_is_said_as_columns_to_the_longest():
    for source in ("import itertools\ndef f(xs):\n    return list(itertools.zip_longest(*xs))\n",
                   "from itertools import zip_longest\ndef f(xs):\n    return list(zip_longest(*xs))\n"):
        assert _steps(source)[0].startswith(
            "1. Return a new list of the items of (the results of taking item k of each item of xs, in their order, "
            "as a tuple, for each position k from 0 up to the end of the longest of them, None standing in for the "
            "item of each one that has no item at position k (none at all if there are no items)), in order.")
    with pytest.raises(Undescribable, match=r"\* or \*\*"):  # with a fill value beside it: not said
        describe("import itertools\ndef f(xs):\n    return list(itertools.zip_longest(*xs, fillvalue=0))\n",
                 [], {}, "int")


def test_a_loop_over_written_names_of_compiled_patterns_sets_its_name_to_each_pattern():
    source = ("import re\nSTART = re.compile(r'^[A-Z]')\nEND = re.compile(r'[A-Z]$')\n"
              "def f(s):\n    for rx in [START, END]:\n        if rx.match(s):\n            return 2\n    return 1\n")
    steps = _steps(source)
    assert "For each rx of (a new list of" in steps[0] and steps[1].startswith("1.1. If the pattern rx matches at")
    # rx bound otherwise too (here to a text): not a pattern, so not said
    with pytest.raises(Undescribable):
        describe(source.replace("    return 1\n", "    rx = 'x'\n    return rx.match(s)\n"), [], {}, "int")


def test_hasattr_on_a_parameter_read_before_anything_sets_it_again_is_said_by_json_kinds():
    source = ("def f(val):\n    if hasattr(val, '__len__'):\n        val = len(val)\n"
              "    elif hasattr(val, '__round__'):\n        val = 0\n    return val\n")
    steps = _steps(source)
    assert steps[0].startswith("1. If val is a dictionary, a list or text:")
    assert any(s.startswith("Otherwise, if val is a whole number, a decimal number or a truth value") for s in steps)
    for late in ("def f(val):\n    val = str(val)\n    return hasattr(val, '__len__')\n",  # set before: not the input
                 "def f(val):\n    for i in range(2):\n        if hasattr(val, '__len__'):\n            val = 1\n"
                 "    return val\n",  # set in a loop that comes round again
                 "def f(val):\n    if val:\n        val = 1\n    return hasattr(val, '__len__')\n",  # set on one path
                 "def f(val):\n    if (val := len(val)) and hasattr(val, '__len__'):\n        return 1\n"
                 "    return 0\n"):  # set in the test itself
        with pytest.raises(Undescribable, match="hasattr"):
            describe(late, [], {}, "int")


def test_getattr_with_a_default_on_an_item_of_an_input_that_no_json_value_has_is_the_default():
    steps = _steps("def f(xs):\n    return getattr(xs[0], 'typename', None) == 'x'\n")
    assert steps[0].startswith("1. Return whether None (once item 0 of xs has been looked up: it must be there) "
                               "equals \"x\"")
    with pytest.raises(Undescribable, match="getattr"):  # an attribute some JSON values have: not said
        describe("def f(xs):\n    return getattr(xs[0], 'real', None) == 'x'\n", [], {}, "int")


def test_a_parameter_whose_default_is_a_written_pattern_that_no_call_passes_is_that_pattern():
    source = ("import re\ndef h(s, c=re.compile(r'^a')):\n    return c.match(s) is not None\n"
              "def f(x):\n    return h(x)\n")
    text = describe(source, [], {}, "int")
    assert "takes s and c (c is the pattern matching (the start of the text, then the text \"a\") unless it is given)" in text
    assert "the pattern c matches at the very start of s" in text or "the match of the pattern c" in text
    for passed in ("h(x, re.compile('b'))", "h(x, c=1)", "h(*[x])"):  # a call passes it: not always that pattern
        with pytest.raises(Undescribable):
            describe(source.replace("return h(x)", f"return h(x) and {passed}"), [], {}, "int")


def test_bindings_read_a_target_precisely_or_over_count_it_and_leave_out_what_is_asked():
    import libcst as cst

    from ifforge.families.logicif.codeops.describe.bindings import bound
    module = cst.parse_module("import os.path\ndef f(a, b):\n    x[i] = a\n    (c, d) = b\n    n += 1\n"
                              "    for k in b:\n        del e\n")
    assert bound(module) == {"os.path", "f", "a", "b", "c", "d", "n", "k", "e"}
    assert bound(module, over_count=True) == {"os", "path", "f", "a", "b", "x", "i", "c", "d", "n", "k", "e"}
    assert bound(module, plain=False, augmented=False, parameters=False) == {"os.path", "f", "k", "e"}


_FACTORY = ('def pick_mark(*marks):\n    "The first of marks in a character."\n    def _(ch):\n'
            '        for m in marks:\n            if m in ch:\n                return m\n    return _\n'
            'def strip_marks(drop, keep=""):\n    def inner(text):\n'
            '        return "".join(c for c in text if c not in drop or c in keep)\n    return inner\n'
            'ACUTE = "\\u0301"\nGRAVE = VARIA = "\\u0300"\naccent = pick_mark(ACUTE, GRAVE)\nplain = strip_marks("ab")\n'
            'def f(s):\n    return accent(s), plain(s)\n')


def test_a_function_made_at_module_level_by_a_factory_is_a_helper_whose_fixed_values_are_its_inputs():
    text = describe(_FACTORY, [], {}, "int")
    assert "GRAVE and VARIA are both \"\\u0300\"" in text  # `A = B = value`: one value, two names
    assert "A helper you will use, accent, takes ch and does this:\n1. For each m of (the pair of ACUTE and GRAVE)" \
        in text
    assert "A helper you will use, plain, takes text" in text and "c does not occur in the text \"ab\"" in text \
        and "c occurs in the text \"\" (empty text)" in text  # a default the call leaves out is its value
    assert "pick_mark" not in text and "strip_marks" not in text  # the factories are left out
    scaled = describe("def scale(k):\n    def times(x, by=k):\n        return x * by\n    return times\n"
                      "triple = scale(3)\ndef f(a):\n    return triple(a)\n", [], {}, "int")
    assert "triple, takes x and by (by is 3 unless it is given)" in scaled  # a default is read at the making
    # a value that is not fixed (a list, made anew at each read), or a factory used otherwise: told as before
    for changed in (_FACTORY.replace("pick_mark(ACUTE, GRAVE)", "pick_mark([ACUTE])"),
                    _FACTORY.replace("return accent(s)", "return pick_mark(s)(s)"),
                    _FACTORY.replace("for m in marks:", "for ACUTE in marks:")):  # the inner function binds ACUTE
        try:
            assert "A helper you will use, pick_mark" in describe(changed, [], {}, "int")
        except Undescribable:
            pass


def test_a_helper_parameter_every_call_gives_a_written_pattern_is_that_pattern():
    source = ("import re\nHEAD = re.compile(r'^--- ')\ndef rows(lines, c):\n"
              "    return [i for i in range(len(lines)) if c.match(lines[i])]\n"
              "def parts(lines, p):\n    return rows(lines, p)\n"
              "def f(xs):\n    return parts(xs, HEAD), rows(xs, re.compile('b'))\n")
    text = describe(source, [], {}, "int")
    assert "the pattern c matches at the very start of item i of lines" in text
    assert "what rows gives back with lines and p" in text
    with pytest.raises(Undescribable, match="not written in the code"):  # one call gives a text: not a pattern
        describe(source.replace("rows(xs, re.compile('b'))", "rows(xs, xs[0])"), [], {}, "int")


def test_a_name_set_to_one_of_two_written_patterns_by_a_check_is_a_pattern():
    source = ("import re\nA = re.compile(r'[^ -~]')\nB = re.compile(r'[ab]')\ndef f(s, strict):\n"
              "    stats = {}\n    rx = A if strict else B\n    return rx.sub('?', s)\n")
    text = describe(source, [], {"strict": "bool"}, "int")
    assert "Set rx to A if strict, otherwise B." in text and "every match of the pattern rx" in text
    with pytest.raises(Undescribable, match="not written in the code"):  # one arm is a text: not a pattern
        describe(source.replace("else B", "else s"), [], {}, "int")
