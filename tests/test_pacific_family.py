"""PACIFIC without Prefect: seeded chains that type-check, gold from the sandbox, rendering, export rows."""

import json
import random
from collections import Counter

import pytest

from ifforge.families.pacific import chains, instructions
from ifforge.families.pacific.family import GoldConfig, compute_gold, render, rows_of
from ifforge.families.pacific.settings import PacificSettings

POOL = sorted(instructions.REGISTRY)
GOLD = GoldConfig(case_seconds=5, memory_mb=512)


def test_the_same_seed_gives_the_same_chains_and_a_new_seed_new_ones():
    first = chains.build_all(7, [3, 5], [3, 10], 3, POOL)
    again = chains.build_all(7, [3, 5], [3, 10], 3, POOL)
    other = chains.build_all(8, [3, 5], [3, 10], 3, POOL)
    assert [c.model_dump() for c in first] == [c.model_dump() for c in again]
    assert len(first) == 12 and len({c.task_id for c in first}) == 12
    changed = sum(a.model_dump() != b.model_dump() for a, b in zip(first, other))
    assert changed >= 10, changed
    # adding a setting leaves the chains of the others as they were
    more = chains.build_all(7, [3, 5, 8], [3, 10], 3, POOL)
    assert [c.model_dump() for c in more if c.chain_length != 8] == [c.model_dump() for c in first]


def test_chains_type_check_and_stay_near_the_target_length():
    for chain in chains.build_all(1, [8], [3, 10], 5, POOL):
        value = chain.initial_input
        for step, planned in zip(chain.steps, chain.planned):
            instruction = instructions.get(step.id, **step.args)
            expected = "str" if isinstance(value, str) else "int"
            assert instruction.input_type == expected, (chain.task_id, step.id)
            value = instructions.run_python(instruction, value)
            assert value == planned
        for before, after in zip(chain.steps, chain.steps[1:]):
            assert after.id != before.id and after.id not in instructions.REGISTRY[before.id].conflicts
    short = [chains.value_length(v) for c in chains.build_all(2, [5], [3], 6, POOL) for v in c.planned]
    long = [chains.value_length(v) for c in chains.build_all(2, [5], [10], 6, POOL) for v in c.planned]
    assert sum(short) / len(short) < sum(long) / len(long)


def test_a_paper_grid_benchmark_uses_the_pool_evenly_and_every_step_changes_the_value():
    settings = PacificSettings(family="pacific", grid="paper", samples=2)
    assert settings.chain_lengths == [3, 5, 8, 10, 15] and settings.output_lengths == [3, 5, 10]
    built = chains.build_all(0, settings.chain_lengths, settings.output_lengths, settings.samples, POOL)
    assert {c.chain_length for c in built} == {3, 5, 8, 10, 15} and len(built) == 5 * 3 * 2
    used = Counter(step.id for c in built for step in c.steps)
    steps = sum(used.values())
    assert len(used) >= 26, sorted(set(POOL) - set(used))  # of 32; before: 18, four of them most steps
    assert sum(n for _, n in used.most_common(4)) < 0.3 * steps, used.most_common(4)
    assert max(used.values()) < 3 * steps / len(POOL), used.most_common(3)
    for chain in built:
        previous = chain.initial_input
        for value in chain.planned:
            assert type(value) is not type(previous) or value != previous, chain.task_id
            previous = value
    assert sum(c.redraws for c in built) > 0  # identity steps were drawn, and rejected


def test_an_identity_step_is_redrawn_and_counted():
    rng = random.Random(0)
    same = [(0, f"same_{i}", None, "x", False) for i in range(4)]
    changes = (0, "changes", None, "y", True)
    pick, redraws = chains.draw(rng, same + [changes], target=3, used=[])
    assert pick is changes and 0 <= redraws <= 4
    counts = Counter(chains.draw(random.Random(seed), same + [changes], 3, [])[1] for seed in range(200))
    assert set(counts) == {0, 1, 2, 3, 4}  # the changing one is drawn at a uniform place: each rejection counted
    pick, redraws = chains.draw(rng, same, target=3, used=[])
    assert pick is None and redraws == 4  # nothing changes the value: the chain cannot be built
    far = (9, "far", None, "z", True)
    pick, redraws = chains.draw(rng, same + [far], target=3, used=[])
    assert pick is far and redraws == 4  # nothing near changes it: the nearest that does


def test_the_paper_grid_refuses_other_lengths_set_beside_it():
    with pytest.raises(ValueError, match="grid 'paper' sets chain_lengths"):
        PacificSettings(family="pacific", grid="paper", chain_lengths=[3])
    assert PacificSettings(family="pacific").chain_lengths == [3, 5, 8]


def test_gold_comes_from_the_sandbox_and_a_disagreeing_plan_is_dropped():
    chain = chains.build_all(3, [5], [5], 1, POOL)[0]
    outcome = compute_gold(chain, GOLD)
    assert outcome.kept is not None and outcome.kept.gold == chain.planned
    assert "def chain(x):" in outcome.kept.code and "def step_5(x)" in outcome.kept.code
    forged = chain.model_copy(update={"planned": [*chain.planned[:-1], "not what the code gives"]})
    dropped = compute_gold(forged, GOLD)
    assert dropped.kept is None and dropped.dropped[0].reason == "reference_mismatch"
    assert "step 5" in dropped.dropped[0].detail


def test_rows_render_every_mode_and_form_with_the_fields_the_issue_names():
    chain = chains.build_all(4, [3], [5], 1, POOL)[0]
    gold = compute_gold(chain, GOLD).kept
    rows = rows_of(gold, PacificSettings(family="pacific"))
    assert [(r["mode"], r["form"]) for r in rows] == [("prompt", "code"), ("prompt", "nl"), ("chat", "code"),
                                                      ("chat", "nl")]
    for row in rows:
        assert {"family", "task_id", "mode", "form", "initial_input", "instructions", "gold"} <= set(row)
        assert row["family"] == "pacific" and row["gold"] == gold.gold
        assert ("prompt" in row) == (row["mode"] == "prompt") and ("messages" in row) == (row["mode"] == "chat")
        for entry in row["instructions"]:
            assert entry["code"].startswith("def ") and entry["text"]
        json.dumps(row)
    prompt_code = render(gold, "prompt", "code")["prompt"]
    assert prompt_code.count("```python") == 3 and "[ANSWER][3]" in prompt_code
    assert json.dumps(chain.initial_input) in prompt_code
    prompt_nl = render(gold, "prompt", "nl")["prompt"]
    assert "def " not in prompt_nl
    turns = render(gold, "chat", "nl")["messages"]
    assert len(turns) == 3 and "[ANSWER][2]" in turns[1]["content"] and "[ANSWER][3]" in turns[2]["content"]


def test_an_unknown_instruction_id_is_named_with_its_setting():
    from ifforge.core.settings import SettingsError
    from ifforge.families import load_family_settings

    with pytest.raises(SettingsError, match="setting 'instructions': Value error, unknown instruction 'nope'"):
        load_family_settings({"family": "pacific", "instructions": ["nope"]})
