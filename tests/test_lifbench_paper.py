"""LIFBench's own files and rules: `ifforge convert lifbench` on small files written here in the
original's format, `--rules paper` (the original's verdicts, quirks included) beside ifforge's
fixed rubric, and the stability and capability figures as the paper computes them."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from ifforge.core.untrusted import InputError
from ifforge.eval import template
from ifforge.eval.evaluation import BenchmarkError, EvalSettings, check_options
from ifforge.families.base import Reply
from ifforge.families.lifbench import paper, paper_eval, rubric
from ifforge.families.lifbench.convert import convert, prompts_from_meta
from ifforge.families.lifbench.family import FAMILY
from ifforge.families.lifbench.scoring import capability_map, stability

LIST_HEAD = ("You're a searcher. You need to output the corresponding list elements based on the instructions and "
             "the list below. Please follow the instructions directly without anything else. List to be retrieved:\n")
ENTRIES = ["3f2a9c0d11e0", "Write a poem about the sea.", "77aa0b1c22d4", "Name three rivers in Europe.",
           "e0c4d5f6a7b8", "Explain how a lever works."]
DOCS_HEAD = ("You are a document manager. Here is a collection of documents.\n\n Documents:\n"
             "******************** doc-1 ********************\nid: Kx1\ntitle: First\nsource: news\ntext: same words\n\n\n"
             "******************** doc-2 ********************\nid: Kx2\ntext: same words\n\n\n"
             "******************** doc-3 ********************\nid: Kx3\ntitle: Third\ntext: other words\n\n\n"
             "\n\n Instructions:")
LABEL = {"#Topic#": [["Essays find truth.", 0, 9, True], ['He said "stop" twice.', 1, 2, True]],
         "@argument@": [["Writing is thinking.", 2, 5, True], ["A fake argument.", 3, 7, False]]}
ONEDOC_HEAD = "There are several different types of KEY SENTENCE in the input text.\n\nInput text: ...\n\nInstruction: "


def item(prompt, param, label, ins_id=0, param_id=0, length=3):
    return {"prompt": prompt, "label": label, "param": param, "length": length, "ins_id": ins_id, "param_id": param_id}


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    """Rows converted from a small data/prompts/ folder in LIFBench's own format."""
    folder = tmp_path_factory.mktemp("lifbench") / "data" / "prompts"
    folder.mkdir(parents=True)
    listing = "".join(f"{i}. {e}\n" for i, e in enumerate(ENTRIES, 1))
    files = {
        "list-offset_query_id": [item(f"{LIST_HEAD}{listing}\nInstruction: What is the next item to 2nd?\n",
                                      {"id": 2, "ordid": "2nd", "element": ENTRIES[1], "pre_element": ENTRIES[0],
                                       "post_element": ENTRIES[2], "bias": 1}, 6)],
        "list-single_query_id": [item(f"{LIST_HEAD}{listing}\nInstruction: What is the 3rd element?\n",
                                      {"id": 3, "ordid": "3rd", "element": ENTRIES[2], "pre_element": ENTRIES[1],
                                       "post_element": ENTRIES[3]}, 6)],
        "multidoc-batch_label": [item(DOCS_HEAD + "Label the documents.",
                                      {"rule_key": "cmmi", "candidates": ["complete", "miss_title", "miss_source",
                                                                          "incomplete"], "rules": "...",
                                       "doc_keys": [["id", "title", "source", "text"], ["id", "text"],
                                                    ["id", "title", "text"]]}, 3)],
        "multidoc-find_dup_text": [item(DOCS_HEAD + "Find the duplicates.",
                                        {"info_text": "id and title", "info_keys": "id title", "example": "...",
                                         "dup_idxs": [[0, 1]],
                                         "dup_infos": [[{"id": "Kx1", "title": "First"}, {"id": "Kx2", "title": None}]]},
                                        3)],
        "onedoc-extract": [item(ONEDOC_HEAD + "Gather every <#Topic#>.", {"type": "<#Topic#>"}, LABEL),
                           item(ONEDOC_HEAD + "Gather every <|Summary|>.", {"type": "<|Summary|>"}, LABEL, param_id=1)],
        "onedoc-qa": [item(ONEDOC_HEAD + 'Is "Essays find truth." key?', {"evidence": "Essays find truth.",
                                                                          "options": ["apple", "APPLE"]}, LABEL),
                      item(ONEDOC_HEAD + 'Is "A fake argument." key?', {"evidence": "A fake argument.",
                                                                        "options": ["Yes", "No"]}, LABEL, param_id=1)],
        "onedoc-repeat": [item(ONEDOC_HEAD + "Provide 2 KEY SENTENCE.", {"num": 2, "sep": "###"}, LABEL)],
    }
    for name, items in files.items():
        (folder / f"{name}.json").write_text(json.dumps(items))
    converted = convert(folder.parent)  # the data/ folder: its prompts/
    return {(row["task"], row["variables_id"]): row for row in converted}


