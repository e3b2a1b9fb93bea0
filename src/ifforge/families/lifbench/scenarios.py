"""LIFBench's three long inputs, built to a token budget from a seed (the code that builds an input
also knows its answers: gold never comes from anywhere else).

- List: numbered entries, UUIDs mixed with short instruction texts.
- MultiDoc: documents as JSON lines (id, second id, title, date, source, text); as in the paper,
  about a quarter of them fall in five groups sharing one text under different metadata (groups
  grow with the input); half lack a title, half a source, independently, so no label dominates.
- OneDoc: essays of Python's own documentation, concatenated, with the paper's 23 key sentences
  inside them, each wrapped in the marks of its tag type; a sentence whose two marks differ is a
  fake. The paper's layout: per tag 4, 4, 6, 0, 4 and 5 sentences (three of them fakes), so one
  tag has none; which tag gets which count is drawn from the seed.

`length` is the token count of the input alone (the paper's definition and its code), not of the
prompt around it.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from ifforge.core.records import Record
from ifforge.families.lifbench import texts, tokens

SCENARIOS = ("list", "multidoc", "onedoc")
TAGS = {"Topic": "#", "Argument": "@", "Transition": "!", "Summary": "|", "Evidence": "*", "Concession": "~"}
LAYOUT = ((4, 0), (3, 1), (5, 1), (0, 0), (4, 0), (4, 1))  # the paper's (true, fake) key sentences per tag
DUPLICATE_GROUPS, DUPLICATE_SHARE = 5, 0.25  # the paper's: five groups holding a quarter of the documents


class ContextSpec(Record):
    """One long input to build: its scenario, target length (tokens of the input alone) and sample."""

    task_id: str
    scenario: str
    length: int
    sample: int
    seed: int


class Context(Record):
    """A built input: its text, its exact token count, and the facts its tasks' answers come from."""

    task_id: str
    scenario: str
    length: int
    sample: int
    seed: int
    text: str
    tokens: int
    facts: dict[str, Any]


def rng_for(*parts: Any) -> random.Random:
    """A generator of its own for every purpose: adding a task or a length never moves the others."""
    return random.Random(":".join(map(str, parts)))


def budget(length: int) -> int:
    """The input's own token budget: its length (the prompt around it is not counted, as in the paper)."""
    return length


