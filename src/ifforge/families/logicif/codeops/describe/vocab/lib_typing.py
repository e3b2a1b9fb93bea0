"""typing: `class P(NamedTuple)` with `name: kind` lines makes a record, as `namedtuple("P", "x y")` does (a tuple
whose items are also named; facts `records`)."""

from __future__ import annotations

LIBRARY = "typing"
SHAPES = {"NamedTuple": "record"}
WORDS: dict = {}
