"""Plain values: text, numbers, true, false, None, and lists, tuples and dictionaries of plain values.

Python shows a plain value (`repr`) in a way a few sentences pin down exactly, so the describer says it only
of a value this module proves plain. A task's inputs are JSON values, so they are plain; what the code builds
may not be (a set, bytes, an object, a function). Decided once per module, flow-insensitively, as the largest
guess that holds together: a name is plain when every value bound to it anywhere is, a helper gives back plain
values when every value it returns is, a helper's parameter is plain when every call passes it a plain value,
and nothing is plain at all when some step puts a value not known to be plain into a container (a list holding
a set shows the set). The guess is sound by induction over the steps run: no step makes a value that is not
plain out of plain ones. The handlers of a `try` whose steps cannot fail on plain values never run, so what
they bind does not count (`dead`).
"""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.common.source import cst_parameters
from ifforge.families.logicif.codeops.common.walk import Reader, walk
from ifforge.families.logicif.codeops.describe import vocab

# built-ins whose result is plain whatever they are given (when they do not fail)
_ALWAYS = {"len", "str", "repr", "ascii", "int", "float", "bool", "ord", "chr", "hex", "oct", "bin", "isinstance",
           "issubclass", "callable", "any", "all", "hash", "format", "id"}
_IF_PLAIN = {"abs", "round", "divmod", "pow", "min", "max"}  # plain when what they are given is
_COPIES = {"sorted", "list", "tuple", "dict"}  # a new container of the items of their argument
_ITEMS_OF = {"enumerate", "reversed", "iter", "filter", "sorted", "list", "tuple", "set", "frozenset", "zip"}
_NOT_PLAIN_METHODS = {"encode", "to_bytes", "keys", "values", "items"}  # of a plain value: bytes, views
_INSERTS = {"append": 0, "add": 0, "appendleft": 0, "insert": 1, "__setitem__": 1}  # the argument put in
_INSERTS_ITEMS = {"extend", "update", "extendleft"}
_KEYED = {"map", "filter"}  # map(h, xs) and filter(h, xs) call h on each item of xs


