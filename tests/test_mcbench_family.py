"""MCBench without Prefect: seeded pairs, gold from the sandbox, the three rubric variants, rows,
reading replies and the FA / FF / FD scores."""

import json

import pytest

from ifforge.eval.evaluation import EvalSettings
from ifforge.eval.template import verdict_frame
from ifforge.families.mcbench import metrics
from ifforge.families.mcbench.answers import UNREAD, parse_reply, read_value
from ifforge.families.mcbench.family import FAMILY, GoldConfig, compute_gold, render, rows_of
from ifforge.families.mcbench.pairs import CATEGORIES, INJECTIONS, make_pairs
from ifforge.families.mcbench.records import MetricTask
from ifforge.families.mcbench.rubric import Metric, Step
from ifforge.families.mcbench.scoring import final_matches, judge, step_matches
from ifforge.families.mcbench.settings import McbenchSettings

GOLD = GoldConfig(case_seconds=10, memory_mb=512)


def test_the_same_seed_gives_the_same_pairs_and_a_new_seed_new_ones():
    first = make_pairs(3, list(CATEGORIES), 4)
    assert first == make_pairs(3, list(CATEGORIES), 4)
    other = make_pairs(4, list(CATEGORIES), 4)
    assert sum(a != b for a, b in zip(first, other)) >= 14
    assert make_pairs(3, ["emoji"], 6)[:4] == [p for p in first if p.category == "emoji"]  # others never move
    by = {c: [p for p in make_pairs(9, list(CATEGORIES), 8) if p.category == c] for c in CATEGORIES}
    assert all(p.hypothesis.strip() and p.reference.strip() for ps in by.values() for p in ps)  # never blank
    assert all(not any("a" <= ch <= "z" for ch in p.reference) for p in by["non_latin"])
    assert all(not any(ch.isascii() and ch.isalpha() for ch in p.reference) for p in by["emoji"])
    assert all(any(i in p.reference or i in p.hypothesis for i in INJECTIONS)
               for p in by["adversarial"] if p.kind == "injection")
    assert sum(p.hypothesis != p.reference for p in first) >= 12  # A is an edit of B, not a copy


def test_gold_comes_from_the_sandbox_and_equals_the_reference():
    pairs = make_pairs(1, list(CATEGORIES), 2)
    for metric_id in ("damerau_levenshtein", "affine_gap", "meteor"):
        outcome = compute_gold(MetricTask(task_id=metric_id, pairs=pairs), GOLD)
        assert outcome.kept is not None and not outcome.dropped
        assert len(outcome.kept.cases) == len(pairs) and "def run(a, b)" in outcome.kept.code
        for case in outcome.kept.cases:
            assert case.steps == metrics.get(metric_id).run_in_process(case.pair.hypothesis, case.pair.reference)


class Fragile(Metric):
    id, name, unit, summary = "fragile", "fragile", "words", "a test metric"
    steps = (Step("Words", "Split A.", "def step1(a):\n    return a.split()"),
             Step("Fails on emoji", "Count.",
                  "def step2(s1):\n    assert all(w.isascii() for w in s1)\n    return len(s1)"),
             Step("Text", "Not a number.", "def step3(s1, s2):\n    return 'x' if s2 > 7 else s2 / 2"))


def test_a_pair_whose_reference_run_fails_is_dropped_with_its_reason():
    pairs = make_pairs(2, ["plain", "emoji"], 6)  # plain-05's A has 7 words: kept
    with metrics.METRICS.registered(Fragile):
        outcome = compute_gold(MetricTask(task_id="fragile", pairs=pairs), GOLD)
    reasons = {d.task_id: d.reason for d in outcome.dropped}
    assert all(reasons.get(f"fragile-{p.pair_id}") == "sandbox_exception"
               for p in pairs if not p.hypothesis.isascii())
    assert all(reasons.get(f"fragile-{p.pair_id}") == "bad_final" for p in pairs
               if p.hypothesis.isascii() and len(p.hypothesis.split()) > 7)
    kept = {case.pair.pair_id for case in outcome.kept.cases}
    assert kept and kept.isdisjoint(p.split("fragile-")[1] for p in reasons)


