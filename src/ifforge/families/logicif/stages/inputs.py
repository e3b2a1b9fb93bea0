"""Inputs stage: a seed with no (or too few) test inputs gets a small set that covers its branches.

Candidates come from the code (`codeops.inputs.candidates`: signature, constants, container shapes, seeded
randomness) and, with a model, from the model (`propose_inputs` prompt). Each runs in the sandbox
(the original seed, recording the arcs it takes); a candidate is kept only if it runs without
error, runs at most `input_max_steps` lines, no line of it runs `max_tracker_value` times or more
(no tracker counting loops or branches could pass execute's filter), and it passes execute's other
filters. When fewer than `inputs_min` pass, the errors of the failed runs teach the next round
(`codeops.inputs.lessons`: another type for a parameter an error names, values nearer the code's constants),
up to `LEARNED_ROUNDS` more rounds of as many candidates, while a round learns something new or
passes more than the one before. Then a coverage-guided search (`deepen`) changes the working calls
(`codeops.inputs.mutate`: relations between parameters, compared constants placed inside containers
and grids, longer values) for at most `SEARCH_ROUNDS` rounds of `SEARCH_BATCH` mutants, keeping a
mutant that reaches arcs no kept call reached, runs deeper than the call it came from, or gives a new
non-trivial output, within the same filters; up to `SEARCH_ROUNDS_MOST` rounds while fewer than two
non-trivial outputs, or fewer than `inputs_min` / 2 calls with one, were seen. A seed that would be
dropped then gets one more search (`rescue`, `codeops.inputs.rescue`: alphabets covered, table keys,
members of other arguments, grids sized by the code's loops; from the calls that raised when none
ran), and when that saved nothing, the calls its comparisons ask for at run time (`correspond`,
`codeops.inputs.compares`: a probe records the operands of its comparisons, and an operand that is a
value of the arguments gets the other in its place; with no working call, those that raised furthest down
the code first, and a call raising further down than the one it came from is probed in turn); a seed
whose every working call still returns one
output is dropped (`one_output`): its output says nothing of the steps, and one with no working call as
`no_working_inputs`.
Then a greedy set cover over arcs keeps between `inputs_min` and `inputs_max`: always the candidate
that adds the most arcs not yet covered (ties: the model's proposal, a non-trivial output, the
deeper run, then the seeded order), then every model proposal left while places remain (a
proposal loses its place only to calls that reach arcs it does not), then, up to the minimum,
candidates with outputs not yet seen, then the deepest; then, while most chosen outputs are trivial (None, empty, 0,
False, a list or dict handed back equal to an argument), calls with a non-trivial one, up to the maximum, and
then the trivial calls that added fewest arcs are let go, the code's before the model's (down to `FEWEST_KEPT`
calls). Code whose result may change with the hash or random seed has its choice run again under
others, as execute's confirming passes will (`settled`): calls that change leave, and it is made
again. Each input says where it came from, and the evidence says what became of each model proposal.
"""

from __future__ import annotations

import ast
import dataclasses
import random
from collections import Counter
from typing import Any

from pydantic import BaseModel

from ifforge.core import pyast
from ifforge.core.sandbox import execution as sandbox
from ifforge.core.llm.client import LLM, LLMError
from ifforge.core.prompts import load_prompt
from ifforge.core.store.versions import canonical_json, content_hash
from ifforge.core.untrusted import BadValue, check_value
from ifforge.families.logicif.codeops.inputs import compares
from ifforge.families.logicif.codeops.inputs.accepted import with_accepted
from ifforge.families.logicif.codeops.inputs.candidates import Candidate, Signature, candidates, describe_signature
from ifforge.families.logicif.codeops.inputs.lessons import Lessons, learn, taught
from ifforge.families.logicif.codeops.inputs.mutate import compared_constants, mutate, nesting
from ifforge.families.logicif.codeops.inputs.rescue import read_clues, rescue_mutant
from ifforge.families.logicif.configs import InputsConfig
from ifforge.families.logicif.records import DroppedItem, Outcome, SeedFunction, TestInput
from ifforge.families.logicif.filters import run_problem, trivial

