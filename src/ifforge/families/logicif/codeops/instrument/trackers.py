"""State trackers for an anonymised entry function `f`: candidates, a probe, the chosen few.

`propose` puts a counter on everything f does that could tell something (each loop, branch,
conditional expression that is a statement's whole value, caught error, comprehension, inner
function, lambda, helper function, growing container, recursive call; in f and in every helper
that can move into f) into one probe version of f. The stage runs the probe on the test cases; `choose` keeps the 1 to 3
counters that vary across cases, are not an input's length (or value) and do not copy each other;
`build` writes f with only those, returning `(output, stats)`. Code with few paths gets fallback
candidates, judged only when no other tells something: changes of a name recomputed from itself,
keys a comprehension meets again, the length of a split or of what f measures, a choice inside
a larger expression, the parts of an `and` / `or` chain worked out, stores under a key already
there, and reads of a key not there yet from a dictionary whose class fills it in (`__missing__`).
Last of all (`LAST_RESORT_ROLES`, which the stage judges only once nothing else tells something on
the cases nor on a call swapped in for one): how many of the items a comprehension produces, or
the lines `xs.append(item)` add to a container f builds, are zero, empty, None or false (the zero
digits of a number read digit by digit), counted by `v = item`, `if not v:` just before the item is kept.

Counters are plain statements (`stats['k'] += 1`, or a running max of a `len`), so what has no
statements of its own gets some: a counted comprehension or lambda becomes a small inner function
defined just before its statement, and a counted helper moves into f, where it can reach `stats`
and every call counts, through an alias or as a callback too. Anonymised names are unique in the
module, so moving code captures nothing; the execute stage checks the result against the seed.
A class cannot move: with `methods` (the stage asks for it only once nothing else was found), the
loops and branches of its methods are candidates in place, and f declares `stats` global so that
their counters reach it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import libcst as cst

from ifforge.core import pyast
from ifforge.families.logicif.codeops.common.source import cst_parameters
from ifforge.families.logicif.codeops.common.walk import Reader, holds, walk
from ifforge.families.logicif.records import Tracker

GROWING_METHODS = {"append", "appendleft", "add", "extend", "insert", "update", "setdefault"}
CONTAINER_CALLS = {"list", "set", "dict", "sorted", "deque", "defaultdict", "Counter", "OrderedDict", "bytearray",
                   "copy"}
MAX_TRACKERS = 3
COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
# calls that consume a generator whole and see nothing but its items: it may as well be a list
CONSUMERS = {"sum", "min", "max", "sorted", "list", "tuple", "set", "frozenset", "dict", "join"}
# candidate role -> (neutral tracker name, Tracker kind, preference: lower first)
KINDS = {"loop": ("loop_iterations", "loop_iterations", 0), "branch": ("branch_hits", "branch_taken", 1),
         "kept": ("items_kept", "branch_taken", 1), "call": ("helper_calls", "helper_calls", 2),
         "recursion": ("recursive_calls", "recursive_calls", 2),
         "iter": ("item_checks", "comprehension_iterations", 3), "peak": ("peak_size", "peak_size", 4),
         "pick": ("first_choices", "branch_taken", 3), "caught": ("errors_caught", "branch_taken", 1),
         "high": ("highest_value", "peak_value", 4), "change": ("value_changes", "value_changes", 5),
         "repeat": ("repeated_keys", "repeated_items", 5), "pieces": ("peak_size", "peak_size", 5),
         "inline": ("first_choices", "branch_taken", 5), "checks": ("parts_checked", "parts_checked", 5),
         "known": ("keys_found", "repeated_items", 5), "missing": ("keys_missing", "missing_keys", 5),
         "total": ("computed_value", "computed_value", 6), "found": ("keys_found", "found_keys", 6),
         "cell": ("highest_item", "peak_value", 6), "falsy": ("false_items", "false_items", 7),
         "again": ("repeated_items", "repeated_items", 7),
         "mapped": ("characters_changed", "value_changes", 7)}
# roles tried only when no other candidate tells something: code with few paths (no loop that
# does more than walk an argument, a branch the cases never take) still has these to ask about
FALLBACK_ROLES = {"change", "repeat", "pieces", "inline", "checks", "known", "missing", "total", "found", "cell",
                  "falsy", "again", "mapped"}
# fallback roles tried only when no other fallback tells something either (so no choice made before
# they came changes): a value the steps work out, lookups in a table that find their key, and the
# largest value an item of a table of counts reaches
LAST_ROLES = {"total", "found", "cell"}
# judged only when nothing else tells something, not even on a call swapped in for a case (the stage's
# `_other_case`): the items a comprehension makes, or a line `xs.append(item)` adds, that count as false
# (a zero digit of a number read digit by digit, an empty piece); a loop that walks an argument once
# and never branches still has this to ask about. After those, judged only when they tell nothing either
# (so no choice they made changes): the items a list comprehension (or a generator read whole) makes, or
# such a line adds, that equal an item made or held before (a map of an argument whose items repeat).
# Last of those: the characters of a text that `text.translate(table)` changes or removes (a formula
# with one path that swaps characters by a table still says how much of the text it changed);
# role -> its place among the last resorts
LAST_RESORT_ROLES = {"falsy": 0, "again": 1, "mapped": 2}
FALSY = "are zero, empty, None or false"  # what Python counts as false among the values f meets
# the kinds of item whose equality a reader judges at a glance: a text, a whole number (not true/false,
# which Python counts equal to 1 and 0) or None; a decimal worked out may miss an equal one by a hair
PLAIN_ITEMS = "(str, int, type(None))"
# methods whose result is a new list of pieces, so its length is safe to take
SPLITTING = {"split", "rsplit", "splitlines"}
# calls that sum up, measure or pick from what they are given: the value one of them comes to inside
# a larger expression (the weighted sum before `% 11`) is a step worth asking about
TOTALS = {"sum", "len", "min", "max"}
MEASURES = {"count", "find", "rfind", "index", "rindex"}  # methods of texts and lists that count or find
# calls that may act on the world or on their arguments: none may stand in a line whose total is
# worked out one step earlier than the rest of it
ACTING_CALLS = {"print", "input", "open", "exec", "eval", "next", "setattr", "delattr", "iter", "vars", "globals",
                "locals", "__import__", "compile", "breakpoint"}
ACTING_METHODS = GROWING_METHODS | {"pop", "popleft", "popitem", "remove", "discard", "clear", "sort", "reverse",
                                    "write", "send", "throw", "close", "read", "readline", "seek", "__next__"}


class NothingToTrack(ValueError):
    """f has no loop, branch, comprehension, function call or growing container to count."""


class NothingInformative(ValueError):
    """No candidate tracker varies across the cases without being an input's length or a copy."""


@dataclass(frozen=True)
class Candidate:
    """One counter f could carry: what it counts, where, and what must be rewritten for it."""

    id: str  # stable between the probe and the final build, e.g. "loop4", "helper:g1", "peak:v2"
    role: str  # a key of KINDS
    explanation: str
    anchor: str  # the code it hangs on
    order: int  # position in f (source order)
    main: bool  # in f's own statements, not in an inner function, helper, comprehension or lambda
    needs: frozenset[int] = frozenset()  # comprehensions / lambdas to turn into inner functions first
    helper: str | None = None  # the helper it lives in, which must then move into f

    @property
    def kind(self) -> str:
        return KINDS[self.role][1]

    @property
    def fallback(self) -> bool:
        return self.role in FALLBACK_ROLES

    @property
    def tier(self) -> int:
        """0 for the candidates judged first, 1 for fallbacks, 2 for the last ones (LAST_ROLES), 3 and on
        for the last resorts (LAST_RESORT_ROLES), in their order."""
        if self.role in LAST_RESORT_ROLES:
            return 3 + LAST_RESORT_ROLES[self.role]
        return 2 if self.role in LAST_ROLES else 1 if self.fallback else 0


@dataclass
class Probe:
    """Every candidate in one version of f, to be run once on the cases before choosing."""

    source: str  # f with every candidate, returning (output, {candidate key: value})
    candidates: list[Candidate]
    keys: dict[str, str]  # candidate id -> key in the probe's stats
    context: _Context | None = field(repr=False, default=None)  # the parsed module, for `build`


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node).strip()


