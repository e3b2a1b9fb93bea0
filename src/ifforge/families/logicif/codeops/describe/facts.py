"""Module facts: what one read of the module knows before a sentence is said, frozen.

Each analysis is a small function registered with `@analysis(name, ...)`, run in the order registered,
reading the module and the facts found before it; `read` runs them all once and freezes what they
found (`Facts`). The speaker (`english.Speaker`) and the narrator read these facts and never fill them,
so a new kind of fact is one more registered function and one more field, not a walk and a field
filled by hand in `describe`.
"""

from __future__ import annotations

import builtins
from collections import Counter
from dataclasses import dataclass, fields
from types import MappingProxyType, SimpleNamespace
from typing import Any, Callable, Mapping

import libcst as cst

from ifforge.core import pyast
from ifforge.families.logicif.codeops.common.source import cst_parameters, dotted_name, resolved_name
from ifforge.families.logicif.codeops.common.walk import Reader, holds, walk
from ifforge.families.logicif.codeops.describe import bindings, first_reads, pattern_tables, regex, roles, stored_methods, vocab, wildcards
from ifforge.families.logicif.codeops.describe.errors import Undescribable
from ifforge.families.logicif.codeops.describe.english import METHOD_TYPES, is_constant
from ifforge.families.logicif.codeops.describe.plain import Plain, names_in


@dataclass(frozen=True)
class Facts:
    """What the module holds, as the describer needs it (each field's analysis says how it is found)."""

    stats: str  # the name of the counters' dictionary
    helpers: frozenset[str]  # functions the steps call as helpers (nested, module-level, `name = C().m`)
    kinds: Mapping[str, str]  # name -> its certain kind (`int`, `list[str]`, ...)
    generators: frozenset[str]  # helpers that produce values (`yield`)
    stops: frozenset[int]  # ids of the returns that end a producing helper's values
    patterns: frozenset[str]  # names of compiled regular expressions
    pattern_makers: frozenset[str]  # helpers whose one step gives back a compiled pattern (`return re.compile(...)`)
    bound: Mapping[str, cst.Attribute]  # name -> the bound method it stands for
    held: Mapping[str, str]  # name -> the changing method it keeps (`add = xs.append`)
    translators: frozenset[str]  # functions that turn a shell wildcard into a pattern
    wildcards: frozenset[str]  # names that hold a wildcard turned into a pattern
    classes: frozenset[str]  # classes the code defines
    told: tuple[cst.ClassDef, ...]  # the small classes told with their methods as helpers
    filling: frozenset[str]  # of those, the dictionaries that fill in what they lack
    methods: frozenset[str]  # the methods of the told classes
    constants: Mapping[str, cst.BaseExpression]  # module-level name -> its one value
    imported: Mapping[str, str]  # name -> module.name (`from module import name`)
    plain: Plain  # which values are surely plain (their display has exact words)
    pattern_texts: frozenset[str]  # module-level texts used only as patterns
    flag_names: frozenset[str]  # module-level regular-expression flags used only as the flags of re calls
    tables: Mapping[str, pattern_tables.Table]  # module-level tables of patterns a loop tries in turn
    table_names: Mapping[str, tuple[str, str]]  # a loop's name -> (its table, "pattern" or "replacement")
    plain_texts: frozenset[str]  # loop names set to written texts a pattern holds as they are
    records: Mapping[str, tuple[str, ...]]  # a namedtuple -> its field names
    dataclasses: Mapping[str, tuple[tuple[str, Any], ...]]  # a class of fields -> its (field, default or None)
    frozen: frozenset[str]  # of those, the ones whose objects cannot change (`frozen=True`)
    typing_only: frozenset[str]  # names only annotations read
    inert: frozenset[str]  # of those, module-level classes whose defining changes nothing else: no words needed
    checked: frozenset[str]  # module-level classes read only as the kind `isinstance` asks about: none is made
    texts: Mapping[str, tuple[int, int] | None]  # a class whose objects are texts -> (the place of the input that is
    # the text, how many inputs its making takes), or None: made from one input as `str(x)` is
    objects: Mapping[str, str]  # name -> the library maker of the one object it is ever set to (`d = date(...)`)
    numbers: frozenset[str]  # names that only ever hold numbers (`total = 0` changed by `total += x`)
    instances: Mapping[str, str]  # name -> the told class of the one object it is ever set to (`d = DSU(xs)`)
    based: Mapping[str, cst.ClassDef]  # module-level class built on a library's class with words in vocab/ (`Enum`)
    based_on: Mapping[str, str]  # such a class -> the dotted name of its base
    compared: frozenset[str]  # of those, the ones read only as `C.NAME` compared by value (`x in (C.A, C.B)`)
    own_methods: Mapping[str, frozenset[str]]  # told class -> the methods it defines (not `__init__`)
    fields: frozenset[str]  # the fields the told classes' methods set on their object, read on any object as fields
    owners: Mapping[str, str]  # a method exactly one told class defines, no other kind has -> that class
    named: frozenset[str]  # the names of records' items no other kind of value has (`p.x`: the item named x)
    slotted: bool  # a told class limits its fields by `__slots__` (`o.x = v` may fail where o is one of its objects)
    mixed: Mapping[str, frozenset[str]]  # parameter -> the kinds its declared union allows
    inputs: frozenset[str]  # parameters of `f` never set again: they hold the JSON input whenever read
    input_reads: frozenset[cst.Name]  # reads of other parameters of `f` that surely still hold the input
    modules: frozenset[str]  # every module the code imports (`import m`, `from m import g`), at any depth
    parameters: Mapping[str, frozenset[str]]  # a helper defined once -> the names its parameters take by name
    kind_tuples: Mapping[str, cst.Tuple]  # a name bound once in the whole module, to a written tuple of kinds
    steady: frozenset[str]  # names bound once in the whole module to a written value that nothing changes
    plainly_kinded: frozenset[str]  # classes whose objects belong to no abstract kind (Iterable, Sequence, ...) but
    # by the defaults every object has (hashable): no method that changes what isinstance of such a kind says


_ANALYSES: list[tuple[tuple[str, ...], Callable[[Any], Any]]] = []


def analysis(*names: str):
    """Register a function that finds the facts `names` (one value, or a tuple of one per name)."""
    def register(function):
        _ANALYSES.append((names, function))
        return function
    return register


def read(module: cst.Module, stats: str, helpers: set[str], kinds: Mapping[str, str],
         changing: frozenset[str], declared: Mapping[str, str] | None = None) -> Facts:
    """Every registered analysis once, in order, then the facts frozen. `changing`: the methods the
    narrator says as changes of their object (`append`, `add`, ...); `declared`: each input's declared
    type (`Union[int, str]`), for what a parameter may hold when no one kind is certain."""
    known: dict[str, Any] = {"module": module, "stats": stats, "helpers": frozenset(helpers), "kinds": kinds,
                             "changing": changing, "declared": dict(declared or {})}
    for names, function in _ANALYSES:
        found = function(SimpleNamespace(**known))
        known.update(zip(names, found if len(names) > 1 else (found,)))
    return Facts(**{f.name: _frozen(known[f.name]) for f in fields(Facts)})


def _frozen(value):
    if isinstance(value, dict):
        return MappingProxyType(value)
    if isinstance(value, set):
        return frozenset(value)
    if isinstance(value, list):
        return tuple(value)
    return value


# ---- the analyses, in the order they run ------------------------------------------------------
@analysis("parameters")
def _parameters(k) -> dict[str, frozenset[str]]:
    """Each helper defined once (at any depth): the names of the parameters a call may give by name."""
    found: dict[str, list[cst.FunctionDef]] = {}

    class Definitions(Reader):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            found.setdefault(node.name.value, []).append(node)

    walk(k.module, Definitions())
    return {name: frozenset(p.name.value for p in (*defs[0].params.params, *defs[0].params.kwonly_params))
            for name, defs in found.items() if len(defs) == 1 and name in k.helpers}


@analysis("generators", "stops")
def _producers(k) -> tuple[set[str], set[int]]:
    return _generators(k.module)


@analysis("assigned")
def _assignments(k) -> dict[str, list[cst.BaseExpression]]:
    return _assigned(k.module)  # one walk, read by the three below


