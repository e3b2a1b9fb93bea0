"""Deterministic describer: walks the instrumented code with libcst and tells it as steps in English.

The text has LogicIF's three parts, INPUTS / LOGICS / OUTPUTS, and addresses the reader as "you".
Numbered variables get role names first (`roles`: `count`, `stack`, `i`, ...). Every statement is
said in words (`english.Speaker` renders expressions), never quoted as code, and a fine point it
relies on (floor division, ties, ...) is said once, in one sentence, at the first step that needs
it, as a note after that step. Branches that can never run
(`if False:`, the right side of `0 and x`) and statements after a `return` are left out. A construct
with no clear English rendering raises `english.Undescribable`; the describe stage drops the item.
It is the offline describer and the fallback for the LLM one.
"""

from __future__ import annotations

import re

import libcst as cst

from ifforge.families.logicif.codeops.common.source import cst_module, cst_parameters
from ifforge.families.logicif.codeops.common.walk import Reader, index, walk
from ifforge.families.logicif.codeops.describe import facts as module_facts
from ifforge.families.logicif.codeops.describe import made, pattern_tables, roles, stored_methods, vocab
from ifforge.families.logicif.codeops.describe.facts import (Facts, class_methods, class_value, is_noop,
                                                            method_of_value, unpacked)
from ifforge.families.logicif.codeops.describe.english import (Speaker, Undescribable, constant_truth, float_words,
                                                               _QUOTED, holds_code, loose, one_index)
from ifforge.families.logicif.codeops.describe.places import Narration, Placed
from ifforge.families.logicif.records import Tracker

__all__ = ["describe", "uncovered", "holds_code", "Undescribable", "type_words"]

_AUG = {
    cst.AddAssign: "Add {v} to {t}.", cst.SubtractAssign: "Subtract {v} from {t}.",
    cst.MultiplyAssign: "Multiply {t} by {v}.", cst.DivideAssign: "Divide {t} by {v}{rule}.",
    cst.FloorDivideAssign: "Floor-divide {t} by {v}{rule}.",
    cst.ModuloAssign: "Replace {t} by the remainder of {t} divided by {v}{rule}.",
    cst.PowerAssign: "Raise {t} to the power {v}{rule}.",
    cst.BitAndAssign: "Replace {t} by the bitwise AND of {t} and {v}{rule}.",
    cst.BitOrAssign: "Replace {t} by the bitwise OR of {t} and {v}{rule}.",
    cst.BitXorAssign: "Replace {t} by the bitwise XOR of {t} and {v}{rule}.",
    cst.LeftShiftAssign: "Shift {t} left by {v} bits{rule}.", cst.RightShiftAssign: "Shift {t} right by {v} bits{rule}.",
}
_AUG_RULE = {cst.AddAssign: "plus", cst.MultiplyAssign: "times",
             cst.DivideAssign: "truediv", cst.FloorDivideAssign: "floor", cst.ModuloAssign: "mod",
             cst.PowerAssign: "power"}
_BINARY_OF = {cst.ModuloAssign: cst.Modulo, cst.MultiplyAssign: cst.Multiply, cst.BitAndAssign: cst.BitAnd,
              cst.BitOrAssign: cst.BitOr, cst.BitXorAssign: cst.BitXor}
_SET_STEPS = {  # `s op= v` on a set changes the set itself
    cst.BitOrAssign: "Add every item of {v} to the set {t}.",
    cst.SubtractAssign: "Remove from the set {t} every item of {v} that it holds.",
    cst.BitAndAssign: "Remove from the set {t} every item that is not in {v}.",
    cst.BitXorAssign: "For each distinct item of {v}: remove it from the set {t} if it is there, otherwise add it.",
}
_ENDS_BLOCK = (cst.Return, cst.Break, cst.Continue, cst.Raise)
_CHANGES = {  # a method called for what it changes, as a step
    ("append", 1): "Put {0} at the end of {o}.", ("appendleft", 1): "Put {0} at the front of {o}.",
    ("add", 1): "Add {0} to the set {o} (nothing changes if it is already there).",
    ("extend", 1): "Put {each} at the end of {o}, in order.",
    ("pop", 0): "Remove the last item of {o}.", ("popleft", 0): "Remove the first item of {o}.",
    ("pop", 1): "Remove the item at position {0} from {o} (for a dictionary, the key {0} and its value).",
    ("remove", 1): "Remove the first item of {o} that equals {0} (it must be there).",
    ("discard", 1): "Remove {0} from the set {o} if it is there.",
    ("reverse", 0): "Reverse the order of the items of {o} in place.",
    ("clear", 0): "Empty {o} completely.",
    ("insert", 2): "Insert {1} into {o} so that it sits at position {0} (the items from there on move one "
                   "place later; a position past the end means the end).",
    ("update", 1): "Copy every key and value of {0} into the dictionary {o}, replacing values of keys it "
                   "already has.",
    ("setdefault", 2): "If {o} has no key {0}, store {1} under it.",
    ("setdefault", 1): "If {o} has no key {0}, store None under it.",
    ("difference_update", 1): "Remove from the set {o} every item of {0} that it holds.",
    ("difference_update", 2): "Remove from the set {o} every item of {0} and of {1} that it holds.",
    ("intersection_update", 1): "Remove from the set {o} every item that is not in {0}.",
    ("intersection_update", 2): "Remove from the set {o} every item that is not in both {0} and {1}.",
    ("symmetric_difference_update", 1): "For each distinct item of {0}: remove it from the set {o} if it is there, "
                                        "otherwise add it.",
    ("rotate", 0): "Move the last item of the queue {o} to its front (nothing changes if it is empty).",
    ("rotate", 1): "Rotate the queue {o} by {0} places: each item moves {0} places towards the end, those pushed "
                   "past the end coming round to the front in order (a negative number moves the items that many "
                   "places towards the front instead; nothing changes if it is empty).",
    ("extendleft", 1): "Put each item of {0} in turn at the front of {o} (so they end up there in reverse order).",
}
# a set changed by several collections at once (`s.update(a, b)`), and a counter's counts changed
_SET_CHANGES = {("update", 2): "Add every item of {0} and of {1} to the set {o}.",
                ("update", 3): "Add every item of {0}, of {1} and of {2} to the set {o}."}
_COUNTER_CHANGES = {
    ("update", 1): "Add to the counts of the counter {o} those of {0}: for a dictionary, add each value to the count "
                   "of its key; for anything else, add 1 to the count of each of its items in turn (a key it lacks "
                   "starts from 0).",
    ("subtract", 1): "Take from the counts of the counter {o} those of {0}: for a dictionary, subtract each value "
                     "from the count of its key; for anything else, subtract 1 from the count of each of its items in "
                     "turn (a key it lacks starts from 0, and counts may go below 0).",
}
_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]


