"""A capable model's answers, through the stub server, stage by stage: every rule the code applies to
an answer is stated in the prompt that asks for it, a good answer passes, and a refused one is sent
back with the reason, each re-ask counted. The answers are written the way a strong model writes
them: numbers as words, "the first item" for a position, "item(s)", a dash between clauses."""

import asyncio
import json

import pytest

from ifforge.core.llm.client import LLM, LLMConfig
from ifforge.core.llm.usage import Ledger
from ifforge.families.logicif.configs import (DescribeConfig, EvolveConfig, ExecuteConfig, InstrumentConfig,
                                              VerifyConfig, from_settings)
from ifforge.families.logicif.settings import LogicIFSettings
from ifforge.families.logicif.stages import complexity, describe, evolve, execute, instrument, load, verify
from ifforge.testing.openai_stub import Answer, StubServer

SEED = '''"""Captures on a board: each square holds a piece's strength, and the attacker captures a square
that is stronger than it. The attacker stops after three captures; the first square is its own."""


def count_captures(squares, attacker):
    captures = 0
    for square in squares[1:]:
        if square > attacker:
            captures += 1
            if square > 2 * attacker:
                captures += 1
        if captures >= 3:
            break
    return captures
'''
INPUTS = [[[5, 1, 9, 2], 3], [[0, 7, 8, 9, 10], 2], [[4], 0], [[1, 2, 3], 1], [[9, 4, 5, 4, 4, 4], 5], [[2, 0, 9], 1]]

ANONYMISED = '''def f(a, b):
    stats = {"{name}": 0}
    v1 = 0
    for v2 in a[1:]:
        stats["{name}"] += 1
        if v2 > b:
            v1 += 1
            if v2 > 2 * b:
                v1 += 1
        if v1 >= 3:
            break
    return v1, stats
'''
EVOLVED = '''def f(a, b):
    stats = {"items_checked": 0, "{name}": 0}
    v1 = 0
    for v2 in a[1:]:
        stats["items_checked"] += 1
        if v2 > b:
            v1 += 1
            if v2 > 2 * b:
                v1 += 1
                stats["{name}"] += 1
        elif v2 == b and v1 > 0:
            v1 -= 1
        if v1 >= 3:
            break
    return v1, stats
'''
DESCRIPTION = """INPUTS: You are given a, a list of whole numbers, and b, a whole number.
LOGICS: Start with a running total of zero, and set both trackers, items_checked and strong_items, to zero. \
Leave out the first item of a - which is never looked at - and go through the remaining item(s) from left to \
right. For each one, first add one to items_checked. Then, if the item is greater than b, add one to the total, \
and if it is also greater than two times b (e.g. more than 6 when b is 3), add one more to the total and add one \
to strong_items. Otherwise, if the item is exactly equal to b and the total is above zero, take one away from \
the total. After that, if the total has reached three or more, stop going through the items at once.
OUTPUTS: Return the total, together with the tracker dictionary holding items_checked (how many items you \
looked at) and strong_items (how many items were greater than two times b).
"""


def _function(code: str, trackers: list[str], change: str = "") -> Answer:
    reply = {"function": code, "trackers": [{"name": t, "explanation": f"counts {t}"} for t in trackers]}
    return Answer(content=json.dumps({**reply, "change": change} if change else reply))


def _review(complete: bool, missing: list[str], coverage: int) -> Answer:
    return Answer(content=json.dumps({"desc_is_complete": complete, "reasoning": "I traced every branch.",
                                      "missing_aspects": missing, "coverage_percentage": coverage}))


def _ask(server, call, reasks: int = 1):
    """Run one stage call against the stub with a ledger of its own; (result, usage by stage)."""
    ledger = Ledger()

    async def go():
        llm = LLM(LLMConfig(model="capable", base_url=server.url, api_key="k", timeout=5, max_retries=0,
                            reasks=reasks), ledger=ledger)
        try:
            return await call(llm)
        finally:
            await llm.close()

    return asyncio.run(go()), ledger.snapshot()