@analysis("pattern_makers", "patterns", "bound")
def _compiled(k):
    names = {"re"} | {alias for alias, module in _imported(k.module).items() if module == "re"}  # `import re as _re`
    makers = _pattern_makers(k.module, k.helpers, k.stats, _patterns(k.assigned, names=names)[0], names)
    return (makers, *_patterns(k.assigned, makers, names))


@analysis("held")
def _held(k) -> dict[str, str]:
    return _kept_methods(k.module, k.assigned, k.changing)


@analysis("translators")
def _translators(k) -> set[str]:
    return wildcards.translators(k.module, k.stats)


@analysis("wildcards")
def _wildcards(k) -> set[str]:
    return wildcards.pattern_names(k.assigned, stored_methods.bindings(k.module), k.translators)


@analysis("classes", "told", "filling", "methods")
def _classes(k):
    classes = [s for s in k.module.body if isinstance(s, cst.ClassDef)]
    told = [s for s in classes if _small_class(s, k.module)]
    filling = {c.name.value for c in told if _filling_class(c, k.module)}
    methods = {m.name.value for c in told for m in class_methods(c) if m.name.value not in ("__init__", "__missing__")}
    return {c.name.value for c in classes}, told, filling, methods


@analysis("constants")
def _module_constants(k) -> dict[str, cst.BaseExpression]:
    return _constants(k.module)


@analysis("helpers")
def _object_methods(k) -> frozenset[str]:
    """`name = C().m`: a method of one object of a told class, called as a helper."""
    told = {c.name.value for c in k.told}
    return k.helpers | {name for name, value in k.constants.items() if isinstance(value, cst.Attribute)
                        and isinstance(value.value, cst.Call) and isinstance(value.value.func, cst.Name)
                        and value.value.func.value in told}


@analysis("imported")
def _imports(k) -> dict[str, str]:
    return _imported(k.module)


@analysis("modules")
def _modules(k) -> set[str]:
    found = {alias.name.value if isinstance(alias.name, cst.Name) else "." for node in _all(k.module, cst.Import)
             for alias in node.names}
    return found | {"from" for _ in _all(k.module, cst.ImportFrom)}


@analysis("plain")
def _plain(k) -> Plain:
    return Plain(k.module, lambda node: resolved_name(node, k.imported))


@analysis("pattern_texts")
def _texts_as_patterns(k) -> set[str]:
    return _pattern_texts(k.module, k.constants)


@analysis("flag_names")
def _flags_as_flags(k) -> set[str]:
    return _flag_names(k.module, k.constants)


@analysis("tables", "table_names", "plain_texts")
def _tables_of_patterns(k):
    return pattern_tables.find(k.module, k.constants)


@analysis("patterns")
def _patterns_of_tables(k) -> set[str]:
    """A loop's name set to each pattern of a table in turn is a pattern too (`rx.search(s)`)."""
    return set(k.patterns) | {name for name, (_, role) in k.table_names.items() if role == pattern_tables.PATTERN} \
        | _pattern_loop_names(k.module, k.patterns) | _pattern_defaults(k.module) \
        | _pattern_parameters(k.module, k.patterns)


def _pattern_defaults(module: cst.Module) -> set[str]:
    """A module-level function's parameter whose default is a written `re.compile(...)`, bound nowhere else,
    that no call passes (none gives that many inputs in order or names it) and that nothing reads but
    calls: the compiled pattern on every call (`def first_word(line, c=re.compile(r"^(\\s*)(\\w*)"))`)."""
    names = {"re"} | {alias for alias, module in _imported(module).items() if module == "re"}
    reads = pattern_tables.survey(module)
    found = set()
    for function in (s for s in module.body if isinstance(s, cst.FunctionDef)):
        plain = list(function.params.params)
        for place, param in enumerate(plain):
            if param.default is None or not _compile_call(param.default, names) or \
                    reads.bindings[param.name.value] != 1 or reads.bindings[function.name.value] != 1:
                continue
            calls = [c for c in _all(module, cst.Call) if isinstance(c.func, cst.Name)
                     and c.func.value == function.name.value]
            if reads.uses[function.name.value] != 1 + len(calls) or any(
                    a.star or a.keyword is not None and a.keyword.value == param.name.value
                    for c in calls for a in c.args) or any(
                    sum(1 for a in c.args if a.keyword is None) > place for c in calls):
                continue
            found.add(param.name.value)
    return found


def _pattern_parameters(module: cst.Module, patterns) -> set[str]:
    """A helper's parameter, bound nowhere else, that every call of the helper gives a compiled pattern:
    a name of one (told among the fixed values) or a written `re.compile(...)` (`find_rows(lines, HEADER)`,
    then `c.match(line)` inside). The helper is defined once and only ever called, never with `*` or `**`,
    and each call gives that parameter by its place or its name."""
    names = {"re"} | {alias for alias, module in _imported(module).items() if module == "re"}
    reads = pattern_tables.survey(module)
    functions = [f for f in _all(module, cst.FunctionDef) if f.name.value != "f"]
    calls: dict[str, list[cst.Call]] = {}
    for call in _all(module, cst.Call):
        if isinstance(call.func, cst.Name):
            calls.setdefault(call.func.value, []).append(call)
    found: set[str] = set()
    while True:  # a helper that hands its pattern on to another (`find_rows(lines, c)`) gives it one too
        known = set(patterns) | found
        more = set()
        for function in functions:
            made = calls.get(function.name.value, [])
            if not made or reads.bindings[function.name.value] != 1 or \
                    reads.uses[function.name.value] != 1 + len(made) or any(a.star for c in made for a in c.args):
                continue
            for place, param in enumerate([*function.params.posonly_params, *function.params.params]):
                if param.name.value in known or reads.bindings[param.name.value] != 1:
                    continue
                given = []
                for call in made:
                    named = [a for a in call.args if a.keyword is not None and a.keyword.value == param.name.value]
                    ordered = [a for a in call.args if a.keyword is None]
                    given.append(named[0].value if named else ordered[place].value if place < len(ordered) else None)
                if all(isinstance(g, cst.Name) and g.value in known or isinstance(g, cst.Call) and
                       _compile_call(g, names) for g in given):
                    more.add(param.name.value)
        if not more:
            return found
        found |= more


def _pattern_loop_names(module: cst.Module, patterns) -> set[str]:
    """A loop's name bound only by loops over a list or tuple written in the loop itself whose items are all
    names of compiled patterns (`for rx in [START, END]: if rx.match(s)`): each turn it is one of them."""
    reads = pattern_tables.survey(module)
    over: dict[str, list[bool]] = {}
    for loop in reads.loops:
        if isinstance(loop.target, cst.Name):
            source = loop.iter
            over.setdefault(loop.target.value, []).append(
                isinstance(source, (cst.List, cst.Tuple)) and bool(source.elements) and all(
                    isinstance(e, cst.Element) and isinstance(e.value, cst.Name) and e.value.value in patterns
                    for e in source.elements))
    return {name for name, fits in over.items() if all(fits) and reads.bindings[name] == len(fits)}


@analysis("kinds")
def _filled_tables(k) -> dict[str, str]:
    """`table = Filling()`: a dictionary."""
    return {**k.kinds, **{name: "dict" for name, value in k.constants.items() if isinstance(value, cst.Call)
                          and isinstance(value.func, cst.Name) and value.func.value in k.filling}}


@analysis("kind_tuples")
def _kind_tuples(k) -> dict[str, cst.Tuple]:
    """Names bound exactly once in the whole module (no parameter, loop, `del` or other binding of that
    name anywhere), by `name = (K1, K2, ...)` with each item a bare name or `type(...)`: wherever such a
    name is read it holds that tuple (a tuple never changes), so `isinstance(x, name)` asks about its kinds."""
    bindings = pattern_tables.bindings(k.module)
    return {name: values[0] for name, values in k.assigned.items()
            if len(values) == 1 and bindings[name] == 1 and isinstance(values[0], cst.Tuple) and values[0].elements
            and all(isinstance(e, cst.Element) and (isinstance(e.value, cst.Name) or isinstance(e.value, cst.Call)
                    and isinstance(e.value.func, cst.Name) and e.value.func.value == "type") for e in values[0].elements)}


