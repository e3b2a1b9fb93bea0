"""Verify + refine stage: a description is kept only when it covers its function.

Deterministic check, always: every parameter, tracker key and number of `f` is mentioned (the
describe prompt states it). With an LLM, a reviewer also returns LogicIF's `{desc_is_complete,
reasoning, missing_aspects, coverage_percentage}`; a verdict that contradicts itself ("complete"
while listing missing aspects) is sent back once per `llm_reasks` and, still contradictory, is no
pass. An incomplete description is refined from what the review and the check found, and checked
again, up to `verify_rounds` rounds. What still fails is dropped with the last findings as its
reason. Every round's description and review are kept in the item's history.
"""

from __future__ import annotations


from ifforge.families.logicif.codeops.describe import narrate
from ifforge.core.sandbox import execution as sandbox
from ifforge.core.llm.client import LLM, LLMError
from ifforge.core.prompts import load_prompt
from ifforge.families.logicif.codeops.common.source import parameter_names
from ifforge.families.logicif.records import (DescribedFunction, DroppedItem, InstrumentedFunction, Outcome, Review,
                                              VerificationRound)
from ifforge.families.logicif.checks import shown_inputs
from ifforge.families.logicif.configs import VerifyConfig
from ifforge.families.logicif.writer import write_with_llm

STAGE = "verify"


def _uncovered(item: DescribedFunction, text: str) -> list[str]:
    function = item.measured.executed.function
    return narrate.uncovered(text, function.instrumented_source, function.trackers)


def coverage_findings(function: InstrumentedFunction, missing: list[str]) -> list[str]:
    """What the coverage check found, in words (no backticks: the refine prompt forbids them)."""
    parameters, trackers = set(parameter_names(function.instrumented_source, "f")), {t.name for t in function.trackers}
    return [f"it never names the input {name} by its exact name" if name in parameters else
            f"it never names the tracker {name} by its exact key" if name in trackers else
            f"it never says the number {name} (in digits or as a word)" for name in missing]


def findings(review: Review, contradiction: str | None, missing: list[str], function: InstrumentedFunction) -> str:
    """The points refine must fix: the reviewer's (unless it found the text complete and agreed with
    itself) and the coverage check's, one per line."""
    points = [] if review.desc_is_complete and contradiction is None else [
        aspect.replace("`", "") for aspect in review.missing_aspects]
    points += coverage_findings(function, missing)
    if not points:
        points = [f"the reviewer judged it incomplete: {review.reasoning.replace('`', '')[:800]}"]
    return "\n".join(f"- {point}" for point in points)


def run(item: DescribedFunction) -> Outcome[DescribedFunction]:
    """Offline: the deterministic coverage check alone."""
    text = item.instruction.description
    missing = _uncovered(item, text)
    history = [VerificationRound(round=1, description=text, uncovered=missing, passed=not missing)]
    if missing:
        return Outcome(dropped=[DroppedItem(task_id=item.task_id, stage=STAGE, reason="verification_failed",
                                            detail=f"the description never mentions {', '.join(missing)}")],
                       evidence=[r.model_dump(mode="json") for r in history])
    return Outcome(kept=item.model_copy(update={"history": history}))


async def review(llm: LLM, function: InstrumentedFunction, text: str, settings: VerifyConfig,
                 inputs: list[list]) -> tuple[Review, str | None]:
    """The reviewer's verdict, sent back while it contradicts itself; and the contradiction left, if any.
    The reviewer sees the inputs the rows carry, so it can check the text on each of their shapes."""
    prompt = load_prompt("verify")
    messages = [{"role": "user", "content": prompt.render(function=function.instrumented_source, description=text,
                                                          inputs=shown_inputs(inputs))}]
    for attempt in range(settings.llm_reasks + 1):
        if attempt:
            llm.reasked(STAGE)
        verdict, conversation = await llm.chat_json(messages, Review, stage=STAGE, prompt_versions={"verify": prompt.hash})
        contradiction = verdict.contradiction()
        if contradiction is None:
            return verdict, None
        messages = conversation + [{"role": "user", "content": (
            f"Your verdict contradicts itself: {contradiction}. desc_is_complete is true exactly when "
            "missing_aspects is empty and coverage_percentage is 100. Answer again with the whole JSON object.")}]
    return verdict, contradiction


async def run_llm(item: DescribedFunction, llm: LLM, settings: VerifyConfig) -> Outcome[DescribedFunction]:
    function = item.measured.executed.function
    text = item.instruction.description
    history: list[VerificationRound] = []
    inputs = [case.input for case in item.measured.executed.cases]
    for round_number in range(1, settings.verify_rounds + 1):
        try:
            verdict, contradiction = await review(llm, function, text, settings, inputs)
        except LLMError as error:
            return Outcome(dropped=[DroppedItem(task_id=item.task_id, stage=STAGE, reason="reviewer_failed",
                                                detail=str(error)[:500])])
        missing = await sandbox.off_loop(_uncovered, item, text)
        passed = verdict.desc_is_complete and contradiction is None and not missing
        history.append(VerificationRound(round=round_number, description=text, review=verdict, uncovered=missing,
                                         contradiction=contradiction, passed=passed))
        if passed:
            rewritten = {"path": "llm", "model": llm.config.model, "prompt_hash": load_prompt("refine").hash,
                         "places": [],  # the describer's places are its own text's
                         "notes": [*item.instruction.notes, f"rewritten by the reviewer, passed in round {round_number}"]}
            instruction = item.instruction.model_copy(update={"description": text, **(rewritten if round_number > 1
                                                                                      else {})})
            return Outcome(kept=item.model_copy(update={"instruction": instruction, "history": history}))
        if round_number == settings.verify_rounds:
            break
        refined, problem = await write_with_llm(
            llm, "refine", function, {"description": text, "findings": findings(verdict, contradiction, missing, function)},
            settings, STAGE, inputs)
        if refined is None:
            break
        text = refined
    last = history[-1]
    found = findings(last.review, last.contradiction, last.uncovered, function)
    if last.contradiction:
        found = f"- the reviewer's verdict contradicts itself: {last.contradiction}\n{found}"
    detail = f"still incomplete after {len(history)} round(s): " + "; ".join(found.removeprefix("- ").split("\n- "))
    return Outcome(dropped=[DroppedItem(task_id=item.task_id, stage=STAGE, reason="verification_failed",
                                        detail=detail[:800])], evidence=[r.model_dump(mode="json") for r in history])
