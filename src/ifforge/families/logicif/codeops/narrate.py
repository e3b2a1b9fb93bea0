"""Deterministic describer: walks the instrumented code with libcst and tells it as steps.

The text has LogicIF's three parts, INPUTS / LOGICS / OUTPUTS, addresses the reader as "you", and
quotes every condition and expression verbatim, so every parameter, tracker, loop, branch and
constant of the code appears in it. It is the offline describer and the fallback for the LLM one.
"""

from __future__ import annotations

import ast
import re

import libcst as cst

from ifforge.core import pyast
from ifforge.families.logicif.codeops.source import cst_parameters
from ifforge.families.logicif.records import Tracker

_AUG = {
    "+=": "Add `{v}` to `{t}`.",
    "-=": "Subtract `{v}` from `{t}`.",
    "*=": "Multiply `{t}` by `{v}`.",
    "/=": "Divide `{t}` by `{v}` (true division, giving a float).",
    "//=": "Divide `{t}` by `{v}`, rounding down to a whole number (floor division).",
    "%=": "Replace `{t}` by the remainder of `{t}` divided by `{v}`.",
    "**=": "Raise `{t}` to the power `{v}`.",
}
_METHODS = {
    "append": "Append `{a}` to the end of `{o}`.",
    "appendleft": "Put `{a}` at the front of `{o}`.",
    "add": "Add `{a}` to the set `{o}`.",
    "extend": "Add every item of `{a}` to the end of `{o}`, in order.",
    "pop": "Remove the last item of `{o}`.",
    "popleft": "Remove the first item of `{o}`.",
    "remove": "Remove the first occurrence of `{a}` from `{o}`.",
    "discard": "Remove `{a}` from the set `{o}` if it is there.",
    "sort": "Sort `{o}` in place (`{c}`).",
    "reverse": "Reverse the order of `{o}` in place.",
    "clear": "Empty `{o}` completely.",
    "insert": "Insert into `{o}`: `{c}`.",
    "update": "Update `{o}` with `{a}`.",
}


def code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node).strip()


def _plain(text: str) -> str:
    return text.replace("`", "'")


