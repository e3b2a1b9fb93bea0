"""Anonymise + instrument stage: seed -> `f` returning (output, trackers).

Deterministic path (`run`): libcst renaming, then trackers picked by running the cases: every
candidate counter goes into one probe version of f, run once in the sandbox, and the 1 to 3 that
tell something on the cases execute will keep (none equal to a number f already returns, such as a
seed's own counters) are written into f (codeops/instrument/trackers.py). Whether
the rewriting kept the behaviour is checked by execution in the execute stage. LLM path
(`run_llm`): the model rewrites the function, told every check its answer must pass (the
`tracker_rules` prompt, with the inputs); the answer is kept only if it passes them (`checks.py`):
the original's outputs, no original name, trackers that tell something on the same cases, and
tracker names free of the seed's domain words.
"""

from __future__ import annotations


import libcst as cst
from pydantic import BaseModel

from ifforge.core.workers import in_worker
from ifforge.core.sandbox import execution as sandbox
from ifforge.families.logicif.codeops.common.domain import domain_words
from ifforge.families.logicif.codeops.instrument.anonymise import anonymise
from ifforge.families.logicif.codeops.instrument.trackers import (NothingInformative, NothingToTrack, build, choose,
                                                                  propose, returned_counters)
from ifforge.core.pysource import strip_comments_and_docstrings
from ifforge.core.llm.client import LLM
from ifforge.core.prompts import load_prompt
from ifforge.families.logicif.records import DroppedItem, InstrumentedFunction, Outcome, SeedFunction, Tracker
from ifforge.families.logicif.configs import InstrumentConfig, TrackerConfig
from ifforge.families.logicif import checks
from ifforge.families.logicif.checks import TrackerReply, informative, kept_cases

STAGE = "instrument"


def run(seed: SeedFunction, settings: TrackerConfig) -> Outcome[InstrumentedFunction]:
    def dropped(reason: str, detail: str) -> Outcome[InstrumentedFunction]:
        return Outcome(dropped=[DroppedItem(task_id=seed.task_id, stage=STAGE, reason=reason, detail=detail,
                                            origin=seed.origin)])

    try:
        anonymised = anonymise(seed.source, seed.entry)
        probe = propose(anonymised.source, anonymised.module)
    except NothingToTrack as error:
        return dropped("nothing_to_track", str(error))
    except (cst.ParserSyntaxError, ValueError) as error:  # too deep (RecursionError): the runner drops it so
        return dropped("instrument_failed", f"{type(error).__name__}: {error}")
    args = [i.args for i in seed.inputs]
    results = sandbox.run_cases(probe.source, "f", args, limits=settings.limits(), budget=settings.budget())
    cases, lost = kept_cases(results, args, settings, tracked=False)
    returned = [returned_counters(result.output[0]) for arguments, result in zip(args, results)
                if kept_cases([result], [arguments], settings, tracked=False)[0]]  # aligned with `cases`
    if len(cases) < settings.min_cases:
        return dropped("too_few_cases", f"the probe of {len(probe.candidates)} candidate trackers kept {len(cases)} "
                                        f"of {len(args)} cases, {settings.min_cases} needed; first lost: "
                                        f"{lost[0] if lost else '-'}")
    by_id = {key: candidate for candidate, key in probe.keys.items()}
    cases = [(arguments, {by_id[k]: v for k, v in stats.items() if k in by_id}) for arguments, stats in cases]
    try:
        chosen = choose(probe.candidates, cases, settings.max_tracker_value, returned)
        instrumented, trackers = build(probe, chosen)
    except NothingInformative as error:
        return dropped("no_informative_tracker", str(error))
    except (cst.ParserSyntaxError, ValueError) as error:  # too deep (RecursionError): the runner drops it so
        return dropped("instrument_failed", f"{type(error).__name__}: {error}")
    return Outcome(kept=InstrumentedFunction(
        task_id=seed.task_id,
        original_source=seed.source,
        original_entry=seed.entry,
        anonymised_source=anonymised.source,
        instrumented_source=instrumented,
        renames=anonymised.renames,
        trackers=trackers,
        inputs=seed.inputs,
        notes=[f"{len(trackers)} of {len(probe.candidates)} candidate trackers kept, judged on {len(cases)} cases"],
    ))


class AnonymiseReply(BaseModel):
    function: str
    trackers: list[TrackerReply]


def llm_problem(seed: SeedFunction, reply: AnonymiseReply, expected: list[sandbox.CaseResult],
                settings: InstrumentConfig) -> str | None:
    """Why an LLM's anonymised + instrumented function cannot be kept, or None. Its trackers are
    judged like the deterministic path's candidates, on the same run of the cases (no extra pass)."""
    args = [i.args for i in seed.inputs]
    names = [t.name for t in reply.trackers]
    problem = checks.tracked_function_problem(reply.function, args, names, expected=expected,
                                              limits=settings.limits(), budget=settings.budget(),
                                              judge=informative(names, args, settings))
    if problem:
        return problem
    leaked = sorted(checks.author_names(seed.source) & checks.identifiers(reply.function))
    if leaked:
        return f"these names of the original are still there: {', '.join(leaked)}"
    return checks.tracker_names_problem(names, domain_words(seed.source, seed.task_id))


async def run_llm(seed: SeedFunction, llm: LLM, settings: InstrumentConfig) -> Outcome[InstrumentedFunction]:
    """Ask the LLM to anonymise and add trackers; check the answer by running it; re-ask with the
    problem (bounded); fall back to the deterministic path, saying why."""
    args = [i.args for i in seed.inputs]
    reference = await sandbox.off_loop(sandbox.run_cases, seed.source, seed.entry, args, limits=settings.limits(),
                                       budget=settings.budget())
    prompt = load_prompt("anonymise")
    rules = checks.tracker_rules(args, settings, domain_words(seed.source, seed.task_id))
    messages = [{"role": "user", "content": prompt.render(source=strip_comments_and_docstrings(seed.source),
                                                           entry=seed.entry, tracker_rules=rules)}]
    versions = {"anonymise": prompt.hash, "tracker_rules": load_prompt("tracker_rules").hash}
    asked = await llm.chat_checked(
        messages, AnonymiseReply, stage=STAGE, prompt_versions=versions, reasks=settings.llm_reasks,
        again=checks.CODE_AGAIN, check=lambda reply: sandbox.off_loop(llm_problem, seed, reply, reference, settings))
    reply, problem = asked.reply, asked.problem
    if problem is None:
        return Outcome(kept=InstrumentedFunction(
            task_id=seed.task_id, original_source=seed.source, original_entry=seed.entry,
            anonymised_source=reply.function, instrumented_source=reply.function, renames={},
            trackers=[Tracker(name=t.name, kind="llm", explanation=t.explanation) for t in reply.trackers],
            inputs=seed.inputs, path="llm", notes=[f"LLM answer kept after {asked.tries_said}"],
        ))
    fallback = await in_worker(Outcome[InstrumentedFunction], run, seed, settings)  # libcst: off the run's GIL
    note = f"LLM anonymisation not used ({problem[:300]}); deterministic anonymiser took over"
    if fallback.kept is not None:
        return Outcome(kept=fallback.kept.model_copy(update={"notes": [*fallback.kept.notes, note]}),
                       dropped=fallback.dropped)
    return fallback
