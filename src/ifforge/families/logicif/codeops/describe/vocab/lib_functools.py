"""functools: the caching decorators, said as the memory they give a function."""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "functools"

_REMEMBERS = ("it remembers what it gives back for each set of inputs (called again with inputs equal to earlier "
              "ones, it gives back the remembered value at once, without doing its steps again; an input that is a "
              "list, dictionary or set stops the steps with an error)")


def cache(say, args, keywords) -> str:
    return _REMEMBERS


def lru_cache(say, args, keywords) -> str:
    """Only an unbounded cache: a bounded one forgets, and which calls run again would need its order."""
    size = args[0] if args else keywords.get("maxsize")
    if set(keywords) - {"maxsize"} or not (isinstance(size, cst.Name) and size.value == "None"):
        raise Undescribable("a cache of limited size (lru_cache)")
    return _REMEMBERS


WORDS: dict = {}
DECORATORS = {"cache": cache, "lru_cache": lru_cache}