@pytest.fixture(scope="module")
def seed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("seeds")
    lines = "".join(f"# input: {json.dumps(args)}\n" for args in INPUTS)
    (folder / "count_captures.py").write_text(SEED + "\n\n" + lines)
    [loaded], _ = load.load_seed_dir(folder)
    return loaded


@pytest.fixture(scope="module")
def instrumented(seed):
    """The model's anonymisation: first with a tracker named after the domain, then a neutral one."""
    settings = LogicIFSettings(llm_reasks=1)
    with StubServer() as server:
        server.script(_function(ANONYMISED.replace("{name}", "squares_checked"), ["squares_checked"]),
                      _function(ANONYMISED.replace("{name}", "items_checked"), ["items_checked"]))
        outcome, usage = _ask(server, lambda llm: instrument.run_llm(seed, llm, from_settings(InstrumentConfig, settings)))
        asked = [request["messages"] for request in server.requests]
    return outcome, usage, asked


def test_anonymise_states_the_cap_the_inputs_and_the_domain_words_and_refuses_a_domain_tracker(instrumented):
    outcome, usage, asked = instrumented
    prompt = asked[0][0]["content"]
    assert "a whole number below 50 on every input" in prompt  # the cap, before any re-ask
    assert all(json.dumps(args) in prompt for args in INPUTS)  # the inputs the trackers must vary on
    assert "none of these words may appear in a tracker name: attacker, captures, square" in prompt
    assert "give away what the original code was about (square)" in asked[1][-1]["content"]
    assert outcome.kept.path == "llm" and [t.name for t in outcome.kept.trackers] == ["items_checked"]
    assert usage["instrument"].calls == 2 and usage["instrument"].reasks == 1


@pytest.fixture(scope="module")
def evolved(instrumented):
    """An evolution turn: first with a tracker that never moves on the inputs, then a good one."""
    settings = LogicIFSettings(llm_reasks=1, evolve_turns=1)
    with StubServer() as server:
        server.script(_function(EVOLVED.replace("{name}", "negative_items").replace("v2 > 2 * b:", "v2 < -1000:"),
                                ["items_checked", "negative_items"], "a second counter"),
                      _function(EVOLVED.replace("{name}", "strong_items"), ["items_checked", "strong_items"],
                                "an item equal to b takes one back"))
        outcome, usage = _ask(server, lambda llm: evolve.run_llm(instrumented[0].kept, llm,
                                                                 from_settings(EvolveConfig, settings)))
        asked = [request["messages"] for request in server.requests]
    return outcome, usage, asked


def test_evolve_shows_the_inputs_and_sends_a_refused_turn_back_with_the_reason(evolved):
    outcome, usage, asked = evolved
    assert all(json.dumps(args) in asked[0][0]["content"] for args in INPUTS)
    assert "below 50" in asked[0][0]["content"]
    assert "tracker 'negative_items' is constant" in asked[1][-1]["content"]
    kept = outcome.kept
    assert kept.evolved_turns == 1 and [t.name for t in kept.trackers] == ["items_checked", "strong_items"]
    assert "evolve turn 1 kept after 2 tries" in kept.notes[-1]
    assert usage["evolve"].calls == 2 and usage["evolve"].reasks == 1


@pytest.fixture(scope="module")
def measured(evolved):
    settings = LogicIFSettings()
    return complexity.run(execute.run(evolved[0].kept, from_settings(ExecuteConfig, settings)).kept).kept


