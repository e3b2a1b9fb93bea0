"""Checks an LLM-written function must pass before it is kept: it parses, has the right signature,
returns `(output, trackers)` with 1 to 3 trackers on every input, gives the expected outputs, its
trackers tell something on the cases execute would keep (the deterministic path judges its own by
the same `kept_cases`), and (for anonymisation) it keeps none of the author's names. Everything
runs in the sandbox."""

from __future__ import annotations

import ast
import builtins
import json
import re

from pydantic import BaseModel

from ifforge.core import pyast

from ifforge.core.sandbox import execution as sandbox
from ifforge.core.prompts import load_prompt
from ifforge.core.store.versions import canonical_json
from ifforge.families.logicif.codeops.common.domain import domain_used, listed
from ifforge.families.logicif.codeops.instrument.trackers import tracker_problems
from ifforge.families.logicif.configs import TrackerConfig
from ifforge.families.logicif.filters import case_problem

# how a model is asked again when the code it wrote is refused (instrument and evolve)
CODE_AGAIN = "That code cannot be used: {problem}. Fix it and answer again with the whole JSON object."


def signature(source: str, name: str) -> str | None:
    """The parameter list of top-level function `name` as text, or None when it is missing."""
    for node in pyast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return ast.unparse(node.args)
    return None


def author_names(source: str) -> set[str]:
    """Names the author chose that say something (longer than two letters, not builtins)."""
    names = set()
    for node in ast.walk(pyast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return {n for n in names if len(n) > 2 and n not in dir(builtins) and not re.fullmatch(r"[vgp]\d+", n)}


def identifiers(source: str) -> set[str]:
    tree = pyast.parse(source)
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
        a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)} | {
        n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}


def tracked_function_problem(code: str, args: list[list], tracker_names: list[str], *,
                             expected: list[sandbox.CaseResult] | None = None,
                             limits: sandbox.Limits = sandbox.Limits(),
                             budget: sandbox.Budget | None = None, judge=None) -> str | None:
    """Why `code` fails as a tracked `f` on these inputs, or None when it passes.

    `expected` holds the reference's results per case: its output is compared wherever it ran, a
    None output too (only a case the reference itself failed on is not compared);
    `judge(results)`, when given, may find a last problem in the same run's results."""
    try:
        tree = pyast.parse(code)
    except SyntaxError as error:
        return f"the code does not parse: {error.msg} (line {error.lineno})"
    if not any(isinstance(n, ast.FunctionDef) and n.name == "f" for n in tree.body):
        return "there is no top-level function named f"
    if not 1 <= len(tracker_names) <= 3 or len(set(tracker_names)) != len(tracker_names):
        return f"expected 1 to 3 distinct trackers, got {tracker_names}"
    results = sandbox.run_cases(code, "f", args, tracked=True, limits=limits, budget=budget)
    for index, result in enumerate(results):
        shown = canonical_json(args[index])[:200]
        if not result.ok:
            return f"on input {shown}: {result.status}: {result.error}"
        if sorted(result.stats) != sorted(tracker_names):
            return f"on input {shown}: tracker keys {sorted(result.stats)} differ from the declared {sorted(tracker_names)}"
        if expected is not None and expected[index].ok:
            if canonical_json(result.output) != canonical_json(expected[index].output):
                return (f"on input {shown}: f returns {canonical_json(result.output)[:200]}, but the original returns "
                        f"{canonical_json(expected[index].output)[:200]}")
    return judge(results) if judge is not None else None


def kept_cases(results: list[sandbox.CaseResult], args: list[list], settings: TrackerConfig,
               tracked: bool = True) -> tuple[list[tuple[list, dict]], list[str]]:
    """(arguments, stats) of the cases execute would keep, judged on one run; and why others are out.
    `tracked=False` reads a probe's result, the pair (output, stats) as the function returned it."""
    kept, lost = [], []
    for arguments, result in zip(args, results):
        output, stats = result.output, result.stats
        if result.ok and not tracked:
            pair = result.output
            output, stats = (pair[0], pair[1]) if isinstance(pair, list) and len(pair) == 2 else (None, None)
        if not result.ok or not isinstance(stats, dict):
            lost.append(f"{result.status}: {result.error[:200]}" if not result.ok else "no stats")
            continue
        problem = case_problem(arguments, output, settings)
        if problem:
            lost.append(problem[0])
            continue
        kept.append((arguments, stats))
    return kept, lost


def informative(names: list[str], args: list[list], settings: TrackerConfig):
    """A judge for `tracked_function_problem`: a model's trackers must tell something on the
    cases execute will keep, like the deterministic path's (judged on the run the check makes)."""

    def judge(results: list[sandbox.CaseResult]) -> str | None:
        cases, _ = kept_cases(results, args, settings)
        found = tracker_problems(names, cases, settings.max_tracker_value) if len(cases) >= settings.min_cases else []
        return ("each tracker must vary across the test inputs, not repeat an input's length or value, stay below "
                f"{settings.max_tracker_value:g}, and not equal another: " + "; ".join(found)) if found else None

    return judge


SHOWN_INPUTS, SHOWN_CHARACTERS = 40, 600


def tracker_rules(args: list[list], settings: TrackerConfig, words: list[str]) -> str:
    """The checks a model's tracked `f` must pass, as the anonymise and evolve prompts state them,
    with the inputs they run on (so "vary across the inputs" is something the model can see)."""
    return load_prompt("tracker_rules").render(max_tracker_value=f"{settings.max_tracker_value:g}",
                                               domain_words=listed(words), inputs=shown_inputs(args))


def shown_inputs(args: list[list]) -> str:
    """The inputs a prompt shows, one JSON call a line as the rows carry them (null, not None)."""
    lines = []
    for arguments in args[:SHOWN_INPUTS]:
        shown = json.dumps(arguments, ensure_ascii=False)  # in the input's own key order
        lines.append(shown if len(shown) <= SHOWN_CHARACTERS else shown[:SHOWN_CHARACTERS] + " ... (cut here)")
    if len(args) > SHOWN_INPUTS:
        lines.append(f"... and {len(args) - SHOWN_INPUTS} more inputs")
    return "\n".join(lines)


def tracker_names_problem(names: list[str], words: list[str]) -> str | None:
    """Tracker names that say what the original code was about undo the anonymisation."""
    used = domain_used(" ".join(names), words)
    return (f"the tracker names use words that give away what the original code was about ({', '.join(used)}); "
            "name what each one measures in neutral words") if used else None


class TrackerReply(BaseModel):
    name: str
    explanation: str = ""
