"""Deterministic state-tracker instrumenter for an anonymised entry function `f`.

Trackers are chosen from f's own structure, in this order of preference, at most three:
iterations of its first outermost loop, times a branch inside a loop is taken (else a top-level
branch), peak length of a container it grows, calls of helper functions (or of itself, when f is
recursive), iterations of a nested loop. f then returns `(output, stats)` where `stats` maps each
tracker to its value. A recursive f keeps its body in a nested function so the counts add up over
every recursive call.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from ifforge.families.logicif.codeops.source import cst_parameters
from ifforge.families.logicif.records import Tracker

GROWING_METHODS = {"append", "appendleft", "add", "extend", "insert", "update", "setdefault"}
MAX_TRACKERS = 3


class NothingToTrack(ValueError):
    """f has no loop, branch, growing container or helper call to count."""


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node).strip()


def _first_line(node: cst.CSTNode) -> str:
    return _code(node).splitlines()[0].rstrip(":").strip()


@dataclass
class _Structure:
    """What f's own body (not its nested functions) contains."""

    loops: list[tuple[cst.CSTNode, int]] = field(default_factory=list)  # (loop, loop depth)
    branches: list[tuple[cst.If, int]] = field(default_factory=list)  # (if, enclosing loop depth)
    grown: dict[str, int] = field(default_factory=dict)  # container name -> growth sites
    helper_calls: int = 0
    recursive: bool = False


class _Survey(cst.CSTVisitor):
    def __init__(self, helpers: set[str]):
        self.helpers = helpers
        self.found = _Structure()
        self.loop_depth = 0
        self.in_nested = 0

    def visit_FunctionDef(self, node):
        self.in_nested += 1

    def leave_FunctionDef(self, node):
        self.in_nested -= 1

    def visit_Lambda(self, node):
        self.in_nested += 1

    def leave_Lambda(self, node):
        self.in_nested -= 1

    def _enter_loop(self, node):
        if not self.in_nested:
            self.found.loops.append((node, self.loop_depth))
        self.loop_depth += 1

    def _leave_loop(self, node):
        self.loop_depth -= 1

    visit_For = _enter_loop
    visit_While = _enter_loop
    leave_For = _leave_loop
    leave_While = _leave_loop

    def visit_If(self, node):
        if not self.in_nested:
            self.found.branches.append((node, self.loop_depth))

    def visit_Call(self, node):
        if self.in_nested:
            return
        if isinstance(node.func, cst.Name):
            if node.func.value == "f":
                self.found.recursive = True
            elif node.func.value in self.helpers:
                self.found.helper_calls += 1
        if isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name):
            if node.func.attr.value in GROWING_METHODS:
                name = node.func.value.value
                self.found.grown[name] = self.found.grown.get(name, 0) + 1
        if _called_name(node) in {"heappush", "heapq.heappush"} and node.args and isinstance(node.args[0].value, cst.Name):
            name = node.args[0].value.value
            self.found.grown[name] = self.found.grown.get(name, 0) + 1


def _called_name(call: cst.Call) -> str:
    try:
        return _code(call.func)
    except Exception:  # pragma: no cover - code_for_node works on every expression
        return ""


@dataclass(frozen=True)
class Plan:
    """Where each tracker goes: node identities chosen by the survey."""

    trackers: list[Tracker]
    loop_counters: dict[int, str]  # id(loop) -> tracker
    branch_counters: dict[int, str]  # id(if) -> tracker
    peak: tuple[str, str] | None  # (container, tracker)
    helper_counter: str | None
    helpers: frozenset[str]
    recursive: bool


def _plan(function: cst.FunctionDef, helpers: set[str]) -> Plan:
    survey = _Survey(helpers)
    function.body.visit(survey)
    found = survey.found
    local_growers = [name for name, count in found.grown.items()]
    trackers: list[Tracker] = []
    loops: dict[int, str] = {}
    branches: dict[int, str] = {}
    peak = None
    helper_counter = None

    outer = [loop for loop, depth in found.loops if depth == 0]
    inner = [loop for loop, depth in found.loops if depth > 0]
    in_loop_branches = [branch for branch, depth in found.branches if depth > 0]
    top_branches = [branch for branch, depth in found.branches if depth == 0]
    two_loops = bool(outer) and bool(inner)

    if found.recursive:
        trackers.append(Tracker(name="recursive_calls", kind="helper_calls",
                                explanation="how many times the function's body runs, counting every recursive call"))
    if outer:
        name = "outer_loop_iterations" if two_loops else "loop_iterations"
        loops[id(outer[0])] = name
        trackers.append(Tracker(name=name, kind="loop_iterations",
                                explanation=f"iterations of the loop `{_first_line(outer[0])}`"))
    branch = (in_loop_branches or top_branches or [None])[0]
    if branch is not None:
        branches[id(branch)] = "branch_hits"
        trackers.append(Tracker(name="branch_hits", kind="branch_taken",
                                explanation=f"times the branch `if {_code(branch.test)}` is taken"))
    if local_growers and len(trackers) < MAX_TRACKERS:
        container = max(local_growers, key=lambda name: found.grown[name])
        peak = (container, "peak_size")
        trackers.append(Tracker(name="peak_size", kind="peak_size",
                                explanation=f"largest size `{container}` reaches"))
    if found.helper_calls and not found.recursive and len(trackers) < MAX_TRACKERS:
        helper_counter = "helper_calls"
        trackers.append(Tracker(name="helper_calls", kind="helper_calls",
                                explanation="calls of helper functions made by statements of f itself"))
    if inner and len(trackers) < MAX_TRACKERS:
        loops[id(inner[0])] = "inner_loop_iterations"
        trackers.append(Tracker(name="inner_loop_iterations", kind="loop_iterations",
                                explanation=f"iterations of the nested loop `{_first_line(inner[0])}`"))
    trackers = trackers[:MAX_TRACKERS]
    kept = {tracker.name for tracker in trackers}
    if not trackers:
        raise NothingToTrack("f has no loop, branch, growing container or helper call to count")
    return Plan(
        trackers=trackers,
        loop_counters={k: v for k, v in loops.items() if v in kept},
        branch_counters={k: v for k, v in branches.items() if v in kept},
        peak=peak if peak and peak[1] in kept else None,
        helper_counter=helper_counter if helper_counter in kept else None,
        helpers=frozenset(helpers),
        recursive=found.recursive,
    )


