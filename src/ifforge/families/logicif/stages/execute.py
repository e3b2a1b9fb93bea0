"""Execute + filter stage: gold answers come from running code in the sandbox, never from a model.

Per function, five sandbox passes: the original seed, the instrumented `f` in the self-contained
form the rows export (codeops/instrument/self_contained.py: what LogicIF's executor runs: the gold), that `f`
again in a perturbed world (another hash seed and random seed, the cases run last to first,
counting the lines each executes), and twice more as the gold ran, each with a hash seed and random
seed of its own: gold that hangs on the hash seed (a text's `hash`, the order of a set of two
texts) agrees between two seeds half the time, between four an eighth. A gold case is confirmed
only when every confirming pass finished and agrees with it: a case that one of them did not
finish (it ran past its time, or the function's budget was spent) is dropped as `unconfirmed`.
The gold is what `f` returns on that input alone: code that
imports nothing runs its cases one after another in one process (each with fresh globals, fresh
builtins and its own time limit: it can reach nothing that outlives a case), anything else each case
in a process of its own (a standard module's classes and objects outlive a case); a gold case from
the shared process is kept only when the perturbed pass and the original agree with it, otherwise
it is run again alone before anything is decided. Code that reads the host or the clock never runs (the sandbox's
policy); gold a model cannot know (entropy, hash order, what an earlier case left) differs in the
perturbed pass: that case is dropped as `nondeterministic`, before the anonymised `f` is compared
with the original, which must give the
original's output on every input the original completes, or the whole item is dropped.
The original's pass runs its cases in one process (a fork per case cost a third of the stage): it
is only compared with the gold, never exported, and a case where it fails or disagrees with the
gold is run again alone before anything is dropped, so every drop rests on an isolated run. Then
LogicIF's case filters apply, and a function left with too few cases is dropped. Every drop is
recorded with its reason.
"""

from __future__ import annotations

from typing import Any

from ifforge.core.sandbox import execution as sandbox
from ifforge.core.store.versions import canonical_json
from ifforge.families.logicif.codeops.instrument.self_contained import NotSelfContained, self_contained
from ifforge.families.logicif.records import DroppedItem, ExecutedFunction, InstrumentedFunction, Outcome, TestCase
from ifforge.families.logicif.configs import ExecuteConfig
from ifforge.families.logicif.filters import case_problem

STAGE = "execute"
TRACE_SLOWDOWN = 4  # counting lines slows a call down; the perturbed pass gets this much more time
HASH_SEEDS = (2, 3)  # the hash and random seeds of the passes that confirm the gold beside the perturbed one (1)


def stats_problem(stats: Any, expected: list[str]) -> str | None:
    """Why a tracker dict is malformed, or None when it is fine."""
    if not isinstance(stats, dict):
        return f"stats is a {type(stats).__name__}, not a dict"
    if sorted(stats) != sorted(expected):
        return f"tracker keys {sorted(stats)} differ from {sorted(expected)}"
    for key, value in stats.items():
        if not isinstance(value, (int, float, bool)):
            return f"tracker {key!r} holds a {type(value).__name__}, not a number"
    return None


def _differs(result: sandbox.CaseResult, plain: sandbox.CaseResult) -> bool:
    return canonical_json(result.output) != canonical_json(plain.output) or result.output_type != plain.output_type


def _reaches_lasting_state(code: str, limits: sandbox.Limits) -> bool:
    """Whether a case of `code` could leave something a later case in the same process meets.
    Under the policy, code that imports nothing (no statement, no `__import__`: both say "import")
    sees only its fresh globals and a fresh set of builtins, whose types and functions cannot be
    changed; an imported module's classes and objects (an attribute set on `Counter`) outlive a case."""
    return not limits.policy or "import" in code


def _same(result: sandbox.CaseResult, again: sandbox.CaseResult) -> bool:
    """The perturbed pass confirms the gold: same status, output and trackers."""
    return again.status == result.status and (canonical_json([result.output, result.stats])
                                              == canonical_json([again.output, again.stats]))


