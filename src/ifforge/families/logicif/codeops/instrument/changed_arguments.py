"""A function that returns nothing but changes an argument in place returns that argument.

`heapify(arr, n, i)` or `count_elements(mapping, items)` answer by changing what they were given,
and return None on every path; as a LogicIF task their output would always be null, and the inputs
stage drops them (`one_output`). The result a caller sees is the argument as the function leaves
it, so that becomes `f`'s output: every bare `return` (or `return None`) of the entry function, and
the end of its body, return the changed parameter (several: a list of them, in parameter order).
The rewrite is decided once, from the source, when the seed loads, so that every stage after it
(inputs, trackers, gold, description, review) sees one ordinary function.

A parameter counts as changed in place when the entry function (or a function nested in it that
does not bind the name again, or a helper of the module it is passed to, in turn) assigns or
deletes an item or a slice of it, adds to an item (`p[i] += 1`), or calls a method that changes a
list or dict (`append`, `pop`, `update`, ...) on it: directly, through an item of it (`p[i][j] = 0`,
`p[i].append(x)`, never through a slice, which is a copy), or through a local name bound only to
it or to an item of it (`row = p[i]`, `for row in p`). A parameter the function binds again (`p =
sorted(p)`, `del p`, `p += ...`) is never one: what the caller holds is no longer what changes.
Left as they are: a function that returns a value anywhere, yields, changes only module names or
only prints; one whose own name is used other than as a call whose value is dropped (its recursive
calls would see the new return value); `*args` and `**kwargs`.
"""

from __future__ import annotations

import ast

import libcst as cst

from ifforge.core import pyast
from ifforge.families.logicif.codeops.common.source import cst_module
from ifforge.families.logicif.codeops.instrument.self_contained import KnowsNesting

# the methods of list and dict that change the object they are called on
MUTATING_METHODS = frozenset({"append", "extend", "insert", "pop", "remove", "sort", "reverse", "clear", "update",
                              "setdefault", "popitem"})
HELPER_DEPTH = 3  # helpers reached through helpers, at most this deep
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def changed_parameters(source: str, entry: str) -> list[str]:
    """The parameters of top-level `entry` that it changes in place while returning nothing on
    every path, in parameter order; [] when the rule (module docstring) does not apply."""
    try:
        tree = pyast.parse(source)
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return []
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    function = functions.get(entry)
    if function is None or _returns_value(function) or not _only_dropped_calls(tree, entry):
        return []
    return _changed(function, functions, _parameters(function), 0, set())


def return_changed(source: str, entry: str) -> str:
    """`source` with `entry` returning what it changes in place (module docstring); as it is when
    the rule does not apply."""
    names = changed_parameters(source, entry)
    if not names:
        return source
    value = names[0] if len(names) == 1 else f"[{', '.join(names)}]"
    module = cst_module(source)
    returned = cst.parse_expression(value)
    body = [_ReturnChanged(returned).visit_entry(s) if isinstance(s, cst.FunctionDef) and s.name.value == entry
            else s for s in module.body]
    return module.with_changes(body=body).code


def _parameters(function: ast.FunctionDef) -> list[str]:
    arguments = function.args
    return [a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]]


def _own_nodes(function: ast.FunctionDef):
    """The nodes of a function's body, not those of a function, lambda or class inside it (their
    definitions are the function's own nodes)."""
    pending = list(function.body)
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, _SCOPES):
            pending.extend(ast.iter_child_nodes(node))


def _returns_value(function: ast.FunctionDef) -> bool:
    """It returns something other than None somewhere, or yields (a generator)."""
    for node in _own_nodes(function):
        if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await)):
            return True
        if isinstance(node, ast.Return) and node.value is not None \
                and not (isinstance(node.value, ast.Constant) and node.value.value is None):
            return True
    return False


def _only_dropped_calls(tree: ast.Module, entry: str) -> bool:
    """Every use of `entry` by name is a call standing alone as a statement: none reads its value."""
    dropped = {id(node.value.func) for node in ast.walk(tree) if isinstance(node, ast.Expr)
               and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)}
    return all(id(node) in dropped for node in ast.walk(tree)
               if isinstance(node, ast.Name) and node.id == entry)


def _root(node: ast.AST, last_may_slice: bool) -> str | None:
    """The name under a chain of item lookups (`p[i][j]` -> p); None when a slice (a copy) or
    anything else stands between. The outermost lookup of a target may be a slice (`p[a:b] = ...`
    changes p)."""
    first = True
    while isinstance(node, ast.Subscript):
        if isinstance(node.slice, ast.Slice) and not (first and last_may_slice):
            return None
        node, first = node.value, False
    return node.id if isinstance(node, ast.Name) else None