def _statement(code: str) -> cst.BaseStatement:
    return cst.parse_statement(code)


def _prepend(body: cst.BaseSuite, statement: cst.BaseStatement) -> cst.IndentedBlock:
    if isinstance(body, cst.SimpleStatementSuite):
        lines = [cst.SimpleStatementLine([small]) for small in body.body]
        return cst.IndentedBlock(body=[statement, *lines])
    return body.with_changes(body=[statement, *body.body])


class _Count(cst.CSTVisitor):
    """Counts helper calls that surely run when a simple statement runs (not in lambdas,
    comprehensions, conditional expressions or the right side of `and` / `or`)."""

    def __init__(self, helpers):
        self.helpers = helpers
        self.count = 0

    def visit_Call(self, node):
        if isinstance(node.func, cst.Name) and node.func.value in self.helpers:
            self.count += 1

    def _skip(self, node):
        return False

    visit_Lambda = _skip
    visit_ListComp = _skip
    visit_SetComp = _skip
    visit_DictComp = _skip
    visit_GeneratorExp = _skip
    visit_IfExp = _skip

    def visit_BooleanOperation(self, node):
        node.left.visit(self)
        return False


class _Instrument(cst.CSTTransformer):
    """Adds the counters to f's own body (nested functions are left as they are)."""

    def __init__(self, plan: Plan, stats: str):
        self.plan = plan
        self.stats = stats
        self.nested = 0

    def _bump(self, tracker: str) -> cst.BaseStatement:
        return _statement(f"{self.stats}[{tracker!r}] += 1")

    def visit_FunctionDef(self, node):
        self.nested += 1

    def leave_FunctionDef(self, original, updated):
        self.nested -= 1
        return updated

    def visit_Lambda(self, node):
        self.nested += 1

    def leave_Lambda(self, original, updated):
        self.nested -= 1
        return updated

    def _leave_loop(self, original, updated):
        tracker = self.plan.loop_counters.get(id(original))
        return updated.with_changes(body=_prepend(updated.body, self._bump(tracker))) if tracker else updated

    leave_For = _leave_loop
    leave_While = _leave_loop

    def leave_If(self, original, updated):
        tracker = self.plan.branch_counters.get(id(original))
        return updated.with_changes(body=_prepend(updated.body, self._bump(tracker))) if tracker else updated

    def leave_IndentedBlock(self, original, updated):
        if self.nested > 1:  # inside a function nested in f
            return updated
        statements: list[cst.BaseStatement] = []
        for statement in updated.body:
            if isinstance(statement, cst.SimpleStatementLine):
                statements.extend(self._before(statement))
                statements.append(statement)
                statements.extend(self._after(statement))
            else:
                statements.append(statement)
        return updated.with_changes(body=statements)

    def _before(self, line: cst.SimpleStatementLine) -> list[cst.BaseStatement]:
        if not self.plan.helper_counter:
            return []
        counter = _Count(self.plan.helpers)
        line.visit(counter)
        if not counter.count:
            return []
        return [_statement(f"{self.stats}[{self.plan.helper_counter!r}] += {counter.count}")]

    def _after(self, line: cst.SimpleStatementLine) -> list[cst.BaseStatement]:
        if not self.plan.peak or _returns(line):
            return []
        container, tracker = self.plan.peak
        if not _touches(line, container):
            return []
        return [_statement(f"{self.stats}[{tracker!r}] = max({self.stats}[{tracker!r}], len({container}))")]


def _returns(line: cst.SimpleStatementLine) -> bool:
    return any(isinstance(small, (cst.Return, cst.Raise, cst.Break, cst.Continue)) for small in line.body)


