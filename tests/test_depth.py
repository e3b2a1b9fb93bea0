"""The depth of a version's cases on its card: computed in the run (sandbox), stored in the manifest,
and the same as a recomputation from the rows; the seed's own cases beside the generated ones."""

import json
import statistics
from pathlib import Path

from ifforge.core.sandbox.execution import run_cases
from ifforge.families.logicif import depth
from ifforge.flows.generate import generate

CLIMB = '''def climb(steps, start):
    height = start
    for step in steps:
        if step > 0:
            height += step
    return height
'''
EMPTY_OR = '''def first_big(values):
    for value in values:
        if value > 9:
            return value
    return None
'''


def test_decisions_and_branch_arcs_are_read_from_the_code_and_the_arcs_taken():
    assert depth.decisions(CLIMB) == [(3, 4), (4, 5)]
    (run,) = run_cases(CLIMB, "climb", [[[1, 2], 0]], coverage=True)  # never a step of 0 or less
    assert depth.arcs_taken(depth.decisions(CLIMB), {tuple(a) for a in run.arcs}) == 3  # the `if` never false
    assert depth.trivial([None, {"calls": 2}]) and not depth.trivial([[0, 1], {"calls": 2}])


def test_a_small_versions_card_shows_the_depth_of_given_and_generated_cases_and_it_matches_a_recomputation(
        tmp_path, prefect_server):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    given = [[[3, -1, 2], 0], [[], 5], [[-2, -3], 1]]
    (seeds / "climb.py").write_text(CLIMB + "\n\n" + "".join(f"# input: {json.dumps(a)}\n" for a in given))
    (seeds / "first_big.py").write_text(EMPTY_OR)
    folder = Path(generate(seeds=str(seeds), out=str(tmp_path / "out"),
                           options={"llm": "none", "progress": False, "dedup": False, "expressions": 0,
                                    "generate_inputs_below": 6}))
    manifest = json.loads((folder / "manifest.json").read_text())
    card = (folder / "card.md").read_text()
    rows = [json.loads(line) for line in (folder / "benchmark.jsonl").read_text().splitlines()]
    found = manifest["export"]["depth"]
    assert set(found["tasks"]) == {"climb", "first_big"}
    assert found["tasks"]["first_big"]["given"] is None  # no cases of its own: only generated ones
    sources = {"climb": CLIMB, "first_big": EMPTY_OR}
    for task, source in sources.items():
        for group in ("given", "generated"):
            inputs = [row["input"] for row in rows if row["task_id"] == task
                      and (row["input_origin"] is None) == (group == "given")]
            stored = found["tasks"][task][group]
            if not inputs:
                assert stored is None
                continue
            results = run_cases(source, task, inputs, count_steps=True)
            lines = statistics.median(r.steps for r in results)
            trivial = sum(r.output in (None, 0) for r in results) / len(results)
            assert stored["cases"] == len(inputs) and stored["lines_median"] == lines
            assert stored["trivial_share"] == round(trivial, 4) and stored["branch_arcs"] == 4
    climb = found["tasks"]["climb"]
    assert climb["given"]["branch_arcs_taken"] == 4  # a positive step, a negative one, an empty list, a full one
    assert "## Depth: how far the cases go" in card
    line = next(line for line in card.splitlines() if line.startswith("| climb |"))
    cells = [cell.strip() for cell in line.strip("|").split("|")]
    assert cells[0] == "climb" and len(cells) == 7  # the seed's own cases beside the generated ones
    assert cells[1].startswith(f"{round(climb['given']['lines_median'], 1):g} (") and cells[2] == "4/4 (100%)"
    assert cells[4].startswith(f"{round(climb['generated']['lines_median'], 1):g} (")
    assert any(line.startswith("- given: 1 tasks") for line in card.splitlines())
    assert any(line.startswith("- generated: 2 tasks") for line in card.splitlines())
