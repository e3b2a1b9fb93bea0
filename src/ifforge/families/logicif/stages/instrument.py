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

When no candidate tells something on the cases and some cases were generated, the cases may be what
is at fault (every generated call of one size, so every count is the same): other calls are drawn
as the inputs stage draws them (the code's candidates, changes of the cases), run on the probe, and
the one that, put in place of one generated case, lets the most varied trackers be chosen is swapped
in (`_other_case`). A seed whose trackers tell something on its cases never reaches this. Only when
that fails too are the last-resort trackers judged (`_last_resort`: items that count as false), on
the cases, then on a call swapped in. Last of all, the calls swapped in may be rescue changes of the
cases (`_related_calls`): a loop or branch that waits on a relation between arguments (a value that
is a key of another, a graph whose lists name its nodes) is walked by no random call; then the
cases' texts given characters of the code's own texts (`_table_calls`), and last changes aimed at a
test no drawn value passes (`_aimed_calls`: a whole number given a fraction where the code asks
`x != int(x)`, a character of the code's texts put at a text's end or start, a unit or sign).

A seed left with fewer generated cases than `min_cases` (code that works on few values of a wide
kind, a letter of a fixed alphabet) is first given calls drawn by these same ways that work and give
an output no case gave (`_grown`), up to `GROWN_CASES` cases; given cases are never added to.

A seed dropped as `nothing_to_track` or `no_informative_tracker` is tried once more on the same
anonymised code made countable: a helper `f` calls through a module-level alias (`_search = search`)
called by its own name, so it can move into `f` (codeops/instrument/aliases.py); then the methods of
the module's classes counted where they are (a class stays at module level, so `f` makes `stats`
global for their counters). Only seeds dropped before get here, so no kept seed changes.
"""

from __future__ import annotations

import ast
import copy
import random

import libcst as cst
from pydantic import BaseModel

from ifforge.core.store.versions import canonical_json, content_hash
from ifforge.core.workers import in_worker
from ifforge.core.sandbox import execution as sandbox
from ifforge.families.logicif.codeops.common.domain import domain_words
from ifforge.families.logicif.codeops.instrument.aliases import unaliased
from ifforge.families.logicif.codeops.instrument.anonymise import Anonymised, anonymise
from ifforge.families.logicif.codeops.instrument.trackers import (NothingInformative, NothingToTrack, build, choose,
                                                                  propose, returned_counters)
from ifforge.core import pyast
from ifforge.core.pysource import strip_comments_and_docstrings
from ifforge.core.llm.client import LLM
from ifforge.core.prompts import load_prompt
from ifforge.families.logicif.codeops.inputs.accepted import with_accepted
from ifforge.families.logicif.codeops.inputs.candidates import candidates as drawn_calls
from ifforge.families.logicif.codeops.inputs.mutate import _get, _paths, _set, compared_constants, mutate
from ifforge.families.logicif.codeops.inputs.relations import linked, without_asked_key
from ifforge.families.logicif.codeops.inputs.rescue import read_clues, rescue_mutant
from ifforge.families.logicif.records import (DroppedItem, InstrumentedFunction, Outcome, SeedFunction, TestInput,
                                              Tracker)
from ifforge.families.logicif.configs import InstrumentConfig, TrackerConfig
from ifforge.families.logicif import checks
from ifforge.families.logicif.checks import TrackerReply, informative, kept_cases
from ifforge.families.logicif.filters import run_problem, trivial

STAGE = "instrument"
OTHER_CALLS = 80  # calls drawn from the code when no tracker tells something on the cases
OTHER_MUTANTS = 6  # changes of each case drawn too
RELATED_MUTANTS = 10  # rescue changes of each case, tried once nothing else lets a tracker be chosen
TABLE_MUTANTS = 4  # each case's texts given characters of the code's own texts, tried after those
GROWN_CASES = 8  # the cases a seed left with too few is given, at most, from the calls drawn here
AFFIX_MUTANTS = 4  # each text of a case given one character of the code's texts after or before it, tried last
FRACTIONS = (0.5, 0.25)  # what a whole number of a case is given where the code asks whether a number is whole


def run(seed: SeedFunction, settings: TrackerConfig) -> Outcome[InstrumentedFunction]:
    try:
        anonymised = anonymise(seed.source, seed.entry)
    except (cst.ParserSyntaxError, ValueError) as error:  # too deep (RecursionError): the runner drops it so
        return _dropped(seed, "instrument_failed", f"{type(error).__name__}: {error}")
    outcome = _instrumented(seed, anonymised, settings)
    if outcome.kept is not None or outcome.dropped[-1].reason not in ("nothing_to_track", "no_informative_tracker"):
        return outcome
    # code f runs that no counter could reach: a helper f calls through a module-level alias (it cannot
    # move into f: call it by its name), the methods of a class (counted where they are)
    plain = unaliased(anonymised.module)
    if plain is not None:
        anonymised = Anonymised(plain.code, anonymised.renames, plain)
        retried = _instrumented(seed, anonymised, settings)
        if retried.kept is not None:
            return retried
    if any(isinstance(s, cst.ClassDef) for s in anonymised.module.body):
        retried = _instrumented(seed, anonymised, settings, methods=True)
        if retried.kept is not None:
            return retried
    return outcome


def _dropped(seed: SeedFunction, reason: str, detail: str) -> Outcome[InstrumentedFunction]:
    return Outcome(dropped=[DroppedItem(task_id=seed.task_id, stage=STAGE, reason=reason, detail=detail,
                                        origin=seed.origin)])


def _instrumented(seed: SeedFunction, anonymised: Anonymised, settings: TrackerConfig,
                  methods: bool = False) -> Outcome[InstrumentedFunction]:
    def dropped(reason: str, detail: str) -> Outcome[InstrumentedFunction]:
        return _dropped(seed, reason, detail)

    try:
        probe = propose(anonymised.source, anonymised.module, methods)
    except NothingToTrack as error:
        return dropped("nothing_to_track", str(error))
    except (cst.ParserSyntaxError, ValueError) as error:  # too deep (RecursionError): the runner drops it so
        return dropped("instrument_failed", f"{type(error).__name__}: {error}")
    args = [i.args for i in seed.inputs]
    results = sandbox.run_cases(probe.source, "f", args, limits=settings.limits(), budget=settings.budget())
    cases, lost = kept_cases(results, args, settings, tracked=False)
    grown = _grown(seed, probe, results, len(cases), settings) if len(cases) < settings.min_cases else None
    if grown is not None:
        seed = grown
        args = [i.args for i in seed.inputs]
        results = sandbox.run_cases(probe.source, "f", args, limits=settings.limits(), budget=settings.budget())
        cases, lost = kept_cases(results, args, settings, tracked=False)
    if len(cases) < settings.min_cases:
        return dropped("too_few_cases", f"the probe of {len(probe.candidates)} candidate trackers kept {len(cases)} "
                                        f"of {len(args)} cases, {settings.min_cases} needed; first lost: "
                                        f"{lost[0] if lost else '-'}")
    runs = [_judged(probe, arguments, result, settings) for arguments, result in zip(args, results)]
    inputs, notes = list(seed.inputs), []
    if grown is not None:
        notes.append(f"{sum(i.origin == 'drawn for enough cases' for i in inputs)} calls added to the cases, "
                     f"each with an output no case gave: too few cases worked")
    try:
        cases, returned = _judging(runs)
        chosen = choose(probe.candidates, cases, settings.max_tracker_value, returned)
    except NothingInformative as error:
        other = _other_case(seed, probe, runs, settings) or _last_resort(seed, probe, runs, settings) \
            or _case_among(_related_calls, seed, probe, runs, settings) \
            or _case_among(_table_calls, seed, probe, runs, settings) \
            or _case_among(_aimed_calls, seed, probe, runs, settings)
        if other is None:
            return dropped("no_informative_tracker", str(error))
        place, arguments, runs, chosen = other
        if place is not None:
            inputs[place] = TestInput(args=arguments, origin="drawn for a tracker")
            notes.append(f"case {place + 1} swapped for a call that makes a tracker tell something ({error})")
    cases = [run for run in runs if run is not None]
    try:
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
        inputs=inputs,
        notes=[f"{len(trackers)} of {len(probe.candidates)} candidate trackers kept, judged on {len(cases)} cases",
               *notes],
    ))


Run = tuple[list, dict, dict]  # a case execute keeps: arguments, {candidate id: value}, the counters f returns


def _judged(probe, arguments: list, result: sandbox.CaseResult, settings: TrackerConfig) -> Run | None:
    """One probe run as the trackers are judged on it, or None when execute would not keep the case."""
    kept, _ = kept_cases([result], [arguments], settings, tracked=False)
    if not kept:
        return None
    by_id = {key: candidate for candidate, key in probe.keys.items()}
    stats = {by_id[k]: v for k, v in kept[0][1].items() if k in by_id}
    return arguments, stats, returned_counters(result.output[0])


def _judging(runs: list[Run | None]) -> tuple[list[tuple[list, dict]], list[dict]]:
    """`choose`'s cases and the counters f returns on each, from the kept runs."""
    kept = [run for run in runs if run is not None]
    return [(arguments, stats) for arguments, stats, _ in kept], [returned for _, _, returned in kept]


