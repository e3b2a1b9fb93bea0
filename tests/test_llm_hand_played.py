"""A capable model's answers, written by hand for the prompts a run sends for two seeds (one with no
inputs, one that returns its own counters), served by the stub server through `ifforge generate`:
the run accepts every answer, records what became of each proposed input, and says what it asked."""

import json
from pathlib import Path

from ifforge.core.llm.setup import resolve_llm
from ifforge.families import get_family
from ifforge.families.logicif import checks
from ifforge.families.logicif.settings import LogicIFSettings
from ifforge.flows.generate import generate
from ifforge.testing.openai_stub import Answer, StubServer

CALM = '''def longest_calm_stretch(readings, limit):
    """The longest stretch of readings at or under the limit; a missing reading (None) breaks a
    stretch. None when there are no readings at all."""
    if not readings:
        return None
    best = 0
    stretch = 0
    for reading in readings:
        if reading is None or reading > limit:
            stretch = 0
            continue
        stretch += 1
        if stretch > best:
            best = stretch
    return best
'''
PAIR = '''def pair_with_sum(numbers, target):
    """Two positions whose numbers add up to the target, and how many numbers were looked at."""
    looked = 0
    position_of = {}
    for position, number in enumerate(numbers):
        looked += 1
        if target - number in position_of:
            return [position_of[target - number], position], {"looked": looked}
        position_of[number] = position
    return None, {"looked": looked}
'''
PAIR_INPUTS = [[[2, 7, 11, 15], 9], [[3, 3], 6], [[1, 2, 3], 7], [[5, 1, 5, 1, 4], 9], [[4, 4, 4, 4], 9],
               [[0, -3, 3, 8], 0]]

# What a capable model answers, prompt by prompt.
PROPOSED = [[[3, 1, 4, 1, 5, 9, 2, 6], 4], [[], 3], [[7], 5], [[5], 5], [[None, 1, 2, None, 1], 2],
            [[2, None, 2, 2, None, 2, 2, 2], 2], [[6, 6, 6], 5], [[0, -1, 7, 0, 0], 0], [[1, 2, 3, 4, 5, 6, 7, 8], 10],
            [[4, 4, 5, 4, 4, 4], 4], [[None], 0], [[1, 1, 9, 1, 1, 9, 1], 1]]
CALM_F = '''def f(a, b):
    stats = {"resets": 0}
    if not a:
        return None, stats
    v1 = 0
    v2 = 0
    for v3 in a:
        if v3 is None or v3 > b:
            stats["resets"] += 1
            v2 = 0
            continue
        v2 += 1
        if v2 > v1:
            v1 = v2
    return v1, stats
'''
PAIR_F = '''def f(a, b):
    stats = {"overwrites": 0}
    v1 = 0
    v2 = {}
    for v3, v4 in enumerate(a):
        v1 += 1
        if b - v4 in v2:
            return ([v2[b - v4], v3], {"looked": v1}), stats
        if v4 in v2:
            stats["overwrites"] += 1
        v2[v4] = v3
    return (None, {"looked": v1}), stats
'''
CALM_TEXT = """INPUTS: You are given a, a list whose items are whole numbers or null, and b, a whole number.
LOGICS: Set the tracker resets to zero. If a has no items at all, stop at once: the result is null, and resets \
stays zero. Otherwise keep two running numbers, the best length and the current length, both starting at zero. \
Go through the items of a from the first to the last. For each item: if it is null, or it is a number greater than \
b, add one to resets, put the current length back to zero, and move on to the next item. Otherwise (a number \
no greater than b, b itself included) add one to the current length; then, if the current length is now greater \
than the best length, make the best length equal to the current length (a tie changes nothing).
OUTPUTS: Return the best length, which is the largest number of items in a row that are numbers no greater than b \
(null when a is empty), together with the tracker dictionary holding resets: how many items were null or greater \
than b.
"""
PAIR_TEXT = """INPUTS: You are given a, a list of whole numbers, and b, a whole number.
LOGICS: Start the tracker overwrites at zero, start a count of items looked at at zero, and keep an empty table \
that maps a number to a position. Go through the items of a from the first to the last, noting each item's \
position, counting from zero. For each item, first add one to the count. Then work out b minus the item; if that \
difference is already a key of the table, stop at once: the answer is a pair made of, first, a list holding the \
position the table keeps for that difference followed by the current position, and second, a dictionary whose only \
key "looked" holds the count. Otherwise, if the item itself is already a key of the table, add one to overwrites; \
either way, store the current position under the item in the table (a later position replaces an earlier one). \
If you reach the end of a without stopping, the answer is the pair of null and a dictionary whose only key \
"looked" holds the count.
OUTPUTS: Return that answer together with the tracker dictionary holding overwrites: how many times an item was \
stored under a number that was already a key of the table.
"""


def capable(request) -> Answer:
    """The answer a careful reader writes to each prompt of the run, told apart by what it shows."""
    prompt = request["messages"][0]["content"]
    calm = "longest_calm_stretch" in prompt or 'stats = {"resets"' in prompt or "'resets'" in prompt
    verdict = {"desc_is_complete": True, "reasoning": "Traced every input above; output and tracker agree.",
               "missing_aspects": [], "coverage_percentage": 100}
    if prompt.startswith("Below is a Python function"):
        return Answer(content=json.dumps({"inputs": PROPOSED}))
    if prompt.startswith("You are preparing"):
        code, name, says = (CALM_F, "resets", "items that are null or greater than b") if calm else \
            (PAIR_F, "overwrites", "items stored again under a number already in the table")
        return Answer(content=json.dumps({"function": code, "trackers": [{"name": name, "explanation": says}]}))
    if prompt.startswith("Explain the Python function"):
        return Answer(content=CALM_TEXT if calm else PAIR_TEXT)
    if prompt.startswith("You are reviewing"):
        return Answer(content=json.dumps(verdict))
    raise AssertionError(f"a prompt the run was not expected to send: {prompt[:80]}")


