"""Reads of a parameter of `f` that surely still hold the input, though the parameter is set again later.

`facts.inputs` holds the parameters nothing ever sets again. A parameter that is set again somewhere
(`val = convert(val)` in one branch) still holds the input, a JSON value, where it is read before any
step that could have set it: the steps of `f` are followed in order; an `if` test is read before its
branches (a test that sets the name itself, `:=`, reads it as set), each branch starts from what held
after the test (so an `elif` test after a branch that sets the name still reads the input), and after
the `if` the name counts as set if any branch may have set it. Any other compound step (a loop, `try`,
`with`, ...) that sets the name anywhere inside counts as setting it before all of its reads (a loop
comes round again). A simple step that sets the name reads it as set too. Reads inside a nested
function, a class or a lambda are never counted; inside a comprehension, neither are those of a name
the comprehension binds itself.
"""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.common.walk import Reader, walk
from ifforge.families.logicif.codeops.describe.bindings import bound, every_name


class _Reads(Reader):
    """The `Name` nodes read as values (not attribute names, keywords or targets), outside nested scopes."""

    def __init__(self, wanted: set[str]):
        self.wanted = wanted
        self.found: list[cst.Name] = []

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.wanted:
            self.found.append(node)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        walk(node.value, self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        walk(node.value, self)
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def _comprehension(self, node: cst.CSTNode) -> bool:
        own = {n for f in _comp_fors(node) for n in every_name(f.target)}
        inner = _Reads(self.wanted - own)
        for child in node.children:
            walk(child, inner)
        self.found.extend(inner.found)
        return False

    def visit_ListComp(self, node) -> bool:
        return self._comprehension(node)

    def visit_SetComp(self, node) -> bool:
        return self._comprehension(node)

    def visit_DictComp(self, node) -> bool:
        return self._comprehension(node)

    def visit_GeneratorExp(self, node) -> bool:
        return self._comprehension(node)


def _comp_fors(node: cst.CSTNode) -> list[cst.CompFor]:
    found, compfor = [], getattr(node, "for_in", None)
    while compfor is not None:
        found.append(compfor)
        compfor = compfor.inner_for_in
    return found


def _reads(node: cst.CSTNode, wanted: set[str]) -> list[cst.Name]:
    if not wanted:
        return []
    reader = _Reads(wanted)
    walk(node, reader)
    return reader.found


def _bound(node: cst.CSTNode) -> set[str]:
    return bound(node, over_count=True)


def input_reads(entry: cst.FunctionDef, parameters: set[str]) -> set[cst.Name]:
    """The reads of `parameters` in `entry` that surely still hold the input (the module docstring)."""
    found: list[cst.Name] = []

    def steps(body, set_already: set[str]) -> set[str]:
        for step in body:
            set_already = one(step, set_already)
        return set_already

    def block(suite) -> list:
        return list(suite.body) if isinstance(suite, cst.IndentedBlock) else [suite]

    def one(step, set_already: set[str]) -> set[str]:
        if isinstance(step, cst.If):
            in_test = _bound(step.test) & parameters  # `if (val := g(val)):` sets it for the test and after
            found.extend(_reads(step.test, parameters - set_already - in_test))
            set_already = set_already | in_test
            after = steps(block(step.body), set(set_already))
            if isinstance(step.orelse, cst.If):
                other = one(step.orelse, set(set_already))
            elif isinstance(step.orelse, cst.Else):
                other = steps(block(step.orelse.body), set(set_already))
            else:
                other = set_already
            return after | other
        now = set_already | (_bound(step) & parameters)
        found.extend(_reads(step, parameters - now))
        return now

    steps(block(entry.body), set())
    return set(found)
