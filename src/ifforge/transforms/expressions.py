"""Expression extension (LIFBench): Rewriting, Encoding, Clustering, Sampling of a prompt template.

Any family may use it: `gather` collects a template's rewrites (from a model, else its bank) and
`extend` embeds and clusters them and picks `k` (LogicIF's solve prompt, LIFBench's instruction
templates). Rewrites of a template come from the LLM (asked for `rewrites` of them, keeping every placeholder)
or, offline, from a hand-written bank in `prompts/<family>/<template>_rewrites.md`. All are embedded and
clustered with k-means (k = the number of expressions wanted, fixed seed); from each cluster the
usable rewrite nearest the centre is chosen. Usable: every placeholder of the template exactly
once, no new one, not a near-copy of the original, not vetoed by a person in the veto file (then
the next nearest is taken).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel

from ifforge.core.store.versions import atomic_path
from ifforge.core.llm.client import LLM, LLMError
from ifforge.core.prompts import Prompt, load_prompt, prompt_file
from ifforge.core.records import Record
from ifforge.core.untrusted import InputError, parsed_lines

STAGE = "expressions"  # its usage line, and the tag of its calls: the side work of that name reads them
PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
SEPARATOR = re.compile(r"^=====\s*$", re.MULTILINE)
NEAR_COPY = 0.98  # cosine similarity to the original above which a rewrite is not a new expression


class Rewrite(Record):
    id: str
    text: str
    origin: str  # "bank" or the model's name
    usable: bool
    problem: str = ""
    vetoed: bool = False
    cluster: int | None = None
    distance: float | None = None  # to its cluster's centre
    chosen: bool = False


class ExpressionSet(Record):
    template: str
    template_hash: str
    embedding_model: str
    k: int
    rewrites: list[Rewrite]
    chosen: list[str]  # rewrite ids, in cluster order
    notes: list[str] = []

    def texts(self) -> dict[str, str]:
        """expression id -> template text; e0 is the original."""
        by_id = {r.id: r.text for r in self.rewrites}
        return {f"e{number}": by_id[rewrite_id] for number, rewrite_id in enumerate(self.chosen, start=1)}


def rewrite_id(text: str) -> str:
    return hashlib.sha256(text.strip().encode()).hexdigest()[:10]


def load_bank(template: str, folder: Path | None = None) -> list[str]:
    """The hand-written rewrites of `template`: `prompts/<family>/<template>_rewrites.md`, split on `=====` lines."""
    bank = load_prompt(f"{template}_rewrites", folder)
    return [part.strip() for part in SEPARATOR.split(bank.text) if part.strip()]


def placeholder_problem(text: str, wanted: set[str]) -> str | None:
    found = PLACEHOLDER.findall(text)
    for name in sorted(wanted):
        count = found.count(name)
        if count != 1:
            return f"placeholder {{{{{name}}}}} appears {count} times"
    extra = sorted(set(found) - wanted)
    if extra:
        return f"new placeholder {{{{{extra[0]}}}}}"
    return None


def read_veto(path: Path | None) -> set[str]:
    """Rewrite ids a person vetoed: one per line, `#` starts a comment."""
    if path is None or not Path(path).exists():
        return set()
    lines = parsed_lines(path, lambda line: line.split("#", 1)[0].strip(),
                         lambda message: InputError(f"{message} (the veto file)"))
    return {token for _, token in lines if token}


def choose(template: Prompt, texts: list[str], origin: list[str], vectors: np.ndarray, original: np.ndarray,
           k: int, veto: set[str], embedding_model: str, seed: int = 0) -> ExpressionSet:
    """Cluster every rewrite and take, per cluster, the usable one nearest its centre."""
    # lazy on purpose: scikit-learn (heavy), only when rewrites are clustered
    from sklearn.cluster import KMeans

    wanted = template.slots
    rewrites: list[dict[str, Any]] = []
    for text, where, vector in zip(texts, origin, vectors):
        problem = placeholder_problem(text, wanted)
        if problem is None and float(vector @ original) > NEAR_COPY:
            problem = f"near-copy of the original (cosine {float(vector @ original):.3f})"
        rid = rewrite_id(text)
        rewrites.append({"id": rid, "text": text, "origin": where, "usable": problem is None and rid not in veto,
                         "problem": problem or ("vetoed by a reviewer" if rid in veto else ""), "vetoed": rid in veto})
    notes = []
    k = min(k, len(texts))
    if k == 0:
        return ExpressionSet(template=template.name, template_hash=template.hash, embedding_model=embedding_model,
                             k=0, rewrites=[Rewrite(**r) for r in rewrites], chosen=[], notes=["no rewrites"])
    model = KMeans(n_clusters=k, random_state=seed, n_init=10).fit(vectors)
    distances = np.linalg.norm(vectors - model.cluster_centers_[model.labels_], axis=1)
    for rewrite, label, distance in zip(rewrites, model.labels_, distances):
        rewrite["cluster"], rewrite["distance"] = int(label), round(float(distance), 5)
    chosen: list[str] = []
    for cluster in range(k):
        members = sorted((r for r in rewrites if r["cluster"] == cluster and r["usable"]), key=lambda r: r["distance"])
        if members:
            chosen.append(members[0]["id"])
        else:
            notes.append(f"cluster {cluster} has no usable rewrite")
    leftovers = sorted((r for r in rewrites if r["usable"] and r["id"] not in chosen), key=lambda r: r["distance"])
    while len(chosen) < k and leftovers:
        taken = leftovers.pop(0)
        chosen.append(taken["id"])
        notes.append(f"filled with {taken['id']} from cluster {taken['cluster']}")
    for rewrite in rewrites:
        rewrite["chosen"] = rewrite["id"] in chosen
    return ExpressionSet(template=template.name, template_hash=template.hash, embedding_model=embedding_model, k=k,
                         rewrites=[Rewrite(**r) for r in rewrites], chosen=chosen, notes=notes)


class RewriteReply(BaseModel):
    rewrites: list[str]


async def llm_rewrites(template: Prompt, wanted: int, llm: LLM, batch: int = 10) -> list[str]:
    """At least `wanted` distinct rewrites that keep the placeholders, asked for in batches."""
    prompt = load_prompt("rewrite")
    found: dict[str, str] = {}
    for round_number in range(1, 2 * (wanted // batch + 1) + 1):
        if sum(1 for text in found.values() if placeholder_problem(text, template.slots) is None) >= wanted:
            break
        messages = [{"role": "user", "content": prompt.render(
            template=template.text, count=str(batch), round=str(round_number),
            placeholders=", ".join(f"{{{{{name}}}}}" for name in sorted(template.slots)))}]
        try:
            reply, _ = await llm.chat_json(messages, RewriteReply, stage=STAGE,
                                           prompt_versions={"rewrite": prompt.hash, template.name: template.hash})
        except LLMError:
            continue
        for text in reply.rewrites:
            found.setdefault(rewrite_id(text), text.strip())
    return list(found.values())


def template_prompt(name_or_path: str) -> Prompt:
    """A prompt by name (`solve`) or a template file's path."""
    path = Path(name_or_path)
    if path.suffix == ".md" and path.exists():
        return load_prompt(path.stem, path.parent)
    return load_prompt(name_or_path)


