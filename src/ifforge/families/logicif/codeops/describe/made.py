"""Functions a module makes once, when it loads, by calling a factory (`accent = pick_mark(ACUTE, GRAVE)`).

Everyday code builds small functions at module level from a factory that returns an inner function:
`def pick_mark(*marks): def _(ch): ...; return _`, then `accent = pick_mark(ACUTE, GRAVE)` and
`accent(ch)` in the steps. A reader needs no factory: the made function is a helper of its own whose
fixed values are the factory's inputs. So each such line becomes the inner function, named as the
made name (a numbered `v` name gets a fresh helper name), with every use of the factory's parameters
read as the value the call gave it (the `*` parameter as the tuple of the values gathered), and the
factory is left out.

This is exact only when nothing can tell the difference, so it is done only when: the factory is a
module-level function whose body is its docstring, the one inner function and `return` of it, and
whose only uses are such lines; its parameters are plain ones (with defaults) and at most one `*`
parameter; the call gives plain or named values, each a fixed one (a number, a text, True, False,
None, a tuple of such, or a name the module binds once, at its top level, before the call); the
inner function binds none of those names or parameters anywhere inside, has no `global` or
`nonlocal` and no decorator, never names itself, and is not a generator or async; and the made
name is bound by that line alone.
"""

from __future__ import annotations

import re

import libcst as cst

from ifforge.families.logicif.codeops.common.source import ValueNames
from ifforge.families.logicif.codeops.common.walk import holds, value_names
from ifforge.families.logicif.codeops.describe.stored_methods import bindings

_NUMBERED = re.compile(r"v\d+")
_HELPER = re.compile(r"g(\d+)")


def _factory(function: cst.FunctionDef) -> cst.FunctionDef | None:
    """The inner function `function` makes and returns, when that is all it does; else None."""
    if function.decorators or function.asynchronous is not None or not isinstance(function.body, cst.IndentedBlock):
        return None
    params = function.params
    if params.star_kwarg is not None or params.kwonly_params or isinstance(params.star_arg, cst.ParamStar):
        return None
    body = list(function.body.body)
    while body and isinstance(body[0], cst.SimpleStatementLine) and all(
            isinstance(s, cst.Expr) and isinstance(s.value, (cst.SimpleString, cst.ConcatenatedString))
            for s in body[0].body):
        body = body[1:]  # the docstring
    if len(body) != 2 or not isinstance(body[0], cst.FunctionDef):
        return None
    inner, last = body
    if not (isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and isinstance(last.body[0], cst.Return)
            and isinstance(last.body[0].value, cst.Name) and last.body[0].value.value == inner.name.value):
        return None
    if inner.decorators or inner.asynchronous is not None or \
            holds(inner, (cst.Global, cst.Nonlocal, cst.Yield, cst.Await)) or \
            inner.name.value in value_names(inner.params) + value_names(inner.body):
        return None
    return inner


def _fixed(node: cst.BaseExpression, constants: set[str]) -> bool:
    """A value that is the same object, or an equal unchangeable one, wherever it is read."""
    if isinstance(node, (cst.SimpleString, cst.Integer, cst.Float, cst.Imaginary)):
        return True
    if isinstance(node, cst.ConcatenatedString):
        return _fixed(node.left, constants) and _fixed(node.right, constants)
    if isinstance(node, cst.Name):
        return node.value in ("True", "False", "None") or node.value in constants
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        return isinstance(node.expression, (cst.Integer, cst.Float))
    if isinstance(node, cst.Tuple):
        return all(isinstance(e, cst.Element) and _fixed(e.value, constants) for e in node.elements)
    return False


def _given(factory: cst.FunctionDef, call: cst.Call, constants: set[str]) -> dict[str, cst.BaseExpression] | None:
    """What each parameter of the factory holds on this call, or None when that is not plain."""
    params = factory.params
    plain = list(params.posonly_params) + list(params.params)
    star = params.star_arg if isinstance(params.star_arg, cst.Param) else None
    given: dict[str, cst.BaseExpression] = {}
    extra: list[cst.BaseExpression] = []
    for position, arg in enumerate(a for a in call.args if a.keyword is None):
        if arg.star or not _fixed(arg.value, constants):
            return None
        if position < len(plain):
            given[plain[position].name.value] = arg.value
        elif star is not None:
            extra.append(arg.value)
        else:
            return None
    named = [p.name.value for p in params.params]
    for arg in call.args:
        if arg.keyword is None:
            continue
        if arg.keyword.value not in named or arg.keyword.value in given or not _fixed(arg.value, constants):
            return None
        given[arg.keyword.value] = arg.value
    for param in plain:
        if param.name.value not in given:
            if param.default is None or not _fixed(param.default, constants):
                return None
            given[param.name.value] = param.default
    if star is not None:
        given[star.name.value] = cst.Tuple([cst.Element(v) for v in extra])
    return given