@analysis("steady")
def _steady(k) -> set[str]:
    """Names bound exactly once in the whole module, by `name = value` with a written value (a number, a text, a
    tuple or list of such): wherever read after that, they hold that value, so a lambda made in the steps may
    read them (what it reads when called is what was there when made). A list is one only where every other
    use of the name is as the container of `x in name` (nothing can change it in place)."""
    reads = pattern_tables.survey(k.module)
    found = set()
    for name, values in k.assigned.items():
        if len(values) != 1 or reads.bindings[name] != 1 or not is_constant(values[0]):
            continue
        if holds(values[0], cst.List) and \
                reads.uses[name] != 1 + reads.looked_in[name]:
            continue
        found.add(name)
    return found


# a class's methods that make its objects belong to an abstract kind of collections.abc, or stop them being
# hashable; `register` (a class named a member of such a kind) and a metaclass are ruled out apart
_KIND_MAKING = ("__iter__", "__len__", "__getitem__", "__contains__", "__reversed__", "__next__", "__hash__", "__eq__",
                "__call__", "__aiter__", "__anext__", "__await__", "__buffer__", "__class_getitem__", "__init_subclass__",
                "__instancecheck__", "__subclasshook__", "__new__", "__getattr__", "__getattribute__", "__slots__",
                "__class__", "__dict__", "__setitem__", "__delitem__", "__missing__")


@analysis("plainly_kinded")
def _plainly_kinded(k) -> set[str]:
    """Module-level classes with no decorator, no keyword among their bases (a metaclass), bases that are
    `object`, a built-in kind of error or such classes themselves, and no method or value named as one of
    `_KIND_MAKING` in their body, in code that calls nothing named `register`: their objects are not
    iterable, sized, a sequence or a mapping, and are hashable, as every object is by default."""
    if any(isinstance(node.func, cst.Attribute) and node.func.attr.value == "register" for node in _all(k.module, cst.Call)):
        return set()
    classes = {s.name.value: s for s in k.module.body if isinstance(s, cst.ClassDef)}
    errors = {name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, BaseException)}

    def defines(statement: cst.ClassDef) -> set[str]:
        lines = [] if isinstance(statement.body, cst.SimpleStatementSuite) else statement.body.body
        found = {line.name.value for line in lines if isinstance(line, (cst.FunctionDef, cst.ClassDef))}
        for line in lines:
            for small in line.body if isinstance(line, cst.SimpleStatementLine) else []:
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
                    [small.target] if isinstance(small, (cst.AnnAssign, cst.AugAssign)) else []
                found |= {name for target in targets for name in names_in(target)}
        return found

    plain: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, statement in classes.items():
            if name in plain or statement.decorators or any(a.keyword or a.star for a in statement.bases) \
                    or defines(statement) & set(_KIND_MAKING):
                continue
            if all(isinstance(a.value, cst.Name) and (a.value.value == "object" or a.value.value in plain
                                                        or a.value.value in errors and a.value.value not in k.imported
                                                        and a.value.value not in classes) for a in statement.bases):
                plain.add(name)
                changed = True
    return plain


@analysis("records")
def _records(k) -> dict[str, tuple[str, ...]]:
    made = {name: tuple(names) for name, value in k.constants.items() if (names := _record_fields(value))}
    return made | {c.name.value: names for c in k.module.body if isinstance(c, cst.ClassDef)
                   and (names := _record_class(c, k.imported) or _shown_record(c, k.module)) is not None}


_SHOWING = ("__str__", "__repr__")  # methods that change only how an object is written as text
_WRITERS = ("str", "repr", "format", "print", "ascii", "__str__", "__repr__", "__format__", "format_map")


def _shown_record(statement: cst.ClassDef, module: cst.Module) -> tuple[str, ...] | None:
    """The field names of `class V(namedtuple("V", fields))` whose body holds only a docstring, `__slots__ = ()`
    and methods that change how an object is written as text (`__str__`, `__repr__`), in code that writes
    nothing as text outside those methods (no str, repr, format, print, f-string field, `%` on other than
    numbers): its objects are then the tuples `namedtuple` makes, their text never seen; else None."""
    if statement.decorators or len(statement.bases) != 1 or statement.bases[0].keyword or statement.bases[0].star \
            or isinstance(statement.body, cst.SimpleStatementSuite):
        return None
    names = _record_fields(statement.bases[0].value)
    if not names:
        return None
    showing = []
    for line in statement.body.body:
        if isinstance(line, cst.FunctionDef) and line.name.value in _SHOWING and not line.decorators:
            showing.append(line)
            continue
        small = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
        slots = isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) \
            and small.targets[0].target.value == "__slots__" and isinstance(small.value, cst.Tuple) and not small.value.elements
        if not (slots or small is not None and is_noop(small)):
            return None
    if showing and _writes_text(module, {id(method) for method in showing}):
        return None
    return tuple(names)


def _writes_text(module: cst.Module, skipped: set[int]) -> bool:
    """Does the code outside the nodes `skipped` write some value as text (a name or method among `_WRITERS`
    but as a kind `isinstance` asks about or in an annotation, an f-string field, `%` with neither side a
    written number)?"""
    found, kinds = [], set()  # kinds: names `isinstance` asks about (`str` there is a kind, writing nothing)

    class Writes(Reader):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return id(node) not in skipped

        def visit_Annotation(self, node: cst.Annotation) -> bool:
            return False  # `x: str` writes nothing

        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name) and node.func.value in ("isinstance", "issubclass") and len(node.args) == 2:
                kinds.update(id(name) for name in _all(node.args[1].value, cst.Name))

        def visit_Name(self, node: cst.Name) -> None:
            if node.value in _WRITERS and id(node) not in kinds:
                found.append(node)

        def visit_FormattedStringExpression(self, node) -> None:
            found.append(node)

        def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
            if isinstance(node.operator, cst.Modulo) and not any(
                    isinstance(side, (cst.Integer, cst.Float)) for side in (node.left, node.right)):
                found.append(node)

        def visit_ModuloAssign(self, node) -> None:
            found.append(node)

    walk(module, Writes())
    return bool(found)


def _record_class(statement: cst.ClassDef, imported: Mapping[str, str]) -> tuple[str, ...] | None:
    """The field names of `class P(NamedTuple)` holding only a docstring and `name: kind` lines (no default,
    no method): a tuple whose items are also named, as `namedtuple("P", "x y")` makes; else None."""
    if statement.decorators or len(statement.bases) != 1 or statement.bases[0].keyword or \
            vocab.SHAPES.get(resolved_name(statement.bases[0].value, imported) or "") != "record" or \
            isinstance(statement.body, cst.SimpleStatementSuite):
        return None
    names = []
    for line in statement.body.body:
        small = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
        if isinstance(small, cst.AnnAssign) and small.value is None and isinstance(small.target, cst.Name) \
                and not small.target.value.startswith("_"):
            names.append(small.target.value)
        elif small is None or not is_noop(small):
            return None
    return tuple(names) if names else None


@analysis("dataclasses", "frozen")
def _classes_of_fields(k):
    found, frozen = {}, set()
    for statement in k.module.body:
        if isinstance(statement, cst.ClassDef) and (shape := _dataclass(statement, k.imported)) is not None:
            found[statement.name.value] = shape[0]
            frozen |= {statement.name.value} if shape[1] else set()
    return found, frozen


def _dataclass(statement: cst.ClassDef, imported: Mapping[str, str]) -> tuple[tuple, bool] | None:
    """((field, default or None), ...), frozen) of a class made by a decorator vocab/ calls a "dataclass"
    (`@dataclass`, `@dataclass(frozen=True)`) with no base and only a docstring and `name: kind [= value]`
    lines, each value a number, a text, None, true or false; else None."""
    if len(statement.decorators) != 1 or statement.bases or statement.keywords or \
            isinstance(statement.body, cst.SimpleStatementSuite):
        return None
    decorator, frozen = statement.decorators[0].decorator, False
    if isinstance(decorator, cst.Call):
        options = {a.keyword.value if a.keyword else None: a.value for a in decorator.args}
        if any(key != "frozen" or not (isinstance(v, cst.Name) and v.value in ("True", "False"))
               for key, v in options.items()):
            return None
        frozen = "frozen" in options and options["frozen"].value == "True"
        decorator = decorator.func
    if vocab.SHAPES.get(resolved_name(decorator, imported) or "") != "dataclass":
        return None
    fields = []
    for line in statement.body.body:
        small = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
        value = small.value if isinstance(small, cst.AnnAssign) else None
        if isinstance(value, cst.Call):  # `field(default_factory=list)`: its words live in vocab/
            value = vocab.DATACLASS["default"](value, resolved_name(value.func, imported))
            if value is None:
                return None
        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and \
                not any(word in cst.Module([]).code_for_node(small.annotation.annotation) for word in ("ClassVar", "InitVar")) and \
                (value is None or _fixed_literal(value) or isinstance(value, (cst.List, cst.Dict, cst.Call))):
            fields.append((small.target.value, value))
        elif small is None or not is_noop(small):
            return None
    return (tuple(fields), frozen) if fields else None