class _Narrator:
    def __init__(self, stats: str, trackers: dict[str, Tracker], facts: Facts):
        self.stats = stats
        self.trackers = trackers
        self.helpers = facts.helpers
        self.say = Speaker(stats=stats, facts=facts)
        self.stops = facts.stops  # ids of the returns that end a helper's values
        # a step `inline` took from a statement inside: id -> (the step, kept so its id stays its own; the statement)
        self.inlined: dict[int, tuple] = {}

    def with_notes(self, sentence: str) -> str:
        """The sentence, followed by the rules it is the first to need."""
        notes = self.say.fresh_rules()
        return " ".join([sentence] + [f"(Note: {note})" for note in notes])

    # ---- statements -------------------------------------------------------------------------
    def block(self, statements, prefix: str, in_entry: bool) -> list[str]:
        lines: list[str] = []
        number = 0
        for statement in _merge_settings(statements):
            for step in self.statement(statement, in_entry):
                head, children = step
                head = self.with_notes(head)
                number += 1
                label = f"{prefix}{number}."
                rendered = self.inlined.pop(id(step), (step, statement))[1]
                lines.append(Placed(f"{'   ' * prefix.count('.')}{label} {head}", rendered, bool(children), label[:-1]))
                for child_prefix, child_statements in children:
                    if isinstance(child_statements, str):
                        if child_statements.startswith("Otherwise") and _inline_if(lines[-1]):
                            # the line above is a one-line "If ..., ...": say which check this answers
                            child_statements = child_statements.replace("Otherwise", f"Otherwise (for step {label[:-1]})", 1)
                        lines.append(Placed(f"{'   ' * (prefix.count('.') + 1)}{child_statements}"))  # leads the next step
                    else:
                        lines.extend(self.block(child_statements, f"{label}{child_prefix}", in_entry))
            if _ends_block(statement):
                break  # what follows can never run
        return lines

    @staticmethod
    def body(suite) -> list:
        if isinstance(suite, cst.SimpleStatementSuite):
            return [cst.SimpleStatementLine([small]) for small in suite.body]
        return list(suite.body)

    def statement(self, statement, in_entry: bool) -> list[tuple[str, list]]:
        """The numbered steps one statement becomes: (sentence, [(label, sub-statements or a line)]),
        by the handler of its kind (`_STATEMENTS`); a kind with none has no clear English."""
        handler = _STATEMENTS.get(type(statement))
        if handler is None:
            raise Undescribable(_UNSAID.get(type(statement), f"the statement kind {type(statement).__name__}"))
        return handler(self, statement, in_entry)

    def assignment_run(self, statement: _AssignmentRun, in_entry: bool) -> list[tuple[str, list]]:
        values = [self.say.value(value) for _, value, _ in statement.run]
        parts = [f"{name} to {value}" for (name, _, _), value in zip(statement.run, values)]
        if any(loose(value) for value in values):  # a value with its own commas: keep the parts apart
            return [("Set " + "; ".join(parts) + ".", [])]
        return [(f"Set {_join_words(parts)}.", [])]

    def line(self, statement: cst.SimpleStatementLine, in_entry: bool) -> list[tuple[str, list]]:
        sentences = [self.small(small, in_entry) for small in statement.body if not is_noop(small)]
        sentences = [s for s in sentences if s]
        return [(" ".join(sentences), [])] if sentences else []

    def inner_function(self, statement: cst.FunctionDef, in_entry: bool) -> list[tuple[str, list]]:
        remembers = _decorated(statement, self.say, "inner")
        does = "it " + _does(statement, self.say)
        return [(f"Define a helper {statement.name.value} taking {_param_list(cst_parameters(statement), self.say)}; "
                 f"{remembers + '; ' if remembers else ''}when called, {does}",
                 [("", self.body(statement.body))])]

    def try_statement(self, statement: cst.Try, in_entry: bool) -> list[tuple[str, list]]:
        if statement.handlers and self.say.plain is not None and self.say.plain.dead(statement):
            # its steps cannot fail: the handlers never run, and what is left is its steps in order
            return self.inline([statement.body, statement.orelse, statement.finalbody], in_entry)
        return [self.try_(statement)]

    def inline(self, blocks: list, in_entry: bool) -> list[tuple[str, list]]:
        """The steps of blocks that always run, in order, as steps of the block around them (a block is a
        list of statements, a suite, an `else` or `finally` clause, or None)."""
        steps = []
        for block in blocks:
            if isinstance(block, (cst.Else, cst.Finally)):
                block = block.body
            for inner in self.body(block) if isinstance(block, cst.BaseSuite) else block or []:
                for step in self.statement(inner, in_entry):
                    self.inlined.setdefault(id(step), (step, inner))  # the innermost statement it renders
                    steps.append(step)
        return steps

    def if_(self, statement: cst.If, in_entry: bool) -> list[tuple[str, list]]:
        """An if / elif / else chain, without the branches a constant test rules out."""
        arms: list[tuple[cst.BaseExpression | None, list]] = []
        node = statement
        while node is not None:
            if isinstance(node, cst.If):
                truth = constant_truth(node.test)
                if truth is not False:
                    arms.append((None if truth else node.test, self.body(node.body)))
                if truth is True:
                    break
                node = node.orelse
            else:
                arms.append((None, self.body(node.body)))
                node = None
        if not arms:
            return []
        if arms[0][0] is None:  # the first arm that can run always runs: no check to narrate
            return self.inline([arms[0][1]], in_entry)
        head = f"If {self.say.condition(arms[0][0])}:"
        if len(arms) == 1 and len(arms[0][1]) == 1 and isinstance(arms[0][1][0], cst.SimpleStatementLine):
            [(sentence, _)] = self.statement(arms[0][1][0], in_entry) or [("", [])]
            if sentence and sentence[0].isupper() and sentence[1:2].islower():
                return [(f"{head[:-1]}, {sentence[0].lower()}{sentence[1:]}", [])]
        children: list = [("", arms[0][1])]
        letter = "a"
        for test, body in arms[1:]:
            letter = chr(ord(letter) + 1)
            words = f"Otherwise, if {self.say.condition(test)}:" if test is not None else "Otherwise:"
            children += [("", words), (letter, body)]
        return [(head, children)]

    def while_(self, statement: cst.While) -> list[tuple[str, list]]:
        truth = constant_truth(statement.test)
        if truth is False:
            return [] if statement.orelse is None else [
                ("Do this:", [("", self.body(statement.orelse.body))])]
        if truth is True:
            head = "Repeat these steps until one of them leaves the loop or stops:"
        else:
            head = f"While {self.say.condition(statement.test)}, repeat:"
        children: list = [("", self.body(statement.body))]
        if statement.orelse is not None:
            children += [("", "If the loop ends because the check failed (not by leaving it), then:"),
                         ("e", self.body(statement.orelse.body))]
        return [(head, children)]

    def for_(self, statement: cst.For) -> tuple[str, list]:
        if statement.asynchronous is not None:
            raise Undescribable("an async for loop")
        say = self.say
        target, source = statement.target, statement.iter
        if _starred(target):  # `for *state, val in items`: each item's own items, split as an unpacking says
            parts, need = _rest_parts(target, say)
            what = say.grouped(source)
            if not say.ordered(source):
                say.rule("dict_order")
            head = f"For each item of {what}, in order, take that item's own items in order{need} and set {parts}:"
            children: list = [("", self.body(statement.body))]
            if statement.orelse is not None:
                children += [("", "If the loop finishes without leaving early, then:"),
                             ("e", self.body(statement.orelse.body))]
            return head, children
        name = say.target(target)
        head = None
        if isinstance(source, cst.Call) and isinstance(source.func, cst.Name) and source.func.value not in self.helpers \
                and not any(a.star for a in source.args):  # `zip(*rows)` is said as a value
            args, keywords = say.arguments(source)
            kind = source.func.value
            if kind == "range" and not keywords:
                if _rebinds(statement.body, args):
                    say.rule("range")
                head = f"For each {name} {say.counting(args)}:"
            elif kind == "enumerate" and args and isinstance(target, cst.Tuple) and len(target.elements) == 2:
                start = keywords.get("start", args[1] if len(args) > 1 else None)
                first = say.grouped(start) if start is not None else "0"
                number, item = (say.target(e.value) for e in target.elements)
                inner = _reversed_of(args[0])
                if inner is not None:  # the items numbered as they are taken, last first
                    head = (f"For each {item} of {say.grouped(inner)}, from last to first, with {number} counting "
                            f"from {first} in that order:")
                else:  # a phrase bracketed: "in order" and the counting belong to the loop, not to the phrase
                    head = f"For each {item} of {say.operand(args[0])} in order, with {number} counting from {first}:"
            elif kind == "zip" and args and say.zip_end(keywords) is not None and isinstance(target, cst.Tuple) \
                    and len(target.elements) == len(args):
                names = [say.target(e.value) for e in target.elements]
                pairs = _join_words([f"{n} from {say.grouped(a)}" for n, a in zip(names, args)])
                end = "stop at the end of the shortest" if not keywords else say.zip_end(keywords).replace("stopping", "stop")
                head = f"For each position, taking {pairs} side by side ({end}):"
            elif kind == "reversed" and len(args) == 1 and not keywords:
                head = f"For each {name} of {say.grouped(args[0])}, from last to first:"
        if head is None and isinstance(source, cst.Call) and isinstance(source.func, cst.Attribute) \
                and source.func.attr.value == "items" and not source.args and isinstance(target, cst.Tuple) \
                and len(target.elements) == 2:
            key, value = (say.target(e.value) for e in target.elements)
            head = (f"For each key {key} of the dictionary {say.grouped(source.func.value)}, in the order the keys "
                    f"were added, with {value} its value:")
        if head is None:
            what = say.grouped(source)
            if not say.ordered(source):
                say.rule("dict_order")
            unpack = f" (unpacking each item into {_join_words([say.target(e.value) for e in target.elements])})" \
                if isinstance(target, cst.Tuple) else ""  # a nested tuple stays whole: "x and (p, q)"
            head = f"For each {name} of {what}{unpack}, in order:"
        children: list = [("", self.body(statement.body))]
        if statement.orelse is not None:
            children += [("", "If the loop finishes without leaving early, then:"), ("e", self.body(statement.orelse.body))]
        return head, children

    def try_(self, statement: cst.Try) -> tuple[str, list]:
        children: list = [("", self.body(statement.body))]
        for handler in statement.handlers:
            if handler.type is None:
                kind = "any error"
            else:
                kinds = handler.type.elements if isinstance(handler.type, cst.Tuple) else [cst.Element(handler.type)]
                names = []
                for element in kinds:
                    if not isinstance(element.value, cst.Name):
                        raise Undescribable("an except clause naming a computed error type")
                    names.append(element.value.value)
                kind = "an error of the kind " + _join_words(names, "or")
            kept = ""
            if handler.name is not None:  # the error's own text depends on the host: only shown, never used
                kept = handler.name.name.value
                if not _only_shown(kept, handler.body):
                    raise Undescribable("an except clause that keeps the error object")
                kept = f" (calling the error {kept})"
            children += [("", f"If any of those steps fails with {kind}, stop them right there{kept} and instead:"),
                         ("x", self.body(handler.body))]
        if statement.orelse is not None:
            children += [("", "If no error happened, continue with:"), ("e", self.body(statement.orelse.body))]
        if statement.finalbody is not None:
            children += [("", "In every case, finish with:"), ("f", self.body(statement.finalbody.body))]
        return "Try the following steps:", children

    # ---- simple statements -------------------------------------------------------------------
    def small(self, small, in_entry: bool) -> str:
        """One simple statement as a sentence, by the handler of its kind (`_SMALL`); "" says nothing."""
        handler = _SMALL.get(type(small))
        if handler is None:
            raise Undescribable(f"the statement kind {type(small).__name__}")
        return handler(self, small, in_entry)

    def annotated(self, small: cst.AnnAssign, in_entry: bool) -> str:
        if small.value is None:
            return ""
        return f"Set {self.say.place(small.target)} to {self.say.value(small.value)}."

    def expression(self, small: cst.Expr, in_entry: bool) -> str:
        if isinstance(small.value, cst.Call):
            return self.call_statement(small.value)
        if isinstance(small.value, cst.Yield):
            return self.yield_(small.value)
        if isinstance(small.value, cst.Await):
            raise Undescribable("a coroutine (await)")
        if isinstance(small.value, cst.Ellipsis):  # `...` as a statement does nothing, as `pass`
            return "Do nothing here."
        raise Undescribable(f"an expression statement of kind {type(small.value).__name__}")

    def scope(self, small: cst.Nonlocal | cst.Global, in_entry: bool) -> str:
        names = [n.name.value for n in small.names]
        where = "outer" if isinstance(small, cst.Nonlocal) else "shared"
        return f"(Here {_join_words(names)} {'is the' if len(names) == 1 else 'are the'} {where} " \
               f"variable{'s' if len(names) > 1 else ''}, not a new one.)"

    def assert_(self, small: cst.Assert, in_entry: bool) -> str:
        if constant_truth(small.test) is False:  # `assert False, ...`: a step never meant to be reached
            return "Stop with an error."
        return f"Make sure that {self.say.condition(small.test)}; if not, stop with an error."

    def assign(self, small: cst.Assign) -> str:
        say = self.say
        targets = [t.target for t in small.targets]
        value = small.value
        if (len(targets) == 1 and isinstance(targets[0], cst.Name) and targets[0].value == self.stats
                and isinstance(value, cst.Dict)):
            return self.start_stats(value)
        if len(targets) > 1:
            places = [say.place(t) for t in targets]
            return f"Set {_join_words(places)} {'all ' if len(places) > 2 else ''}to {say.value(value)}."
        extreme = self.extreme(targets[0], value)
        if extreme:
            return extreme
        target = targets[0]
        if isinstance(target, (cst.Tuple, cst.List)):
            names = [say.target(e.value) for e in target.elements if isinstance(e, cst.Element)]
            if len(names) == len(target.elements) - 1:
                return self.unpack_rest(target, value)
            if len(names) != len(target.elements):
                raise Undescribable("starred unpacking (*name)")
            if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(names) and all(
                    isinstance(e, cst.Element) for e in value.elements):
                pairs = [f"{n} to {say.value(e.value)}" for n, e in zip(names, value.elements)]
                if _reads_any(value, target):
                    return f"At the same time (using the values from before this step), set {_join_words(pairs)}."
                return f"Set {_join_words(pairs)}."
            ordinals = _ORDINALS
            if len(names) > len(ordinals):
                raise Undescribable("unpacking into more than eight names")
            return (f"Set {_join_words(names)} to the {_join_words(ordinals[:len(names)])} items of "
                    f"{say.grouped(value)} (it holds exactly {len(names)}).")
        if isinstance(target, cst.Subscript):
            return self.store(target, value)
        return f"Set {say.place(target)} to {say.value(value)}."

    def unpack_rest(self, target: cst.Tuple | cst.List, value: cst.BaseExpression) -> str:
        """`a, *rest, z = xs`: the names around the starred one take items from each end, it takes a new
        list of the items between."""
        parts, need = _rest_parts(target, self.say)
        return f"Taking the items of {self.say.grouped(value)} in order{need}, set {parts}."

    def store(self, target: cst.Subscript, value: cst.BaseExpression) -> str:
        say = self.say
        target = one_index(target)
        if len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index):
            counter = isinstance(target.value, cst.Name) and target.value.value == self.stats
            known = (say.kind(target.value) or "").split("[")[0] in ("list", "dict")
            note = "" if counter or known else " (for a dictionary, adding the key if it is new)"
            return f"Set {say.place(target)} to {say.value(value)}{note}."
        if len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Slice):
            return f"Replace {say.place(target)} by the items of {say.grouped(value)}."
        raise Undescribable("assigning to a subscript with several indices")

    def start_stats(self, value: cst.Dict) -> str:
        """The line that creates the trackers' dictionary, from what it really holds."""
        entries = []
        for element in value.elements:
            if not isinstance(element, cst.DictElement) or not isinstance(element.key, cst.SimpleString):
                raise Undescribable("a tracker dictionary with computed keys")
            entries.append((element.key.evaluated_value, self.say.value(element.value)))
        if len({start for _, start in entries}) == 1:
            return (f"Start the counter{'s' if len(entries) > 1 else ''} {_join_words([k for k, _ in entries])} "
                    f"(kept in the dictionary {self.stats}) at {entries[0][1]}.")
        return (f"Start the counters {_join_words([f'{k} at {v}' for k, v in entries])} (kept in the dictionary "
                f"{self.stats}).")

    def extreme(self, target: cst.BaseExpression, value: cst.BaseExpression) -> str | None:
        """`x = max(x, e)`: "Raise x to e if that is larger." (for numbers, the same value either way)."""
        if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("max", "min")
                and len(value.args) == 2 and not any(a.keyword or a.star for a in value.args)):
            return None
        first, second = (a.value for a in value.args)
        other = second if first.deep_equals(target) else first if second.deep_equals(target) else None
        if other is None:
            return None
        # max(x, e) keeps x unless e is larger; max(e, x) takes e on a tie
        if self.say._maybe_text_or_sequence(target) and self.say._maybe_text_or_sequence(other):
            self.say.rule("order")  # texts and lists are larger or smaller by the order rule
        verb, size = ("Raise", "larger") if value.func.value == "max" else ("Lower", "smaller")
        if other is first:
            size = "at least as large" if size == "larger" else "at most as large"
        return f"{verb} {self.say.place(target)} to {self.say.value(other)} if that is {size}."

    def augment(self, small: cst.AugAssign) -> str:
        kind = type(small.operator)
        if kind not in _AUG:
            raise Undescribable("an in-place matrix multiplication")
        numeric = isinstance(small.value, (cst.Integer, cst.Float)) or (  # a counter only ever holds a number
            isinstance(small.target, cst.Subscript) and isinstance(small.target.value, cst.Name)
            and small.target.value.value == self.stats) or self.say.kind(small.target) in ("int", "float", "number")
        by_kind = self.augment_by_kind(small)
        if by_kind is not None:
            return by_kind
        if kind is cst.AddAssign and not (self.say._maybe_text_or_sequence(small.target)
                                          and self.say._maybe_text_or_sequence(small.value)):
            numeric = True  # joining needs two texts (or lists): a number on either side adds
        rule = "" if (numeric and kind is cst.AddAssign) or kind is cst.SubtractAssign else \
            self.say.cite(_AUG_RULE[kind]) if kind in _AUG_RULE else self.say.cite("bits")
        target = self.say.place(small.target)
        value = self.say.grouped(small.value)
        if kind is cst.AddAssign and isinstance(small.value, (cst.SimpleString, cst.FormattedString)):
            return f"Add {value} to the end of {target}."
        if kind is cst.AddAssign and isinstance(small.value, (cst.List, cst.ListComp)):
            return f"Put every item of {value} at the end of the list {target}, in order."
        if kind in (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign):
            return _AUG[kind].format(t=target, v=value, rule="")[:-1] + f"{rule}."
        return _AUG[kind].format(t=target, v=value, rule=rule)

    def augment_by_kind(self, small: cst.AugAssign) -> str | None:
        """`t op= v` where the kind of t gives the operator another meaning than on numbers: a list grows
        by every item of v, a set or dictionary changes as a collection, true and false combine as
        true or false, text is formatted or repeated; None where the words for numbers hold."""
        say, kind = self.say, type(small.operator)
        sort = say.sort_of(small.target)
        as_binary = cst.BinaryOperation(small.target, _BINARY_OF[kind](), small.value) if kind in _BINARY_OF else None
        formatting = kind is cst.ModuloAssign and say._formatting(as_binary) is not None
        logical = sort == "bool" and say.sort_of(small.value) == "bool" and kind in (
            cst.BitAndAssign, cst.BitOrAssign, cst.BitXorAssign)
        repeated = kind is cst.MultiplyAssign and sort in ("str", "list", "tuple")
        grows = kind is cst.AddAssign and sort in ("list", "deque")
        collection = sort == "set" and kind in _SET_STEPS or sort == "dict" and kind is cst.BitOrAssign
        if not (formatting or logical or repeated or grows or collection):
            return None  # the words for numbers hold (their rule is cited first, as before)
        target, value = say.place(small.target), say.grouped(small.value)
        if grows:
            return f"Put every item of {value} at the end of the list {target}, in order."
        if collection:
            return _SET_STEPS[kind].format(t=target, v=value) if sort == "set" else \
                f"Copy every key and value of {value} into the dictionary {target}, replacing values of keys it already has."
        words = say.value(as_binary)
        if repeated and sort == "list":
            return f"Change the list {target} in place into {words.removeprefix('a new list ').replace('made of', 'the list made of', 1)}."
        return f"Set {target} to {words}."

    def call_statement(self, call: cst.Call) -> str:
        say = self.say
        func = call.func
        owner = None
        if isinstance(func, cst.Name) and func.value in say.held:  # `add = items.append` earlier, now `add(x)`
            owner = f"the object {func.value} belongs to"
            func = cst.Attribute(value=func, attr=cst.Name(say.held[func.value]))
        step = vocab.STEPS.get(say.resolved(func)) if not (
            isinstance(func, cst.Name) and func.value not in say.imported) else None
        if step is not None:  # a library function standing alone as a step: its words live in vocab/
            args, keywords = say.arguments(call)
            return step(say, args, keywords)
        if (say.resolved(func) or "").rpartition(".")[0] in vocab.LIBRARIES:
            return f"Work out {say.value(call)} (the result is not kept)."
        if isinstance(func, cst.Attribute):
            if func.attr.value in say.methods:  # a method of a class of the code, never a list's or a set's
                return f"Work out {say.value(call)} (the result is not kept)."
            owner = owner or say.grouped(func.value)
            method = func.attr.value
            args, keywords = say.arguments(call)
            a = [say.grouped(x) for x in args]
            if method == "sort" and not args:
                return f"Sort {owner} in place: it becomes {say.ordering(func.value, keywords)}."
            if keywords:
                raise Undescribable(f"the method {method} with keyword arguments")
            form = _CHANGES.get((method, len(args)))
            sort = (say.kind(func.value) or "").split("[")[0]
            if sort == "counter":
                form = _COUNTER_CHANGES.get((method, len(args)))
                if form is None and method in ("update", "subtract", "fromkeys"):
                    raise Undescribable(f"the counter method {method} with these arguments")
            elif sort == "set" and (method, len(args)) in _SET_CHANGES:
                form = _SET_CHANGES[(method, len(args))]
            elif method == "update" and len(args) == 1 and sort == "set":
                form = "Add every item of {0} to the set {o}."
            elif method == "update" and len(args) == 1 and not (say.kind(func.value) or "").startswith("dict"):
                form = ("Add every item of {0} to {o} (for a dictionary: copy every key and value of {0} into it, "
                        "replacing values of keys it already has).")
            if form:
                if method in ("pop",) and len(args) == 1:
                    say.rule("index")
                each = a[0] if a and a[0].startswith("the items of") else f"every item of {a[0]}" if a else ""
                return form.format(*a, o=owner, each=each)
            if func.value is not call.func.value:
                raise Undescribable(f"the method {method} kept in a name, called this way")
            return f"Work out {say.method(func.value, method, call)} (the result is not kept)."
        if isinstance(func, cst.Name) and func.value in self.helpers:
            return f"Call {func.value} {say.call_with(call)}."
        if isinstance(func, cst.Name) and func.value == "print":
            return self.print_(call)
        return f"Work out {say.value(call)} (the result is not kept)."

    def print_(self, call: cst.Call) -> str:
        """`print(...)`: the line it shows, said in full (working it out may still fail), and that showing
        it changes nothing the task asks for (the result is what is given back, not what is shown)."""
        say = self.say
        args, keywords = say.arguments(call)
        if set(keywords) - {"sep", "end", "flush"}:
            raise Undescribable("printing somewhere other than the screen")
        shown = [say.grouped(a) if say.certain_kind(a) == "str" else
                 f"{say.grouped(a)} written as text{say.cite('str')}" for a in args]
        sep, end = (None if _is_none(keywords.get(k)) else keywords[k] for k in ("sep", "end"))
        between = f", with {'a space' if sep is None else say.grouped(sep)} between each two" if len(shown) > 1 else ""
        if end is not None:
            line = f"{_join_words(shown) or 'nothing'}{between}, then {say.grouped(end)} (and no line break)"
        else:
            line = {0: "an empty line", 1: f"{''.join(shown)} on a line of its own"}.get(
                len(shown), f"{_join_words(shown)} on one line{between}")
        return f"Show {line} (showing it changes neither the result nor any counter)."

    def delete(self, target: cst.BaseExpression) -> str:
        if isinstance(target, cst.Tuple):
            return " ".join(self.delete(e.value) for e in target.elements)
        if isinstance(target, cst.Subscript):
            target = one_index(target)
        if isinstance(target, cst.Subscript) and len(target.slice) == 1:
            index = target.slice[0].slice
            owner = self.say.grouped(target.value)
            if isinstance(index, cst.Slice):
                return f"Remove from {owner} its part {self.say.bounds(index)} (the items after it move up)."
            kind = (self.say.kind(target.value) or "").split("[")[0]
            if kind == "dict":
                return f"Remove the key {self.say.grouped(index.value)} and its value from {owner}."
            if kind == "list":
                return f"Remove from {owner} the item at position {self.say.grouped(index.value)} (later items move up)."
            return (f"Remove from {owner} the item at position {self.say.grouped(index.value)} (the items after it "
                    f"move up; for a dictionary, remove that key and its value).")
        if isinstance(target, cst.Name):
            return f"Forget the variable {target.value}."
        raise Undescribable("this kind of deletion")

    def raise_(self, small: cst.Raise) -> str:
        error = small.exc
        if error is None:
            return "Stop with the same error again."
        if isinstance(error, cst.Call):
            error = error.func
        if isinstance(error, cst.Name):
            return f"Stop with an error (of the kind {error.value})."
        raise Undescribable("raising a computed error")

    def yield_(self, node: cst.Yield) -> str:
        """`yield v` in a helper that produces values; `yield from xs` produces each item of xs."""
        if isinstance(node.value, cst.From):
            return f"Produce each of {self.say._items(node.value.item)}, in order, as the next values."
        value = "None" if node.value is None else self.say.grouped(node.value)
        return f"Produce {value} as the next value."

    def return_(self, small: cst.Return, in_entry: bool) -> str:
        value = small.value
        say = self.say
        if id(small) in self.stops:  # a return in a helper that produces values ends them
            return "Stop: there are no more values."
        if in_entry and isinstance(value, cst.Tuple) and len(value.elements) == 2 and isinstance(
                value.elements[1], cst.Element) and isinstance(value.elements[1].value, cst.Name) and value.elements[1].value.value == self.stats:
            result = value.elements[0].value
            return f"Stop: the result is {say.value(result)}."
        if value is None:
            return "Return None."
        return f"Return {say.value(value)}."