def test_a_description_with_a_domain_word_is_sent_back_and_the_capable_one_is_kept(measured):
    domain = DESCRIPTION.replace("Leave out the first item of a", "Leave out the first square of a, the attacker's")
    with StubServer() as server:
        server.script(Answer(content=domain), Answer(content="Here it is.\n\n" + DESCRIPTION))
        outcome, usage = _ask(server, lambda llm: describe.run_llm(measured, llm, DescribeConfig(llm_reasks=1)))
        asked = [request["messages"] for request in server.requests]
    prompt = asked[0][0]["content"]
    assert "every input by its exact name (a, b)" in prompt and "exact key (items_checked, strong_items)" in prompt
    assert "(7 or seven)" in prompt and "would give away what the code was originally about: attacker, captures, " \
                                       "square" in prompt
    assert "(attacker, square)" in asked[1][-1]["content"]
    assert outcome.kept.instruction.description == DESCRIPTION and outcome.kept.instruction.written_by == "model"
    assert usage["describe"].calls == 2 and usage["describe"].reasks == 1


def _described(measured, text):
    from ifforge.families.logicif.records import DescribedFunction, Instruction

    return DescribedFunction(measured=measured, instruction=Instruction(description=text, path="llm", model="capable"))


def test_the_capable_description_passes_the_coverage_check_and_a_self_contradicting_verdict_is_sent_back(measured):
    item = _described(measured, DESCRIPTION)
    assert verify.run(item).kept is not None  # words for numbers, "the first item", the name a: all covered
    with StubServer() as server:
        server.script(_review(True, ["the tie when an item equals b"], 100), _review(True, [], 100))
        outcome, usage = _ask(server, lambda llm: verify.run_llm(item, llm, VerifyConfig(llm_reasks=1, verify_rounds=2)))
        asked = [request["messages"] for request in server.requests]
    assert "desc_is_complete` is true exactly when `missing_aspects` is empty" in asked[0][0]["content"]
    assert "Your verdict contradicts itself: desc_is_complete is true, yet missing_aspects lists 1" in asked[1][-1]["content"]
    assert [r.passed for r in outcome.kept.history] == [True]
    assert usage["verify"].calls == 2 and usage["verify"].reasks == 1


def test_a_verdict_that_stays_contradictory_is_no_pass_and_refine_gets_the_findings_in_words(measured):
    vague = DESCRIPTION.replace("has reached three or more", "has grown large enough").replace(
        "more than 6 when b is 3", "more than 8 when b is 4")
    item = _described(measured, vague)
    with StubServer() as server:
        server.script(_review(True, ["it never says when the total is large enough"], 100),
                      Answer(content=DESCRIPTION), _review(True, [], 100))
        outcome, usage = _ask(server, lambda llm: verify.run_llm(item, llm, VerifyConfig(llm_reasks=0, verify_rounds=2)),
                              reasks=0)
        refine = server.requests[1]["messages"][0]["content"]
    first, second = outcome.kept.history
    assert not first.passed and first.contradiction and first.uncovered == ["3"]
    assert second.passed and outcome.kept.instruction.description == DESCRIPTION
    found = refine.split("What the check found:\n", 1)[1].split("\n\n", 1)[0]
    assert found == ("- it never says when the total is large enough\n"
                     "- it never says the number 3 (in digits or as a word)")
    assert "incomplete" not in refine and "`" not in found
    assert usage["verify"].reasks == 0  # no re-ask allowed: the contradiction was simply no pass


def test_domain_words_come_from_the_authors_names_and_recurring_docstring_words():
    from ifforge.families.logicif.codeops.common.domain import domain_used, domain_words

    # "board", "piece" and "strength" appear once in the docstring; "count" is a generic word
    assert domain_words(SEED, "count_captures") == ["attacker", "captures", "square"]
    assert domain_used("Captured pieces, the squares_left", ["captures", "square"]) == ["captures", "square"]
    book = 'def match(book, side):\n    """Match a buy book."""\n    resting_bids = []\n    return side == "buy"\n'
    assert domain_words(book) == ["bids", "book"]  # "buy" is a string value the function keeps; "rest" is generic
    assert domain_words(book, keep=["book"]) == ["bids"]  # a name the text must use is never forbidden