def _short(node: cst.CSTNode, limit: int = 90) -> str:
    text = " ".join(_code(node).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


@lru_cache(maxsize=1024)
def _with_test(statement: cst.If | cst.While, test: cst.BaseExpression) -> cst.If | cst.While:
    """`statement` testing `test`: `if(x):` keeps a space after its keyword once the parentheses go."""
    space = "whitespace_before_test" if isinstance(statement, cst.If) else "whitespace_after_while"
    bare = not getattr(test, "lpar", None) and not getattr(statement, space).value
    return statement.with_changes(test=test, **({space: cst.SimpleWhitespace(" ")} if bare else {}))


def _statement(code: str) -> cst.BaseStatement:
    """A counter's statement (`stats['k'] += 1`), parsed once: every render of every item writes the
    same few again, and a libcst node, never changed, may stand in many places."""
    return cst.parse_statement(code)


def _lines(suite: cst.BaseSuite) -> list[cst.BaseStatement]:
    if isinstance(suite, cst.SimpleStatementSuite):
        return [cst.SimpleStatementLine([small]) for small in suite.body]
    return list(suite.body)


def _block(suite: cst.BaseSuite, body: list[cst.BaseStatement]) -> cst.IndentedBlock:
    return suite.with_changes(body=body) if isinstance(suite, cst.IndentedBlock) else cst.IndentedBlock(body=body)


# The visitors called many times an item are classes made once: a class made anew each call costs
# its making, and libcst's abstract-class checks grow with every visitor class alive.
class _Names(Reader):
    def __init__(self):
        super().__init__()
        self.found: set[str] = set()

    def visit_Name(self, name):
        self.found.add(name.value)


def _names_in(node: cst.CSTNode) -> set[str]:
    collect = _Names()
    walk(node, collect)
    return collect.found


def _returns(line: cst.SimpleStatementLine) -> bool:
    return any(isinstance(small, (cst.Return, cst.Raise, cst.Break, cst.Continue)) for small in line.body)


def _always_returns(statement: cst.BaseStatement) -> bool:
    """Whether running `statement` always leaves f (a return or raise, or an if whose every branch does)."""
    if isinstance(statement, cst.SimpleStatementLine):
        return any(isinstance(small, (cst.Return, cst.Raise)) for small in statement.body)
    if isinstance(statement, cst.If) and statement.orelse is not None:
        last = statement.orelse if isinstance(statement.orelse, cst.If) else _lines(statement.orelse.body)[-1]
        return _always_returns(_lines(statement.body)[-1]) and _always_returns(last)
    return False


# ---- the survey: every site f has, numbered in source order ----------------------------------------
class _OwnStatements(Reader):
    """A reader of f's own statements: it never goes into an inner function, lambda or class."""

    def visit_FunctionDef(self, node):
        return False

    def visit_Lambda(self, node):
        return False

    def visit_ClassDef(self, node):
        return False


class _Sites(Reader):
    """Numbers f's loops, branches, comprehensions, lambdas and inner functions; notes which
    comprehensions / lambdas enclose each, and whether it is in f's own statements."""

    def __init__(self, bound: set[str]):
        self.bound = bound
        self.known: set[int] = set()  # every node of f's body
        self.holders: set[int] = set()  # nodes with a comprehension or lambda inside
        self.eager: set[int] = set()  # generator expressions a consumer reads whole
        self.path: list[cst.CSTNode] = []
        self.number: dict[int, int] = {}
        self.candidates: list[Candidate] = []
        self.enclosing: list[int | None] = []  # comprehension / lambda sites (None: not convertible)
        self.functions = 0  # depth of inner functions
        self.helper: str | None = None  # the helper being surveyed, if not f
        self.method: str | None = None  # or the method (`ten of the class g2`), which stays where it is
        self.local: set[str] = set()  # names local to the function being surveyed
        self.filling: set[str] = set()  # names of dictionaries that fill in a key read before it is there
        self.bound_at_top: set[str] = set()  # names the module binds itself (not the built-ins then)

    def on_visit(self, node) -> bool:
        self.known.add(id(node))
        self.path.append(node)
        if isinstance(node, (cst.Lambda, *COMPREHENSIONS)):
            self.holders.update(id(n) for n in self.path)
        return super().on_visit(node)

    def on_leave(self, node) -> None:
        super().on_leave(node)
        self.path.pop()

    def _site(self, node) -> int:
        self.number[id(node)] = len(self.number)
        return self.number[id(node)]

    def _add(self, node, role, explanation, anchor, extra=()):
        needs = [n for n in self.enclosing if n is not None]
        if len(needs) != len(self.enclosing):  # inside something that cannot be rewritten
            return
        main = not self.enclosing and not self.functions
        if self.helper is not None:
            explanation += f" (inside the helper {self.helper})"
        elif self.method is not None:
            explanation += f" (inside the method {self.method})"
        self.candidates.append(Candidate(id=f"{role}{self.number[id(node)]}", role=role, explanation=explanation,
                                         anchor=anchor, order=self.number[id(node)], main=main,
                                         needs=frozenset([*needs, *extra]), helper=self.helper))

    def visit_For(self, node):
        self._site(node)
        header = f"for {_short(node.target)} in {_short(node.iter)}"
        self._add(node, "loop", f"how many times the body of the loop `{header}` runs", header)

    def visit_While(self, node):
        self._site(node)
        header = f"while {_short(node.test)}"
        self._add(node, "loop", f"how many times the body of the loop `{header}` runs", header)

    def visit_Call(self, node):
        func = node.func
        name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
        rest = [a for a in node.args[1:] if not (a.keyword and a.keyword.value == "default")]
        if name in CONSUMERS and node.args and isinstance(node.args[0].value, cst.GeneratorExp) and not rest \
                and not node.args[0].keyword and not node.args[0].star:
            self.eager.add(id(node.args[0].value))
        self._lookup(node)
        self._translation(node)
        if (isinstance(func, cst.Name) and name in TOTALS and name not in self.bound_at_top
                or isinstance(func, cst.Attribute) and name in MEASURES) and not self.enclosing:
            place = _total_place(self.path[:-1], node, self.number)
            if place is not None:
                self._site(node)
                when = "the last time it is worked out" if place else "when it is worked out"
                self._add(node, "total", f"the value `{_short(node, 200)}` comes to, {when} (0 if it never is)",
                          _short(node))

    def visit_If(self, node):
        self._site(node)
        header = f"if {_short(node.test)}"
        self._add(node, "branch", f"how many times the branch `{header}` is taken", header)

    def _lookup(self, node: cst.Call) -> None:
        """`m.get(k)` / `m.get(k, d)` evaluated once whenever its line or comprehension item is:
        a candidate for how often it finds its key."""
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "get" and isinstance(func.value, cst.Name)
                and 1 <= len(node.args) <= 2 and not any(a.keyword or a.star for a in node.args)
                and _lookup_once(self.path[:-1], node)):
            return
        self._site(node)
        holder, key = func.value.value, _code(node.args[0].value)
        self._add(node, "found", f"how many times `{holder}` is a dictionary holding the key `{key}` when that key "
                                 f"is looked up in it", holder)

    def _translation(self, node: cst.Call) -> None:
        """`text.translate(table)` evaluated once whenever its line, `if` test or comprehension item is,
        text and table holding no call: a candidate for how many characters of the text it changes."""
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "translate" and len(node.args) == 1
                and not node.args[0].keyword and not node.args[0].star
                and not any(holds(part, (cst.Call, cst.NamedExpr, cst.Yield, cst.Await, cst.Lambda, *COMPREHENSIONS))
                            for part in (func.value, node.args[0].value))
                and not {"isinstance", "str"} & (self.bound_at_top | self.local)
                and _evaluated_once(self.path[:-1], node, lambda parts, between: _calls_once(parts, node, between),
                                    if_tests=True)):
            return
        self._site(node)
        text = _code(func.value)
        self._add(node, "mapped", f"how many characters of `{text}` come out different (replaced by something else, "
                                  f"or removed) when `{_short(node, 200)}` is worked out, added up over every time it "
                                  f"is (0 if it never is)", text)

    def visit_IfExp(self, node):
        if not self.enclosing and _choice_statement(self.path[:-1], node) is not None:
            self._site(node)
            header = f"if {_short(node.test)}"
            self._add(node, "pick", f"how many times the branch `{header}` is taken", header)
        elif not self.enclosing and _inline_choice(self.path[:-1]):
            self._site(node)
            header = f"if {_short(node.test)}"
            self._add(node, "inline", f"how many times the branch `{header}` is taken", header)

    def visit_BooleanOperation(self, node):
        if not self.enclosing and _counted_chain(self.path[:-1], node):
            self._site(node)
            word, stop = ("or", "true") if isinstance(node.operator, cst.Or) else ("and", "false")
            self._add(node, "checks", f'how many parts of a chain joined by "{word}" are worked out, left to right, '
                                      f'stopping at the first part that counts as {stop}', _short(node))

    def visit_SimpleStatementLine(self, node):
        written = _keyed_write(node)
        if written is not None and not self.enclosing and written[0].value in self.local:
            self._site(node)
            holder, key = (_code(part) for part in written)
            self._add(node, "known", f"how many times a value is stored in `{holder}` under the key `{key}` when "
                                     f"`{holder}` is a dictionary that already has that key", holder)
        if written is not None and not self.enclosing and written[0].value in self.local and _stepped_item(node):
            if id(node) not in self.number:
                self._site(node)
            holder, key = (_code(part) for part in written)
            step = node.body[0]
            done = "added to it" if isinstance(step.operator, cst.AddAssign) else "taken from it"
            self._add(node, "cell", f"the largest value `{holder}[{key}]` has right after `{_code(step.value)}` is "
                                    f"{done}, over every time that is done (0 if it is never above 0)", holder)

    def visit_Subscript(self, node):
        owner = node.value
        if isinstance(owner, cst.Name) and owner.value in self.filling and _missing_read(self.path[:-1], node):
            self._site(node)
            self._add(node, "missing", f"how many times a value is read from `{owner.value}` under a key that "
                                       f"`{owner.value}` does not hold at that moment (so its method __missing__ "
                                       f"runs)", owner.value)

    def visit_ExceptHandler(self, node):
        kinds = _error_kinds(node)
        if kinds is not None:
            self._site(node)
            self._add(node, "caught", f"how many times a step tried fails with {kinds} and is caught", "except")

    def visit_FunctionDef(self, node):
        self._site(node)
        name = node.name.value
        self._add(node, "call", f"how many times the inner function `{name}` runs, however it is called", name)
        self.functions += 1

    def leave_FunctionDef(self, node):
        self.functions -= 1

    def _convertible(self, node) -> bool:
        if holds(node, (cst.NamedExpr, cst.Await, cst.Yield)):
            return False  # these would bind or suspend in another scope once moved into a function
        if isinstance(node, COMPREHENSIONS):
            clause = node.for_in
            while clause is not None:
                if clause.asynchronous is not None:
                    return False
                clause = clause.inner_for_in
            return not (isinstance(node, cst.SetComp) and "set" in self.bound)
        return True

    def _visit_scope(self, node):
        site = self._site(node)
        convertible = self._convertible(node)
        if convertible:
            anchor = _short(node)
            if isinstance(node, cst.Lambda):
                self._add(node, "call", f"how many times the function `{anchor}` is called", anchor, [site])
            else:
                self._add(node, "iter", f"how many items are looked at while evaluating `{anchor}`", anchor, [site])
                if _comprehension_ifs(node):
                    self._add(node, "kept", f"how many items pass the conditions of `{anchor}`", anchor, [site])
                if _repeat_key(node) is not None:
                    what = "a key" if isinstance(node, cst.DictComp) else "an item"
                    self._add(node, "repeat", f"how many times `{anchor}` meets {what} it already holds", anchor, [site])
                if not isinstance(node, cst.DictComp):
                    self._add(node, "falsy", f"how many of the items `{anchor}` makes {FALSY}", anchor, [site])
                if isinstance(node, cst.ListComp) or isinstance(node, cst.GeneratorExp) and id(node) in self.eager:
                    self._add(node, "again", f"how many of the items `{anchor}` makes equal an item it made "
                                             f"earlier in the same evaluation", anchor, [site])
        self.enclosing.append(site if convertible else None)

    def _leave_scope(self, node):
        self.enclosing.pop()

    visit_Lambda = visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _visit_scope
    leave_Lambda = leave_ListComp = leave_SetComp = leave_DictComp = leave_GeneratorExp = _leave_scope

    def visit_ClassDef(self, node):
        return False  # a class's body is its own world: not counted


def _choice_statement(path: list[cst.CSTNode], node: cst.IfExp) -> cst.CSTNode | None:
    """The return or assignment whose whole value `node` is (directly, or as the last part of a
    chain `a if x else b if y else c`): such a choice can be written as an if statement."""
    top, index = node, len(path) - 1
    while index >= 0 and isinstance(path[index], cst.IfExp) and path[index].orelse is top:
        top, index = path[index], index - 1
    owner = path[index] if index >= 1 else None
    if isinstance(owner, (cst.Return, cst.Assign, cst.AnnAssign)) and owner.value is top \
            and isinstance(path[index - 1], cst.SimpleStatementLine) and len(path[index - 1].body) == 1:
        return owner
    return None


def _counted_chain(path: list[cst.CSTNode], node: cst.BooleanOperation) -> bool:
    """Whether an `and` / `or` chain can be worked out one part at a time in statements just before
    its line: it is the whole test of an if (not an elif, whose test may never be reached) or the
    whole value of a return or an assignment alone on its line, and holds no comprehension or
    lambda (those have their own rewriting)."""
    if len(path) < 2 or holds(node, (cst.Lambda, *COMPREHENSIONS)):
        return False
    owner, line = path[-1], path[-2]
    if isinstance(owner, cst.If) and owner.test is node:
        return not (isinstance(line, cst.If) and line.orelse is owner)
    return isinstance(owner, (cst.Return, cst.Assign)) and owner.value is node \
        and isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and not _recomputed(line)


def _chain_parts(chain: cst.BooleanOperation) -> list[cst.BaseExpression]:
    """`a or b or c` as [a, b, c]: the operands of the outermost operator, parenthesised ones whole."""
    parts, node = [], chain
    while isinstance(node, cst.BooleanOperation) and type(node.operator) is type(chain.operator) \
            and (node is chain or not node.lpar):
        parts.insert(0, node.right)
        node = node.left
    return [node, *parts]


def _append_line(line: cst.BaseStatement) -> tuple[cst.Name, cst.BaseExpression] | None:
    """(xs, item) for a line that is `xs.append(item)` alone, item binding and suspending nothing."""
    small = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
    call = small.value if isinstance(small, cst.Expr) else None
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "append"
            and isinstance(call.func.value, cst.Name) and len(call.args) == 1):
        return None
    [arg] = call.args
    if arg.keyword or arg.star or holds(arg.value, (cst.NamedExpr, cst.Yield, cst.Await)):
        return None
    return call.func.value, arg.value