def test_convert_gives_ifforge_gold_and_keeps_the_originals_fields(rows):
    offset = rows["offset_id", "v0"]
    assert offset["gold"] == ENTRIES[2] and offset["facts"] == {"position": 3}  # bias 1: the next entry
    assert offset["length_tokens"] == 3072 and offset["expression_id"] == "e0" and offset["paper"]["label"] == 6
    assert offset["instruction"] == "What is the next item to 2nd?"
    assert rows["batch_label", "v0"]["gold"] == {"doc1": "complete", "doc2": "incomplete", "doc3": "miss_title"}
    assert rows["find_dup", "v0"]["gold"] == [[["Kx1", "First"], ["Kx2", None]]]
    assert {"Kx1", "First", "news", "Third"} <= set(rows["find_dup", "v0"]["facts"]["values"])
    extract = rows["extract", "v0"]
    assert extract["gold"] == ["Essays find truth.", 'He said "stop" twice.'] and extract["facts"]["tag"] == "#Topic#"
    assert rows["extract", "v1"]["gold"] == []  # no |Summary| sentence in the document
    assert rows["qa", "v0"]["gold"] == "apple" and rows["qa", "v1"]["gold"] == "No"  # a fake is not a key sentence
    assert [k["tag"] for k in rows["repeat", "v0"]["facts"]["keys"]] == ["#Topic#"] * 2 + ["@argument@"] * 2


def test_convert_names_the_file_and_item_of_bad_input(tmp_path):
    (tmp_path / "onedoc-qa.json").write_text(json.dumps([item("p", {"evidence": "x", "options": ["a", "b"]}, {}),
                                                        {"prompt": "p"}]))
    with pytest.raises(InputError, match=r"onedoc-qa.json: item 1: missing field 'label'"):
        convert(tmp_path)
    (tmp_path / "onedoc-qa.json").write_text("[{")
    with pytest.raises(InputError, match="onedoc-qa.json"):
        convert(tmp_path / "onedoc-qa.json")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no LIFBench prompt files"):
        convert(tmp_path / "empty")


def test_prompt_items_are_rendered_from_meta_when_there_are_no_prompt_files(tmp_path):
    meta = tmp_path / "meta"
    meta.mkdir()
    tasks = {"onedoc": {"sys_instruction": "Head.\n\nInput text: {input}\n\nInstruction: {instruction}\n",
                        "subtasks": {"extract": {"instructions": ["Collect {type}.", "Gather {type}."],
                                                 "params": {"type": ["<#Topic#>", "<@argument@>"]}}}}}
    (meta / "tasks.json").write_text(json.dumps(tasks))
    (meta / "onedoc_input.json").write_text(json.dumps({"info": [], "inputs": [
        {"input_text": "Some text.", "label": LABEL, "length": 3}]}))
    items = prompts_from_meta(meta)["onedoc-extract"]
    assert len(items) == 4 and items[0]["prompt"] == "Head.\n\nInput text: Some text.\n\nInstruction: Collect <#Topic#>.\n"
    assert [(i["ins_id"], i["param_id"]) for i in items] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    converted = convert(tmp_path)
    assert len(converted) == 4 and converted[1]["gold"] == ["Writing is thinking."]


# ---- the original's quirks in paper mode, ifforge's rules beside them ----------------------------------
def both(row, reply):
    return paper.score(row, reply), rubric.score(row, reply)


def test_paper_mode_finds_complete_inside_incomplete(rows):
    row = rows["batch_label", "v0"]
    reply = json.dumps({"doc1": "incomplete", "doc2": "incomplete", "doc3": "miss_title"})
    theirs, ours = both(row, reply)
    assert theirs["points"]["logit_correct"] == 3 and theirs["ars"] == 1.0  # "complete" is in "incomplete"
    # ifforge: two documents of three labelled right, and the other points earned as far as that
    assert ours["points"]["correct"] == 2 and ours["ars"] == pytest.approx(2 / 3, abs=1e-6)