def _fixed_literal(node: cst.BaseExpression) -> bool:
    """A number, a text, None, True or False: a default no object can change."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    return isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)) or \
        isinstance(node, cst.Name) and node.value in ("None", "True", "False")


@analysis("typing_only")
def _annotations_only(k) -> set[str]:
    return _typing_only(k.module, k.imported)


@analysis("inert")
def _inert_classes(k) -> set[str]:
    return {s.name.value for s in k.module.body if isinstance(s, cst.ClassDef) and s.name.value in k.typing_only
            and inert_class(s, k.module)}


@analysis("checked")
def _checked_only(k) -> set[str]:
    """Classes whose defining changes nothing else (`inert_class`) and whose every read outside annotations is as
    the kind (or one of the kinds) `isinstance(x, C)` asks about: no step makes one, so the check needs no more
    of the class than its name."""
    classes = {s.name.value for s in k.module.body if isinstance(s, cst.ClassDef) and inert_class(s, k.module)}
    reads, checks = Counter(), Counter()

    class Uses(Reader):
        def __init__(self):
            self.skip: set[int] = set()

        def visit_Annotation(self, node: cst.Annotation) -> bool:
            return False

        def visit_ClassDef(self, node: cst.ClassDef) -> None:
            self.skip.add(id(node.name))

        def visit_Call(self, node: cst.Call) -> None:
            if dotted_name(node.func) == "isinstance" and len(node.args) == 2 and not any(a.star or a.keyword
                                                                                          for a in node.args):
                kind = node.args[1].value
                for each in kind.elements if isinstance(kind, cst.Tuple) else [kind]:
                    value = each.value if isinstance(each, cst.Element) else each
                    if isinstance(value, cst.Name):
                        checks[value.value] += 1

        def visit_Name(self, node: cst.Name) -> None:
            if id(node) not in self.skip:
                reads[node.value] += 1

    walk(k.module, Uses())
    return {name for name in classes if reads[name] == checks[name] > 0 and name not in k.typing_only}


@analysis("texts")
def _text_classes(k) -> dict[str, tuple[int, int] | None]:
    """Module-level classes built on `str` (or on such a class) whose objects behave as their text in every use a
    step can make of them: no special method but `__new__` (`self = super().__new__(cls, v)`, then fields set from
    inputs, written values or empty containers, then `return self`), `__repr__` and `__getnewargs__`, and no method,
    property or class value named like one of text's."""
    found: dict[str, tuple[int, int] | None] = {}
    for statement in k.module.body:
        if not isinstance(statement, cst.ClassDef) or statement.decorators or len(statement.bases) != 1 or \
                statement.bases[0].keyword or not isinstance(statement.bases[0].value, cst.Name):
            continue
        base = statement.bases[0].value.value
        if base != "str" and base not in found or base == "str" and "str" in k.imported:
            continue
        place = found.get(base)
        ok = True
        for line in statement.body.body if isinstance(statement.body, cst.IndentedBlock) else [statement.body]:
            if isinstance(line, cst.FunctionDef):
                name = line.name.value
                if name == "__new__":
                    place = _text_new(line)
                    ok = ok and place is not None
                elif name in dir(str) and name not in ("__repr__", "__getnewargs__") or name in _TEXT_SPECIAL_REFUSED:
                    ok = False
                elif name.startswith("__") and name.endswith("__") and name not in ("__repr__", "__getnewargs__"):
                    ok = False
                elif not all(dotted_name(d.decorator) in ("property", "staticmethod", "classmethod")
                             for d in line.decorators):
                    ok = False
                continue
            if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Assign) \
                    and len(line.body[0].targets) == 1 and isinstance(line.body[0].targets[0].target, cst.Name) \
                    and (_fixed_literal(line.body[0].value) or class_value(line) is not None):
                ok = ok and line.body[0].targets[0].target.value not in dir(str)  # a class value
                continue
            if not (isinstance(line, cst.SimpleStatementLine) and all(is_noop(s) or isinstance(s, cst.Pass)
                                                                       for s in line.body)):
                ok = False
        if ok:
            found[statement.name.value] = place
    return found


_TEXT_SPECIAL_REFUSED = {"__init__", "__init_subclass__", "__class_getitem__", "__set_name__"}


def _text_new(method: cst.FunctionDef) -> tuple[int, int] | None:
    """The place (among the inputs after `cls`) of the input `__new__` makes the text from, and how many inputs
    it takes (none with a default), when its steps are
    `self = super().__new__(cls, v)` (or `str.__new__(cls, v)`), fields of self set from inputs, written values
    or empty containers, and `return self`; else None."""
    params = cst_parameters(method)
    if method.decorators or len(params) < 2 or any(isinstance(p.star, str) and p.star or p.default for p in params) or not isinstance(method.params.star_arg, cst.MaybeSentinel) or \
            method.params.kwonly_params or method.params.star_kwarg or \
            not isinstance(method.body, cst.IndentedBlock):
        return None
    names = [p.name.value for p in params]
    lines = [line for line in method.body.body]
    if lines and isinstance(lines[0], cst.SimpleStatementLine) and all(is_noop(s) for s in lines[0].body):
        lines = lines[1:]  # a docstring
    smalls = []
    for line in lines:
        if not isinstance(line, cst.SimpleStatementLine):
            return None
        smalls.extend(line.body)
    first = smalls[0] if smalls else None
    if not (isinstance(first, cst.Assign) and len(first.targets) == 1 and isinstance(first.targets[0].target, cst.Name)
            and isinstance(first.value, cst.Call)):
        return None
    made = first.targets[0].target.value  # the new object, `self` as written (any name once anonymised)
    if len(smalls) < 2 or made in names or not isinstance(smalls[-1], cst.Return) or not (
            isinstance(smalls[-1].value, cst.Name) and smalls[-1].value.value == made):
        return None
    maker, args = first.value.func, first.value.args
    if not (isinstance(maker, cst.Attribute) and maker.attr.value == "__new__" and (
            dotted_name(maker.value) == "str" or isinstance(maker.value, cst.Call)
            and dotted_name(maker.value.func) == "super" and not maker.value.args)):
        return None
    if len(args) != 2 or any(a.keyword or a.star for a in args) or dotted_name(args[0].value) != names[0] or \
            not isinstance(args[1].value, cst.Name) or args[1].value.value not in names[1:]:
        return None
    for small in smalls[1:-1]:
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target,
                                                                                         cst.Attribute)
                and dotted_name(small.targets[0].target.value) == made
                and (isinstance(small.value, cst.Name) and small.value.value in names[1:] or _fixed_literal(small.value)
                     or isinstance(small.value, (cst.List, cst.Dict)) and not small.value.elements)):
            return None
    return names.index(args[1].value.value) - 1, len(names) - 1


@analysis("objects")
def _library_objects(k) -> dict[str, str]:
    """Names set once, by `=` and nothing else, to an object a library makes (`d = date(y, m, 1)`): its
    methods and fields then have the words vocab/ gives them, as on the call written in place."""
    rebound = _bound_otherwise(k.module)
    return {name: maker for name, values in k.assigned.items()
            if len(values) == 1 and name not in rebound and isinstance(values[0], cst.Call)
            and (maker := resolved_name(values[0].func, k.imported)) in vocab.OBJECTS}