class _Narrator:
    def __init__(self, stats: str, trackers: dict[str, Tracker], helpers: set[str]):
        self.stats = stats
        self.trackers = trackers
        self.helpers = helpers

    # ---- statements -------------------------------------------------------------------------
    def block(self, statements, prefix: str, in_entry: bool) -> list[str]:
        lines: list[str] = []
        number = 0
        for statement in statements:
            sentences = self.statement(statement, in_entry)
            if sentences is None:
                continue
            head, children = sentences
            number += 1
            label = f"{prefix}{number}."
            lines.append(f"{'   ' * prefix.count('.')}{label} {head}")
            for child_prefix, child_statements in children:
                if isinstance(child_statements, str):
                    lines.append(f"{'   ' * (prefix.count('.') + 1)}{child_statements}")
                else:
                    lines.extend(self.block(child_statements, f"{label}{child_prefix}", in_entry))
        return lines

    def _body(self, suite) -> list:
        if isinstance(suite, cst.SimpleStatementSuite):
            return [cst.SimpleStatementLine([small]) for small in suite.body]
        return list(suite.body)

    def statement(self, statement, in_entry: bool):
        if isinstance(statement, cst.SimpleStatementLine):
            sentences = [self.small(small, in_entry) for small in statement.body]
            sentences = [s for s in sentences if s]
            return (" ".join(sentences), []) if sentences else None
        if isinstance(statement, cst.If):
            return self.if_(statement, in_entry)
        if isinstance(statement, cst.For):
            return self.for_(statement, in_entry)
        if isinstance(statement, cst.While):
            condition = code(statement.test)
            if condition == "True":
                head = "Now repeat the following steps over and over, until one of them breaks out of the loop or returns:"
            elif isinstance(statement.test, (cst.Name, cst.Attribute, cst.Subscript)):
                head = (f"Now repeat the following steps for as long as `{condition}` is truthy (not empty, not zero; "
                        f"check it before every round):")
            else:
                head = f"Now repeat the following steps for as long as `{condition}` holds (check it before every round):"
            children = [("", self._body(statement.body))]
            if statement.orelse is not None:
                children += [("", "If the loop ends because the condition failed (not through a break), then:"),
                             ("e", self._body(statement.orelse.body))]
            return head, children
        if isinstance(statement, cst.FunctionDef):
            params = ", ".join(f"`{code(p)}`" for p in cst_parameters(statement)) or "nothing"
            return (f"Set up a small inner helper called `{statement.name.value}` that takes {params}. "
                    f"It can read and change the variables of the steps around it. When it is called, it does this:",
                    [("", self._body(statement.body))])
        if isinstance(statement, cst.Try):
            children = [("", self._body(statement.body))]
            for handler in statement.handlers:
                kind = f"an error of type `{code(handler.type)}`" if handler.type else "any error"
                name = f" (call the error `{handler.name.name.value}`)" if handler.name else ""
                children += [("", f"If any of those steps raises {kind}{name}, stop them right there and instead:"),
                             ("x", self._body(handler.body))]
            if statement.orelse is not None:
                children += [("", "If no error happened, continue with:"), ("e", self._body(statement.orelse.body))]
            if statement.finalbody is not None:
                children += [("", "In every case, finish with:"), ("f", self._body(statement.finalbody.body))]
            return "Try the following steps:", children
        if isinstance(statement, cst.With):
            return f"With `{code(statement.items[0])}` in effect, do:", [("", self._body(statement.body))]
        return f"Run `{_plain(code(statement).splitlines()[0])}` ...", []

    def if_(self, statement: cst.If, in_entry: bool, chained: bool = False):
        head = f"{'Otherwise, check' if chained else 'Check'} whether `{code(statement.test)}` is true. If it is, do this:"
        children = [("", self._body(statement.body))]
        orelse = statement.orelse
        letter = "a"
        while orelse is not None:
            letter = chr(ord(letter) + 1)
            if isinstance(orelse, cst.If):
                children += [("", f"Otherwise, if `{code(orelse.test)}` is true, do this:"),
                             (letter, self._body(orelse.body))]
                orelse = orelse.orelse
            else:
                children += [("", "Otherwise (none of the conditions above held), do this:"),
                             (letter, self._body(orelse.body))]
                orelse = None
        return head, children

    def for_(self, statement: cst.For, in_entry: bool):
        target, iterable = code(statement.target), statement.iter
        head = f"Go through every item of `{code(iterable)}` in order, calling the current one `{target}`. For each one:"
        if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name):
            args = [code(a.value) for a in iterable.args]
            name = iterable.func.value
            if name == "range" and len(args) == 1:
                head = f"Let `{target}` count up from 0 to `{args[0]}` minus 1 (so `{args[0]}` rounds in all). For each value:"
            elif name == "range" and len(args) == 2:
                head = f"Let `{target}` count from `{args[0]}` up to, but not including, `{args[1]}`. For each value:"
            elif name == "range" and len(args) == 3:
                head = (f"Let `{target}` run from `{args[0]}` in steps of `{args[2]}`, stopping before it reaches "
                        f"`{args[1]}`. For each value:")
            elif name == "enumerate" and args:
                start = f", counting positions from `{args[1]}`" if len(args) > 1 else ", counting positions from 0"
                head = f"Go through `{args[0]}` in order{start}; `{target}` is the (position, item) pair. For each one:"
            elif name == "zip":
                head = (f"Walk through {', '.join(f'`{a}`' for a in args)} side by side (stopping at the end of the "
                        f"shortest), with `{target}` holding the items at the same position. For each step:")
        children = [("", self._body(statement.body))]
        if statement.orelse is not None:
            children += [("", "If the loop finishes without a break, then:"), ("e", self._body(statement.orelse.body))]
        return head, children

    # ---- simple statements -------------------------------------------------------------------
    def small(self, small, in_entry: bool) -> str:
        tracker_sentence = self.tracker_statement(small)
        if tracker_sentence is not None:
            return tracker_sentence
        if isinstance(small, cst.Assign):
            value = code(small.value)
            targets = [code(t.target) for t in small.targets]
            if len(targets) > 1:
                return f"Set {' and '.join(f'`{t}`' for t in targets)} all to `{value}`."
            target = small.targets[0].target
            if isinstance(target, (cst.Tuple, cst.List)):
                return f"Work out `{value}` and unpack it into `{code(target)}`, in that order."
            if isinstance(target, cst.Subscript):
                return f"Set `{targets[0]}` to `{value}`."
            return f"Set `{targets[0]}` to `{value}`."
        if isinstance(small, cst.AnnAssign) and small.value is not None:
            return f"Set `{code(small.target)}` to `{code(small.value)}`."
        if isinstance(small, cst.AugAssign):
            operator = code(small.operator).strip()
            template = _AUG.get(operator, "Update `{t}` to `{t} " + operator[:-1] + " {v}`.")
            return template.format(t=code(small.target), v=code(small.value))
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            return self.call_statement(small.value)
        if isinstance(small, cst.Return):
            return self.return_(small, in_entry)
        if isinstance(small, cst.Break):
            return "Break out of the innermost loop right away."
        if isinstance(small, cst.Continue):
            return "Skip the rest of this round of the innermost loop and go straight to its next round."
        if isinstance(small, cst.Pass):
            return "Do nothing here."
        if isinstance(small, cst.Nonlocal):
            return f"(`{', '.join(n.name.value for n in small.names)}` here means the variable of the steps around it.)"
        if isinstance(small, cst.Global):
            return f"(`{', '.join(n.name.value for n in small.names)}` here means the module-level variable.)"
        if isinstance(small, (cst.Import, cst.ImportFrom)):
            return f"Make `{code(small)}` available."
        if isinstance(small, cst.Raise):
            return f"Stop with an error: `{code(small)}`."
        return f"Run `{code(small)}`."

    def call_statement(self, call: cst.Call) -> str:
        if isinstance(call.func, cst.Attribute):
            method = call.func.attr.value
            owner = code(call.func.value)
            argument = ", ".join(code(a) for a in call.args)
            if method == "pop" and call.args:
                return f"Remove the item at position `{argument}` of `{owner}`."
            template = _METHODS.get(method)
            if template:
                return template.format(o=owner, a=argument, c=code(call))
        name = code(call.func)
        if name in self.helpers:
            return f"Call the helper `{code(call)}` (and ignore what it gives back)."
        return f"Run `{code(call)}`."

    def return_(self, small: cst.Return, in_entry: bool) -> str:
        value = small.value
        if in_entry and isinstance(value, cst.Tuple) and len(value.elements) == 2:
            result = code(value.elements[0].value)
            return (f"You're done: stop here and hand back `{result}` as the result, together with "
                    f"the `{self.stats}` dictionary.")
        if value is None:
            return "Stop here; this gives back nothing (`None`)."
        return f"Stop here and give back `{code(value)}`."

    def tracker_statement(self, small) -> str | None:
        """Sentences for the lines that keep the trackers, in plain words."""
        text = code(small)
        stats = re.escape(self.stats)
        if re.fullmatch(rf"{stats} = \{{.*\}}", text):
            names = ", ".join(f"`{name}`" for name in self.trackers)
            return f"Start a dictionary `{self.stats}` holding the counters {names}, each set to 0."
        match = re.fullmatch(rf"{stats}\['(\w+)'\] \+= (.+)", text)
        if match:
            return f"Add {match[2]} to the `{match[1]}` counter."
        match = re.fullmatch(rf"{stats}\['(\w+)'\] = max\({stats}\['\w+'\], len\((\w+)\)\)", text)
        if match:
            return (f"Count the items now in `{match[2]}`; if that is more than the `{match[1]}` counter, "
                    f"raise `{match[1]}` to that count.")
        return None