def _touches(line: cst.SimpleStatementLine, container: str) -> bool:
    """Does this line create or grow `container` (assign to it, call a growing method on it)?"""
    for small in line.body:
        if isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
            for target in targets:
                base = target.value if isinstance(target, cst.Subscript) else target
                if isinstance(base, cst.Name) and base.value == container:
                    return True
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            call = small.value
            if isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name):
                if call.func.value.value == container and call.func.attr.value in GROWING_METHODS:
                    return True
            if _called_name(call) in {"heappush", "heapq.heappush"} and call.args:
                first = call.args[0].value
                if isinstance(first, cst.Name) and first.value == container:
                    return True
    return False


class _WrapReturns(cst.CSTTransformer):
    """`return X` in f itself becomes `return (X, stats)`."""

    def __init__(self, stats: str):
        self.stats = stats
        self.depth = 0

    def visit_FunctionDef(self, node):
        self.depth += 1

    def leave_FunctionDef(self, original, updated):
        self.depth -= 1
        return updated

    def visit_Lambda(self, node):
        return False

    def leave_Return(self, original, updated):
        if self.depth > 1:
            return updated
        value = _code(updated.value) if updated.value is not None else "None"
        if isinstance(updated.value, cst.Tuple) and not updated.value.lpar:
            value = f"({value})"  # `return a, b` must stay one value
        return cst.parse_statement(f"return ({value}, {self.stats})").body[0]


def instrument(source: str) -> tuple[str, list[Tracker]]:
    """Add 1 to 3 trackers to `f` in `source`; return the new source and the trackers."""
    module = cst.parse_module(source)
    names = {node.value for node in _names(module)}
    helpers = {s.name.value for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value != "f"}
    entry = next((s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == "f"), None)
    if entry is None:
        raise ValueError("the anonymised source has no function f")
    helpers |= _nested_functions(entry)
    plan = _plan(entry, helpers)
    stats = next(name for name in ("stats", "stats_", "tracked", "counts") if name not in names)
    initial = {tracker.name: 0 for tracker in plan.trackers}

    instrumented = entry.visit(_Instrument(plan, stats))
    body = list(instrumented.body.body)
    if plan.peak and plan.peak[0] in _parameter_names(entry):
        container = plan.peak[0]
        tracker = plan.peak[1]
        body.insert(0, _statement(f"{stats}[{tracker!r}] = max({stats}[{tracker!r}], len({container}))"))
    if plan.recursive:
        new_entry = _wrap_recursive(instrumented, body, stats, initial, names)
    else:
        if not body or not isinstance(body[-1], cst.SimpleStatementLine) or not _returns(body[-1]):
            body.append(_statement("return None"))
        new_entry = instrumented.with_changes(body=instrumented.body.with_changes(body=body))
        new_entry = new_entry.visit(_WrapReturns(stats))
        new_entry = new_entry.with_changes(
            body=new_entry.body.with_changes(body=[_statement(f"{stats} = {initial!r}"), *new_entry.body.body])
        )
    new_module = module.with_changes(body=[new_entry if s is entry else s for s in module.body])
    return new_module.code, plan.trackers


def _wrap_recursive(entry: cst.FunctionDef, body, stats: str, initial: dict, names: set[str]) -> cst.FunctionDef:
    """f(params): stats = ...; def gN(params): <body, recursion to gN>; return (gN(params), stats)."""
    inner_name = next(f"g{n}" for n in range(1, 1000) if f"g{n}" not in names)
    inner_body = [_statement(f"{stats}['recursive_calls'] += 1"), *body]

    class Redirect(cst.CSTTransformer):
        def leave_Name(self, original, updated):
            return updated.with_changes(value=inner_name) if updated.value == "f" else updated

    inner = entry.with_changes(name=cst.Name(inner_name), body=entry.body.with_changes(body=inner_body))
    inner = inner.with_changes(body=inner.body.visit(Redirect()))
    keyword_only = {id(p) for p in entry.params.kwonly_params}
    arguments = [
        f"{p.name.value}={p.name.value}" if id(p) in keyword_only else f"{p.star if isinstance(p.star, str) else ''}{p.name.value}"
        for p in cst_parameters(entry)
    ]
    call = f"{inner_name}({', '.join(arguments)})"
    outer_body = [
        _statement(f"{stats} = {initial!r}"),
        inner,
        _statement(f"return ({call}, {stats})"),
    ]
    return entry.with_changes(body=entry.body.with_changes(body=outer_body))


def _names(module: cst.Module) -> list[cst.Name]:
    found = []

    class Collect(cst.CSTVisitor):
        def visit_Name(self, node):
            found.append(node)

    module.visit(Collect())
    return found


def _nested_functions(entry: cst.FunctionDef) -> set[str]:
    return {s.name.value for s in entry.body.body if isinstance(s, cst.FunctionDef)}


def _parameter_names(entry: cst.FunctionDef) -> set[str]:
    return {p.name.value for p in cst_parameters(entry)}