def _rest_parts(target: cst.Tuple | cst.List, say: Speaker) -> tuple[str, str]:
    """The settings of `a, *rest, z` from a sequence's items in order ("a to the first, rest to a new list of
    those in between and z to the last") and how many items it needs (" (there must be at least 2)", or "")."""
    return say.rest_parts(target, "to ")


def _starred(target: cst.BaseExpression) -> bool:
    """Is this a flat unpacking target with a starred name in it (`*state, val`)?"""
    return isinstance(target, (cst.Tuple, cst.List)) and any(
        isinstance(e, cst.StarredElement) for e in target.elements)


def _does(helper: cst.FunctionDef, say: Speaker) -> str:
    """What a helper's steps are for, before them: "does this:", or what its values are."""
    if helper.name.value in say.generators:
        return f"produces values one at a time{say.cite('produce')}, doing this:"
    if helper.name.value in say.translators:
        wildcard = cst_parameters(helper)[0].name.value
        return f"makes a pattern from the wildcard {wildcard}{say.cite('wildcard')}, doing this:"
    return "does this:"


def _decorated(function: cst.FunctionDef, say: Speaker, where: str) -> str:
    """What the one decorator of a function does to it, in words from vocab/ (`functools.cache`), or ""
    for none; any other decorator, or an async function, cannot be told."""
    if function.asynchronous or len(function.decorators) > 1:
        raise Undescribable(f"a decorated or async {where} function")
    if not function.decorators:
        return ""
    node = function.decorators[0].decorator
    called = node.func if isinstance(node, cst.Call) else node
    said = vocab.DECORATORS.get(say.resolved(called)) if not (
        isinstance(called, cst.Name) and called.value not in say.imported) else None
    if said is None:
        raise Undescribable(f"a decorated or async {where} function")
    args, keywords = say.arguments(node) if isinstance(node, cst.Call) else ([], {})
    return said(say, args, keywords)


