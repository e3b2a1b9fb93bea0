"""PACIFIC's tag parsing and scores, on answers and numbers worked out by hand."""

import json

import pytest

from ifforge.eval.evaluation import EvalSettings
from ifforge.eval.intervals import wilson
from ifforge.eval.template import verdict_frame, write_report
from ifforge.families.pacific.answers import coerce, parse_answers, parse_chat
from ifforge.families.pacific.family import FAMILY
from ifforge.families.pacific.scoring import judge_sample


def test_tags_both_closings_spaces_case_markdown_and_repeats():
    text = ("Working...\n[ANSWER][1] 12 [\\ANSWER]\n**[answer] [2]** `\"ab c\"` [/ANSWER]\n"
            "[ANSWER][2] \"fixed\" [/ANSWER]\n[ANSWER][9] 1 [/ANSWER]")
    assert parse_answers(text) == {1: "12", 2: '"fixed"', 9: "1"}
    assert parse_answers(None) == {} and parse_answers("") == {} and parse_answers("no tags at all") == {}


def test_malformed_and_unclosed_tags():
    assert parse_answers("[ANSWER]1] 5 [\\ANSWER] [ANSWER][] 6 [/ANSWER]") == {}
    assert parse_answers("[ANSWER][1] 5\n[ANSWER][2] 7 [/ANSWER]") == {1: "5", 2: "7"}
    assert parse_answers("[ANSWER][3] \"x\"") == {3: '"x"'}


def test_chat_replies_answer_their_own_step():
    replies = ["so [ANSWER][1] 4 [/ANSWER]", "[ANSWER][7] \"b\" [/ANSWER]", None, "[ANSWER][1] 9 [/ANSWER] "
               "[ANSWER][4] 10 [/ANSWER]"]
    assert parse_chat(replies) == {1: "4", 2: '"b"', 4: "10"}


def test_coercion_by_type():
    assert coerce(" -5 ", "int") == (-5, "") and coerce("7.", "int") == (7, "") and coerce('"12"', "int") == (12, "")
    assert coerce("1,000", "int")[0] is None and coerce("five", "int")[0] is None
    assert coerce('"a\\"b"', "str") == ('a"b', "") and coerce("'  x '", "str") == ("  x ", "")
    assert coerce("12", "str") == ("12", "")  # the text matches: a string gold "12" is right


def test_verdicts_per_step():
    verdicts = judge_sample([5, "ab", 3], {1: "5", 2: "ba"})
    assert [v.status for v in verdicts] == ["right", "wrong_value", "missing"]
    assert judge_sample([5], {1: "five"})[0].status == "wrong_type"


def _result(task_id, gold, response, **extra):
    return {"task_id": task_id, "mode": "prompt", "form": "code", "chain_length": len(gold), "output_length": 3,
            "gold": gold, "response": response, **extra}


def test_prompt_instruction_and_conditional_accuracy_by_hand(tmp_path):
    tag = "[ANSWER][{}] {} [/ANSWER]".format
    results = [
        _result("a", [1, 2, 3], " ".join(tag(i, v) for i, v in ((1, 1), (2, 2), (3, 3)))),  # all right
        _result("b", [1, 2, 3], " ".join(tag(i, v) for i, v in ((1, 1), (2, 9), (3, 3)))),  # step 2 wrong
        _result("c", [1, 2, 3], tag(1, 0)),  # wrong, then two missing
        _result("d", [1, 2, 3], None, request_failed=True),
        {**_result("e", ["x", "y"], None), "mode": "chat", "form": "nl",
         "responses": [tag(1, '"x"'), tag(2, '"z"')]},
    ]
    frame = verdict_frame(FAMILY, results, [], EvalSettings(model=""))
    summary = FAMILY.report.summarise(frame)
    overall = summary["overall"]
    # samples a, b, c, e (d failed): only a is fully right
    assert overall["samples"] == 4 and overall["prompt_accuracy"] == 0.25 and overall["request_failures"] == 1
    # steps: a 3/3, b 2/3, c 0/3, e 1/2 -> 6 of 11
    assert overall["steps"] == 11 and overall["instruction_accuracy"] == round(6 / 11, 4)
    # steps whose previous step was right: a2, a3, b2, e2 -> right a2, a3 -> 2/4
    assert overall["conditional_accuracy"] == 0.5
    assert (overall["missing"], overall["wrong_type"], overall["wrong_value"]) == (2, 0, 3)
    assert summary["by_mode"]["chat"]["instruction_accuracy"] == 0.5
    assert summary["by_chain_length"]["3"]["samples"] == 3
    written = write_report(FAMILY.report, frame, tmp_path / "r", "test")
    assert json.loads((tmp_path / "r" / "report.json").read_text()) == {"title": "test", "run": {}, **written}
    assert "| overall | 4 | 25.0%" in (tmp_path / "r" / "report.md").read_text()


def test_wilson_interval_by_hand():
    # p = 0.5, n = 4: centre 0.5, half = 1.96 * sqrt(0.0625 + 0.0600) / 1.9604 = 0.3498...
    low, high = wilson(2, 4)
    assert low == pytest.approx(0.1500, abs=1e-3) and high == pytest.approx(0.8500, abs=1e-3)
    assert wilson(0, 0) is None
    assert wilson(10, 10)[1] == 1.0
