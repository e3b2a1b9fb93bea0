"""Evolve stage (LLM only): n turns, each asking for a logically harder `f` with the same signature.

Unlike the original pipeline, a turn is checked: the new `f` must keep the signature and run on
every test input in the sandbox, returning `(output, trackers)` whose trackers tell something on
those inputs (shown in the prompt, with every check: the `tracker_rules` prompt) and whose names hold
none of the seed's domain words. A refused answer is sent back with the reason (`llm_reasks` times);
a turn that still fails keeps the previous version, and the item's notes say why.
"""

from __future__ import annotations


from pydantic import BaseModel

from ifforge.core.sandbox import execution as sandbox
from ifforge.core.llm.client import LLM
from ifforge.core.prompts import load_prompt
from ifforge.families.logicif.records import InstrumentedFunction, Outcome, Tracker
from ifforge.families.logicif.configs import EvolveConfig
from ifforge.families.logicif import checks
from ifforge.families.logicif.checks import TrackerReply, informative
from ifforge.families.logicif.codeops.common.domain import domain_words

STAGE = "evolve"


class EvolveReply(BaseModel):
    function: str
    trackers: list[TrackerReply]
    change: str = ""


def turn_problem(current: InstrumentedFunction, reply: EvolveReply, settings: EvolveConfig) -> str | None:
    limits, budget = settings.limits(), settings.budget()
    try:
        before, after = checks.signature(current.instrumented_source, "f"), checks.signature(reply.function, "f")
    except SyntaxError as error:
        return f"the code does not parse: {error.msg} (line {error.lineno})"
    if after is None:
        return "there is no top-level function named f"
    if before != after:
        return f"the signature changed from f({before}) to f({after})"
    args, names = [i.args for i in current.inputs], [t.name for t in reply.trackers]
    problem = checks.tracked_function_problem(reply.function, args, names, limits=limits, budget=budget,
                                              judge=informative(names, args, settings))
    if problem:
        return problem
    reseeded = sandbox.Limits(**{**limits.__dict__, "hash_seed": 1})
    args = [i.args for i in current.inputs]
    first = sandbox.run_cases(reply.function, "f", args, tracked=True, limits=limits, budget=budget)
    second = sandbox.run_cases(reply.function, "f", args, tracked=True, limits=reseeded, budget=budget)
    if [(r.output, r.stats) for r in first] != [(r.output, r.stats) for r in second]:
        return "the results change from run to run (set or hash order leaks into them)"
    return None


async def run_llm(item: InstrumentedFunction, llm: LLM, settings: EvolveConfig) -> Outcome[InstrumentedFunction]:
    prompt = load_prompt("evolve")
    versions = {"evolve": prompt.hash, "tracker_rules": load_prompt("tracker_rules").hash}
    words = domain_words(item.original_source, item.task_id)
    rules = checks.tracker_rules([i.args for i in item.inputs], settings, words)
    current = item
    notes = list(item.notes)
    for turn in range(1, settings.evolve_turns + 1):
        messages = [{"role": "user", "content": prompt.render(
            function=current.instrumented_source, trackers=", ".join(t.name for t in current.trackers),
            tracker_rules=rules)}]

        async def problem_of(reply: EvolveReply, current=current) -> str | None:
            return await sandbox.off_loop(turn_problem, current, reply, settings) or \
                checks.tracker_names_problem([t.name for t in reply.trackers], words)

        asked = await llm.chat_checked(messages, EvolveReply, stage=STAGE, prompt_versions=versions,
                                       reasks=settings.llm_reasks, again=checks.CODE_AGAIN, check=problem_of)
        reply, problem, tries = asked.reply, asked.problem, f"after {asked.tries_said}"
        if problem is not None:
            notes.append(f"evolve turn {turn} rejected {tries}, previous version kept: {problem[:300]}")
            continue
        current = current.model_copy(update={
            "instrumented_source": reply.function,
            "trackers": [Tracker(name=t.name, kind="llm", explanation=t.explanation) for t in reply.trackers],
            "evolved_turns": current.evolved_turns + 1,
            "path": "llm",
        })
        notes.append(f"evolve turn {turn} kept {tries}: {reply.change[:300]}")
    return Outcome(kept=current.model_copy(update={"notes": notes}))