def _appended(entry: cst.FunctionDef, containers: list[str]) -> list[str]:
    """The containers f appends to, every `xs.append` a line `xs.append(item)` alone in f's own
    statements (none in an inner function, none taken as a value): one counter on those lines is
    then "the items appended to xs"."""
    lines: list[str] = []

    class Lines(_OwnStatements):
        def visit_SimpleStatementLine(self, node):
            if _append_line(node) is not None:
                lines.append(_append_line(node)[0].value)

    class Reads(Reader):
        def visit_Attribute(self, node):
            if node.attr.value == "append" and isinstance(node.value, cst.Name):
                reads.append(node.value.value)

    reads: list[str] = []
    walk(entry.body, Reads())
    walk(entry.body, Lines())
    return [name for name in containers if lines.count(name) and reads.count(name) == lines.count(name)]


def _one_line(value: cst.BaseExpression) -> cst.BaseExpression:
    """`value` fit to stand alone as an assignment's value: in brackets when it spans lines (its
    enclosing brackets, a call's or a comprehension's, are left behind)."""
    if "\n" not in _code(value) or value.lpar:
        return value
    return value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _held(value: cst.BaseExpression) -> cst.BaseExpression:
    """`value` as it is if its text stands alone, else in brackets: a lambda's body or a comprehension's
    test may run over lines held together only by the brackets around it, left behind once it is a
    statement of its own."""
    code = _code(value)
    if "\n" not in code:
        return value
    try:
        pyast.parse(code, mode="eval")
    except SyntaxError:
        return value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return value


def _keyed_write(line: cst.BaseStatement) -> tuple[cst.Name, cst.BaseExpression] | None:
    """(holder, key) for a line alone that stores under a key (`m[k] = v`, `m[k] += v`), when the key
    has no call, so asking whether it is already there is safe."""
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
        return None
    small = line.body[0]
    target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else \
        small.target if isinstance(small, cst.AugAssign) else None
    if not isinstance(target, cst.Subscript) or not isinstance(target.value, cst.Name) or len(target.slice) != 1 \
            or not isinstance(target.slice[0].slice, cst.Index):
        return None
    key = target.slice[0].slice.value
    return None if holds(key, (cst.Call, cst.NamedExpr, cst.Await, cst.Yield)) else (target.value, key)


def _stepped_item(line: cst.SimpleStatementLine) -> bool:
    """`m[k] += n` / `m[k] -= n` with n a whole number written out or a `len` (a table of counts):
    the item is a number once the step is done, and reading `m[k]` again (the key has no call:
    `_keyed_write`) gives it."""
    small = line.body[0]
    return isinstance(small, cst.AugAssign) and isinstance(small.operator, (cst.AddAssign, cst.SubtractAssign)) \
        and _whole(small.value)


def _missing_read(path: list[cst.CSTNode], node: cst.Subscript) -> bool:
    """Whether asking `key not in owner` just before the read `owner[key]` gives what the read finds: the
    key has no call, and the read is the value part of a line alone (a return, an assignment, an
    expression) or of a comprehension's item, evaluated once each time that runs, after no call but
    the ones it is given to (`out.append(m[k])`, `len(m[k])`) and with no other read of the owner."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index) or \
            holds(node.slice[0].slice.value, (cst.Call, cst.NamedExpr, cst.Yield, cst.Await)):
        return False
    return _evaluated_once(path, node, lambda parts, between: _reads_once(parts, node, between), if_tests=False)


def _lookup_once(path: list[cst.CSTNode], node: cst.Call) -> bool:
    """Whether asking `key in owner` just before the line of a lookup `owner.get(key, default)`
    gives what the lookup finds: key and default hold no call, and the lookup is the value part
    of a line alone (a return, an assignment, an expression), of an `if`'s test (not an elif's) or
    of a comprehension's item, evaluated once each time that runs, after no call but the ones it
    is given to."""
    if any(holds(a.value, (cst.Call, cst.NamedExpr, cst.Yield, cst.Await, cst.Lambda)) for a in node.args):
        return False
    return _evaluated_once(path, node, lambda parts, between: _calls_once(parts, node, between), if_tests=True)


def _evaluated_once(path: list[cst.CSTNode], node: cst.CSTNode, alone, if_tests: bool) -> bool:
    """Whether `node` (at the end of `path`) is the value part of a line alone, of a comprehension's
    item or (with `if_tests`) of an `if`'s test that is not an elif's, so a check put just before
    that place sees what `node` will; `alone(parts, between)` judges what else those parts run."""
    for index in range(len(path) - 1, -1, -1):
        holder, inside = path[index], path[index + 1] if index + 1 < len(path) else node
        if isinstance(holder, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            parts = [holder.key, holder.value] if isinstance(holder, cst.DictComp) else [holder.elt]
            return any(inside is part for part in parts) and alone(parts, path[index + 1:])
        if isinstance(holder, (cst.Return, cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Expr)):
            line = path[index - 1] if index else None
            return inside is holder.value and isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 \
                and alone([holder.value], path[index + 1:])
        if if_tests and isinstance(holder, cst.If):  # its test, checked just before the whole `if`
            parent = path[index - 1] if index else None
            return inside is holder.test and not (isinstance(parent, cst.If) and parent.orelse is holder) \
                and alone([holder.test], path[index + 1:])
        if isinstance(holder, (cst.BooleanOperation, cst.IfExp, cst.Lambda, cst.BaseStatement)):
            return False  # evaluated some of the time, or more than once
    return False


def _calls_once(parts: list[cst.CSTNode], node: cst.Call, between: list[cst.CSTNode]) -> bool:
    """No call in `parts` but `node` and those holding it, and nothing that runs it some of the time
    or twice, binds or pauses."""
    reads = _Reads("")
    for part in parts:
        walk(part, reads)
    holding = {id(n) for n in between} | {id(node)}
    return not reads.other and all(id(call) in holding for call in reads.calls)


class _Reads(Reader):
    """Calls, and reads of one owner by subscript, under a node."""

    def __init__(self, owner: str):
        super().__init__()
        self.owner, self.calls, self.reads, self.other = owner, [], 0, False

    def visit_Call(self, node):
        self.calls.append(node)

    def visit_Subscript(self, node):
        self.reads += isinstance(node.value, cst.Name) and node.value.value == self.owner

    def on_visit(self, node):
        self.other = self.other or isinstance(node, (cst.NamedExpr, cst.Yield, cst.Await, cst.Lambda,
                                                     cst.BooleanOperation, cst.IfExp, *COMPREHENSIONS))
        return super().on_visit(node)


def _reads_once(parts: list[cst.CSTNode], node: cst.Subscript, between: list[cst.CSTNode]) -> bool:
    """The only read of its owner in `parts`, with no call but those holding it (`between` is the path
    down to it), nothing that runs it some of the time or twice, and nothing that binds or pauses."""
    reads = _Reads(node.value.value)
    for part in parts:
        walk(part, reads)
    holding = {id(n) for n in between}
    return reads.reads == 1 and not reads.other and all(id(call) in holding for call in reads.calls)


def _filling(module: cst.Module, entry: cst.FunctionDef) -> set[str]:
    """Names of the module or f every binding of which makes a dictionary that fills in a key read
    before it is there: an object of a class of the module with `__missing__`."""
    classes = {s.name.value for s in module.body if isinstance(s, cst.ClassDef) and any(
        isinstance(m, cst.FunctionDef) and m.name.value == "__missing__" for m in _lines(s.body))}
    survey = _Bindings(lambda value: isinstance(value, cst.Call) and _code(value.func) in classes)
    walk(module, survey)
    walk(entry.body, survey)
    return {name for name, ok in survey.bindings.items() if ok}


def _local_names(function: cst.FunctionDef) -> set[str]:
    """The function's parameters and the names its own statements bind, less those declared global
    or nonlocal: what it stores in them is the call's own, not left over from an earlier call."""
    bound = {p.name.value for p in cst_parameters(function)}
    shared: set[str] = set()

    class Survey(_Bindings):
        def visit_Global(self, node):
            shared.update(item.name.value for item in node.names)

        def visit_Nonlocal(self, node):
            shared.update(item.name.value for item in node.names)

    survey = Survey(lambda value: True)
    walk(function.body, survey)
    return (bound | set(survey.bindings)) - shared


def _inline_choice(path: list[cst.CSTNode]) -> bool:
    """Whether a conditional expression under `path` is evaluated exactly once whenever its line
    runs, and its test can be evaluated once more just before the line with the same result: the
    line is one simple statement with no call, walrus, yield or await, and nothing between it and
    the expression skips or repeats it (`and` / `or`, another choice, a lambda, a comprehension)."""
    for node in reversed(path):
        if isinstance(node, cst.SimpleStatementLine):
            return len(node.body) == 1 and isinstance(node.body[0], (cst.Return, cst.Assign, cst.AugAssign,
                                                                      cst.AnnAssign, cst.Expr)) \
                and not holds(node, (cst.Call, cst.NamedExpr, cst.Yield, cst.Await))
        if isinstance(node, (cst.BaseCompoundStatement, cst.BooleanOperation, cst.IfExp, cst.Lambda, *COMPREHENSIONS)):
            return False
    return False


def _total_place(path: list[cst.CSTNode], node: cst.Call, numbered: dict[int, int]) -> bool | None:
    """Whether a call of TOTALS or MEASURES can be worked out into a counter just before its
    statement, the rest of the statement reading that counter: None when not, else whether the
    statement is in a loop. The statement is a line alone (a return, an assignment or an expression;
    not one another fallback counts, nor one recomputing a name from itself) or an `if` (not an
    `elif`, which may never be reached); between them stands nothing that evaluates the call some of
    the time or more than once (`and` / `or`, a choice, a lambda, a comprehension, a loop's header)
    and no f-string; the call is not the returned value nor an item of a returned tuple or list
    (that is the output); and the line's other calls, but those holding this one, act on nothing
    (`len`, `str`, a method that does not change its object), so working the call out first changes
    no other value."""
    owner, index = None, len(path) - 1
    while index >= 0:
        holder = path[index]
        if isinstance(holder, (cst.BooleanOperation, cst.IfExp, cst.Lambda, cst.For, cst.While, cst.CompFor,
                               cst.FormattedString, *COMPREHENSIONS)):
            return None  # (a counter's quotes inside an f-string's would end it before Python 3.12)
        if isinstance(holder, cst.If):
            inside = path[index + 1] if index + 1 < len(path) else node
            parent = path[index - 1] if index else None
            if inside is not holder.test or (isinstance(parent, cst.If) and parent.orelse is holder):
                return None
            owner, line = holder, holder.test
            break
        if isinstance(holder, cst.SimpleStatementLine):
            small = holder.body[0] if len(holder.body) == 1 else None
            if not isinstance(small, (cst.Return, cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Expr)) \
                    or isinstance(small, cst.Return) and _returned_whole(small.value, node) \
                    or id(holder) in numbered or _recomputed(holder):
                return None
            owner, line = holder, holder
            break
        if isinstance(holder, cst.BaseStatement):
            return None
        index -= 1
    if owner is None or holds(line, (cst.NamedExpr, cst.Yield, cst.Await)):
        return None
    holding = {id(n) for n in path}
    calls = _Calls()
    walk(line, calls)
    for call in calls.found:
        if id(call) in holding or call is node:
            continue
        func = call.func
        if isinstance(func, cst.Name) and func.value in ACTING_CALLS or \
                isinstance(func, cst.Attribute) and func.attr.value in ACTING_METHODS or \
                not isinstance(func, (cst.Name, cst.Attribute)):
            return None
    return any(isinstance(n, (cst.For, cst.While)) for n in path[:index])


def _returned_whole(value: cst.BaseExpression | None, node: cst.Call) -> bool:
    """Whether `node` is the returned value, or an item of the tuple or list returned: a counter
    holding it would ask for a part of the answer twice."""
    items = value.elements if isinstance(value, (cst.Tuple, cst.List)) else []
    return value is node or any(item.value is node for item in items)


class _Calls(Reader):
    """Every call under a node."""

    def __init__(self):
        super().__init__()
        self.found: list[cst.Call] = []

    def visit_Call(self, node):
        self.found.append(node)