def _only_shown(name: str, node: cst.CSTNode) -> bool:
    """Whether `name` is read in `node` only inside what a `print` call shows or as the cause a `raise ...
    from name` chains (so its text never reaches the result, a counter or a check: a stop keeps its kind)."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "print":
        return True
    if isinstance(node, cst.Raise):
        return node.exc is None or _only_shown(name, node.exc)
    if isinstance(node, cst.Name):
        return node.value != name
    return all(_only_shown(name, child) for child in node.children)


def _ends_block(statement) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and any(isinstance(s, _ENDS_BLOCK) for s in statement.body)




def _is_none(node: cst.BaseExpression | None) -> bool:
    """Is this argument left out, or given as None?"""
    return node is None or isinstance(node, cst.Name) and node.value == "None"


def _reversed_of(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """X of `reversed(X)` or `X[::-1]`, else None."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "reversed" \
            and len(node.args) == 1 and not node.args[0].keyword and not node.args[0].star:
        return node.args[0].value
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Slice):
        part = node.slice[0].slice
        step = part.step
        if part.lower is None and part.upper is None and isinstance(step, cst.UnaryOperation) and isinstance(
                step.operator, cst.Minus) and isinstance(step.expression, cst.Integer) and step.expression.value == "1":
            return node.value
    return None


