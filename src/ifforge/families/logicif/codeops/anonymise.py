"""Deterministic anonymiser: rename every name the author chose, consistently, by scope analysis.

The entry function becomes `f`, other functions and classes `g1, g2, ...`, parameters `a, b, c, ...`
(the entry's first) and every other variable `v1, v2, ...`. Each binding (a name in one scope)
gets a name unique in the module, so closures, `nonlocal`, `global`, comprehensions and recursion
stay correct, and no renamed name can capture another. Builtins, imports, attributes and strings
are left alone; keyword arguments follow the parameters of the renamed function they name.
The result is checked by execution elsewhere, not trusted.
"""

from __future__ import annotations

import builtins
import keyword
import string
from dataclasses import dataclass, field

import libcst as cst

from libcst.metadata import (
    Assignment,
    ClassScope,
    GlobalScope,
    MetadataWrapper,
    ScopeProvider,
)

from ifforge.core.pysource import strip_comments_and_docstrings
from ifforge.families.logicif.codeops.source import cst_parameters
from ifforge.families.logicif.codeops.walk import Reader, walk


@dataclass(frozen=True)
class Anonymised:
    source: str
    renames: dict[str, str]  # "scope-qualified old name" -> new name, for people to read
    # the tree of `source`, equal to parsing it again (checked on 367 functions), so the trackers need not
    module: cst.Module | None = field(default=None, compare=False, repr=False)


def _letters():
    for letter in string.ascii_lowercase:
        yield letter
    n = 27
    while True:
        yield f"p{n}"
        n += 1


class _Namer:
    """Hands out fresh names of three kinds, never one already used in the module."""

    def __init__(self, taken: set[str]):
        self.taken = taken | set(dir(builtins)) | set(keyword.kwlist)
        self._params = _letters()
        self._counters = {"g": 0, "v": 0}

    def _fresh(self, candidate_source):
        for name in candidate_source:
            if name not in self.taken:
                self.taken.add(name)
                return name
        raise AssertionError("unreachable")

    def param(self) -> str:
        return self._fresh(self._params)

    def numbered(self, prefix: str) -> str:
        def candidates():
            while True:
                self._counters[prefix] += 1
                yield f"{prefix}{self._counters[prefix]}"

        return self._fresh(candidates())


def _binding_kind(assignment: Assignment) -> str | None:
    node = assignment.node
    if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        return "function"
    if isinstance(node, cst.Param):
        return "param"
    if isinstance(node, cst.Name):
        return "variable"
    return None  # imports, builtins, anything we must not touch


class _Renamer(cst.CSTTransformer):
    def __init__(self, by_node: dict[int, str], keyword_maps: dict[int, dict[str, str]], global_names: dict[int, dict[str, str]]):
        self.by_node = by_node
        self.keyword_maps = keyword_maps
        self.global_names = global_names

    def leave_Name(self, original, updated):
        new = self.by_node.get(id(original))
        return updated.with_changes(value=new) if new else updated

    def leave_FunctionDef(self, original, updated):
        new = self.by_node.get(id(original))
        return updated.with_changes(name=cst.Name(new)) if new else updated

    def leave_ClassDef(self, original, updated):
        new = self.by_node.get(id(original))
        return updated.with_changes(name=cst.Name(new)) if new else updated

    def leave_Param(self, original, updated):
        new = self.by_node.get(id(original))
        return updated.with_changes(name=cst.Name(new)) if new else updated

    def leave_Call(self, original, updated):
        mapping = self.keyword_maps.get(id(original.func))
        if not mapping:
            return updated
        arguments = [
            arg.with_changes(keyword=cst.Name(mapping[arg.keyword.value]))
            if arg.keyword is not None and arg.keyword.value in mapping
            else arg
            for arg in updated.args
        ]
        return updated.with_changes(args=arguments)

    def _rename_items(self, original, updated):
        mapping = self.global_names.get(id(original), {})
        names = [item.with_changes(name=cst.Name(mapping.get(item.name.value, item.name.value))) for item in updated.names]
        return updated.with_changes(names=names)

    leave_Global = _rename_items
    leave_Nonlocal = _rename_items


