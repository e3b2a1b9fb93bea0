"""IFEval-FC's rule checkers on passing and failing strings, including the edge cases the paper's
checkers get wrong (Unicode letters, sentence boundaries, empty strings)."""

import random
import unicodedata

import pytest

from ifforge.families.ifeval_fc import rules
from ifforge.families.ifeval_fc.rules import get, sentences, words

CASES = [  # (rule id, args, passing values, failing values)
    ("keywords_present", {"keywords": ["river", "copper"], "present": True},
     ["The RIVER was copper-coloured.", "copper; river"], ["", "rivers of copper", "river only"]),
    ("keywords_present", {"keywords": ["river", "copper"], "present": False},
     ["", "a quiet lake", "riverside coppery"], ["The river.", "COPPER"]),
    ("keyword_frequency", {"keyword": "day", "relation": "exactly", "n": 2},
     ["day by day", "the day’s end, a long day"], ["", "day", "days and days", "day day day"]),
    ("keyword_frequency", {"keyword": "day", "relation": "at most", "n": 1}, ["", "one day", "Monday"], ["day—day"]),
    ("letter_frequency", {"letter": "e", "relation": "at least", "n": 3}, ["Eee", "see the bee"], ["", "éé e", "Be"]),
    ("letter_frequency", {"letter": "i", "relation": "exactly", "n": 1}, ["I", "İi"], ["", "ii"]),
    ("cyrillic_greek", {"script": "cyrillic"},
     ["Привет, мир! 2024", "ёж", unicodedata.normalize("NFD", "йод")],
     ["", "123 ...", "Привет world", "Привеt", "Ελλάδα"]),
    ("cyrillic_greek", {"script": "greek"}, ["Καλημέρα κόσμε.", "ᾅδης"], ["", "Καλημέρα κόσμε x", "Мир"]),
    ("word_count", {"relation": "exactly", "n": 3}, ["one two three", "café au lait", "hello—big world",
                                                     "call snake_case now"],
     ["", "one two", "a b c d"]),
    ("word_count", {"relation": "at most", "n": 2}, ["", "two words", "!!! ..."], ["three short words"]),
    ("word_count", {"relation": "at least", "n": 20}, [" ".join(["w"] * 20)], [" ".join(["w"] * 19), ""]),
    ("sentence_count", {"relation": "exactly", "n": 2},
     ["Really?! Yes.", "I met Dr. Smith. He said hi", "Pi is 3.14 today. Right…", "Wait... Now!"],
     ["", "One sentence only.", "One. Two. Three.", "Hi!!! Ok! Then?"]),
    ("sentence_count", {"relation": "at most", "n": 1}, ["", "J. R. Tolkien wrote it.", "e.g. this one"],
     ["First. Second."]),
    ("postscript", {"marker": "P.S."}, ["Hello.\nP.S. see you", "Hi p. s. bring cake"], ["", "Hello. P.S.", "P.P.S. no"]),
    ("postscript", {"marker": "P.P.S."}, ["Hi.\nP.P.S. one more"], ["Hi.\nP.S. one more", ""]),
    ("placeholder_count", {"relation": "exactly", "n": 2}, ["[name] at [address]", "[a] [b] []"],
     ["", "[name]", "[] [ ]", "[a] [b] [c]", "[a\nb] [c]"]),
    ("spaces_between", {"n": 5}, ["a     b", "one     two     three", "", "word"],
     ["a    b", "a b", "  ", "a      b", " a     b", "a     b ", "a\tb", "a     b\nc"]),
    ("title_format", {}, ["<<My Trip>> and more", "text <<x>>"], ["", "<<>>", "<< >>", "<title>", "<<a\nb>>"]),
    ("highlighted_sections", {"relation": "exactly", "n": 2}, ["*one* and **two**", "**a** **b**"],
     ["", "* item\n* item", "*one*", "** ** *x*", "* a * b"]),
    ("json_format", {}, ['{"a": 1}', '```json\n{"a": [1, 2]}\n```', " {} "],
     ["", "42", '"text"', "[1, 2]", "null", '{"a": NaN}', "{'a': 1}", '{"a": 1'] + ["[" * 100000]),
    ("python_list", {}, ["['a', 'b']", '```python\n["x"]\n```', "[]"],
     ["", "['a', 1]", "('a',)", "['a'", "a, b", "[" * 100000]),
    ("all_upper", {}, ["HELLO, WORLD 2", "ÉTÉ"], ["", "123", "Hello"]),
    ("all_lower", {}, ["hello, world", "été"], ["", "!!!", "hEllo"]),
    ("capital_words", {"relation": "exactly", "n": 2}, ["STOP—NOW please", "I said NO", "COVID-19 and NATO"],
     ["", "STOP", "A B C", "Stop Now"]),
    ("end_phrase", {"phrase": "Over and out."}, ["Done. over and out.  \n", "Over and out."],
     ["", "Over and out. Bye", "Over and out"]),
    ("quotation", {"quotes": "double"}, ['"hello"', "“hello there”", '""', '" "'], ["", '"', "'hi'", ' "hi"', '"a" b']),
    ("quotation", {"quotes": "single"}, ["'hi'", "‘hi’", "''"], ['"hi"', "'"]),
    ("comma_count", {"relation": "at least", "n": 3}, ["a, b, c, d", ",,,"], ["", "a, b, c", "a，b，c，d"]),
]