def test_paper_mode_extract_order_never_fails_and_ifforge_reads_escaped_json(rows):
    row = rows["extract", "v0"]
    reversed_reply = json.dumps(row["gold"][::-1])  # the second sentence has quotes: JSON escapes them
    theirs, ours = both(row, reversed_reply)
    assert theirs["points"]["order"] == 4 and theirs["ars"] == 1.0
    assert ours["points"]["order"] == 0 and ours["points"]["correct"] == 4  # found though escaped
    assert rubric.score(row, json.dumps(row["gold"]))["ars"] == 1.0


def test_an_empty_list_for_a_tag_with_no_sentences_earns_everything(rows):
    row = rows["extract", "v1"]
    assert rubric.score(row, "[]")["ars"] == 1.0 and paper.score(row, "[]")["ars"] == 1.0
    wrong = rubric.score(row, json.dumps(["Essays find truth."]))
    assert wrong["points"] == {"format": 4, "correct": 0.0, "order": 0.0, "original": 0.0}


def test_paper_mode_gives_any_repeat_reply_half_of_ori_and_unsure_replies_points(rows):
    theirs, ours = both(rows["repeat", "v0"], "hello")
    assert theirs["points"]["ori"] == 1 and theirs["ars"] == pytest.approx((1 + 1 / 3) / 14)
    assert ours["ars"] == 0
    theirs, ours = both(rows["qa", "v1"], "I am not sure.")
    assert theirs["ars"] == pytest.approx(0.1) and ours["ars"] == 0


def test_options_that_differ_only_in_case_are_told_apart(rows):
    row = rows["qa", "v0"]  # options apple / APPLE, gold apple
    assert rubric.score(row, "apple")["ars"] == 1.0
    wrong = rubric.score(row, "APPLE")
    assert wrong["points"] == {"correct": 0.0, "format": 2}
    assert paper.score(row, "APPLE")["ars"] == pytest.approx((0.1 + 2) / 5)


def test_list_reply_quoting_no_entry_keeps_its_format_points_out_of_the_paper_total(rows):
    row = rows["single_id", "v0"]
    verdict = paper.judge("single_id", row["prompt"], row["paper"]["param"], row["paper"]["label"], "x" * 12)
    assert verdict["format"] == 0.2 and verdict["total_score"] == 0.0
    assert paper.score(row, ENTRIES[2])["ars"] == 1.0 and rubric.score(row, ENTRIES[2])["ars"] == 1.0


def test_find_dup_one_line_per_group_and_python_none(rows):
    row = rows["find_dup", "v0"]
    by_line = '[["Kx1", "First"], ["Kx2", None]]'  # Python's None, as the instruction asks
    assert rubric.score(row, by_line)["ars"] == 1.0
    assert rubric.score(row, '[["Kx1", "First"], ["Kx2", "None"]]')["ars"] == 1.0
    one_line = rubric.score(row, '[[["Kx1", "First"], ["Kx2", null]], [["Kx3", "Third"]]]')
    assert one_line["points"]["format"] == pytest.approx(1.0)  # 0.2 of 5: brackets only, no group read
    assert one_line["points"]["count"] == 0.0


def test_where_the_original_raises_paper_mode_scores_the_reply_zero(rows):
    row = rows["find_dup", "v0"]
    with pytest.raises(ValueError):  # the original's assert: nothing left of the reply once its escapes go
        paper.judge("find_dup", row["prompt"], row["paper"]["param"], row["paper"]["label"], '\\"')
    verdict = paper.score(row, '\\"')
    assert verdict["ars"] == 0.0 and "raises ValueError" in verdict["error"]


def test_paper_mode_never_runs_a_reply(tmp_path):
    """find_dup's `[[...]]` is what the original `eval`s: followed over its syntax tree instead."""
    assert paper_eval.evaluate("[['a', None], [1 + 2, -3]]") == [["a", None], [3, -3]]
    assert paper_eval.evaluate("[[1 == 1, 2**40, 0 or 'x', 1 and 2, 'y' if 0 else 'z']]") == [[True, 2**40, "x", 2, "z"]]
    assert paper_eval.evaluate("[[len('abc'), str(7), sorted('ba'), 'ab'.upper(), f'{1 + 1:>3}']]") == [
        [3, "7", ["a", "b"], "AB", "  2"]]
    assert paper_eval.evaluate("[[(lambda x: x * 2)(4), [y for y in range(3) if y]]]") == [[8, [1, 2]]]
    assert paper_eval.evaluate("[[print('hi')]]") == [[None]]  # print only writes to the original's console
    lambda_ = paper_eval.evaluate("[[lambda: 0]]")[0][0]
    assert str(lambda_).startswith("<function <lambda> at 0x")
    target = tmp_path / "written"
    for code, why in ((f"[[open({str(target)!r}, 'w')]]", "open"), ("[[__import__('os').system('true')]]", "__import__"),
                      ("[[json.loads('1')]]", "attribute"), ("[[is_valid_json('1')]]", "is_valid_json"),
                      ("[['a' * 10**9]]", "repetition"), ("[[9**9**9]]", "power"), ("[[__file__]]", "__file__")):
        with pytest.raises(paper_eval.Undetermined, match=why):
            paper_eval.evaluate(code)
    assert not target.exists()


