"""What the original's `eval` makes of a find_dup reply's `[[...]]`, found without running it.

LIFBench's find_dup judge hands each `[[...]]` of a reply to Python's `eval`, twice: inside its
`is_valid_eval` (whose one local name is `expression`, the text itself; any exception there
means "skip the group"), then in the judge itself (where an exception stops the evaluation).
Both see the module's globals (`re`, `json`, its functions) and the builtins, under Python 3.10
(its repository's bytecode is 3.10's; from 3.10.7 Python, like 3.11, prints no integer past
4,300 digits, so a reply's huge number fails alike here and there).

`evaluate` walks the expression's syntax tree instead and gives the value `eval` gives, or
raises as it raises (NameError for a name the scope lacks, TypeError, ZeroDivisionError...),
for everything whose outcome is fixed by the text: constants, containers, arithmetic,
comparisons, `and`/`or`, `x if c else y`, subscripts, comprehensions, f-strings, lambdas and
calls to builtins without side effects, each bounded in size. Where the outcome would depend
on running code with effects (`open`, `__import__`, attributes, the original's own functions),
or on the machine (time, memory, object addresses), it raises `Undetermined` rather than
guess: the verdict then names the reason.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import re
import threading
import warnings
from typing import Any

from ifforge.core import pyast


class Undetermined(Exception):
    """The original's result here cannot be told without running the reply (or its machine)."""


class Endless(RecursionError):
    """A lambda calling itself with the very arguments it got: the original recurses until
    Python's limit stops it, whatever that limit is."""


LIMIT_INT_BITS = 1_000_000   # an int beyond this is refused (Python prints none past 4,300 digits)
LIMIT_WEIGHT = 1_000_000     # elements and characters one value holds, nested ones counted
LIMIT_WORK = 5_000_000       # elements made and loop turns in one evaluation
LIMIT_LOOP = 10_000_000      # items a builtin loops over in C (about a second)
LIMIT_DEPTH = 200            # nesting of the expression (Python's parser stops at 200 brackets)
LIMIT_CHAIN = 2_000          # `1 + 1 + ...` or `- - 1` (Python 3.10 cannot compile one near 3,000)
LIMIT_CALLS = 100            # nested lambda calls

# The module globals of the original's EvaluateFunc.py besides dunders: its imports and functions.
ORIGINAL_GLOBALS = ("re", "json", "judge_multidoc_batch_label", "op_answer2map", "judge_multidoc_find_dup_text",
                    "get_input_text", "parse_oredered_input_list_text", "find_json_list", "find_json_dict",
                    "directly_load_json", "extract_in_brackets", "compare_list", "contain_list",
                    "judge_onedoc_extract", "count_outer_brackets", "compare_sentences", "judge_onedoc_repeat",
                    "judge_onedoc_qa", "is_valid_json", "is_valid_eval", "min_edi_dis",
                    "judge_label_equal_output", "judge_labels_equal_outputs", "judge_list_input_blur_offset_query")
# Dunders whose value does not depend on the machine (the module is imported as `EvaluateFunc`).
KNOWN_DUNDERS = {"__name__": "EvaluateFunc", "__doc__": None, "__package__": "", "__debug__": True}
# The others: paths, loaders, the import machinery.
MACHINE_DUNDERS = ("__builtins__", "__file__", "__cached__", "__loader__", "__spec__", "__import__", "__build_class__")
# Builtins Python 3.10 does not have.
NEWER_BUILTINS = {"BaseExceptionGroup", "ExceptionGroup", "PythonFinalizationError", "_IncompleteInputError"}
BUILTIN_NAMES = {name for name in dir(builtins) if name not in NEWER_BUILTINS and not name.startswith("__")}
SINGLETONS = (type(None), bool, type(Ellipsis), type(NotImplemented))
SIZED = (str, bytes, bytearray, list, tuple, set, frozenset, dict, range)