def run(item: InstrumentedFunction, settings: ExecuteConfig) -> Outcome[ExecutedFunction]:
    limits, budget = settings.limits(), settings.budget()
    args = [test_input.args for test_input in item.inputs]
    try:
        exported = self_contained(item.instrumented_source)
    except NotSelfContained as error:
        return Outcome(dropped=[DroppedItem(task_id=item.task_id, stage=STAGE, reason="not_self_contained",
                                            detail=str(error))])
    evolved = item.evolved_turns > 0  # an evolved f computes something new: nothing to compare it with
    original = (sandbox.run_cases(item.original_source, item.original_entry, args, limits=limits, budget=budget)
                if not evolved else [sandbox.CaseResult(index=i, status="ok") for i in range(len(args))])

    def original_alone(index: int) -> sandbox.CaseResult:
        """The original on this case alone: asked only where the shared pass would drop something."""
        return sandbox.run_cases(item.original_source, item.original_entry, [args[index]], limits=limits,
                                 budget=budget, alone=True)[0]

    shared = not _reaches_lasting_state(exported, limits)
    tracked = sandbox.run_cases(exported, "f", args, tracked=True, limits=limits, budget=budget, alone=not shared)

    def tracked_alone(index: int) -> sandbox.CaseResult:
        """The gold on this case alone: asked where the shared pass's result is not confirmed."""
        return sandbox.run_cases(exported, "f", [args[index]], tracked=True, limits=limits, budget=budget,
                                 alone=True)[0]

    perturbed_limits = sandbox.Limits(**{**limits.__dict__, "hash_seed": 1, "random_seed": 1,
                                         "case_seconds": limits.case_seconds * TRACE_SLOWDOWN})
    perturbed = sandbox.run_cases(exported, "f", args, tracked=True, budget=budget,
                                  limits=perturbed_limits, reverse=True, count_steps=True)

    def reseeded(seed: int, indices: list[int], alone: bool) -> dict[int, sandbox.CaseResult]:
        """`f` on these cases as the gold ran, but with hash seed and random seed `seed`."""
        world = sandbox.Limits(**{**limits.__dict__, "hash_seed": seed, "random_seed": seed})
        results = sandbox.run_cases(exported, "f", [args[i] for i in indices], tracked=True, limits=world,
                                    budget=budget, alone=alone)
        return dict(zip(indices, results))

    finished = [index for index, result in enumerate(tracked) if result.ok]  # a failed gold needs no confirming
    worlds = {seed: reseeded(seed, finished, not shared) for seed in HASH_SEEDS}

    def confirming(index: int, again: sandbox.CaseResult) -> list[sandbox.CaseResult]:
        """The passes that must agree with this case's gold: the perturbed one and one per hash seed
        (asked alone for a gold that only its run alone finished)."""
        return [again, *(world[index] if index in world else reseeded(seed, [index], True)[index]
                         for seed, world in worlds.items())]

    tracker_names = [tracker.name for tracker in item.trackers]

    def drop(index: int, reason: str, detail: str) -> DroppedItem:
        line, made = item.inputs[index].line, item.inputs[index].origin
        return DroppedItem(task_id=item.task_id, stage=STAGE, reason=reason, detail=detail, test_case_id=index,
                           origin=f"input line {line}" if line else f"generated input ({made})" if made else None)

    dropped: list[DroppedItem] = []
    survivors: list[tuple[int, sandbox.CaseResult, int | None]] = []
    for index, (plain, result, again) in enumerate(zip(original, tracked, perturbed)):
        if shared and not (result.ok and _same(result, again)
                           and (evolved or (plain.ok and not _differs(result, plain)))):
            result = tracked_alone(index)  # every drop and every unconfirmed gold rests on an isolated run
        if not evolved and (not plain.ok or (result.ok and _differs(result, plain))):
            plain = original_alone(index)
        if not plain.ok:
            where = f" (seed line {plain.line})" if plain.line else ""
            dropped.append(drop(index, f"original_{plain.status}", plain.error + where))
            continue
        if not result.ok:
            dropped.append(drop(index, f"instrumented_{result.status}", result.error))
            continue
        others = confirming(index, again)
        unfinished = next((other for other in others if other.status == "timeout"), None)
        if unfinished is not None:
            dropped.append(drop(index, "unconfirmed", "a pass that must confirm the gold did not finish "
                                                      f"({unfinished.error[:200]}): no gold without it"))
            continue
        differing = next((other for other in others if not _same(result, other)), None)
        if differing is not None:
            dropped.append(drop(index, "nondeterministic",
                                "the result changes with entropy, the hash seed or what an earlier case did"
                                + (f" ({differing.status}: {differing.error[:200]})" if not differing.ok else "")))
            continue
        if not evolved and _differs(result, plain):
            detail = (f"input {canonical_json(args[index])[:200]}: original gave "
                      f"{canonical_json(plain.output)[:200]}, anonymised gave {canonical_json(result.output)[:200]}")
            return Outcome(dropped=[DroppedItem(task_id=item.task_id, stage=STAGE,
                                                reason="anonymisation_changed_output", detail=detail)])
        problem = stats_problem(result.stats, tracker_names)
        if problem:
            dropped.append(drop(index, "malformed_stats", problem))
            continue
        too_big = {k: v for k, v in result.stats.items() if not isinstance(v, bool) and v >= settings.max_tracker_value}
        if too_big:
            dropped.append(drop(index, "tracker_too_large",
                                f"{too_big} reaches the limit of {settings.max_tracker_value:g}"))
            continue
        problem = case_problem(args[index], result.output, settings)
        if problem:
            dropped.append(drop(index, *problem))
            continue
        survivors.append((index, result, again.steps))

    if len(survivors) < settings.min_cases:
        dropped.append(DroppedItem(task_id=item.task_id, stage=STAGE, reason="too_few_cases",
                                   detail=f"{len(survivors)} of {len(args)} cases left, {settings.min_cases} needed"))
        return Outcome(dropped=dropped)
    cases = [
        TestCase(test_case_id=number, input=args[index], output=result.output, stats=result.stats,
                 output_type=result.output_type, steps=steps, origin=item.inputs[index].origin)
        for number, (index, result, steps) in enumerate(survivors)
    ]
    return Outcome(kept=ExecutedFunction(function=item, cases=cases, exported_source=exported), dropped=dropped)