def _fit(lines: list[str], limit: int, joiner: str = "\n") -> list[str]:
    """Drop lines from the end until the joined text has at most `limit` tokens (exact count)."""
    while len(lines) > 1 and tokens.count(joiner.join(lines)) > limit:
        lines = lines[:-max(1, len(lines) // 200)]
    return lines


def build_list(spec: ContextSpec) -> tuple[str, dict[str, Any]]:
    rng = rng_for(spec.seed, "list", spec.length, spec.sample)
    limit = budget(spec.length)
    pool = texts.instruction_texts(rng, min(7200, limit // 6 + 8))
    entries: list[str] = []
    used = 0
    while used < limit and (pool or entries):
        entry = texts.uuid(rng) if rng.random() < 0.5 or not pool else pool.pop()
        entries.append(entry)
        used += tokens.count(f"{len(entries)}. {entry}\n")
    lines = _fit([f"{i}. {e}" for i, e in enumerate(entries, 1)], limit)
    return "\n".join(lines), {"entries": entries[:len(lines)]}


def build_multidoc(spec: ContextSpec) -> tuple[str, dict[str, Any]]:
    rng = rng_for(spec.seed, "multidoc", spec.length, spec.sample)
    limit = budget(spec.length)
    singles = [text for _, text in texts.paragraphs()]
    rng.shuffle(singles)
    pairs = [f"{a} {b}" for a, b in zip(singles[::2], singles[1::2])]
    fresh = iter(singles + pairs)
    docs: list[dict[str, Any]] = []
    used = 0
    while used < limit:
        doc: dict[str, Any] = {"id": f"{rng.getrandbits(32):08x}", "id2": f"D2-{rng.randint(10000, 99999)}"}
        if rng.random() < 0.5:
            doc["title"] = texts.title(rng)
        doc["date"] = texts.date(rng)
        if rng.random() < 0.5:
            doc["source"] = rng.choice(texts.SOURCES)
        doc["text"] = next(fresh)
        docs.append(doc)
        used += tokens.count(json.dumps(doc, ensure_ascii=False) + "\n")
    _duplicate(docs, rng)
    lines = _fit([json.dumps(d, ensure_ascii=False) for d in docs], limit)
    docs = docs[:len(lines)]
    if len(docs) >= 2 and not _groups(docs):  # every input has at least one pair to find
        docs[-1]["text"] = docs[0]["text"]
        lines = _fit([json.dumps(d, ensure_ascii=False) for d in docs], limit)
        docs = docs[:len(lines)]
    return "\n".join(lines), {"docs": docs, "groups": _groups(docs)}


def _duplicate(docs: list[dict[str, Any]], rng: random.Random) -> None:
    """The paper's duplicates: a quarter of the documents, in five groups (fewer in short inputs),
    each group's later members carrying its first member's text."""
    count = max(2, round(DUPLICATE_SHARE * len(docs)))
    groups = max(1, min(DUPLICATE_GROUPS, count // 2))
    members = rng.sample(range(len(docs)), min(len(docs), count))
    for g in range(groups):
        group = sorted(members[g::groups])
        for index in group[1:]:
            docs[index]["text"] = docs[group[0]]["text"]


def _groups(docs: list[dict[str, Any]]) -> list[list[int]]:
    """Indices of documents sharing a text, groups in order of first appearance."""
    by_text: dict[str, list[int]] = {}
    for index, doc in enumerate(docs):
        by_text.setdefault(doc["text"], []).append(index)
    return [group for group in by_text.values() if len(group) > 1]


def mark(sentence: str, tag: str, close: str | None = None) -> str:
    return f"{TAGS[tag]}{sentence}{TAGS[close or tag]}"


def build_onedoc(spec: ContextSpec) -> tuple[str, dict[str, Any]]:
    rng = rng_for(spec.seed, "onedoc", spec.length, spec.sample)
    limit = budget(spec.length)
    tags = list(TAGS)
    rng.shuffle(tags)  # which tag gets which of the paper's counts (one gets none)
    sentences = iter(texts.key_sentences(rng, sum(true + fake for true, fake in LAYOUT)))
    keys = []
    for tag, (true, fake) in zip(tags, LAYOUT):
        keys += [{"text": next(sentences), "tag": tag, "true": True} for _ in range(true)]
        keys += [{"text": next(sentences), "tag": tag, "true": False,  # the closing mark is another tag's
                  "close": rng.choice([t for t in TAGS if t != tag])} for _ in range(fake)]
    rng.shuffle(keys)
    marked = [mark(k["text"], k["tag"], k.get("close")) for k in keys]
    room = limit - sum(tokens.count_many([m + " " for m in marked]))
    source = list(texts.paragraphs())
    blocks: list[str] = []  # essays' headings and paragraphs
    used, essay = 0, 0
    while used < room:
        rng.shuffle(source)
        for start in range(0, len(source), 5):
            essay += 1
            part = source[start:start + rng.randint(3, 5)]
            new = [f"Essay {essay}: notes from {part[0][0]}"] + [text for _, text in part]
            blocks += new
            used += sum(tokens.count_many([b + "\n\n" for b in new]))
            if used >= room:
                break
    while True:
        while blocks and blocks[-1].startswith("Essay "):  # no heading without its essay
            blocks.pop()
        paragraphs = [i for i, b in enumerate(blocks) if not b.startswith("Essay ")]
        where = sorted(rng_for(spec.seed, "onedoc-keys", spec.length, spec.sample, len(blocks)).sample(
            paragraphs, len(keys)) if len(paragraphs) >= len(keys) else  # short inputs: spread evenly
            [paragraphs[i * len(paragraphs) // len(keys)] for i in range(len(keys))])
        placed = list(blocks)
        for index, sentence in sorted(zip(where, marked), key=lambda pair: -pair[0]):
            placed[index] = f"{placed[index]} {sentence}"
        text = "\n\n".join(placed)
        if tokens.count(text) <= limit or len(paragraphs) <= 1:
            break
        blocks = blocks[:-1]
    order = sorted(range(len(keys)), key=lambda i: text.index(marked[i]))
    facts = {"keys": [{"text": keys[i]["text"], "tag": keys[i]["tag"], "true": keys[i]["true"]} for i in order],
             "plain": _plain_sentences(blocks, text, rng)}
    return text, facts


def _plain_sentences(blocks: list[str], text: str, rng: random.Random, wanted: int = 6) -> list[str]:
    """Sentences of the prose that are no key sentence (qa asks about them too, as the paper does):
    whole sentences of 6 to 40 words, found once in the input, with no mark in them."""
    found = {sentence for block in blocks if not block.startswith("Essay ")
             for sentence in re.split(r"(?<=[.!?])\s+", block)
             if 6 <= len(sentence.split()) <= 40 and sentence.endswith(".") and not set(sentence) & set(TAGS.values())}
    usable = sorted(sentence for sentence in found if text.count(sentence) == 1)
    return rng.sample(usable, min(wanted, len(usable)))


BUILDERS = {"list": build_list, "multidoc": build_multidoc, "onedoc": build_onedoc}


def build(spec: ContextSpec) -> Context:
    text, facts = BUILDERS[spec.scenario](spec)
    return Context(**spec.model_dump(), text=text, tokens=tokens.count(text), facts=facts)
