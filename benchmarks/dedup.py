"""Dedup speed once embedded: 1k, 5k and 10k seeds (384-d unit vectors, 5% planted near-duplicates),
plus the embedding model's own rate on the project's seeds for scale.
Usage: python benchmarks/dedup.py [--sizes 1000 5000 10000] [--skip-model]
"""

import argparse
import time

import numpy as np

from ifforge.transforms import dedup


def planted(n: int, dim: int = 384, seed: int = 0) -> np.ndarray:
    generator = np.random.default_rng(seed)
    vectors = generator.normal(size=(n, dim)).astype(np.float32)
    copies = generator.choice(n, size=n // 20, replace=False)
    vectors[copies] = vectors[(copies + 1) % n] + 0.05 * generator.normal(size=(len(copies), dim))
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 10000])
    parser.add_argument("--skip-model", action="store_true", help="do not time the embedding model")
    args = parser.parse_args()
    print(f"{'seeds':>6} {'seconds':>8} {'pairs > 0.7':>11} {'dropped':>8}")
    for n in args.sizes:
        vectors = planted(n)
        started = time.perf_counter()
        duplicates, pairs = dedup.groups(vectors, [1] * n, 0.7)
        seconds = time.perf_counter() - started
        print(f"{n:>6} {seconds:>8.3f} {len(pairs):>11} {len(duplicates):>8}")
    if not args.skip_model:
        from ifforge.families.logicif.family import DEFAULT_SEEDS
        from ifforge.transforms.embeddings import Embedder
        from ifforge.families.logicif.stages.load import load_seed_dir

        seeds, _ = load_seed_dir(DEFAULT_SEEDS)
        texts = [f"# variant {i}\n" + dedup.dedup_text(seeds[i % len(seeds)]) for i in range(256)]
        embedder = Embedder()
        embedder.embed(["warm-up"])
        started = time.perf_counter()
        embedder.embed(texts)
        seconds = time.perf_counter() - started
        print(f"embedding {len(texts)} seed functions with {embedder.name}: {seconds:.2f} s "
              f"({len(texts) / seconds:.0f} texts/s)")


if __name__ == "__main__":
    main()
