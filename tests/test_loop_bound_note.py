"""The note that a counting range is fixed when its loop starts: said when the loop changes what the bound reads."""

from ifforge.families.logicif.codeops.describe.narrate import describe

NOTE = "fixed before the loop starts"


def _said(body: str) -> bool:
    source = "def f(v, n):\n    total = 0\n" + body + "    return total\n"
    return NOTE in describe(source, [], {}, "int")


def test_a_list_the_loop_pops_or_appends_to_gets_the_note():
    assert _said("    for i in range(len(v)):\n        total += v.pop()\n")
    assert _said("    for i in range(len(v)):\n        v.append(i)\n        total += 1\n")
    assert _said("    for i in range(len(v[0])):\n        del v[0][0]\n        total += 1\n")


def test_a_bound_the_loop_leaves_alone_gets_no_note():
    assert not _said("    for i in range(len(v)):\n        total += v[i]\n")
    assert not _said("    for i in range(n):\n        v.append(i)\n        total += 1\n")