def _grown(seed: SeedFunction, probe, results: list[sandbox.CaseResult], kept: int,
           settings: TrackerConfig) -> SeedFunction | None:
    """The seed with working calls added to its generated cases, each giving an output none of them
    gives (up to `GROWN_CASES` cases in all), when that reaches `min_cases`; else None. The inputs
    stage keeps the calls it found, and code that works on few values of a wide kind (a letter of a
    fixed alphabet, `ALPHABET.index(letter)`) may leave it with two; the calls drawn here (the
    code's candidates and changes of the cases, rescue changes, the code's own characters, changes
    aimed at its tests) are drawn otherwise. Only a seed that would be dropped gets here."""
    if not any(test_input.origin is not None for test_input in seed.inputs):
        return None  # the cases were given: they are the author's
    taken = {canonical_json(i.args) for i in seed.inputs}
    calls = []
    for make in (_other_calls, _related_calls, _table_calls, _aimed_calls):
        for arguments in make(seed, taken):
            key = canonical_json(arguments)
            if key not in taken:
                taken.add(key)
                calls.append(arguments)
    if not calls:
        return None
    outputs = {canonical_json(result.output[0]) for result in results if result.ok}
    added = []
    for arguments, result in zip(calls, sandbox.run_cases(probe.source, "f", calls, limits=settings.limits(),
                                                          budget=settings.budget(), coverage=True)):
        if kept + len(added) >= GROWN_CASES:
            break
        if not result.ok or run_problem(arguments, result, settings) is not None \
                or not kept_cases([result], [arguments], settings, tracked=False)[0] \
                or canonical_json(result.output[0]) in outputs:
            continue
        outputs.add(canonical_json(result.output[0]))
        added.append(TestInput(args=arguments, origin="drawn for enough cases"))
    if kept + len(added) < settings.min_cases:
        return None
    return seed.model_copy(update={"inputs": [*seed.inputs, *added]})