def anonymise(source: str, entry: str) -> Anonymised:
    """Rename every user-chosen name in `source`; `entry` becomes `f`."""
    module = cst.parse_module(strip_comments_and_docstrings(source))
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)  # parsed here, shared with no one: no copy
    scopes = wrapper.resolve(ScopeProvider)
    tree = _Walk()
    walk(module, tree)
    parents = tree.parents

    # every binding, keyed by (scope, name), with its assignments
    bindings: dict[tuple[int, str], list[Assignment]] = {}
    scope_objects = {id(scope): scope for scope in scopes.values() if scope is not None}
    for scope in scope_objects.values():
        if isinstance(scope, ClassScope):
            continue  # class attributes are reached as attributes: renaming them would break code
        for assignment in scope.assignments:
            if not isinstance(assignment, Assignment) or _binding_kind(assignment) is None:
                continue
            bindings.setdefault((id(scope), assignment.name), []).append(assignment)

    def first_position(key):
        return min(tree.place(a.node) for a in bindings[key])

    kept_names = {node.value for node in tree.names} - {name for _, name in bindings}
    namer = _Namer(kept_names | {"f"})
    new_names: dict[tuple[int, str], str] = {}
    entry_params = _entry_params(module, entry)
    for key in sorted(bindings, key=first_position):
        if _binding_kind(bindings[key][0]) == "function":
            is_entry = isinstance(scope_objects[key[0]], GlobalScope) and key[1] == entry
            new_names[key] = "f" if is_entry else namer.numbered("g")
    for param in entry_params:
        for key, assignments in bindings.items():
            if any(a.node is param for a in assignments):
                new_names[key] = namer.param()
    for key in sorted(bindings, key=first_position):
        if key in new_names:
            continue
        kind = _binding_kind(bindings[key][0])
        new_names[key] = namer.param() if kind == "param" else namer.numbered("v")

    by_node: dict[int, str] = {}
    function_params: dict[int, dict[str, str]] = {}  # id(FunctionDef) -> old param -> new param
    for key, assignments in bindings.items():
        new = new_names[key]
        for assignment in assignments:
            by_node[id(assignment.node)] = new
            for reference in assignment.references:
                if isinstance(reference.node, cst.Name):
                    by_node[id(reference.node)] = new
            if isinstance(assignment.node, cst.Param):
                owner = _owner_function(assignment.node, parents)
                if owner is not None:
                    function_params.setdefault(id(owner), {})[assignment.name] = new

    _rename_missed_accesses(tree.names, scopes, parents, new_names, by_node)

    keyword_maps: dict[int, dict[str, str]] = {}
    for assignments in bindings.values():
        for assignment in assignments:
            if isinstance(assignment.node, cst.FunctionDef) and id(assignment.node) in function_params:
                for reference in assignment.references:
                    keyword_maps[id(reference.node)] = function_params[id(assignment.node)]

    global_names: dict[int, dict[str, str]] = {}
    for node, scope in scopes.items():
        if isinstance(node, (cst.Global, cst.Nonlocal)) and scope is not None:
            mapping = {}
            for item in node.names:
                for assignment in scope[item.name.value]:
                    key = (id(assignment.scope), item.name.value)
                    if key in new_names:
                        mapping[item.name.value] = new_names[key]
            global_names[id(node)] = mapping

    renamed = module.visit(_Renamer(by_node, keyword_maps, global_names))
    readable = {}
    for (_, old), new in new_names.items():
        readable.setdefault(old, new)
        if readable[old] != new:
            readable[f"{old}#{new}"] = new
    return Anonymised(source=renamed.code, renames=dict(sorted(readable.items(), key=lambda kv: kv[1])), module=renamed)


class _Walk(Reader):
    """One pass over the tree for what libcst's position and parent metadata gave at three times
    the cost: each node's parent, the order nodes are met in (source order) and every `Name`."""

    def __init__(self):
        self.parents: dict[cst.CSTNode, cst.CSTNode] = {}
        self.order: dict[cst.CSTNode, int] = {}
        self.names: list[cst.Name] = []
        self._path: list[cst.CSTNode] = []

    def on_visit(self, node) -> bool:
        if self._path:
            self.parents[node] = self._path[-1]
        self.order[node] = len(self.order)
        self._path.append(node)
        if isinstance(node, cst.Name):
            self.names.append(node)
        return True

    def on_leave(self, original_node) -> None:
        self._path.pop()

    def place(self, node: cst.CSTNode) -> int:
        """Where a binding starts in the source: a function or class at its `def`/`class` keyword
        (after its decorators, as libcst's positions have it), any other node where it is met."""
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            return self.order[node.name]
        return self.order[node]


def _entry_params(module: cst.Module, entry: str) -> list[cst.Param]:
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef) and statement.name.value == entry:
            return cst_parameters(statement)
    return []


def _owner_function(param: cst.Param, parents):
    """The FunctionDef whose parameter list holds `param` (None for lambdas)."""
    node = parents.get(param)
    while node is not None and not isinstance(node, (cst.FunctionDef, cst.Lambda)):
        node = parents.get(node)
    return node if isinstance(node, cst.FunctionDef) else None


def _rename_missed_accesses(names, scopes, parents, new_names, by_node) -> None:
    """Accesses libcst's scope analysis leaves unrecorded (e.g. a later `for` clause's variable in a
    comprehension's `if`) are resolved by name in their own scope."""
    for node in names:
        if id(node) in by_node or not _is_access(node, parents):
            continue
        scope = scopes.get(node)
        if scope is None:
            continue
        for assignment in scope[node.value]:
            key = (id(assignment.scope), node.value)
            if key in new_names:
                by_node[id(node)] = new_names[key]
                break


def _is_access(node: cst.Name, parents) -> bool:
    parent = parents.get(node)
    if isinstance(parent, cst.Attribute) and parent.attr is node:
        return False
    if isinstance(parent, cst.Arg) and parent.keyword is node:
        return False
    if isinstance(parent, (cst.Param, cst.FunctionDef, cst.ClassDef, cst.NameItem, cst.ImportAlias,
                           cst.ImportFrom)):
        return False
    return True
