"""Deterministic anonymiser: rename every name the author chose, consistently, by scope analysis.

The entry function becomes `f`, other functions and classes `g1, g2, ...`, parameters `a, b, c, ...`
(the entry's first) and every other variable `v1, v2, ...`. Each binding (a name in one scope)
gets a name unique in the module, so closures, `nonlocal`, `global`, comprehensions and recursion
stay correct, and no renamed name can capture another. Builtins, imports, attributes and strings
are left alone; keyword arguments follow the parameters of the renamed function they name (a class's:
those of its `__init__`; `functools.partial(g, k=v)`'s: those of g).

The scopes are Python's own rules worked out on the `ast` tree (libcst's scope metadata did the
same at ten times the cost), and the new names are written into the text at the places the tree
gives, so the layout stays byte for byte. That the edits did exactly what was planned is checked:
the edited text must parse to the original tree with the planned names in it, or ValueError.
Whether the renamed code behaves the same is checked by execution elsewhere, not trusted.
"""

from __future__ import annotations

import ast
import bisect
import builtins
import keyword
import re
import string
from dataclasses import dataclass, field

import libcst as cst

from ifforge.core import pyast
from ifforge.core.pysource import strip_comments_and_docstrings


@dataclass(frozen=True)
class Anonymised:
    source: str
    renames: dict[str, str]  # "scope-qualified old name" -> new name, for people to read
    # the libcst tree of `source`, for the trackers
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


class _Scope:
    """One of Python's scopes: what it binds and what it declares global or nonlocal."""

    def __init__(self, kind: str, parent: _Scope | None):
        self.kind = kind  # "module", "function", "class" or "comprehension"
        self.parent = parent
        self.bound: set[str] = set()
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()
        self.bound_from: dict[str, tuple[int, int]] = {}  # a class's: where the statement first binding each ends
        self.statement_end = (0, 0)

    def owns(self, name: str) -> bool:
        return name in self.bound and name not in self.globals and name not in self.nonlocals


@dataclass
class _Place:
    """One written identifier: where it is, what it is, and how to put a new name into the tree."""

    position: tuple[int, int]  # (line, column in UTF-8 bytes), as `ast` counts them
    name: str
    scope: _Scope
    kind: str  # "function", "param", "variable", "import", "deleted" (bindings) or "access"
    node: ast.AST
    attribute: str  # the node's field holding the name
    index: int | None = None  # for Global/Nonlocal: which of its names


_BINDING_KINDS = ("function", "param", "variable", "import", "deleted")  # what makes a name local
_NAMING_KINDS = ("function", "param", "variable", "import")  # what decides a binding's new name (or keeps it)
_IDENTIFIER = re.compile(r"[^\W\d]\w*")
_DEFINITION = re.compile(r"(?:async[\s\\]+)?(?:def|class)[\s\\]+")