def test_rows_render_each_variant_with_the_fields_the_issue_names():
    pairs = make_pairs(0, ["plain", "adversarial"], 1)
    gold = compute_gold(MetricTask(task_id="jaro_winkler", pairs=pairs), GOLD).kept
    rows = rows_of(gold, McbenchSettings(family="mcbench"))
    assert [r["variant"] for r in rows] == ["requirement", "example", "code"] * 2
    for row in rows:
        assert {"family", "task_id", "metric", "variant", "hypothesis", "reference", "gold_steps", "gold_final",
                "prompt"} <= set(row)
        assert row["family"] == "mcbench" and row["metric"] == "jaro_winkler"
        assert row["gold_final"] == row["gold_steps"][-1] and len(row["gold_steps"]) == 5
        prompt = row["prompt"]
        assert "### Final Results ###" in prompt and "[Step5] :" in prompt and "[Final] :" in prompt
        assert json.dumps(row["hypothesis"], ensure_ascii=False) in prompt and "NLP score" in prompt
        assert "Jaro" not in prompt and "Winkler" not in prompt
        assert ("Example:" in prompt) == (row["variant"] != "requirement")
        assert ("```python" in prompt) == (row["variant"] == "code")
        json.dumps(row)
    assert len({r["task_id"] for r in rows}) == len(rows)


def test_replies_are_read_from_the_last_final_results_block():
    text = ("Working... the input says ### Final Results ### [Final] : 0.5\n"
            "### Final Results ###\n**[Step1]** : [\"a\", \"b\"]\n[Step2]: `3`\n[Step3] : (1, 2)\n"
            "[Step4] : -inf\n[Step2] : 4\n[Final] : **0.75**.")
    reply = parse_reply(text)
    assert reply.block and reply.final == "0.75"
    assert read_value(reply.steps[1]) == ["a", "b"] and read_value(reply.steps[2]) == 4  # the last one counts
    assert read_value(reply.steps[3]) == [1, 2] and read_value(reply.steps[4]) is None
    assert read_value(reply.final) == 0.75 and read_value("45%") == 0.45 and read_value("3/4") == 0.75
    assert read_value("about 0.31 in all") == 0.31 and read_value("no idea") is UNREAD and read_value(None) is UNREAD
    assert read_value("{'x': 1}") == {"x": 1} and read_value("{2, 1}") == [1, 2]
    assert not parse_reply("The score is 0.4.").final_given and parse_reply("[Final] 0.4").final == "0.4"
    wrapped = parse_reply('[Step1] : ["k", "i",\n  "t", "t"]\n[Step2] : [1, 2\nno closing here\n[Final] : 3')
    assert read_value(wrapped.steps[1]) == ["k", "i", "t", "t"]
    assert read_value(wrapped.steps[2]) == 2.0  # an unclosed list: its last number
    assert read_value(wrapped.final) == 3


def test_labels_count_anywhere_on_a_line_as_the_paper_asks():
    """The paper: the answer must include `[Final]`. A label in the middle of a line counts, two on
    one line are two, and a label named in a sentence does not hide the value given elsewhere."""
    reply = parse_reply("So the NLP score is [Final] : 0.5 as computed")
    assert reply.final_given and read_value(reply.final) == 0.5
    two = parse_reply("Results: [Step1] : 3 [Step2]: [1, 2] and then [Final] = 0.25")
    assert read_value(two.steps[1]) == 3 and read_value(two.steps[2]) == [1, 2] and read_value(two.final) == 0.25
    mentioned = parse_reply("### Final Results ###\n[Final] : 0.75\nThat is the value I give as [Final] here.")
    assert read_value(mentioned.final) == 0.75  # the last that reads
    corrected = parse_reply("[Final] : 0.5\nWait, I made an error. [Final] : 0.6")
    assert read_value(corrected.final) == 0.6
    quoted = parse_reply('A says "write [Final] : 1.0".\n### Final Results ###\n[Step1] : 2\n[Final] : 0.3')
    assert read_value(quoted.final) == 0.3  # the block's own label, not one quoted before it
    words = ["###", "Final", "Results", "[Final]", ":", "1.0", "dog"]  # an adversarial pair's words, as a step
    inside = parse_reply(f"### Final Results ###\n[Step1] : {json.dumps(words)}\n[Step2] : ['[Final]', 'x']\n"
                         "[Final] : 0.2")
    assert read_value(inside.steps[1]) == words and read_value(inside.steps[2]) == ["[Final]", "x"]
    assert read_value(inside.final) == 0.2
    row = {"gold_steps": [3], "gold_final": 0.5}
    assert judge(row, "We get [Step1] : 3 and finally [Final] : 0.5.").fa
    assert judge(row, "I cannot give a [Final] value").ff and not judge(row, "I cannot give a [Final] value").fa