def _join_words(items: list[str], last: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def _param_list(params: list[cst.Param], say: Speaker) -> str:
    """`c, d and e (e is false unless it is given)`: names joined as English, defaults after."""
    if not params:
        return "nothing"
    names, defaults = [], []
    for param in params:
        star = param.star if isinstance(param.star, str) else ""
        if star:
            names.append(_gathered(param, alone=not names))
            continue
        names.append(param.name.value)
        if param.default is not None:
            defaults.append(f"{param.name.value} is {say.value(param.default)} unless it is given")
    return _join_words(names) + (f" ({'; '.join(defaults)})" if defaults else "")


def _gathered(param: cst.Param, alone: bool) -> str:
    """A `*args` or `**kwargs` parameter: what the call's extra inputs become."""
    further = "" if alone else "further "
    if param.star == "*":
        return f"any number of {further}values, in order, as the tuple {param.name.value}"
    return f"any number of {further}named values, as the dictionary {param.name.value} from each name to its value"


def describe(source: str, trackers: list[Tracker], input_types: dict[str, str], output_format: str) -> str:
    """The INPUTS / LOGICS / OUTPUTS description of the instrumented function in `source`.

    Raises `Undescribable` when some construct cannot be said clearly in English."""
    return narration(source, trackers, input_types, output_format).text


def narration(source: str, trackers: list[Tracker], input_types: dict[str, str], output_format: str) -> Narration:
    """The description, with the statement each of its steps renders (`places.places` finds them in
    the exported code)."""
    module = index(made.inline(stored_methods.inline(cst_module(source))))
    keys = [t.name for t in trackers]
    named = roles.assign(module, input_types, keys)
    told = _narration(module, named, trackers, input_types, output_format)
    words = {word for word in _phrase_words(module, named, trackers, input_types, output_format) if len(word) > 1}
    if not words & set(named.names.values()):
        return told
    return _narration(module, roles.assign(module, input_types, keys, avoid=words), trackers, input_types,
                      output_format)


def _phrase_words(module: cst.Module, named: roles.Roles, trackers: list[Tracker], input_types: dict[str, str],
                  output_format: str) -> set[str]:
    """The nouns the describer's own phrases use in this description (told with the code's numbered
    names, so none of them is a variable): a role name among them (`pair` beside "the pair of (A) and
    (B)", `text` beside "a piece of text") would read as the phrase, so such a variable is named
    otherwise. Quoted text does not count; one-letter names are never taken for words."""
    numbered = {new: old for old, new in named.names.items()}
    plain = roles.Roles(names={}, kinds={numbered.get(name, name): kind for name, kind in named.kinds.items()})
    try:
        text = _narration(module, plain, trackers, input_types, output_format).text
    except Undescribable:
        return set()
    return {found.lower() for found in _NOUN.findall(_QUOTED.sub(" ", text))}


# a word where a phrase names a thing: after an article or a word that comes before one ("the pair of",
# "a piece of text", "each item"), not a verb or an adverb ("work it out", "counts as true")
_NOUN = re.compile(r"\b(?:[Aa]n?|[Tt]he|each|every|of|new|empty|one|two|its|no|any|another|whole) ([a-z]\w*)\b")


def _narration(module: cst.Module, named: roles.Roles, trackers: list[Tracker], input_types: dict[str, str],
               output_format: str) -> Narration:
    """The description with the module's numbered variables given the names `named` holds."""
    module = index(roles.rename(module, named.names))
    trackers = [t.model_copy(update={"explanation": roles.rename_in_text(t.explanation, named.names)}) for t in trackers]
    functions = [s for s in module.body if isinstance(s, cst.FunctionDef)]
    entry = next(s for s in functions if s.name.value == "f")
    helpers = [s for s in functions if s is not entry]
    stats = _stats_name(entry)
    facts = module_facts.read(module, stats, {h.name.value for h in helpers} | _nested(entry), named.kinds,
                              frozenset(method for method, _ in _CHANGES), input_types)
    narrator = _Narrator(stats, {t.name: t for t in trackers}, facts)
    say = narrator.say
    if entry.name.value in facts.generators:
        raise Undescribable("a main function that produces values (yield)")
    told, filling = facts.told, facts.filling
    params = cst_parameters(entry)

    if params:
        given = []
        for param in params:
            if isinstance(param.star, str) and param.star:
                given.append(_gathered(param, alone=not given))
                continue
            kind = input_types.get(param.name.value)
            words = param.name.value + (f", {type_words(kind)}" if kind else "")
            if param.default is not None:
                words += f" (it is {say.value(param.default)} when not given)"
            given.append(words)
        count = {1: "one input", 2: "two inputs", 3: "three inputs"}.get(len(params), f"{len(params)} inputs")
        inputs = f"INPUTS: You're given {count}: " + "; ".join(given) + "."
    else:
        inputs = "INPUTS: There are no inputs."
    top = [s for s in module.body if not isinstance(s, cst.FunctionDef)]
    first_compound = next((i for i, s in enumerate(top) if isinstance(s, cst.BaseCompoundStatement)
                           and not isinstance(s, cst.ClassDef) or _stores_item(s)), len(top))
    fixed = [f for f in (_fixed(s, say, {c.name.value for c in told}, facts.typing_only) for s in top[:first_compound]) if f]
    if fixed:
        inputs += " You can also use these fixed values: " + "; ".join(fixed) + "."
    if facts.tables and not fixed:
        inputs += " You can also use the fixed " + ("table" if len(facts.tables) == 1 else "tables") + " below."
    for table in facts.tables.values():
        inputs += "\n" + pattern_tables.told(table)
    inputs = Placed(narrator.with_notes(inputs), entry, header=True)

    steps = []
    if top[first_compound:]:  # a table built by code when the module loads: its steps come first, once
        steps.append(Placed("\nFirst, once, build the fixed values:"))
        steps.extend(narrator.block(narrator.body(cst.IndentedBlock(top[first_compound:])), "", in_entry=False))
    for told_class in told:
        steps.extend(_class_steps(told_class, narrator, told_class.name.value in filling))
    for helper in helpers:
        remembers = _decorated(helper, say, "helper")
        producing = helper.name.value in say.generators
        does = (f"{remembers.removeprefix('it ')}; when called, it " if remembers else "") + _does(helper, say)
        steps.append(Placed(narrator.with_notes(f"\nA helper you will use, {helper.name.value}, takes "
                                                f"{_param_list(cst_parameters(helper), say)} and {does}"), helper, True))
        steps.extend(narrator.block(narrator.body(helper.body), "", in_entry=False))
        if not _ends_with_return(helper):
            steps.append("If it reaches the end of these steps, it stops: there are no more values." if producing
                         else "If it reaches the end of these steps, it returns None.")
    steps.append(Placed("\nThe main steps" + (", starting from your inputs:" if params else ":")))
    steps.extend(narrator.block(narrator.body(entry.body), "", in_entry=True))
    if not _ends_with_return(entry):
        steps.append("If you reach the end without stopping, the result is None.")
    outputs = narrator.with_notes(_outputs(trackers, stats, output_format, say))

    logic = ["LOGICS: Work it out step by step, keeping careful track of every variable."]
    logic.extend(steps)
    return Narration.of(inputs, logic, outputs, module)


_ERROR_BASES = ("Error", "Exception", "Warning")


def _class_steps(statement: cst.ClassDef, narrator: _Narrator, filling: bool = False) -> list[str]:
    """A small class as its making, its fixed values and its methods, each told like a helper with its
    object named; a dictionary that fills in what it lacks says so first."""
    say, name = narrator.say, statement.name.value
    methods = class_methods(statement)
    init = next((m for m in methods if m.name.value == "__init__"), None)
    steps = []
    if filling:
        steps.append(Placed(f"\nAn object of the class {name} is a dictionary, empty when made, that fills in what it "
                            f"lacks: when a step asks for its value under a key it does not hold, it does not fail but "
                            f"runs its method __missing__ (below) with that key, and the value asked for is what that "
                            f"method gives back.", statement, True))
    values = [found for line in statement.body.body if (found := class_value(line))]
    if values:
        steps.append(Placed(narrator.with_notes(f"Every object of the class {name} starts with " + _join_words(
            [f"the field {field} set to {say.value(value)}" for field, value in values]) + "."), statement, True))
    for method in ([init] if init else []) + [m for m in methods if m is not init]:
        params = cst_parameters(method)
        self, rest = params[0].name.value, params[1:]
        say.selves = {self}
        if filling:
            say.kinds[self] = "dict"
        takes = f"with {_param_list(rest, say)}" if rest else "with no inputs"
        if method is init:
            head = (f"\nA new object of the class {name}, made {takes}, keeps its own fields (each a value stored "
                    f"under a name) and equals only itself (never another object, even one made alike); making one "
                    f"({self} standing for it) does this:")
        else:
            head = (f"\nThe method {method.name.value} of an object {self} of the class {name}, called {takes}, "
                    f"does this:")
        steps.append(Placed(narrator.with_notes(head), method, True))
        steps.extend(narrator.block(narrator.body(method.body), "", in_entry=False))
        if method is not init and not _ends_with_return(method):
            steps.append("If it reaches the end of these steps, it returns None.")
        say.selves = set()
        say.kinds.pop(self, None)
    if init is None and not filling:
        steps.append(f"(A new object of the class {name} starts with no fields and equals only itself.)")
    return steps


def _error_class(statement: cst.ClassDef, errors: set[str]) -> str | None:
    """`X is a kind of error ...` for a class that only names a kind of error (what its methods do
    shapes only the error's message, which no step reads), else None."""
    bases = [a.value for a in statement.bases]
    if not bases or not all(isinstance(b, cst.Name) and (b.value.endswith(_ERROR_BASES) or b.value in errors)
                            for b in bases):
        return None
    names = " and ".join(b.value for b in bases)
    return f"{statement.name.value} is a kind of error of its own, a special case of {names}"


def _marker_class(statement: cst.ClassDef) -> str | None:
    """A class with nothing in it (`class _MISSING: pass`), whose objects serve as markers, else None."""
    bases = [a.value for a in statement.bases]
    if statement.decorators or any(not (isinstance(b, cst.Name) and b.value == "object") for b in bases):
        return None
    suite = statement.body
    lines = [suite] if isinstance(suite, cst.SimpleStatementSuite) else list(suite.body)
    if not all(isinstance(line, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) and
               all(isinstance(small, cst.Pass) or is_noop(small) for small in line.body) for line in lines):
        return None
    return f"{statement.name.value} is a kind of object of its own with nothing in it (each one made equals only itself)"


def _stores_item(statement: cst.BaseStatement) -> bool:
    """A module-level line that stores into a table (`TABLE[32] = "_"`): a step of building the fixed values."""
    return isinstance(statement, cst.SimpleStatementLine) and any(
        isinstance(small, cst.Assign) and any(isinstance(t.target, cst.Subscript) for t in small.targets)
        for small in statement.body)


def _fixed(statement, say: Speaker, told: set[str] = frozenset(), typing_only: set[str] = frozenset()) -> str:
    """A module-level line (a constant, an import) as a fixed value, or nothing for an import, a
    class in `told` (told with its methods among the helpers) or a name only annotations read."""
    if isinstance(statement, cst.SimpleStatementLine):
        parts = []
        for small in statement.body:
            if isinstance(small, (cst.Import, cst.ImportFrom)) or is_noop(small):
                continue
            if isinstance(small, cst.AnnAssign) and small.value is not None and isinstance(small.target, cst.Name):
                small = cst.Assign(targets=[cst.AssignTarget(small.target)], value=small.value)  # `N: int = 3`
            if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
                if small.targets[0].target.value in say.records:
                    fields = _join_words(say.records[small.targets[0].target.value])
                    parts.append(f"{small.targets[0].target.value} makes a tuple whose items are also named {fields}")
                    continue
                if small.targets[0].target.value in say.pattern_texts or small.targets[0].target.value in say.flag_names:
                    continue  # a pattern, or flags, are said where they are used
                if small.targets[0].target.value in say.tables:
                    continue  # a table of patterns is said row by row after the fixed values
                if small.targets[0].target.value in typing_only:
                    continue  # read only by annotations, which change no value
                if isinstance(small.value, cst.Attribute) and small.targets[0].target.value in say.bound and \
                        method_of_value(small.value.value):
                    continue  # a method bound to a name is said where it is called
                if isinstance(small.value, cst.Attribute) and isinstance(small.value.value, cst.Call) and \
                        small.targets[0].target.value in say.helpers:
                    maker = small.value.value
                    parts.append(f"{small.targets[0].target.value} is the method {small.value.attr.value} of one new "
                                 f"object of the class {say.value(maker.func)}, made {say.call_with(maker)} before "
                                 f"any step (the same object at every use)")
                    continue
                parts.append(f"{small.targets[0].target.value} is {say.value(small.value)}")
                continue
            if isinstance(small, cst.Assign) and len(small.targets) == 1 and (
                    each := unpacked(small.targets[0].target, small.value)):  # `_GRAY, _BLACK = 0, 1`
                parts.extend(f"{name} is {say.value(value)}" for name, value in each)
                continue
            if isinstance(small, cst.Assign) and len(small.targets) > 1 and all(
                    isinstance(t.target, cst.Name) for t in small.targets):  # `PSILI = SMOOTH = "\u0313"`
                names = [t.target.value for t in small.targets]
                parts.append(f"{_join_words(names)} are both {say.value(small.value)}" if len(names) == 2 else
                             f"{_join_words(names)} are all {say.value(small.value)}")
                continue
            raise Undescribable("a module-level statement other than a constant or an import")
        return "; ".join(parts)
    if isinstance(statement, cst.ClassDef):
        if statement.name.value in say.inert and statement.name.value not in told:
            return ""  # read only by annotations, which change no value: defining it changes nothing else
        if statement.name.value in say.texts:
            return (f"{statement.name.value} is a kind of text of its own: each one made is a text (with fields of its "
                    f"own that no step reads) and behaves as that text in every step")
        if statement.name.value in say.based:  # built on a library class: its words live in vocab/
            return vocab.CLASSES[say.based_on[statement.name.value]]["told"](say, statement)
        if statement.name.value in say.dataclasses:  # a class of fields: its words live in vocab/
            return vocab.DATACLASS["told"](say, statement.name.value, say.dataclasses[statement.name.value],
                                           statement.name.value in say.frozen)
        if statement.name.value in say.records:  # `class P(NamedTuple)`, as `P = namedtuple(...)`
            return f"{statement.name.value} makes a tuple whose items are also named {_join_words(say.records[statement.name.value])}"
        errors = {name for name in say.classes}
        described = _error_class(statement, errors) or _marker_class(statement)
        if described:
            return described
        if statement.name.value in told:
            return ""  # told with its methods among the helpers
        if statement.name.value in say.checked:
            return f"{statement.name.value} is a kind of object of its own (no step makes one)"
        raise Undescribable("a module-level class other than a kind of error")
    raise Undescribable("a module-level compound statement")


def _outputs(trackers: list[Tracker], stats: str, output_format: str, say: Speaker) -> str:
    lines = [f"- {t.name}: {_tracker_words(t, say)}." for t in trackers]
    counters = "this counter" if len(trackers) == 1 else f"these {len(trackers)} counters, each"
    return (f"OUTPUTS: The result ({type_words(output_format)}) and the dictionary {stats} with exactly "
            f"{counters} at its final value:\n" + "\n".join(lines))


_FRAGMENT = re.compile(r"`([^`]*)`")


_WHERE = re.compile(r" \((inside the helper \w+)\)$")


def _tracker_words(tracker: Tracker, say: Speaker) -> str:
    """A tracker's explanation with its code fragments said in words (or left out when they cannot be);
    a counter inside a helper says which one."""
    where = _WHERE.search(tracker.explanation)
    if where:
        inner = tracker.model_copy(update={"explanation": tracker.explanation[:where.start()]})
        return f"{_tracker_words(inner, say)}, {where[1]}"
    fragments = _FRAGMENT.findall(tracker.explanation)
    if len(fragments) == 1 and tracker.kind in ("loop_iterations", "branch_taken"):
        fragment = fragments[0].strip()
        try:
            if tracker.kind == "loop_iterations" and fragment.startswith(("for ", "while ")):
                return "how many rounds " + _loop_words(fragment, say) + " makes in all (every round begun counts)"
            if tracker.kind == "branch_taken" and fragment.startswith("if "):
                test = cst.parse_expression(fragment[3:].rstrip(":"))
                return f"how many times the check whether {say.condition(test)} comes out true"
        except (cst.ParserSyntaxError, Undescribable):
            pass

    def words(match: re.Match) -> str:
        fragment = match[1].strip()
        try:
            if fragment.startswith(("for ", "while ")):
                return _loop_words(fragment, say)
            if fragment.startswith(("if ", "elif ")):
                test = cst.parse_expression(fragment.split(" ", 1)[1].rstrip(":"))
                return f"where you check whether {say.condition(test)}"
            return say.value(cst.parse_expression(fragment))
        except (cst.ParserSyntaxError, Undescribable):
            return "(see the steps that change it)"
    text = _FRAGMENT.sub(words, tracker.explanation).strip().rstrip(".")
    if holds_code(text):
        text = f"what the steps that change the counter {tracker.name} leave in it"
    return text


def _loop_words(header: str, say: Speaker) -> str:
    """`for x in xs` / `while c` as "the loop over ..." / "the loop that runs while ..."."""
    loop = cst.parse_statement(header.rstrip(":") + ":\n    pass\n")
    if isinstance(loop, cst.For):
        source = loop.iter
        if isinstance(source, cst.Call) and isinstance(source.func, cst.Name) and source.func.value == "range":
            return "the loop over the whole numbers " + say.counting(say.arguments(source)[0])
        what = say.grouped(source)
        return f"the loop over {what if what.startswith(('the ', '(')) else 'the items of ' + what}"
    if isinstance(loop, cst.While):
        return f"the loop that runs while {say.condition(loop.test)}"
    raise Undescribable("a loop header")


def type_words(kind: str) -> str:
    """A LogicIF type name (`int`, `list[str]`, `Union[int, str]`, `tuple(int, str)`) in English."""
    kind = kind.strip()
    simple = {"int": "a whole number", "float": "a decimal number", "str": "a piece of text",
              "bool": "true or false", "list": "a list", "dict": "a dictionary", "None": "None (nothing)",
              "NoneType": "None (nothing)", "tuple": "a tuple", "set": "a set"}
    if kind in simple:
        return simple[kind]
    if kind.startswith("Union[") and kind.endswith("]"):  # a choice inside a choice is bracketed, so each "or" is plain
        parts = [(part, type_words(part)) for part in _split_top(kind[6:-1])]
        return " or ".join(f"({words})" if " or " in words and part != "bool" else words for part, words in parts)
    if kind.startswith("list[") and kind.endswith("]"):
        inner = kind[5:-1]
        if inner.startswith("Union["):
            return "a list whose items are each " + type_words(inner)
        return "a list of " + _plural(inner)
    if kind.startswith("tuple(") and kind.endswith(")"):
        parts = [type_words(p) for p in _split_top(kind[6:-1])]
        noun = {1: "a tuple of one item", 2: "a pair", 3: "a triple"}.get(len(parts), f"a tuple of {len(parts)} items")
        return f"{noun} ({_join_words(parts)}, in that order)" if parts else "an empty tuple"
    return f"a value of the kind {kind}"


def _plural(kind: str) -> str:
    plural = {"int": "whole numbers", "float": "decimal numbers", "str": "pieces of text", "bool": "true/false values",
              "dict": "dictionaries", "list": "lists", "None": "None values"}
    if kind in plural:
        return plural[kind]
    return "items that are each " + type_words(kind)


def _split_top(text: str) -> list[str]:
    """Split `a, b[c, d], e` at the commas outside brackets."""
    parts, depth, current = [], 0, ""
    for char in text:
        if char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    if current.strip():
        parts.append(current.strip())
    return parts


def _ends_with_return(function: cst.FunctionDef) -> bool:
    body = function.body.body
    return bool(body) and isinstance(body[-1], cst.SimpleStatementLine) and isinstance(body[-1].body[-1], cst.Return)


class _InnerFunctions(Reader):
    def __init__(self):
        self.names: set[str] = set()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.names.add(node.name.value)


def _nested(entry: cst.FunctionDef) -> set[str]:
    """Functions defined anywhere inside `f` (a tracker turns a counted lambda or comprehension into
    one, even inside a loop): each is a helper the steps may call or pass as a key."""
    found = _InnerFunctions()
    walk(entry.body, found)
    return found.names


def _stats_name(entry: cst.FunctionDef) -> str:
    first = entry.body.body[0]
    if isinstance(first, cst.SimpleStatementLine) and isinstance(first.body[0], cst.Assign):
        return cst.Module([]).code_for_node(first.body[0].targets[0].target).strip()
    return "stats"


_NUMBER_WORDS = dict(enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())) | {30: "thirty", 40: "forty", 50: "fifty", 60: "sixty",
                                                     70: "seventy", 80: "eighty", 90: "ninety", 100: "hundred",
                                                     1000: "thousand"}