@pytest.mark.parametrize("rule_id, args, passing, failing", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_checker_passes_and_fails(rule_id, args, passing, failing):
    rule = get(rule_id, **args)
    for value in passing:
        assert rule.check(value), f"{rule_id} {args} should pass {value[:60]!r}"
    for value in failing:
        assert not rule.check(value), f"{rule_id} {args} should fail {value[:60]!r}"


def test_the_registry_holds_the_papers_19_rules_15_on_by_default():
    assert len(rules.REGISTRY) == 19 and {case[0] for case in CASES} == set(rules.REGISTRY)  # each checker tested
    assert set(rules.REGISTRY) - set(rules.DEFAULT_RULES) == {"all_upper", "all_lower", "end_phrase", "postscript"}
    assert {c.group for c in rules.REGISTRY.values()} == {"keywords", "language", "length", "content", "format",
                                                          "case", "start_end", "punctuation"}


def test_arguments_fall_in_the_papers_ranges_and_relations():
    rng = random.Random(3)
    seen: dict[tuple[str, str], set[int]] = {}
    for _ in range(3000):
        for rule_id, cls in rules.REGISTRY.items():
            rule = cls(**cls.sample_args(rng))
            assert rule.describe() and "{" not in rule.describe()
            if "n" in rule.args:
                seen.setdefault((rule_id, rule.relation or "-"), set()).add(rule.args["n"])
    assert seen[("word_count", "at least")] == set(range(20, 41))
    assert seen[("word_count", "at most")] == set(range(2, 11))
    assert seen[("word_count", "exactly")] == set(range(1, 6))
    assert seen[("spaces_between", "-")] == set(range(5, 11))
    assert all(seen[("letter_frequency", r)] == set(range(1, 11)) for r in rules.RELATIONS)
    assert ("sentence_count", "exactly") not in seen  # the paper draws no exact sentence counts


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="relation"):
        get("word_count", relation="roughly", n=3)
    with pytest.raises(ValueError, match="n must be"):
        get("comma_count", relation="exactly", n=True)
    with pytest.raises(ValueError, match="script"):
        get("cyrillic_greek", script="latin")
    with pytest.raises(ValueError, match="unknown rule"):
        get("haiku")


def test_words_and_sentences_read_unicode_and_boundaries():
    assert words("day’s STOP—NOW snake_case") == ["day", "s", "STOP", "NOW", "snake_case"]
    assert words(unicodedata.normalize("NFD", "café")) == ["café"]
    assert sentences("") == [] and sentences("... !!!") == []
    assert sentences('He said "stop." Then left.') == ['He said "stop."', "Then left."]
    assert len(sentences("We meet at 5 p.m. on Main St. tomorrow. Bring tea!")) == 2


def test_a_query_that_names_a_rule_is_seen():
    assert rules.REGISTRY["json_format"].named_in("Send it as JSON please")
    assert rules.REGISTRY["comma_count"].named_in("no commas")
    assert not rules.REGISTRY["spaces_between"].named_in("is there space for a piano?")
    assert not rules.REGISTRY["word_count"].named_in("a few words about my day")


def test_review_edge_cases_no_numbers_end_phrase_boundaries():
    from ifforge.families.ifeval_fc.rules import REGISTRY, sentences

    assert len(sentences("The answer is no. I disagree.")) == 2  # "no." ends a sentence
    assert len(sentences("See No. 5 on the list. Then stop.")) == 2  # but "No. 5" does not
    end = REGISTRY["end_phrase"](phrase="Over and out.")
    assert end.check("Roger. Over and out.") and not end.check("Leftover and out.")