@analysis("numbers")
def _numeric_names(k) -> set[str]:
    """Names set by `=` only to numbers and otherwise changed only by `+=`/`-=` (a number plus anything
    but a number fails) or by arithmetic with numbers: they hold a number whenever they are read, so
    no rule about texts and lists is needed where they are added or compared. The largest such set that
    holds together (`t = n - 1` counts when n does); none if a class of the code can be added to a number."""
    changed: dict[str, list[tuple[type, cst.BaseExpression]]] = {}
    reflected: list[str] = []  # `__radd__`: a number plus an object of the code is that object's choice

    class Changes(Reader):
        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            for name in names_in(node.target):
                changed.setdefault(name, []).append((type(node.operator), node.value))

        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            if node.name.value in ("__radd__", "__rsub__"):
                reflected.append(node.name.value)

    walk(k.module, Changes())
    if reflected:
        return set()
    rebound = _bound_otherwise(k.module, augmented=False)
    found = {name for name in k.assigned if name not in rebound}
    while True:
        kept = {name for name in found
                if all(_numeric(value, found) for value in k.assigned[name])
                and all(op in (cst.AddAssign, cst.SubtractAssign) or _numeric(value, found)
                        for op, value in changed.get(name, []))}
        if kept == found:
            return found
        found = kept


def _numeric(node: cst.BaseExpression, numbers: set[str]) -> bool:
    """Is this surely a number, given the names that hold numbers?"""
    if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary)):
        return True
    if isinstance(node, cst.Name):
        return node.value in numbers
    if isinstance(node, cst.UnaryOperation):
        return not isinstance(node.operator, cst.Not) and _numeric(node.expression, numbers)
    if isinstance(node, cst.BinaryOperation):
        return not isinstance(node.operator, cst.MatrixMultiply) and _numeric(node.left, numbers) \
            and _numeric(node.right, numbers)
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in (
        "len", "int", "float", "ord")
@analysis("based", "based_on")
def _library_based(k):
    """Module-level classes whose one base is a library class vocab/ has words for (`class C(Enum)`)."""
    based, on = {}, {}
    for statement in k.module.body:
        if isinstance(statement, cst.ClassDef) and len(statement.bases) == 1:
            base = resolved_name(statement.bases[0].value, k.imported)
            if base in vocab.CLASSES:
                based[statement.name.value], on[statement.name.value] = statement, base
    return based, on


@analysis("compared")
def _compared_only(k) -> set[str]:
    """Classes built on a library class whose every read is a member `C.NAME` that a comparison by value
    (`==`, `<`, `in`, ... never `is`) reads directly or as an item of a written tuple, list or set it
    searches: nothing else of the member (its display, its kind, its identity) can reach a result."""
    reads, compared = Counter(), Counter()

    def member(node: cst.BaseExpression) -> str | None:
        return node.value.value if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) \
            and node.value.value in k.based else None

    class Uses(Reader):
        def visit_Name(self, node: cst.Name) -> None:
            reads[node.value] += node.value in k.based

        def visit_Attribute(self, node: cst.Attribute) -> None:
            reads[node.attr.value] -= node.attr.value in k.based  # `x.C` reads no class C

        def visit_ClassDef(self, node: cst.ClassDef) -> None:
            reads[node.name.value] -= node.name.value in k.based

        def visit_Comparison(self, node: cst.Comparison) -> None:
            if any(isinstance(c.operator, (cst.Is, cst.IsNot)) for c in node.comparisons):
                return
            operands = [node.left, *(c.comparator for c in node.comparisons)]
            searched = [e.value for c in node.comparisons if isinstance(c.operator, (cst.In, cst.NotIn))
                        and isinstance(c.comparator, (cst.Tuple, cst.List, cst.Set)) for e in c.comparator.elements
                        if not isinstance(e, (cst.StarredElement,))]
            for node in [*operands, *searched]:
                if member(node):
                    compared[member(node)] += 1

    walk(k.module, Uses())
    return {name for name in k.based if reads[name] == compared[name]}


@analysis("own_methods")
def _told_methods(k) -> dict[str, frozenset[str]]:
    return {c.name.value: frozenset(m.name.value for m in class_methods(c)) - {"__init__"} for c in k.told}


@analysis("fields", "owners", "named", "slotted")
def _own_fields(k):
    """What an object of a told class or a record holds, so that `p.x`, `p.x = v` and `p.m(...)` have words on
    any object (an item, a loop's name, a name set twice), not only one held in a name set once: the fields
    its methods set on it (`self.x = ...`), the methods one told class alone defines, and the names of a
    record's items. A name some other kind of value has too (a built-in kind, a compiled pattern or its
    match, an object a library in vocab/ makes), or that two of these share, is none of them: on such a
    value `p.x` would mean something else."""
    if any(not _small_class(c, k.module) and not _plain_kind(c) and c.name.value not in k.records
           and c.name.value not in k.dataclasses for c in k.module.body if isinstance(c, cst.ClassDef)) or k.filling:
        return set(), {}, set(), False
    elsewhere = {name for sample in (*_SAMPLES, *_pattern_samples()) for name in dir(sample)}
    elsewhere |= {"name", "value"} if k.based else set()  # what a member of a class built on `Enum` has
    elsewhere |= {name for made in vocab.OBJECTS.values() for part in ("methods", "fields") for name in made.get(part, {})}
    fields = {field for told in k.told for field in _set_fields(told)}
    defined = Counter(m for told in k.told for m in {m.name.value for m in class_methods(told)} - {"__init__"})
    owners = {m.name.value: told.name.value for told in k.told for m in class_methods(told)
              if m.name.value != "__init__" and defined[m.name.value] == 1 and m.name.value not in elsewhere}
    fields |= {field for shape in k.dataclasses.values() for field, _ in shape}
    named = {name for names in k.records.values() for name in names}  # a record's item: said as one
    fields = {f for f in fields if not f.startswith("__")}  # `self.__x` is renamed in its class
    slotted = any(_slots(line) is not None for c in k.told for line in c.body.body)
    return fields - elsewhere - set(defined) - named, owners, named - elsewhere - fields - set(defined), slotted


_SAMPLES = ({}, [], "", 0, 0.0, False, None, (), set(), frozenset(), b"", bytearray())


def _pattern_samples() -> tuple:
    import re
    return re.compile(""), re.match("", "")


def _plain_kind(statement: cst.ClassDef) -> bool:
    """A class that names a kind of error or a marker, or one built on a library class with words in vocab/
    (`Enum`): no object of it holds fields a step sets."""
    bases = [dotted_name(a.value) or "" for a in statement.bases]
    return bool(bases) and all(b.endswith(("Error", "Exception", "Warning", "Enum")) for b in bases)


@analysis("instances")
def _own_objects(k) -> dict[str, str]:
    """Names set once, by `=` and nothing else, to a new object of a class told with its methods
    (`dsu = DSU(vertices)`): a method called on one is that class's own method, told among the helpers."""
    told = {c.name.value for c in k.told} - set(k.filling)
    rebound = _bound_otherwise(k.module)
    return {name: values[0].func.value for name, values in k.assigned.items()
            if len(values) == 1 and name not in rebound and isinstance(values[0], cst.Call)
            and isinstance(values[0].func, cst.Name) and values[0].func.value in told}


@analysis("mixed")
def _mixed_inputs(k) -> dict[str, frozenset[str]]:
    """Inputs declared as a union (`Union[int, str]`): the plain kinds each may hold on some case, so an
    operator whose meaning depends on its operands' kinds (`%`: a remainder or text formatting) is said
    only where every case has one meaning."""
    settled = _settled_numbers(k.module, k.assigned, k.kinds, k.stats)
    return {name: frozenset(part.strip().split("[")[0] for part in _union_parts(declared[6:-1]))
            for name, declared in k.declared.items() if declared.startswith("Union[") and declared.endswith("]")
            and name not in settled}


@analysis("inputs")
def _kept_inputs(k) -> set[str]:
    """`f`'s parameters that nothing sets again (no `=`, loop, `+=`, ...; no other function has a parameter
    of that name): whenever one is read it holds the input, a JSON value."""
    entry = next((s for s in k.module.body if isinstance(s, cst.FunctionDef) and s.name.value == "f"), None)
    if entry is None:
        return set()
    parameters = Counter(p.name.value for p in _all(k.module, cst.Param))
    rebound = _bound_otherwise(k.module, parameters=False)
    return {p.name.value for p in cst_parameters(entry) if parameters[p.name.value] == 1
            and p.name.value not in k.assigned and p.name.value not in rebound}