STAGE = "inputs"
CANDIDATE_SECONDS = 0.5  # a candidate is meant to be quick; one that is not must not eat the budget
LEARNED_ROUNDS = 2  # rounds after the first, each taught by the errors of the rounds before
SEARCH_ROUNDS = 3  # rounds of the coverage-guided search after the candidates, of SEARCH_BATCH runs each;
SEARCH_ROUNDS_MOST = 12  # more, up to this, while fewer than two non-trivial outputs, or fewer than inputs_min / 2
# calls with one, were seen: at most 288 runs a seed
SEARCH_BATCH = 24
FEWEST_KEPT = 4  # trivial calls are let go to make them fewer than half, but not below this many calls
RESCUE_ROUNDS = 6  # rounds of SEARCH_BATCH rescue mutants for a seed that would be dropped (one more budget)
CORRESPOND_ROUNDS = 4  # rounds of calls the comparisons asked for, after a rescue that saved nothing
PROBES = 8  # calls probed a round (at most PROBES * CORRESPOND_ROUNDS in all)


def needs_inputs(seed: SeedFunction, config: InputsConfig) -> bool:
    return len(seed.inputs) < config.generate_inputs_below


def select(pool: list[tuple[Candidate, sandbox.CaseResult]], forced: int, minimum: int, maximum: int,
           rng: random.Random) -> list[tuple[int, int]]:
    """(index in pool, arcs it added) of the chosen: the first `forced` always, then a greedy cover
    of arcs, then new outputs up to `minimum`, then non-trivial outputs while most are trivial; then
    trivial ones let go while most still are."""
    arcs = [{tuple(arc) for arc in result.arcs} for _, result in pool]
    order = list(range(forced, len(pool)))
    rng.shuffle(order)  # the seeded order breaks the last ties: another seed, another set of the same reach
    rank = {index: place for place, index in enumerate(order)}
    plain = [trivial(result.output, candidate.args) for candidate, result in pool]
    model = [candidate.origin == "llm" for candidate, _ in pool]  # the model's proposals win ties
    depth = [result.steps or 0 for _, result in pool]
    chosen: list[tuple[int, int]] = []
    covered: set = set()
    for index in range(forced):
        chosen.append((index, len(arcs[index] - covered)))
        covered |= arcs[index]
    left = list(order)
    while left and len(chosen) < maximum:
        best = max(left, key=lambda i: (len(arcs[i] - covered), model[i], not plain[i], depth[i], -rank[i]))
        gain = arcs[best] - covered
        if not gain:
            break
        chosen.append((best, len(gain)))
        covered |= gain
        left.remove(best)
    left.sort(key=lambda i: (not model[i], plain[i], -depth[i], rank[i]))
    for index in [i for i in left if model[i]]:  # a proposal loses its place only to calls reaching more arcs
        if len(chosen) >= maximum:
            break
        chosen.append((index, 0))
        left.remove(index)
    outputs = {canonical_json(pool[i][1].output) for i, _ in chosen}
    for fresh_output_only in (True, False):
        for index in list(left):
            if len(chosen) >= minimum:
                break
            output = canonical_json(pool[index][1].output)
            if fresh_output_only and output in outputs:
                continue
            chosen.append((index, 0))
            outputs.add(output)
            left.remove(index)
    mostly_trivial = lambda: 2 * sum(plain[i] for i, _ in chosen) > len(chosen)  # noqa: E731
    for index in [i for i in left if not plain[i]]:
        if len(chosen) >= maximum or not mostly_trivial():
            break
        chosen.append((index, 0))
    while mostly_trivial() and len(chosen) > FEWEST_KEPT:  # then the trivial calls that added least go
        drop = min((place for place in range(forced, len(chosen)) if plain[chosen[place][0]]),
                   key=lambda place: (model[chosen[place][0]], chosen[place][1]), default=None)
        if drop is None:
            break
        del chosen[drop]
    return chosen