# ---- decisions on tricky text (docs/families/ifeval-fc.md, the table of differences) ---------------
DECISIONS = [  # (rule id, args, value, ours, the paper's)
    ("json_format", {}, '```json\n{"a": 1}', True, True),  # an unclosed fence runs to the end, as in markdown
    ("json_format", {}, '{"a": 1}\n```', False, True),  # a closing fence alone opens nothing: stray text
    ("json_format", {}, '```py\n{"a": 1}\n```', False, False),  # a fence for another language
    ("python_list", {}, '```py\n["a"]\n```', True, False),  # `py` is Python
    ("python_list", {}, '```py\n["a"]', True, False),
    ("python_list", {}, '["a"]\n```', False, True),
    ("keywords_present", {"keywords": ["first", "separate"], "present": True}, "ﬁrst, then ſeparate", True, False),
    ("keywords_present", {"keywords": ["first"], "present": False}, "𝐟𝐢𝐫𝐬𝐭 of all", False, True),
    ("keyword_frequency", {"keyword": "first", "relation": "exactly", "n": 2}, "ﬁrst and first", True, False),
    ("letter_frequency", {"letter": "f", "relation": "exactly", "n": 2}, "ﬁrst ﬂag", True, False),
    ("capital_words", {"relation": "exactly", "n": 3}, "Ⅻ Ⓐ ℍ", True, True),  # XII, A, H in capitals
    ("capital_words", {"relation": "exactly", "n": 0}, "ⅻ ⓐ", True, True),  # ⅻ and ⓐ are lower case
    ("all_upper", {}, "ℍ", True, True),
    ("sentence_count", {"relation": "exactly", "n": 2}, "Wait… Now!", True, False),  # `…` ends one as `...` does
    ("sentence_count", {"relation": "exactly", "n": 2}, "今天很好。明天见。", True, False),  # no space after 。
    ("sentence_count", {"relation": "exactly", "n": 1}, "好……然后", True, True),  # `……` inside a CJK sentence
    ("title_format", {}, "<<Cats > Dogs>>", True, True),  # a single < or > is part of a title
    ("title_format", {}, "<<x<y>>", True, True),
    ("title_format", {}, "<<>> x <<>>", False, True),  # a title ends at the first >>
    ("title_format", {}, "<<...>>", False, True),  # and holds a word
]


@pytest.mark.parametrize("rule_id, args, value, ours, papers", DECISIONS)
def test_decisions_on_fences_letters_sentence_ends_and_titles(rule_id, args, value, ours, papers):
    from ifforge.families.ifeval_fc import paper_rules

    assert get(rule_id, **args).check(value) is ours
    assert paper_rules.get(rule_id, **args).check(value) is papers


# Words the paper's WordCountChecker counts (run from its repository, Python 3.11.7, regex 2026.12.2): under
# nltk 3.9.1 (and 3.10.2, the same) and under 3.10.4, whose `regex` engine reads `\w` otherwise.
NLTK_WORDS = [("❤️ ❤️ ❤️", 0, 3), ("½ ① ²", 3, 0), ("e\u0301te\u0301", 2, 1), ("नमस्ते", 2, 1),
              ("a\u200db a\u200cb", 4, 2), ("ⒶⒷ Ⅻ", 1, 2), ("cafe\u0301", 1, 1), ("word\u200bword", 2, 2),
              ("हिन्दी भाषा", 5, 2), ("தமிழ் மொழி", 4, 2), ("ภาษาไทย ง่าย", 3, 2), ("שָׁלוֹם", 3, 1), ("شَمْس", 3, 1),
              ("①②③ ⑩", 2, 0), ("👨\u200d👩\u200d👧 family", 1, 3), ("Z\u0351\u0300a\u0363l\u036bgo", 4, 1),
              ("ʀɪᴠᴇʀ Ⓐ ⓐ ℍ", 2, 4), ("x² + y² = z²", 3, 3), ("x‿y ‿", 2, 2), ("soft\u00adhyphen", 2, 2)]