def gather(template: Prompt, wanted: int, config=None, hub=None, cache=None,
           with_bank: bool = False, kept=None) -> tuple[list[str], list[str], str]:
    """A template's rewrites, their origins and where they came from: `wanted` from the model when
    `config` names one (asked through the run's `hub`; `with_bank`: beside the bank's), else the
    hand-written bank, else none. `kept`, an (item cache, key) pair, keeps the model's rewrites
    beside the benchmark, so a run with the same rewrite identity asks nothing again."""
    bank = load_bank(template.name) if bank_exists(template.name) else []
    if config is not None:
        texts = kept[0].get("rewrites", kept[1]) if kept else None
        if texts is None:
            texts = hub.run(lambda: llm_rewrites(template, wanted, hub.llm(config, cache)), STAGE)
            if texts and kept:
                kept[0].put("rewrites", kept[1], texts)
        if with_bank and bank:
            fresh = [text for text in texts if rewrite_id(text) not in {rewrite_id(b) for b in bank}]
            return bank + fresh, ["bank"] * len(bank) + [config.model] * len(fresh), f"the bank and {config.model}"
        return texts, [config.model] * len(texts), config.model
    if bank:
        return bank, ["bank"] * len(bank), "the bank"
    return [], [], "nothing"


def extend(template: Prompt, k: int, texts: list[str], origin: list[str], embedder, veto: set[str] = frozenset(),
           seed: int = 0) -> tuple[ExpressionSet, np.ndarray]:
    """Encode the rewrites (and the original, for the near-copy check), cluster, sample `k`."""
    vectors = embedder.embed(texts)
    original = embedder.embed([template.text])[0]
    return choose(template, texts, origin, vectors, original, k, set(veto), embedder.name, seed), vectors


