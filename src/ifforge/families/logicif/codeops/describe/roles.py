"""Role names for the anonymiser's `v1`, `v2`, ...: what a variable does, never what the domain calls it.

A description read aloud with `v17` and `v23` tests tracing, not reading. So before the function is
told, each numbered variable gets a name from how the code uses it and what it holds: a list that
is pushed and popped is a `stack`, one taken from the front a `queue`, a set that is added to
`seen`, a number only ever raised by one a `count`, a loop index `i`, a character `ch`, ...; with
no clearer role, a name for its kind (`n`, `s`, `row`, `flag`, `table`, `pair`). Names are unique
in the module and never one already there (parameters, helpers, tracker keys, builtins), so the
renamed code means exactly what it did. The kinds found (`int`, `list[int]`, `dict`, ...) also
tell the describer when "x counts as true" can be said as "x is not empty".
"""

from __future__ import annotations

import builtins
import keyword
import re
from dataclasses import dataclass, field

import libcst as cst

from ifforge.families.logicif.codeops.common.source import dotted_name
from ifforge.families.logicif.codeops.common.walk import Reader, walk
from ifforge.families.logicif.codeops.describe import vocab

_NUMBERED = re.compile(r"v\d+")

# role -> names to try in order; after the last, the first with 2, 3, ... appended
_POOLS = {
    "index": ["i", "j", "k", "idx"], "char": ["ch"], "element": ["x", "y", "z", "w", "u"],
    "key": ["k"], "entry": ["val"],
    "stack": ["stack"], "queue": ["queue"], "heap": ["heap"], "seen": ["seen"], "out": ["out", "picked", "acc"],
    "counts": ["counts", "tally"], "groups": ["groups"], "table": ["table", "lookup"],
    "count": ["count", "hits", "times"], "total": ["total", "subtotal"], "best": ["best", "top"],
    "lowest": ["lowest", "low"], "text": ["text", "s", "word", "line"], "flag": ["flag", "done", "ok"],
    "number": ["n", "m", "t", "r", "q", "p"], "decimal": ["x", "y", "z"], "row": ["row", "lst", "arr"],
    "pair": ["pair", "cur", "prev"], "members": ["members", "group"], "result": ["res", "got", "answer"],
    "source": ["xs", "ys", "zs"], "kinds": ["kinds", "types"], "other": ["p", "q", "r", "u", "w", "z", "tmp"],
}
_KIND_NAMES = {"int", "float", "str", "bool", "list", "tuple", "dict", "set", "frozenset", "bytes", "bytearray",
               "complex", "type", "object", "memoryview"}
_AVOID = {"a", "an", "the", "it", "item", "value", "key", "position", "part", "result", "counter", "list", "stats",
          "none", "true", "false", "whole", "number", "numbers", "from", "to", "of", "in", "at", "by"}


@dataclass
class _Facts:
    """What the code does with one name."""

    kinds: list[str | None] = field(default_factory=list)  # the kind of every value bound to it
    methods: set[str] = field(default_factory=set)  # methods called on it
    loop: str | None = None  # "index", "char", "element", "key", "entry" when a loop binds it
    bumps: set[str] = field(default_factory=set)  # "one" (+= 1), "add" (+= other), "max", "min", "text"
    first: cst.BaseExpression | None = None  # the first value bound to it
    stored: bool = False  # something is stored at one of its keys (x[k] = ...)
    iterated: bool = False  # a loop goes through it


@dataclass(frozen=True)
class Roles:
    names: dict[str, str]  # v<digits> -> role name
    kinds: dict[str, str]  # any name (renamed or a parameter) -> its kind, where it is certain


def _kind_of_type(type_name: str | None) -> str | None:
    """A declared LogicIF type as a kind: `list[int]` stays, `Union[...]` is no one kind but a "number"
    when it is whole and decimal numbers only."""
    if type_name and type_name.startswith("Union[") and set(type_name[6:-1].split(", ")) == {"int", "float"}:
        return "number"
    if not type_name or type_name.startswith("Union["):
        return None
    if type_name.startswith("tuple("):
        return "tuple"
    return type_name


