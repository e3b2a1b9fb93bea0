"""The names a piece of code binds: one walker for every "what sets this name?" question.

Two readings of a target. The precise one gives the names an assignment really binds (`a, (b, c) = ...`
binds a, b and c; `x[i] = v` binds none) and an import's dotted name (`import os.path` -> `os.path`). The
over-count gives every name anywhere in a target (`x[i] = v` counts x and i; `import os.path` counts os
and path): safe where missing a binding would make a description wrong. Nested functions, classes and
comprehensions are walked too (their definitions and parameters included), so both readings over-count
across scopes, which is again the safe side.
"""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.common.source import dotted_name
from ifforge.families.logicif.codeops.common.walk import Reader, walk
from ifforge.families.logicif.codeops.describe.plain import names_in


def every_name(node: cst.CSTNode) -> set[str]:
    """Every plain name anywhere in `node` (the over-count of a target)."""
    if isinstance(node, cst.Name):
        return {node.value}
    return {n for child in node.children for n in every_name(child)}


def bound(node: cst.CSTNode, *, plain: bool = True, augmented: bool = True, parameters: bool = True,
          over_count: bool = False) -> set[str]:
    """The names `node` binds anywhere inside it: by `=` (unless not `plain`), `+=` and the like (unless
    not `augmented`), parameters (unless not `parameters`), loop, `with` and `:=` targets, annotated
    assignments, imports, definitions, `global`, `nonlocal` and `del`."""
    binding = _Binding(plain, augmented, parameters, over_count)
    walk(node, binding)
    return binding.names


class _Binding(Reader):
    def __init__(self, plain: bool, augmented: bool, parameters: bool, over_count: bool):
        self.plain, self.augmented, self.parameters, self.over_count = plain, augmented, parameters, over_count
        self.names: set[str] = set()

    def _target(self, target: cst.BaseExpression) -> None:
        self.names.update(every_name(target) if self.over_count else names_in(target))

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        if self.plain:
            self._target(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if self.augmented:
            self._target(node.target)

    def visit_Param(self, node: cst.Param) -> None:
        if self.parameters:
            self.names.add(node.name.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._target(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._target(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._target(node.target)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._target(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._target(node.name)

    def visit_Del(self, node: cst.Del) -> None:
        self._target(node.target)

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        name = node.asname.name if node.asname else node.name
        self.names.update(every_name(name) if self.over_count else {dotted_name(name) or ""})

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.names.add(node.name.value)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.names.add(node.name.value)

    def visit_Global(self, node: cst.Global) -> None:
        self.names.update(n.name.value for n in node.names)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.names.update(n.name.value for n in node.names)
