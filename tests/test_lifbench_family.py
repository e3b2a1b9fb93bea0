"""LIFBench without Prefect: inputs built to their budgets, the same for the same seed, gold that
earns full points, and every rubric point of every task taking points for what it checks."""

import json
import re

import numpy as np
import pytest

from ifforge.eval.evaluation import EvalSettings
from ifforge.eval.template import verdict_frame
from ifforge.families import get_family
from ifforge.families.base import Reply
from ifforge.families.lifbench import rubric, scenarios, tokens
from ifforge.families.lifbench.family import render_rows
from ifforge.families.lifbench.scenarios import TAGS, ContextSpec
from ifforge.families.lifbench.scoring import stability, weighted_ars
from ifforge.families.lifbench.settings import LifbenchSettings
from ifforge.transforms import expressions

FAMILY = get_family("lifbench")


def build(scenario: str, length: int = 1536, seed: int = 0):
    return scenarios.build(ContextSpec(task_id=f"{scenario}-L{length}-s0", scenario=scenario, length=length,
                                       sample=0, seed=seed))


@pytest.fixture(scope="module")
def rows() -> dict[str, dict]:
    """One row per task (first variable set, the original template)."""
    settings = LifbenchSettings(family="lifbench", lengths=[1536], expressions=0, variable_sets=1)
    out = {}
    for scenario in scenarios.SCENARIOS:
        for row in render_rows(build(scenario), settings, {}):
            out[row["task"]] = row
    return out


def verdict(row: dict, replies: list) -> dict:
    """The row's verdict on the replies, as one dict (its points decoded)."""
    found = FAMILY.check(row, Reply.of(replies)).as_dict()
    return {**found, "points": json.loads(found["points"])}


def points(row: dict, reply: str) -> dict[str, float]:
    return {k: round(v, 4) for k, v in verdict(row, [reply])["points"].items()}


def test_tokens_are_counted_offline_with_cl100k(monkeypatch, tmp_path):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    assert tokens.encoding().encode_ordinary("Hello world, this is a test.") == [9906, 1917, 11, 420, 374, 264, 1296, 13]


def test_inputs_fit_their_budget_are_seeded_and_hold_what_the_scenario_needs():
    for scenario in scenarios.SCENARIOS:
        context = build(scenario, 3072)
        assert 0.85 * scenarios.budget(3072) <= context.tokens <= scenarios.budget(3072)
        assert context == build(scenario, 3072) and context.text != build(scenario, 3072, seed=1).text
    entries = build("list", 3072).facts["entries"]
    uuids = [e for e in entries if re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}", e)]
    assert 0.3 < len(uuids) / len(entries) < 0.7 and len(set(entries)) == len(entries)
    docs = build("multidoc", 8192).facts
    copies = sum(len(group) - 1 for group in docs["groups"])
    assert 0.15 < copies / len(docs["docs"]) < 0.4  # about a quarter repeat another's text
    assert any("title" not in d for d in docs["docs"]) and any("source" not in d for d in docs["docs"])
    onedoc = build("onedoc", 3072)
    keys = onedoc.facts["keys"]
    assert len({k["tag"] for k in keys if k["true"]}) == 5 and sum(not k["true"] for k in keys) == 3
    for key in keys:
        wrapped = re.search(rf"(.){re.escape(key['text'])}(.)", onedoc.text)
        assert (wrapped[1] == wrapped[2] == TAGS[key["tag"]]) if key["true"] else (
            wrapped[1] == TAGS[key["tag"]] != wrapped[2])