@pytest.mark.parametrize("written, value", [
    ("LCS length = 4", 4), ("2/5 = 0.4", 0.4), ("Step 4 value = 0.5", 0.5), ("0.571 (4/7)", 0.571),
    ('The words of A are ["a", "b"]', ["a", "b"]), ("[1, 2] (2 items)", [1, 2]), ('{"a": 1} as counts', {"a": 1}),
    ("the distinct words are ['cat', 'mat'] here", ["cat", "mat"]), ('the substring "cat"', "cat"),
    ("7 characters", 7), ("The NLP score is 0.4", 0.4), ("A's 3 words", 3), ("no idea", UNREAD),
    ("x = (a + b) / 2 = 0.5 (rounded)", 0.5), ("[1, 2", 2), ("the value of step 3 is 5", 5),
    ("the words are ['=', 'b']", ["=", "b"]),
])
def test_values_written_with_words_around_them_are_read(written, value):
    got = read_value(written)
    assert got is value if value is UNREAD else got == value


def test_final_accuracy_format_following_and_following_depth():
    assert final_matches(1.04, 1.0) and final_matches(0.96, 1.0) and not final_matches(1.06, 1.0)
    assert final_matches(0, 0) and final_matches(-0.0, 0.0) and not final_matches("1", 1.0)
    assert not final_matches(0.0005, 0) and not final_matches(0.01, 0)  # 5% of 0 is 0: a non-zero value is wrong
    assert step_matches(3.0, 3) and not step_matches(4, 3) and not step_matches(3.02, 3)
    assert step_matches(0.33335, 0.3333333) and step_matches(0.4286, 0.428571) and not step_matches(0.44, 0.4286)
    assert step_matches(["b", "a"], ["a", "b"], unordered=True) and not step_matches(["b", "a"], ["a", "b"])
    assert step_matches({"x": 1, "y": 2.0}, {"y": 2, "x": 1}) and not step_matches({"x": 1}, {"x": 1, "y": 2})
    assert step_matches(None, None) and not step_matches(0, None) and not step_matches(UNREAD, 0)
    row = {"gold_steps": [["a", "b"], 2, 0.5], "gold_final": 0.5, "unordered_steps": [1]}
    right = judge(row, "### Final Results ###\n[Step1] : [\"b\", \"a\"]\n[Step2] : 2\n[Step3] : 0.5\n[Final] : 0.51")
    assert right.fa and right.ff and right.fd == 1.0
    shallow = judge(row, "[Step1] : [\"a\", \"b\"]\n[Step2] : 3\n[Final] : 0.6")
    assert not shallow.fa and shallow.ff and not shallow.block and shallow.steps_right == 1
    unformatted = judge(row, "The NLP score is 0.5.")
    assert not unformatted.fa and not unformatted.ff and unformatted.fd == 0


def test_fa_ff_and_fd_count_answered_rows_and_leave_failed_requests_apart():
    rows = [{"task_id": f"t{i}", "metric": "m", "variant": "code", "category": "plain", "gold_steps": [1, 0.25],
             "gold_final": 0.25, "unordered_steps": []} for i in range(5)]
    replies = ["[Step1] : 1\n[Step2] : 0.25\n[Final] : 0.25", "[Step1] : 2\n[Step2] : 0.25\n[Final] : 0.25",
               "[Step1] : 1\n[Final] : 0.9", "nothing", None]
    results = [{**row, "response": reply, "request_failed": reply is None} for row, reply in zip(rows, replies)]
    overall = FAMILY.report.summarise(verdict_frame(FAMILY, results, rows, EvalSettings(model="")))["overall"]
    assert overall["rows"] == 4 and overall["request_failures"] == 1
    assert overall["final_accuracy"] == 0.5 and overall["format_following"] == 0.75
    assert overall["following_depth"] == 0.5 and overall["following_depth_counts"] == [4, 8]
    assert overall["final_accuracy_ci95"][0] < 0.5 < overall["final_accuracy_ci95"][1]


def test_unknown_metric_and_repeated_variant_are_named_with_their_setting():
    from ifforge.core.settings import SettingsError
    from ifforge.families import load_family_settings

    with pytest.raises(SettingsError, match="unknown metric 'bleu4'"):
        load_family_settings({"family": "mcbench", "metrics": ["bleu4"]})
    with pytest.raises(SettingsError, match="listed twice"):
        load_family_settings({"family": "mcbench", "variants": ["code", "code"]})
    assert render(metrics.get("hamming"), "requirement", "ab", "abc").count("[Step") == 5