@analysis("input_reads")
def _first_reads(k) -> set[cst.Name]:
    """Reads of a parameter of `f` set again somewhere that come before anything could set it (`first_reads`)."""
    entry = next((s for s in k.module.body if isinstance(s, cst.FunctionDef) and s.name.value == "f"), None)
    if entry is None:
        return set()
    parameters = Counter(p.name.value for p in _all(k.module, cst.Param))
    wanted = {p.name.value for p in cst_parameters(entry) if parameters[p.name.value] == 1
              and not (isinstance(p.star, str) and p.star)} - k.inputs
    return first_reads.input_reads(entry, wanted)


def _sets_only(small: cst.BaseSmallStatement, name: str) -> bool:
    """Is this `name = {...}` (a dictionary display) and nothing else?"""
    return isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) \
        and small.targets[0].target.value == name and isinstance(small.value, cst.Dict)


def _all(node: cst.CSTNode, kind: type) -> list:
    """Every node of `kind` inside `node` (itself included)."""
    found = [node] if isinstance(node, kind) else []
    return found + [inner for child in node.children for inner in _all(child, kind)]


def _settled_numbers(module: cst.Module, assigned: dict, kinds: Mapping[str, str], stats: str) -> set[str]:
    """Parameters of `f` whose first step sets them to a number (`n = abs(int(n))`) and that hold only numbers
    after it (every `=` of the name sets a number, nothing else binds it, no other function has a parameter
    of that name): past that step an operator on one has one meaning whatever kind the input was. The first
    step itself may read the input, so it must hold no `%`."""
    entry = next((s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == "f"), None)
    if entry is None or not isinstance(entry.body, cst.IndentedBlock):
        return set()
    steps = [s for s in entry.body.body if not (isinstance(s, cst.SimpleStatementLine) and all(
        is_noop(x) or _sets_only(x, stats) for x in s.body))]  # the counters' dictionary set up first is no step
    first = steps[0].body if steps and isinstance(steps[0], cst.SimpleStatementLine) else []
    if len(first) != 1 or not isinstance(first[0], cst.Assign) or len(first[0].targets) != 1 \
            or not isinstance(first[0].targets[0].target, cst.Name) or holds(first[0].value, cst.Modulo):
        return set()
    name = first[0].targets[0].target.value
    parameters = Counter(p.name.value for p in _all(module, cst.Param))
    numeric = all(roles.expression_kind(v, kinds) in ("int", "float", "bool") for v in assigned.get(name, []))
    if numeric and parameters[name] == 1 and name in {p.name.value for p in cst_parameters(entry)} \
            and name not in _bound_otherwise(module, parameters=False):
        return {name}
    return set()


def _union_parts(text: str) -> list[str]:
    """`int, list[int], str` split at the commas outside brackets."""
    parts, depth, current = [], 0, ""
    for char in text:
        depth += char in "[("
        depth -= char in "])"
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return parts + [current]


# ---- the walks they use ---------------------------------------------------------------------
def is_noop(small: cst.BaseSmallStatement) -> bool:
    """A bare literal or name as a statement does nothing (docstrings included): never narrate it."""
    return isinstance(small, cst.Expr) and (is_constant(small.value) or isinstance(small.value, (cst.Name, cst.FormattedString)))


class _Producers(Reader):
    """Functions whose own body (not a function inside it) yields, and the returns in their bodies."""

    def __init__(self):
        self.stack: list[tuple[str, list[int], list[bool]]] = []
        self.names: set[str] = set()
        self.stops: set[int] = set()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.stack.append((node.name.value, [], [False]))

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        name, returns, yields = self.stack.pop()
        if yields[0]:
            self.names.add(name)
            self.stops.update(returns)

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False  # a lambda's body is its own function and cannot hold a return

    def visit_Yield(self, node: cst.Yield) -> None:
        if self.stack:
            self.stack[-1][2][0] = True

    def visit_Return(self, node: cst.Return) -> None:
        if self.stack:
            self.stack[-1][1].append(id(node))


def _generators(module: cst.Module) -> tuple[set[str], set[int]]:
    """The names of the functions that produce values (`yield`), and the ids of their returns."""
    found = _Producers()
    walk(module, found)
    return found.names, found.stops


def _assigned(module: cst.Module) -> dict[str, list[cst.BaseExpression]]:
    """Every value each name is set to by `=` (for a name inside an unpacking, the unpacking)."""
    values: dict[str, list[cst.BaseExpression]] = {}

    class Assigned(Reader):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    values.setdefault(target.target.value, []).append(node.value)
                else:
                    for name in names_in(target.target):
                        values.setdefault(name, []).append(target.target)

    walk(module, Assigned())
    return values


def _typing_only(module: cst.Module, imported: Mapping[str, str] = MappingProxyType({})) -> set[str]:
    """Names read in annotations and nowhere else (`T = TypeVar("T")` for `xs: list[T]`), a base that only
    serves type checkers (`class C(Generic[T])`, vocab's `AIDS`) counting as an annotation: annotations
    change no value, so neither do these names, and they need no words. A module-level alias of a type
    (`Segment = Union[int, str]`) read only by annotations or by other such aliases is one too, and so are the
    names only its type expression reads."""
    found: dict[bool, set[str]] = {True: set(), False: set()}
    aliases = {id(small.value): small.targets[0].target.value for line in module.body
               if isinstance(line, cst.SimpleStatementLine) for small in line.body
               if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
               and _type_expression(small.value)}
    via: dict[str, set[str]] = {}  # name -> the aliases whose type expression reads it

    class Reads(Reader):
        def __init__(self):
            self.depth = 0
            self.alias = None

        def visit_Assign(self, node: cst.Assign) -> None:
            self.alias = aliases.get(id(node.value))

        def leave_Assign(self, node: cst.Assign) -> None:
            self.alias = None

        def visit_Annotation(self, node: cst.Annotation) -> None:
            self.depth += 1

        def leave_Annotation(self, node: cst.Annotation) -> None:
            self.depth -= 1

        def visit_ClassDef(self, node: cst.ClassDef) -> None:
            self.defined.add(id(node.name))  # the name being defined is no read

        def visit_Arg(self, node: cst.Arg) -> None:
            self.depth += typing_aid(node.value, imported)

        def leave_Arg(self, node: cst.Arg) -> None:
            self.depth -= typing_aid(node.value, imported)

        def visit_Name(self, node: cst.Name) -> None:
            if id(node) in self.defined:
                return
            if self.alias is not None and self.depth == 0:
                via.setdefault(node.value, set()).add(self.alias)
            else:
                found[self.depth > 0].add(node.value)

        def visit_AssignTarget(self, node: cst.AssignTarget) -> bool:
            return not isinstance(node.target, cst.Name)  # the name being set is no read

    reads = Reads()
    reads.defined = set()
    walk(module, reads)
    only = (found[True] | set(via)) - found[False]
    while dropped := {name for name in only if via.get(name, set()) - only}:  # read by an alias that is said
        only -= dropped
    return only


_TYPE_EXPRESSION = (cst.Name, cst.Attribute, cst.Subscript, cst.Tuple, cst.List, cst.SimpleString, cst.Ellipsis,
                    cst.BinaryOperation)


def _type_expression(node: cst.CSTNode) -> bool:
    """Is this a type written for type checkers (`Union[int, Sequence[str]]`, `int | None`): names, dotted names,
    subscripts and `|` only, so working it out changes nothing?"""
    if isinstance(node, cst.BaseExpression) and not isinstance(node, _TYPE_EXPRESSION) or \
            isinstance(node, cst.BinaryOperation) and not isinstance(node.operator, cst.BitOr):
        return False
    return all(_type_expression(child) for child in node.children)


def _kept_methods(module: cst.Module, assigned: dict[str, list[cst.BaseExpression]],
                  changing: frozenset[str]) -> dict[str, str]:
    """Names only ever set to one changing method of an object (`add = items.append`) and otherwise
    only called as a step (`add(x)`): {name: method}."""
    uses: Counter[str] = Counter()
    steps: Counter[str] = Counter()

    class Uses(Reader):
        def visit_Name(self, node: cst.Name) -> None:
            uses[node.value] += 1

        def visit_Expr(self, node: cst.Expr) -> None:
            if isinstance(node.value, cst.Call) and isinstance(node.value.func, cst.Name):
                steps[node.value.func.value] += 1

    walk(module, Uses())
    kept = {}
    for name, found in assigned.items():
        methods = {v.attr.value for v in found if isinstance(v, cst.Attribute) and isinstance(v.value, cst.Name)}
        if len(methods) == 1 and len(found) == sum(isinstance(v, cst.Attribute) for v in found) \
                and methods <= changing and uses[name] == len(found) + steps[name]:
            kept[name] = methods.pop()
    return kept