def test_the_same_seed_gives_the_same_rows_byte_for_byte_and_another_seed_others():
    def text(seed: int) -> str:
        settings = LifbenchSettings(family="lifbench", lengths=[1024], expressions=0, variable_sets=3, seed=seed)
        rows = [row for scenario in scenarios.SCENARIOS for row in render_rows(build(scenario, 1024, seed), settings, {})]
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)

    first = text(5)
    assert first == text(5) and first != text(6)
    rows = [json.loads(line) for line in first.splitlines()]
    for task in rubric.RUBRICS:  # the variable sets of one input differ
        drawn = [json.dumps(r["variables"]) for r in rows if r["task"] == task]
        assert len(drawn) == 3 and len(set(drawn)) == 3, task
    for row in rows:  # at the shortest length allowed, every sample can still be answered in full
        assert FAMILY.check(row, Reply.of([perfect(row)])).correct, row["task_id"]
    with pytest.raises(ValueError, match="greater than or equal to 1024"):
        LifbenchSettings(family="lifbench", lengths=[512])


def test_rows_carry_the_grid_and_fit_their_length(rows):
    for row in rows.values():
        assert {"family", "task_id", "scenario", "task", "length_tokens", "expression_id", "prompt", "gold",
                "rubric"} <= set(row)
        assert row["prompt_tokens"] == tokens.count(row["prompt"]) > row["input_tokens"]  # the input's length alone
        assert 0.85 * row["length_tokens"] <= row["input_tokens"] == tokens.count(row["prompt"].split(
            "\n\nInstruction:")[0].split(":\n", 1)[1]) <= row["length_tokens"]
        assert sum(p["weight"] for p in row["rubric"]) == row["rubric_total"]
        assert "{{" not in row["prompt"]
    assert rows["single_id"]["rubric"][:2] == [
        {"id": "format", "weight": 1, "capabilities": ["format"], "description": rubric.OneEntryOnly.description},
        {"id": "correct", "weight": 2, "capabilities": ["recognition"], "description": rubric.GoldEntry.description}]


def perfect(row: dict) -> str:
    gold, task = row["gold"], row["task"]
    if task in ("single_id", "offset_id", "offset_element", "qa"):
        return gold
    if task in ("blur_id", "blur_element"):
        entries = rubric.list_entries(row["prompt"])
        return entries[gold["position"] if gold["side"] == "after" else gold["position"] - 2]  # the next or previous
    if task == "find_dup":
        return "\n".join(json.dumps(group) for group in gold)
    if task == "repeat":
        real = [k for k in row["facts"]["keys"] if k["true"]][:gold["num"]]
        return "\n".join(f"{k['text']} {gold['sep']} {k['tag']}" for k in real)
    return json.dumps(gold)


def test_the_gold_answer_earns_every_point_of_every_task(rows):
    assert set(rows) == set(rubric.RUBRICS)
    for row in rows.values():
        found = verdict(row, ["```\n" + perfect(row) + "\n```"])
        assert found["correct"] and found["ars"] == 1.0, (row["task"], found)
        assert verdict(row, [])["ars"] == 0.0


def test_list_points(rows):
    row = rows["single_id"]
    gold, entries = row["gold"], rubric.list_entries(row["prompt"])
    other = next(e for e in entries if e != gold)
    assert points(row, f"The entry is: {gold}") == {"format": 0.5, "correct": 2, "original": 1}
    assert points(row, other) == {"format": 1, "correct": 0, "original": 1}
    assert points(row, gold[:-2] + "Zq") == {"format": 0, "correct": 1, "original": 0}  # a near miss: half
    offset = rows["offset_id"]
    asked = rubric.list_entries(offset["prompt"])[offset["variables"]["id"] - 1]
    assert points(offset, asked) == {"format": 1, "correct": 0, "original": 1}  # the named entry, not its neighbour

    multi = rows["multi_id"]
    gold, m = multi["gold"], len(multi["gold"])
    assert points(multi, json.dumps(gold[::-1])) == {"format": 2, "count": 3, "correct": 3, "order": 0}
    assert points(multi, "Here: " + json.dumps(gold[:-1])) == {
        "format": 1.5, "count": round(2 * (1 - 1 / m), 4), "correct": round(3 * (m - 1) / m, 4), "order": 2}
    assert points(multi, "\n".join(gold)) == {"format": 0, "count": 3, "correct": 3, "order": 2}
    assert points(multi, json.dumps([1, 2])) == {"format": 1.5, "count": round(2 * (1 - abs(2 - m) / m), 4),
                                                 "correct": 0, "order": 0}

    blur = rows["blur_id"]
    position, after = blur["gold"]["position"], blur["gold"]["side"] == "after"
    entries = rubric.list_entries(blur["prompt"])
    right, wrong = (entries[position], entries[position - 2]) if after else (entries[position - 2], entries[position])
    assert points(blur, entries[position - 1]) == {"original": 1, "position": 1, "format": 1}  # the named one: a third
    assert points(blur, wrong) == {"original": 1, "position": 0, "format": 1}
    assert points(blur, f"Say: {right}") == {"original": 1, "position": 3, "format": 0.5}
    assert points(blur, f"{right}\n{wrong}") == {"original": 1, "position": 0, "format": 0}