def _run(tmp_path):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "longest_calm_stretch.py").write_text(CALM)
    (seeds / "pair_with_sum.py").write_text(PAIR + "\n\n" + "".join(f"# input: {json.dumps(a)}\n" for a in PAIR_INPUTS))
    out = tmp_path / "out"
    with StubServer(capable) as server:
        options = {"base_url": server.url, "model": "capable", "progress": False, "evolve_turns": 0,
                   "expressions": 0, "dedup": False, "verify_rounds": 1, "llm_reasks": 1, "llm_cache": str(out / "r.sqlite")}
        folder = Path(generate(seeds=str(seeds), out=str(out), options=options))
        asked = [request["messages"][0]["content"] for request in server.requests]
    return folder, asked


def test_a_hand_played_capable_model_is_accepted_and_every_proposal_and_call_is_recorded(tmp_path, prefect_server):
    folder, asked = _run(tmp_path)
    accepted(folder, asked)
    proposals_recorded(folder)
    inputs_shown(folder, asked)
    calls_named(folder)


def accepted(folder, asked):
    manifest = json.loads((folder / "manifest.json").read_text())
    assert len(asked) == 7  # one proposal, two anonymisations, two descriptions, two reviews; no re-ask
    for task in ("longest_calm_stretch", "pair_with_sum"):
        assert manifest["paths"][task] == {"instrument": "llm", "evolved_turns": 0, "description_by": "model",
                                           "description_model": "capable"}
    rows = [json.loads(line) for line in (folder / "benchmark.jsonl").read_text().splitlines()]
    texts = {row["task_id"]: row["description"] for row in rows}
    assert texts == {"longest_calm_stretch": CALM_TEXT, "pair_with_sum": PAIR_TEXT}
    pair = [row for row in rows if row["task_id"] == "pair_with_sum"]
    assert [row["input"] for row in pair] == PAIR_INPUTS  # the seed's own inputs: nothing proposed for it
    assert pair[0]["code_output"] == {"output": [[0, 1], {"looked": 2}], "stats": {"overwrites": 0}}
    assert [row["code_output"]["stats"]["overwrites"] for row in pair] == [0, 0, 0, 2, 3, 0]
    calm = [row for row in rows if row["task_id"] == "longest_calm_stretch"]
    assert [[], 3] in [row["input"] for row in calm] and None in [row["code_output"]["output"] for row in calm]


def proposals_recorded(folder):
    report = json.loads((folder / "items" / "longest_calm_stretch" / "inputs.json").read_text())
    evidence = report["evidence"][0] if "evidence" in report else report
    fates = [(p["args"], p["fate"]) for p in evidence["proposals"]]
    assert [args for args, _ in fates] == PROPOSED
    assert all(fate == "kept" or fate.startswith(("ran, not kept: ", "rejected: ", "same as")) for _, fate in fates)
    rows = [json.loads(line) for line in (folder / "benchmark.jsonl").read_text().splitlines()]
    kept = [args for args, fate in fates if fate == "kept"]
    model_rows = [row["input"] for row in rows if row["task_id"] == "longest_calm_stretch"]
    assert kept and all(args in model_rows for args in kept)
    assert len(kept) + sum(fate.startswith("ran, not kept") for _, fate in fates) == len(PROPOSED)  # all valid


def inputs_shown(folder, asked):
    rows = [json.loads(line) for line in (folder / "benchmark.jsonl").read_text().splitlines()]
    for prompt in [p for p in asked if p.startswith(("Explain the Python", "You are reviewing"))]:
        task = "longest_calm_stretch" if "resets" in prompt else "pair_with_sum"
        assert all(json.dumps(row["input"]) in prompt for row in rows if row["task_id"] == task)
    shown = [line for p in asked if p.startswith(("Explain", "You are reviewing")) for line in p.splitlines()
             if line.startswith("[")]
    assert any("null" in line for line in shown) and not any("None" in line for line in shown)


def calls_named(folder):
    calls = [json.loads(line) for line in (folder / "llm_calls.jsonl").read_text().splitlines()]
    assert sorted((c["task_id"], c["stage"]) for c in calls) == sorted(
        [("longest_calm_stretch", s) for s in ("inputs", "instrument", "describe", "verify")]
        + [("pair_with_sum", s) for s in ("instrument", "describe", "verify")])


def test_the_log_line_leaves_out_llm_stages_the_settings_switch_off():
    family = get_family("logicif")
    settings = LogicIFSettings(model="m", base_url="http://127.0.0.1:9/v1", expressions=0, evolve_turns=0)
    _, line = resolve_llm(settings, family.llm_stages, family.idle_llm_stages(settings))
    assert "describe=m" in line and "expressions" not in line and "evolve" not in line


def test_the_anonymise_check_compares_a_none_output_as_an_output():
    from ifforge.core.sandbox import execution as sandbox
    original = sandbox.run_cases(CALM, "longest_calm_stretch", [[[], 1], [[1, 2], 5]])
    wrong = CALM_F.replace("return None, stats", "return [[0, 0]], stats")
    problem = checks.tracked_function_problem(wrong, [[[], 1], [[1, 2], 5]], ["resets"], expected=original)
    assert problem and "the original returns null" in problem
    assert checks.tracked_function_problem(CALM_F, [[[], 1], [[1, 2], 5], [[9], 5]], ["resets"], expected=original
                                           + sandbox.run_cases(CALM, "longest_calm_stretch", [[[9], 5]])) is None