def test_eval_raises_where_the_original_does_in_its_two_scopes():
    """is_valid_eval's one local is `expression`; the judge's eval has none of it; nested scopes see
    neither, only the module's globals and the builtins."""
    for code, error in (("[[foo()]]", NameError), ("[[1/0]]", ZeroDivisionError), ("[[1,2][0]]", None),
                        ("[[x y]]", SyntaxError), ("[[" + "(" * 250 + "1" + ")" * 250 + "]]", SyntaxError),
                        ("[[(lambda: expression)()]]", NameError), ("[[(a := 1), [a for _ in 'x']]]", NameError),
                        ("[[len for _ in 'x' if len for len in 'y']]", NameError), ("[[json()]]", TypeError),
                        ("[[(lambda f: f(f))(lambda f: f(f))]]", RecursionError), ("[[1" + "0" * 5000 + "]]", SyntaxError)):
        if error is None:
            assert paper_eval.evaluate(code) == [1]
        else:
            with pytest.raises(error):
                paper_eval.evaluate(code, expression=code)
    assert paper_eval.evaluate("[[expression]]", expression="[[expression]]") == [["[[expression]]"]]
    with pytest.raises(NameError):
        paper_eval.evaluate("[[expression]]")
    assert paper_eval.evaluate("[[0 and expression, __name__, __doc__, 1 is 1]]") == [[0, "EvaluateFunc", None, True]]
    assert paper_eval.evaluate("[[" + "+".join(["1"] * 1500) + ", " + "-" * 1001 + "1]]") == [[1500, -1]]


def test_find_dup_scores_an_expression_as_its_value(rows):
    row = rows["find_dup", "v0"]
    as_value = paper.score(row, '[["Kx1", "First"], ["Kx2", None]]')
    assert paper.score(row, '[["Kx1" if 1 else 0, "First" + ""], ["Kx2", None]]') == as_value
    assert paper.score(row, '[[str("Kx1"), (lambda: "First")()], ["Kx2", None or None]]') == as_value
    unread = paper.score(row, '[[x y]]')  # a group eval cannot read is skipped, as one naming nothing
    assert paper.score(row, '[[foo()]]') == unread == paper.score(row, '[[lambda: )]]')
    assert paper.score(row, '[[1 == 1]]') == paper.score(row, '[[True]]')
    assert paper.score(row, "[['Kx' + '3']]") == paper.score(row, "[['Kx3']]") != unread  # a cell quoted
    assert "raises NameError" in paper.score(row, '[[expression]]')["error"]  # valid in is_valid_eval only
    assert "runs this reply as code" in paper.score(row, "[[open('x')]]")["error"]


def test_json_nested_past_the_originals_recursion_limit(rows):
    """The original's json.loads gives up 991 levels deep (990 through is_valid_json); where its
    bare `except:` catches that, the reply is still scored."""
    texts = ("[1, [2, [3]]]", '{"a": {"b": []}}', '["[[[["]', "[1,, [[[[", "[1] [[[[", "[[[[ x", "\ufeff[[[",
             "[01, [[[[", '{"a" [[[[', "")
    assert [paper.json_depth(t) for t in texts] == [3, 3, 1, 1, 1, 4, 0, 1, 1, 0]
    assert paper.json_depth("[" * 5000) == 5000
    paper.loads("[" * 990 + "]" * 990)
    with pytest.raises(RecursionError):
        paper.loads("[" * 991 + "]" * 991)
    row = rows["batch_label", "v0"]
    labels = json.dumps({"doc1": "complete", "doc2": "incomplete", "doc3": "miss_title"})
    deep = paper.score(row, "[" * 991 + " " + labels)  # unread as a whole, its object read
    assert deep == paper.score(row, "(" * 991 + " " + labels) and deep["ars"] > 0.3
    assert paper.score(row, "[" * 990 + "]" * 990)["points"]["num_doc"] > 0 == \
        paper.score(row, "[" * 991 + "]" * 991)["points"]["num_doc"]
    single = rows["single_id", "v0"]
    multi = {"prompt": single["prompt"], "param": {"elements": ENTRIES[:2]}, "label": 6}
    paper.judge("multi_id", multi["prompt"], multi["param"], multi["label"], "[" * 989 + "]" * 989)
    with pytest.raises(RecursionError):
        paper.judge("multi_id", multi["prompt"], multi["param"], multi["label"], "[" * 990 + "]" * 990)

    def down(frames):  # the same verdict however deep the caller's stack already is
        return paper.score(row, "[" * 990 + "]" * 990) if frames == 0 else down(frames - 1)
    assert down(800) == paper.score(row, "[" * 990 + "]" * 990)
    fd = rows["find_dup", "v0"]
    spaced = "[[" + "[" * 985 + " ]" * 985 + " ]]"  # one group, 987 deep: read, and printed
    assert paper.score(fd, spaced)["points"]["format"] == 5.0