def _module_names(module: cst.Module) -> set[str]:
    """Names the module binds at its top level (a def, a class, an assignment, an import)."""
    names: set[str] = set()
    for statement in module.body:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            names.add(statement.name.value)
        elif isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar):
                    names.update(_code(a.asname.name if a.asname else a.name).split(".")[0] for a in small.names)
                elif isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
                    names.update(n for t in targets for n in _names_in(t))
    return names


def _error_kinds(handler: cst.ExceptHandler) -> str | None:
    """The errors a handler catches, in words ("any error", "an error of the kind KeyError or
    IndexError"), or None when they are computed or the error object is kept (not said in English)."""
    if handler.name is not None:
        return None
    if handler.type is None:
        return "any error"
    kinds = handler.type.elements if isinstance(handler.type, cst.Tuple) else [cst.Element(handler.type)]
    if not all(isinstance(k.value, cst.Name) for k in kinds):
        return None
    names = [k.value.value for k in kinds]
    return "an error of the kind " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1])


def _repeat_key(node) -> cst.BaseExpression | None:
    """What a dict or set comprehension files its items under, when asking whether it is already
    there is safe (no call, so evaluating it twice changes nothing)."""
    key = node.key if isinstance(node, cst.DictComp) else node.elt if isinstance(node, cst.SetComp) else None
    return None if key is None or holds(key, (cst.Call, cst.NamedExpr, cst.Await, cst.Yield)) else key


def _recomputed(line: cst.BaseStatement) -> list[str]:
    """The names a line gives a new value computed from itself: `a = a.replace(x, y)`, each name of
    a tuple assigned a tuple of as many values (`a, b = b, a + b`: b), and `n op= x` (which the
    caller keeps only for names that always hold a number: `_numeric`)."""
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
        return []
    small = line.body[0]
    if isinstance(small, cst.AugAssign):
        return [small.target.value] if isinstance(small.target, cst.Name) else []
    if not isinstance(small, cst.Assign) or len(small.targets) != 1:
        return []
    target, value = small.targets[0].target, small.value
    if isinstance(target, cst.Name):
        return [target.value] if target.value in _names_in(value) else []
    if not isinstance(target, (cst.Tuple, cst.List)) or not isinstance(value, (cst.Tuple, cst.List)) \
            or len(target.elements) != len(value.elements):
        return []
    pairs = list(zip(target.elements, value.elements))
    if any(isinstance(part, cst.StarredElement) for pair in pairs for part in pair):
        return []
    return [t.value.value for t, v in pairs if isinstance(t.value, cst.Name) and t.value.value in _names_in(v.value)]


# `n op= x` where n is a number gives a new number (or an error) whatever x is among the values f can
# meet; `*=` (MULTIPLYING) may turn a number into a list (`n *= [0]`), which a later `op=` changes in
# place, so the probe rules out the count of a name stepped so whenever its old value is not immutable
MULTIPLYING = (cst.MultiplyAssign,)
NUMBER_STEPS = (cst.AddAssign, cst.SubtractAssign, cst.BitXorAssign, cst.BitOrAssign, cst.BitAndAssign,
                cst.LeftShiftAssign, cst.RightShiftAssign, cst.FloorDivideAssign, cst.ModuloAssign,
                cst.DivideAssign, cst.PowerAssign)
NUMBER_CALLS = {"len", "abs", "int", "float", "round"}


def _number(value) -> bool:
    """A value that is a number whatever f is given: a number written out, a call that gives one,
    or a constant or function of `math`."""
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, (cst.Minus, cst.Plus)):
        value = value.expression
    if isinstance(value, cst.Call):
        if isinstance(value.func, cst.Name):
            return value.func.value in NUMBER_CALLS
        value = value.func
    return isinstance(value, (cst.Integer, cst.Float)) or (
        isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == "math")


def _numeric(entry: cst.FunctionDef) -> set[str]:
    """Names in f's own scope (not parameters) that always hold a number: every binding is a number
    (`_number`) or a step `n op= x` of NUMBER_STEPS. Counting their changes on `n op= x` is safe: the
    old value, a number, cannot change in place. A step `n *= x` (MULTIPLYING) is let in too: the probe
    checks the old value at each step of such a name (`_multiplied`)."""
    stepped: list[str] = []

    class Survey(_Bindings):
        def visit_AugAssign(self, node):
            self.bind(node.target, isinstance(node.operator, NUMBER_STEPS + MULTIPLYING))
            if isinstance(node.target, cst.Name):
                stepped.append(node.target.value)

    survey = Survey(_number)
    walk(entry.body, survey)
    return set(survey.kept(stepped, entry))


def _changing(entry: cst.FunctionDef) -> list[str]:
    """Names f's own statements recompute from themselves (a body on its header's line too); not one
    whose recomputation is a conditional expression (a counted choice is rewritten into lines that may
    not mention it), nor one stepped by `n op= x` unless it always holds a number (a list's `+=`
    changes it in place, so the value it had could not be kept to compare with)."""
    found: list[str] = []
    unsafe: list[str] = []
    numeric = _numeric(entry)

    class Survey(_OwnStatements):
        def visit_SimpleStatementLine(self, line):
            names = _recomputed(line)
            small = line.body[0] if names else None
            for name in names:
                if isinstance(small, cst.Assign) and isinstance(small.value, cst.IfExp) or \
                        isinstance(small, cst.AugAssign) and name not in numeric:
                    unsafe.append(name)
                else:
                    found.append(name)

        def visit_SimpleStatementSuite(self, suite):  # `for x in xs: n *= x`, the body on the header's line
            for small in suite.body:  # each a line of its own, as the writer reads it (`_lines`)
                self.visit_SimpleStatementLine(cst.SimpleStatementLine([small]))

    walk(entry.body, Survey())
    return [name for name in dict.fromkeys(found) if name not in unsafe]


def _multiplied(entry: cst.FunctionDef) -> set[str]:
    """Names f's own statements step by `n *= x` (MULTIPLYING): a number times a list is a list."""
    found: set[str] = set()

    class Survey(_OwnStatements):
        def visit_AugAssign(self, node):
            if isinstance(node.operator, MULTIPLYING) and isinstance(node.target, cst.Name):
                found.add(node.target.value)

    walk(entry.body, Survey())
    return found


def _split(value) -> bool:
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in SPLITTING


def _text(value) -> bool:
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "str"


def _pieces(entry: cst.FunctionDef, containers: list[str]) -> list[str]:
    """Names in f's own scope that are not growing containers, only ever bound to sized values,
    (a text made by `str` too), and either bound to the pieces of a split or measured by f itself
    (`len(name)`): their length is worth asking."""
    wanted: list[str] = []

    class Survey(_Bindings):
        def visit_Assign(self, node):
            super().visit_Assign(node)
            if _split(node.value):
                wanted.extend(t.target.value for t in node.targets if isinstance(t.target, cst.Name))

        def visit_Call(self, node):
            if isinstance(node.func, cst.Name) and node.func.value == "len" and len(node.args) == 1 \
                    and isinstance(node.args[0].value, cst.Name):
                wanted.append(node.args[0].value.value)

    survey = Survey(lambda value: _sized(value) or _split(value) or _text(value))
    walk(entry.body, survey)
    return [name for name in survey.kept(wanted, entry) if name not in containers]


def _comprehension_ifs(node) -> bool:
    clause = node.for_in
    while clause is not None:
        if clause.ifs:
            return True
        clause = clause.inner_for_in
    return False


class _Bindings(Reader):
    """Every binding of a name in f's own scope, each judged by `ok(value)` (a binding whose value
    is not seen, a loop or comprehension target, an unpacking or a caught error, is never ok); names an inner function, lambda or
    class mentions go to `enclosed`: it could change them between two of f's lines."""

    def __init__(self, ok):
        super().__init__()
        self.ok = ok
        self.bindings: dict[str, bool] = {}  # name -> every binding is ok
        self.enclosed: set[str] = set()

    def bind(self, target, ok):
        if isinstance(target, cst.Name):
            self.bindings[target.value] = self.bindings.get(target.value, True) and ok
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self.bind(element.value, False)
        elif isinstance(target, cst.StarredElement):
            self.bind(target.value, False)

    def kept(self, names: list[str], entry: cst.FunctionDef) -> list[str]:
        """`names` (in first-seen order) whose every binding is ok, neither parameters nor enclosed."""
        parameters = {p.name.value for p in cst_parameters(entry)}
        return sorted({name for name in names if self.bindings.get(name) and name not in parameters | self.enclosed},
                      key=names.index)

    def visit_Assign(self, node):
        for target in node.targets:
            self.bind(target.target, self.ok(node.value))

    def visit_AnnAssign(self, node):
        self.bind(node.target, node.value is not None and self.ok(node.value))

    def visit_For(self, node):
        self.bind(node.target, False)

    def visit_NamedExpr(self, node):
        self.bind(node.target, False)

    def visit_WithItem(self, node):
        if node.asname is not None:
            self.bind(node.asname.name, False)

    def visit_CompFor(self, node):
        self.bind(node.target, False)

    def visit_ExceptHandler(self, node):
        if node.name is not None:
            self.bind(node.name.name, False)

    def visit_FunctionDef(self, node):
        self.enclosed.update(_names_in(node))
        return False

    def visit_Lambda(self, node):
        self.enclosed.update(_names_in(node))
        return False

    def visit_ClassDef(self, node):
        self.enclosed.update(_names_in(node))
        return False


def _sized(value) -> bool:
    if isinstance(value, (cst.List, cst.Set, cst.Dict, cst.Tuple, *COMPREHENSIONS, cst.SimpleString,
                          cst.FormattedString)):
        return True
    if isinstance(value, cst.Call) and isinstance(value.func, (cst.Name, cst.Attribute)):
        name = value.func.attr.value if isinstance(value.func, cst.Attribute) else value.func.value
        return name in CONTAINER_CALLS
    return False


def _whole(value) -> bool:
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        value = value.expression
    return isinstance(value, cst.Integer) or (
        isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "len")


def _containers(entry: cst.FunctionDef) -> list[str]:
    """Names in f's own scope that grow in place and are only ever bound to sized values."""
    grown: list[str] = []

    class Survey(_Bindings):
        def visit_Call(self, node):
            if isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name):
                if node.func.attr.value in GROWING_METHODS:
                    grown.append(node.func.value.value)
            if _code(node.func) in {"heappush", "heapq.heappush"} and node.args:
                if isinstance(node.args[0].value, cst.Name):
                    grown.append(node.args[0].value.value)

    survey = Survey(_sized)
    walk(entry.body, survey)
    return survey.kept(grown, entry)


def _counts(entry: cst.FunctionDef) -> list[str]:
    """Names in f's own scope that only ever hold whole numbers and go up or down in steps
    (`n = 0`, `n = len(x)`, `n += 1`, `n -= len(x)`): their largest value can be tracked safely."""
    steps: list[str] = []

    class Survey(_Bindings):
        def visit_AugAssign(self, node):
            ok = isinstance(node.operator, (cst.AddAssign, cst.SubtractAssign)) and _whole(node.value)
            self.bind(node.target, ok)
            if isinstance(node.target, cst.Name):
                steps.append(node.target.value)

    survey = Survey(_whole)
    walk(entry.body, survey)
    return survey.kept(steps, entry)


def _binds(line: cst.SimpleStatementLine, name: str) -> bool:
    """Whether the line assigns to `name` itself (not an item or attribute of it)."""
    for small in line.body:
        targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
            [small.target] if isinstance(small, (cst.AugAssign, cst.AnnAssign)) else []
        if any(isinstance(t, cst.Name) and t.value == name for t in targets):
            return True
    return False


