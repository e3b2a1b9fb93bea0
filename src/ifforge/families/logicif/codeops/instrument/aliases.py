"""Module-level aliases of a helper (`_search = search`) replaced by the helper's own name.

Libraries often bind a second name to a helper at module level and call it by that name. The alias
statement names the helper at module level, so the helper cannot move into f (codeops/instrument/
trackers.py) and nothing in it can be counted: f that only calls `_search(...)` has nothing to track.
When the alias and the helper are each bound once and nowhere else (no other assignment, `global`,
`del`, import, or the name as an attribute or keyword), every use of the alias is a use of the helper:
the uses are renamed and the alias statement dropped. The execute stage checks the result against
the seed, as for every rewriting.
"""

from __future__ import annotations

import ast
from collections import Counter

import libcst as cst

from ifforge.core import pyast


def _bindings(tree: ast.Module) -> tuple[Counter, set[str]]:
    """How many times each name is bound anywhere, and the names used as an attribute or keyword."""
    bound: Counter = Counter()
    other: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound[node.id] += 1
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound[node.name] += 1
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound.update(node.names)
        elif isinstance(node, ast.alias):
            bound[(node.asname or node.name).split(".")[0]] += 1
        elif isinstance(node, ast.arg):
            bound[node.arg] += 1
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound[node.name] += 1
        elif isinstance(node, ast.Attribute):
            other.add(node.attr)
        elif isinstance(node, ast.keyword) and node.arg:
            other.add(node.arg)
    return bound, other


def _alias(statement: cst.CSTNode, helpers: set[str]) -> tuple[str, str] | None:
    """(alias, helper) for a line `alias = helper` alone, else None."""
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
        return None
    small = statement.body[0]
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
            and isinstance(small.value, cst.Name) and small.value.value in helpers):
        return None
    return small.targets[0].target.value, small.value.value


class _Rename(cst.CSTTransformer):
    def __init__(self, names: dict[str, str]):
        self.names = names

    def leave_Name(self, original, updated):
        return updated.with_changes(value=self.names[updated.value]) if updated.value in self.names else updated


def unaliased(module: cst.Module, entry: str = "f") -> cst.Module | None:
    """`module` with every plain module-level alias of a helper function (not of `entry`) replaced by
    the helper's name, or None when it has none."""
    bound, other = _bindings(pyast.parse(module.code))
    helpers = {s.name.value for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value != entry
               and bound[s.name.value] == 1 and s.name.value not in other}
    names, dropped = {}, set()
    for statement in module.body:
        found = _alias(statement, helpers)
        if found and bound[found[0]] == 1 and found[0] not in other and found[0] not in helpers:
            names[found[0]] = found[1]
            dropped.add(id(statement))
    if not names:
        return None
    kept = [statement for statement in module.body if id(statement) not in dropped]
    return module.with_changes(body=kept).visit(_Rename(names))
