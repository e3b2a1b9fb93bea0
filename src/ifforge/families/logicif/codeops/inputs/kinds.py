"""Values of another JSON kind, for a parameter whose kind the code asks about (never runs code).

Type predicates and functions that dispatch on a value's kind (`isinstance(x, (list, tuple))`,
`type(x) is str`, `callable(x)`, `hasattr(x, "keys")`, `try: iter(x) except TypeError`) answer
the same for every value of one kind: drawn as whole numbers only, they give one output. Where
the code tests a value's kind (`candidates.Facts.tested`), candidates draw it at times as another
kind (a number, a float, a text, true or false, null, a list, a mapping) unless the code sets it anew
(`n = int(n)`: a normaliser, said for one kind), and the rescue swaps one such argument's kind. A
value the code does not test keeps the kind read from its uses.
"""

from __future__ import annotations

import random
import string
from typing import Any

KINDS = ("null", "bool", "int", "float", "str", "list", "dict")


def kind_of(value: Any) -> str:
    """The JSON kind of a value (`True` is a bool, not a whole number)."""
    if value is None:
        return "null"
    return {bool: "bool", int: "int", float: "float", str: "str", list: "list", dict: "dict"}.get(type(value), "")


def another(value: Any, rng: random.Random, words: list[str] = (), numbers: list[int] = ()) -> Any:
    """A small value of a JSON kind other than `value`'s, its texts and numbers at times the
    code's own (`words`, `numbers`): lists of numbers and of texts, and empty ones, alike."""
    kind = rng.choice([k for k in KINDS if k != kind_of(value)])
    return _make(kind, rng, list(words), list(numbers), 0)


def _make(kind: str, rng: random.Random, words: list[str], numbers: list[int], depth: int) -> Any:
    if kind == "null":
        return None
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "int":
        return rng.choice(numbers) if numbers and rng.random() < 0.5 else rng.randint(-3, 25)
    if kind == "float":
        return rng.randint(-4, 40) / 2 + 0.25 * rng.choice((0, 1))
    if kind == "str":
        if words and rng.random() < 0.5:
            return rng.choice(words)
        return "".join(rng.choice(string.ascii_lowercase[:6] + string.digits) for _ in range(rng.randint(0, 5)))
    inner = "int" if depth or rng.random() < 0.5 else "str"  # one kind of item, as most containers hold
    size = rng.randint(0, 3)
    if kind == "list":
        return [_make(inner, rng, words, numbers, depth + 1) for _ in range(size)]
    return {_make("str", rng, words, numbers, depth + 1) or "k": _make(inner, rng, words, numbers, depth + 1)
            for _ in range(size)}