class _Survey(Reader):
    """One walk over the module, collecting `_Facts` for every name."""

    def __init__(self, kinds: dict[str, str]):
        self.facts: dict[str, _Facts] = {}
        self.known = kinds  # parameter kinds, to type what is taken out of them
        self.all_names: set[str] = set()
        self.params: dict[str, list[str]] = {}  # helper -> its parameter names, in order
        self.passed: dict[str, list[tuple[int | str, str | None]]] = {}  # helper -> (position or keyword, kind)
        self.returns: dict[str, set[str | None]] = {}  # helper -> the kinds it gives back
        self.inside: list[str] = []
        self.closed: set[str] = set()  # helpers whose last step is a return

    def fact(self, name: str) -> _Facts:
        return self.facts.setdefault(name, _Facts())

    def kind(self, node: cst.BaseExpression) -> str | None:
        """The kind an expression surely has, or None."""
        if isinstance(node, cst.Integer):
            return "int"
        if isinstance(node, cst.Float):
            return "float"
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
            return "str"
        if isinstance(node, cst.Name):
            if node.value in ("True", "False"):
                return "bool"
            return self.known.get(node.value)
        if isinstance(node, cst.List) and node.elements and all(
                not isinstance(e, cst.StarredElement) and self.kind(e.value) == "str" for e in node.elements):
            return "list[str]"  # a list written out of texts: each item is text
        if isinstance(node, (cst.List, cst.ListComp)):
            return "list"
        if isinstance(node, (cst.Dict, cst.DictComp)):
            return "dict"
        if isinstance(node, (cst.Set, cst.SetComp)):
            return "set"
        if isinstance(node, cst.Tuple):
            return "tuple"
        if isinstance(node, cst.Comparison) or (isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not)):
            return "bool"
        if isinstance(node, cst.UnaryOperation):
            return self.kind(node.expression) if self.kind(node.expression) in ("int", "float") else None
        if isinstance(node, cst.BinaryOperation):
            left, right = self.kind(node.left), self.kind(node.right)
            if isinstance(node.operator, cst.Divide):
                return "float"
            if isinstance(node.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)) and left == right == "bool":
                return "bool"  # `(x > 0) & flag`: true or false, not a number
            if isinstance(node.operator, cst.Multiply) and "int" in (left, right) and (
                    (left or "").startswith("list") or (right or "").startswith("list")):
                return "list"
            if isinstance(node.operator, cst.Add) and (left or "").startswith("list") and (right or "").startswith("list"):
                return "list"
            if left == right and left in ("int", "float", "str") and not (
                    left == "str" and not isinstance(node.operator, cst.Add)):
                return left
            return None
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and len(node.slice) == 1 \
                and isinstance(node.slice[0].slice, cst.Index):
            owner = self.known.get(node.value.value) or ""
            if owner.startswith("list[") and owner.endswith("]"):
                return _kind_of_type(owner[5:-1])
            if owner == "str":
                return "str"
            return None
        if isinstance(node, cst.Call):
            func = node.func
            made = vocab.kind_of(dotted_name(func))
            if made is not None and not (isinstance(func, cst.Name) and func.value in self.known):
                return made
            if isinstance(func, cst.Name) and func.value in ("max", "min", "abs") and node.args and all(
                    not a.keyword and not a.star for a in node.args):
                kinds = {self.kind(a.value) for a in node.args}
                if len(node.args) > 1 and len(kinds) == 1 and kinds & {"int", "float"}:
                    return kinds.pop()
                if len(node.args) > 1 and kinds & {"int", "float", "number"}:
                    return "number"  # a number only compares with numbers
                if len(node.args) == 1 and func.value in ("max", "min"):  # the largest item of a list of numbers
                    item = self.element(self.kind(node.args[0].value))
                    return item if item in ("int", "float") else None
                return self.kind(node.args[0].value) if func.value == "abs" else None
            if isinstance(func, cst.Name) and func.value in ("sorted", "list") and len(node.args) >= 1:
                source = self.kind(node.args[0].value) or ""
                return source if source.startswith("list[") else "list[str]" if source == "str" else "list"
            if isinstance(func, cst.Name) and func.value in self.known:
                return self.known[func.value]  # a helper that always gives back one kind
            if isinstance(func, cst.Name):
                return {"len": "int", "int": "int", "ord": "int", "str": "str", "chr": "str", "float": "float",
                        "list": "list", "sorted": "list", "dict": "dict", "set": "set", "bool": "bool",
                        "tuple": "tuple", "deque": "deque", "any": "bool", "all": "bool",
                        "isinstance": "bool"}.get(func.value)
            if isinstance(func, cst.Attribute):
                method = func.attr.value
                if method in ("split", "splitlines", "keys", "values", "items"):
                    return "list" if method in ("split", "splitlines") else None
                if method in ("lower", "upper", "strip", "lstrip", "rstrip", "replace", "join", "capitalize", "title"):
                    return "str"
                if method in ("isdigit", "isalpha", "isalnum", "isspace", "startswith", "endswith", "isupper",
                              "islower"):
                    return "bool"
                if method in ("count", "find", "rfind", "index") and self.kind(func.value) == "str":
                    return "int"
                if method == "deque":
                    return "deque"
        return None

    def bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None, kind: str | None) -> None:
        if isinstance(target, cst.Name):
            fact = self.fact(target.value)
            fact.kinds.append(kind)
            if fact.first is None and value is not None:
                fact.first = value
        elif isinstance(target, (cst.Tuple, cst.List)):
            values = value.elements if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(
                target.elements) and all(isinstance(e, cst.Element) for e in value.elements) else [None] * len(target.elements)
            item = self.element(kind) if value is None and kind not in (None, "str") else None  # `p, q` from a list[int]
            for element, part in zip(target.elements, values):
                part = part.value if isinstance(part, cst.Element) else None
                self.bind(element.value, part, self.kind(part) if part is not None else item)
        elif isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
            self.fact(target.value.value).stored = True

    def visit_Name(self, node: cst.Name) -> None:
        self.all_names.add(node.value)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.inside.pop()

    def visit_Return(self, node: cst.Return) -> None:
        if self.inside:
            self.returns.setdefault(self.inside[-1], set()).add(self.kind(node.value) if node.value else None)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.inside.append(node.name.value)
        last = node.body.body[-1] if isinstance(node.body, cst.IndentedBlock) and node.body.body else None
        if isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], cst.Return):
            self.closed.add(node.name.value)
        params = node.params
        for star, kind in ((params.star_arg, "tuple"), (params.star_kwarg, "dict")):  # `*rest`, `**named`
            if isinstance(star, cst.Param):
                self.fact(star.name.value).kinds.append(kind)
        if node.name.value != "f":
            self.params[node.name.value] = [p.name.value for p in [*params.posonly_params, *params.params]]
            for param in [*params.posonly_params, *params.params]:
                if param.default is not None:
                    self.fact(param.name.value).kinds.append(self.kind(param.default))
            for param in params.kwonly_params:
                self.fact(param.name.value).kinds.append(None)

    def visit_Lambda(self, node: cst.Lambda) -> None:
        for param in node.params.params:
            self.fact(param.name.value).kinds.append(None)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self.bind(target.target, node.value, self.kind(node.value))
            if isinstance(target.target, cst.Name):
                self.note_extreme(target.target.value, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self.bind(node.target, node.value, self.kind(node.value))

    def note_extreme(self, name: str, value: cst.BaseExpression) -> None:
        """`x = max(x, ...)` / `x = min(x, ...)` keeps the best so far."""
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("max", "min") \
                and any(isinstance(a.value, cst.Name) and a.value.value == name for a in value.args):
            self.fact(name).bumps.add(value.func.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name):
            fact = self.fact(node.target.value)
            value_kind = self.kind(node.value)
            if isinstance(node.operator, (cst.AddAssign, cst.SubtractAssign)):
                one = isinstance(node.value, cst.Integer) and node.value.value == "1"
                fact.bumps.add("one" if one and isinstance(node.operator, cst.AddAssign) else
                               "text" if value_kind == "str" else "add")
            keeps = value_kind in ("set", "frozenset", "bool") and isinstance(node.operator, (
                cst.BitOrAssign, cst.BitAndAssign, cst.BitXorAssign, cst.SubtractAssign))  # a set stays a set
            if keeps:
                pass
            elif isinstance(node.operator, cst.DivideAssign):
                fact.kinds.append("float")
            elif value_kind == "float":
                fact.kinds.append("float")
            elif value_kind not in ("int", "str") and not isinstance(node.operator, (cst.AddAssign,)):
                fact.kinds.append(None)
            elif isinstance(node.operator, cst.AddAssign) and value_kind is None:
                fact.kinds.append(None)
        elif isinstance(node.target, cst.Subscript) and isinstance(node.target.value, cst.Name):
            self.fact(node.target.value.value).stored = True

    def visit_For(self, node: cst.For) -> None:
        self.loop_target(node.target, node.iter)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self.loop_target(node.target, node.iter)

    def loop_target(self, target: cst.BaseExpression, source: cst.BaseExpression) -> None:
        kind = self.kind(source)
        if isinstance(source, cst.Name):
            self.fact(source.value).iterated = True
        call = source.func.value if isinstance(source, cst.Call) and isinstance(source.func, cst.Name) else None
        if call == "range":
            self.bind(target, None, "int")
            self.mark(target, "index")
            return
        if call == "enumerate" and isinstance(target, cst.Tuple) and len(target.elements) == 2:
            number, item = (e.value for e in target.elements)
            self.bind(number, None, "int")
            self.mark(number, "index")
            self.bind(item, None, self.element(self.kind(source.args[0].value)) if source.args else None)
            self.mark(item, "element")
            return
        if isinstance(source, cst.Call) and isinstance(source.func, cst.Attribute) and source.func.attr.value == "items" \
                and isinstance(target, cst.Tuple) and len(target.elements) == 2:
            key, value = (e.value for e in target.elements)
            self.bind(key, None, None)
            self.mark(key, "key")
            self.bind(value, None, None)
            self.mark(value, "entry")
            return
        self.bind(target, None, self.element(kind))
        self.mark(target, "char" if kind == "str" else "key" if kind == "dict" else "element")

    def helper_returns(self) -> dict[str, _Facts]:
        """Each helper's result as a pseudo-name `<g1>` with the kinds it gives back."""
        return {f"<{helper}>": _Facts(kinds=list(kinds)) for helper, kinds in self.returns.items()
                if helper in self.params and not _ends_open(helper, self)}

    def helper_params(self) -> None:
        """A helper's parameter has the kind of what every call passes it (unknown if a helper is
        also passed around as a value: then its callers cannot all be seen)."""
        for helper, names in self.params.items():
            calls = self.passed.get(helper, [])
            for index, name in enumerate(names):
                given = [kind for where, kind in calls if where in (index, name, "*")]
                escapes = helper in self.all_names and not calls
                self.fact(name).kinds.extend(given if given and not escapes else [None])

    @staticmethod
    def element(kind: str | None) -> str | None:
        """The kind of the items of something of this kind."""
        if kind == "str":
            return "str"
        return _kind_of_type(kind[5:-1]) if kind and kind.startswith("list[") else None

    def mark(self, target: cst.BaseExpression, role: str) -> None:
        names = [target] if isinstance(target, cst.Name) else [e.value for e in getattr(target, "elements", [])]
        for name in names:
            if isinstance(name, cst.Name) and self.fact(name.value).loop is None:
                self.fact(name.value).loop = role

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Name):
            calls = self.passed.setdefault(func.value, [])
            params = self.params.get(func.value, []) if func.value in self.inside else []  # inside itself
            for position, arg in enumerate(node.args):
                where = arg.keyword.value if arg.keyword else position
                if isinstance(arg.value, cst.Name) and not arg.star and arg.value.value == (
                        where if isinstance(where, str) else params[where] if where < len(params) else None):
                    continue  # a recursive call passing the parameter on as it is: no new kind for it
                calls.append(("*" if arg.star else where, self.kind(arg.value)))
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            self.fact(func.value.value).methods.add(func.attr.value)
        dotted = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
        if dotted in ("heappush", "heapify", "heappop") and node.args and isinstance(node.args[0].value, cst.Name):
            self.fact(node.args[0].value.value).methods.add("heap")


