"""Verify + refine stage: a description is kept only when it covers its function.

Deterministic check, always: every parameter, tracker key and numeric constant of `f` is mentioned.
With an LLM, a reviewer also returns LogicIF's `{desc_is_complete, reasoning, missing_aspects,
coverage_percentage}`; an incomplete description is refined from the review and checked again,
up to `verify_rounds` rounds. What still fails is dropped with the last review as its reason.
Every round's description and review are kept in the item's history.
"""

from __future__ import annotations

import sys

from ifforge.core.store import code_version
from ifforge.families.logicif.codeops import narrate
from ifforge.core import sandbox
from ifforge.core.llm_client import LLM, LLMError
from ifforge.core.prompts import load_prompt
from ifforge.families.logicif.records import DescribedFunction, DroppedItem, Outcome, Review, VerificationRound
from ifforge.families.logicif.configs import VerifyConfig
from ifforge.families.logicif.writer import write_with_llm

STAGE = "verify"
VERSION = code_version(sys.modules[__name__])  # with every ifforge module it reaches


def _uncovered(item: DescribedFunction, text: str) -> list[str]:
    function = item.measured.executed.function
    return narrate.uncovered(text, function.instrumented_source, function.trackers)


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


async def run_llm(item: DescribedFunction, llm: LLM, settings: VerifyConfig) -> Outcome[DescribedFunction]:
    function = item.measured.executed.function
    verify_prompt = load_prompt("verify")
    text = item.instruction.description
    history: list[VerificationRound] = []
    for round_number in range(1, settings.verify_rounds + 1):
        messages = [{"role": "user", "content": verify_prompt.render(function=function.instrumented_source,
                                                                     description=text)}]
        try:
            review, _ = await llm.chat_json(messages, Review, stage=STAGE, prompt_versions={"verify": verify_prompt.hash})
        except LLMError as error:
            return Outcome(dropped=[DroppedItem(task_id=item.task_id, stage=STAGE, reason="reviewer_failed",
                                                detail=str(error)[:500])])
        missing = await sandbox.off_loop(_uncovered, item, text)
        passed = review.desc_is_complete and not missing
        history.append(VerificationRound(round=round_number, description=text, review=review, uncovered=missing,
                                         passed=passed))
        if passed:
            rewritten = {"path": "llm", "model": llm.config.model, "prompt_hash": load_prompt("refine").hash,
                         "notes": [*item.instruction.notes, f"rewritten by the reviewer, passed in round {round_number}"]}
            instruction = item.instruction.model_copy(update={"description": text, **(rewritten if round_number > 1
                                                                                      else {})})
            return Outcome(kept=item.model_copy(update={"instruction": instruction, "history": history}))
        if round_number == settings.verify_rounds:
            break
        feedback = review.model_dump()
        if missing:
            feedback["missing_aspects"] = [*review.missing_aspects, *(f"never mentions `{m}`" for m in missing)]
        refined, problem = await write_with_llm(
            llm, "refine", {"function": function.instrumented_source, "description": text,
                            "review": str(feedback)}, settings, STAGE)
        if refined is None:
            break
        text = refined
    last = history[-1]
    reasons = last.review.missing_aspects if last.review else []
    detail = f"still incomplete after {len(history)} round(s): " + "; ".join(
        [*reasons, *(f"never mentions `{m}`" for m in last.uncovered)])[:800]
    return Outcome(dropped=[DroppedItem(task_id=item.task_id, stage=STAGE, reason="verification_failed",
                                        detail=detail)], evidence=[r.model_dump(mode="json") for r in history])