class Plain:
    """Which values of one module are surely plain."""

    def __init__(self, module: cst.Module, resolve=lambda node: None, entry: str = "f"):
        survey = _Survey(entry)
        walk(module, survey)
        self.resolve = resolve
        self.survey = survey
        self.names = set(survey.bindings)  # the guess, shrunk until it holds together
        self.results = set(survey.params) - survey.generators  # helpers that give back plain values
        while True:
            names = {name for name in self.names if all(self.holds(b) for b in survey.bindings[name])}
            results = {h for h in self.results if all(self.holds(r) for r in survey.returns.get(h, []))}
            if (names, results) == (self.names, self.results):
                break
            self.names, self.results = names, results
        if survey.unknown or not all(self.holds(m) for m in survey.mutations):
            self.names, self.results = set(), set()

    # ---- the guess ------------------------------------------------------------------------------
    def holds(self, binding: tuple) -> bool:
        how, node, under = binding
        if any(self.dead(t) for t in under):
            return True  # bound only in a handler that never runs
        if how in ("input", "never"):
            return how == "input"
        return self.value(node) if how == "value" else self.items(node)

    def dead(self, statement: cst.Try) -> bool:
        """Can the handlers of this `try` never run, its steps being unable to fail on plain values?"""
        body = statement.body
        lines = [body] if isinstance(body, cst.SimpleStatementSuite) else list(body.body)
        if not all(isinstance(line, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) for line in lines):
            return False
        return all(isinstance(small, cst.Pass) or isinstance(small, cst.Assign) and self.safe(small.value)
                   and all(isinstance(t.target, cst.Name) for t in small.targets)
                   for line in lines for small in line.body)

    def safe(self, node: cst.BaseExpression) -> bool:
        """Can working this out never fail: a constant, a parameter (always bound), or it shown or written as
        text when it is plain?"""
        if _constant(node):
            return True
        if isinstance(node, cst.Name):
            return node.value in self.survey.parameters and node.value not in self.survey.deleted
        return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in (
            "repr", "str", "ascii") and len(node.args) == 1 and not node.args[0].keyword and not node.args[0].star \
            and self.safe(node.args[0].value) and self.value(node.args[0].value)

    # ---- expressions ----------------------------------------------------------------------------
    def value(self, node: cst.BaseExpression | None) -> bool:
        """Is this expression's value surely plain?"""
        if node is None or _constant(node) or isinstance(node, (cst.FormattedString, cst.Comparison)):
            return True
        if isinstance(node, cst.Name):
            return node.value in self.names
        if isinstance(node, (cst.List, cst.Tuple)):
            return all(self.value(e.value) if isinstance(e, cst.Element) else self.items(e.value)
                       for e in node.elements)
        if isinstance(node, cst.Dict):
            return all(self.value(e.key) and self.value(e.value) if isinstance(e, cst.DictElement)
                       else self.value(e.value) for e in node.elements)
        if isinstance(node, cst.ListComp):
            return self.value(node.elt)
        if isinstance(node, cst.DictComp):
            return self.value(node.key) and self.value(node.value)
        if isinstance(node, cst.Subscript):
            return self.value(node.value)
        if isinstance(node, cst.BinaryOperation):
            return self.value(node.left) and self.value(node.right)
        if isinstance(node, cst.UnaryOperation):
            return isinstance(node.operator, cst.Not) or self.value(node.expression)
        if isinstance(node, cst.BooleanOperation):
            return self.value(node.left) and self.value(node.right)
        if isinstance(node, cst.IfExp):
            return self.value(node.body) and self.value(node.orelse)
        if isinstance(node, cst.NamedExpr):
            return self.value(node.value)
        if isinstance(node, cst.Call):
            return self._call(node)
        return False

    def items(self, node: cst.BaseExpression) -> bool:
        """Is every item that going through this gives surely plain?"""
        if self.value(node):
            return True
        if isinstance(node, cst.GeneratorExp):
            return self.value(node.elt)
        if not isinstance(node, cst.Call) or any(a.star for a in node.args):
            return False
        args = [a.value for a in node.args if a.keyword is None]
        name = node.func.value if isinstance(node.func, cst.Name) else None
        if name == "range":
            return True
        if name in _ITEMS_OF and args:
            return all(self.items(a) for a in (args if name == "zip" else args[1:2] if name == "filter" else args[:1]))
        if name == "map" and len(args) >= 2:
            return self._gives_plain(args[0])
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in ("keys", "values", "items"):
            return self.value(node.func.value)
        return False

    def _gives_plain(self, function: cst.BaseExpression) -> bool:
        """Does calling this function (passed as a value) give back plain values?"""
        return isinstance(function, cst.Name) and (function.value in self.results or function.value in _ALWAYS)

    def _call(self, node: cst.Call) -> bool:
        if any(a.star for a in node.args):
            return False
        args = [a.value for a in node.args]
        func = node.func
        if isinstance(func, cst.Name) and func.value in self.survey.params:
            return func.value in self.results
        if isinstance(func, cst.Name) and func.value not in self.survey.bindings:  # a built-in
            name = func.value
            if name in _ALWAYS:
                return True
            if name in _IF_PLAIN:
                positional = [a.value for a in node.args if a.keyword is None]
                default = [a.value for a in node.args if a.keyword and a.keyword.value == "default"]
                if name in ("min", "max") and len(positional) == 1:
                    return self.items(positional[0]) and all(self.value(d) for d in default)
                return all(self.value(a) for a in positional + default)
            if name == "sum":
                return bool(args) and self.items(args[0]) and all(self.value(a) for a in args[1:])
            if name in _COPIES:
                return not args or len(node.args) == 1 and not node.args[0].keyword and self.items(args[0])
            return False
        dotted, head = self.resolve(func) or "", func
        while isinstance(head, cst.Attribute):
            head = head.value
        if dotted in vocab.PLAIN and isinstance(head, cst.Name) and head.value in self.survey.imported \
                and len(self.survey.bindings[head.value]) == 1:
            return all(self.value(a) for a in args)  # a library function vocab/ says gives plain results
        if isinstance(func, cst.Attribute) and self.value(func.value):
            method = func.attr.value
            if method in _NOT_PLAIN_METHODS or method.startswith("__"):
                return False
            return method not in ("get", "pop", "setdefault", "fromkeys") or all(self.value(a) for a in args)
        return False