def _compile_call(value: cst.BaseExpression, names=frozenset({"re"})) -> bool:
    """`re.compile(...)`, the module called by one of `names`."""
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and \
        isinstance(value.func.value, cst.Name) and value.func.value.value in names and value.func.attr.value == "compile"


def _pattern_makers(module: cst.Module, helpers: frozenset[str], stats: str, patterns: set[str],
                    names=frozenset({"re"})) -> set[str]:
    """Helpers whose body is one `return re.compile(...)` or `return P` for a name of `patterns`
    (docstrings and counter steps on `stats` aside), as code that builds its patterns on first use writes them (`def _port_regex(): return
    re.compile(...)`, often cached): a call of one is a compiled pattern, so `_port_regex().match(x)`
    is a pattern's match."""
    def counted(small: cst.BaseSmallStatement) -> bool:  # `stats['calls'] += 1`
        return isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Subscript) \
            and isinstance(small.target.value, cst.Name) and small.target.value.value == stats

    found = set()
    functions = _all(module, cst.FunctionDef)
    defined = Counter(function.name.value for function in functions)
    for function in functions:
        if function.name.value not in helpers or defined[function.name.value] > 1 \
                or not isinstance(function.body, cst.IndentedBlock):
            continue  # a name defined twice may call either
        steps = [small for line in function.body.body for small in (
            line.body if isinstance(line, cst.SimpleStatementLine) else [line])
            if not (is_noop(small) or counted(small))]
        if len(steps) == 1 and isinstance(steps[0], cst.Return) and (_compile_call(steps[0].value, names) or isinstance(
                steps[0].value, cst.Name) and steps[0].value.value in patterns
                and steps[0].value.value not in {p.name.value for p in cst_parameters(function)}):
            found.add(function.name.value)
    return found


def _patterns(values: dict[str, list[cst.BaseExpression]], makers: frozenset[str] = frozenset(), names=frozenset({"re"})
              ) -> tuple[set[str], dict[str, cst.Attribute]]:
    """Names only ever bound to a compiled regular expression (or None before it is made), and
    module-level names bound to a method of one (`_find = re.compile(...).search`); `values`: `_assigned`'s;
    `makers`: the helpers that give back a compiled pattern (a call of one is one too)."""

    def compiled(value) -> bool:
        return _compile_call(value, names) or isinstance(value, cst.Call) and isinstance(value.func, cst.Name) \
            and value.func.value in makers

    patterns = {name for name, found in values.items()
                if any(compiled(v) for v in found) and all(compiled(v) or (isinstance(v, cst.Name) and v.value == "None")
                                                          for v in found)}
    while True:  # `rgx = _ASCII if ensure_ascii else _ANY`: one of two patterns, chosen by a check
        more = {name for name, found in values.items() if name not in patterns and all(
            isinstance(v, cst.IfExp) and all(compiled(arm) or isinstance(arm, cst.Name) and arm.value in patterns
                                             for arm in (v.body, v.orelse)) for v in found)}
        if not more:
            break
        patterns |= more
    bound = {name: found[0] for name, found in values.items()
             if len(found) == 1 and isinstance(found[0], cst.Attribute) and (compiled(found[0].value) or (
                 isinstance(found[0].value, cst.Name) and found[0].value.value in patterns)
                 or method_of_value(found[0].value))}
    return patterns, bound


def _pattern_texts(module: cst.Module, constants: dict[str, cst.BaseExpression]) -> set[str]:
    """Module-level texts used only as the pattern of a call of the re module: said as patterns where
    they are used, not as fixed values."""
    uses: Counter[str] = Counter()
    as_pattern: Counter[str] = Counter()

    class Uses(Reader):
        def visit_Name(self, node: cst.Name) -> None:
            uses[node.value] += 1

        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name) and \
                    node.func.value.value == "re" and node.args and isinstance(node.args[0].value, cst.Name) \
                    and node.args[0].keyword is None and not node.args[0].star:
                as_pattern[node.args[0].value.value] += 1

    walk(module, Uses())
    return {name for name, value in constants.items() if isinstance(value, (cst.SimpleString, cst.ConcatenatedString))
            and as_pattern[name] and uses[name] == as_pattern[name] + 1}  # + 1: where it is set


def _flag_names(module: cst.Module, constants: dict[str, cst.BaseExpression]) -> set[str]:
    """Module-level names set to the re module's flags (`FLAGS = re.I | re.M`) and read only as an
    argument after the pattern of a call of the re module: said where used, by what the flags do."""
    uses: Counter[str] = Counter()
    as_flags: Counter[str] = Counter()

    class Uses(Reader):
        def visit_Name(self, node: cst.Name) -> None:
            uses[node.value] += 1

        def visit_Call(self, node: cst.Call) -> None:
            if (dotted_name(node.func) or "").startswith("re."):
                for arg in node.args[1:]:
                    if isinstance(arg.value, cst.Name) and not arg.star:
                        as_flags[arg.value.value] += 1

    walk(module, Uses())
    found = set()
    for name, value in constants.items():
        try:
            regex.flag_value(value)
        except Undescribable:
            continue
        if not isinstance(value, cst.Integer) and as_flags[name] and uses[name] == as_flags[name] + 1:
            found.add(name)
    return found


def method_of_value(owner: cst.BaseExpression) -> bool:
    """`"".join`, `int.bit_length`: the owner of a method of a literal or of a type."""
    return isinstance(owner, cst.SimpleString) or isinstance(owner, cst.Name) and owner.value in METHOD_TYPES


def _constants(module: cst.Module) -> dict[str, cst.BaseExpression]:
    """Module-level names bound once, at module level, and never anywhere else: {name: value}."""
    bindings: Counter[str] = Counter()

    class Bound(Reader):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            bindings.update(names_in(node.target))

    walk(module, Bound())
    found = {}
    for line in module.body:
        for small in line.body if isinstance(line, cst.SimpleStatementLine) else []:
            if isinstance(small, cst.Assign) and len(small.targets) == 1:
                for name, value in unpacked(small.targets[0].target, small.value):
                    if bindings[name] == 1:
                        found[name] = value
    return found


def unpacked(target: cst.BaseExpression, value: cst.BaseExpression) -> list[tuple[str, cst.BaseExpression]]:
    """(name, value) for `name = value`, and for each name of `A, B = 0, 1` (a tuple of names set to a
    written tuple of as many values, none reading those names, no `*`); else nothing."""
    if isinstance(target, cst.Name):
        return [(target.value, value)]
    if not (isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List))
            and len(target.elements) == len(value.elements) > 0):
        return []
    names = [e.value.value for e in target.elements if isinstance(e, cst.Element) and isinstance(e.value, cst.Name)]
    values = [e.value for e in value.elements if isinstance(e, cst.Element)]
    if len(names) != len(target.elements) or len(values) != len(value.elements) or len(set(names)) != len(names) \
            or any(set(names_in_reads(v)) & set(names) for v in values):
        return []
    return list(zip(names, values))


def names_in_reads(node: cst.CSTNode) -> list[str]:
    """Every name `node` reads (each `Name` inside it)."""
    return [n.value for n in _all(node, cst.Name)]


def _record_fields(value: cst.BaseExpression) -> list[str] | None:
    """The field names of `namedtuple("Name", "a b")` (or a list of names), else None."""
    if not (isinstance(value, cst.Call) and len(value.args) == 2 and all(a.keyword is None and not a.star
                                                                           for a in value.args)):
        return None
    if not (isinstance(value.func, cst.Name) and value.func.value == "namedtuple" or isinstance(value.func, cst.Attribute)
            and value.func.attr.value == "namedtuple"):
        return None
    try:
        fields = pyast.literal_eval(cst.Module([]).code_for_node(value.args[1].value))
    except (ValueError, SyntaxError):
        return None
    if isinstance(fields, str):
        fields = fields.replace(",", " ").split()
    return list(fields) if all(isinstance(f, str) and f.isidentifier() for f in fields) else None


