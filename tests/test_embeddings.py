"""Dedup and expression clustering with the real embedding model, loaded from local files."""

import asyncio
import json
import subprocess
import sys

import numpy as np
import pytest

from conftest import PROJECT

from ifforge.transforms.embeddings import Embedder, EmbeddingCache, EmbeddingError
from ifforge.core.llm.client import LLM, LLMConfig
from ifforge.core.prompts import load_prompt
from ifforge.families.logicif.records import SeedFunction, TestInput
from ifforge.families.logicif.stages.load import load_seed_dir
from ifforge.testing import dedup_pairs
from ifforge.transforms import dedup, expressions
from ifforge.testing.openai_stub import Answer, StubServer

QUEUE = '''
def serve_queue(arrivals, capacity):
    waiting = []
    served = 0
    for customer in arrivals:
        if len(waiting) < capacity:
            waiting.append(customer)
        if customer % 2 == 0 and waiting:
            waiting.pop(0)
            served += 1
    return served
'''
QUEUE_RENAMED = QUEUE.replace("serve_queue", "handle_line").replace("waiting", "pending").replace(
    "served", "done") + "\n\ndef unused_helper(x):\n    return x\n"
TEXT_MACHINE = '''
def caesar(text, shift):
    """Rotate letters."""
    return "".join(chr((ord(c) - 97 + shift) % 26 + 97) if c.isalpha() else c for c in text.lower())
'''


def _seed(task_id, source):
    return SeedFunction(task_id=task_id, source=source, entry=task_id, inputs=[TestInput(args=[1])], origin="test")


@pytest.fixture(scope="module")
def embedder(tmp_path_factory):
    return Embedder(cache=EmbeddingCache(tmp_path_factory.mktemp("emb") / "vectors.sqlite"))


def test_near_duplicates_are_found_and_the_longer_one_kept(embedder, capfd):
    seeds = [_seed("serve_queue", QUEUE), _seed("caesar", TEXT_MACHINE), _seed("handle_line", QUEUE_RENAMED)]
    vectors = embedder.embed([dedup.dedup_text(s) for s in seeds])
    assert "Loading weights" not in capfd.readouterr().err  # the model's process writes no bar per tensor into a run's log
    assert vectors.shape == (3, 384) and np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-4)
    kept, dropped, pairs = dedup.run(seeds, embedder.embed, 0.7, 0.75, embedder.name)
    assert [s.task_id for s in kept] == ["caesar", "handle_line"]  # handle_line is the longer of the pair
    assert dropped[0].task_id == "serve_queue" and dropped[0].reason == "near_duplicate"
    pair = next(p for p in pairs if p.duplicate)
    assert dropped[0].detail == (f"near-duplicate of handle_line: cosine {pair.cosine:.3f} with all-MiniLM-L6-v2 "
                                 f"(threshold 0.7) and structural similarity {pair.structural:.3f} (threshold 0.75; "
                                 "1.000 is the same code under other names); the longer one is kept")
    assert pair.cosine > 0.7 and 0.75 <= pair.structural < 1  # the added helper is the only difference
    assert float(vectors[0] @ vectors[1]) < 0.7


def test_structure_ignores_names_formatting_comments_and_helper_order_but_not_the_algorithm():
    source = dedup.dedup_text(_seed("s", (PROJECT / "seeds" / "logicif" / "mine_sweeper_counts.py").read_text()))
    copy = dedup_pairs.renamed_copy(source, seed=3)
    assert "CellsMine" in copy and copy.index("def AroundCountV") < copy.index("def AdjacentIsV")  # shuffled
    commented = "# a comment\n" + copy.replace("(", "( ").replace("\n\n", "\n\n\n")
    assert dedup.shingles(source) == dedup.shingles(copy) == dedup.shingles(commented)
    assert dedup.shingles(source) == dedup.shingles(dedup_pairs.renamed_copy(source, anonymous=True))
    changed = source.replace("total += 1", "total -= 1")  # another algorithm, one operator apart
    assert dedup.shingles(changed) != dedup.shingles(source)
    assert dedup.jaccard(dedup.shingles(changed), dedup.shingles(source)) > 0.9  # but still a near-copy


def test_a_copy_under_meaningless_names_is_caught_by_its_identical_structure(embedder):
    source = (PROJECT / "seeds" / "logicif" / "mine_sweeper_counts.py").read_text()
    copy = dedup_pairs.renamed_copy(dedup.dedup_text(_seed("s", source)), anonymous=True)
    seeds = [_seed("mine_sweeper_counts", source), _seed("anonymous_copy", copy)]
    vectors = embedder.embed([dedup.dedup_text(s) for s in seeds])
    assert float(vectors[0] @ vectors[1]) < 0.7  # the sentence model alone misses it
    kept, dropped, _ = dedup.run(seeds, embedder.embed, 0.7, 0.75, embedder.name)
    assert len(kept) == 1 and len(dropped) == 1 and dropped[0].reason == "near_duplicate"
    assert "structural similarity 1.000" in dropped[0].detail
    # a one-operator change is another algorithm: not identical, and too far for the sentence model
    other = _seed("changed", copy.replace("+= 1", "-= 1", 1))
    kept, dropped, _ = dedup.run([seeds[0], other], embedder.embed, 0.7, 0.75, embedder.name)
    assert len(kept) == 2 and dropped == []


