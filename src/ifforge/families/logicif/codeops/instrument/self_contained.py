"""One self-contained `f`: the module's imports, constants and helpers moved inside it.

LogicIF's executor runs a row's function with `exec(code, globals, locals)` and separate dicts, so
whatever the module defines beside `f` lands in `locals`, where `f` never looks: a helper or an
import at the top fails with `NameError`. Moved to the top of f's body, in source order, they become
f's own names, which every function defined inside f reads as a closure; `global` in f goes (the
names are f's now) and `global` further in becomes `nonlocal`. Where that would change what a name
means (f binds a name the moved code reads from the module or the builtins, a `global` that skips a
function binding the same name, f called by name, f's decorators or defaults reading a moved name),
the source is refused rather than guessed at: the execute stage runs the result, so gold always comes from the form that is exported.
Two header cases are safe to mend instead: annotations only describe (they go, from every function,
when one of f's reads a moved name or `from __future__ import annotations` had kept them unread), and
a default that reads a module constant bound once to a literal takes that literal in its place.
"""

from __future__ import annotations

import re
import symtable

import libcst as cst

from ifforge.core.pyast import literal_eval
from ifforge.families.logicif.codeops.common.source import cst_module, cst_parameters


_BLANK_LINES = re.compile(r"\A(?:[ \t]*\n)+")


class NotSelfContained(ValueError):
    """The module cannot become one function that means the same; the message says why."""


def self_contained(source: str, entry: str = "f") -> str:
    """`source` as one function `entry` that needs nothing else in its module; raises `NotSelfContained`."""
    try:
        module = cst_module(source)
    except cst.ParserSyntaxError as error:
        raise NotSelfContained(f"does not parse: {error.message}") from None
    entries = [s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == entry]
    if len(entries) != 1:
        raise NotSelfContained(f"the module defines {len(entries)} top-level functions named {entry}, not one")
    [function] = entries
    bound = _check_scopes(source, entry)
    future = any(_future_import(s) and "annotations" in cst.Module(body=[s]).code for s in module.body)
    if future or bound & _names_in_header(function, annotations_only=True):
        module = module.visit(_NoAnnotations())
        [function] = [s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == entry]
    constants = {name: value for name, value in _literal_constants(module).items() if name in bound}
    function = function.visit(_ConstantDefaults(constants))
    header = sorted(bound & _names_in_header(function))
    if header:
        raise NotSelfContained(f"the decorators, defaults or annotations of {entry} read {', '.join(header)}, "
                               "which only exist once its body runs")
    moved = [s.with_changes(leading_lines=[]) for s in module.body
             if not (isinstance(s, cst.FunctionDef) and s.name.value == entry) and not _future_import(s)]
    if not moved:
        return _BLANK_LINES.sub("", source)  # already one function: as written, from its first line
    body = list(function.body.body)
    head = body[:1] if body and _is_docstring(body[0]) else []
    function = function.with_changes(body=function.body.with_changes(body=[*head, *moved, *body[len(head):]]))
    function = function.visit(_GlobalsBecomeEnclosing())
    code = cst.Module(body=[function.with_changes(leading_lines=[])]).code
    try:
        compile(code, "<function>", "exec")
    except SyntaxError as error:
        raise NotSelfContained(f"moved inside {entry} the code does not compile: {error.msg}") from None
    return code


def _check_scopes(source: str, entry: str) -> set[str]:
    """Refuse what moving the module into `entry` would silently change (see the module docstring);
    return the names the module binds beside `entry`."""
    try:
        module = symtable.symtable(source, "<function>", "exec")
    except SyntaxError as error:
        raise NotSelfContained(f"does not compile: {error.msg}") from None
    [function] = [t for t in module.get_children() if t.get_name() == entry and t.get_type() == "function"]
    symbol = module.lookup(entry) if entry in module.get_identifiers() else None
    if symbol is not None and symbol.is_referenced():
        raise NotSelfContained(f"code outside {entry} refers to {entry} by name")
    outside = {s.get_name() for s in module.get_symbols() if s.get_name() != entry}
    for table in _descendants(module):  # a global of f or of a function inside it is never f's local: no harm
        outside |= {s.get_name() for s in table.get_symbols() if s.is_global()}
        if any(s.get_name() == entry and s.is_global() and s.is_referenced() for s in table.get_symbols()):
            raise NotSelfContained(f"{table.get_name()} calls {entry} by name")
    clashes = sorted(outside & set(function.get_locals()))
    if clashes:
        raise NotSelfContained(f"{entry} binds {', '.join(clashes)}, which code around it or inside it reads "
                               "from the module or the builtins")
    _check_globals(module, [])
    return {s.get_name() for s in module.get_symbols() if s.get_name() != entry
            and (s.is_assigned() or s.is_imported() or s.is_namespace())}


def _names_in_header(function: cst.FunctionDef, annotations_only: bool = False) -> set[str]:
    """Names read where f is defined rather than called: its decorators, defaults and annotations."""
    parts: list[cst.CSTNode] = [*([] if annotations_only else function.decorators),
                                *([function.returns] if function.returns else [])]
    for param in cst_parameters(function):
        parts += [node for node in (None if annotations_only else param.default, param.annotation) if node is not None]
    return {node.value for part in parts for node in _walk(part) if isinstance(node, cst.Name)}