def settled(seed: SeedFunction, pool: list[tuple[Candidate, sandbox.CaseResult]], given: int, config: InputsConfig,
            limits: sandbox.Limits, item_seed: int) -> tuple[list[tuple[int, int]], list, int]:
    """`select`, then each chosen call run once more in another world (another hash seed and random
    seed, last to first), as execute's confirming passes will. When one gives another output or runs
    another number of lines there (execute would drop it as nondeterministic: the order of a set of
    texts, a shuffle), every other call of the pool is run so too, those that change leave it, and
    the choice is made again from the rest; when no generated call is left, the first choice stands
    and execute says why. Only code that `may_vary` is run again. Returns the choice, the pool it
    indexes and how many calls left it."""
    other = dataclasses.replace(limits, hash_seed=1, random_seed=1)
    chosen = select(pool, given, max(config.inputs_min, given), max(config.inputs_max, given), random.Random(item_seed))
    if not may_vary(seed.source):
        return chosen, pool, 0
    checked = [index for index, _ in chosen[given:]]
    moved = _unsettled(seed, pool, checked, other, config)
    if not moved:
        return chosen, pool, 0
    moved |= _unsettled(seed, pool, [i for i in range(given, len(pool)) if i not in checked], other, config)
    rest = [entry for index, entry in enumerate(pool) if index not in moved]
    if len(rest) == given:
        return chosen, pool, 0
    return select(rest, given, max(config.inputs_min, given), max(config.inputs_max, given),
                  random.Random(item_seed)), rest, len(moved)


VARYING = {"set", "frozenset", "hash", "id", "random"}  # what changes with the hash seed or the random seed


def may_vary(source: str) -> bool:
    """Whether a call of the code may give another result under another hash or random seed: it
    makes a set (iterated in an order of the hash of its items), asks for `hash` or `id`, or uses
    `random`. Code with none of these is not run again."""
    try:
        tree = pyast.parse(source)
    except SyntaxError:
        return True
    return any(isinstance(node, (ast.Set, ast.SetComp)) or isinstance(node, ast.Name) and node.id in VARYING
               or isinstance(node, ast.alias) and node.name.split(".")[0] in VARYING
               or isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in VARYING
               for node in ast.walk(tree))


def _unsettled(seed: SeedFunction, pool: list, indexes: list[int], limits: sandbox.Limits, config: InputsConfig) -> set[int]:
    """The calls among `indexes` whose output or number of lines run changes under `limits` (a timeout
    says nothing either way: kept)."""
    again = sandbox.run_cases(seed.source, seed.entry, [pool[i][0].args for i in indexes], limits=limits,
                              budget=config.budget(), reverse=True, coverage=True) if indexes else []
    return {index for index, result in zip(indexes, again) if result.status != "timeout" and not (
        result.ok and canonical_json(result.output) == canonical_json(pool[index][1].output)
        and result.steps == pool[index][1].steps)}


def _round(drawn, seen: set[str], seed: SeedFunction, limits, budget) -> list[tuple]:
    """One round of the search or the rescue: up to SEARCH_BATCH (parent, arguments) pairs from
    `drawn()` whose arguments were not seen before (added to `seen`; at most three times that many
    draws), each run once in the sandbox with coverage: (parent, arguments, result) triples."""
    batch = []
    for _ in range(SEARCH_BATCH * 3):
        if len(batch) >= SEARCH_BATCH:
            break
        parent, args = drawn()
        key = canonical_json(args)
        if key not in seen:
            seen.add(key)
            batch.append((parent, args))
    if not batch:
        return []
    results = sandbox.run_cases(seed.source, seed.entry, [args for _, args in batch], limits=limits,
                                budget=budget, coverage=True)
    return [(parent, args, result) for (parent, args), result in zip(batch, results)]


def deepen(seed: SeedFunction, pool: list[tuple[Candidate, sandbox.CaseResult]], given: int, config: InputsConfig,
           limits: sandbox.Limits, budget: sandbox.Budget, item_seed: int, first_parent: int | None = None) -> dict:
    """Coverage-guided search from the working calls (from `first_parent` on: the calls drawn after
    the errors corrected a parameter's type, when they did): mutants that reach new arcs, run deeper
    than their parent, or give a non-trivial output not seen yet (while fewer than `inputs_min` are),
    join the pool and are parents in turn. Returns what it did, for the evidence."""
    first_parent = given if first_parent is None else first_parent
    grown = len(pool)
    numbers, texts = compared_constants(seed.source)
    extra = nesting(seed.source)
    rng = random.Random(item_seed + 7919)
    covered = {tuple(arc) for _, result in pool for arc in result.arcs}
    seen = {canonical_json(candidate.args) for candidate, _ in pool}
    outputs = {canonical_json(result.output) for candidate, result in pool[given:]
               if not trivial(result.output, candidate.args)}
    tried = kept = 0
    for round_number in range(SEARCH_ROUNDS_MOST):
        parents = [*range(first_parent, grown), *range(grown, len(pool))]
        rich = sum(not trivial(result.output, candidate.args) for candidate, result in pool[given:])
        if not parents or budget.left() <= 0 or round_number >= SEARCH_ROUNDS and len(outputs) >= 2 \
                and 2 * rich >= config.inputs_min:
            break
        deepest = sorted(parents, key=lambda i: -(pool[i][1].steps or 0))[:4]

        def drawn() -> tuple[int, list]:
            parent = rng.choice(deepest if rng.random() < 0.5 else parents)
            return parent, mutate(pool[parent][0].args, rng, numbers, texts, extra)
        ran = _round(drawn, seen, seed, limits, budget)
        if not ran:
            break
        tried += len(ran)
        for parent, args, result in ran:
            if run_problem(args, result, config) is not None:
                continue
            arcs = {tuple(arc) for arc in result.arcs}
            deeper = (result.steps or 0) > (pool[parent][1].steps or 0) and not trivial(result.output, args)
            output = canonical_json(result.output)
            varied = output not in outputs and not trivial(result.output, args) and len(outputs) < config.inputs_min
            if arcs - covered or deeper or varied:
                covered |= arcs
                outputs.add(output)
                pool.append((Candidate(args, pool[parent][0].origin.removesuffix(", searched") + ", searched"), result))
                kept += 1
    return {"tried": tried, "kept": kept}