def test_multidoc_points(rows):
    row = rows["batch_label"]
    gold, labels = row["gold"], row["facts"]["labels"]
    n = len(gold)
    both = sum(v == labels[0] for v in gold.values())
    assert 0 < both < n
    # one label on every document: well formed, but its format, count and offered-label points are
    # earned only as far as its labels are right (in full they made a constant label's ARS 0.85)
    right = both / n
    assert points(row, json.dumps({k: labels[0] for k in gold})) == {
        "original": round(3 * right, 4), "correct": round(3 * right, 4), "count": round(3 * right, 4),
        "format": round(5 * right, 4)}
    assert rubric.score(row, json.dumps({k: labels[0] for k in gold}))["ars"] == pytest.approx(right, abs=1e-6)
    assert points(row, json.dumps({k: "purple" for k in gold})) == {"original": 0, "correct": 0, "count": 0,
                                                                   "format": 0}
    assert points(row, json.dumps(gold)) == {"original": 3, "correct": 3, "count": 3, "format": 5}
    half = dict(list(gold.items())[: n // 2])
    assert points(row, "Labels: " + json.dumps(half)) == {
        "original": round(3 * len(half) / n, 4), "correct": round(3 * len(half) / n, 4),
        "count": round(3 * 5 / 6 * len(half) / n * len(half) / n, 4),
        "format": round((2 + 2 * len(half) / n) * len(half) / n, 4)}
    assert points(row, "no idea") == {"original": 0, "correct": 0, "count": 0, "format": 0}

    dup = rows["find_dup"]
    groups = dup["gold"]
    assert len(groups) >= 2
    sizes, named = [len(g) for g in groups], sum(len(g) for g in groups)
    pairs = named * (named - 1) / 2
    first_only = points(dup, json.dumps(groups[0]))
    assert first_only == {"correct": round(4 * (0.5 * sizes[0] / named + 0.5 * sizes[0] * (sizes[0] - 1) / 2 / pairs), 4),
                          "count": round(5 * 4 / 5 * (1 - (len(groups) - 1) / (len(groups) + 2)), 4),
                          "original": 6, "format": 5}
    merged = points(dup, json.dumps([doc for g in groups for doc in g]))  # everything in one group
    assert merged["correct"] == round(4 * (0.5 + 0.5 * sum(s * (s - 1) / 2 for s in sizes) / pairs), 4)
    made_up = [[["zzz-not-there"] + doc[1:] for doc in g] for g in groups]
    values = sum(len([v for v in doc if v is not None]) for g in groups for doc in g)
    assert points(dup, "\n".join(json.dumps(g) for g in made_up))["original"] == round(
        6 * (values - named) / values, 4)
    assert points(dup, "The duplicates are " + json.dumps(groups[0]))["format"] == round(5 * 0.0, 4)
    assert points(dup, "\n".join(json.dumps(g) for g in groups) + "\nthat is all")["format"] == round(
        5 * (0.6 * len(groups) / (len(groups) + 1) + 0.2), 4)


def test_onedoc_points(rows):
    row = rows["repeat"]
    num, sep = row["gold"]["num"], row["gold"]["sep"]
    keys = row["facts"]["keys"]
    real, fakes = [k for k in keys if k["true"]], [k for k in keys if not k["true"]]
    lines = [f"{k['text']} {sep} {k['tag']}" for k in real[:num]]
    wrong_tag = [f"{k['text']} {sep} {next(t for t in TAGS if t != k['tag'])}" for k in real[:num]]
    assert points(row, "\n".join(wrong_tag)) == {"format": 3, "original": 2, "hit": 2, "num": 4, "correct": 0}
    with_fake = lines[:-1] + [f"{fakes[0]['text']} {sep} {fakes[0]['tag']}"]
    assert points(row, "\n".join(with_fake)) == {"format": 3, "original": 2, "hit": round(2 * (num - 1.5) / num, 4)
                                                 if num > 1 else 0, "num": 4, "correct": round(3 * (num - 1) / num, 4)}
    bare = "\n".join(k["text"] for k in real[:num])  # no separator, no tag type
    assert points(row, bare) == {"format": round(3 * (num == 1 or num > 1) / 6, 4), "original": 1, "hit": 2,
                                 "num": round(4 * (2 + (num == 0)) / 4, 4) if num else 0, "correct": 0}

    extract = dict(rows["extract"])
    fake = fakes[0]
    extract["facts"] = {**extract["facts"], "tag": fake["tag"]}
    extract["gold"] = [k["text"] for k in keys if k["true"] and k["tag"] == fake["tag"]]
    gold = extract["gold"]
    assert points(extract, json.dumps(gold + [fake["text"]])) == {
        "format": 4, "correct": round(4 * 7 / 8 * len(gold) / (len(gold) + 1), 4),
        "order": 4 * (keys.index(fake) > max(keys.index(k) for k in keys if k["text"] in gold)), "original": 2}
    two = [keys[-1]["text"], keys[0]["text"]]  # in the wrong order, and not of the tag
    assert points(extract, json.dumps(two)) == {"format": 4, "correct": 0, "order": 0, "original": 2}
    assert points(extract, "Sentences: " + json.dumps(gold)) == {"format": 3, "correct": 4, "order": 4, "original": 2}
    assert points(extract, json.dumps([1])) == {"format": 3, "correct": 0, "order": 0, "original": 0}

    qa = rows["qa"]
    yes, no = qa["facts"]["options"]
    wrong = no if qa["gold"] == yes else yes
    assert points(qa, wrong) == {"correct": 0, "format": 2}
    assert points(qa, f"{yes} or {no}") == {"correct": 0.5, "format": 0}
    assert points(qa, f"I think the answer is {qa['gold'].lower()}.") == {"correct": 3, "format": 1}


def test_ars_is_weighted_by_task_totals_and_ifs_measures_each_perspective(rows):
    assert weighted_ars([("single_id", 1.0), ("single_id", 0.0), ("find_dup", 1.0)]) == pytest.approx(
        (4 * 0.5 + 20 * 1.0) / 24)
    grid = []
    for length in (1000, 2000):
        for expression in ("e0", "e1"):
            for variables in ("v0", "v1"):
                grid.append({**rows["qa"], "length_tokens": length, "expression_id": expression,
                             "variables_id": variables, "task_id": f"qa-{length}-{expression}-{variables}"})
    # right under e0 always; under e1 only at length 1000: expressions and lengths differ, variables do not
    replies = [{"response": r["gold"] if r["expression_id"] == "e0" or r["length_tokens"] == 1000 else "?"}
               for r in grid]
    settings = EvalSettings(model="")
    frame = verdict_frame(FAMILY, replies, grid, settings)
    assert stability(frame, "variables_id")["ifs"] == 0.0
    # LIFBench's Eq. 6: the sample standard deviation (ddof=1), not the population's
    assert stability(frame, "expression_id")["ifs"] == pytest.approx(np.std([1, 0.5], ddof=1) / 0.75, abs=1e-4)
    assert stability(frame, "length_tokens")["ifs"] == pytest.approx(np.std([1, 0.5], ddof=1) / 0.75, abs=1e-4)
    summary = FAMILY.report.summarise(frame)
    assert summary["overall"]["ars"] == 0.75 and summary["overall"]["full_points"] == 6
    assert summary["capabilities"]["logic"] == 0.75 and summary["capabilities"]["spatial"] is None
    failed = FAMILY.report.summarise(verdict_frame(FAMILY, [{"request_failed": True}] + replies[1:], grid, settings))
    assert failed["overall"]["request_failures"] == 1 and failed["overall"]["samples"] == 7


class StandIn:
    """Embeds by a fixed random projection of letter counts: for clustering tests, no model."""

    name = "stand-in"

    def embed(self, texts):
        projection = np.random.default_rng(0).normal(size=(26, 8))
        counts = np.array([[t.lower().count(c) for c in "abcdefghijklmnopqrstuvwxyz"] for t in texts], float)
        vectors = counts @ projection
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_every_template_has_a_bank_whose_rewrites_keep_its_variables_and_extend_picks_k():
    from ifforge.core.prompts import load_prompt
    from ifforge.families.lifbench.tasks import TASKS

    for task in TASKS.values():
        template = load_prompt(task.template)
        texts, origin, source = expressions.gather(template, 3)
        assert source == "the bank" and len(texts) >= 3
        assert all(expressions.placeholder_problem(t, template.slots) is None for t in texts), task.id
        if task.id not in ("single_id", "repeat"):
            continue  # k-means on two templates is enough; every bank is checked above
        chosen, vectors = expressions.extend(template, 2, texts, origin, StandIn())
        assert len(chosen.chosen) == 2 and len(set(chosen.texts().values())) == 2 and vectors.shape == (len(texts), 8)


def test_a_reply_that_does_not_try_the_task_earns_nothing_but_its_format_at_most(rows):
    for row in rows.values():
        for reply in ("?", "I am not sure."):
            assert verdict(row, [reply])["ars"] == 0.0, (row["task"], reply)
        for reply in ("[]", "{}"):  # an empty list or object: the format, and nothing else
            earned = verdict(row, [reply])["points"]
            assert all(v == 0 for k, v in earned.items() if k != "format"), (row["task"], reply, earned)


def test_a_prompts_tokens_are_its_heads_plus_its_instructions_whatever_the_instruction_starts_with():
    from ifforge.families.lifbench import tasks

    for scenario in scenarios.SCENARIOS:
        head = tasks.head(build(scenario, 1024))
        for instruction in ('"Quoted" first.', "42 entries.", "...and so on", "\n\nafter blank lines", "Ünïcode ✓",
                            "] } ) closing", " spaced", "-> arrows"):
            tail = tasks.tail(instruction)
            assert tokens.count(head) + tokens.count(tail) == tokens.count(head + tail), (scenario, instruction)


def test_the_review_page_shows_a_row_without_its_whole_input(rows):
    view = FAMILY.review_view(rows["find_dup"])
    assert view["title"] == rows["find_dup"]["task_id"] and view["instruction"] == rows["find_dup"]["instruction"]
    assert len(view["details"]["input (start)"]) <= 1500 and "correct 4" in view["details"]["rubric"]


def test_a_task_outside_the_chosen_scenarios_is_refused_not_an_empty_benchmark():
    from ifforge.core.settings import SettingsError
    from ifforge.families import load_family_settings

    with pytest.raises(SettingsError, match="task 'repeat' belongs to scenario 'onedoc'"):
        load_family_settings({"family": "lifbench", "scenarios": ["list"], "tasks": ["repeat"]})
