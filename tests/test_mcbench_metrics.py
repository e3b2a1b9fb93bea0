"""MCBench's rubrics: their shape, and their reference code against established packages on seeded
random pairs (the family's own four categories plus short strings over a tiny alphabet, which force
ties, repeats and transpositions). Every documented difference is tested as documented."""

import difflib
import math
import random
import re
import unicodedata
import warnings

import pytest

from ifforge.families.mcbench.metrics import METRICS
from ifforge.families.mcbench.pairs import CATEGORIES, make_pairs

PAIRS = [(p.hypothesis, p.reference) for p in make_pairs(5, list(CATEGORIES), 6)]


def _tiny(rng: random.Random, words: bool) -> str:
    if words:
        return " ".join(rng.choice("ab ba cab a b".split()) for _ in range(rng.randint(2, 7)))
    return "".join(rng.choice("abc") for _ in range(rng.randint(1, 8)))


_RNG = random.Random(14)
TINY_CHARS = [(_tiny(_RNG, False), _tiny(_RNG, False)) for _ in range(20)]
TINY_WORDS = [(_tiny(_RNG, True), _tiny(_RNG, True)) for _ in range(20)]


def final(metric: str, a: str, b: str):
    return METRICS[metric].run_in_process(a, b)[-1]


def no_combining(text: str) -> bool:
    return not any(unicodedata.category(c) in ("Mn", "Mc", "Me") for c in text)


def agree(metric: str, package, pairs, step: int | None = None) -> int:
    """Assert our value (the final one, or a step's) equals the package's on every pair; return how many."""
    for a, b in pairs:
        ours = METRICS[metric].run_in_process(a, b)
        ours = ours[-1] if step is None else ours[step - 1]
        theirs = package(a, b)
        assert math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-9), (metric, a, b, ours, theirs)
    return len(pairs)


def test_the_registry_holds_the_papers_33_metrics_each_in_3_to_7_steps():
    assert len(METRICS) == 33
    assert set(METRICS) == {
        "bleu", "nist", "rouge_l", "rouge_s", "cider", "gleu", "wordf", "orange", "smoothed_bleu", "meteor",
        "rouge_w", "ribes", "chrf", "cer", "wer", "needleman_wunsch", "smith_waterman", "affine_gap", "levenshtein",
        "damerau_levenshtein", "hamming", "lee", "bag", "jaro", "jaro_winkler", "ratcliff_obershelp", "lcsstr",
        "jaccard", "tanimoto", "dice", "overlap", "tversky", "monge_elkan"}
    average = sum(len(m.steps) for m in METRICS.values()) / len(METRICS)
    assert 4 <= average <= 6, average  # the paper averages 4.18
    for metric in METRICS.values():
        assert 3 <= len(metric.steps) <= 7, metric.id
        assert metric.id == metric.id.lower() and metric.unit in ("words", "characters")
        for k, step in enumerate(metric.steps, 1):
            assert re.match(rf"def step{k}\(", step.code), (metric.id, k)
            assert step.requirement and step.title
        imports = set(re.findall(r"^\s*(?:import|from)\s+(\w+)", metric.source(), re.MULTILINE))
        assert imports <= {"math"}, (metric.id, imports)  # no packages: what the sandbox and a model can run


def test_a_rubric_never_names_its_metric():
    from ifforge.families.mcbench.family import rubric_text

    for metric in METRICS.values():
        names = {metric.name.split(" (")[0], metric.id.replace("_", " "), metric.id.replace("_", "-")}
        names |= {part for part in re.split(r"[ -]", metric.name) if part[:1].isupper() and len(part) > 3}
        text = (metric.summary + rubric_text(metric, "code")).lower()
        for name in names:
            assert name.lower() not in text, (metric.id, name)


def test_character_edit_metrics_agree_with_rapidfuzz_and_jellyfish():
    import jellyfish
    from rapidfuzz import distance as rd

    pairs = PAIRS + TINY_CHARS
    plain = [(a, b) for a, b in pairs if no_combining(a + b)]  # jellyfish compares grapheme clusters
    assert len(plain) >= len(pairs) - 2 * 6  # at most the non_latin and emoji pairs carry combining marks
    count = agree("levenshtein", rd.Levenshtein.distance, pairs)
    count += agree("levenshtein", jellyfish.levenshtein_distance, plain)
    count += agree("damerau_levenshtein", rd.DamerauLevenshtein.distance, pairs)
    count += agree("damerau_levenshtein", jellyfish.damerau_levenshtein_distance, plain)
    count += agree("hamming", lambda a, b: rd.Hamming.distance(a, b, pad=True), pairs)
    count += agree("hamming", jellyfish.hamming_distance, plain)
    count += agree("jaro", rd.Jaro.similarity, pairs) + agree("jaro", jellyfish.jaro_similarity, plain)
    count += agree("jaro_winkler", rd.JaroWinkler.similarity, pairs)
    count += agree("jaro_winkler", jellyfish.jaro_winkler_similarity, plain)
    assert count > 300


