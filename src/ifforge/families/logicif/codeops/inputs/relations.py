"""Relations inside one argument that random values and the rescue's changes seldom make (never runs code).

A mapping whose lists name its own keys (a graph given as each node's list of neighbours: drawn
with empty lists, every search, walk or ordering of it has nothing to follow), and a mapping
without a key the code asks about (`if "K" in record:`, an optional field every drawn record
holds). Used only by the instrument stage, for a seed whose every case walks one path so that no
counter varies (`stages.instrument._related_calls`): every other seed draws as before.
"""

from __future__ import annotations

import copy
import random

from ifforge.families.logicif.codeops.inputs.rescue import _dicts


def linked(args: list, rng: random.Random) -> list:
    """A copy of `args` in which the empty lists among the values of a dict whose values are all lists
    hold one or two of that dict's own keys: the edges of a graph, leading to its nodes."""
    new = copy.deepcopy(args)
    for mapping in _dicts(new):
        if not mapping or not all(isinstance(value, list) for value in mapping.values()):
            continue
        names = list(mapping)
        for inner in mapping.values():
            if not inner and rng.random() < 0.7:
                inner.extend(rng.sample(names, min(len(names), rng.randint(1, 2))))
    return new


def without_asked_key(args: list, rng: random.Random, texts: list[str]) -> list:
    """A copy of `args` with one key among `texts` (the texts the code compares or looks for) taken out of
    a dict holding it: the record that lacks the optional field the code asks about."""
    new = copy.deepcopy(args)
    asked = set(texts)
    holders = [(mapping, key) for mapping in _dicts(new) for key in mapping if key in asked]
    if holders:
        mapping, key = rng.choice(holders)
        del mapping[key]
    return new
