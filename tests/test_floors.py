"""Floors: every trivial baseline scored by the family's own checker, every row one passes counted,
and the card that shows them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ifforge import card
from ifforge.eval.floors import floors
from ifforge.families import FAMILIES, get_family
from ifforge.families.ifeval_fc import rules
from ifforge.families.lifbench import tasks
from test_ifeval_fc_family import rows_for

PACIFIC = get_family("pacific")


def logicif_row(task_id: str, case: int, output, stats: dict) -> dict:
    return {"family": "logicif", "task_id": task_id, "test_case_id": case, "input": [case], "instruction": "run f",
            "code_output": {"output": output, "stats": stats}, "stats_keys": sorted(stats), "difficulty": "easy"}


def pacific_row(task_id: str, initial, gold: list, mode: str = "prompt") -> dict:
    row = {"family": "pacific", "task_id": task_id, "mode": mode, "form": "code", "chain_length": len(gold),
           "output_length": 3, "initial_input": initial, "gold": gold}
    return row | ({"messages": [{"role": "user", "content": f"step {i}"} for i in range(len(gold))]}
                  if mode == "chat" else {"prompt": "the chain"})


def test_every_family_declares_baselines_beyond_the_empty_reply():
    for family in map(get_family, FAMILIES):
        kinds = list(family.baselines)
        assert "empty" in kinds and len(kinds) >= 3, (family.id, kinds)
        assert family.measures and family.follows, family.id


def test_a_row_an_identity_chain_passes_is_counted_and_named():
    rows = [pacific_row("same", 7, [7, 7, 7]), pacific_row("chat-same", "ab", ["ab", "ab"], "chat"),
            pacific_row("moves", 7, [8, 8, 7])]
    found = floors(PACIFIC, rows)
    identity, initial = found["baselines"]["identity"], found["baselines"]["initial"]
    assert identity["rows_passed"] == initial["rows_passed"] == 2
    # "moves": its second step leaves 8 unchanged (identity right), its third gives back the start (initial right)
    assert identity["scores"] == {"prompt_accuracy": round(2 / 3, 4), "instruction_accuracy": round(6 / 8, 4)}
    assert initial["scores"]["instruction_accuracy"] == round(6 / 8, 4)
    assert found["trivially_passed"]["rows"] == 2
    # "ab" is the only string gold, so the most frequent one too; 7 is the most frequent whole number
    assert found["trivially_passed"]["by_row"] == {
        "chat-same": ["identity", "initial", "most_frequent_gold"], "same": ["identity", "initial", "most_frequent_gold"]}
    assert found["baselines"]["empty"]["rows_passed"] == 0
    assert found["trivially_passed"]["by_group"]["mode"] == {"chat": 1, "prompt": 1}
    assert found["trivially_passed"]["by_group"]["chain_length"] == {"2": 1, "3": 1}


def test_ifeval_fc_echo_floor_is_the_rows_whose_rule_the_query_follows():
    rows = rows_for()
    query = {row["task_id"]: next(m["content"] for m in row["messages"] if m["role"] == "user") for row in rows}
    follows = {row["task_id"] for row in rows if rules.get(row["rule_id"], **row["rule_args"]).check(query[row["task_id"]])}
    broken = dict(rows[0], rule_id="word_count", rule_args={"relation": "at most", "n": 10_000})  # a rule any query follows
    found = floors(get_family("ifeval-fc"), rows + [broken])
    echo = found["baselines"]["echo_query"]
    assert echo["rows_passed"] == len(follows) + 1
    assert broken["task_id"] in found["trivially_passed"]["by_row"]
    assert found["baselines"]["no_call" if "no_call" in found["baselines"] else "empty"]["rows_passed"] == 0


def test_the_card_carries_the_floors_and_ifforge_card_prints_it(tmp_path):
    rows = [pacific_row("same", 7, [7, 7]), pacific_row("moves", 7, [8, 9])]
    found = floors(PACIFIC, rows)
    manifest = {"family": "pacific", "benchmark": "pacific", "version": "v001", "fingerprint": "f" * 8,
                "parameters": {"seed": 3, "chain_lengths": [2], "out": None}, "inputs": {"seed": 3},
                "stages_used": {"gold": {"name": "gold", "llm": None}}, "stages": {"gold": {"in": 2, "out": 2}}}
    text = card.render(manifest, rows, found)
    assert "| `identity` |" in text and "1 of 2" in text and "seed `3`" in text
    assert "| gold | deterministic (code) | 2 | 2 |" in text and PACIFIC.follows in text
    assert "chain_lengths = [2]" in text and "out =" not in text
    assert "## Differences from the original" in text and "Default chain lengths" in text  # from the docs page
    version = tmp_path / "pacific" / "v001"
    version.mkdir(parents=True)
    (version / "manifest.json").write_text(json.dumps(manifest))
    (version / "benchmark.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    shown = subprocess.run([sys.executable, "-m", "ifforge.cli", "card", str(version)], capture_output=True, text=True)
    assert shown.returncode == 0 and "| `identity` |" in shown.stdout  # rendered for a version without card.md
    (version / "card.md").write_text("# kept\n")
    assert card.read_card(version) == "# kept\n"


# ---- the floors of generated benchmarks, against the originals' (measured by benchmarks/floors.py
# on their released rows: IFEval-FC's 750 cases, LIFBench's 810 rows; see docs/scoring.md) ----------

def test_ifeval_fc_no_query_passes_its_own_rule_and_a_constant_passes_fewer_rows_than_in_the_paper():
    found = floors(get_family("ifeval-fc"), rows_for())
    assert found["baselines"]["echo_query"]["rows_passed"] == 0  # the queries are redrawn until they fail their rule
    assert found["baselines"]["constant"]["scores"]["accuracy"] <= 0.233  # the paper's data: 23.3%
    assert found["trivially_passed"]["share"] <= 0.295  # the paper's data: 29.5%


def test_pacific_identity_floor_is_the_share_of_steps_that_leave_their_input_unchanged():
    from ifforge.families.pacific import chains, instructions
    from ifforge.families.pacific.settings import PacificSettings

    settings = PacificSettings(family="pacific")
    built = chains.build_all(settings.seed, settings.chain_lengths, settings.output_lengths, settings.samples,
                             sorted(instructions.REGISTRY))
    rows = [pacific_row(f"c{n}", chain.initial_input, chain.planned) for n, chain in enumerate(built)]
    unchanged = sum(value == previous for chain in built
                    for previous, value in zip([chain.initial_input, *chain.planned], chain.planned))
    steps = sum(len(chain.planned) for chain in built)
    identity = floors(PACIFIC, rows)["baselines"]["identity"]
    assert identity["scores"]["instruction_accuracy"] == round(unchanged / steps, 4)
    assert identity["rows_passed"] == sum(all(v == chain.initial_input for v in chain.planned) for chain in built)
    assert unchanged == 0 and identity["scores"]["instruction_accuracy"] == 0  # identity steps are redrawn


def lifbench_rows(scenario: str, task: str, seeds: int, variable_sets: int) -> list[dict]:
    """Generated rows of one task, over `seeds` short inputs (family functions, no flow)."""
    from ifforge.families.lifbench import scenarios
    from ifforge.families.lifbench.family import render_rows
    from ifforge.families.lifbench.scenarios import ContextSpec
    from ifforge.families.lifbench.settings import LifbenchSettings

    settings = LifbenchSettings(family="lifbench", lengths=[1536], scenarios=[scenario], tasks=[task],
                                expressions=0, variable_sets=variable_sets)
    return [row for seed in range(seeds) for row in render_rows(scenarios.build(ContextSpec(
        task_id=f"{scenario}-s{seed}", scenario=scenario, length=1536, sample=0, seed=seed)), settings, {})]


def test_lifbench_labelling_every_document_alike_earns_no_more_than_on_the_originals_rows():
    from ifforge.families.lifbench import rubric

    rows = lifbench_rows("multidoc", "batch_label", 8, 2)
    found = floors(get_family("lifbench"), rows)
    assert len(rows) >= 6
    assert found["baselines"]["most_frequent_gold"]["scores"]["ars"] <= 0.695  # LIFBench's own rows: 0.695
    assert found["baselines"]["echo_instruction"]["scores"]["ars"] <= 0.384  # LIFBench's own rows: 0.384
    best = []
    for row in rows:  # any offered label on every document: well formed, right only where the rule says so
        scores = []
        for label in row["facts"]["labels"]:
            right = sum(value == label for value in row["gold"].values()) / len(row["gold"])
            verdict = rubric.score(row, json.dumps({key: label for key in row["gold"]}))
            assert verdict["ars"] == pytest.approx(right, abs=1e-6)  # format, count, offered: as far as right
            scores.append(verdict["ars"])
        best.append(max(scores))
        assert rubric.score(row, json.dumps(row["gold"]))["ars"] == 1.0
    assert sum(best) / len(best) <= 0.695  # the best constant label, row by row (in full points it was 0.85)


def test_lifbench_qa_gold_word_is_as_often_a_yes_as_a_no():
    rows = lifbench_rows("onedoc", "qa", 12, 6)
    words = [row for row in rows if not row["facts"]["options"][0].isdigit()]
    assert len(words) >= 50
    # each pair in its listed order stands for (key sentence, not): the second word is gold for every
    # fake and plain sentence, two rows in three, unless the pair is reversed every other set
    listed = {word: i for pair in tasks.OPTIONS if pair != "digits" for i, word in enumerate(pair)}
    second = sum(listed[row["gold"]] == 1 for row in words) / len(words)
    assert 0.4 <= second <= 0.6, second
    assert {tuple(row["facts"]["options"]) for row in words} & {pair[::-1] for pair in tasks.OPTIONS if pair != "digits"}
    found = floors(get_family("lifbench"), rows)
    assert found["baselines"]["most_frequent_gold"]["scores"]["ars"] <= 0.283  # LIFBench's own rows: 0.283


def test_mcbench_unspaced_pairs_give_word_metrics_something_to_compute():
    """Word metrics on pairs as the family chooses them (spares in place of pairs whose value a
    constant gives). Before, on a script written without spaces A and B shared no whitespace-split
    "word", so every word metric gave 0 and `[Final] : 0` passed 9 rows in 10 of the category."""
    from ifforge.families.mcbench import metrics, pairs
    from ifforge.families.mcbench.family import chosen_cases
    from ifforge.families.mcbench.records import GoldCase, GoldMetric

    drawn = pairs.make_pairs(0, list(pairs.CATEGORIES), 15)
    rows, unspaced_alone = [], []
    for metric_id, metric in metrics.METRICS.items():
        if metric.unit != "words":
            continue
        # the reference in process: the same values as the sandbox gives (test_mcbench_family)
        cases = [GoldCase(pair=pair, steps=metric.run_in_process(pair.hypothesis, pair.reference)) for pair in drawn]
        unspaced_alone += [case.steps[-1] for case in cases if case.pair.category == "non_latin"][:10]
        for case in chosen_cases(GoldMetric(task_id=metric_id, code="", cases=cases), 10)[0]:
            rows.append({"family": "mcbench", "task_id": f"{metric_id}-{case.pair.pair_id}", "metric": metric_id,
                         "category": case.pair.category, "gold_steps": case.steps, "gold_final": case.steps[-1],
                         "steps": len(case.steps), "unordered_steps": []})
    assert sum(value == 0 for value in unspaced_alone) <= 0.2 * len(unspaced_alone)  # before any choice
    found = floors(get_family("mcbench"), rows)
    passed = found["trivially_passed"]
    unspaced = sum(row["category"] == "non_latin" for row in rows)
    assert len(rows) == 19 * 40 and passed["by_group"]["category"].get("non_latin", 0) <= 0.25 * unspaced
    assert found["baselines"]["constant_0"]["scores"]["final_accuracy"] <= 0.03
    assert found["baselines"]["constant_1"]["scores"]["final_accuracy"] <= 0.03
    assert passed["share"] <= 0.18, passed["share"]


def test_the_datasets_export_carries_the_versions_card(tmp_path):
    from ifforge.exports import export
    from ifforge.exports.benchmark import read_benchmark

    rows = [pacific_row("same", 7, [7, 7]), pacific_row("moves", 7, [8, 9])]
    version = tmp_path / "pacific" / "v001"
    version.mkdir(parents=True)
    manifest = {"family": "pacific", "benchmark": "pacific", "version": "v001", "fingerprint": "f" * 8,
                "parameters": {"seed": 3}, "inputs": {}, "stages_used": {}, "stages": {}}
    (version / "manifest.json").write_text(json.dumps(manifest))
    (version / "benchmark.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    (version / "card.md").write_text(card.render(manifest, rows, floors(PACIFIC, rows)))
    written = export(read_benchmark(version), "hf", tmp_path / "hf")
    readme = (Path(written["folder"]) / "README.md").read_text()
    assert readme.startswith("---\n") and "## The rows' card" in readme and card.check_card(readme) == []
    assert "| `identity` |" in readme and "1 of 2" in readme


def test_the_cards_settings_load_back_as_the_same_settings(tmp_path, monkeypatch):
    monkeypatch.delenv("IFFORGE_ALLOW_UNWALLED_SEEDS", raising=False)  # the card's file alone decides
    from ifforge.families import load_family_settings
    from ifforge.families.pacific.settings import PacificSettings

    parameters = PacificSettings(family="pacific", seed=5, chain_lengths=[3, 8]).model_dump(mode="json")
    manifest = {"family": "pacific", "benchmark": "pacific", "version": "v002", "fingerprint": "f", "parameters": parameters}
    text = card.render(manifest, [pacific_row("same", 7, [7, 7])], None)
    toml = text.split("```toml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "ifforge.toml").write_text(toml)
    assert load_family_settings({}, tmp_path / "ifforge.toml").model_dump(mode="json") == parameters


def test_the_written_rows_are_read_a_line_at_a_time_and_a_line_ends_at_a_newline_only(tmp_path):
    """The manifest's floors read back benchmark.jsonl: a row's text may hold U+2028 or U+0085 raw
    (JSON written without ASCII escapes), which `str.splitlines` would have cut a row at."""
    from ifforge.generation.artifacts import WrittenRows

    rows = [{"task_id": "t1", "prompt": "a\u2028b\x85c", "function": "def f(): ..."},
            {"task_id": "t1", "prompt": "d", "function": "def f(): ..."}, {"task_id": "t2", "prompt": "d", "function": "g"}]
    (tmp_path / "benchmark.jsonl").write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows),
                                              encoding="utf-8")
    read = WrittenRows(tmp_path / "benchmark.jsonl")
    assert list(read) == rows and list(read) == rows  # read again, from the file, at each pass
    assert list(WrittenRows(tmp_path / "none.jsonl")) == []


def test_floors_and_the_card_read_the_rows_in_three_passes_whatever_the_trackers(tmp_path):
    """A 10,000-seed benchmark's rows are not held in memory: the floors and the card read them
    from the file, once per baseline that learns from them and once to score, not once per tracker."""
    from ifforge.generation.artifacts import WrittenRows

    rows = [logicif_row(f"t{n // 3}", n % 3, {"out": n % 2}, {f"key_{n % 7}": n % 4, "steps": 1}) for n in range(60)]
    (tmp_path / "benchmark.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")

    class Counted(WrittenRows):
        passes = 0

        def __iter__(self):
            Counted.passes += 1
            yield from super().__iter__()

    family = get_family("logicif")
    from_file = Counted(tmp_path / "benchmark.jsonl")
    found = floors(family, from_file)
    assert found == floors(family, rows)
    manifest = {"family": "logicif", "benchmark": "logicif", "version": "v001", "fingerprint": "f", "parameters": {}}
    assert card.render(manifest, from_file, found) == card.render(manifest, rows, found)
    assert Counted.passes == 3  # the most frequent gold's fit, the scoring, the card's counts
