"""typing: `class P(NamedTuple)` with `name: kind` lines makes a record, as `namedtuple("P", "x y")` does (a tuple
whose items are also named; facts `records`). `Generic[T]` as a base only serves type checkers: the class is told as
without it, and `T = TypeVar("T")` read only there and in annotations needs no words."""

from __future__ import annotations

LIBRARY = "typing"
SHAPES = {"NamedTuple": "record"}
AIDS = {"Generic"}
WORDS: dict = {}
