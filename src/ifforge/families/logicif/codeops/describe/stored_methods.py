"""A method of a parameter or local stored in a name (`get = mapping.get`) and called later.

Real code keeps a bound method in a local name to save the attribute look-up in a loop. A reader
needs no such name: each use is read as the method on its object (`get(x, 0)` as `mapping.get(x,
0)`) and the assignment is left out. That is exact only while the object's name still holds the
same object, so it is done only when the stored name is bound once in the whole module, in the
function's own top-level steps, and used only after it, and the object's name is a parameter the
function never rebinds or a local bound only in top-level steps before the method is stored.
Otherwise a changing method stored and only called as a step is said as the method of the object its
owner held when it was stored (`facts._kept_methods`).
"""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.common.source import ValueNames, cst_parameters
from ifforge.families.logicif.codeops.common.walk import Reader, walk


class _Bindings(Reader):
    """Every place a name is bound: {name: [the statement or parameter that binds it]}."""

    def __init__(self):
        self.found: dict[str, list[cst.CSTNode]] = {}

    def _add(self, target: cst.CSTNode, where: cst.CSTNode) -> None:
        if isinstance(target, cst.Name):
            self.found.setdefault(target.value, []).append(where)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._add(element.value, where)
        elif isinstance(target, cst.StarredElement):
            self._add(target.value, where)

    def visit_AssignTarget(self, node):
        self._add(node.target, node)

    def visit_AnnAssign(self, node):
        self._add(node.target, node)

    def visit_AugAssign(self, node):
        self._add(node.target, node)

    def visit_For(self, node):
        self._add(node.target, node)

    def visit_CompFor(self, node):
        self._add(node.target, node)

    def visit_NamedExpr(self, node):
        self._add(node.target, node)

    def visit_Param(self, node):
        self._add(node.name, node)

    def visit_AsName(self, node):
        self._add(node.name, node)

    def visit_Del(self, node):
        self._add(node.target, node)

    def visit_FunctionDef(self, node):
        self._add(node.name, node)

    def visit_ClassDef(self, node):
        self._add(node.name, node)

    def visit_Global(self, node):
        for item in node.names:
            self._add(item.name, node)

    def visit_Nonlocal(self, node):
        for item in node.names:
            self._add(item.name, node)

    def visit_ImportAlias(self, node):
        if node.asname is None and isinstance(node.name, cst.Name):
            self._add(node.name, node)


def bindings(node: cst.CSTNode) -> dict[str, list[cst.CSTNode]]:
    """Every place a name is bound below `node`: {name: [the statement or parameter that binds it]}."""
    found = _Bindings()
    walk(node, found)
    return found.found


def _stored(line: cst.BaseStatement) -> tuple[str, cst.Attribute] | None:
    """`name = owner.method` alone on its line, the owner a plain name: (name, owner.method)."""
    if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1:
        small = line.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) \
                and isinstance(small.value, cst.Attribute) and isinstance(small.value.value, cst.Name):
            return small.targets[0].target.value, small.value
    return None


def _within(node: cst.CSTNode, lines) -> bool:
    """Is `node` one of `lines` or inside one of them?"""
    class Seen(Reader):
        hit = False

        def on_visit(self, visited):
            if visited is node:
                Seen.hit = True
            return not Seen.hit

    for line in lines:
        if line is node:
            return True
        walk(line, Seen())
        if Seen.hit:
            return True
    return False


class _Uses(Reader):
    """Counts the uses of a variable's name (not an attribute's or a keyword's of that name)."""

    def __init__(self, name: str):
        self.name, self.count = name, 0

    def visit_Name(self, node):
        self.count += node.value == self.name

    def visit_Attribute(self, node):
        walk(node.value, self)
        return False

    def visit_Arg(self, node):
        walk(node.value, self)
        return False


def _uses(name: str, nodes) -> int:
    seen = _Uses(name)
    for node in nodes:
        walk(node, seen)
    return seen.count


class _Inline(ValueNames):
    """Reads each use of a stored method's name as the method on its object."""

    def __init__(self, stored: dict[str, cst.Attribute]):
        self.stored = stored

    def replace(self, name):
        return self.stored.get(name.value, name)


def _function_stored(function: cst.FunctionDef, everywhere: dict[str, list[cst.CSTNode]],
                     module: cst.Module) -> dict[str, tuple[cst.BaseStatement, cst.Attribute]]:
    """The stored methods of one function that can be read as the method on their object."""
    body = list(function.body.body) if isinstance(function.body, cst.IndentedBlock) else []
    params = {p.name.value for p in cst_parameters(function)}
    inside = bindings(function.body)
    found = {}
    for position, line in enumerate(body):
        stored = _stored(line)
        if stored is None:
            continue
        name, method = stored
        owner = method.value.value
        if len(everywhere.get(name, [])) != 1 or name in params or owner == name:
            continue
        before, after = body[:position], body[position + 1:]
        later = _uses(name, after)
        if not later or _uses(name, [module]) != 1 + later:  # used only after it is stored
            continue
        owner_bound = inside.get(owner, [])
        if owner in params:
            if owner_bound:
                continue
        elif not owner_bound or not all(_within(b, before) for b in owner_bound) or \
                any(isinstance(b, (cst.Global, cst.Nonlocal)) for b in owner_bound):
            continue
        found[name] = (line, method)
    return found


def inline(module: cst.Module) -> cst.Module:
    """`module` with every stored method that qualifies read as the method on its object."""
    candidates: list[cst.FunctionDef] = []

    class Functions(Reader):
        def visit_FunctionDef(self, node):
            if isinstance(node.body, cst.IndentedBlock) and any(_stored(line) for line in node.body.body):
                candidates.append(node)

    walk(module, Functions())
    if not candidates:  # the usual case: no survey of the module's bindings
        return module
    everywhere = bindings(module)
    stored: dict[str, tuple[cst.BaseStatement, cst.Attribute]] = {}
    for function in candidates:
        stored.update(_function_stored(function, everywhere, module))
    if not stored:
        return module
    lines = {id(line) for line, _ in stored.values()}

    class Drop(cst.CSTTransformer):
        def leave_SimpleStatementLine(self, original, updated):
            return cst.RemoveFromParent() if id(original) in lines else updated

    dropped = module.visit(Drop())
    return dropped.visit(_Inline({name: method for name, (_, method) in stored.items()}))