def _constant(node: cst.BaseExpression) -> bool:
    """A literal whose value is plain: a number, a text (not bytes), true, false or None."""
    if isinstance(node, (cst.Integer, cst.Float)):
        return True
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        return isinstance(node.evaluated_value, str)
    return isinstance(node, cst.Name) and node.value in ("True", "False", "None")


class _Survey(Reader):
    """One walk collecting every binding, return, call and insertion of the module, each with the `try`
    statements whose handlers it sits in."""

    def __init__(self, entry: str):
        self.entry = entry
        self.bindings: dict[str, list[tuple]] = {}
        self.returns: dict[str, list[tuple]] = {}
        self.mutations: list[tuple] = []
        self.params: dict[str, list[tuple[str, cst.BaseExpression | None]]] = {}  # helper -> (name, default)
        self.parameters: set[str] = set()
        self.generators: set[str] = set()
        self.deleted: set[str] = set()
        self.imported: set[str] = set()  # names bound by an import
        self.unknown = False  # a binding this survey cannot read (a match statement)
        self.calls: list[tuple[str, cst.Call, tuple]] = []
        self.fed: list[tuple] = []  # map(h, xs): (h, parameter position, "items", xs, handlers)
        self.accounted: set[int] = set()  # ids of helper names used as a call, never passed on
        self.uses: list[cst.Name] = []
        self.tries: list[cst.Try] = []
        self.under: list[cst.Try] = []
        self.functions: list[str] = []
        self.classes = 0

    def leave_Module(self, node: cst.Module) -> None:
        for helper, params in self.params.items():
            escapes = any(n.value == helper and id(n) not in self.accounted for n in self.uses)
            for name, default in params:
                self.bind_name(name, ("never", None) if escapes else ("value", default) if default else None)
        for helper, call, under in self.calls:
            if helper not in self.params:
                continue
            names = [name for name, _ in self.params[helper]]
            for position, arg in enumerate(call.args):
                if arg.star:
                    for name in names:
                        self.bind_name(name, ("never", None))
                    continue
                name = arg.keyword.value if arg.keyword else names[position] if position < len(names) else None
                if name in names:
                    self.bindings.setdefault(name, []).append(("value", arg.value, under))
        for helper, position, how, source, under in self.fed:
            if len(self.params.get(helper, [])) > position:
                self.bindings.setdefault(self.params[helper][position][0], []).append((how, source, under))

    # ---- bindings ---------------------------------------------------------------------------------
    def bind_name(self, name: str, how: tuple | None) -> None:
        self.bindings.setdefault(name, [])
        if how is not None:
            self.bindings[name].append((*how, tuple(self.under)))

    def bind(self, target: cst.BaseExpression, how: str, value: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            self.bind_name(target.value, (how, value))
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:  # each part of a plain item is plain
                self.bind(element.value, "items", value)
        elif isinstance(target, cst.Subscript):
            self.insert("items" if any(isinstance(s.slice, cst.Slice) for s in target.slice) else how, value)
            for element in target.slice:
                if isinstance(element.slice, cst.Index):
                    self.insert("value", element.slice.value)  # a dictionary's new key

    def insert(self, how: str, value: cst.BaseExpression) -> None:
        self.mutations.append((how, value, tuple(self.under)))

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self.bind(target.target, "value", node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self.bind(node.target, "value", node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name):  # `x += v`: a number, or x grows by v's items (in place)
            self.bind_name(node.target.value, ("items", node.value))
        self.insert("items", node.value)

    def visit_For(self, node: cst.For) -> None:
        self.bind(node.target, "items", node.iter)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self.bind(node.target, "items", node.iter)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self.bind(node.target, "value", node.value)

    def visit_AsName(self, node: cst.AsName) -> None:  # with ... as, except ... as
        for name in names_in(node.name):
            self.bind_name(name, ("never", None))

    def visit_Import(self, node: cst.Import | cst.ImportFrom) -> bool:
        for alias in node.names if isinstance(node.names, (list, tuple)) else []:
            name = alias.asname.name.value if alias.asname else cst.Module([]).code_for_node(alias.name).split(".")[0]
            self.imported.add(name)
            self.bind_name(name, ("never", None))
        return False

    visit_ImportFrom = visit_Import

    def visit_Del(self, node: cst.Del) -> None:
        self.deleted.update(names_in(node.target))

    def visit_Match(self, node) -> None:
        self.unknown = True

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.bind_name(node.name.value, ("never", None))
        self.classes += 1

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes -= 1

    def visit_Lambda(self, node: cst.Lambda) -> None:
        for param in cst_parameters(node):
            self.bind_name(param.name.value, ("never", None))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        name = node.name.value
        self.accounted.add(id(node.name))
        self.bind_name(name, ("never", None))
        self.functions.append(name)
        params = node.params
        self.parameters.update(p.name.value for p in cst_parameters(node))
        if self.classes or node.decorators:  # a method: called on an object, by ways not seen here
            for param in cst_parameters(node):
                self.bind_name(param.name.value, ("never", None))
            return
        named = [*params.posonly_params, *params.params, *params.kwonly_params]
        self.params[name] = [(p.name.value, p.default) for p in named]
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                self.bind_name(star.name.value, ("input", None) if name == self.entry else ("never", None))
        if name == self.entry:
            for param in named:
                self.bind_name(param.name.value, ("input", None))

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.pop()

    def visit_Return(self, node: cst.Return) -> None:
        if self.functions:
            self.returns.setdefault(self.functions[-1], []).append(("value", node.value, tuple(self.under)))

    def visit_Yield(self, node: cst.Yield) -> None:
        if self.functions:
            self.generators.add(self.functions[-1])

    # ---- handlers -----------------------------------------------------------------------------------
    def visit_Try(self, node: cst.Try) -> None:
        self.tries.append(node)

    def leave_Try(self, node: cst.Try) -> None:
        self.tries.pop()

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        self.under.append(self.tries[-1])

    def leave_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        self.under.pop()

    def visit_TryStar(self, node) -> None:
        self.unknown = True

    # ---- calls --------------------------------------------------------------------------------------
    def visit_Name(self, node: cst.Name) -> None:
        self.uses.append(node)

    def visit_Call(self, node: cst.Call) -> None:
        func, under = node.func, tuple(self.under)
        positional = [a.value for a in node.args if a.keyword is None and not a.star]
        if isinstance(func, cst.Name):
            self.accounted.add(id(func))
            self.calls.append((func.value, node, under))
            if func.value in _KEYED and len(positional) >= 2 and isinstance(positional[0], cst.Name):
                self.accounted.add(id(positional[0]))  # its i-th parameter gets each item of the i-th source
                self.fed.extend((positional[0].value, i, "items", source, under)
                                for i, source in enumerate(positional[1:]))
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value == "key" and isinstance(arg.value, cst.Name) \
                        and positional:
                    self.accounted.add(id(arg.value))  # a key gets each item of one source, or each value given
                    self.fed.extend((arg.value.value, 0, "items" if len(positional) == 1 else "value", given, under)
                                    for given in positional)
        method = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) \
            else ""
        if method in _INSERTS and len(positional) > _INSERTS[method]:
            self.insert("value", positional[_INSERTS[method]])
        elif method in _INSERTS_ITEMS and positional:
            self.insert("items", positional[0])
        elif method in ("setdefault", "heappush", "heappushpop", "heapreplace", "insort", "insort_left",
                        "insort_right"):  # the key (or the heap) and the value put in
            for value in positional[:2]:
                self.insert("value", value)
        for arg in node.args:
            if arg.keyword is not None and method in _INSERTS_ITEMS:
                self.insert("value", arg.value)


def names_in(target: cst.BaseExpression) -> list[str]:
    """The names an assignment target binds (`a`, `a, (b, c)`)."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for e in target.elements for n in names_in(e.value)]
    return []
