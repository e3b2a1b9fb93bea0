"""A note is said only where its case can arise: no note on ordering texts for numbers known to be numbers."""

from ifforge.families.logicif.codeops.describe.narrate import describe

ORDER = "Texts compare character by character"


def _said(source: str, types: dict) -> bool:
    return ORDER in describe(source, [], types, "int")


def test_the_largest_and_smallest_of_a_list_of_numbers_are_numbers():
    source = "def f(a):\n    b = max(a)\n    c = min(a)\n    if b > c:\n        return 1\n    return 0\n"
    assert not _said(source, {"a": "list[int]"})
    assert _said(source, {"a": "list[str]"})


def test_the_parts_of_pairs_of_numbers_are_numbers():
    source = "def f(a):\n    s = 0\n    for p, q in a:\n        if p > q:\n            s = s + 1\n    return s\n"
    assert not _said(source, {"a": "list[list[int]]"})
    assert _said(source, {"a": "list[list[str]]"})
