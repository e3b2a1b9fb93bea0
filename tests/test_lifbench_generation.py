"""LIFBench's generated benchmarks laid out as the paper's (family functions called directly, short
inputs): the input's own length, key sentences by the paper's layout, the queried places, the draws
of repeat, extract and qa, duplicate groups, balanced labels and the paper's full grid."""

import re
from collections import Counter

import pytest
from test_lifbench_family import FAMILY, build, perfect

from ifforge.families.base import Reply
from ifforge.families.lifbench import scenarios, tasks, tokens
from ifforge.families.lifbench.family import render_rows
from ifforge.families.lifbench.scenarios import TAGS
from ifforge.families.lifbench.settings import LENGTHS, LifbenchSettings


def rows_of(scenario: str, length: int = 2048, seed: int = 0, **settings) -> list[dict]:
    options = {"expressions": 0, "variable_sets": 6, **settings}
    return render_rows(build(scenario, length, seed), LifbenchSettings(family="lifbench", lengths=[length], seed=seed,
                                                                       **options), {})


@pytest.fixture(scope="module")
def onedoc() -> list[dict]:
    return rows_of("onedoc")


def test_length_counts_the_input_alone_and_the_buckets_are_the_released_ones():
    assert LENGTHS == [3072, 6144, 13312, 28672, 61440, 122880]
    for scenario in scenarios.SCENARIOS:
        row = rows_of(scenario, 1536, variable_sets=1)[0]
        text = row["prompt"].split("\n\nInstruction:")[0].split(":\n", 1)[1]
        assert 0.85 * 1536 <= row["input_tokens"] == tokens.count(text) <= 1536 < row["prompt_tokens"]


def test_key_sentences_follow_the_papers_layout_with_one_tag_empty():
    for seed in range(3):
        keys = build("onedoc", 2048, seed).facts["keys"]
        per_tag = Counter(k["tag"] for k in keys)
        assert sorted(per_tag.get(tag, 0) for tag in TAGS) == [0, 4, 4, 4, 5, 6]
        assert sum(not k["true"] for k in keys) == 3 and sum(k["true"] for k in keys) == 20


def test_repeat_asks_the_papers_counts_and_extract_once_a_tag_with_none(onedoc):
    repeats = [r for r in onedoc if r["task"] == "repeat"]
    assert sorted(r["variables"]["num"] for r in repeats[:5]) == [1, 2, 4, 6, 8]
    extracts = [r for r in onedoc if r["task"] == "extract"]
    assert len({r["variables"]["tag"] for r in extracts}) == 6
    empty = [r for r in extracts if not r["gold"]]
    assert len(empty) == 1 and FAMILY.check(empty[0], Reply.of(["[]"])).correct
    assert not FAMILY.check(next(r for r in extracts if r["gold"]), Reply.of(["[]"])).correct


def test_qa_asks_of_true_fake_and_plain_sentences_with_the_papers_kinds_of_options(onedoc):
    asked = [r for r in onedoc if r["task"] == "qa"]
    assert Counter(r["facts"]["asked"] for r in asked) == {"true": 2, "fake": 2, "plain": 2}
    keys = {k["text"]: k["true"] for k in asked[0]["facts"]["keys"]}
    for row in asked:
        sentence, (yes, no) = row["variables"]["sentence"], row["facts"]["options"]
        assert row["prompt"].count(sentence) == 2  # once in the input, once in the instruction
        assert row["gold"] == (yes if keys.get(sentence) else no)
        assert (sentence in keys) == (row["facts"]["asked"] != "plain")
    pairs = [tuple(r["facts"]["options"]) for r in asked]
    assert any(a != b and a.lower() == b.lower() for a, b in pairs)  # differ only in case
    assert any(a.isdigit() and sum(x != y for x, y in zip(a, b)) == 1 for a, b in pairs)  # one digit apart
    always_yes = [FAMILY.check(r, Reply.of([r["facts"]["options"][0]])).correct for r in asked]
    assert sum(always_yes) == 2  # a constant answer is right a third of the time


def test_list_queries_two_near_the_start_two_in_the_middle_two_near_the_end():
    rows = rows_of("list", 4096)
    last = len(build("list", 4096).facts["entries"])
    for task in ("single_id", "offset_id", "offset_element", "blur_id", "blur_element"):
        places = [r["gold"]["position"] if task.startswith("blur") else r["facts"]["position"]
                  for r in rows if r["task"] == task]
        places = [p - (1 if task.startswith("offset") and r["variables"]["direction"] == "after" else 0)
                  + (1 if task.startswith("offset") and r["variables"]["direction"] == "before" else 0)
                  for p, r in zip(places, [r for r in rows if r["task"] == task])]  # the asked entry
        regions = Counter("start" if p <= 11 else "end" if p > last - 11 else "middle" for p in places)
        assert regions == {"start": 2, "middle": 2, "end": 2}, (task, places)
    counts = [len(r["gold"]) for r in rows if r["task"] == "multi_id"]
    assert all(2 <= n <= 10 for n in counts)


def test_duplicate_groups_are_the_papers_five_holding_a_quarter_and_labels_are_balanced():
    context = build("multidoc", 16384)
    docs, groups = context.facts["docs"], context.facts["groups"]
    assert len(groups) == 5 and 0.18 <= sum(map(len, groups)) / len(docs) <= 0.32
    assert min(map(len, groups)) >= 2 and max(map(len, groups)) >= 3
    texts = [d["text"] for d in docs]
    for group in groups:  # a group is every document with its text, and only those
        assert len({texts[i] for i in group}) == 1 and texts.count(texts[group[0]]) == len(group)
    labels = Counter(("title" in d, "source" in d) for d in docs)
    assert len(labels) == 4 and max(labels.values()) / len(docs) < 0.4  # a constant label earns little logic


def test_the_papers_grid_has_its_wordings_and_variable_sets_and_every_row_can_be_answered():
    per_length = {}
    for scenario in scenarios.SCENARIOS:
        rows = rows_of(scenario, 2048, grid="paper")
        per_length[scenario] = len(rows)
        for task in tasks.TASKS:
            mine = [r for r in rows if r["task"] == task]
            if mine:
                wordings = {r["expression_id"] for r in mine}
                assert len(mine) == len(wordings) * len({r["variables_id"] for r in mine})
                assert len({r["instruction"] for r in mine if r["variables_id"] == "v0"}) == len(wordings)
        for row in rows:
            assert "{{" not in row["prompt"] and FAMILY.check(row, Reply.of([perfect(row)])).correct, row["task_id"]
    assert per_length == {"list": 337, "multidoc": 50, "onedoc": 80}
    assert 6 * sum(per_length.values()) == 2802  # the released scores' rows per model at the six lengths
    assert re.fullmatch(r"e\d+", rows[-1]["expression_id"])