def _imported(module: cst.Module) -> dict[str, str]:
    """Names a module-level `from m import g [as h]` binds: {h: "m.g"}; and `import m as h`: {h: "m"} (so `h.x`
    is `m.x`)."""
    found = {}
    for line in module.body:
        for small in line.body if isinstance(line, cst.SimpleStatementLine) else []:
            if isinstance(small, cst.Import):
                found.update((alias.asname.name.value, cst.Module([]).code_for_node(alias.name)) for alias in small.names
                             if alias.asname is not None and isinstance(alias.asname.name, cst.Name))
            if isinstance(small, cst.ImportFrom) and not small.relative and small.module is not None \
                    and not isinstance(small.names, cst.ImportStar):
                origin = cst.Module([]).code_for_node(small.module)
                for alias in small.names:
                    bound = alias.asname.name.value if alias.asname else cst.Module([]).code_for_node(alias.name)
                    found[bound] = f"{origin}.{cst.Module([]).code_for_node(alias.name)}"
    return found


def class_methods(statement: cst.ClassDef) -> list[cst.FunctionDef]:
    suite = statement.body
    return [line for line in ([] if isinstance(suite, cst.SimpleStatementSuite) else suite.body)
            if isinstance(line, cst.FunctionDef)]


_INERT_MAKERS = {"frozenset", "tuple", "list", "dict", "set", "auto", "field"}
_PLAIN_DECORATORS = {"property", "staticmethod", "classmethod"}


def inert_class(statement: cst.ClassDef, module: cst.Module) -> bool:
    """Does defining this class change nothing but the class: no decorator (but a class shape vocab/ knows, as
    `dataclass`), no metaclass, no base's `__init_subclass__` of the code, and a body of a docstring, methods
    (decorated at most as properties, static or class methods) and lines whose values are written values,
    names or empty containers? Such a class read only by annotations needs no words."""
    imported = _imported(module)
    if any(not (resolved_name(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator, imported)
                in vocab.SHAPES) for d in statement.decorators) or any(a.keyword or a.star for a in statement.bases):
        return False
    if any(m.name.value == "__init_subclass__" for c in _all(module, cst.ClassDef) for m in class_methods(c)):
        return False
    for line in statement.body.body if isinstance(statement.body, cst.IndentedBlock) else [statement.body]:
        if isinstance(line, cst.FunctionDef):
            if not all(dotted_name(d.decorator) in _PLAIN_DECORATORS or isinstance(d.decorator, cst.Attribute)
                       and d.decorator.attr.value in ("setter", "deleter") for d in line.decorators):
                return False
            continue
        if not isinstance(line, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            return False
        for small in line.body:
            if is_noop(small) or isinstance(small, cst.Pass):
                continue
            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and (
                    small.value is None or _inert(small.value)):
                continue
            if isinstance(small, cst.Assign) and all(isinstance(t.target, cst.Name) for t in small.targets) \
                    and _inert(small.value):
                continue
            return False
    return True


def _inert(node: cst.BaseExpression) -> bool:
    """A written value, a name or a dotted name read, a tuple or list of these, or an empty container made."""
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString, cst.Name, cst.Attribute)):
        return True
    if isinstance(node, (cst.Tuple, cst.List)):
        return all(isinstance(e, cst.Element) and _inert(e.value) for e in node.elements)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        return _inert(node.expression)
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in _INERT_MAKERS \
        and all(not a.star and _inert(a.value) for a in node.args)


def typing_aid(node: cst.BaseExpression, imported: Mapping[str, str]) -> bool:
    """A base class that only serves type checkers (`Generic[T]`, vocab's `AIDS`): it changes nothing an
    object of the class does."""
    return isinstance(node, cst.Subscript) and resolved_name(node.value, imported) in vocab.AIDS


def _small_class(statement: cst.ClassDef, module: cst.Module) -> bool:
    """A class with no base but object (or a base that only serves type checkers), holding only plain methods
    (`__init__` the one special one, since the others change what operators do) and a docstring: its methods
    can be told as helpers. Or a dictionary that fills in what it lacks (`_filling_class`), `__missing__` its
    one special method, with fixed values of its own (`safe = b"-!*"`) too."""
    filling = _filling_class(statement, module)
    imported = _imported(module)
    if statement.decorators or not filling and any(
            not (isinstance(a.value, cst.Name) and a.value.value == "object" or typing_aid(a.value, imported))
            or a.keyword for a in statement.bases):
        return False
    suite = statement.body
    if isinstance(suite, cst.SimpleStatementSuite):
        return False
    special = "__missing__" if filling else "__init__"
    for line in suite.body:
        if isinstance(line, cst.FunctionDef):
            name = line.name.value
            params = cst_parameters(line)
            if line.decorators or line.asynchronous or not params or isinstance(params[0].star, str) and \
                    params[0].star or (name.startswith("__") and name != special) or \
                    _generators(cst.Module(body=[line]))[0]:  # a method that yields is not a helper's steps
                return False
        elif not (isinstance(line, cst.SimpleStatementLine) and all(is_noop(s) or isinstance(s, cst.Pass)
                                                                   for s in line.body) or filling and class_value(line)
                  or not filling and _slots(line) is not None):
            return False
    slots = [found for line in suite.body if (found := _slots(line)) is not None]
    if slots and not _set_fields(statement) <= set(slots[0]):  # a field outside `__slots__` cannot be set
        return False
    return bool(class_methods(statement))


def _slots(line: cst.BaseStatement) -> tuple[str, ...] | None:
    """The names of `__slots__ = ("a", "b")` (a tuple, list or one text): they only limit which fields an
    object may hold, so a class whose methods set no other is told as any other; else None."""
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Assign)
            and len(line.body[0].targets) == 1 and isinstance(line.body[0].targets[0].target, cst.Name)
            and line.body[0].targets[0].target.value == "__slots__"):
        return None
    try:
        names = pyast.literal_eval(cst.Module([]).code_for_node(line.body[0].value))
    except (ValueError, SyntaxError):
        return None
    names = (names,) if isinstance(names, str) else names
    return tuple(names) if isinstance(names, (tuple, list)) and all(isinstance(n, str) for n in names) else None


def _set_fields(statement: cst.ClassDef) -> set[str]:
    """The fields a class's methods set on their object (`self.x = ...`, `self.x += ...`)."""
    found = set()
    for method in class_methods(statement):
        params = cst_parameters(method)
        self = params[0].name.value if params else None
        for target in _all(method, cst.AssignTarget) + _all(method, cst.AugAssign) + _all(method, cst.AnnAssign):
            node = target.target
            if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == self:
                found.add(node.attr.value)
    return found


def _filling_class(statement: cst.ClassDef, module: cst.Module) -> bool:
    """A class made from `dict` alone, with `__missing__`, and only ever made with no inputs (so each
    starts empty): a dictionary that fills in a key asked for before it holds it."""
    if [dotted_name(a.value) for a in statement.bases] != ["dict"] or any(a.keyword for a in statement.bases) or \
            not any(m.name.value == "__missing__" for m in class_methods(statement)):
        return False
    makes = _Makes(statement.name.value)
    walk(module, makes)
    return not makes.given


class _Makes(Reader):
    """Whether some call of a class gives it inputs."""

    def __init__(self, name: str):
        super().__init__()
        self.name, self.given = name, False

    def visit_Call(self, node: cst.Call) -> None:
        self.given = self.given or isinstance(node.func, cst.Name) and node.func.value == self.name and bool(node.args)


def class_value(line: cst.BaseStatement) -> tuple[str, cst.BaseExpression] | None:
    """(name, value) of a line of a class body that gives the class a fixed value no step can change
    in place, shared by its objects: texts, bytes and numbers (`b"-!" + digits.encode("ascii")`), else None."""
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Assign)):
        return None
    assign = line.body[0]
    if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name) or not _unchangeable(assign.value):
        return None
    return assign.targets[0].target.value, assign.value


def _unchangeable(node: cst.BaseExpression) -> bool:
    """A text, bytes or number written out, new bytes made by `.encode(...)`, or a sum of these."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.Integer, cst.Float)):
        return True
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return _unchangeable(node.left) and _unchangeable(node.right)
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "encode"


def _bound_otherwise(module: cst.Module, augmented: bool = True, parameters: bool = True) -> set[str]:
    """Names bound by anything but a plain `=` (so a name set once by `=` can be read as that value)."""
    return bindings.bound(module, plain=False, augmented=augmented, parameters=parameters)