class _Collector:
    """Every identifier of the module with the scope it is written in; builtins and attributes
    are not identifiers of ours and are only counted as names already taken."""

    def __init__(self, text: str, tree: ast.Module):
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))
        self.module = _Scope("module", None)
        self.places: list[_Place] = []
        self.other_names: set[str] = set()  # attributes, keywords, modules: names taken, never renamed
        self.definitions: dict[int, list[_Place]] = {}  # id(FunctionDef) -> its parameters' places
        self.calls: list[tuple[ast.Name, list[ast.keyword]]] = []
        self.partials: list[tuple[ast.expr, ast.Name, list[ast.keyword]]] = []  # (partial, function, keywords)
        self._body(tree.body, self.module)

    # positions ---------------------------------------------------------------------------------

    def offset(self, line: int, column: int) -> int:
        """Text offset of a (line, byte column) position."""
        text = self.lines[line - 1]
        if not text.isascii():
            column = len(text.encode()[:column].decode())
        return self.starts[line - 1] + column

    def position(self, offset: int) -> tuple[int, int]:
        """(line, byte column) of a text offset, to sort places in source order."""
        low = bisect.bisect_right(self.starts, offset) - 1
        line = self.lines[low]
        column = offset - self.starts[low]
        return low + 1, column if line.isascii() else len(line[:column].encode())

    def _found(self, pattern: re.Pattern, start: int, end: int, last: bool = False) -> re.Match:
        matches = list(pattern.finditer(self.text, start, end))
        if not matches:
            raise ValueError(f"no identifier found near line {self.position(start)[0]}")
        return matches[-1] if last else matches[0]

    def _start(self, node: ast.AST) -> int:
        return self.offset(node.lineno, node.col_offset)

    def _end(self, node: ast.AST) -> int:
        return self.offset(node.end_lineno, node.end_col_offset)

    def add(self, offset_or_position, name: str, scope: _Scope, kind: str, node: ast.AST, attribute: str,
            index: int | None = None) -> _Place:
        position = (offset_or_position if isinstance(offset_or_position, tuple)
                    else self.position(offset_or_position))
        place = _Place(position, name, scope, kind, node, attribute, index)
        self.places.append(place)
        if kind in _BINDING_KINDS:
            scope.bound.add(name)
            if scope.kind == "class":
                scope.bound_from[name] = min(scope.bound_from.get(name, scope.statement_end), scope.statement_end)
        return place

    # the walk ----------------------------------------------------------------------------------

    def _body(self, statements, scope: _Scope) -> None:
        for statement in statements:
            if scope.kind == "class":
                scope.statement_end = (statement.end_lineno, statement.end_col_offset)
            self.visit(statement, scope)

    def _all(self, nodes, scope: _Scope) -> None:
        for node in nodes:
            if node is not None:
                self.visit(node, scope)

    def visit(self, node: ast.AST, scope: _Scope) -> None:
        handler = getattr(self, f"_visit_{type(node).__name__}", None)
        if handler is not None:
            handler(node, scope)
        else:
            for child in ast.iter_child_nodes(node):
                self.visit(child, scope)

    def _visit_Name(self, node: ast.Name, scope: _Scope) -> None:
        kind = {ast.Store: "variable", ast.Del: "deleted"}.get(type(node.ctx), "access")
        self.add((node.lineno, node.col_offset), node.id, scope, kind, node, "id")

    def _visit_NamedExpr(self, node: ast.NamedExpr, scope: _Scope) -> None:
        target = scope
        while target.kind == "comprehension":  # an assignment expression binds outside comprehensions
            target = target.parent
        self.add((node.target.lineno, node.target.col_offset), node.target.id, target, "variable", node.target, "id")
        self.visit(node.value, scope)

    def _arguments(self, arguments: ast.arguments, outer: _Scope, inner: _Scope, annotated: bool) -> list[_Place]:
        self._all(arguments.defaults, outer)
        self._all(arguments.kw_defaults, outer)
        every = [*arguments.posonlyargs, *arguments.args, *filter(None, [arguments.vararg]),
                 *arguments.kwonlyargs, *filter(None, [arguments.kwarg])]
        if annotated:
            self._all([argument.annotation for argument in every], outer)
        return [self.add((argument.lineno, argument.col_offset), argument.arg, inner, "param", argument, "arg")
                for argument in every]

    def _definition(self, node, scope: _Scope) -> None:
        self._all(node.decorator_list, scope)
        start = self._start(node)
        found = _DEFINITION.match(self.text, start)
        if found is None:
            raise ValueError(f"cannot find the name of {node.name} on line {node.lineno}")
        self.add(found.end(), node.name, scope, "function", node, "name")

    def _visit_FunctionDef(self, node: ast.FunctionDef, scope: _Scope) -> None:
        self._definition(node, scope)
        inner = _Scope("function", scope)
        self.definitions[id(node)] = self._arguments(node.args, scope, inner, annotated=True)
        if node.returns is not None:
            self.visit(node.returns, scope)
        self._body(node.body, inner)

    _visit_AsyncFunctionDef = _visit_FunctionDef

    def _visit_Lambda(self, node: ast.Lambda, scope: _Scope) -> None:
        inner = _Scope("function", scope)
        self._arguments(node.args, scope, inner, annotated=False)
        self.visit(node.body, inner)

    def _visit_ClassDef(self, node: ast.ClassDef, scope: _Scope) -> None:
        self._definition(node, scope)
        self._all(node.bases, scope)
        for item in node.keywords:
            self.other_names.add(item.arg or "")
            self.visit(item.value, scope)
        self._body(node.body, _Scope("class", scope))

    def _comprehension(self, node, scope: _Scope, results) -> None:
        inner = _Scope("comprehension", scope)
        for number, generator in enumerate(node.generators):
            self.visit(generator.iter, scope if number == 0 else inner)  # the first iterable: outside
            self.visit(generator.target, inner)
            self._all(generator.ifs, inner)
        self._all(results, inner)

    def _visit_ListComp(self, node, scope):
        self._comprehension(node, scope, [node.elt])

    _visit_SetComp = _visit_GeneratorExp = _visit_ListComp

    def _visit_DictComp(self, node, scope):
        self._comprehension(node, scope, [node.key, node.value])

    def _visit_Attribute(self, node: ast.Attribute, scope: _Scope) -> None:
        self.other_names.add(node.attr)
        self.visit(node.value, scope)

    def _visit_Call(self, node: ast.Call, scope: _Scope) -> None:
        self.visit(node.func, scope)
        self._all(node.args, scope)
        for item in node.keywords:
            self.other_names.add(item.arg or "")
            self.visit(item.value, scope)
        if isinstance(node.func, ast.Name) and any(item.arg for item in node.keywords):
            self.calls.append((node.func, node.keywords))
        if _partial(node.func) and node.args and isinstance(node.args[0], ast.Name) \
                and any(item.arg for item in node.keywords):  # `partial(g, k=v)` calls g with the keyword k
            self.partials.append((node.func, node.args[0], node.keywords))

    def _names(self, node, scope: _Scope, kind: str) -> None:
        """`global`/`nonlocal`: the names after the keyword, in order."""
        found = list(_IDENTIFIER.finditer(self.text, self._start(node), self._end(node)))[1:]
        if [match.group() for match in found] != node.names:
            raise ValueError(f"cannot read the {kind} statement on line {node.lineno}")
        for index, match in enumerate(found):
            self.add(match.start(), match.group(), scope, kind, node, "names", index)

    def _visit_Global(self, node: ast.Global, scope: _Scope) -> None:
        scope.globals.update(node.names)
        self._names(node, scope, "global")

    def _visit_Nonlocal(self, node: ast.Nonlocal, scope: _Scope) -> None:
        scope.nonlocals.update(node.names)
        self._names(node, scope, "nonlocal")

    def _visit_ExceptHandler(self, node: ast.ExceptHandler, scope: _Scope) -> None:
        if node.type is not None:
            self.visit(node.type, scope)
        if node.name is not None:
            start = self._end(node.type) if node.type is not None else self._start(node)
            found = self._found(re.compile(rf"(?<=as)[\s\\]+({re.escape(node.name)})\b"), start,
                                self._start(node.body[0]))
            self.add(found.start(1), node.name, scope, "variable", node, "name")
        self._body(node.body, scope)

    def _import(self, node, scope: _Scope) -> None:
        for alias in node.names:
            self.other_names.update(alias.name.split("."))
            if alias.asname:
                self.other_names.add(alias.asname)
            if alias.name != "*":
                self.add((alias.lineno, alias.col_offset), alias.asname or alias.name.split(".")[0], scope,
                         "import", alias, "asname")

    def _visit_Import(self, node, scope):
        self._import(node, scope)

    def _visit_ImportFrom(self, node, scope):
        self.other_names.update((node.module or "").split("."))
        self._import(node, scope)

    def _visit_MatchAs(self, node: ast.MatchAs, scope: _Scope) -> None:
        if node.pattern is not None:
            self.visit(node.pattern, scope)
        if node.name is not None:
            self.add(self._end(node) - len(node.name), node.name, scope, "variable", node, "name")

    def _visit_MatchStar(self, node: ast.MatchStar, scope: _Scope) -> None:
        if node.name is not None:
            self.add(self._end(node) - len(node.name), node.name, scope, "variable", node, "name")

    def _visit_MatchMapping(self, node: ast.MatchMapping, scope: _Scope) -> None:
        self._all(node.keys, scope)
        self._all(node.patterns, scope)
        if node.rest is not None:
            found = self._found(re.compile(rf"\*\*[\s\\]*({re.escape(node.rest)})\b"), self._start(node),
                                self._end(node), last=True)
            self.add(found.start(1), node.rest, scope, "variable", node, "rest")

    def _visit_MatchClass(self, node: ast.MatchClass, scope: _Scope) -> None:
        self.other_names.update(node.kwd_attrs)
        self.visit(node.cls, scope)
        self._all(node.patterns, scope)
        self._all(node.kwd_patterns, scope)