# words that never follow the article "a", so "a" before them is the name a ("add a to b", "a is empty")
_NOT_AFTER_ARTICLE = ("and", "or", "is", "are", "was", "to", "by", "from", "with", "of", "in", "at", "as", "into",
                      "than", "plus", "minus", "times", "holds", "has", "equals", "becomes", "stays", "itself",
                      "if", "when", "then", "gets", "changes")
_NAME_BEFORE = ("list", "input", "number", "parameter", "argument", "value", "text", "string", "dictionary", "tuple",
                "set", "called", "named")  # "the list a contains ..."


def uncovered(description: str, source: str, trackers: list[Tracker]) -> list[str]:
    """What a description fails to mention: parameters, tracker keys and numeric constants of f.

    A constant counts as mentioned in the form it is written in the code (`0xff`), as its value
    (`255`) or as its English word ("zero", "one", ..., "twenty", "thirty", "hundred"); a constant
    that is only a position or slice bound (`x[0]`, `x[-1]`, `x[1:]`) need not be mentioned, since
    a description says "the first" or "the last" instead of quoting the index. A parameter named
    `a` is not mentioned by the article "a": only by an "a" that no noun follows ("add a to b") or
    that a kind of value comes before ("the list a contains")."""
    module = cst_module(source)
    entry = next(s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == "f")
    wanted: list[tuple[str, set[str]]] = [(p.name.value, {p.name.value}) for p in cst_parameters(entry)]
    wanted += [(t.name, {t.name}) for t in trackers]
    constants: dict[str, set[str]] = {}
    positions: set[int] = set()  # ids of the constants that are only positions

    def position(node) -> None:
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            node = node.expression
        if isinstance(node, cst.Integer):
            positions.add(id(node))

    class Numbers(Reader):
        def visit_SubscriptElement(self, node):
            if isinstance(node.slice, cst.Index):
                position(node.slice.value)
            elif isinstance(node.slice, cst.Slice):
                for bound in (node.slice.lower, node.slice.upper, node.slice.step):
                    position(bound)

        def visit_Integer(self, node):
            if id(node) in positions:
                return
            written = node.value.replace("_", "").lower()
            value = int(written, 0)
            constants.setdefault(str(value), set()).update({written, str(value), _NUMBER_WORDS.get(value, str(value))})

        def visit_Float(self, node):
            written = node.value.replace("_", "").lower()
            if not written.endswith("j"):
                forms = {written, repr(float(written)), float_words(written)}
                if float(written).is_integer() and int(float(written)) in _NUMBER_WORDS:
                    forms.add(_NUMBER_WORDS[int(float(written))])
                if float(written) == 0.5:
                    forms.add("half")
                constants.setdefault(repr(float(written)), set()).update(forms)

    walk(module, Numbers())
    words = set(re.findall(r"0[xob][0-9a-f]+|[A-Za-z_][A-Za-z_0-9]*|\d+(?:\.\d+)?(?:e[-+]?\d+)?", description, re.I))
    numbers = {w.lower() for w in words}  # "0XFF", "Zero"
    if not (re.search(r"\ba\b(?!\s+(?!(?:" + "|".join(_NOT_AFTER_ARTICLE) + r")\b)[A-Za-z])", description)
            or re.search(r"\b(?:" + "|".join(_NAME_BEFORE) + r")\s+a\b", description)):
        words.discard("a")  # only ever the article
    return [name for name, forms in wanted if not forms & words] + [
        value for value, forms in sorted(constants.items()) if not forms & numbers]