# ---- evaluate with --rules paper; stability and capabilities as the paper computes them ----------------
def test_rules_paper_needs_converted_rows_and_is_recorded_in_the_report(rows, tmp_path):
    converted = list(rows.values())
    paper = EvalSettings(model="m", options={"rules": "paper"})
    check_options(converted, paper, tmp_path / "rows.jsonl")
    generated = {**converted[0]}
    generated.pop("paper")
    with pytest.raises(BenchmarkError, match=r"row 2 .*--rules paper"):
        check_options([converted[0], generated], paper, tmp_path / "rows.jsonl")
    check_options([generated], EvalSettings(model="m"), tmp_path / "rows.jsonl")
    settings = paper
    results = [{"task_id": r["task_id"], "response": "I am not sure."} for r in converted]
    summary = template.score(FAMILY, results, converted, settings, tmp_path / "report", "paper rules")
    assert summary["rules"] == "paper" and "Rules: paper" in (tmp_path / "report" / "report.md").read_text()
    assert summary["by_task"]["qa"]["points"] == {"correct": 0.0, "format": 0.25}  # the original's point names
    row = rows["repeat", "v0"]  # an exported row carries its rules; the exports' check reads them
    ars = [FAMILY.check(given, Reply.of(["hello"])).lines[0]["ars"] for given in ({**row, "rules": "paper"}, row)]
    assert ars[0] > 0 == ars[1]


def released(per_sample: list[tuple[str, str, int, float, dict[str, float]]]) -> pd.DataFrame:
    """A frame as the benchmark builds it from the original's per-sample scores (paper points)."""
    return pd.DataFrame([{"task": task, "expression_id": expression, "variables_id": "v0", "length_tokens": length,
                          "ars": ars, "request_failed": False, "rules": "paper", "points": json.dumps(points)}
                         for task, expression, length, ars, points in per_sample])


def test_ifs_uses_the_sample_std_and_the_capability_map_counts_each_task_once():
    frame = released([("qa", "e0", 3, 1.0, {"correct": 3, "format": 2}),
                      ("qa", "e1", 3, 0.0, {"correct": 0, "format": 0}),
                      ("single_id", "e0", 3, 0.5, {"format": 1, "correct": 0, "ori": 1}),
                      ("single_id", "e0", 6, 0.5, {"format": 1, "correct": 0, "ori": 1}),
                      ("single_id", "e1", 3, 1.0, {"format": 1, "correct": 2, "ori": 1}),
                      ("single_id", "e1", 6, 1.0, {"format": 1, "correct": 2, "ori": 1})])
    qa, single = np.std([1.0, 0.0], ddof=1) / 0.5, np.std([0.5, 1.0], ddof=1) / 0.75
    assert stability(frame, "expression_id")["ifs"] == pytest.approx((qa + single) / 2, abs=1e-6)
    caps = capability_map(frame)
    # format: qa's mean 1 of 2 and single_id's 1 of 1, each task once: 2 / 3 (per sample it would be 6 / 8)
    assert caps["format"] == pytest.approx(2 / 3, abs=1e-6)
    # logic is qa's correct only: mean 1.5 of 3; recognition single_id's correct: mean 1 of 2
    assert caps["logic"] == 0.5 and caps["recognition"] == 0.5
    # as the released capability table has it: find_dup's correct counts for recognition, not logic
    dup = released([("find_dup", "e0", 3, 0.45, {"correct": 4, "num_text": 0, "ori": 0, "format": 5})])
    assert capability_map(dup)["logic"] == 0.0 and capability_map(dup)["recognition"] == 1.0