def _resolve(place: _Place, module: _Scope) -> _Scope | None:
    """The scope whose binding the name at `place` refers to; None for a builtin or an unbound
    name. Python's rules: global and nonlocal declarations, then the scope itself, then the
    enclosing functions and comprehensions (never a class), then the module. A class body reads a
    name it binds from the module until a statement of its own has bound it (`x = x`)."""
    scope, name = place.scope, place.name
    if name in scope.globals:
        return module
    if scope.kind == "class" and place.kind == "access" and place.position < scope.bound_from.get(name, place.position):
        return module if name in module.bound else None
    if scope.owns(name):
        return scope
    outer = scope.parent
    while outer is not None:
        if outer.kind == "module":
            return outer if name in outer.bound else None
        if outer.kind != "class":
            if name in outer.globals:
                return module
            if outer.owns(name):
                return outer
        outer = outer.parent
    return None


def anonymise(source: str, entry: str) -> Anonymised:
    """Rename every user-chosen name in `source`; `entry` becomes `f`."""
    text = strip_comments_and_docstrings(source)
    tree = pyast.parse(text)
    found = _Collector(text, tree)
    module = found.module
    for place in found.places:  # a global declaration binds the name at module level
        if place.kind in _BINDING_KINDS and place.name in place.scope.globals:
            module.bound.add(place.name)

    # every binding (scope, name) with the places that make it, in source order
    bindings: dict[tuple[int, str], list[_Place]] = {}
    targets: list[tuple[_Place, tuple[int, str] | None]] = []
    for place in found.places:
        target = _resolve(place, module)
        key = None if target is None or target.kind == "class" else (id(target), place.name)
        targets.append((place, key))
        if key is not None and place.kind in _NAMING_KINDS:
            bindings.setdefault(key, []).append(place)
    imported = {key for key, places in bindings.items() if any(p.kind == "import" for p in places)}
    bindings = {key: sorted(places, key=lambda p: p.position) for key, places in bindings.items()
                if key not in imported}  # an imported name stays: a module's names are not the author's to hide

    names_in_module = {place.name for place in found.places} | found.other_names
    kept_names = names_in_module - {name for _, name in bindings}
    namer = _Namer(kept_names | {"f"})
    new_names: dict[tuple[int, str], str] = {}
    ordered = sorted(bindings, key=lambda key: bindings[key][0].position)
    for key in ordered:
        if bindings[key][0].kind == "function":
            is_entry = key[0] == id(module) and key[1] == entry
            new_names[key] = "f" if is_entry else namer.numbered("g")
    entry_definition = next((node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                             and node.name == entry), None)
    for param in found.definitions.get(id(entry_definition), []):
        if (id(param.scope), param.name) in bindings:
            new_names[(id(param.scope), param.name)] = namer.param()
    for key in ordered:
        if key not in new_names:
            new_names[key] = namer.param() if bindings[key][0].kind == "param" else namer.numbered("v")

    edits: list[tuple[_Place, str]] = [(place, new_names[key]) for place, key in targets if key in new_names]
    edits += _keyword_edits(found, targets, new_names)
    renamed = _apply(text, found, edits)
    _check(tree, renamed, edits)
    readable = {}
    for (_, old), new in new_names.items():
        readable.setdefault(old, new)
        if readable[old] != new:
            readable[f"{old}#{new}"] = new
    return Anonymised(source=renamed, renames=dict(sorted(readable.items(), key=lambda kv: kv[1])),
                      module=cst.parse_module(renamed))


