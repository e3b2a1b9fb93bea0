"""Describe stage: the instruction text for each measured function.

With an LLM (`run_llm`) the model writes it, re-asked until it has the three parts; without one,
or when the model fails, the deterministic renderer (`run`) writes it, in English only: an item
with a construct that cannot be said clearly is dropped as `not_describable`, naming it.
Declared types (`input_types`, `output_format`) hold for every case, unions included.
"""

from __future__ import annotations

import sys

from ifforge.core.workers import in_worker
from ifforge.core._sandbox_child import _type_name
from ifforge.core.store import code_version
from ifforge.families.logicif.codeops import english, narrate
from ifforge.families.logicif.codeops.source import parameter_names
from ifforge.core.llm import LLM, LLMError
from ifforge.core.prompts import load_prompt
from ifforge.families.logicif.records import DescribedFunction, DroppedItem, Instruction, MeasuredFunction, Outcome
from ifforge.families.logicif.configs import DescribeConfig
from ifforge.families.logicif.stages.execute import merge_output_types

STAGE = "describe"
VERSION = code_version(sys.modules[__name__])  # with every ifforge module it reaches


def output_format(item: MeasuredFunction) -> str:
    return merge_output_types([case.output_type for case in item.executed.cases])


def input_types(item: MeasuredFunction) -> dict[str, str]:
    """The type of each parameter, as seen across the test inputs."""
    names = parameter_names(item.executed.function.instrumented_source, "f")
    seen: dict[str, list[str]] = {}
    for case in item.executed.cases:
        for name, value in zip(names, case.input):
            seen.setdefault(name, []).append(_type_name(value))
    return {name: merge_output_types(kinds) for name, kinds in seen.items()}


def run(item: MeasuredFunction) -> Outcome[DescribedFunction]:
    """The deterministic description; an item with a construct English cannot say clearly is dropped."""
    function = item.executed.function
    try:
        text = narrate.describe(function.instrumented_source, function.trackers, input_types(item),
                                output_format(item))
    except narrate.Undescribable as error:
        return Outcome(dropped=[DroppedItem(task_id=function.task_id, stage=STAGE, reason="not_describable",
                                            detail=f"no clear English for {error.construct}")])
    return Outcome(kept=DescribedFunction(measured=item, instruction=Instruction(description=text)))


SECTIONS = ("INPUTS:", "LOGICS:", "OUTPUTS:")


def sections_problem(text: str) -> str | None:
    """A description needs INPUTS: / LOGICS: / OUTPUTS:, in that order."""
    positions = [text.find(label) for label in SECTIONS]
    if any(p < 0 for p in positions):
        missing = [label for label, p in zip(SECTIONS, positions) if p < 0]
        return f"the description lacks the part(s) {', '.join(missing)}"
    if positions != sorted(positions):
        return "the parts must come in the order INPUTS:, LOGICS:, OUTPUTS:"
    return None


def code_problem(text: str) -> str | None:
    """A description quotes code (backticks, operators, calls): a model cannot be asked to follow
    Python in disguise, so the writer is asked again and, failing that, the renderer takes over."""
    found = english.holds_code(text)
    if not found:
        return None
    return ("it quotes code (" + "; ".join(found[:3]) + "); say every step in plain English, "
            "without backticks, operators, calls or indexing brackets")


def from_labels(text: str) -> str:
    """Drop any preamble a model puts before `INPUTS:`."""
    start = text.find("INPUTS:")
    return text[start:].strip() + "\n" if start >= 0 else text


async def write_with_llm(llm: LLM, prompt_name: str, values: dict[str, str], settings: DescribeConfig,
                         stage: str) -> tuple[str | None, str]:
    """A description from the LLM that has the three parts (re-asked when it does not), or None and why."""
    prompt = load_prompt(prompt_name)
    messages = [{"role": "user", "content": prompt.render(**values)}]
    problem = "no reply"
    for _ in range(settings.llm_reasks + 1):
        try:
            reply = await llm.chat(messages, stage=stage, prompt_versions={prompt_name: prompt.hash})
        except LLMError as error:
            return None, str(error)
        problem = sections_problem(reply.text) or code_problem(reply.text)
        if problem is None:
            return from_labels(reply.text), ""
        messages = messages + [{"role": "assistant", "content": reply.text},
                               {"role": "user", "content": f"That cannot be used: {problem}. Write it again."}]
    return None, problem


async def run_llm(item: MeasuredFunction, llm: LLM, settings: DescribeConfig) -> Outcome[DescribedFunction]:
    function = item.executed.function
    text, problem = await write_with_llm(
        llm, "describe", {"function": function.instrumented_source,
                          "stats_keys": ", ".join(t.name for t in function.trackers)}, settings, STAGE)
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