class _Opaque:
    """A module or function of the original's scope: only its identity and truth are known."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name} of the original at 0x{id(self):x}>"


class _Function:
    """A lambda the reply made: calling it evaluates its body, never Python's."""

    def __init__(self, runner: _Eval, node: ast.Lambda, scope: _Scope | None, signature: inspect.Signature):
        self.runner, self.node, self.scope, self.signature = runner, node, scope, signature
        self.generator = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _walk_own(node.body))

    def __repr__(self) -> str:
        return f"<function <lambda> at 0x{id(self):x}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        if self.generator:
            raise Undetermined("a call to a generator lambda")
        scope = _Scope(self.scope, _declared(self.node))
        scope.values.update(bound.arguments)
        runner = self.runner
        call = (id(self), tuple(map(id, args)), tuple((k, id(v)) for k, v in kwargs.items()))
        if call in runner.calls:  # a lambda calling itself with the very same arguments never ends
            raise Endless("maximum recursion depth exceeded")
        if len(runner.calls) >= LIMIT_CALLS:
            raise Undetermined("lambdas calling each other too deep")
        runner.calls.append(call)
        try:
            return runner.value(self.node.body, scope)
        finally:
            runner.calls.pop()


class _Scope:
    """A lambda's or a comprehension's names: those it binds (`declared`) and their values so far."""

    def __init__(self, parent: _Scope | None, declared: set[str]):
        self.parent, self.declared, self.values = parent, declared, {}


def _declared(node: ast.AST) -> set[str]:
    """The names a lambda binds: its parameters and its body's `:=` targets."""
    a = node.args
    names = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    names |= {p.arg for p in (a.vararg, a.kwarg) if p}
    return names | {n.target.id for n in _walk_own(node.body) if isinstance(n, ast.NamedExpr)}


