"""Who wrote each description, a model (which) or ifforge's renderer: per row, per item, per run."""

import asyncio
import json

import pytest

from ifforge.core.llm.client import LLM, LLMConfig
from ifforge.core.prompts import load_prompt
from ifforge.generation.artifacts import descriptions_line, outcome_line
from ifforge.families.logicif.configs import ExecuteConfig, TrackerConfig, VerifyConfig, from_settings
from ifforge.families.logicif.family import FAMILY
from ifforge.families.logicif.settings import LogicIFSettings
from ifforge.families.logicif.stages import complexity, describe, execute, finalize, instrument, load, verify
from ifforge.testing.openai_stub import Answer, StubServer

SEED = '''
def step(x):
    return x * 2 + 1

def grow(n):
    value = 0
    while value < n:
        value = step(value)
    return value

# input: [0]
# input: [5]
# input: [20]
# input: [1]
'''


@pytest.fixture(scope="module")
def described(tmp_path_factory):
    """The deterministic path's description of a seed with a helper beside its function."""
    folder = tmp_path_factory.mktemp("seeds")
    (folder / "grow.py").write_text(SEED)
    [seed], _ = load.load_seed_dir(folder)
    settings = LogicIFSettings()
    instrumented = instrument.run(seed, from_settings(TrackerConfig, settings)).kept
    executed = execute.run(instrumented, from_settings(ExecuteConfig, settings)).kept
    return describe.run(complexity.run(executed).kept).kept


def _review(complete: bool) -> Answer:
    return Answer(content=json.dumps({"desc_is_complete": complete, "reasoning": "",
                                      "missing_aspects": [] if complete else ["say when the loop stops"],
                                      "coverage_percentage": 100 if complete else 60}))


def _verify(item, *answers):
    with StubServer() as server:
        server.script(*answers)

        async def go():
            llm = LLM(LLMConfig(model="stub-reviewer", base_url=server.url, api_key="k", timeout=5, max_retries=0))
            try:
                return await verify.run_llm(item, llm, VerifyConfig(llm_reasks=0, verify_rounds=2))
            finally:
                await llm.close()

        return asyncio.run(go())


def test_rows_say_the_renderer_wrote_it_and_a_reviewers_rewrite_makes_it_the_models(described):
    assert described.instruction.written_by == "deterministic"
    [row, *_] = finalize.rows(finalize.to_task(described), load_prompt("solve"))
    assert (row["description_by"], row["description_model"]) == ("deterministic", None)

    kept = _verify(described, _review(True)).kept  # passed as it was: still the renderer's text
    assert kept.instruction.written_by == "deterministic" and kept.instruction.model is None

    rewrite = described.instruction.description + "\nEvery step is said once.\n"
    kept = _verify(described, _review(False), Answer(content=rewrite), _review(True)).kept
    assert kept.instruction.description == rewrite
    assert (kept.instruction.written_by, kept.instruction.model) == ("model", "stub-reviewer")
    assert kept.instruction.prompt_hash == load_prompt("refine").hash
    [row, *_] = finalize.rows(finalize.to_task(kept), load_prompt("solve"))
    assert (row["description_by"], row["description_model"]) == ("model", "stub-reviewer")


def test_the_last_line_the_summary_and_the_card_say_who_wrote_the_descriptions(described):
    offline = {"model": 0, "deterministic": 42, "models": []}
    assert descriptions_line(offline) == "descriptions: all deterministic (written by ifforge's renderer, no model)"
    assert descriptions_line({"model": 40, "deterministic": 2, "models": ["m1"]}) == (
        "descriptions: 40 by model m1, 2 deterministic")
    assert descriptions_line({"model": 3, "deterministic": 0, "models": ["m1", "m2"]}) == (
        "descriptions: all by model m1, m2")
    assert descriptions_line(None) is None  # a family that does not count them says nothing
    manifest = {"export": {"tasks": 42, "rows": 349, "descriptions": offline}, "dropped": {}}
    assert outcome_line(manifest, "v001") == ("42 tasks, 349 rows in v001; no item dropped; descriptions: all "
                                              "deterministic (written by ifforge's renderer, no model)")
    rows = finalize.rows(finalize.to_task(described), load_prompt("solve"))
    assert FAMILY.made_by(rows) == ("Descriptions: all deterministic (written by ifforge's renderer, no model), "
                                    "counted over tasks.")
    assert FAMILY.made_by([{k: v for k, v in row.items() if k != "description_by"} for row in rows]) == ""