def _param_phrase(param: cst.Param) -> str:
    star = param.star if isinstance(param.star, str) else ""
    name = f"`{star}{param.name.value}`"
    if param.default is not None:
        name += f" (which is `{code(param.default)}` unless given)"
    return name


def describe(source: str, trackers: list[Tracker], input_types: dict[str, str], output_format: str) -> str:
    """The INPUTS / LOGICS / OUTPUTS description of the instrumented function in `source`."""
    module = cst.parse_module(source)
    functions = [s for s in module.body if isinstance(s, cst.FunctionDef)]
    entry = next(s for s in functions if s.name.value == "f")
    helpers = [s for s in functions if s is not entry]
    stats = _stats_name(entry)
    narrator = _Narrator(stats, {t.name: t for t in trackers}, {h.name.value for h in helpers} | _nested(entry))
    params = cst_parameters(entry)

    inputs = []
    for param in params:
        kind = input_types.get(param.name.value)
        inputs.append(_param_phrase(param) + (f", {_type_words(kind)}" if kind else ""))
    count = {1: "one input", 2: "two inputs", 3: "three inputs"}.get(len(params), f"{len(params)} inputs")
    parts = [f"INPUTS: You're given {count}: " + "; ".join(inputs) + "." if params else "INPUTS: There are no inputs."]
    others = [s for s in module.body if not isinstance(s, cst.FunctionDef)]
    if others:
        parts[0] += (" You can also use these fixed definitions: "
                     + "; ".join(f"`{code(s)}`" for s in others) + ".")

    logic = ["LOGICS: Here's how to work it out, step by step. Keep careful track of every variable as you go."]
    for helper in helpers:
        names = ", ".join(_param_phrase(p) for p in cst_parameters(helper)) or "nothing"
        logic.append(f"\nFirst, a helper you will use, called `{helper.name.value}`. It takes {names}. "
                     f"Whenever it is called, it does this:")
        logic.extend(narrator.block(narrator._body(helper.body), "", in_entry=False))
    logic.append("\nNow the main steps" + (", starting from your inputs:" if params else ":"))
    logic.extend(narrator.block(narrator._body(entry.body), "", in_entry=True))
    falls_off = not _ends_with_return(entry)
    if falls_off:
        logic.append("If you reach the end without returning, the result is `None`.")
    parts.append("\n".join(logic))

    tracker_lines = "\n".join(f"- `{t.name}`: {t.explanation}." for t in trackers)
    parts.append(
        f"OUTPUTS: You end up with two things. First, the result value you handed back, of type "
        f"`{output_format}`. Second, the dictionary `{stats}` with exactly these {len(trackers)} "
        f"counter{'s' if len(trackers) > 1 else ''}, each counted by the steps that update it:\n{tracker_lines}"
    )
    return "\n\n".join(parts) + "\n"