# ---- helpers that can move into f ----------------------------------------------------------------
def _movable_helpers(module: cst.Module, entry: cst.FunctionDef) -> tuple[list[str], dict[str, set[str]]]:
    """Top-level helpers that can live inside f (nothing outside f's body needs them at module
    level), and for each helper the helpers whose bodies refer to it."""
    helpers = {s.name.value: s for s in module.body if isinstance(s, cst.FunctionDef) and s is not entry}
    refs = {name: _names_in(node) & set(helpers) - {name} for name, node in helpers.items()}
    fixed: set[str] = set()
    for statement in module.body:
        if statement is entry:
            header = entry.with_changes(body=cst.IndentedBlock(body=[]))
            fixed |= _names_in(header) & set(helpers)
        elif isinstance(statement, cst.FunctionDef):
            if statement.decorators or _names_in(statement.params) & set(helpers):
                fixed.add(statement.name.value)
                fixed |= _names_in(statement.params) & set(helpers)
        else:
            fixed |= _names_in(statement) & set(helpers)
    changed = True
    while changed:  # what a helper that stays at module level calls must stay there too
        changed = False
        for name in list(fixed):
            for called in refs[name] - fixed:
                fixed.add(called)
                changed = True
    movable = [name for name in helpers if name not in fixed]
    callers = {name: {other for other in movable if name in refs[other]} for name in movable}
    return movable, callers


# ---- writing f with some counters ----------------------------------------------------------------
@dataclass
class _Context:
    module: cst.Module
    entry: cst.FunctionDef
    names: set[str]
    stats: str
    sites: _Sites
    containers: list[str]
    counts: list[str]
    movable: list[str]
    callers: dict[str, set[str]]
    recursive: bool  # f calls or names itself: its body moves into an inner function
    candidates: list[Candidate]
    classes: list[str] = field(default_factory=list)  # module-level classes whose methods are counted
    multiplied: set[str] = field(default_factory=set)  # names stepped by `n *= x`: `_multiplied`
    reentering: list[str] = field(default_factory=list)  # movable helpers that call or name f: always moved


def _prepare(source: str, module: cst.Module | None = None, methods: bool = False) -> _Context:
    module = module if module is not None else cst.parse_module(source)
    entry = next((s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == "f"), None)
    if entry is None:
        raise ValueError("the anonymised source has no function f")
    names = _names_in(module)
    sites = _Sites(names)
    sites.local = _local_names(entry)
    sites.filling = _filling(module, entry)
    sites.bound_at_top = _module_names(module)
    walk(entry.body, sites)
    containers = _containers(entry)
    counts = _counts(entry)
    pieces = _pieces(entry, containers)
    movable, callers = _movable_helpers(module, entry)
    helpers = {s.name.value: s for s in module.body if isinstance(s, cst.FunctionDef)}
    sites.functions = 1
    for name in movable:  # what a helper does counts too, once it moves into f
        sites.helper = name
        sites.local = _local_names(helpers[name])
        walk(helpers[name].body, sites)
    sites.helper = None
    classes = [s for s in module.body if isinstance(s, cst.ClassDef)] if methods else []
    for statement in classes:  # a method stays in its class: its counters reach a module-level stats
        for method in _lines(statement.body):
            if isinstance(method, cst.FunctionDef):
                sites.method = f"{method.name.value} of the class {statement.name.value}"
                sites.local = _local_names(method)
                walk(method.body, sites)
    sites.functions, sites.method = 0, None
    recursive = _calls_itself(entry)
    candidates = list(sites.candidates)
    order = len(sites.number)
    for name in movable:
        candidates.append(Candidate(id=f"helper:{name}", role="call", anchor=name, order=order, main=True,
                                    explanation=f"how many times the helper `{name}` runs, however it is called"))
        order += 1
    for name in containers:
        candidates.append(Candidate(id=f"peak:{name}", role="peak", anchor=name, order=order, main=True,
                                    explanation=f"the largest number of items `{name}` holds at any point"))
        order += 1
    for name in counts:
        candidates.append(Candidate(id=f"high:{name}", role="high", anchor=name, order=order, main=True,
                                    explanation=f"the largest value `{name}` holds at any point (0 if it is "
                                                f"never above 0)"))
        order += 1
    for name in pieces:
        candidates.append(Candidate(id=f"peak:{name}", role="pieces", anchor=name, order=order, main=True,
                                    explanation=f"the largest length `{name}` has at any point"))
        order += 1
    for name in _changing(entry):
        candidates.append(Candidate(id=f"change:{name}", role="change", anchor=name, order=order, main=True,
                                    explanation=f"how many times `{name}` is given a new value, computed from "
                                                f"itself, that differs from the one it had"))
        order += 1
    for name in _appended(entry, containers):
        candidates.append(Candidate(id=f"falsy:{name}", role="falsy", anchor=name, order=order, main=True,
                                    explanation=f"how many of the items appended to `{name}` {FALSY}"))
        candidates.append(Candidate(id=f"again:{name}", role="again", anchor=name, order=order + 1, main=True,
                                    explanation=f"how many of the items appended to `{name}` equal an item "
                                                f"`{name}` already holds when it is appended"))
        order += 2
    if recursive:
        candidates.append(Candidate(id="recursion", role="recursion", anchor="f", order=-1, main=True,
                                    explanation="how many times the function's body runs, counting every recursive call"))
    stats = next(name for name in ("stats", "stats_", "tracked", "counts") if name not in names)
    # a helper moved into f that calls or names f (`g(x)` calling `f(x[0])`, `map(f, xs)`): reached
    # from inside f, `f` must be f's own body (the inner function), not the outer f returning stats too
    reentering = [name for name in movable if _names_itself(helpers[name])]
    return _Context(module, entry, names, stats, sites, containers + pieces, counts, movable, callers,
                    recursive or bool(reentering) or _names_itself(entry), candidates,
                    [c.name.value for c in classes], _multiplied(entry), reentering)


def _calls_itself(entry: cst.FunctionDef) -> bool:
    found = []

    class Find(Reader):
        def visit_Call(self, node):
            if isinstance(node.func, cst.Name) and node.func.value == "f":
                found.append(node)

    walk(entry.body, Find())
    return bool(found)


def _names_itself(entry: cst.FunctionDef) -> bool:
    """f's body reads `f` other than to call it (`helper(f, kwargs)`, `register(f)`): run from a
    self-contained copy, that name resolves only when f's body lives in an inner function, as a
    recursive f's does."""
    skipped = set()

    class Find(Reader):
        def visit_Attribute(self, node):
            skipped.add(id(node.attr))

        def visit_Arg(self, node):
            if node.keyword is not None:
                skipped.add(id(node.keyword))

        def visit_Name(self, node):
            if node.value == "f" and id(node) not in skipped:
                found.append(node)

    found = []
    walk(entry.body, Find())
    return bool(found)