def _other_calls(seed: SeedFunction, taken: set[str]) -> list[list]:
    """Calls drawn as the inputs stage draws them, from a seed of their own: the code's candidates,
    then changes of each case; none already a case."""
    item_seed = int(content_hash("tracker cases", seed.task_id)[:12], 16)
    try:
        drawn = [c.args for c in with_accepted(seed.source, seed.entry, drawn_calls(
            seed.source, seed.entry, item_seed, OTHER_CALLS), item_seed)]
        numbers, texts = compared_constants(seed.source)
    except (SyntaxError, ValueError, RecursionError):
        return []
    rng = random.Random(item_seed)
    drawn += [mutate(i.args, rng, numbers, texts) for i in seed.inputs for _ in range(OTHER_MUTANTS)]
    found = {}
    for arguments in drawn:
        found.setdefault(canonical_json(arguments), arguments)
    return [arguments for key, arguments in found.items() if key not in taken]


def _last_resort(seed: SeedFunction, probe, runs: list[Run | None], settings: TrackerConfig):
    """(None, None, runs, chosen) when a last-resort tracker tells something on the cases, else what
    `_other_case` finds with them; None when nothing does. Tried only once every other kind failed,
    on the cases and on any call swapped in, so no choice made without them changes."""
    cases, returned = _judging(runs)
    try:
        return None, None, runs, choose(probe.candidates, cases, settings.max_tracker_value, returned, last_resort=True)
    except NothingInformative:
        return _other_case(seed, probe, runs, settings, last_resort=True)


