"""Dedup, for any family: near-duplicate items (anything with an id and source text:
`core.records.Sourced`), by pairs, confirmed by structure.

A sentence model rates different code alike (on standard-library functions, MiniLM puts
`colorsys.rgb_to_hsv` and `hls_to_rgb`, or `shlex.quote` and `html.escape`, above 0.7), so an
embedding match is only a candidate: a pair is a near-duplicate when its cosine is above
`threshold` and the Jaccard similarity of its structural shingles is at least `structural`, or
when its structure is identical (a renamed copy the sentence model no longer matches).
Shingles are k-grams of the AST node stream with user names and literals made anonymous, taken
per top-level definition: renaming, reformatting, comments and the order of helpers change
nothing, while another algorithm shares few of them.

Items are taken longest first; one is dropped when it duplicates an item already kept, so a drop
always names a kept partner and groups never chain through a third item. Python source is compared
without its comments and docstrings; text that does not parse as Python is compared as written
(its shingles are then word k-grams). The candidate search is a blocked matrix product, so 10,000
seeds take seconds once embedded.
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass, replace
from typing import Callable, Iterator, TypeVar

import numpy as np

from ifforge.core import pyast
from ifforge.core.pysource import strip_comments_and_docstrings
from ifforge.core.records import DroppedItem, Sourced

STAGE = "dedup"
SHINGLE = 5  # AST nodes per shingle (on the labelled set, 5 parts copies from distinct code widest)
_BUILTINS = frozenset(dir(builtins))
Item = TypeVar("Item", bound=Sourced)


def similar_pairs(vectors: np.ndarray, threshold: float, block: int = 2048) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(i, j, similarity) for every i < j above `threshold`; vectors must be unit length."""
    rows, cols, sims = [], [], []
    n = len(vectors)
    for start in range(0, n, block):
        scores = vectors[start:start + block] @ vectors.T
        i, j = np.nonzero(scores > threshold)
        keep = j > i + start
        rows.append(i[keep] + start)
        cols.append(j[keep])
        sims.append(scores[i[keep], j[keep]])
    if not rows:
        return np.zeros(0, int), np.zeros(0, int), np.zeros(0, np.float32)
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(sims)


# ---- structure ---------------------------------------------------------------------------------------
def _stream(root: ast.AST, own_attributes: frozenset[str]) -> Iterator[str]:
    """Node types in pre-order (a stack, not recursion: deep code cannot overflow it). Names the code
    defines become `Name`, literals their type; builtins and attributes the code does not define
    itself (`append`, `math.sqrt`) are kept: no copy renames them."""
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.expr_context):
            continue
        if isinstance(node, ast.Name):
            yield node.id if node.id in _BUILTINS else "Name"
        elif isinstance(node, ast.Constant):
            yield f"Constant:{type(node.value).__name__}"
        else:
            own = not isinstance(node, ast.Attribute) or node.attr in own_attributes
            yield type(node).__name__ if own else f".{node.attr}"
            stack.extend(reversed(list(ast.iter_child_nodes(node))))


def shingles(source: str, k: int = SHINGLE) -> frozenset[tuple[str, ...]]:
    """The code's structural fingerprint: k-grams of each top-level statement's node stream (a
    definition is one statement, so helpers may come in any order)."""
    try:
        module = pyast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # compared as words when it cannot be parsed
        words = source.split()
        return frozenset(tuple(words[i:i + k]) for i in range(max(1, len(words) - k + 1)))
    own = frozenset({node.attr for node in ast.walk(module) if isinstance(node, ast.Attribute)
                     and isinstance(node.ctx, ast.Store)} |
                    {item.name for node in ast.walk(module) if isinstance(node, ast.ClassDef)
                     for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))})
    grams: set[tuple[str, ...]] = set()
    for statement in module.body:
        stream = list(_stream(statement, own))
        grams.update(tuple(stream[i:i + k]) for i in range(max(1, len(stream) - k + 1)))
    return frozenset(grams)


def jaccard(a: frozenset, b: frozenset) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


SAME_STRUCTURE_MIN = 30  # shingles: in smaller code, equal structure may be chance (two one-liners)