def _where(result: sandbox.CaseResult) -> str:
    """Where and what a call raised (`KeyError at 22`): a rescue mutant raising anew is a new parent."""
    return f"{result.error.split(':', 1)[0]} at {result.line}"


def _line(where: str) -> int:
    """The line a `_where` place names (0 when none)."""
    number = where.rsplit(" ", 1)[-1]
    return int(number) if number.isdigit() else 0


def _bare(pool: list[tuple[Candidate, sandbox.CaseResult]]) -> bool:
    """Whether calls ran and every one of them had no argument: a function taking `*items` that
    only the empty call does not refuse."""
    return bool(pool) and not any(candidate.args for candidate, _ in pool)


def rescue(seed: SeedFunction, pool: list[tuple[Candidate, sandbox.CaseResult]], raised: list[tuple[Candidate, str]],
           given: int, config: InputsConfig, limits: sandbox.Limits, item_seed: int) -> dict:
    """The last search for a seed that would be dropped, on a budget of its own (`codeops.inputs.rescue`).
    With no working call it starts from the calls that raised, and a mutant raising where or what
    none did before is a parent too; with one output, from the working calls, and from the calls
    that raised as well when every working call had no argument (`_bare`). A mutant joins the
    pool when it runs within the filters and gives an output fewer than `inputs_min` / 2 calls gave,
    or reaches new arcs; it stops once a second output has that many calls."""
    clues = read_clues(seed.source, seed.entry)
    rng = random.Random(item_seed + 104729)
    budget = config.budget()
    parents = [(candidate, result.steps or 0) for candidate, result in pool[given:]] \
        or [(candidate, 0) for candidate, _ in raised]
    bare = _bare(pool[given:])
    if bare:  # only calls with no argument ran (`f(*items)` with none): the calls that raised have values to change
        parents += [(candidate, 0) for candidate, _ in raised]
    errors = {where for _, where in raised}
    outputs = Counter(canonical_json(result.output) for _, result in pool[given:])
    covered = {tuple(arc) for _, result in pool for arc in result.arcs}
    seen = {canonical_json(candidate.args) for candidate, _ in parents}
    enough = max(2, config.inputs_min // 2)
    tried = kept = 0
    for _ in range(RESCUE_ROUNDS):
        if not parents or budget.left() <= 0 or len(outputs) >= 2 and sorted(outputs.values())[-2] >= enough:
            break
        deepest = [candidate for candidate, _ in sorted(parents, key=lambda p: -p[1])[:4]]

        def drawn() -> tuple[Candidate, list]:
            parent = rng.choice(deepest) if rng.random() < 0.5 else rng.choice(parents)[0]
            return parent, rescue_mutant(parent.args, rng, clues, repair=not outputs or bare)
        ran = _round(drawn, seen, seed, limits, budget)
        if not ran:
            break
        tried += len(ran)
        for parent, args, result in ran:
            child = Candidate(args, parent.origin.removesuffix(", rescued") + ", rescued")
            why = run_problem(args, result, config)
            if why == "exception" and len(pool) == given and _where(result) not in errors:
                errors.add(_where(result))
                parents.append((child, 0))
            if why is None and _joins(result, outputs, covered, enough):
                pool.append((child, result))
                parents.append((child, result.steps or 0))
                kept += 1
    return {"tried": tried, "kept": kept}


def _joins(result: sandbox.CaseResult, outputs: Counter, covered: set, enough: int) -> bool:
    """The rescue's terms for a working call to join the pool: an output fewer than `enough` calls
    gave, or arcs no call reached; the counts are updated when it joins."""
    output, arcs = canonical_json(result.output), {tuple(arc) for arc in result.arcs}
    if outputs[output] >= enough and not arcs - covered:
        return False
    outputs[output] += 1
    covered |= arcs
    return True


def probe_order(working: list[tuple[Candidate, sandbox.CaseResult]], raised: list[tuple[Candidate, str]]) -> list:
    """The calls `correspond` probes, in order: the working calls (deepest first), then those that raised
    (furthest down first); but first up to PROBES / 2 calls that raised on a line no working call
    reached: they got past a check every working call stopped at (`t == "*"` let the loop reach
    `params["q"]`, which raised), so what they compare there is what the one output lacks."""
    reached = {line for _, result in working for arc in result.arcs or () for line in arc}
    beyond = [candidate for candidate, where in raised if working and _line(where) not in reached]
    return beyond[:PROBES // 2] + [candidate for candidate, _ in working] + [candidate for candidate, _ in raised]


def correspond(seed: SeedFunction, pool: list[tuple[Candidate, sandbox.CaseResult]],
               raised: list[tuple[Candidate, str]], given: int, config: InputsConfig, limits: sandbox.Limits,
               item_seed: int) -> dict | None:
    """The search after the rescue, for a seed it left with one output or no working call: inputs the
    code asks for while it runs (`codeops.inputs.compares`). Each parent (the deepest working calls
    first, then the calls that raised) runs once in the sandbox as a probe recording its comparisons;
    each operand that is a value of the call's arguments gives calls with the other operand in its
    place, each also without the arguments that have defaults (a default JSON cannot give: a tuple),
    run on the unchanged seed. One joins the pool on `rescue`'s terms (an output fewer than
    `inputs_min` / 2 calls gave, or new arcs), and it or one that raised where or what no call did
    before is probed in turn; up to `CORRESPOND_ROUNDS` rounds. None when the code cannot be rewritten."""
    probe = compares.probe_source(seed.source, seed.entry)
    if probe is None:
        return None
    required = Signature(seed.source, seed.entry).required
    rng = random.Random(item_seed + 15485863)
    budget = config.budget()
    working = sorted(pool[given:], key=lambda entry: -(entry[1].steps or 0))  # the deepest calls first
    line_of = {canonical_json(candidate.args): _line(where) for candidate, where in raised}
    deepest = sorted(raised, key=lambda entry: -_line(entry[1]))  # a check further down passed more before it
    queue = probe_order(working, deepest)
    errors = {where for _, where in raised}
    outputs = Counter(canonical_json(result.output) for _, result in pool[given:])
    covered = {tuple(arc) for _, result in pool for arc in result.arcs}
    seen = {canonical_json(candidate.args) for candidate, _ in pool} | {canonical_json(c.args) for c, _ in raised}
    enough = max(2, config.inputs_min // 2)
    probed: set[str] = set()
    tried = kept = 0
    rounds = 0
    while rounds < CORRESPOND_ROUNDS and len(probed) < PROBES * CORRESPOND_ROUNDS:
        if budget.left() <= 0 or len(outputs) >= 2 and sorted(outputs.values())[-2] >= enough:
            break
        fresh = []
        while queue and len(fresh) < PROBES:
            candidate = queue.pop(0)
            if canonical_json(candidate.args) not in probed:
                probed.add(canonical_json(candidate.args))
                fresh.append(candidate)
        if not fresh:
            break
        records = sandbox.run_cases(probe, compares.PROBE, [c.args for c in fresh], limits=limits, budget=budget)
        batch = []
        for parent, record in zip(fresh, records):
            if not record.ok or not isinstance(record.output, list):
                continue
            for made in compares.suggestions(parent.args, record.output, rng):
                for args in (made, made[:required]):  # and with the code's own defaults (a tuple JSON cannot give)
                    key = canonical_json(args)
                    if key not in seen:
                        seen.add(key)
                        batch.append((parent, args))
        batch = batch[:SEARCH_BATCH * 2]
        if not batch:  # these calls compared nothing the arguments hold: probe the next ones
            continue
        rounds += 1
        results = sandbox.run_cases(seed.source, seed.entry, [args for _, args in batch], limits=limits,
                                    budget=budget, coverage=True)
        tried += len(batch)
        for (parent, args), result in zip(batch, results):
            child = Candidate(args, parent.origin.removesuffix(", compared") + ", compared")
            why = run_problem(args, result, config)
            if why == "exception" and (_where(result) not in errors or (result.line or 0) > line_of.get(
                    canonical_json(parent.args), float("inf"))):  # raised anew, or further down than its parent
                errors.add(_where(result))
                line_of[canonical_json(args)] = result.line or 0
                queue.insert(0, child)
            if why is None and _joins(result, outputs, covered, enough):
                pool.append((child, result))
                queue.insert(0, child)
                kept += 1
    return {"tried": tried, "kept": kept, "probed": len(probed)}


WIDENED = ("no_working_inputs", "one_output")  # the drops after which the parameters are read wider


def generate(seed: SeedFunction, config: InputsConfig, proposed: list[Candidate] = (),
             notes: list[str] = ()) -> Outcome[SeedFunction]:
    """The seed with its given inputs and a covering set of generated ones; or a drop saying why none ran.
    A seed dropped with no working call or one output, or left with fewer calls than execute's
    `min_cases`, whose parameters the wider reading (`codeops.inputs.wider`) gives other kinds, is
    tried once more with those (kept when it keeps the seed, or more calls): every seed that works
    with the plain reading keeps its inputs."""
    plain = _generate(seed, config, proposed, notes)
    few = plain.kept is not None and len(plain.kept.inputs) < config.min_cases  # execute would drop it
    if not few and (plain.kept is not None or plain.dropped[0].reason not in WIDENED) or not _widens(seed):
        return plain
    ended = f"{len(plain.kept.inputs)} calls, fewer than {config.min_cases}" if few else plain.dropped[0].reason
    wide = _generate(seed, config, proposed, [*notes, f"the parameters' kinds were read wider (the plain reading ended: "
                                              f"{ended})"], wider=True)
    if few:
        return wide if wide.kept is not None and len(wide.kept.inputs) > len(plain.kept.inputs) else plain
    return wide if wide.kept is not None else plain


def _widens(seed: SeedFunction) -> bool:
    """Whether the wider reading gives a parameter another kind, constants or a default left out."""
    try:
        wide = Signature(seed.source, seed.entry, wider=True).parameters
        return wide != Signature(seed.source, seed.entry).parameters or any(p.alternative for p in wide)
    except (SyntaxError, ValueError, RecursionError):
        return False


def _generate(seed: SeedFunction, config: InputsConfig, proposed: list[Candidate], notes: list[str],
              wider: bool = False) -> Outcome[SeedFunction]:
    item_seed = int(content_hash(config.input_seed, seed.task_id)[:12], 16)
    try:
        made = with_accepted(seed.source, seed.entry, candidates(seed.source, seed.entry, item_seed,
                                                                 config.input_candidates, wider=wider), item_seed)
    except (SyntaxError, ValueError, RecursionError) as error:
        return Outcome(dropped=[DroppedItem(task_id=seed.task_id, stage=STAGE, reason="no_working_inputs",
                                            detail=f"cannot read the signature of {seed.entry}: {error}",
                                            origin=seed.origin)])
    parameters = Signature(seed.source, seed.entry, wider).parameters
    lines = seed.source.splitlines()
    given = [Candidate(list(i.args), "given") for i in seed.inputs]
    seen: set[str] = set()
    limits = sandbox.Limits(case_seconds=min(config.case_seconds, CANDIDATE_SECONDS),
                            memory_bytes=config.memory_mb << 20)
    rejected: Counter = Counter()
    first_error: dict[str, str] = {}
    pool: list[tuple[Candidate, sandbox.CaseResult]] = []
    ran: Counter = Counter()  # the origins of the candidates run, the given ones aside
    rounds: list[dict] = []
    lessons: Lessons | None = None
    raised: list[tuple[Candidate, str]] = []  # the calls that raised, with where and what: a rescue's parents
    search_budget = config.budget()
    fates: dict[str, str] = {canonical_json(c.args): "same as an earlier call" for c in proposed}
    batch = [*given, *proposed, *made]
    starts: list[int] = []  # where each round's calls begin in the pool
    for round_number in range(1 + LEARNED_ROUNDS):
        starts.append(len(pool))
        fresh = []
        for candidate in batch:
            key = canonical_json(candidate.args)
            if key not in seen or candidate.origin == "given":
                seen.add(key)
                fresh.append(candidate)
        results = sandbox.run_cases(seed.source, seed.entry, [c.args for c in fresh], limits=limits,
                                    budget=config.budget(), coverage=True)
        failures = []
        for candidate, result in zip(fresh, results):
            is_given = candidate.origin == "given"
            ran[candidate.origin] += not is_given
            why = run_problem(candidate.args, result, config)
            if candidate.origin == "llm":
                fates[canonical_json(candidate.args)] = f"rejected: {why}" if why else "ran"
            if why is None or is_given:  # given inputs stay: execute judges them as before
                pool.append((candidate, result if why is None else sandbox.CaseResult(index=result.index, status="ok",
                                                                                      arcs=[])))
                continue
            rejected[why] += 1
            if why == "exception" and result.error:  # an output that is no JSON says nothing about the inputs
                failures.append((candidate.args, result.error, lines[result.line - 1] if result.line else ""))
                raised.append((candidate, _where(result)))
            if result.error and why not in first_error:
                first_error[why] = result.error[:200] + (f" (seed line {result.line})" if result.line else "")
        rounds.append({"candidates": len(fresh) - (len(given) if round_number == 0 else 0),
                       "passed": len(pool) - len(given), **({"lessons": lessons.summary()} if lessons else {})})
        varied = len({canonical_json(result.output) for _, result in pool[len(given):]}) > 1
        if len(pool) - len(given) >= config.inputs_min and varied or round_number == LEARNED_ROUNDS:
            break  # enough calls, and not all of one output: calls that all end at one early exit learn on
        learned = learn(parameters, failures, lessons)
        if not taught(lessons, learned) and not (len(rounds) > 1 and rounds[-1]["passed"] > rounds[-2]["passed"]):
            break  # nothing new to try, and the last lessons did not help: another draw would not either
        lessons = learned
        batch = with_accepted(seed.source, seed.entry, candidates(seed.source, seed.entry, item_seed + round_number + 1,
                                                                  config.input_candidates, lessons, wider),
                              item_seed, lessons)
    rescued = rescue(seed, pool, raised, len(given), config, limits, item_seed) if len(pool) == len(given) else None
    compared = correspond(seed, pool, raised, len(given), config, limits, item_seed) \
        if len(pool) == len(given) else None
    if len(pool) == len(given):
        reasons = ", ".join(f"{why} {n}" + (f" (first: {first_error[why]})" if why in first_error else "")
                            for why, n in rejected.most_common())
        return Outcome(dropped=[DroppedItem(task_id=seed.task_id, stage=STAGE, reason="no_working_inputs",
                                            detail=f"none of {sum(ran.values())} candidate inputs "
                                                   f"in {len(rounds)} round{'s' if len(rounds) > 1 else ''} "
                                                   f"passed: {reasons or 'no candidates'}"
                                                   + (f"; none of {rescued['tried']} rescue mutants ran either"
                                                      if rescued and rescued['tried'] else "")
                                                   + (f", nor {compared['tried']} calls the comparisons asked for"
                                                      if compared and compared['tried'] else ""),
                                            origin=seed.origin)])
    retyped = [start for start, end in zip(starts[1:], [*starts[2:], len(pool)]) if end > start] \
        if lessons and lessons.shapes else []  # the last round that passed calls after a type was corrected
    searched = deepen(seed, pool, len(given), config, limits, search_budget, item_seed,
                      retyped[-1] if retyped else None)
    if not given and len({canonical_json(result.output) for _, result in pool}) == 1:
        rescued = rescue(seed, pool, raised, len(given), config, limits, item_seed)
    if not given and len({canonical_json(result.output) for _, result in pool}) == 1 and compared is None:
        compared = correspond(seed, pool, raised, len(given), config, limits, item_seed)
    if not given and len({canonical_json(result.output) for _, result in pool}) == 1:
        return Outcome(dropped=[DroppedItem(
            task_id=seed.task_id, stage=STAGE, reason="one_output",
            detail=f"all {len(pool)} working calls (after {searched['tried']} tried by the search and "
                   f"{rescued['tried']} by the rescue"
                   + (f", {compared['tried']} asked for by its comparisons" if compared and compared['tried'] else "")
                   + f") returned {canonical_json(pool[0][1].output)[:80]}: "
                   "the output says nothing of the steps", origin=seed.origin)])
    chosen, pool, unsettled = settled(seed, pool, len(given), config, limits, item_seed)
    inputs = list(seed.inputs) + [TestInput(args=pool[index][0].args, origin=pool[index][0].origin)
                                  for index, _ in chosen[len(given):]]
    every_arc = {tuple(arc) for _, result in pool for arc in result.arcs}
    kept_arcs = {tuple(arc) for index, _ in chosen for arc in pool[index][1].arcs}
    report = {"input_seed": config.input_seed, "candidates": sum(ran.values()), "from": dict(ran),
              "passed": len(pool) - len(given), "rejected": dict(rejected), "first_error": first_error,
              "arcs_covered": len(kept_arcs), "arcs_seen": len(every_arc),
              "rounds": rounds, "search": searched, **({"rescue": rescued} if rescued else {}),
              **({"compared": compared} if compared else {}),
              **({"unsettled": unsettled} if unsettled else {}),
              "chosen": [{"args": pool[index][0].args, "origin": pool[index][0].origin, "new_arcs": gain}
                         for index, gain in chosen], "notes": list(notes),
              "proposals": proposal_fates(proposed, fates, {canonical_json(pool[i][0].args) for i, _ in chosen},
                                          len(inputs) >= max(config.inputs_max, len(given)))}
    return Outcome(kept=seed.model_copy(update={"inputs": inputs}), evidence=[report])


def proposal_fates(proposed: list[Candidate], fates: dict[str, str], kept: set[str], full: bool) -> list[dict]:
    """What became of each of the model's proposals: kept, ran but not kept (why), rejected (why), or a repeat."""
    found, earlier = [], set()
    for candidate in proposed:
        key = canonical_json(candidate.args)
        fate = "same as an earlier proposal" if key in earlier else fates.get(key, "not run")
        earlier.add(key)
        if fate == "ran":
            fate = "kept" if key in kept else (
                "ran, not kept: every place went to a call reaching arcs it does not, or to a deeper proposal"
                if full else "ran, not kept: let go, its output is trivial while most kept outputs were")
        found.append({"args": candidate.args, "fate": fate})
    return found


def run(seed: SeedFunction, config: InputsConfig) -> Outcome[SeedFunction]:
    return generate(seed, config) if needs_inputs(seed, config) else Outcome(kept=seed)


class InputsReply(BaseModel):
    inputs: list[list[Any]]


def proposals(seed: SeedFunction, reply: InputsReply) -> tuple[list[Candidate], list[str]]:
    """The model's calls that fit the signature and are storable values; notes on the rest."""
    signature = Signature(seed.source, seed.entry)
    total, notes, found = signature.most, [], []
    for number, args in enumerate(reply.inputs, start=1):
        if not signature.required <= len(args) <= total:
            takes = f"{signature.required} to {total}" if total < float("inf") else f"at least {signature.required}"
            notes.append(f"model input {number}: {len(args)} arguments, {seed.entry} takes {takes}")
            continue
        try:
            check_value(args)
        except BadValue as error:
            notes.append(f"model input {number} {error}")
            continue
        found.append(Candidate(args, "llm"))
    return found, notes


async def run_llm(seed: SeedFunction, llm: LLM, config: InputsConfig) -> Outcome[SeedFunction]:
    """The model proposes calls too; they compete with the code's candidates for coverage."""
    if not needs_inputs(seed, config):
        return Outcome(kept=seed)
    prompt = load_prompt("propose_inputs")
    notes: list[str] = []
    proposed: list[Candidate] = []
    try:
        signature = describe_signature(seed.source, seed.entry)
        messages = [{"role": "user", "content": prompt.render(source=seed.source, entry=seed.entry,
                                                               signature=signature, count=config.inputs_max)}]
        reply, _ = await llm.chat_json(messages, InputsReply, stage=STAGE,
                                       prompt_versions={"propose_inputs": prompt.hash})
        proposed, notes = proposals(seed, reply)
    except LLMError as error:
        notes.append(f"no inputs from the model: {str(error)[:300]}")
    except (SyntaxError, ValueError) as error:
        notes.append(f"cannot read the signature: {error}")
    return await sandbox.off_loop(generate, seed, config, proposed, notes)