def _related_calls(seed: SeedFunction, taken: set[str]) -> list[list]:
    """Changes of each case made as the inputs stage's rescue makes them (codeops/inputs/rescue.py): a
    value made a key, an item or a stretch of another argument, a graph whose edges name its own
    nodes, an argument made a constant the code compares with; and, for each case, its graph-shaped
    dicts given edges and a dict without a key the code asks about (codeops/inputs/relations.py).
    A loop or branch often waits on such a relation (`while node in parents`, `if item == value`,
    `if "K" in record`), which random values and the search's usual changes seldom make, so every
    working call walks one path."""
    try:
        clues = read_clues(seed.source, seed.entry)
    except (SyntaxError, ValueError, RecursionError):
        return []
    rng = random.Random(int(content_hash("related tracker cases", seed.task_id)[:12], 16))
    found = {}
    for test_input in seed.inputs:
        for draw in range(RELATED_MUTANTS):
            try:  # every other draw starts from a usual change (a longer list, whose items a relation can then name)
                start = mutate(test_input.args, rng, clues.numbers, clues.texts) if draw % 2 else test_input.args
                arguments = rescue_mutant(start, rng, clues, repair=False)
            except (ValueError, IndexError, TypeError, KeyError, RecursionError):
                continue
            found.setdefault(canonical_json(arguments), arguments)
        for arguments in (linked(test_input.args, rng), linked(test_input.args, rng),
                          without_asked_key(test_input.args, rng, clues.texts)):
            found.setdefault(canonical_json(arguments), arguments)
    return [arguments for key, arguments in found.items() if key not in taken]


def _case_among(make_calls, seed: SeedFunction, probe, runs: list[Run | None], settings: TrackerConfig):
    """What `_other_case` finds among the calls `make_calls` (`_related_calls`, `_table_calls`) makes, with
    the usual trackers, then the last-resort ones; None when nothing does. Tried after every other way
    failed, so no choice made before changes."""
    calls = make_calls(seed, {canonical_json(i.args) for i in seed.inputs})
    return _other_case(seed, probe, runs, settings, calls=calls, resorts=(False, True))


def _literal_characters(source: str) -> list[str]:
    """The characters of the texts the code writes out (its docstrings and comments left out), in order."""
    try:
        tree = pyast.parse(strip_comments_and_docstrings(source))
    except (SyntaxError, ValueError, RecursionError):
        return []
    found: dict[str, None] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.update(dict.fromkeys(node.value))
    return list(found)


def _table_calls(seed: SeedFunction, taken: set[str]) -> list[list]:
    """Each case with about half the characters of its texts (at random, each text of it) put in
    place by characters of the texts the code writes out. Code that looks characters up in a table
    (a digit or script converter, `text.translate(TABLE)`, `MAP.get(c, c)`) holds the table's
    characters in its own texts, while drawn texts seldom do: every call then walks the path of a
    character the table does not hold."""
    alphabet = _literal_characters(seed.source)
    if not alphabet:
        return []
    rng = random.Random(int(content_hash("table tracker cases", seed.task_id)[:12], 16))
    found = {}
    for test_input in seed.inputs:
        texts = [path for path, leaf in _paths(test_input.args) if isinstance(leaf, str) and leaf]
        for _ in range(TABLE_MUTANTS if texts else 0):
            arguments = copy.deepcopy(test_input.args)
            for path in texts:
                _set(arguments, path, "".join(rng.choice(alphabet) if rng.random() < 0.5 else character
                                              for character in _get(arguments, path)))
            found.setdefault(canonical_json(arguments), arguments)
    return [arguments for key, arguments in found.items() if key not in taken]


def _asks_whole(tree: ast.AST) -> bool:
    """Whether the code asks if a number is whole: it compares a value with `int`, `round`,
    `math.floor` / `math.trunc` of that same value (`x != int(x)`), takes it `% 1`, or calls
    `.is_integer()` on it."""
    whole = {"int", "round", "floor", "trunc"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and len(node.comparators) == 1:
            for one, other in ((node.left, node.comparators[0]), (node.comparators[0], node.left)):
                if isinstance(one, ast.Call) and len(one.args) == 1 and not one.keywords \
                        and (getattr(one.func, "id", None) or getattr(one.func, "attr", None)) in whole \
                        and ast.dump(one.args[0]) == ast.dump(other):
                    return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.right, ast.Constant) \
                and node.right.value == 1 and type(node.right.value) is int:
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "is_integer" \
                and not node.args:
            return True
    return False