def expression_kind(node: cst.BaseExpression, kinds) -> str | None:
    """The kind an expression surely has, given the names whose kinds are certain (`Roles.kinds`)."""
    return _Survey(kinds).kind(node)


def _role(facts: _Facts) -> str:
    """The role of one variable, from its facts."""
    kinds = {k.split("[")[0] if k else k for k in facts.kinds}  # `list[int]` plays the role of a list
    kind = kinds.pop() if len(kinds) == 1 else None
    if facts.loop and kind not in ("list", "dict", "set", "str") or facts.loop == "char":
        return facts.loop
    methods = facts.methods
    if "heap" in methods:
        return "heap"
    if methods & {"popleft", "appendleft"}:
        return "queue"
    if "pop" in methods and "append" in methods and kind == "list":
        return "stack"
    if kind == "set" or methods & {"add", "discard"}:
        return "seen" if "add" in methods else "members"
    if kind == "dict":
        return "counts" if facts.stored and "get" in methods else "table"
    if kind == "list" and methods & {"append", "extend"}:
        return "out"
    if facts.bumps & {"max"}:
        return "best"
    if facts.bumps & {"min"}:
        return "lowest"
    if kind in ("int", None) and facts.bumps == {"one"} and _is_zero(facts.first):
        return "count"
    if kind in ("int", "float") and facts.bumps and facts.bumps <= {"one", "add"} and _is_zero(facts.first):
        return "total"
    if kind == "str":
        return "text"
    if kind == "bool":
        return "flag"
    if kind == "int":
        return "number"
    if kind == "float":
        return "decimal"
    if kind in ("list", "deque"):
        return "row"
    if kind == "tuple" and isinstance(facts.first, cst.Tuple) and facts.first.elements and all(
            isinstance(e, cst.Element) and (isinstance(e.value, cst.Name) and e.value.value in _KIND_NAMES or isinstance(
                e.value, cst.Call) and isinstance(e.value.func, cst.Name) and e.value.func.value == "type")
            for e in facts.first.elements):
        return "kinds"  # `(bytes, str, type(None))`, kept for isinstance: no pair
    if kind == "tuple":
        return "pair"
    if isinstance(facts.first, cst.Call) and isinstance(facts.first.func, cst.Name):
        return "result"
    if facts.loop:
        return facts.loop
    if facts.iterated:
        return "source"
    return "other"


