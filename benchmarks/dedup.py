"""Dedup: both rules on the labelled set, the stage's speed once embedded, the model's own rate.

1. The labelled set (`ifforge.testing.dedup_pairs`): copies of the project's seeds (renamed,
   reformatted, helpers shuffled; and with a helper added) against every pair of 34 standard-library
   functions; precision and recall of the embedding alone and confirmed by structure. Then copies
   whose names carry no meaning (v0, v1, ...), which the sentence model no longer matches and the
   stage catches by their identical structure.
2. Speed: 1k, 5k and 10k synthetic seeds of random shapes (384-d unit vectors, 5% planted copies
   whose source is their partner's), the pair search and the structural check.
Usage: python benchmarks/dedup.py [--sizes 1000 5000 10000] [--skip-model]
"""

import argparse
import time

import numpy as np

from ifforge.families.logicif.family import DEFAULT_SEEDS
from ifforge.families.logicif.stages.load import load_seed_dir
from ifforge.transforms import dedup

THRESHOLD, STRUCTURAL = 0.7, 0.75


def planted(n: int, dim: int = 384, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    generator = np.random.default_rng(seed)
    vectors = generator.normal(size=(n, dim)).astype(np.float32)
    copies = generator.choice(n, size=n // 20, replace=False)
    vectors[copies] = vectors[(copies + 1) % n] + 0.05 * generator.normal(size=(len(copies), dim))
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True), copies


def labelled(seeds) -> None:
    from ifforge.testing import dedup_pairs
    from ifforge.transforms.embeddings import Embedder

    embedder = Embedder()
    sources = {seed.task_id: seed.source for seed in seeds}
    pairs = dedup_pairs.labelled_pairs(sources)
    cosine, structural = dedup_pairs.scores(pairs, embedder.embed)
    print(f"labelled set: {sum(p.duplicate for p in pairs)} copies, {sum(not p.duplicate for p in pairs)} distinct "
          f"pairs (cosine > {THRESHOLD}, structural >= {STRUCTURAL})")
    for figures in dedup_pairs.figures(pairs, cosine, structural, THRESHOLD, STRUCTURAL):
        print("  " + figures.line())
    truth = np.array([p.duplicate for p in pairs])
    print(f"  copies: cosine >= {cosine[truth].min():.3f}, structural >= {structural[truth].min():.3f}; "
          f"distinct: cosine <= {cosine[~truth].max():.3f}, structural <= {structural[~truth].max():.3f}")
    anonymous = [dedup_pairs.LabelledPair(f"{name} anonymous", source, dedup_pairs.renamed_copy(source, anonymous=True),
                                          True) for name, source in sorted(sources.items())]
    cosine, structural = dedup_pairs.scores(anonymous, embedder.embed)
    print(f"copies named v0, v1, ...: cosine median {np.median(cosine):.3f}, structural min {structural.min():.3f}")
    for figures in dedup_pairs.figures(anonymous, cosine, structural, THRESHOLD, STRUCTURAL):
        print(f"  {figures.rule:<24} copies caught {figures.caught}/{figures.copies}")


def synthetic_source(index: int) -> str:
    """A function of its own shape (random statements, loops and branches): distinct seeds at scale."""
    import random

    rng = random.Random(index)
    names = ["a", "b", "c", "d"]
    lines, depth = ["def f(a, b):", "    c = d = 0"], 1
    for _ in range(rng.randint(8, 16)):
        pad = "    " * depth
        kind = rng.random()
        left, right = rng.choice(names), rng.choice(names)
        if kind < 0.15 and depth < 4:
            lines.append(f"{pad}for {rng.choice('ijk')} in range({rng.randint(1, 9)}):")
            depth += 1
        elif kind < 0.3 and depth < 4:
            lines.append(f"{pad}if {left} {rng.choice(['<', '>', '==', '!='])} {right}:")
            depth += 1
        elif kind < 0.4 and depth > 1:
            lines.append(f"{pad}{left} = {right}")
            depth -= 1
        else:
            call = rng.choice(["", "abs", "len", "max", "min", "sorted", "str"])
            operator = rng.choice(["+", "-", "*", "//", "%"])
            lines.append(f"{pad}{left} = {call}({left} {operator} {right})" if call and call != "len"
                         else f"{pad}{left} = {left} {operator} {right}")
    lines.append("    return c")
    return "\n".join(lines) + "\n"


def speed(sizes: list[int]) -> None:
    print(f"{'seeds':>6} {'seconds':>8} {'matches':>8} {'dropped':>8}  (5% planted copies)")
    for n in sizes:
        vectors, copies = planted(n)
        sources = [synthetic_source(i) for i in range(n)]
        for copy in copies:
            sources[copy] = sources[(copy + 1) % n]
        started = time.perf_counter()
        pairs = dedup.duplicates(vectors, sources, THRESHOLD, STRUCTURAL)
        seconds = time.perf_counter() - started
        print(f"{n:>6} {seconds:>8.3f} {len(pairs):>8} {sum(p.duplicate for p in pairs):>8}")


def model_rate(seeds) -> None:
    from ifforge.transforms.embeddings import Embedder

    texts = [f"# variant {i}\n" + dedup.dedup_text(seeds[i % len(seeds)]) for i in range(256)]
    embedder = Embedder()
    embedder.embed(["warm-up"])
    started = time.perf_counter()
    embedder.embed(texts)
    seconds = time.perf_counter() - started
    print(f"embedding {len(texts)} seed functions with {embedder.name}: {seconds:.2f} s "
          f"({len(texts) / seconds:.0f} texts/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 10000])
    parser.add_argument("--skip-model", action="store_true", help="no embedding model: speed only")
    args = parser.parse_args()
    seeds, _ = load_seed_dir(DEFAULT_SEEDS)
    if not args.skip_model:
        labelled(seeds)
    speed(args.sizes)
    if not args.skip_model:
        model_rate(seeds)


if __name__ == "__main__":
    main()
