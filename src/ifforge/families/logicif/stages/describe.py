"""Describe stage: the instruction text for each measured function.

With an LLM (`run_llm`) the model writes it, re-asked until it passes the checks the prompt states
(three parts, no code, none of the seed's domain words: `writer.py`); without one,
or when the model fails, the deterministic renderer (`run`) writes it, in English only: an item
with a construct that cannot be said clearly is dropped as `not_describable`, naming it. The
renderer's text comes with the place of each step's statement in the exported code (the review
page shows each step beside it).
Declared types (`input_types`, `output_format`) hold for every case, unions included.
"""

from __future__ import annotations


from ifforge.core.workers import in_worker
from ifforge.families.logicif.codeops.describe import narrate, places
from ifforge.core.llm.client import LLM
from ifforge.core.prompts import load_prompt
from ifforge.families.logicif.records import (DescribedFunction, DroppedItem, Instruction, MeasuredFunction, Outcome,
                                              StepPlace)
from ifforge.families.logicif.configs import DescribeConfig
from ifforge.families.logicif.typenames import input_types, output_format
from ifforge.families.logicif.writer import write_with_llm

STAGE = "describe"


def run(item: MeasuredFunction) -> Outcome[DescribedFunction]:
    """The deterministic description; an item with a construct English cannot say clearly is dropped."""
    function = item.executed.function
    try:
        told = narrate.narration(function.instrumented_source, function.trackers, input_types(item),
                                 output_format(item))
    except narrate.Undescribable as error:
        return Outcome(dropped=[DroppedItem(task_id=function.task_id, stage=STAGE, reason="not_describable",
                                            detail=f"no clear English for {error.construct}")])
    steps = [StepPlace(**place) for place in places.places(told, item.executed.exported_source)]
    return Outcome(kept=DescribedFunction(measured=item, instruction=Instruction(description=told.text, places=steps)))


async def run_llm(item: MeasuredFunction, llm: LLM, settings: DescribeConfig) -> Outcome[DescribedFunction]:
    function = item.executed.function
    text, problem = await write_with_llm(llm, "describe", function, {}, settings, STAGE,
                                         [case.input for case in item.executed.cases])
    if text is None:
        outcome = await in_worker(Outcome[DescribedFunction], run, item)  # CPU work: off the run's GIL
        if outcome.kept is None:
            return outcome
        fallback = outcome.kept
        note = f"LLM description not used ({problem[:300]}); deterministic renderer took over"
        instruction = fallback.instruction.model_copy(update={"notes": [note]})
        return Outcome(kept=fallback.model_copy(update={"instruction": instruction}))
    instruction = Instruction(description=text, path="llm", prompt_hash=load_prompt("describe").hash,
                              model=llm.config.model)
    return Outcome(kept=DescribedFunction(measured=item, instruction=instruction))
