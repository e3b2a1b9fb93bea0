"""A labelled set for dedup: copies that must be caught, distinct algorithms that must be kept.

Copies are the project's own seeds with every name the code binds renamed (its words reversed,
in CamelCase: `mine_cells` becomes `CellsMine`), reformatted by `ast.unparse` and their top-level
functions shuffled; and the same with an unused helper added. Distinct pairs are every pair of
real standard-library functions, read with `inspect.getsource` at run time (never copied here):
functions a sentence model rates alike (colour conversions, quoting and escaping) but that do
different things. The test and `benchmarks/dedup.py` measure both rules on it.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import random
import textwrap
from dataclasses import dataclass

import numpy as np

from ifforge.core import pyast
from ifforge.core.pysource import strip_comments_and_docstrings
from ifforge.transforms import dedup

STDLIB = (
    "colorsys.rgb_to_hsv", "colorsys.hls_to_rgb", "colorsys.rgb_to_hls", "colorsys.hsv_to_rgb",
    "colorsys.rgb_to_yiq", "colorsys.yiq_to_rgb", "shlex.quote", "html.escape", "html.unescape",
    "json.encoder.py_encode_basestring", "json.encoder.py_encode_basestring_ascii", "quopri.encode",
    "quopri.decode", "quopri.quote", "quopri.needsquoting", "email.utils.quote", "email.utils.unquote",
    "textwrap.dedent", "textwrap.indent", "fnmatch.translate", "string.capwords", "statistics.median",
    "statistics.median_grouped", "calendar.weekday", "heapq._siftdown", "heapq._siftup", "heapq.nsmallest",
    "base64.b16decode", "urllib.parse.unquote", "ipaddress.collapse_addresses",
    "ipaddress.summarize_address_range", "difflib.get_close_matches", "random.Random.shuffle",
    "fractions.Fraction.limit_denominator",
)


@dataclass(frozen=True)
class LabelledPair:
    name: str
    first: str
    second: str
    duplicate: bool


def stdlib_source(dotted: str) -> str:
    """A standard-library function's source, read from the running Python."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
            break
        except ImportError:
            continue
    for attribute in parts[cut:]:
        target = getattr(target, attribute)
    return textwrap.dedent(inspect.getsource(target))


def renamed_copy(source: str, seed: int = 0, anonymous: bool = False) -> str:
    """Every bound name renamed, reformatted, top-level functions shuffled: the same algorithm.
    `anonymous` names them v0, v1, ... instead, which hides a copy from the sentence model."""
    tree = pyast.parse(source)
    bound = ({node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)}
             | {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
             | {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)})
    names = sorted(bound - set(dir(builtins)))
    new = {name: f"v{index}" if anonymous else
           "".join(word.title() for word in reversed(name.split("_")) if word) + "V" * name.startswith("_")
           for index, name in enumerate(names)}
    for node in ast.walk(tree):
        field = {ast.Name: "id", ast.arg: "arg", ast.FunctionDef: "name"}.get(type(node))
        if field and getattr(node, field) in new:
            setattr(node, field, new[getattr(node, field)])
    functions = [statement for statement in tree.body if isinstance(statement, ast.FunctionDef)]
    random.Random(seed).shuffle(functions)
    tree.body = [statement for statement in tree.body if not isinstance(statement, ast.FunctionDef)] + functions
    return ast.unparse(tree)


UNUSED_HELPER = "\n\ndef keep_truthy(items):\n    return [item for item in items if item]\n"


def labelled_pairs(seed_sources: dict[str, str]) -> list[LabelledPair]:
    """Two copies of every seed (renamed; renamed with a helper added), and every stdlib pair."""
    pairs = []
    for index, (name, source) in enumerate(sorted(seed_sources.items())):
        copy = renamed_copy(source, index)
        pairs.append(LabelledPair(f"{name} renamed", source, copy, True))
        pairs.append(LabelledPair(f"{name} renamed + helper", source, copy + UNUSED_HELPER, True))
    functions = {name: stdlib_source(name) for name in STDLIB}
    names = sorted(functions)
    pairs += [LabelledPair(f"{a} vs {b}", functions[a], functions[b], False)
              for position, a in enumerate(names) for b in names[position + 1:]]
    return pairs


@dataclass(frozen=True)
class Figures:
    rule: str
    caught: int  # copies called duplicates
    copies: int
    false_drops: int  # distinct pairs called duplicates
    distinct: int

    @property
    def recall(self) -> float:
        return self.caught / self.copies if self.copies else 1.0

    @property
    def precision(self) -> float:
        called = self.caught + self.false_drops
        return self.caught / called if called else 1.0

    def line(self) -> str:
        return (f"{self.rule:<24} precision {self.precision:.3f}  recall {self.recall:.3f}  "
                f"copies caught {self.caught}/{self.copies}  distinct pairs dropped {self.false_drops}/{self.distinct}")


def scores(pairs: list[LabelledPair], embed) -> tuple[np.ndarray, np.ndarray]:
    """(cosine, structural) per pair, on the text the dedup stage compares."""
    texts = {}
    for pair in pairs:
        for source in (pair.first, pair.second):
            if source not in texts:  # 34 functions make 561 pairs: strip each once, not once per pair
                texts[source] = strip_comments_and_docstrings(source)
    vectors = dict(zip(texts, embed(list(texts.values()))))
    cosine = np.array([float(vectors[pair.first] @ vectors[pair.second]) for pair in pairs])
    prints = {source: dedup.shingles(text) for source, text in texts.items()}
    structural = np.array([1.0 if dedup.same_structure(prints[pair.first], prints[pair.second])
                           else min(dedup.jaccard(prints[pair.first], prints[pair.second]), 0.9999)
                           for pair in pairs])  # exactly 1.0 only where the stage calls it the same structure
    return cosine, structural


def figures(pairs: list[LabelledPair], cosine: np.ndarray, structural: np.ndarray, threshold: float,
            structural_threshold: float) -> tuple[Figures, Figures]:
    """Embedding only, and embedding confirmed by structure, as the dedup stage judges a pair."""
    truth = np.array([pair.duplicate for pair in pairs])
    embedding = cosine > threshold
    combined = (embedding & (structural >= structural_threshold)) | (structural == 1.0)

    def count(rule: str, called: np.ndarray) -> Figures:
        return Figures(rule, int((called & truth).sum()), int(truth.sum()), int((called & ~truth).sum()),
                       int((~truth).sum()))

    return count("embedding only", embedding), count("embedding + structure", combined)