def _walk_own(node: ast.AST):
    """The nodes of one scope, not those of lambdas or comprehensions inside it."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, _SCOPES))


_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _depth(node: ast.AST) -> tuple[int, int]:
    """(depth, depth with chains such as `1 + 1 + ...` or `- - 1` counted as one level): the
    evaluator follows those chains in a loop, everything else by recursion."""
    deepest = folded = 0
    stack = [(node, 1, 1)]
    while stack:
        node, level, fold = stack.pop()
        deepest, folded = max(deepest, level), max(folded, fold)
        for child in ast.iter_child_nodes(node):
            chained = (isinstance(node, ast.BinOp) and child is node.left) or isinstance(node, ast.UnaryOp)
            stack.append((child, level + 1, fold if chained else fold + 1))
    return deepest, folded


def _range_len(r: range) -> int:
    """len(range) without its OverflowError for a huge one."""
    if r.step > 0:
        return max(0, (r.stop - r.start + r.step - 1) // r.step)
    return max(0, (r.start - r.stop - r.step - 1) // -r.step)


def _format_safe(spec: str) -> None:
    """A width or precision of five digits or more asks Python for a huge string: not followed."""
    if re.search(r"\d{5,}|\*", spec):
        raise Undetermined("a format asking for a huge width")


_BINARY = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
           ast.Pow: lambda a, b: a ** b, ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b,
           ast.BitOr: lambda a, b: a | b, ast.BitXor: lambda a, b: a ^ b, ast.BitAnd: lambda a, b: a & b,
           ast.MatMult: lambda a, b: a @ b}
_UNARY = {ast.USub: lambda a: -a, ast.UAdd: lambda a: +a, ast.Not: lambda a: not a, ast.Invert: lambda a: ~a}
_COMPARE = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
            ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
            ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}
# Builtins whose call has no effect and is followed here (print only returns None: what it writes
# to the original's console changes no score). Calls to any other builtin are not followed.
PURE = ("abs", "all", "any", "ascii", "bin", "bool", "bytearray", "bytes", "callable", "chr", "complex", "dict",
        "divmod", "enumerate", "filter", "float", "format", "frozenset", "hex", "int", "isinstance", "issubclass",
        "iter", "len", "list", "map", "max", "min", "next", "object", "oct", "ord", "pow", "print", "range", "repr",
        "reversed", "round", "set", "slice", "sorted", "str", "sum", "tuple", "type", "zip")
_PURE = {id(getattr(builtins, name)): name for name in PURE}
# Attributes followed: those of texts, numbers and containers that change nothing and read nothing
# but the value (methods that mutate, or call back into Python, are left out).
_TEXT = ("capitalize", "casefold", "center", "count", "endswith", "expandtabs", "find", "index", "isalnum",
         "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric", "isprintable",
         "isspace", "istitle", "isupper", "join", "ljust", "lower", "lstrip", "partition", "removeprefix",
         "removesuffix", "replace", "rfind", "rindex", "rjust", "rpartition", "rsplit", "rstrip", "split",
         "splitlines", "startswith", "strip", "swapcase", "title", "upper", "zfill")
_NUMBER = ("real", "imag", "conjugate", "bit_length", "is_integer", "numerator", "denominator", "hex")
ATTRIBUTES = {str: _TEXT + ("encode",), bytes: _TEXT + ("decode", "hex"), int: _NUMBER, bool: _NUMBER,
              float: _NUMBER, complex: ("real", "imag", "conjugate"), list: ("count", "index", "copy"),
              tuple: ("count", "index"), dict: ("get", "keys", "values", "items", "copy"),
              set: ("union", "intersection", "difference", "issubset", "issuperset", "copy"),
              frozenset: ("union", "intersection", "difference", "issubset", "issuperset", "copy"),
              range: ("start", "stop", "step", "count", "index")}


class _Eval:
    def __init__(self, top: dict[str, Any]):
        self.top = top            # the eval's own locals: `expression` in is_valid_eval, `:=` targets
        self.opaque: dict[str, _Opaque] = {}
        self.work = 0
        self.calls: list[tuple] = []  # the lambda calls under way
        self.weights: dict[int, int] = {}
        self.kept: list[Any] = []  # keeps the weighed values alive, so their ids stay theirs

    # ---- bounds ------------------------------------------------------------------------------------------
    def tick(self, amount: int = 1) -> None:
        self.work += amount
        if self.work > LIMIT_WORK:
            raise Undetermined("more work than paper mode follows")

    def weight(self, value: Any) -> int:
        """How many elements and characters a value spells out (a list repeated counts each time)."""
        if isinstance(value, bool) or value is None or isinstance(value, (float, complex)):
            return 1
        if isinstance(value, int):
            return value.bit_length() // 3 + 1
        if isinstance(value, (str, bytes, bytearray)):
            return len(value) + 1
        if not isinstance(value, (list, tuple, set, frozenset, dict)):
            return 1
        known = self.weights.get(id(value))
        if known is not None:
            return known
        items = [x for pair in value.items() for x in pair] if isinstance(value, dict) else value
        total = 1
        for item in items:
            total += self.weight(item)
            if total > LIMIT_WEIGHT:
                break
        self.weights[id(value)] = total
        self.kept.append(value)
        return total

    def checked(self, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > LIMIT_INT_BITS:
            raise Undetermined("a number too large to follow")
        if isinstance(value, (list, tuple, set, frozenset, dict, str, bytes, bytearray)):
            weight = self.weight(value)
            if weight > LIMIT_WEIGHT:
                raise Undetermined("a value too large to follow")
            self.tick(len(value))
        return value

    def sized_arguments(self, values: list[Any]) -> None:
        """A builtin looping in C over a huge argument could run for hours: refused."""
        for value in values:
            size = _range_len(value) if isinstance(value, range) else len(value) if isinstance(value, SIZED) else 0
            if size > LIMIT_LOOP:
                raise Undetermined("a builtin over a huge argument")

    # ---- names ---------------------------------------------------------------------------------------
    def lookup(self, name: str, scope: _Scope | None) -> Any:
        if scope is not None:  # inside a lambda or comprehension: its names, enclosing ones, then global
            at = scope
            while at is not None:
                if name in at.declared:
                    if name not in at.values:
                        raise NameError(f"local variable '{name}' referenced before assignment")
                    return at.values[name]
                at = at.parent
        elif name in self.top:
            return self.top[name]
        if name in KNOWN_DUNDERS:
            return KNOWN_DUNDERS[name]
        if name in MACHINE_DUNDERS:
            raise Undetermined(f"the original's {name}")
        if name in ORIGINAL_GLOBALS:
            return self.opaque.setdefault(name, _Opaque(name))
        if name in BUILTIN_NAMES:
            return getattr(builtins, name)
        raise NameError(f"name '{name}' is not defined")

    # ---- expressions -----------------------------------------------------------------------------------
    def value(self, node: ast.AST, scope: _Scope | None) -> Any:
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise Undetermined(f"{type(node).__name__} is not followed")
        return self.checked(method(node, scope))

    def _Constant(self, node, scope):
        return node.value

    def _Name(self, node, scope):
        return self.lookup(node.id, scope)

    def _NamedExpr(self, node, scope):
        value = self.value(node.value, scope)
        if scope is None:
            self.top[node.target.id] = value
        else:
            scope.values[node.target.id] = value
        return value

    def items(self, nodes: list[ast.AST], scope) -> list[Any]:
        out = []
        for node in nodes:
            if isinstance(node, ast.Starred):
                out.extend(self.iterate(self.value(node.value, scope)))
            else:
                out.append(self.value(node, scope))
        return out

    def iterate(self, value: Any):
        self.sized_arguments([value])
        for item in iter(value):
            self.tick()
            yield item

    def _List(self, node, scope):
        return self.items(node.elts, scope)

    def _Tuple(self, node, scope):
        return tuple(self.items(node.elts, scope))

    def _Set(self, node, scope):
        return set(self.items(node.elts, scope))

    def _Dict(self, node, scope):
        out = {}
        for key, value in zip(node.keys, node.values):
            if key is None:
                mapping = self.value(value, scope)
                self.sized_arguments([mapping])
                out.update({**mapping})
            else:
                k = self.value(key, scope)
                out[k] = self.value(value, scope)
        return out

    def _JoinedStr(self, node, scope):
        return "".join(self.value(part, scope) for part in node.values)

    def _FormattedValue(self, node, scope):
        value = self.value(node.value, scope)
        if node.conversion != -1:
            value = {ord("s"): str, ord("r"): repr, ord("a"): ascii}[node.conversion](value)
        spec = self.value(node.format_spec, scope) if node.format_spec else ""
        _format_safe(spec)
        return format(value, spec)

    def _UnaryOp(self, node, scope):
        ops = []
        while isinstance(node, ast.UnaryOp):  # `- - - 1`: a loop, not a recursion per sign
            ops.append(node.op)
            node = node.operand
        value = self.value(node, scope)
        for op in reversed(ops):
            value = self.checked(_UNARY[type(op)](value))
        return value

    def _BinOp(self, node, scope):
        chain = []
        while isinstance(node, ast.BinOp):  # `1 + 1 + ...`: a loop, not a recursion per term
            chain.append(node)
            node = node.left
        value = self.value(node, scope)
        for link in reversed(chain):
            value = self.checked(self.binary(link.op, value, self.value(link.right, scope)))
        return value

    def binary(self, op: ast.operator, left: Any, right: Any) -> Any:
        """left op right, refused where the result would be too large to follow."""
        op = type(op)
        if op is ast.Pow and isinstance(left, int) and isinstance(right, int) and right > 0 and abs(left) > 1:
            if right * left.bit_length() > LIMIT_INT_BITS + 64:
                raise Undetermined("a power too large to follow")
        if op is ast.LShift and isinstance(left, int) and isinstance(right, int) and left and right > 0:
            if right + left.bit_length() > LIMIT_INT_BITS + 64:
                raise Undetermined("a shift too large to follow")
        if op is ast.Mult:
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, bytes, bytearray, list, tuple)) and isinstance(times, int):
                    if times > 0 and self.weight(seq) * times > LIMIT_WEIGHT:
                        raise Undetermined("a repetition too large to follow")
        if op is ast.Mod and isinstance(left, (str, bytes)):
            text = left if isinstance(left, str) else left.decode("latin-1")
            for spec in re.findall(r"%[^a-zA-Z%]*", text):
                _format_safe(spec)
        return _BINARY[op](left, right)

    def _BoolOp(self, node, scope):
        value = None
        for operand in node.values:
            value = self.value(operand, scope)
            if bool(value) is isinstance(node.op, ast.Or):
                return value
        return value

    def _IfExp(self, node, scope):
        return self.value(node.body if self.value(node.test, scope) else node.orelse, scope)

    def _Compare(self, node, scope):
        left = self.value(node.left, scope)
        outcome = True
        for op, right_node in zip(node.ops, node.comparators):
            right = self.value(right_node, scope)
            if isinstance(op, (ast.Is, ast.IsNot)):
                outcome = self.identity(left, right) is isinstance(op, ast.Is)
            elif isinstance(op, (ast.In, ast.NotIn)):
                if _iterator(right):  # Python stops at the first equal item
                    found = any(item is left or item == left for item in self.iterate(right))
                else:
                    if isinstance(right, range) and type(left) not in (int, bool):
                        self.sized_arguments([right])  # a scan of the whole range
                    found = left in right
                outcome = found is isinstance(op, ast.In)
            else:
                outcome = _COMPARE[type(op)](left, right)
            if not outcome:
                return outcome
            left = right
        return outcome

    @staticmethod
    def identity(left: Any, right: Any) -> bool:
        """`is` between numbers, texts or tuples depends on how CPython shared them (constants of
        one expression are one object): followed where it does not, for values of different
        types, small ints (CPython keeps one of each from -5 to 256) and empty texts and tuples."""
        if type(left) is not type(right):
            return False
        if type(left) is int and -5 <= left <= 256 or left in ("", b"", ()):
            return left == right
        for value in (left, right):
            if isinstance(value, SINGLETONS) or isinstance(value, (list, dict, set, bytearray, _Function, _Opaque)):
                return left is right
            if getattr(builtins, getattr(value, "__name__", ""), None) is value:
                return left is right
        raise Undetermined("`is` between values CPython may or may not share")

    def _Attribute(self, node, scope):
        value = self.value(node.value, scope)
        if node.attr not in ATTRIBUTES.get(type(value), ()):
            raise Undetermined(f"the attribute {node.attr} of {type(value).__name__}")
        return getattr(value, node.attr)

    def _Subscript(self, node, scope):
        value = self.value(node.value, scope)
        return value[self.value(node.slice, scope)]

    def _Slice(self, node, scope):
        return slice(*[self.value(p, scope) if p is not None else None for p in (node.lower, node.upper, node.step)])

    def _Lambda(self, node, scope):
        a = node.args
        defaults = [self.value(d, scope) for d in a.defaults]
        kw_defaults = [self.value(d, scope) if d is not None else None for d in a.kw_defaults]
        kind = inspect.Parameter
        positional = [(p, kind.POSITIONAL_ONLY) for p in a.posonlyargs] + [(p, kind.POSITIONAL_OR_KEYWORD) for p in a.args]
        first_default = len(positional) - len(defaults)
        params = [kind(p.arg, k, default=defaults[i - first_default] if i >= first_default else kind.empty)
                  for i, (p, k) in enumerate(positional)]
        if a.vararg:
            params.append(kind(a.vararg.arg, kind.VAR_POSITIONAL))
        params += [kind(p.arg, kind.KEYWORD_ONLY, default=kind.empty if d is None else v)
                   for p, d, v in zip(a.kwonlyargs, a.kw_defaults, kw_defaults)]
        if a.kwarg:
            params.append(kind(a.kwarg.arg, kind.VAR_KEYWORD))
        return _Function(self, node, scope, inspect.Signature(params))

    # ---- comprehensions ---------------------------------------------------------------------------------
    def comprehension(self, node, scope):
        """The comprehension's scopes, one per item, made lazily; its first iterable is evaluated
        (and `iter` called on it) where it stands, as Python does."""
        if any(isinstance(n, ast.NamedExpr) for n in _walk_own(node)):
            raise Undetermined("`:=` in a comprehension writes the original's module globals")
        declared = {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
        first = self.value(node.generators[0].iter, scope)
        self.sized_arguments([first])
        first = iter(first)
        inner = _Scope(scope, declared)

        def produce(level: int, iterable: Any):
            generator = node.generators[level]
            for item in self.iterate(iterable):
                self.assign(generator.target, item, inner)
                if all(self.value(test, inner) for test in generator.ifs):
                    if level + 1 < len(node.generators):
                        yield from produce(level + 1, self.value(node.generators[level + 1].iter, inner))
                    else:
                        yield inner

        return produce(0, first)

    def assign(self, target: ast.AST, value: Any, scope: _Scope) -> None:
        if isinstance(target, ast.Name):
            scope.values[target.id] = value
            return
        if not isinstance(target, (ast.Tuple, ast.List)):
            raise Undetermined(f"assigning to {type(target).__name__}")
        items = list(self.iterate(value))
        starred = [i for i, t in enumerate(target.elts) if isinstance(t, ast.Starred)]
        if not starred:
            if len(items) != len(target.elts):
                raise ValueError("wrong number of values to unpack")
            for t, v in zip(target.elts, items):
                self.assign(t, v, scope)
            return
        at, after = starred[0], len(target.elts) - starred[0] - 1
        if len(items) < at + after:
            raise ValueError("not enough values to unpack")
        for t, v in zip(target.elts[:at], items[:at]):
            self.assign(t, v, scope)
        self.assign(target.elts[at].value, items[at:len(items) - after], scope)
        for t, v in zip(target.elts[at + 1:], items[len(items) - after:]):
            self.assign(t, v, scope)

    def _ListComp(self, node, scope):
        return [self.value(node.elt, inner) for inner in self.comprehension(node, scope)]

    def _SetComp(self, node, scope):
        return {self.value(node.elt, inner) for inner in self.comprehension(node, scope)}

    def _DictComp(self, node, scope):
        out = {}
        for inner in self.comprehension(node, scope):
            key = self.value(node.key, inner)
            out[key] = self.value(node.value, inner)
        return out

    def _GeneratorExp(self, node, scope):
        return (self.value(node.elt, inner) for inner in self.comprehension(node, scope))

    # ---- calls --------------------------------------------------------------------------------------------
    def _Call(self, node, scope):
        function = self.value(node.func, scope)
        args = self.items(node.args, scope)
        kwargs: dict[str, Any] = {}
        for keyword in node.keywords:
            if keyword.arg is None:
                mapping = self.value(keyword.value, scope)
                self.sized_arguments([mapping])
                pairs = {**mapping}
            else:
                pairs = {keyword.arg: self.value(keyword.value, scope)}
            for key, value in pairs.items():
                if key in kwargs:
                    raise TypeError(f"got multiple values for keyword argument '{key}'")
                kwargs[key] = value
        return self.call(function, args, kwargs)

    def call(self, function: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        self.tick()
        if isinstance(function, _Function):
            return function(*args, **kwargs)
        if isinstance(function, _Opaque):
            if function.name in ("re", "json"):
                raise TypeError("'module' object is not callable")
            raise Undetermined(f"a call to the original's {function.name}")
        if isinstance(function, type) and issubclass(function, BaseException) and \
                getattr(builtins, function.__name__, None) is function:
            return function(*args, **kwargs)  # an exception made, not raised
        if type(function).__name__ == "builtin_function_or_method" and type(function.__self__) in ATTRIBUTES:
            return self.method(function, args, kwargs)
        name = _PURE.get(id(function))
        if name is None:
            if not callable(function):
                raise TypeError(f"'{type(function).__name__}' object is not callable")
            raise Undetermined(f"a call to {getattr(function, '__name__', 'a function')}")
        if name not in ("ascii", "bool", "callable", "format", "isinstance", "issubclass", "len", "print", "repr",
                        "str", "type"):
            self.sized_arguments(args + list(kwargs.values()))
        if name == "print":
            if kwargs.get("file") is not None:
                raise Undetermined("print to a file")
            for key in ("sep", "end"):
                if kwargs.get(key) is not None and not isinstance(kwargs[key], str):
                    raise TypeError(f"{key} must be None or a string")
            for value in args:
                str(value)  # what print does to each, which can raise (a number past 4,300 digits)
            return None
        if name in ("type", "callable") and any(isinstance(a, (_Function, _Opaque)) for a in args):
            raise Undetermined(f"{name}() of a function")
        if name == "type" and len(args) != 1:
            raise Undetermined("type() making a class")
        if name == "iter" and len(args) == 2:
            args = [self.through(args[0]), args[1]]
        if name in ("bytes", "bytearray") and args and isinstance(args[0], int) and args[0] > LIMIT_WEIGHT:
            raise Undetermined("a huge bytes")
        if name == "pow" and len(args) == 2 and not kwargs:
            return self.binary(ast.Pow(), *args)
        if name == "sum" and (len(args) > 1 or "start" in kwargs):
            start = args[1] if len(args) > 1 else kwargs["start"]
            if not isinstance(start, (int, float, complex)):
                raise Undetermined("sum() adding sequences")
        if name == "format" and len(args) > 1 and isinstance(args[1], str):
            _format_safe(args[1])
        if name in ("map", "filter") and args and args[0] is not None:
            args = [self.through(args[0])] + args[1:]
        if name in ("sorted", "min", "max") and kwargs.get("key") is not None:
            kwargs = {**kwargs, "key": self.through(kwargs["key"])}
        return getattr(builtins, name)(*args, **kwargs)

    def method(self, function: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """A method of a text, number or container (the only ones `_Attribute` gives), bounded."""
        owner, name = function.__self__, function.__name__
        self.sized_arguments(args + list(kwargs.values()))
        if name in ("ljust", "rjust", "center", "zfill") and args and isinstance(args[0], int) \
                and args[0] > LIMIT_WEIGHT:
            raise Undetermined(f"{name}() to a huge width")
        if name == "expandtabs" and len(owner) * max([8] + [a for a in args if isinstance(a, int)]) > LIMIT_WEIGHT:
            raise Undetermined("expandtabs() to a huge width")
        if name == "replace" and len(args) > 1 and isinstance(args[1], type(owner)):
            if (len(owner) + 1) * (len(args[1]) + 1) > LIMIT_WEIGHT:
                raise Undetermined("replace() making a huge text")
        if name == "join":
            args = [list(self.iterate(args[0]))] + args[1:] if args else args
        return function(*args, **kwargs)

    def through(self, function: Any):
        """A function a builtin calls back, called the way a reply's call is (checked, never run)."""
        return lambda *args, **kwargs: self.call(function, list(args), kwargs)