def test_alignment_and_substring_metrics_agree_with_textdistance_and_difflib():
    import textdistance as td

    pairs = PAIRS + TINY_CHARS
    plus_minus = lambda x, y: 1 if x == y else -1  # noqa: E731
    agree("needleman_wunsch", td.NeedlemanWunsch(gap_cost=1, sim_func=plus_minus), pairs)
    agree("affine_gap", td.Gotoh(gap_open=1, gap_ext=0.5, sim_func=plus_minus), pairs)
    # textdistance's Smith-Waterman returns the table's last cell (our step 3's last number), and 0 for equal strings
    different = [(a, b) for a, b in pairs if a != b]
    for a, b in different:
        last_row = METRICS["smith_waterman"].run_in_process(a, b)[2]
        assert last_row[-1] == td.SmithWaterman(gap_cost=1, sim_func=lambda x, y: 2 if x == y else -1)(a, b)
        assert final("smith_waterman", a, b) >= last_row[-1]
    agree("bag", td.Bag(), pairs)
    agree("lcsstr", td.LCSStr().normalized_similarity, pairs)
    agree("ratcliff_obershelp", lambda a, b: difflib.SequenceMatcher(None, a, b, autojunk=False).ratio(), pairs)
    agree("ratcliff_obershelp", td.RatcliffObershelp(), pairs)
    for a, b in pairs:  # the blocks themselves, not only their sum
        blocks = METRICS["ratcliff_obershelp"].run_in_process(a, b)[0]
        expected = difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()[:-1]
        assert blocks == [list(block) for block in expected], (a, b)


def test_ratcliff_obershelp_is_difflib_without_autojunk_on_long_texts():
    """difflib treats characters of a B of 200+ characters that occur more than 1% of the time as junk
    unless autojunk=False; the rubric's algorithm has no such rule, so ours must equal difflib without it."""
    import textdistance as td

    a = ("The committee met on Tuesday to review the budget for next year. After a long discussion, members agreed "
         "to fund the new library wing, delay the park renovation, and ask the city for a second estimate on the "
         "bridge repairs.")
    b = ("On Tuesday the committee reviewed next year's budget. After a short discussion, members agreed to fund "
         "the library wing, to postpone the renovation of the park, and to ask the city for another estimate on "
         "repairing the bridge.")
    assert len(a) >= 200 and len(b) >= 200
    for x, y in ((a, b), (b, a)):
        without = difflib.SequenceMatcher(None, x, y, autojunk=False)
        assert final("ratcliff_obershelp", x, y) == pytest.approx(without.ratio(), abs=1e-12)
        assert final("ratcliff_obershelp", x, y) == pytest.approx(td.RatcliffObershelp()(x, y), abs=1e-12)
        blocks = [list(block) for block in without.get_matching_blocks()[:-1]]
        assert METRICS["ratcliff_obershelp"].run_in_process(x, y)[0] == blocks
        assert difflib.SequenceMatcher(None, x, y).ratio() < without.ratio() - 0.3  # autojunk would change it
    short = b[:199]  # below 200 characters difflib's default is the same as ours
    assert difflib.SequenceMatcher(None, a, short).ratio() == final("ratcliff_obershelp", a, short)


def test_error_rates_agree_with_jiwer():
    import jiwer

    agree("cer", lambda a, b: jiwer.cer(b, a), PAIRS + TINY_CHARS)
    agree("wer", lambda a, b: jiwer.wer(b, a), PAIRS + TINY_WORDS)


def test_word_set_metrics_agree_with_textdistance():
    import textdistance as td

    pairs = PAIRS + TINY_WORDS
    agree("jaccard", td.Jaccard(qval=None, as_set=True), pairs)
    agree("dice", td.Sorensen(qval=None, as_set=True), pairs)
    agree("overlap", td.Overlap(qval=None, as_set=True), pairs)
    agree("tversky", td.Tversky(qval=None, ks=[0.8, 0.2], as_set=True), pairs)
    # textdistance's Monge-Elkan divides by the number of words of A twice, and answers equal strings by a shortcut
    monge = td.MongeElkan(algorithm=td.Jaro(external=False), qval=None)
    agree("monge_elkan", lambda a, b: monge(a, b) * len(a.split()), [(a, b) for a, b in pairs if a != b])
    for a, b in pairs:  # Tanimoto on word counts: equals Jaccard when no word repeats
        if len(set(a.split())) == len(a.split()) and len(set(b.split())) == len(b.split()):
            assert math.isclose(final("tanimoto", a, b), final("jaccard", a, b))