def bank_exists(template: str) -> bool:
    return prompt_file(f"{template}_rewrites") is not None


def _draw(axis, expressions: ExpressionSet, vectors: np.ndarray) -> None:
    # lazy on purpose: scikit-learn (heavy), only for the plot
    from sklearn.decomposition import PCA

    points = PCA(n_components=2, random_state=0).fit_transform(vectors) if len(vectors) > 2 else np.zeros((len(vectors), 2))
    clusters = [r.cluster if r.cluster is not None else -1 for r in expressions.rewrites]
    axis.scatter(points[:, 0], points[:, 1], c=clusters, cmap="tab10", s=30, alpha=0.8)
    for point, rewrite in zip(points, expressions.rewrites):
        if rewrite.chosen:
            axis.scatter(*point, s=160, facecolors="none", edgecolors="black", linewidths=1.5)
            axis.annotate(rewrite.id[:6], point, fontsize=7, xytext=(4, 4), textcoords="offset points")
        elif not rewrite.usable:
            axis.scatter(*point, marker="x", c="red", s=25)


def _save(figure, path: Path) -> Path:
    # lazy on purpose: matplotlib (heavy), only for the plot
    import matplotlib.pyplot as plt

    figure.tight_layout()
    with atomic_path(path) as temporary:
        figure.savefig(temporary, dpi=110, format="png")
    plt.close(figure)
    return path


def plot_clusters(expressions: ExpressionSet, vectors: np.ndarray, path: Path) -> Path:
    """A 2-D PCA picture of the rewrites, coloured by cluster, chosen ones marked."""
    # lazy on purpose: matplotlib (heavy), only for the plot
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(7, 5))
    _draw(axis, expressions, vectors)
    axis.set_title(f"{len(expressions.rewrites)} rewrites of '{expressions.template}', k={expressions.k} "
                   f"(circled: chosen, x: unusable)")
    return _save(figure, path)


def plot_cluster_grid(sets: dict[str, tuple[ExpressionSet, np.ndarray]], path: Path) -> Path:
    """`plot_clusters` for several templates, one panel each, in one picture."""
    # lazy on purpose: matplotlib (heavy), only for the plot
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns = min(4, len(sets))
    rows = -(-len(sets) // columns)
    figure, axes = plt.subplots(rows, columns, figsize=(4 * columns, 3.2 * rows), squeeze=False)
    for axis, (name, (chosen, vectors)) in zip(axes.flat, sets.items()):
        _draw(axis, chosen, vectors)
        axis.set_title(f"{name}: {len(chosen.rewrites)} rewrites, k={chosen.k}", fontsize=9)
    for axis in list(axes.flat)[len(sets):]:
        axis.axis("off")
    figure.suptitle("rewrites by cluster (circled: chosen, x: unusable)")
    return _save(figure, path)


def to_jsonl(expressions: ExpressionSet) -> str:
    return "".join(json.dumps(r.model_dump(), ensure_ascii=False) + "\n" for r in expressions.rewrites)