def _ends_open(helper: str, survey: _Survey) -> bool:
    """Can the helper run off its end (giving back None)? Then its result has no one kind."""
    return helper not in survey.closed


def _is_zero(node: cst.BaseExpression | None) -> bool:
    return isinstance(node, (cst.Integer, cst.Float)) and float(node.value.replace("_", "")) == 0


def assign(module: cst.Module, input_types: dict[str, str], tracker_keys: list[str],
           avoid: frozenset[str] | set[str] = frozenset()) -> Roles:
    """Role names for the module's numbered variables, and every kind that is certain; never a name in
    `avoid` (words the description uses for something else)."""
    params = {name: kind for name, kind in ((n, _kind_of_type(t)) for n, t in input_types.items()) if kind}
    survey = _Survey(dict(params))
    walk(module, survey)
    survey.helper_params()
    # more walks now that locals have kinds: loops over them and values taken from them type better
    unsure = set(input_types) - set(params)  # an input of no one kind (a number or None) is never certain
    settled = _settled(survey.facts, params, unsure)
    for _ in range(3):
        survey2 = _Survey(settled)
        walk(module, survey2)
        survey2.helper_params()
        found = _settled(survey2.facts, params, unsure)
        found.update({name[1:-1]: kind for name, kind in _settled(survey2.helper_returns(), {}).items()})
        if found == settled:  # a fixed point: another walk from the same kinds would find the same
            break
        settled = found
    taken = survey.all_names | set(tracker_keys) | set(dir(builtins)) | set(keyword.kwlist) | _AVOID
    used: dict[str, int] = {}
    names: dict[str, str] = {}
    numbered = sorted((n for n in survey2.facts if _NUMBERED.fullmatch(n)), key=lambda n: int(n[1:]))
    for name in numbered:
        names[name] = _fresh(_role(survey2.facts[name]), taken, used)
    taken |= set(avoid)
    for name in numbered:  # renamed after all the others are named, so no other variable's name changes
        if names[name] in avoid:
            names[name] = _fresh(_role(survey2.facts[name]), taken, used)
    kinds = {names.get(name, name): kind for name, kind in settled.items()}
    return Roles(names=names, kinds=kinds)