def _mentioned(nodes) -> set[str]:
    """Every name that occurs in the nodes."""
    found: set[str] = set()

    class Names(Reader):
        def visit_Name(self, node):
            found.add(node.value)

    for node in nodes:
        walk(node, Names())
    return found


_CHANGES_IN_PLACE = {"append", "extend", "insert", "pop", "remove", "clear", "popleft", "appendleft", "add",
                     "discard", "update", "setdefault", "popitem", "sort", "reverse", "difference_update",
                     "intersection_update", "symmetric_difference_update", "rotate", "extendleft", "subtract"}


def _root(node) -> set[str]:
    """The name a changed value is reached from: `v` of `v[i].items`, none for a call's result."""
    while isinstance(node, (cst.Subscript, cst.Attribute)):
        node = node.value
    return {node.value} if isinstance(node, cst.Name) else set()


def _bound_in(body) -> set[str]:
    """Names a block assigns to or changes in place (`v.pop()`, `v.append(x)`, `del v[0]`), anywhere inside it."""
    found: set[str] = set()

    class Bound(Reader):
        def visit_Call(self, node):
            if isinstance(node.func, cst.Attribute) and node.func.attr.value in _CHANGES_IN_PLACE:
                found.update(_root(node.func.value))

        def visit_Del(self, node):
            found.update(_root(node.target))

        def visit_AssignTarget(self, node):
            found.update(_mentioned([node.target]))

        def visit_AugAssign(self, node):
            found.update(_mentioned([node.target]))

        def visit_For(self, node):
            found.update(_mentioned([node.target]))

    walk(body, Bound())
    return found