class _Writer:
    """Rewrites f's statements with the counters in `keys` (candidate id -> stats key), turning
    the comprehensions and lambdas in `convert` into inner functions."""

    def __init__(self, context: _Context, keys: dict[str, str], convert: set[int], probing: bool = False):
        self.context = context
        self.probing = probing
        self.keys = keys
        self.convert = convert
        self.emitted: set[str] = set()
        self.made: dict[int, str] = {}  # comprehension / lambda site -> the inner function it became
        self.olds: dict[str, str] = {}  # a name counted for its changes -> the name keeping its old value
        self.taken = set(context.names) | {context.stats}
        self.wrap_returns = False  # f's own `return X` becomes `return (X, stats)` (not a recursive f's)
        self.roles = {candidate.rstrip("0123456789") for candidate in keys}  # a line is searched only for these
        self.depth = 0  # inner functions entered: their returns stay as they are
        self.inner: str | None = None  # a recursive f's body moves into this inner function, calls and all
        self.done: set[int] = set()  # counted calls of TOTALS worked out into their counter, appending lines counted
        self.appending = {f"{role}:{name}" for name in context.containers for role in ("falsy", "again")}  # keys
        # counting appended items

    def fresh(self, prefix: str) -> str:
        number = 1
        while f"{prefix}{number}" in self.taken:
            number += 1
        self.taken.add(f"{prefix}{number}")
        return f"{prefix}{number}"

    def bump(self, candidate: str) -> list[cst.BaseStatement]:
        if candidate not in self.keys:
            return []
        self.emitted.add(candidate)
        return [_statement(f"{self.context.stats}[{self.keys[candidate]!r}] += 1")]

    def site(self, node) -> int | None:
        return self.context.sites.number.get(id(node))

    def role_id(self, role: str, node) -> str:
        site = self.site(node)
        return f"{role}{site}" if site is not None else ""

    # statements
    def block(self, statements: Sequence[cst.BaseStatement], peaks: list[str]) -> list[cst.BaseStatement]:
        out: list[cst.BaseStatement] = []
        for statement in statements:
            out.extend(self.statement(statement, peaks))
        return out

    def suite(self, suite: cst.BaseSuite, peaks: list[str], first: list[cst.BaseStatement] = ()) -> cst.IndentedBlock:
        return _block(suite, [*first, *self.block(_lines(suite), peaks)])

    def statement(self, statement: cst.BaseStatement, peaks: list[str]) -> list[cst.BaseStatement]:
        hoisted: list[cst.BaseStatement] = []
        if isinstance(statement, cst.SimpleStatementLine) and self.keys.keys() & self.appending:
            steps = self.appended_item(statement)
            if steps:
                return [*self.block(steps[:1], peaks), *steps[1:-1], *self.statement(steps[-1], peaks)]
        if isinstance(statement, cst.SimpleStatementLine) and "total" in self.roles:
            steps, line = self.totals(statement)
            if steps:
                return [*self.block(steps, peaks), *self.statement(line, peaks)]
        if isinstance(statement, cst.SimpleStatementLine):
            choice = self.choice(statement)
            if choice is not None:
                return self.statement(choice, peaks)
            small = statement.body[0]
            checks = self.checks(small.value) if isinstance(small, (cst.Return, cst.Assign)) else None
            if checks is not None:
                steps, result = checks
                rest = statement.with_changes(body=[small.with_changes(value=result)])
                return [*self.block(steps, peaks), *self.statement(rest, peaks)]
            line = self.hoist(statement, hoisted)
            before, after = self.change(statement)
            before = [*self.known_key(statement), *self.missing_keys(statement), *self.inline_choices(statement),
                      *self.found_keys(statement), *self.changed_characters(statement), *before]
            if peaks and not _returns(statement):
                named = _names_in(statement)  # any line naming a container may change it (a helper it is passed to)
                stats = self.context.stats
                for name in peaks:
                    key = self.keys.get(f"peak:{name}")
                    if key and name in named:
                        self.emitted.add(f"peak:{name}")
                        after.append(_statement(f"{stats}[{key!r}] = max({stats}[{key!r}], len({name}))"))
                    key = self.keys.get(f"high:{name}")
                    if key and _binds(statement, name):
                        self.emitted.add(f"high:{name}")
                        after.append(_statement(f"{stats}[{key!r}] = max({stats}[{key!r}], {name})"))
            return [*hoisted, *before, self.wrapped(line), *after, *self.stepped_item(statement)]
        if isinstance(statement, cst.If):
            test_hoisted: list[cst.BaseStatement] = []
            steps, test = self.totals(statement.test) if "total" in self.roles else ([], statement.test)
            if steps:
                test_hoisted = self.block(steps, peaks)
            test_hoisted.extend(self.found_keys(test))  # (one inside a worked-out total: counted by its step)
            test_hoisted.extend(self.changed_characters(test))
            rewritten = self.if_(statement, peaks, test_hoisted, test)  # an elif's functions go before the whole `if`
            checks = self.checks(statement.test)
            if checks is not None:
                steps, result = checks
                return [*test_hoisted, *self.block(steps, peaks), _with_test(rewritten, result)]
            return [*test_hoisted, rewritten]
        if isinstance(statement, (cst.For, cst.While)):
            header = (statement.with_changes(iter=self.hoist(statement.iter, hoisted)) if isinstance(statement, cst.For)
                      else _with_test(statement, self.hoist(statement.test, hoisted)))
            body = self.suite(statement.body, peaks, self.bump(self.role_id("loop", statement)))
            orelse = statement.orelse and statement.orelse.with_changes(body=self.suite(statement.orelse.body, peaks))
            return [*hoisted, header.with_changes(body=body, orelse=orelse)]
        if isinstance(statement, (cst.Try, cst.TryStar)):
            return [statement.with_changes(
                body=self.suite(statement.body, peaks),
                handlers=[h.with_changes(body=self.suite(h.body, peaks, self.bump(self.role_id("caught", h))))
                          for h in statement.handlers],
                orelse=statement.orelse and statement.orelse.with_changes(body=self.suite(statement.orelse.body, peaks)),
                finalbody=statement.finalbody and statement.finalbody.with_changes(
                    body=self.suite(statement.finalbody.body, peaks)))]
        if isinstance(statement, cst.With):
            items = [item.with_changes(item=self.hoist(item.item, hoisted)) for item in statement.items]
            return [*hoisted, statement.with_changes(items=items, body=self.suite(statement.body, peaks))]
        if isinstance(statement, cst.Match):
            return [statement.with_changes(cases=[c.with_changes(body=self.suite(c.body, peaks))
                                                  for c in statement.cases])]
        if isinstance(statement, cst.FunctionDef):
            first = self.bump(self.role_id("call", statement)) if self.site(statement) is not None else []
            self.depth += 1
            body = self.suite(statement.body, [], first)
            self.depth -= 1
            return [statement.with_changes(body=body)]
        return [statement]

    def wrapped(self, line: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        """A line of f itself with each `return X` as `return (X, stats)`."""
        if not self.wrap_returns or self.depth or not any(isinstance(small, cst.Return) for small in line.body):
            return line
        return line.with_changes(body=[_returning(small.value, self.context.stats) if isinstance(small, cst.Return)
                                       else small for small in line.body])

    def change(self, line: cst.SimpleStatementLine) -> tuple[list, list]:
        """Around a line recomputing counted names (`a = <from a>`): keep each old value, count when
        the new one differs."""
        before, after = [], []
        for name in _recomputed(line):
            if f"change:{name}" not in self.keys:
                continue
            if name not in self.olds:  # one name for "the value it had", however many steps
                self.olds[name] = self.fresh("v")
            old = self.olds[name]
            before.append(_statement(f"{old} = {name}"))
            after.append(cst.If(test=cst.parse_expression(f"{name} != {old}"),
                                body=cst.IndentedBlock(body=self.bump(f"change:{name}"))))
            if self.probing and name in self.context.multiplied and isinstance(line.body[0], cst.AugAssign):
                # a value that can change in place (`n *= [0]` made a list) is the same object after
                # its step: the count could miss a change, so the probe makes it no whole number
                key = f"{self.context.stats}[{self.keys['change:' + name]!r}]"
                after.append(_statement(f"if not isinstance({old}, (int, float, complex, str, bytes, tuple)): "
                                        f"{key} += 0.5"))
        return before, after

    def checks(self, chain) -> tuple[list[cst.BaseStatement], cst.Name] | None:
        """A counted `a or b or c` as steps that work out one part at a time into a fresh name, with
        a counter on each part worked out, and that name (None when the chain is not counted)."""
        key = self.role_id("checks", chain)
        if key not in self.keys:
            return None
        result = self.fresh("v")
        steps: list[cst.BaseStatement] = []
        for part in reversed(_chain_parts(chain)):
            work = [cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(result))], part)]), *self.bump(key)]
            if steps:
                test = cst.UnaryOperation(cst.Not(), cst.Name(result)) if isinstance(chain.operator, cst.Or) \
                    else cst.Name(result)
                work.append(cst.If(test=test, body=cst.IndentedBlock(body=steps)))
            steps = work
        return steps, cst.Name(result)

    def totals(self, node: cst.CSTNode) -> tuple[list[cst.BaseStatement], cst.CSTNode]:
        """The counted calls of TOTALS in a line or an `if`'s test, outermost first, each worked out
        into its counter in a step of its own, and the node reading the counters in their place
        (a counted call inside a counted one is worked out by its own step in turn)."""
        find = _CountedTotals(self)
        walk(node, find)
        steps, counters = [], {}
        for call in find.found:
            key = self.role_id("total", call)
            self.done.add(id(call))
            self.emitted.add(key)
            counter = cst.parse_expression(f"{self.context.stats}[{self.keys[key]!r}]")
            steps.append(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(counter)], call)]))
            counters[id(call)] = counter
        return steps, node.visit(_Replace(counters)) if counters else node

    def appended_item(self, line: cst.SimpleStatementLine) -> list[cst.BaseStatement]:
        """A counted `xs.append(item)` as `v = item`, `if not v:` and / or `if v in xs:` with their
        counters, `xs.append(v)` (the item worked out once, as before); [] when the line is not counted."""
        added = _append_line(line)
        falsy, again = (f"{role}:{added[0].value}" if added is not None else "" for role in ("falsy", "again"))
        if not {falsy, again} & self.keys.keys() or id(line) in self.done:
            return []
        call, item = line.body[0].value, self.fresh("v")
        work = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(item))], _one_line(call.args[0].value))])
        count = [*(self.false_item(falsy, item) if falsy in self.keys else []),
                 *(self.equal_item(again, item, added[0].value, held=True) if again in self.keys else [])]
        added = call.with_changes(args=[call.args[0].with_changes(value=cst.Name(item))])
        rest = line.with_changes(body=[line.body[0].with_changes(value=added)])
        self.done.add(id(rest))  # its item is counted already
        return [work, *count, rest]

    def false_item(self, key: str, item: str) -> list[cst.BaseStatement]:
        """`if not item:` with the counter `key`; in the probe, a decimal item also makes the counter a
        decimal number, so it is not chosen: whether a worked-out decimal is exactly 0 is no question
        to ask (0.1 + 0.2 - 0.3 is not)."""
        count = [cst.If(test=cst.UnaryOperation(cst.Not(), cst.Name(item)), body=cst.IndentedBlock(body=self.bump(key)))]
        if self.probing:
            count.append(_statement(f"if isinstance({item}, float): {self.context.stats}[{self.keys[key]!r}] += 0.5"))
        return count

    def equal_item(self, key: str, item: str, made: str, held: bool = False) -> list[cst.BaseStatement]:
        """`if item in made:` with the counter `key`; in the probe, an item (or, with `held`, anything
        `made` holds already: what it started with) of another kind than PLAIN_ITEMS also makes the
        counter a decimal number, so it is not chosen: whether two worked-out decimals are equal is no
        question to ask, nor whether true equals 1."""
        count = [cst.If(test=cst.Comparison(cst.Name(item), [cst.ComparisonTarget(cst.In(), cst.Name(made))]),
                        body=cst.IndentedBlock(body=self.bump(key)))]
        if self.probing:
            kinds = f"{{type({item}), *map(type, {made})}}" if held else f"{{type({item})}}"
            count.append(_statement(f"if not {kinds} <= {{{PLAIN_ITEMS[1:-1]}}}: "
                                    f"{self.context.stats}[{self.keys[key]!r}] += 0.5"))
        return count

    def known_key(self, line: cst.SimpleStatementLine) -> list[cst.BaseStatement]:
        """Before `m[k] = v`: count it when m is a dictionary that already has k."""
        key = self.role_id("known", line)
        if key not in self.keys:
            return []
        holder, name = (_code(part) for part in _keyed_write(line))
        return [cst.If(test=cst.parse_expression(f"isinstance({holder}, dict) and {name} in {holder}"),
                       body=cst.IndentedBlock(body=self.bump(key)))]

    def missing_keys(self, line: cst.SimpleStatementLine) -> list[cst.BaseStatement]:
        """Before a line, `if k not in m:` with a counter for each counted read `m[k]` in it (a
        comprehension's item too, once it is the line of an inner function that gives it)."""
        if "missing" not in self.roles:
            return []
        find = _CountedReads(self)
        walk(line, find)
        return find.found

    def stepped_item(self, line: cst.SimpleStatementLine) -> list[cst.BaseStatement]:
        """After a counted step `m[k] += n`: keep the largest value the item has had."""
        key = self.role_id("cell", line)
        if key not in self.keys:
            return []
        self.emitted.add(key)
        holder, name = (_code(part) for part in _keyed_write(line))
        counter = f"{self.context.stats}[{self.keys[key]!r}]"
        return [_statement(f"{counter} = max({counter}, {holder}[{name}])")]

    def found_keys(self, line: cst.CSTNode) -> list[cst.BaseStatement]:
        """Before a line (or an `if`), `if isinstance(m, dict) and k in m:` with a counter, for each counted lookup
        `m.get(k, d)` in it (a comprehension's item too, once it is the line of an inner function)."""
        if "found" not in self.roles:
            return []
        find = _CountedLookups(self)
        walk(line, find)
        return find.found

    def changed_characters(self, line: cst.CSTNode) -> list[cst.BaseStatement]:
        """Before a line (or an `if`), for each counted `text.translate(table)` in it, a loop over the
        text's characters counting those that `translate` changes (one character translated alone comes
        out as it would in the whole text). In the probe, a text that is no `str` (bytes translate by
        another rule) is not walked, and makes the counter a decimal number, so it is not chosen."""
        if "mapped" not in self.roles:
            return []
        find = _CountedTranslations(self)
        walk(line, find)
        steps = []
        for call in find.found:
            key = self.role_id("mapped", call)
            text, table, each = _code(call.func.value), _code(call.args[0].value), self.fresh("v")
            loop = cst.For(target=cst.Name(each), iter=cst.parse_expression(text), body=cst.IndentedBlock(body=[
                cst.If(test=cst.parse_expression(f"{each}.translate({table}) != {each}"),
                       body=cst.IndentedBlock(body=self.bump(key)))]))
            if self.probing:
                loop = cst.If(test=cst.parse_expression(f"isinstance({text}, str)"), body=cst.IndentedBlock(body=[loop]),
                              orelse=cst.Else(body=cst.IndentedBlock(body=[
                                  _statement(f"{self.context.stats}[{self.keys[key]!r}] += 0.5")])))
            steps.append(loop)
        return steps

    def inline_choices(self, line: cst.SimpleStatementLine) -> list[cst.BaseStatement]:
        """Before a line, `if <test>:` with a counter for each counted choice inside it."""
        if "inline" not in self.roles:
            return []
        find = _InlineChoices(self)
        walk(line, find)
        return find.found

    def choice(self, line: cst.SimpleStatementLine) -> cst.If | None:
        """`return a if x else b` (or an assignment of it) as `if x: return a` / `else: return b`,
        with a counter on each counted choice; None when no choice in the line is counted."""
        [small] = line.body if len(line.body) == 1 else [None]
        chain = []
        value = getattr(small, "value", None) if isinstance(small, (cst.Return, cst.Assign, cst.AnnAssign)) else None
        while isinstance(value, cst.IfExp) and self.site(value) is not None:
            chain.append(value)
            value = value.orelse
        if not any(self.role_id("pick", c) in self.keys for c in chain):
            return None
        orelse = cst.Else(body=cst.IndentedBlock(body=[line.with_changes(body=[small.with_changes(value=value)])]))
        for node in reversed(chain):
            body = [*self.bump(self.role_id("pick", node)), line.with_changes(body=[small.with_changes(value=node.body)])]
            orelse = cst.If(test=node.test, body=cst.IndentedBlock(body=body), orelse=orelse)
        return orelse

    def if_(self, statement: cst.If, peaks: list[str], hoisted: list, test: cst.BaseExpression | None = None) -> cst.If:
        test = self.hoist(statement.test if test is None else test, hoisted)
        body = self.suite(statement.body, peaks, self.bump(self.role_id("branch", statement)))
        orelse = statement.orelse
        if isinstance(orelse, cst.If):
            orelse = self.if_(orelse, peaks, hoisted)
        elif orelse is not None:
            orelse = orelse.with_changes(body=self.suite(orelse.body, peaks))
        return _with_test(statement, test).with_changes(body=body, orelse=orelse)

    # comprehensions and lambdas into inner functions
    def hoist(self, node: cst.CSTNode, hoisted: list[cst.BaseStatement]) -> cst.CSTNode:
        sites = self.context.sites
        if id(node) in sites.known and id(node) not in sites.holders:
            return node  # nothing to turn into a function in there
        return node.visit(_Hoist(self, hoisted))

    def function_for(self, node, hoisted: list[cst.BaseStatement]) -> cst.BaseExpression:
        name = self.fresh("g")
        self.made[self.site(node)] = name
        if isinstance(node, cst.Lambda):
            body = [*self.bump(self.role_id("call", node)), cst.SimpleStatementLine([cst.Return(value=_held(node.body))])]
            definition = cst.FunctionDef(name=cst.Name(name), params=node.params, body=cst.IndentedBlock(body=body))
            hoisted.extend(self.statement(definition, []))
            return cst.Name(name)
        clauses = []
        clause = node.for_in
        while clause is not None:
            clauses.append(clause)
            clause = clause.inner_for_in
        source = self.fresh("v")
        lazy = isinstance(node, cst.GeneratorExp) and id(node) not in self.context.sites.eager
        result = None if lazy else self.fresh("v")
        key = _repeat_key(node)
        repeat = self.bump(self.role_id("repeat", node)) if key is not None and result is not None else []
        if repeat:
            repeat = [cst.If(test=cst.Comparison(key, [cst.ComparisonTarget(cst.In(), cst.Name(result))]),
                             body=cst.IndentedBlock(body=repeat))]
        element = node.elt if not isinstance(node, cst.DictComp) else None
        falsy, again = self.role_id("falsy", node), self.role_id("again", node)
        again = again if result is not None and not isinstance(node, (cst.SetComp, cst.DictComp)) else ""
        counted: list[cst.BaseStatement] = []
        if {falsy, again} & self.keys.keys():  # the item worked out once into a name, then asked about, then kept
            item = self.fresh("v")
            counted = [cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(item))], _one_line(element))]),
                       *(self.false_item(falsy, item) if falsy in self.keys else []),
                       *(self.equal_item(again, item, result) if again in self.keys else [])]
            element = cst.Name(item)
        if isinstance(node, cst.DictComp):
            produce = cst.Assign(targets=[cst.AssignTarget(cst.Subscript(
                value=cst.Name(result), slice=[cst.SubscriptElement(cst.Index(node.key))]))], value=node.value)
        elif result is not None:
            method = "add" if isinstance(node, cst.SetComp) else "append"
            produce = cst.Expr(cst.Call(func=cst.Attribute(cst.Name(result), cst.Name(method)), args=[cst.Arg(element)]))
        else:
            produce = cst.Expr(cst.Yield(value=element))
        body: list[cst.BaseStatement] = [*self.bump(self.role_id("kept", node)), *repeat, *counted,
                                         cst.SimpleStatementLine([produce])]
        for index in range(len(clauses) - 1, -1, -1):
            clause = clauses[index]
            for condition in reversed(clause.ifs):
                body = [cst.If(test=_held(condition.test), body=cst.IndentedBlock(body=body))]
            if index == len(clauses) - 1:
                body = [*self.bump(self.role_id("iter", node)), *body]
            iterable = cst.Name(source) if index == 0 else _held(clause.iter)
            body = [cst.For(target=clause.target, iter=iterable, body=cst.IndentedBlock(body=body))]
        if result is not None:
            empty = {cst.SetComp: "set()", cst.DictComp: "{}"}.get(type(node), "[]")
            body = [_statement(f"{result} = {empty}"), *body, _statement(f"return {result}")]
        definition = cst.FunctionDef(name=cst.Name(name), params=cst.Parameters(params=[cst.Param(cst.Name(source))]),
                                     body=cst.IndentedBlock(body=body))
        hoisted.extend(self.statement(definition, []))
        call = cst.Call(func=cst.Name(name), args=[cst.Arg(clauses[0].iter)])
        return call.with_changes(lpar=node.lpar, rpar=node.rpar) if node.lpar else call