def _settled(facts: dict[str, _Facts], params: dict[str, str], unsure: set[str] = frozenset()) -> dict[str, str]:
    """Names whose every binding has the same known kind (a parameter keeps its declared kind only if
    nothing rebinds it to another; one declared of no one kind, `unsure`, has none whatever rebinds
    it: `if not c: c = b + "s"` must not call a c given as 0 "empty"); whole and decimal numbers
    together are a "number"."""
    settled = {}
    for name, kind in params.items():
        others = set(facts[name].kinds) if name in facts else set()
        if not others or others == {kind}:
            settled[name] = kind
        elif others | {kind} <= {"int", "float", "number"}:  # a number rebound only to numbers
            settled[name] = "number"
    for name, fact in facts.items():
        if name in params or name in unsure:
            continue
        kinds = set(fact.kinds)
        if len(kinds) == 1 and None not in kinds:
            settled[name] = kinds.pop()
        elif kinds and kinds <= {"int", "float", "number"}:
            settled[name] = "number"
    return settled


def _fresh(role: str, taken: set[str], used: dict[str, int]) -> str:
    for candidate in _POOLS[role]:
        if candidate not in taken:
            taken.add(candidate)
            return candidate
    base = _POOLS[role][0]
    number = used.get(base, 1)
    while f"{base}{number + 1}" in taken:
        number += 1
    used[base] = number + 1
    taken.add(f"{base}{number + 1}")
    return f"{base}{number + 1}"


class _Rename(cst.CSTTransformer):
    """Renames names by value (the anonymiser made each binding's name unique in the module),
    leaving attribute names and keyword-argument names alone."""

    def __init__(self, names: dict[str, str]):
        self.names = names

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        new = self.names.get(original.value)
        return updated.with_changes(value=new) if new else updated

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)


def rename(module: cst.Module, names: dict[str, str]) -> cst.Module:
    return module.visit(_Rename(names))


def rename_in_text(text: str, names: dict[str, str]) -> str:
    """The same renaming inside code fragments of free text (a tracker's explanation)."""
    return re.sub(r"\bv\d+\b", lambda m: names.get(m[0], m[0]), text)