def _aimed_calls(seed: SeedFunction, taken: set[str]) -> list[list]:
    """Changes of each case aimed at a test of the code's that drawn values never pass. Where the code
    asks whether a number is whole (`x != int(x)`), each whole number of a case in turn given a half
    or a quarter (drawn numbers are whole, or floats the code turns whole first): the path of a
    fraction (`if a != int(a) and ...`) is walked by none of them. And each text of a case with one
    character of the texts the code writes out put after it or before it (`'70'` -> `'70k'`): code
    that reads a unit, a sign or a suffix at one end of a text (a number with an SI prefix, a size
    with its unit) is given whole texts the drawing made, and `_table_calls` only changes the
    characters inside them."""
    try:
        asks_whole = _asks_whole(pyast.parse(seed.source))
    except (SyntaxError, ValueError, RecursionError):
        return []
    alphabet = _literal_characters(seed.source)
    rng = random.Random(int(content_hash("aimed tracker cases", seed.task_id)[:12], 16))
    found = {}
    for test_input in seed.inputs:
        leaves = _paths(test_input.args)
        if asks_whole:
            for path, leaf in leaves:
                if type(leaf) is int:
                    for fraction in FRACTIONS:
                        arguments = _set(copy.deepcopy(test_input.args), path, leaf + fraction)
                        found.setdefault(canonical_json(arguments), arguments)
        texts = [path for path, leaf in leaves if isinstance(leaf, str)]
        for draw in range(AFFIX_MUTANTS if texts and alphabet else 0):
            arguments = copy.deepcopy(test_input.args)
            path = rng.choice(texts)
            text, character = _get(arguments, path), rng.choice(alphabet)
            arguments = _set(arguments, path, text + character if draw % 2 == 0 else character + text)
            found.setdefault(canonical_json(arguments), arguments)
    return [arguments for key, arguments in found.items() if key not in taken]


def _other_case(seed: SeedFunction, probe, runs: list[Run | None], settings: TrackerConfig, last_resort: bool = False,
                calls: list[list] | None = None, resorts: tuple[bool, ...] = ()):
    """(place, arguments, runs, chosen) when one generated case swapped for another call lets trackers
    be chosen; else None. The place is a generated case execute would not keep, else the last generated
    case (the inputs stage chose it last: it added fewest arcs). Of the calls that would do, the one
    giving the chosen trackers the most different values, then the one on which most of them are not 0
    and whose output is not trivial (a call that does nothing is a poor case), then the first drawn.
    `calls`: the calls to try (default: `_other_calls`); `resorts`: the `last_resort` choices to try
    in turn on one run of them (default: `last_resort` alone)."""
    generated = [index for index, test_input in enumerate(seed.inputs) if test_input.origin is not None]
    if not generated:
        return None  # the cases were given: they are the author's, not to be changed
    place = next((index for index in generated if runs[index] is None), generated[-1])
    if calls is None:
        calls = _other_calls(seed, {canonical_json(i.args) for i in seed.inputs})
    if not calls:
        return None
    results = sandbox.run_cases(probe.source, "f", calls, limits=settings.limits(), budget=settings.budget(),
                                coverage=True)
    trials = []
    for arguments, result in zip(calls, results):
        if not result.ok or run_problem(arguments, result, settings) is not None:
            continue
        run = _judged(probe, arguments, result, settings)
        if run is not None:
            trials.append((arguments, result, run, [*runs[:place], run, *runs[place + 1:]]))
    for resort in resorts or (last_resort,):
        best, best_spread = None, None
        for arguments, result, run, trial in trials:
            cases, returned = _judging(trial)
            if len(cases) < settings.min_cases:
                continue
            try:
                chosen = choose(probe.candidates, cases, settings.max_tracker_value, returned, resort)
            except NothingInformative:
                continue
            spread = (sum(len({stats.get(c.id) for _, stats in cases}) for c in chosen),
                      sum(run[1].get(c.id) != 0 for c in chosen), not trivial(result.output[0], arguments))
            if best is None or spread > best_spread:
                best, best_spread = (place, arguments, trial, chosen), spread
        if best is not None:
            return best
    return None


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
