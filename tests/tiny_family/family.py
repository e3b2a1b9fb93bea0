"""Echo: a word to say back in capitals. The smallest family the contract allows, end to end: seeded
words (`load`), gold by running code (`plan`: one stage), rows (`export`), what the model is sent
(`request`), one verdict per reply (`check`), one metric (the share right, by length) and one trivial
baseline. Registered by one line (`FAMILIES.registered(Entry(...))`), it goes through generate,
floors, evaluate, every export and the review page with no edit of generic code."""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from ifforge.core.records import Outcome, Record
from ifforge.core.registry import Registry
from ifforge.core.runner import Stage
from ifforge.core.settings import Settings
from ifforge.core.store.versions import VersionStore, code_version
from ifforge.eval.baselines import Baseline
from ifforge.eval.report import Report
from ifforge.families.base import Family, Loaded, Reply, Request, Verdict

WORDS = ("cat", "OK", "window", "tree", "USA", "lantern", "sky", "NASA", "river", "pebble")


class EchoSettings(Settings):
    family: str = "echo"
    seed: int = 0
    words: int = 6


class Word(Record):
    task_id: str
    word: str


class Gold(Record):
    task_id: str
    word: str
    gold: str


def capitals(item: Word) -> Outcome[Gold]:
    """The gold comes from running code, never from a model."""
    return Outcome(kept=Gold(task_id=item.task_id, word=item.word, gold=item.word.upper()))


class SaysTheWord(Baseline):
    id = "the_word"
    description = "the word as given, not in capitals: right where it already is"

    def replies(self, row, turns):
        return [row["word"]]


class EchoReport(Report):
    name = "Echo"
    groups = ("length",)


class Echo(Family):
    id = "echo"
    title = "a word said back in capitals"
    measures = "whether a model says a word back in capitals"
    follows = "nothing published: the tests' own family"
    settings_class = EchoSettings
    loads = Word
    row_fields = {"task_id": str, "word": str, "gold": str}
    carried = ("task_id", "gold", "length")
    report = EchoReport()
    baselines = Registry("baseline", (SaysTheWord,))

    def load(self, settings: EchoSettings) -> Loaded:
        rng = random.Random(settings.seed)
        items = [Word(task_id=f"w{i}", word=rng.choice(WORDS)) for i in range(settings.words)]
        return Loaded(items=items, dropped=[], inputs={"seed": settings.seed})

    def plan(self, settings: EchoSettings) -> list:
        return [Stage("capitals", code_version(sys.modules[__name__]), Gold, capitals, reads=Word)]

    def export(self, store: VersionStore, items: list[Gold], settings: EchoSettings, side: dict) -> dict[str, Any]:
        rows = [{"family": self.id, "task_id": item.task_id, "word": item.word, "gold": item.gold,
                 "length": "short" if len(item.word) <= 3 else "long",
                 "prompt": f"Say this word back in capital letters, and nothing else: {item.word}"}
                for item in items]
        store.write("benchmark.jsonl", "".join(json.dumps(row) + "\n" for row in rows))
        return {"tasks": len(rows), "rows": len(rows)}

    def request(self, row: dict[str, Any]) -> Request:
        return Request((row["prompt"],))

    def check(self, row: dict[str, Any], reply: Reply, options: Any = None) -> Verdict:
        right = not reply.failed and (reply.text or "").strip() == row["gold"]
        return Verdict(right, ({"task_id": row["task_id"], "length": row.get("length"),
                                "request_failed": reply.failed, "correct": right},))


FAMILY = Echo()