def test_pairs_never_chain_through_a_dropped_seed():
    """b duplicates a, c duplicates b, c is far from a: b is dropped for a, and c, whose only match
    was b, is kept (connected groups dropped it through b)."""
    a = "def a(xs):\n    total = 0\n    for x in xs:\n        if x > 0:\n            total += x\n    return total\n"
    b = a.replace("total", "acc")
    c = b.replace("if x > 0:", "if x:")
    assert len(a) > len(b) > len(c)
    vectors = np.array([[1, 0, 0], [0.8, 0.6, 0], [0.3, 0.9, 0.3]], dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    assert vectors[0] @ vectors[1] > 0.7 and vectors[1] @ vectors[2] > 0.7 and vectors[0] @ vectors[2] < 0.7
    assert dedup.jaccard(dedup.shingles(b), dedup.shingles(c)) >= 0.3  # a tiny function: one edit moves much
    pairs = dedup.duplicates(vectors, [a, b, c], 0.7, 0.3)
    assert [(p.item, p.partner, p.duplicate) for p in pairs] == [(1, 0, True)]
    assert pairs[0].structural == 1.0 and pairs[0].cosine == pytest.approx(float(vectors[0] @ vectors[1]))

    refused = dedup.duplicates(vectors, [a, b, c], 0.7, 1.01)  # nothing confirmed: every match recorded
    assert [(p.item, p.partner, p.duplicate) for p in refused] == [(1, 0, False), (2, 1, False)]


def test_dedup_takes_any_item_with_an_id_and_source_text():
    """Not LogicIF's seeds: a plain object with `task_id` and `source` (no origin), code or prose.
    Code is compared without its comments; prose as written, by its words."""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Item:
        task_id: str
        source: str

    commented = Item("commented", "# counts positives\n" + QUEUE)
    prose = Item("prose", "Rotate each letter of the text by the shift, wrapping around the alphabet, twice over.")
    reworded = Item("reworded", prose.source.replace("twice over", "two times"))
    items = [Item("plain", QUEUE), commented, prose, reworded]
    assert dedup.dedup_text(commented) == dedup.dedup_text(items[0])  # the comment is not compared
    assert dedup.dedup_text(prose) == prose.source  # not Python: as written

    def embed(texts):  # the two codes alike, the two prose texts alike, code far from prose
        return np.array([[1.0, 0.0] if text.lstrip().startswith("def") else [0.0, 1.0] for text in texts])

    kept, dropped, _ = dedup.run(items, embed, 0.7, 0.5, "fake")
    assert kept == [items[0], prose]  # the same objects back: of each pair the longer (else the earlier)
    assert [(d.task_id, d.origin) for d in dropped] == [("commented", None), ("reworded", None)]
    assert "near-duplicate of plain" in dropped[0].detail and "near-duplicate of prose" in dropped[1].detail


def test_on_a_labelled_set_structure_keeps_distinct_algorithms_and_catches_every_copy(embedder):
    """Copies: every other project seed renamed, reformatted, helpers shuffled (and with a helper
    added; all 42 in `benchmarks/dedup.py`). Distinct: every pair of 34 standard-library functions.
    Both rules measured; printed with -s."""
    seeds, _ = load_seed_dir(PROJECT / "seeds" / "logicif")
    pairs = dedup_pairs.labelled_pairs({seed.task_id: seed.source for seed in seeds[::2]})
    cosine, structural = dedup_pairs.scores(pairs, embedder.embed)
    embedding_only, combined = dedup_pairs.figures(pairs, cosine, structural, 0.7, 0.75)
    print(f"\n{embedding_only.line()}\n{combined.line()}")
    assert combined.copies == 2 * len(seeds[::2]) == 42 and combined.distinct == 561
    assert combined.caught == combined.copies and combined.false_drops == 0
    assert embedding_only.caught == embedding_only.copies and embedding_only.false_drops >= 3
    wrongly = {pair.name for pair, score in zip(pairs, cosine) if not pair.duplicate and score > 0.7}
    assert {"colorsys.hls_to_rgb vs colorsys.rgb_to_hsv", "html.escape vs shlex.quote"} <= wrongly


def test_the_project_seeds_lose_none_to_chains_or_look_alikes(embedder):
    seeds, _ = load_seed_dir(PROJECT / "seeds" / "logicif")
    kept, dropped, pairs = dedup.run(seeds, embedder.embed, 0.7, 0.75, embedder.name)
    assert dropped == [] and len(kept) == len(seeds)
    names = {frozenset((seeds[p.item].task_id, seeds[p.partner].task_id)) for p in pairs}
    assert frozenset(("game_of_life_steps", "mine_sweeper_counts")) in names  # an embedding match, refused
    assert all(not p.duplicate and p.structural < 0.3 for p in pairs)


def test_embeddings_are_cached_by_content(embedder):
    embedder.embed(["a sentence about queues", "another one"])
    before = embedder.computed
    again = embedder.embed(["another one", "a sentence about queues", "a new one"])
    assert embedder.computed == before + 1
    assert again.shape == (3, 384)


def test_the_model_loads_in_a_process_of_its_own_offline_and_the_caller_never_imports_torch():
    code = ("import sys\n"
            "from ifforge.transforms.embeddings import Embedder, _load, default_model_path\n"
            "vectors = Embedder().embed(['def f():\\n    return 1', 'def g():\\n    return 2'])\n"
            "child = _load(str(default_model_path())).process\n"
            "environ = open(f'/proc/{child.pid}/environ', 'rb').read().split(b'\\0')\n"
            "print(vectors.shape, 'torch' in sys.modules, b'HF_HUB_OFFLINE=1' in environ, child.pid != 0)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.stdout.split() == ["(2,", "384)", "False", "True", "True"], done.stderr[-2000:]


def test_a_model_folder_that_will_not_load_is_a_clear_error_naming_it(tmp_path):
    broken = tmp_path / "broken-model"
    broken.mkdir()
    (broken / "config.json").write_text("{not json")
    with pytest.raises(EmbeddingError, match="broken-model: the embedding model could not be loaded"):
        Embedder(broken).embed(["x"])


def test_a_missing_local_model_is_a_clear_error(tmp_path):
    with pytest.raises(EmbeddingError, match=str(tmp_path / "no-model")):
        Embedder(tmp_path / "no-model").embed(["x"])


def test_pair_search_matches_brute_force_across_blocks():
    generator = np.random.default_rng(0)
    vectors = generator.normal(size=(300, 16)).astype(np.float32)
    vectors[150] = vectors[3] + 0.01
    vectors[299] = vectors[150] + 0.01
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    i, j, sims = dedup.similar_pairs(vectors, 0.5, block=64)
    brute = {(a, b) for a in range(300) for b in range(a + 1, 300) if vectors[a] @ vectors[b] > 0.5}
    assert set(zip(i.tolist(), j.tolist())) == brute and (3, 150) in brute


def test_expressions_from_the_bank_cluster_and_respect_vetoes(embedder):
    solve = load_prompt("solve")
    bank = expressions.load_bank("solve")
    assert len(bank) >= 40
    texts = bank + [solve.text, bank[0].replace("{{input}}", ""), bank[1] + " {{extra}}"]
    vectors = embedder.embed(texts)
    original = embedder.embed([solve.text])[0]
    chosen = expressions.choose(solve, texts, ["bank"] * len(texts), vectors, original, 5, set(), embedder.name)
    by_id = {r.id: r for r in chosen.rewrites}
    assert len(chosen.chosen) == 5 and len({by_id[i].cluster for i in chosen.chosen}) == 5
    problems = {r.text[:20]: r.problem for r in chosen.rewrites if not r.usable}
    assert any("near-copy of the original" in p for p in problems.values())
    assert any("{{input}} appears 0 times" in p for p in problems.values())
    assert any("new placeholder {{extra}}" in p for p in problems.values())
    for rewrite_id in chosen.chosen:
        rewrite = by_id[rewrite_id]
        nearest = min(r.distance for r in chosen.rewrites if r.cluster == rewrite.cluster and r.usable)
        assert rewrite.distance == nearest

    vetoed = chosen.chosen[0]
    again = expressions.choose(solve, texts, ["bank"] * len(texts), vectors, original, 5, {vetoed}, embedder.name)
    assert vetoed not in again.chosen and len(again.chosen) == 5
    replacement = {by_id[i].cluster: i for i in again.chosen}[by_id[vetoed].cluster]
    assert replacement != vetoed
    rendered = {eid: text for eid, text in again.texts().items()}
    assert list(rendered) == ["e1", "e2", "e3", "e4", "e5"]


def test_llm_rewrites_are_collected_in_batches_through_the_scripted_server():
    solve = load_prompt("solve")
    bank = expressions.load_bank("solve")

    def writer(request):
        prompt = request["messages"][0]["content"]
        round_number = int(prompt.split("set number ")[1].split(":")[0])
        batch = bank[(round_number - 1) * 10: round_number * 10]
        return Answer(content=json.dumps({"rewrites": batch + ["no placeholders at all"]}))

    async def go(url):
        llm = LLM(LLMConfig(model="writer", base_url=url, api_key="k"))
        try:
            return await expressions.llm_rewrites(solve, 25, llm)
        finally:
            await llm.close()

    with StubServer(writer) as server:
        texts = asyncio.run(go(server.url))
        assert len(server.requests) == 3  # 10 usable per batch until 25 are in
        assert "{{description}}" in server.requests[0]["messages"][0]["content"]
    assert len(texts) == 31 and "no placeholders at all" in texts
