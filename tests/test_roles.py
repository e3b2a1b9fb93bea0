"""Numbered variables get role names from how the code uses them; the renamed code means the same."""

import re

import libcst as cst

from ifforge.families.logicif.codeops.describe import roles

SOURCE = '''
def f(a, b):
    stats = {'loop_iterations': 0}
    v1 = []
    v2 = set()
    v3 = 0
    v4 = 0
    v5 = []
    for v6 in range(len(a)):
        v7 = a[v6]
        if v7 in v2:
            v3 += 1
        v2.add(v7)
        v1.append(v7)
        if len(v1) > 2:
            v1.pop()
        v4 = max(v4, v7)
        v5.append(v4 * 2)
    for v8 in b:
        v3 += len(v8)
    i = v3
    return (v1, v2, v3, v4, v5, i), stats
'''


def _run(source, *args):
    space = {}
    exec(source, space)
    return space["f"](*args)


def test_roles_come_from_use_and_the_renamed_code_computes_the_same():
    module = cst.parse_module(SOURCE)
    named = roles.assign(module, {"a": "list[int]", "b": "str"}, ["loop_iterations"])
    names = named.names
    assert names["v1"] == "stack" and names["v2"] == "seen" and names["v3"] != "count"  # v3 also grows by lengths
    assert names["v4"] == "best" and names["v5"] == "out" and names["v7"] == "n" and names["v8"] == "ch"
    assert names["v6"] == "j"  # `i` is already taken by the function's own variable
    assert len(set(names.values())) == len(names)  # unique
    renamed = roles.rename(module, names).code
    assert not re.search(r"\bv\d+\b", renamed)
    for args in (([3, 1, 3, 2], "xy"), ([], ""), ([5, 5, 5], "abc")):
        assert _run(renamed, *args) == _run(SOURCE, *args)
    assert named.kinds["stack"] == "list" and named.kinds["j"] == "int" and named.kinds["n"] == "int"


def test_kinds_are_only_claimed_when_every_binding_agrees():
    source = "def f(a):\n    v1 = 0\n    if a:\n        v1 = None\n    v2 = [0] * len(a)\n    return v1, v2\n"
    named = roles.assign(cst.parse_module(source), {"a": "list[int]"}, [])
    kinds = {old: named.kinds.get(new) for old, new in named.names.items()}
    assert kinds == {"v1": None, "v2": "list"}  # v1 may be None: "v1 is not 0" would be wrong


def test_helper_parameters_take_the_kind_every_call_passes():
    source = ("def f(a):\n    def g1(d):\n        return len(d)\n    v1 = g1(a)\n    v2 = g1([1])\n"
              "    return v1 + v2\n")
    named = roles.assign(cst.parse_module(source), {"a": "list[int]"}, [])
    assert "d" not in named.kinds  # a list[int] and a bare list disagree: no kind is claimed
    assert named.kinds[named.names["v1"]] == "int"  # g1 always gives back a length