def _keyword_edits(found: _Collector, targets, new_names) -> list[tuple[_Place, str]]:
    """A call's keyword arguments follow the parameters of the renamed function it calls."""
    parameters: dict[tuple[int, str], dict[str, str]] = {}  # binding of a def -> old param -> new
    for place, key in targets:
        if place.kind != "function" or key not in new_names:
            continue
        definition = place.node
        if isinstance(definition, ast.ClassDef):  # a class is called with the parameters of its `__init__`
            definition = next((node for node in definition.body if isinstance(node, ast.FunctionDef)
                               and node.name == "__init__"), None)
        if id(definition) in found.definitions:  # a keyword names a parameter, never `*args`, `**kw` or one before `/`
            named = {id(a) for a in (*definition.args.args, *definition.args.kwonlyargs)}
            parameters[key] = {param.name: new_names[(id(param.scope), param.name)]
                               for param in found.definitions[id(definition)]
                               if id(param.node) in named and (id(param.scope), param.name) in new_names}
    key_of = {id(place.node): key for place, key in targets if place.kind == "access"}
    edits = []
    calls = found.calls + [(function, keywords) for partial, function, keywords in found.partials
                           if key_of.get(id(partial)) not in new_names]  # not a `partial` of the author's own
    for function, keywords in calls:
        mapping = parameters.get(key_of.get(id(function)), {})
        for item in keywords:
            if item.arg in mapping:
                place = _Place((item.lineno, item.col_offset), item.arg, found.module, "keyword", item, "arg")
                edits.append((place, mapping[item.arg]))
    return edits


