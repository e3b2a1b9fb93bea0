"""A scripted 'model' for the stub server: it answers each pipeline prompt the way a good model
would (using the project's deterministic tools), and misbehaves on cue for chosen task ids."""

from __future__ import annotations

import ast
import json

from ifforge.families.logicif.codeops.describe.narrate import describe
from ifforge.families.logicif.codeops.instrument.anonymise import anonymise
from ifforge.families.logicif.codeops.instrument.trackers import build, propose
from ifforge.families.logicif.records import Tracker
from ifforge.testing.openai_stub import Answer


def _between(text: str, start: str, end: str) -> str:
    head = text.index(start) + len(start)
    return text[head:text.index(end, head)]


def _trackers(code: str) -> list[Tracker]:
    entry = next(n for n in ast.parse(code).body if isinstance(n, ast.FunctionDef) and n.name == "f")
    first = entry.body[0]
    keys = [k.value for k in first.value.keys] if isinstance(first, ast.Assign) and isinstance(first.value, ast.Dict) else []
    return [Tracker(name=k, kind="llm", explanation=f"the {k} counter") for k in keys]


class Oracle:
    def __init__(self, *, markers: dict[str, str], wrong_once=(), always_wrong=(), bad_evolution=(), refine_once=(),
                 never_complete=(), prose_first=()):
        self.markers = markers  # task id -> a string literal only its code contains (names are anonymised)
        self.wrong_once, self.always_wrong = set(wrong_once), set(always_wrong)
        self.bad_evolution, self.refine_once = set(bad_evolution), set(refine_once)
        self.never_complete, self.prose_first = set(never_complete), set(prose_first)
        self.kinds: list[str] = []

    def __call__(self, request) -> Answer:
        messages = request["messages"]
        first = messages[0]["content"]
        retry = len(messages) > 1
        if "You are preparing a Python function" in first:
            kind, answer = "anonymise", self.anonymise(first, retry)
        elif "Make the logic of `f` harder" in first:
            kind, answer = "evolve", self.evolve(first)
        elif "Explain the Python function below" in first:
            kind, answer = "describe", self.describe(first, retry)
        elif "You are reviewing a natural-language description" in first:
            kind, answer = "verify", self.verify(first)
        elif "was checked, and the points listed below must be fixed" in first:
            kind, answer = "refine", self.refine(first)
        elif "Write " in first and "new versions of this template" in first:
            kind, answer = "rewrite", self.rewrite(first)
        else:
            kind, answer = "other", Answer(content="?")
        self.kinds.append(kind)
        return answer

    def anonymise(self, prompt: str, retry: bool) -> Answer:
        source = _between(prompt, "Original code:\n```python\n", "\n```")
        entry = _between(prompt, "The entry function `", "`")
        probe = propose(anonymise(source, entry).source)  # no inputs here: a branch tells most often
        branches = [c for c in probe.candidates if c.role == "branch"]
        code, trackers = build(probe, (branches or probe.candidates)[:1])
        names = [t.name for t in trackers]
        if entry in self.always_wrong or (entry in self.wrong_once and not retry):
            names = ["not_a_tracker"]
        reply = {"function": code, "trackers": [{"name": n, "explanation": f"counts {n}"} for n in names]}
        return Answer(content="Here is the rewritten function:\n" + json.dumps(reply))

    def evolve(self, prompt: str) -> Answer:
        code = _between(prompt, "```python\n", "\n```")
        trackers = [t.name for t in _trackers(code)]
        if self._task(code) in self.bad_evolution:
            code = code.replace("def f(", "def f(extra, ", 1)
        reply = {"function": code, "trackers": [{"name": t, "explanation": t} for t in trackers],
                 "change": "kept the logic, renamed nothing"}
        return Answer(content=json.dumps(reply))

    def describe(self, prompt: str, retry: bool) -> Answer:
        code = _between(prompt, "```python\n", "\n```")
        if self._task(code) in self.prose_first and not retry:
            return Answer(content="This function does several things with its inputs.")
        return Answer(content="Sure, here it is.\n\n" + describe(code, _trackers(code), {}, "int"))

    def verify(self, prompt: str) -> Answer:
        code = _between(prompt, "```python\n", "\n```")
        description = _between(prompt, 'The description:\n"""\n', '\n"""')
        task = self._task(code)
        complete = not (task in self.never_complete or (task in self.refine_once and "REFINED" not in description))
        review = {"desc_is_complete": complete, "reasoning": "checked every step",
                  "missing_aspects": [] if complete else ["the order of the two updates is ambiguous"],
                  "coverage_percentage": 100 if complete else 70}
        return Answer(content=json.dumps(review))

    def refine(self, prompt: str) -> Answer:
        description = _between(prompt, 'The current description:\n"""\n', '\n"""')
        return Answer(content=description + "\nREFINED: the two updates happen in the order written.")

    def rewrite(self, prompt: str) -> Answer:
        """Ten rewrites per set, taken from the project's hand-written bank (a model would write its own)."""
        from ifforge.transforms.expressions import load_bank

        round_number = int(prompt.split("set number ")[1].split(":")[0])
        bank = load_bank("solve")
        return Answer(content=json.dumps({"rewrites": bank[(round_number - 1) * 10: round_number * 10]}))

    def _task(self, code: str) -> str:
        """Tasks are recognised by a fingerprint of their code, registered by the test."""
        for task, marker in self.markers.items():
            if marker in code:
                return task
        return ""