class _CountedReads(Reader):
    """`if k not in m:` with a counter, for each read `m[k]` under a node that `writer` counts; not
    inside a comprehension or lambda, which count their own once they are functions."""

    def __init__(self, writer: _Writer):
        super().__init__()
        self.writer, self.found = writer, []

    def visit_Subscript(self, node):
        key = self.writer.role_id("missing", node)
        if key in self.writer.keys:
            test = cst.Comparison(node.slice[0].slice.value, [cst.ComparisonTarget(cst.NotIn(), node.value)])
            self.found.append(cst.If(test=test, body=cst.IndentedBlock(body=self.writer.bump(key))))

    def on_visit(self, node):
        return not isinstance(node, (cst.Lambda, *COMPREHENSIONS)) and super().on_visit(node)


class _CountedLookups(Reader):
    """`if isinstance(m, dict) and k in m:` with a counter, for each lookup `m.get(k, d)` under a
    node that `writer` counts; not inside a comprehension or lambda, which count their own."""

    def __init__(self, writer: _Writer):
        super().__init__()
        self.writer, self.found = writer, []

    def visit_Call(self, node):
        key = self.writer.role_id("found", node)
        if key in self.writer.keys:
            holder, name = _code(node.func.value), _code(node.args[0].value)
            if not isinstance(node.args[0].value, (cst.Name, cst.Attribute, cst.Subscript, cst.BaseNumber,
                                                   cst.SimpleString)):
                name = f"({name})"
            test = cst.parse_expression(f"isinstance({holder}, dict) and {name} in {holder}")
            self.found.append(cst.If(test=test, body=cst.IndentedBlock(body=self.writer.bump(key))))

    def on_visit(self, node):
        return not isinstance(node, (cst.Lambda, *COMPREHENSIONS)) and super().on_visit(node)


class _CountedTranslations(Reader):
    """The calls `text.translate(table)` under a node that `writer` counts; not inside a comprehension
    or lambda, which count their own once they are functions."""

    def __init__(self, writer: _Writer):
        super().__init__()
        self.writer, self.found = writer, []

    def visit_Call(self, node):
        if self.writer.role_id("mapped", node) in self.writer.keys:
            self.found.append(node)

    def on_visit(self, node):
        return not isinstance(node, (cst.Lambda, *COMPREHENSIONS)) and super().on_visit(node)


class _CountedTotals(Reader):
    """The calls of TOTALS or MEASURES that `writer` counts and has not worked out yet, outermost first."""

    def __init__(self, writer: _Writer):
        super().__init__()
        self.writer, self.found = writer, []

    def visit_Call(self, node):
        if id(node) not in self.writer.done and self.writer.role_id("total", node) in self.writer.keys:
            self.found.append(node)
            return False
        return True


class _Replace(cst.CSTTransformer):
    """Nodes put in place of others, found by identity; every node not holding one is kept itself,
    so the other counters, found by identity too, still find theirs."""

    def __init__(self, by_id: dict[int, cst.CSTNode]):
        super().__init__()
        self.by_id, self.holding, self.path = by_id, set(), []

    def on_visit(self, node):
        self.path.append(node)
        if id(node) in self.by_id:
            self.holding.update(id(n) for n in self.path)
        return id(node) not in self.by_id

    def on_leave(self, original, updated):
        self.path.pop()
        if id(original) in self.by_id:
            return self.by_id[id(original)]
        return updated if id(original) in self.holding else original


class _InlineChoices(Reader):
    """`if <test>:` with a counter for each conditional expression `writer` counts inline."""

    def __init__(self, writer: _Writer):
        super().__init__()
        self.writer, self.found = writer, []

    def visit_IfExp(self, node):
        key = self.writer.role_id("inline", node)
        if key in self.writer.keys:
            self.found.append(cst.If(test=node.test, body=cst.IndentedBlock(body=self.writer.bump(key))))


class _Hoist(cst.CSTTransformer):
    """The comprehensions and lambdas under a node that `writer` converts, made inner functions
    (appended to `hoisted`) and called in their place. libcst asks at every node whether its
    visitor is a CSTVisitor: for a class made anew each call, that abstract-class check walked
    every visitor class alive (a fifth of instrument's time)."""

    def __init__(self, writer: _Writer, hoisted: list[cst.BaseStatement]):
        super().__init__()
        self.writer, self.hoisted, self.sites = writer, hoisted, writer.context.sites

    def on_visit(self, inner):
        if isinstance(inner, (cst.Lambda, *COMPREHENSIONS)):
            return False  # handled whole, on leaving
        return id(inner) not in self.sites.known or id(inner) in self.sites.holders

    def on_leave(self, original, updated):
        if isinstance(original, (cst.Lambda, *COMPREHENSIONS)) and self.writer.site(original) in self.writer.convert:
            return self.writer.function_for(original, self.hoisted)
        return updated


def _render(context: _Context, keys: dict[str, str], convert: set[int], moved: list[str],
            probing: bool = False) -> tuple[str, _Writer]:
    """f with the counters in `keys`, the helpers in `moved` inside it; and the counters written
    (`probing`: the probe's, which may rule themselves out)."""
    writer = _Writer(context, keys, convert, probing)
    stats = context.stats
    entry = context.entry
    helpers = {s.name.value: s for s in context.module.body if isinstance(s, cst.FunctionDef)}
    inner_helpers: list[cst.BaseStatement] = []
    for name in moved:  # as they are, but for their own counter
        body = helpers[name].body
        inner_helpers.append(helpers[name].with_changes(
            body=_block(body, [*writer.bump(f"helper:{name}"), *writer.block(_lines(body), [])])))
    peaks = [name for name in context.containers if f"peak:{name}" in keys] + \
        [name for name in context.counts if f"high:{name}" in keys]
    emitted = set(writer.emitted)
    classes = {s.name.value: _counted_class(s, writer) for s in context.module.body
               if isinstance(s, cst.ClassDef) and s.name.value in context.classes}
    counted_in_classes = writer.emitted != emitted
    writer.wrap_returns = not context.recursive
    body = writer.block(_lines(entry.body), peaks)
    writer.wrap_returns = False
    initial = {key: 0 for key in keys.values()}
    shared = [_statement(f"global {stats}")] if counted_in_classes else []  # the methods' counters reach it there
    if context.recursive:
        new_entry = _wrap_recursive(entry, body, stats, initial, writer, inner_helpers, shared)
    else:
        if not body or not _always_returns(body[-1]):
            body.append(cst.SimpleStatementLine([_returning(None, stats)]))
        new_entry = entry.with_changes(body=_block(entry.body, [*shared, _statement(f"{stats} = {initial!r}"),
                                                                *inner_helpers, *body]))
    kept = [s for s in context.module.body
            if not (isinstance(s, cst.FunctionDef) and s.name.value in moved)]
    new_module = context.module.with_changes(body=[
        new_entry if s is entry else classes.get(s.name.value, s) if isinstance(s, cst.ClassDef) else s for s in kept])
    return new_module.code, writer


def _counted_class(statement: cst.ClassDef, writer: _Writer) -> cst.ClassDef:
    """The class with the counters of its methods, which stay in it (`_prepare`'s `methods`)."""
    if isinstance(statement.body, cst.SimpleStatementSuite):
        return statement
    lines = [line.with_changes(body=_block(line.body, writer.block(_lines(line.body), [])))
             if isinstance(line, cst.FunctionDef) else line for line in statement.body.body]
    return statement.with_changes(body=statement.body.with_changes(body=lines))