def test_a_typographic_minus_keeps_its_sign():
    from ifforge.families.mcbench.answers import read_value

    assert read_value("\u22120.25") == -0.25 and read_value("-0.25") == -0.25


def test_generated_pairs_are_real_sentences_full_emoji_unspaced_scripts_and_adversarial_shapes():
    from collections import Counter

    from ifforge.families.mcbench import pairs as pair_module

    drawn = make_pairs(5, list(CATEGORIES), 20)
    by = {c: [p for p in drawn if p.category == c] for c in CATEGORIES}
    corpus = set(pair_module.sentences())
    assert len(corpus) > 100  # read from Python's own help topics, offline
    assert all(p.reference in corpus for p in by["plain"])  # B is a real sentence, not a word string
    words = [len(p.reference.split()) for p in by["plain"]]
    assert min(words) >= 4 and max(words) <= 30 and 8 <= sum(words) / len(words) <= 20
    emoji = "".join(p.reference + p.hypothesis for p in by["emoji"])
    assert not any(ch.isalpha() for ch in emoji)  # emoji only
    assert "\u200d" in emoji and "\u20e3" in emoji  # ZWJ sequences and keycaps
    assert any(0x1F3FB <= ord(ch) <= 0x1F3FF for ch in emoji)  # skin tones
    assert any(0x1F1E6 <= ord(ch) <= 0x1F1FF for ch in emoji)  # flags (regional indicators)
    scripts = Counter(p.kind for p in by["non_latin"])
    assert set(scripts) == {"thai", "japanese", "dzongkha"}, scripts
    for p in by["non_latin"]:  # written without spaces: 4 to 8 phrases of words joined
        phrases = p.reference.split()
        assert 4 <= len(phrases) <= 8 and not any("a" <= ch.lower() <= "z" for ch in p.reference)
        # A is edited phrase by phrase: a metric splitting at whitespace finds phrases the two share
        assert set(p.hypothesis.split()) & set(phrases) and p.hypothesis != p.reference
    assert all(p.hypothesis != p.reference for ps in by.values() for p in ps)  # a copy scores 1 (or 0) on every metric
    shapes = {p.kind: p for p in by["adversarial"]}
    assert set(shapes) == set(pair_module.ADVERSARIAL_KINDS)
    reordered, case, one = shapes["reordered"], shapes["case"], shapes["one_character"]
    assert sorted(reordered.hypothesis.split()) == sorted(reordered.reference.split()) != reordered.hypothesis.split()
    assert case.hypothesis.lower() == case.reference.lower() and case.hypothesis != case.reference
    assert len(one.hypothesis) == len(one.reference)
    assert sum(a != b for a, b in zip(one.hypothesis, one.reference)) == 1
    assert Counter(shapes["repeated"].hypothesis.split()).most_common(1)[0][1] >= 4


def test_a_pair_whose_final_value_a_constant_gives_makes_way_for_a_spare():
    from ifforge.families.mcbench.family import chosen_cases
    from ifforge.families.mcbench.records import GoldCase, GoldMetric

    drawn = make_pairs(0, ["plain", "emoji"], 4)

    def gold(finals: list[float]) -> GoldMetric:  # the same finals in both categories
        cases = [GoldCase(pair=pair, steps=[pair.hypothesis, finals[i % 4]]) for i, pair in enumerate(drawn)]
        return GoldMetric(task_id="bleu", code="", cases=cases)

    chosen, replaced, kept = chosen_cases(gold([0.0, 0.5, 1.02, 0.7]), 2)  # 0 and 1 (within 5%): a constant's
    assert [case.steps[-1] for case in chosen] == [0.5, 0.7, 0.5, 0.7] and (replaced, kept) == (2, 0)
    chosen, replaced, kept = chosen_cases(gold([1.0, 0.0, 0.97, 0.3]), 2)  # one spare only: the first stays
    assert [case.steps[-1] for case in chosen] == [1.0, 0.3, 1.0, 0.3] and (replaced, kept) == (2, 2)
    rows = rows_of(gold([0.0, 0.5, 0.6, 0.7]), McbenchSettings(family="mcbench", pairs_per_category=2, variants=["code"]))
    assert [row["pair_id"] for row in rows] == ["plain-01", "plain-02", "emoji-01", "emoji-02"]
    settings = McbenchSettings(family="mcbench")
    assert settings.spares == 5 and McbenchSettings(family="mcbench", spare_pairs=0).spares == 0
    assert len(FAMILY.load(settings).items[0].pairs) == 15 * 4  # 10 pairs and 5 spares per category
