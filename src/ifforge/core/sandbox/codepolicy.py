"""What benchmark code may touch, checked before it runs: gold must not depend on where or when.

A row's gold is what its function returns on its input, anywhere, any day. Code that reads the
host (files, the clock, the host name, memory, processes) or reaches into the interpreter (its
modules, frames, globals, the protocol pipe) could return something else elsewhere, or forge its
own result; such code is refused here with the line it does it on, and the sandbox child enforces
the same lists while the code runs (`_child.py`: they are defined there, once). The check
reads the source, so it names what it refuses; the walls in the child catch what only shows when
the code runs (an attribute name made from pieces, a module reached through another).

Every way the code can name an attribute goes through one check (`_attribute_problem`): `a.b`,
`getattr(a, "b")` and its kin, a keyword of a class pattern (`case object(b=x)`), a field of a
format string (`"{0.b}"`, in its format spec too). A class pattern's positional parts read the
attributes the class lists when it runs (`__match_args__`, which code can make from pieces), so
they are allowed only on the builtin types that match themselves (`case int(n)`).
"""

from __future__ import annotations

import ast
import functools
import string
from dataclasses import dataclass

from ifforge.core.sandbox._child import MODULES, ONLY, REMOVED_BUILTINS, hidden
from ifforge.core import pyast

ATTRIBUTE_FUNCTIONS = {"getattr", "setattr", "delattr", "hasattr"}
# the classes whose one positional pattern is the subject itself (`case int(n)`): no attribute is read
SELF_MATCHING = {"bool", "bytearray", "bytes", "dict", "float", "frozenset", "int", "list", "set", "str", "tuple"}


@dataclass(frozen=True)
class Refusal:
    line: int | None
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}" if self.line else self.reason


@functools.lru_cache(maxsize=64)  # a function's passes in the sandbox check the same source again
def policy_problem(source: str) -> Refusal | None:
    """The first thing in `source` benchmark code may not do, or None.
    A source that does not parse is not refused here: the sandbox reports its syntax error."""
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    nodes = list(ast.walk(tree))  # walked once, read three times
    bound = _bound_names(nodes)
    modules = _module_names(nodes)
    for node in nodes:
        problem = _problem(node, bound, modules)
        if problem:
            return Refusal(getattr(node, "lineno", None), problem)
    return None


def _bound_names(nodes: list[ast.AST]) -> set[str]:
    """Every name the code binds somewhere: its own `id` or `open` is not the builtin."""
    names = set()
    for node in nodes:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:  # `case str:` binds `str`
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
    return names


def _module_names(nodes: list[ast.AST]) -> dict[str, str]:
    """Name in the code -> the module it stands for, for the modules of which code gets only some
    names: `import os.path as osp` makes `osp` stand for `os.path`, `from os import path` `path`."""
    names = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.update((alias.asname or alias.name, f"{node.module}.{alias.name}") for alias in node.names
                         if f"{node.module}.{alias.name}" in MODULES)
    return names


def _dotted(node: ast.AST, modules: dict[str, str]) -> str | None:
    """The module an expression names (`os.path`, `osp`), or None when it names none."""
    if isinstance(node, ast.Name):
        return modules.get(node.id)
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value, modules)
        return f"{inner}.{node.attr}" if inner and f"{inner}.{node.attr}" in MODULES else None
    return None


def _problem(node: ast.AST, bound: set[str], modules: dict[str, str]) -> str | None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name not in MODULES:
                return _module_refused(alias.name)
    elif isinstance(node, ast.ImportFrom):
        module = node.module or ""
        if node.level or module not in MODULES:
            return _module_refused("." * node.level + module)
        for alias in node.names:
            if alias.name.startswith("_") or alias.name in MODULES[module] or alias.name not in ONLY.get(module, (alias.name,)):
                return f"imports {alias.name} from {module}, which benchmark code may not use"
    elif isinstance(node, ast.Name):
        if node.id.startswith("__") and node.id.endswith("__") and hidden(node.id):
            return f"uses {node.id}, which benchmark code may not touch"
        if node.id in REMOVED_BUILTINS and node.id not in bound:
            return f"calls {node.id}, which benchmark code does not get (files, code from text, namespaces, addresses)"
    elif isinstance(node, ast.Attribute):
        if node.attr in ("format", "format_map") and _literal_format(node.value):
            return _format_problem(node.value.value)
        return _attribute_problem(node.attr, _dotted(node.value, modules))
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ATTRIBUTE_FUNCTIONS:
        name = node.args[1] if len(node.args) > 1 else None
        if isinstance(name, ast.Constant) and isinstance(name.value, str):  # made at run time: the child checks it
            return _attribute_problem(name.value, _dotted(node.args[0], modules), f" through {node.func.id}")
    elif isinstance(node, ast.MatchClass):
        for attr in node.kwd_attrs:
            problem = _attribute_problem(attr, None, " in a class pattern")
            if problem:
                return problem
        if node.patterns and not (isinstance(node.cls, ast.Name) and node.cls.id in SELF_MATCHING
                                  and node.cls.id not in bound):
            name = ast.unparse(node.cls)
            return (f"matches {name}(...) with positional patterns, which read the attributes its class lists when "
                    f"it runs (__match_args__); name them as keywords instead ({name}(x=...))")
    return None


def _attribute_problem(attr: str, module: str | None, how: str = "") -> str | None:
    """Why benchmark code may not name the attribute `attr` (of `module`, when it names one), or None:
    the one check of every way the code names an attribute (`how` says which, for the message)."""
    if hidden(attr):
        return f"uses the attribute {attr}{how}, which benchmark code may not touch"
    if module in MODULES and attr in MODULES[module]:
        return f"uses {module}.{attr}{how}, which benchmark code may not use"
    if module in ONLY and attr not in ONLY[module]:
        return f"uses {module}.{attr}{how}, which benchmark code may not use (of {module} only " \
               f"{', '.join(sorted(ONLY[module]))})"
    return None


def _module_refused(name: str) -> str:
    allowed = ", ".join(sorted(m for m in MODULES if not m.startswith("_")))
    return (f"imports {name or 'a relative module'}, which benchmark code may not use: it may reach the "
            f"host or the interpreter (allowed: {allowed})")


def _literal_format(value: ast.AST) -> bool:
    return isinstance(value, ast.Constant) and isinstance(value.value, str)


def _format_problem(text: str, nested: bool = False) -> str | None:
    """`"{0.x}".format(v)` reads attributes by name: allowed on a literal whose fields read no hidden
    or private one, in its format specs too (`"{0:{1.x}}"` formats the spec's field first; Python
    goes no deeper than that one level)."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return None  # the call fails when it runs
    for _, field, spec, _ in parsed:
        for part in (field or "").replace("[", ".").split(".")[1:]:
            if hidden(part.rstrip("]")) or part.startswith("_"):
                return f"formats the field {{{field}}}, which reads an attribute benchmark code may not touch"
        problem = _format_problem(spec, nested=True) if spec and not nested else None
        if problem:
            return problem
    return None