def _iterator(value: Any) -> bool:
    return hasattr(value, "__next__")


def fresh_stack(function, *args: Any, **kwargs: Any) -> Any:
    """`function(...)` on a thread of its own, so that how deep the caller's stack already is
    changes nothing: Python's recursion limit counts from the thread's first frame."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = function(*args, **kwargs)
        except BaseException as error:  # handed to the caller as it is
            outcome["error"] = error

    thread = threading.Thread(target=run, name="lifbench-paper")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _evaluate(text: str, expression: str | None) -> Any:
    with pyast.AST_LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compile(text, "<string>", "eval", dont_inherit=True)  # no code runs: Python's own checks
    # a SyntaxError there is the original's too; so are RecursionError and MemoryError, which come
    # for an expression nested about 3,000 deep: the original, its stack a few frames deeper than
    # this fresh thread's, cannot compile it either
    try:
        tree = pyast.parse(text, mode="eval")
    except (RecursionError, MemoryError) as error:
        raise Undetermined("an expression nested too deep to read here") from error
    if any(isinstance(n, ast.Subscript) and any(isinstance(m, ast.Starred) for m in ast.walk(n.slice))
           for n in ast.walk(tree)):
        raise SyntaxError("invalid syntax")  # `x[*y]` is Python 3.11's; 3.10 refuses it before running
    deepest, folded = _depth(tree)
    if folded > LIMIT_DEPTH or deepest > LIMIT_CHAIN:
        raise Undetermined("an expression nested deeper than paper mode follows")
    try:
        return _Eval({} if expression is None else {"expression": expression}).value(tree.body, None)
    except Endless:
        raise
    except RecursionError as error:
        raise Undetermined("an evaluation deeper than this thread's stack") from error


def evaluate(text: str, expression: str | None = None) -> Any:
    """`eval(text)` as the original's find_dup judge gets it: in `is_valid_eval`'s scope when
    `expression` is given (that function's local), else in the judge's own. Gives what the
    original's `eval` gives, raises what it raises, or raises `Undetermined`."""
    return fresh_stack(_evaluate, text, expression)