def _walk(node: cst.CSTNode):
    yield node
    for child in node.children:
        yield from _walk(child)


def _descendants(table: symtable.SymbolTable):
    for child in table.get_children():
        yield child
        yield from _descendants(child)


def _check_globals(table: symtable.SymbolTable, enclosing: list[symtable.SymbolTable]) -> None:
    """A `global` that becomes `nonlocal` must not land on a function between it and the module."""
    for symbol in table.get_symbols():
        if symbol.is_declared_global():
            hidden = [t.get_name() for t in enclosing if t.get_type() == "function"
                      and symbol.get_name() in t.get_locals()]
            if hidden:
                raise NotSelfContained(f"global {symbol.get_name()} in {table.get_name()} skips the binding in "
                                       f"{hidden[-1]}")
    for child in table.get_children():
        _check_globals(child, [*enclosing, table] if table.get_type() != "module" else [])


def _future_import(statement: cst.CSTNode) -> bool:
    """`from __future__ import ...` may only open a module; inside f it has no place (and no effect)."""
    return (isinstance(statement, cst.SimpleStatementLine)
            and all(isinstance(s, cst.ImportFrom) and isinstance(s.module, cst.Name) and s.module.value == "__future__"
                    for s in statement.body))


def _is_docstring(statement: cst.CSTNode) -> bool:
    return (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr)
            and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))


class KnowsNesting(cst.CSTTransformer):
    """A transformer that keeps `depth`, how many function or class bodies it is inside, from `start`
    (-1 when it is handed the function itself, which it enters first; 0 when handed its body)."""

    def __init__(self, start: int = 0):
        super().__init__()
        self.depth = start

    def visit_FunctionDef(self, node):
        self.depth += 1

    def leave_FunctionDef(self, original, updated):
        self.depth -= 1
        return updated

    def visit_ClassDef(self, node):
        self.depth += 1

    def leave_ClassDef(self, original, updated):
        self.depth -= 1
        return updated


class _GlobalsBecomeEnclosing(KnowsNesting):
    """Visiting the new f: a `global` in f's own scope goes, one in a scope inside f becomes `nonlocal`."""

    def __init__(self):
        super().__init__(start=-1)  # f itself is entered first

    def leave_SimpleStatementLine(self, original, updated):
        if not any(isinstance(s, cst.Global) for s in updated.body):
            return updated
        if self.depth > 0:
            return updated.with_changes(body=[cst.Nonlocal(names=s.names) if isinstance(s, cst.Global) else s
                                              for s in updated.body])
        kept = [s for s in updated.body if not isinstance(s, cst.Global)]
        return updated.with_changes(body=kept) if kept else cst.RemoveFromParent()

    def leave_IndentedBlock(self, original, updated):
        """A block whose only statement was a `global` keeps a `pass`."""
        return updated if updated.body else updated.with_changes(body=[cst.SimpleStatementLine([cst.Pass()])])


class _NoAnnotations(cst.CSTTransformer):
    """Every parameter and return annotation removed: they change no value the code computes."""

    def leave_Param(self, original, updated):
        if updated.annotation is None:
            return updated
        tight = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
        return updated.with_changes(annotation=None, **({"equal": tight} if updated.default is not None else {}))

    def leave_FunctionDef(self, original, updated):
        return updated.with_changes(returns=None)


def _literal_constants(module: cst.Module) -> dict[str, cst.BaseExpression]:
    """Module names bound exactly once, at the top, to a literal (`LIMIT = 3`) and never declared global."""
    code = module.code
    found: dict[str, cst.BaseExpression] = {}
    counts: dict[str, int] = {}
    for statement in module.body:
        for small in getattr(statement, "body", []) if isinstance(statement, cst.SimpleStatementLine) else []:
            if isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
                for target in targets:
                    if isinstance(target, cst.Name):
                        counts[target.value] = counts.get(target.value, 0) + 1
                if isinstance(small, cst.Assign) and len(targets) == 1 and isinstance(targets[0], cst.Name):
                    try:
                        literal_eval(cst.Module(body=[]).code_for_node(small.value))
                    except (ValueError, SyntaxError):
                        continue
                    found[targets[0].value] = small.value
    return {name: value for name, value in found.items()
            if counts[name] == 1 and not re.search(rf"\bglobal\b[^\n]*\b{re.escape(name)}\b", code)}


class _ConstantDefaults(cst.CSTTransformer):
    """In f's defaults only, a module constant's name replaced by its literal."""

    def __init__(self, constants: dict[str, cst.BaseExpression]):
        super().__init__()
        self.constants = constants

    def leave_Param(self, original, updated):
        if updated.default is None or not self.constants:
            return updated
        return updated.with_changes(default=updated.default.visit(_NamesToLiterals(self.constants)))

    def visit_IndentedBlock(self, node):
        return False  # f's body keeps its names


class _NamesToLiterals(cst.CSTTransformer):
    def __init__(self, constants: dict[str, cst.BaseExpression]):
        super().__init__()
        self.constants = constants

    def leave_Name(self, original, updated):
        return self.constants.get(updated.value, updated)