class _Read(ValueNames):
    """Each use of a name in `values` read as its value; each use of a name in `renamed` under its new name."""

    def __init__(self, values: dict[str, cst.BaseExpression], renamed: dict[str, str]):
        self.values, self.renamed = values, renamed

    def replace(self, name):
        if name.value in self.values:
            return self.values[name.value].deep_clone()
        if name.value in self.renamed:
            return name.with_changes(value=self.renamed[name.value])
        return name


def inline(module: cst.Module) -> cst.Module:
    """`module` with each function made by a factory at module level told as a helper of its own."""
    top = list(module.body)
    factories = {s.name.value: s for s in top if isinstance(s, cst.FunctionDef) and s.name.value != "f"}
    calls = [(i, s) for i, s in enumerate(top) if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1
             and isinstance(s.body[0], cst.Assign) and len(s.body[0].targets) == 1
             and isinstance(s.body[0].targets[0].target, cst.Name) and isinstance(s.body[0].value, cst.Call)
             and isinstance(s.body[0].value.func, cst.Name) and s.body[0].value.func.value in factories]
    if not calls:  # the usual case: no survey of the module
        return module
    everywhere = bindings(module)
    uses: dict[str, int] = {}
    for name in value_names(module):
        uses[name] = uses.get(name, 0) + 1
    inners = {name: _factory(s) for name, s in factories.items()}
    placed = {id(target): i for i, s in enumerate(top) if isinstance(s, cst.SimpleStatementLine)
              for small in s.body if isinstance(small, cst.Assign) for target in small.targets}  # module constants
    made: dict[int, tuple[str, cst.FunctionDef, dict]] = {}
    for position, line in calls:
        assign = line.body[0]
        name, factory = assign.targets[0].target.value, assign.value.func.value
        inner = inners[factory]
        if inner is None or len(everywhere.get(name, [])) != 1:
            continue
        constants = {n for n, where in everywhere.items() if len(where) == 1 and placed.get(id(where[0]), position) < position}
        given = _given(factories[factory], assign.value, constants)
        if given is None:
            continue
        inside = set(bindings(inner.params)) | set(bindings(inner.body))
        read = set(given) | {n for value in given.values() for n in value_names(value)}
        if inside & read:
            continue
        made[position] = (name, inner, given)
    counted = {}
    for name, inner, given in made.values():
        factory = next(s.body[0].value.func.value for i, s in calls if s.body[0].targets[0].target.value == name)
        counted[factory] = counted.get(factory, 0) + 1
    whole = {factory for factory, count in counted.items() if uses.get(factory, 0) == 1 + count}
    made = {p: m for p, m in made.items() if top[p].body[0].value.func.value in whole}
    if not made:
        return module
    taken = [int(m[1]) for n in uses if (m := _HELPER.fullmatch(n))]
    fresh = max(taken, default=0)
    renamed = {}
    for position, (name, _, _) in sorted(made.items()):
        if _NUMBERED.fullmatch(name):
            fresh += 1
            renamed[name] = f"g{fresh}"
    body = []
    for position, statement in enumerate(top):
        if isinstance(statement, cst.FunctionDef) and statement.name.value in whole:
            continue  # the factory: each function it makes is told as a helper of its own
        if position in made:
            name, inner, given = made[position]
            read = _Read(given, {})  # the defaults and annotations too: they are read when the factory is called
            helper = inner.with_changes(name=cst.Name(renamed.get(name, name)), leading_lines=statement.leading_lines,
                                        params=inner.params.visit(read), body=inner.body.visit(read))
            body.append(helper)
            continue
        body.append(statement)
    changed = module.with_changes(body=body)
    return changed.visit(_Read({}, renamed)) if renamed else changed