def _type_words(kind: str) -> str:
    words = {"int": "a whole number", "float": "a number", "str": "a piece of text", "bool": "true or false",
             "list": "a list", "dict": "a dictionary", "None": "nothing (`None`)"}
    if kind in words:
        return words[kind]
    return f"of type `{kind}`"


def _ends_with_return(function: cst.FunctionDef) -> bool:
    body = function.body.body
    return bool(body) and isinstance(body[-1], cst.SimpleStatementLine) and isinstance(body[-1].body[-1], cst.Return)


def _nested(entry: cst.FunctionDef) -> set[str]:
    return {s.name.value for s in entry.body.body if isinstance(s, cst.FunctionDef)}


def _stats_name(entry: cst.FunctionDef) -> str:
    first = entry.body.body[0]
    if isinstance(first, cst.SimpleStatementLine) and isinstance(first.body[0], cst.Assign):
        return code(first.body[0].targets[0].target)
    return "stats"


def uncovered(description: str, source: str, trackers: list[Tracker]) -> list[str]:
    """What a description fails to mention: parameters, tracker keys and numeric constants of f."""
    tree = pyast.parse(source)
    entry = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "f")
    wanted = [a.arg for a in entry.args.posonlyargs + entry.args.args + entry.args.kwonlyargs]
    wanted += [t.name for t in trackers]
    wanted += sorted({repr(n.value) for n in ast.walk(tree)
                      if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)) and not isinstance(n.value, bool)})
    words = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*|\d+(?:\.\d+)?(?:e[-+]?\d+)?", description))
    return [item for item in wanted if item not in words]