def same_structure(a: frozenset, b: frozenset) -> bool:
    """Identical structure (only names, literals, layout or helper order differ) in code big enough
    for that to be no chance: a copy however it was renamed, even one the sentence model misses
    (names v0, v1, ... put a copy's cosine near 0.54)."""
    return a == b and len(a) >= SAME_STRUCTURE_MIN


# ---- the stage ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pair:
    """An embedding match (cosine above the threshold) of `item` with a longer seed `partner` kept
    before it, and whether the structure confirmed it (then `item` is dropped)."""

    item: int
    partner: int
    cosine: float
    structural: float
    duplicate: bool


def duplicates(vectors: np.ndarray, sources: list[str], threshold: float, structural: float) -> list[Pair]:
    """Longest first (then earliest), drop a seed that is a near-duplicate of a seed already kept.

    Returns each dropped seed's pair with the kept seed most like it (by structure), and every
    embedding match with a kept seed that the structure refused."""
    n = len(sources)
    order = sorted(range(n), key=lambda index: (-len(sources[index]), index))
    rank = {index: position for position, index in enumerate(order)}
    i, j, cosines = similar_pairs(vectors, threshold)
    partners: dict[int, list[tuple[int, float]]] = {}
    for a, b, cosine in zip(i.tolist(), j.tolist(), cosines.tolist()):
        first, second = (a, b) if rank[a] < rank[b] else (b, a)
        partners.setdefault(second, []).append((first, cosine))
    prints = [shingles(source) for source in sources]
    alike: dict[frozenset, list[int]] = {}  # identical structure, in order: copies whatever the cosine
    for index in order:
        alike.setdefault(prints[index], []).append(index)
    for key, group in alike.items():
        if len(group) > 1 and len(key) >= SAME_STRUCTURE_MIN:
            for position, second in enumerate(group[1:], start=1):
                known = {other for other, _ in partners.get(second, [])}
                partners.setdefault(second, []).extend(
                    (first, float(vectors[first] @ vectors[second])) for first in group[:position] if first not in known)

    dropped: set[int] = set()
    pairs: list[Pair] = []
    for index in order:
        tried = [Pair(index, other, cosine, jaccard(prints[index], prints[other]), False)
                 for other, cosine in partners.get(index, []) if other not in dropped]
        confirmed = [pair for pair in tried if (pair.cosine > threshold and pair.structural >= structural)
                     or same_structure(prints[pair.item], prints[pair.partner])]
        if confirmed:
            best = max(confirmed, key=lambda pair: (pair.structural, pair.cosine))
            pairs.append(replace(best, duplicate=True))
            dropped.add(index)
        else:
            pairs += tried
    return pairs


def dedup_text(item: Sourced) -> str:
    """What is compared: code without comments and docstrings (prose would dominate the vector)."""
    try:
        return strip_comments_and_docstrings(item.source)
    except Exception:  # noqa: BLE001 - text that is not Python is compared as written
        return item.source


def run(items: list[Item], embed: Callable[[list[str]], np.ndarray], threshold: float, structural: float,
        model: str) -> tuple[list[Item], list[DroppedItem], list[Pair]]:
    """ItemsOnDisk items, a drop per near-duplicate naming its kept partner and both scores, and every pair.
    `embed` gives unit vectors for the compared texts (computed once: libcst is slow at scale)."""
    texts = [dedup_text(item) for item in items]
    pairs = duplicates(embed(texts), texts, threshold, structural)
    gone = {pair.item: pair for pair in pairs if pair.duplicate}
    dropped = [DroppedItem(
        task_id=items[index].task_id, stage=STAGE, reason="near_duplicate",
        origin=getattr(items[index], "origin", None),
        detail=f"near-duplicate of {items[pair.partner].task_id}: cosine {pair.cosine:.3f} with {model} "
               f"(threshold {threshold}) and structural similarity {pair.structural:.3f} (threshold {structural}; "
               f"1.000 is the same code under other names); the longer one is kept")
        for index, pair in sorted(gone.items())]
    return [item for index, item in enumerate(items) if index not in gone], dropped, pairs