def _stores(function: ast.FunctionDef) -> dict[str, list[ast.AST]]:
    """Name -> what each binding of it in the function's own scope binds it to (None when the
    value cannot be read: a tuple target, an augmented assignment, a deletion, an import...)."""
    found: dict[str, list[ast.AST]] = {}
    bound_by: dict[int, ast.AST | None] = {}
    for node in _own_nodes(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                bound_by[id(target)] = node.value
        elif isinstance(node, (ast.For, ast.comprehension)):
            bound_by[id(node.target)] = ast.Subscript(value=node.iter, slice=ast.Constant(0))  # an item of it
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.setdefault(node.name, []).append(None)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                found.setdefault((alias.asname or alias.name).split(".")[0], []).append(None)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            for name in node.names:
                found.setdefault(name, []).append(None)
    for node in _own_nodes(function):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            found.setdefault(node.id, []).append(bound_by.get(id(node)))
    return found


def _aliases(function: ast.FunctionDef, names: set[str]) -> dict[str, str]:
    """Name -> the parameter it stands for: the parameter itself, and every local name whose every
    binding is that parameter or an item of it (found again until nothing new)."""
    stores = _stores(function)
    alias = {name: name for name in names if not stores.get(name)}  # never bound again
    grew = True
    while grew:
        grew = False
        for name, values in stores.items():
            if name in alias or not values or any(v is None for v in values):
                continue
            roots = {alias.get(_root(v, False)) for v in values}
            if len(roots) == 1 and None not in roots:
                alias[name] = roots.pop()
                grew = True
    return alias


def _changed(function: ast.FunctionDef, functions: dict[str, ast.FunctionDef], names: list[str], depth: int,
             seen: set[tuple[str, str]], outer: dict[str, str] | None = None) -> list[str]:
    """Which of `names` (parameters, or names of the enclosing function's) `function` changes in place."""
    alias = _aliases(function, set(names))
    if outer:  # a nested function reads the enclosing names it does not bind
        bound = set(_stores(function)) | set(_parameters(function)) | {
            a.arg for a in (function.args.vararg, function.args.kwarg) if a}
        alias.update({name: root for name, root in outer.items() if name not in bound})
    changed: set[str] = set()

    def mark(node: ast.AST, may_slice: bool) -> None:
        root = alias.get(_root(node, may_slice))
        if root is not None:
            changed.add(root)

    for node in _own_nodes(function):
        targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            for part in _target_parts(target):
                if isinstance(part, ast.Subscript):
                    mark(part, True)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATING_METHODS:
            mark(node.func.value, False)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and depth < HELPER_DEPTH:
            changed |= _changed_by_helper(node, functions, alias, depth, seen)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):  # a closure over the names
            changed |= set(_changed(node, functions, [], depth, seen, alias))
    return [name for name in names if name in changed] if not outer else sorted(changed)


def _target_parts(target: ast.AST):
    if isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from _target_parts(element)
    elif isinstance(target, ast.Starred):
        yield from _target_parts(target.value)
    else:
        yield target


def _changed_by_helper(call: ast.Call, functions: dict[str, ast.FunctionDef], alias: dict[str, str], depth: int,
                       seen: set[tuple[str, str]]) -> set[str]:
    """The names a call of a module function changes: those passed (or an item of them) to a
    parameter the helper changes in place."""
    helper = functions.get(call.func.id)
    if helper is None or any(isinstance(a, ast.Starred) for a in call.args):
        return set()
    positional = [a.arg for a in [*helper.args.posonlyargs, *helper.args.args]]
    given = {**dict(zip(positional, call.args)), **{k.arg: k.value for k in call.keywords if k.arg}}
    roots = {parameter: alias.get(_root(value, False)) for parameter, value in given.items()}
    wanted = [parameter for parameter, root in roots.items() if root is not None
              and (helper.name, parameter) not in seen]
    if not wanted:
        return set()
    seen |= {(helper.name, parameter) for parameter in wanted}
    unbound = [p for p in wanted if p in _parameters(helper)]
    return {roots[p] for p in _changed(helper, functions, unbound, depth + 1, seen)}


class _ReturnChanged(KnowsNesting):
    """In the entry function's own body: `return` and `return None` return `value`, and so does its end."""

    def __init__(self, value: cst.BaseExpression):
        super().__init__(start=0)
        self.value = value

    def visit_entry(self, function: cst.FunctionDef) -> cst.FunctionDef:
        function = function.with_changes(body=function.body.visit(self))
        body = list(function.body.body)
        last = body[-1] if body else None
        ends = isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], (cst.Return, cst.Raise))
        if not ends:
            body.append(cst.SimpleStatementLine([cst.Return(self.value)]))
        return function.with_changes(body=function.body.with_changes(body=body), returns=None)  # `-> None` no more

    def visit_Lambda(self, node):
        return False

    def leave_Return(self, original, updated):
        if self.depth or (updated.value is not None and not
                          (isinstance(updated.value, cst.Name) and updated.value.value == "None")):
            return updated
        return updated.with_changes(value=self.value, whitespace_after_return=cst.SimpleWhitespace(" "))