def _returning(value: cst.BaseExpression | None, stats: str) -> cst.Return:
    """`return (X, stats)` for f's `return X`."""
    code = _code(value) if value is not None else "None"
    if isinstance(value, cst.Tuple) and not value.lpar:
        code = f"({code})"  # `return a, b` must stay one value
    return cst.parse_statement(f"return ({code}, {stats})").body[0]


def _wrap_recursive(entry: cst.FunctionDef, body, stats: str, initial: dict, writer: _Writer,
                    inner_helpers: list, shared: list) -> cst.FunctionDef:
    """f(params): stats = ...; def gN(params): <body, recursion to gN>; return (gN(params), stats)."""
    inner_name = writer.fresh("g")
    writer.inner = inner_name
    inner_body = [*writer.bump("recursion"), *body]

    class Redirect(cst.CSTTransformer):
        def leave_Name(self, original, updated):
            return updated.with_changes(value=inner_name) if updated.value == "f" else updated

    inner = entry.with_changes(name=cst.Name(inner_name), body=_block(entry.body, inner_body))
    inner = inner.with_changes(body=inner.body.visit(Redirect()))
    inner_helpers = [helper.visit(Redirect()) for helper in inner_helpers]  # a helper calling f reaches gN too
    keyword_only = {id(p) for p in entry.params.kwonly_params}
    arguments = [
        f"{p.name.value}={p.name.value}" if id(p) in keyword_only else f"{p.star if isinstance(p.star, str) else ''}{p.name.value}"
        for p in cst_parameters(entry)
    ]
    call = f"{inner_name}({', '.join(arguments)})"
    outer_body = [*shared, _statement(f"{stats} = {initial!r}"), *inner_helpers, inner,
                  _statement(f"return ({call}, {stats})")]
    return entry.with_changes(body=_block(entry.body, outer_body))


# ---- the three steps -------------------------------------------------------------------------------
def propose(source: str, module: cst.Module | None = None, methods: bool = False) -> Probe:
    """f with every candidate counter (keys t0, t1, ...); raises NothingToTrack when there are none.
    `module`, when given, is `source`'s tree (anonymise made it): not parsed again. `methods`: count
    in the methods of the module's classes too, through a `stats` f makes global."""
    context = _prepare(source, module, methods)
    keys = {candidate.id: f"t{index}" for index, candidate in enumerate(context.candidates)}
    convert = {site for candidate in context.candidates for site in candidate.needs}
    code, writer = _render(context, keys, convert, context.movable, probing=True)
    candidates = [c for c in context.candidates if c.id in writer.emitted]  # e.g. not a lambda in a default value
    if not candidates:
        raise NothingToTrack("f has no loop, branch, comprehension, function call or growing container to count")
    if len(candidates) < len(keys):
        code, _ = _render(context, {c.id: keys[c.id] for c in candidates}, convert, context.movable, probing=True)
    return Probe(source=code, candidates=candidates, keys={c.id: keys[c.id] for c in candidates}, context=context)


def _input_facts(args: list) -> list[int | None]:
    """What a tracker must not merely repeat: each argument's length, or its value if a whole number."""
    facts = []
    for value in args:
        if isinstance(value, (str, list, dict)):
            facts.append(len(value))
        elif isinstance(value, int) and not isinstance(value, bool):
            facts.append(value)
        else:
            facts.append(None)
    return facts


def _problem(values: tuple, facts: list[list], limit: float) -> str | None:
    """Why one tracker's values over the cases tell nothing, or None."""
    if not values:
        return "no cases"
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "not a whole number"
    if max(values) >= limit:
        return f"reaching {limit:g}"
    if len(set(values)) < 2:
        return "constant"
    for position in range(max(len(fact) for fact in facts)):  # cases may give different numbers of arguments
        if all(position < len(fact) and fact[position] == value for fact, value in zip(facts, values)):
            return f"always argument {position + 1}'s length or value"
    if all(len(fact) == value for fact, value in zip(facts, values)):  # `f(*a)` called with 1, 4, ... values
        return "always the number of arguments"
    return None


def tracker_problems(names: list[str], cases: list[tuple[list, dict]], limit: float = float("inf")) -> list[str]:
    """What is wrong with trackers someone else chose (an LLM), judged like candidates: one line each."""
    facts = [_input_facts(args) for args, _ in cases]
    values = {name: tuple(stats.get(name) for _, stats in cases) for name in names}
    found = [f"tracker '{name}' is {problem}" for name in names
             if (problem := _problem(values[name], facts, limit))]
    seen: dict[tuple, str] = {}
    for name in names:
        if values[name] in seen:
            found.append(f"trackers '{seen[values[name]]}' and '{name}' are equal on every input")
        seen.setdefault(values[name], name)
    return found


def returned_counters(output) -> dict[tuple, int]:
    """The counters a function returns itself, by where they sit: the whole numbers under a key of
    a returned dict, two levels deep (`(val, {"calls": c})` gives (1, "calls"); `{"depth": d}`
    gives ("depth",)). A returned number alone, or a tuple's, is the answer, not a counter."""
    return {path: number for path, number in _numbers(output, 2).items() if any(isinstance(k, str) for k in path)}


def _numbers(output, depth: int) -> dict[tuple, int]:
    if isinstance(output, int) and not isinstance(output, bool):
        return {(): output}
    found: dict[tuple, int] = {}
    if depth and isinstance(output, (list, dict)):
        items = output.items() if isinstance(output, dict) else enumerate(output)
        for key, value in items:
            for path, number in _numbers(value, depth - 1).items():
                found[(key, *path)] = number
    return found


def _repeats_returned(values: tuple, returned: list[dict[tuple, int]]) -> tuple | None:
    """Where the function already returns these values on every case, or None."""
    if not returned or len(returned) != len(values):
        return None
    common = set(returned[0]).intersection(*returned[1:])
    return next((path for path in sorted(common, key=repr)
                 if all(counters[path] == value for counters, value in zip(returned, values))), None)


def choose(candidates: list[Candidate], cases: list[tuple[list, dict[str, int]]],
           limit: float = float("inf"), returned: list[dict[tuple, int]] | None = None,
           last_resort: bool = False) -> list[Candidate]:
    """The 1 to 3 candidates to keep, judged on `cases` (arguments, {candidate id: value}): each
    varies, stays under `limit`, is not an argument's length or value in every case, is not a number
    the function returns itself in every case (`returned`, per case: `returned_counters` of its
    output; the model would be asked the same thing twice) and copies no other; kinds as diverse as
    can be, f's own statements first; the fallback kinds only when no other candidate qualifies; the
    last-resort kinds (LAST_RESORT_ROLES) are left out, neither judged nor counted, unless
    `last_resort`. Raises NothingInformative."""
    if not last_resort:
        candidates = [c for c in candidates if c.role not in LAST_RESORT_ROLES]
    reasons: dict[str, int] = {}
    facts = [_input_facts(args) for args, _ in cases]
    usable: dict[tuple, Candidate] = {}
    ranked = sorted(candidates, key=lambda c: (c.tier, not c.main, KINDS[c.role][2], c.order))
    tier = None  # the tier of the usable ones
    for candidate in ranked:
        if usable and candidate.tier > tier:
            break  # something better tells already
        values = tuple(stats.get(candidate.id) for _, stats in cases)
        problem = _problem(values, facts, limit)
        if not problem and _repeats_returned(values, returned or []) is not None:
            problem = "a number the function returns itself"
        if problem:
            reasons[problem] = reasons.get(problem, 0) + 1
        else:
            usable.setdefault(values, candidate)  # the first of identical ones (best ranked)
            tier = candidate.tier if tier is None else tier
    if not usable:
        found = ", ".join(f"{n} {why}" for why, n in reasons.items())
        raise NothingInformative(f"none of {len(candidates)} candidate trackers tells something over "
                                 f"{len(cases)} cases ({found or 'no cases'})")
    spread = {candidate.id: len(set(values)) for values, candidate in usable.items()}
    pool = sorted(usable.values(), key=lambda c: (not c.main, KINDS[c.role][2], -spread[c.id], c.order))
    chosen: list[Candidate] = []
    while pool and len(chosen) < MAX_TRACKERS:
        kinds = {c.kind for c in chosen}
        pick = next((c for c in pool if c.kind not in kinds), pool[0])
        chosen.append(pick)
        pool.remove(pick)
    return chosen


def build(probe: Probe, chosen: list[Candidate]) -> tuple[str, list[Tracker]]:
    """f with only the chosen counters, under neutral names, and what each counts."""
    context = probe.context
    names: dict[str, str] = {}
    for candidate in chosen:
        base = KINDS[candidate.role][0]
        name, number = base, 2
        while name in names.values():
            name, number = f"{base}_{number}", number + 1
        names[candidate.id] = name
    convert = {site for candidate in chosen for site in candidate.needs}
    moved = _move_closure([c.anchor if c.id.startswith("helper:") else c.helper for c in chosen
                           if c.id.startswith("helper:") or c.helper] + context.reentering, context)
    code, writer = _render(context, names, convert, moved)
    missing = [c.id for c in chosen if c.id not in writer.emitted]
    if missing:
        raise ValueError(f"trackers {missing} could not be placed")
    trackers = [_tracker(c, names[c.id], writer.made.get(c.order) if c.needs else None) for c in chosen]
    if writer.inner is not None:  # `for x in f(a[1:])` is now `for x in g1(a[1:])`: say the name the code has
        def redirect(fragment: re.Match) -> str:
            return _CALL_OF_F.sub(writer.inner, fragment[0])

        trackers = [t.model_copy(update={"explanation": _FRAGMENT.sub(redirect, t.explanation)}) for t in trackers]
    return code, trackers


_FRAGMENT = re.compile(r"`[^`]*`")  # a code fragment of an explanation
_CALL_OF_F = re.compile(r"(?<![\w.])f(?=\s*\()")  # a call of f in it


def _tracker(candidate: Candidate, name: str, function: str | None) -> Tracker:
    """The record of a chosen counter; one on a comprehension or lambda names the function it became."""
    explanation, anchor = candidate.explanation, candidate.anchor
    if function is not None:
        anchor = function
        explanation = {
            "call": f"how many times the inner function `{function}` runs, however it is called",
            "iter": f"how many items the inner function `{function}` looks at (passes of its innermost loop)",
            "kept": f"how many items the inner function `{function}` keeps (times all its conditions hold)",
            "repeat": f"how many items the inner function `{function}` finds already in what it builds",
            "falsy": f"how many of the items the inner function `{function}` produces {FALSY}",
            "again": f"how many of the items the inner function `{function}` produces equal an item it produced "
                     f"earlier in the same call",
        }[candidate.role]
    return Tracker(name=name, kind=candidate.kind, explanation=explanation, anchor=anchor)


def _move_closure(helpers: list[str], context: _Context) -> list[str]:
    """These helpers and every helper that refers to them, so no call is left behind."""
    moved = set(helpers)
    frontier = list(helpers)
    while frontier:
        for caller in context.callers.get(frontier.pop(), ()):
            if caller not in moved:
                moved.add(caller)
                frontier.append(caller)
    return [name for name in context.movable if name in moved]


def instrument(source: str) -> tuple[str, list[Tracker]]:
    """Without test cases to judge by: the first candidates in order of preference, one per kind.
    (The instrument stage judges them by running the probe; this is for tests and stand-ins.)"""
    probe = propose(source)
    ranked = sorted(probe.candidates, key=lambda c: (c.tier, not c.main, KINDS[c.role][2], c.order))
    chosen: list[Candidate] = []
    for candidate in ranked:
        if chosen and candidate.tier > chosen[0].tier:
            break
        if len(chosen) < MAX_TRACKERS and candidate.kind not in {c.kind for c in chosen}:
            chosen.append(candidate)
    return build(probe, chosen)