def _rebinds(body, args) -> bool:
    """Does the loop body change a variable the range's bounds read? Then the reader must know the
    bounds were fixed before the loop started."""
    return bool(_mentioned(args) & _bound_in(body))


def _reads_any(value: cst.BaseExpression, target: cst.BaseExpression) -> bool:
    """Does the right side of `a, b = x, y` read a name the left side sets?"""
    return bool(_mentioned([value]) & _mentioned([target]))


def _plain_setting(statement) -> tuple[str, cst.BaseExpression, cst.SimpleStatementLine] | None:
    """`name = value` alone on its line (not a counter, not an unpacking): (name, value, line)."""
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        small = statement.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) \
                and not isinstance(small.value, cst.Dict) and not (
                    isinstance(small.value, cst.Call) and isinstance(small.value.func, cst.Name)
                    and small.value.func.value in ("max", "min")):
            return small.targets[0].target.value, small.value, statement
    return None


def _merge_settings(statements) -> list:
    """Runs of `x = ...` lines none of which reads a name set earlier in the run, as one line
    `x, y = ..., ...`: told as one step ("Set x to 0, y to 1 and z to a new empty list.")."""
    merged: list = []
    run: list[tuple[str, cst.BaseExpression, cst.SimpleStatementLine]] = []

    def flush():
        if len(run) == 1:
            merged.append(run[0][2])
        elif run:
            merged.append(_AssignmentRun(run=list(run)))
        run.clear()

    for statement in statements:
        setting = _plain_setting(statement)
        earlier = {name for name, _, _ in run}
        if setting and not (_mentioned([setting[1]]) & earlier) and setting[0] not in earlier:
            run.append(setting)
            continue
        flush()
        if setting:
            run.append(setting)
        else:
            merged.append(statement)
    flush()
    return merged


class _AssignmentRun:
    """Several independent `name = value` lines told as one step."""

    def __init__(self, run):
        self.run = run


def _inline_if(line: str) -> bool:
    """Is this numbered line a whole `if` told in one sentence ("3.2. If x is 0, add 1 to count.")?"""
    text = re.sub(r"^\s*(?:[0-9a-z]+\.)+\s", "", line)
    return text.startswith("If ") and not text.rstrip().endswith(":")


# one handler per kind of statement: (narrator, statement, in_entry) -> steps
_STATEMENTS = {
    _AssignmentRun: _Narrator.assignment_run, cst.SimpleStatementLine: _Narrator.line,
    cst.If: _Narrator.if_, cst.For: lambda n, s, _: [n.for_(s)], cst.While: lambda n, s, _: n.while_(s),
    cst.FunctionDef: _Narrator.inner_function, cst.Try: _Narrator.try_statement,
}
_UNSAID = {cst.With: "a with statement", cst.ClassDef: "a class definition"}
# one handler per kind of simple statement: (narrator, statement, in_entry) -> a sentence ("" for none)
_SMALL = {
    cst.Assign: lambda n, s, _: n.assign(s), cst.AnnAssign: _Narrator.annotated,
    cst.AugAssign: lambda n, s, _: n.augment(s), cst.Expr: _Narrator.expression, cst.Return: _Narrator.return_,
    cst.Break: lambda n, s, _: "Leave the innermost loop now.",
    cst.Continue: lambda n, s, _: "Skip to the next round of the innermost loop.",
    cst.Pass: lambda n, s, _: "Do nothing here.", cst.Nonlocal: _Narrator.scope, cst.Global: _Narrator.scope,
    cst.Import: lambda n, s, _: "", cst.ImportFrom: lambda n, s, _: "",  # said where the module's functions are used
    cst.Raise: lambda n, s, _: n.raise_(s), cst.Del: lambda n, s, _: n.delete(s.target),
    cst.Assert: _Narrator.assert_,
}
