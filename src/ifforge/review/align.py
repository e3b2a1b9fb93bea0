"""Which code line each step of a description describes, so the page can show them side by side."""

from __future__ import annotations

import math
import re
from collections import Counter

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?")
_TICKED = re.compile(r"`([^`\n]+)`")
_NUMBERING = re.compile(r"^\s*(?:\d+[.)]|[-*\u2022])\s*")  # "1. ", "2) ", "- ", "• "
# English words that are also common short names: matched only when a step puts them in backticks
_STOPWORDS = frozenset("a an the in is and or not to of it as by be on at with if for s t".split())


def description_steps(description: str) -> list[str]:
    """The description cut into steps: each line, and each sentence of a long line."""
    steps = []
    for line in description.splitlines():
        # a sentence ends at . ! ? or : after a word, never after a list number ("1. Add ...")
        steps += [part.strip() for part in re.split(r"(?<=[A-Za-z)\]`'\"][.!?:])\s+(?=[A-Z0-9])", line) if part.strip()]
    return steps


def align_steps(function: str, steps: list[str]) -> list[int]:
    """The code line (1-based) each step describes: the line sharing the most telling names with it
    (names rare in the code weigh more), the nearest one at or after the previous step's on a tie;
    a step naming nothing in the code stays with the step before it."""
    lines = function.splitlines() or [""]
    names = [set(_WORD.findall(line)) for line in lines]
    count = Counter(name for line_names in names for name in line_names)
    weight = {name: math.log((len(lines) + 1) / n) for name, n in count.items()}
    placed, previous = [], 1
    for step in steps:
        text = _NUMBERING.sub("", step)
        ticked = {word for code in _TICKED.findall(text) for word in _WORD.findall(code)}
        words = {w for w in _WORD.findall(text) if w.lower() not in _STOPWORDS and w != "I"} | ticked
        scores = [sum(weight[w] for w in words & line_names) for line_names in names]
        best = max(scores)
        if best > 0:
            previous = max(range(1, len(lines) + 1),
                           key=lambda n: (scores[n - 1] >= best - 1e-9, n >= previous, -abs(n - previous)))
        placed.append(previous)
    return placed
