"""Dedup stage (before anonymisation): near-duplicate seeds by embedding similarity.

Pairs with cosine similarity above the threshold (default 0.7) are near-duplicates; in each
connected group the longest function is kept. Every dropped seed is recorded with the seed it
duplicates and their similarity. The pair search is a blocked matrix product, so 10,000 seeds
take seconds once embedded.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from ifforge.families.logicif.codeops.source import strip_comments_and_docstrings
from ifforge.families.logicif.records import DroppedItem, SeedFunction

STAGE = "dedup"


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


def groups(vectors: np.ndarray, lengths: list[int], threshold: float) -> tuple[dict[int, int], np.ndarray]:
    """Map each dropped index to the index it duplicates (its group's longest), and the pair list."""
    n = len(vectors)
    i, j, _ = similar_pairs(vectors, threshold)
    if len(i) == 0:
        return {}, np.zeros((0, 2), int)
    graph = coo_matrix((np.ones(len(i)), (i, j)), shape=(n, n))
    _, labels = connected_components(graph, directed=False)
    order = np.lexsort((np.arange(n), -np.asarray(lengths)))  # longest first, then earliest
    keeper: dict[int, int] = {}
    for index in order:
        keeper.setdefault(int(labels[index]), int(index))
    duplicates = {int(index): keeper[int(labels[index])] for index in range(n)
                  if keeper[int(labels[index])] != index}
    return duplicates, np.stack([i, j], axis=1)


def dedup_text(seed: SeedFunction) -> str:
    """What is compared: the code without comments and docstrings (prose would dominate the vector)."""
    try:
        return strip_comments_and_docstrings(seed.source)
    except Exception:  # noqa: BLE001 - unparsable code is compared as written
        return seed.source


def run(seeds: list[SeedFunction], vectors: np.ndarray, threshold: float, model: str) -> tuple[list[SeedFunction], list[DroppedItem]]:
    texts = [dedup_text(seed) for seed in seeds]
    duplicates, _ = groups(vectors, [len(text) for text in texts], threshold)
    dropped = []
    for index, kept in sorted(duplicates.items()):
        similarity = float(vectors[index] @ vectors[kept])
        dropped.append(DroppedItem(
            task_id=seeds[index].task_id, stage=STAGE, reason="near_duplicate", origin=seeds[index].origin,
            detail=f"near-duplicate of {seeds[kept].task_id} (cosine {similarity:.3f} with {model}; "
                   f"threshold {threshold}; the longer one is kept)"))
    return [seed for index, seed in enumerate(seeds) if index not in duplicates], dropped