def load_agreement_script():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "ifeval_fc_agreement.py"
    spec = importlib.util.spec_from_file_location("ifeval_fc_agreement", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


def test_paper_word_count_is_each_nltks_read_from_a_candidate_file(tmp_path):
    """A candidate file in the paper's terms, read by the agreement script: paper mode gives the
    verdicts of the paper's checker under nltk 3.9.1 by default (`paper_nltk` 3.9), and those under
    3.10.4 with `paper_nltk` 3.10."""
    import json

    from ifforge.families.ifeval_fc import paper, paper_rules

    assert paper_rules.DEFAULT_NLTK == "3.9" and "3.9.1" in paper_rules.NLTK["3.9"]
    items = [{"format": {"name": "WordCountChecker", "args": {"N": n, "comparison_option": "exactly"}},
              "value": value, "3.9": old == n, "3.10": new == n}
             for value, old, new in NLTK_WORDS for n in sorted({old, new, old + 1})]
    path = tmp_path / "candidates.jsonl"
    path.write_text("".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items), encoding="utf-8")
    for (checker, args, value), item in zip(load_agreement_script().read_candidates(path), items, strict=True):
        rule_id, ours = paper.CHECKERS[checker][0], paper.our_args(checker, args)
        assert paper_rules.get(rule_id, **ours).check(value) is item["3.9"], (value, args)
        for nltk in ("3.9", "3.10"):
            assert paper_rules.get(rule_id, nltk=nltk, **ours).check(value) is item[nltk], (nltk, value, args)
            assert paper_rules.rule("paper", rule_id, ours, nltk).check(value) is item[nltk], (nltk, value, args)


def test_paper_mode_counts_words_without_nltk():
    import subprocess
    import sys

    code = ("import sys; sys.modules['nltk'] = None\n"  # any `import nltk` now fails
            "from ifforge.families.ifeval_fc import paper_rules\n"
            "print(paper_rules.get('word_count', relation='exactly', n=3).check('½ ① ²'),\n"
            "      paper_rules.get('word_count', nltk='3.10', relation='exactly', n=0).check('½ ① ²'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "True True", done.stderr[-2000:]


def test_the_agreement_script_picks_the_paper_nltk_of_the_originals_nltk():
    script = load_agreement_script()
    assert [script.nltk_variant(v) for v in ("3.8.1", "3.9.1", "3.10.2", "3.10.3", "3.10.4", "3.11.0", "4.0")] == [
        "3.9", "3.9", "3.9", "3.10", "3.10", "3.10", "3.10"]


def test_candidate_files_are_json_lines_or_a_list_and_a_bad_item_is_named(tmp_path):
    import json

    script = load_agreement_script()
    item = {"format": {"name": "TitleFormatChecker", "args": {}}, "value": "<<a\u2028b>> \u0085"}
    lines = tmp_path / "lines.jsonl"
    lines.write_text(json.dumps(item, ensure_ascii=False) + "\n\n" + json.dumps(item) + "\n", encoding="utf-8")
    listed = tmp_path / "listed.json"
    listed.write_text(json.dumps([item]), encoding="utf-8")
    assert script.read_candidates(lines) == [("TitleFormatChecker", {}, item["value"])] * 2
    assert script.read_candidates(listed) == [("TitleFormatChecker", {}, item["value"])]
    for bad, message in (({"format": {"name": "Haiku"}, "value": "x"}, "lines.jsonl:2: needs \"format\""),
                         ({"format": {"name": "WordCountChecker", "args": {"N": 3}}, "value": "x"},
                          "lines.jsonl:2: \"format\".\"args\" lacks 'comparison_option'"),
                         ({"format": {"name": "TitleFormatChecker"}, "value": 3}, "lines.jsonl:2: needs")):
        lines.write_text(json.dumps(item) + "\n" + json.dumps(bad) + "\n")
        with pytest.raises(SystemExit, match=message):
            script.read_candidates(lines)


def test_the_tricky_set_covers_every_checker_and_pins_counts():
    from ifforge.families.ifeval_fc import paper

    script = load_agreement_script()
    assert set(script.TRICKY_ARGS) == set(paper.CHECKERS)
    values = script.tricky_values()
    assert len(values) == len(set(values)) > 300
    for needle in ("❤\ufe0f", "\u200d", "\u0301", "```py", "[" * 1100, "½", "ﬁ", "Ⓐ", "。", "<<Cats > Dogs>>"):
        assert any(needle in value for value in values), needle
    sweep = [args["N"] for args in script.counted() if args["comparison_option"] == "exactly"]
    assert sweep == list(range(13))