def _partial(func: ast.expr) -> bool:
    """`functools.partial` (or `partialmethod`), by its module's name or imported alone."""
    name = func.attr if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
        and func.value.id == "functools" else func.id if isinstance(func, ast.Name) else None
    return name in ("partial", "partialmethod")


def _apply(text: str, found: _Collector, edits: list[tuple[_Place, str]]) -> str:
    """The text with each place's name replaced; a place that does not hold its name is an error."""
    pieces, at = [], 0
    for place, new in sorted(edits, key=lambda edit: edit[0].position):
        start = found.offset(*place.position)
        if text[start:start + len(place.name)] != place.name or start < at:
            raise ValueError(f"cannot rename {place.name} on line {place.position[0]}")
        pieces += [text[at:start], new]
        at = start + len(place.name)
    return "".join(pieces) + text[at:]


def _check(tree: ast.Module, renamed: str, edits: list[tuple[_Place, str]]) -> None:
    """The renamed text must parse to the original tree with exactly the planned names in it."""
    for place, new in edits:
        if place.index is None:
            setattr(place.node, place.attribute, new)
        else:
            getattr(place.node, place.attribute)[place.index] = new
    if ast.dump(pyast.parse(renamed)) != ast.dump(tree):
        printed = _self_documented(tree, {id(place.node): place.name for place, _ in edits})
        if printed:
            raise ValueError(f"an f-string prints the name {printed} itself ({{{printed}=}}): renaming it would "
                             "change the text")
        raise ValueError("renaming would change the code's structure")


def _self_documented(tree: ast.Module, old_names: dict[int, str]) -> str | None:
    """A renamed name that an f-string's `{name=}` prints (its text is part of the output), if any."""
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for before, value in zip(node.values, node.values[1:]):
                if (isinstance(before, ast.Constant) and isinstance(value, ast.FormattedValue)
                        and str(before.value).rstrip().endswith("=")):
                    for inner in ast.walk(value.value):
                        if id(inner) in old_names:
                            return old_names[id(inner)]
    return None