def test_bleu_family_nist_gleu_ribes_and_meteor_agree_with_nltk():
    from nltk.translate import bleu_score, gleu_score, meteor_score, nist_score, ribes_score

    pairs = PAIRS + TINY_WORDS
    smoothing = bleu_score.SmoothingFunction()

    class Identity:  # METEOR with exact matches only: no stemmer, no WordNet (no data at run time)
        def stem(self, word):
            return word

    class NoSynonyms:
        def synsets(self, *args, **kwargs):
            return []

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nltk warns about zero counts without smoothing
        agree("bleu", lambda a, b: bleu_score.sentence_bleu([b.split()], a.split()), pairs)
        agree("smoothed_bleu", lambda a, b: bleu_score.sentence_bleu([b.split()], a.split(),
                                                                     smoothing_function=smoothing.method1), pairs)
        agree("orange", lambda a, b: bleu_score.sentence_bleu([b.split()], a.split(),
                                                              smoothing_function=smoothing.method2), pairs)
    agree("gleu", lambda a, b: gleu_score.sentence_gleu([b.split()], a.split()), pairs)
    # nltk's NIST divides by zero when A has fewer than 5 words; our rubric lets such an order add nothing
    agree("nist", lambda a, b: nist_score.sentence_nist([b.split()], a.split()),
          [p for p in pairs if len(p[0].split()) >= 5])
    agree("ribes", lambda a, b: ribes_score.sentence_ribes([b.split()], a.split()), pairs)
    agree("meteor", lambda a, b: meteor_score.meteor_score([b.split()], a.split(), stemmer=Identity(),
                                                           wordnet=NoSynonyms()), pairs)


def test_rouge_l_agrees_with_rouge_score_and_chrf_wordf_with_sacrebleu():
    from rouge_score import rouge_scorer
    from sacrebleu.metrics import CHRF

    class Whitespace:  # rouge-score's own tokenizer lowercases and drops non-ASCII; the rubric splits at whitespace
        def tokenize(self, text):
            return text.split()

    scorer = rouge_scorer.RougeScorer(["rougeL"], tokenizer=Whitespace())
    agree("rouge_l", lambda a, b: scorer.score(b, a)["rougeL"].fmeasure, PAIRS + TINY_WORDS)
    agree("chrf", lambda a, b: CHRF().sentence_score(a, [b]).score / 100, PAIRS + TINY_CHARS)
    agree("wordf", lambda a, b: CHRF(char_order=0, word_order=2).sentence_score(a, [b]).score / 100,
          PAIRS + TINY_WORDS + [("the cat, sat (here)", "the cat sat (here) .")])


@pytest.mark.parametrize("metric", ["rouge_s", "rouge_w", "cider", "lee"])
def test_metrics_no_package_covers_behave_as_their_definitions_say(metric):
    """No package computes these as defined: check the properties the definitions imply."""
    identical = "the cat sat on the mat"
    best = {"lee": 0, "cider": 10}.get(metric, 1)
    assert final(metric, identical, identical) == pytest.approx(best)
    if metric == "lee":
        assert final("lee", "abc", "abd") == 1 and final("lee", "ab", "abcd") == 2 * (4 // 2)
        return
    unrelated = final(metric, "red blue green", "one two three four")
    assert unrelated == 0
    partial = final(metric, "the cat sat", "the cat sat on the mat")
    assert 0 < partial < (10 if metric == "cider" else 1)


def test_every_metric_gives_json_values_on_every_category_and_on_edge_pairs():
    """What the gold stage accepts: one value per step, JSON only, a numeric final value."""
    from ifforge.families.mcbench.family import _json_value

    edges = [("a", "a"), ("x", "y"), ("a b", "c d e f g h"), ("same words here", "same words here"), ("😀", "😀x")]
    for metric in METRICS.values():
        for a, b in PAIRS[::3] + edges:
            values = metric.run_in_process(a, b)
            assert len(values) == len(metric.steps) and _json_value(values), (metric.id, a, b)
            assert isinstance(values[-1], (int, float)) and not isinstance(values[-1], bool), (metric.id, a, b)
        same = metric.run_in_process("the cat sat", "the cat sat")[-1]
        distances = {"levenshtein", "damerau_levenshtein", "hamming", "lee", "bag", "cer", "wer"}
        if metric.id in distances:
            assert same == 0, metric.id


PAIRS_BY_UNIT = {  # (a text, a close one, a far one) in the metric's unit: one word or letter changed, all changed
    "words": ("the cat sat on the mat", "the cat sat on the map", "a dog lay under one red rug"),
    "characters": ("kitten", "kittan", "sofa"),
}


@pytest.mark.parametrize("metric", sorted(METRICS))
def test_each_metric_moves_the_way_its_direction_says(metric):
    """A distance is 0 for equal texts and grows apart; a similarity is highest for equal texts and
    falls apart (the direction the docs' table gives, checked on the reference code)."""
    cls = METRICS[metric]
    same, close, far = PAIRS_BY_UNIT[cls.unit]
    equal, near, apart = (cls.run_in_process(same, other)[-1] for other in (same, close, far))
    if cls.direction == "distance":
        assert equal == 0 < near < apart
    else:
        assert equal > near > apart
