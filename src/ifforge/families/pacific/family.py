"""PACIFIC: an initial value through a chain of small instructions (code or natural language),
each fed the previous output; gold for every step from running the reference code in the sandbox.

Plan: load builds the seeded chains (the pool runs in process only to steer output lengths) ->
gold (per chain, in the sandbox; a chain whose gold differs from planning is dropped) -> crosscheck
(only when Java or C++ is asked for: every step of every chain run through the compiled Java and
C++ versions, a chain any of them disagrees on is dropped) -> export renders every chain in each
mode (one prompt, or chat turns) and form (code in each language asked for, or text).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

from ifforge.core.sandbox import execution as sandbox
from ifforge.core.prompts import load_prompt
from ifforge.core.records import DroppedItem, Outcome, Record
from ifforge.core.runner import Stage
from ifforge.core.store.versions import VersionStore, code_version, content_hash, provenance
from ifforge.families.base import BatchStage, Family, Loaded, Reply, Request, ReviewGuide, Verdict, field_problem
from ifforge.families.pacific import chains, instructions, languages
from ifforge.families.pacific.baselines import BASELINES
from ifforge.families.pacific.records import Chain, GoldChain
from ifforge.families.pacific.scoring import REPORT, judge
from ifforge.families.pacific.settings import PacificSettings


class GoldConfig(Record):
    case_seconds: float
    memory_mb: int


def value_text(value: Any) -> str:
    """How values appear in prompts: decimal numbers, JSON strings."""
    return json.dumps(value, ensure_ascii=False)


def compute_gold(chain: Chain, config: GoldConfig) -> Outcome[GoldChain]:
    """Run the chain's reference code in the sandbox; its outputs are the gold."""
    code = chains.chain_code(chain)
    limits = sandbox.Limits(case_seconds=config.case_seconds, memory_bytes=config.memory_mb << 20)
    [result] = sandbox.run_cases(code, "chain", [[chain.initial_input]], limits=limits)

    def drop(reason: str, detail: str) -> Outcome[GoldChain]:
        return Outcome(dropped=[DroppedItem(task_id=chain.task_id, stage="gold", reason=reason, detail=detail,
                                            origin=chain.origin)])

    if not result.ok:
        return drop(f"sandbox_{result.status}", result.error)
    gold = result.output
    if not isinstance(gold, list) or len(gold) != len(chain.steps):
        return drop("bad_shape", f"the chain gave {value_text(gold)[:200]}")
    if any(isinstance(v, bool) or not isinstance(v, (int, str)) for v in gold):
        return drop("bad_type", f"a step gave a value that is neither a whole number nor a string: {gold}")
    if gold != chain.planned:
        first = next(i for i, (a, b) in enumerate(zip(gold, chain.planned), 1) if a != b)
        return drop("reference_mismatch", f"step {first}: sandbox {value_text(gold[first - 1])}, "
                                          f"planning {value_text(chain.planned[first - 1])}")
    return Outcome(kept=GoldChain(chain=chain, code=code, gold=gold))


def crosscheck(items: list[GoldChain], settings: PacificSettings) -> tuple[list, list[DroppedItem], dict[str, Any]]:
    """Feed every step its gold input in each compiled language; keep the chains all agree on."""
    calls = [(instructions.get(step.id, **step.args), chain.chain.initial_input if i == 0 else chain.gold[i - 1])
             for chain in items for i, step in enumerate(chain.chain.steps)]
    disagreements: dict[str, str] = {}  # chain -> the first disagreement found
    counts: dict[str, Any] = {"in": len(items), "steps": len(calls)}
    for language in settings.languages:
        if language == "python":
            continue
        answers = iter(languages.run(language, calls))
        disagreeing = 0
        for chain in items:
            wrong = [(i, step, got) for i, step in enumerate(chain.chain.steps)
                     if (got := next(answers)) != chain.gold[i]]
            if wrong:
                disagreeing += 1
                i, step, got = wrong[0]
                disagreements.setdefault(chain.task_id, f"{language} gives {got!r} at step {i + 1} ({step.id}), "
                                                        f"the Python reference {chain.gold[i]!r}")
        counts[f"{language}_disagrees"] = disagreeing
    kept = [chain for chain in items if chain.task_id not in disagreements]
    dropped = [DroppedItem(task_id=chain.task_id, stage="crosscheck", reason="language_mismatch",
                           detail=disagreements[chain.task_id], origin=chain.chain.origin)
               for chain in items if chain.task_id in disagreements]
    return kept, dropped, {**counts, "out": len(kept)}


def _gold_files(item: Chain, outcome: Outcome) -> tuple[dict, dict]:
    kept = outcome.kept
    if kept is None:
        return {}, {}
    return {"gold": kept.gold}, {"chain.py": kept.code}


def instruction_entries(chain: Chain) -> list[dict[str, Any]]:
    entries = []
    for step in chain.steps:
        instruction = instructions.get(step.id, **step.args)
        entries.append({"id": step.id, "args": step.args, "input_type": instruction.input_type,
                        "output_type": instruction.output_type, "text": instruction.describe(),
                        "code": instruction.python(), "java": instruction.source("java"),
                        "cpp": instruction.source("cpp")})
    return entries


LANGUAGE_NAMES = {"python": ("Python", "python", "code"), "java": ("Java", "java", "java"),
                  "cpp": ("C++", "cpp", "cpp")}  # name in the prompt, code fence tag, entry field


def step_text(index: int, entry: dict[str, Any], form: str, language: str | None = None) -> str:
    if form == "nl":
        return f"Instruction {index}: {entry['text']}"
    name, fence, field = LANGUAGE_NAMES[language or "python"]
    return (f"Instruction {index}: apply this {name} function to the value.\n"
            f"```{fence}\n{entry[field].rstrip()}\n```")


def render(chain: GoldChain, mode: str, form: str, language: str | None = None,
           entries: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The prompt (mode `prompt`) or the user turns (mode `chat`) of one chain; `language` for code.
    `entries` are the chain's `instruction_entries` when the caller has them already."""
    entries = entries or instruction_entries(chain.chain)
    initial = value_text(chain.chain.initial_input)
    n = len(entries)
    if mode == "prompt":
        steps = "\n\n".join(step_text(i, e, form, language) for i, e in enumerate(entries, 1))
        return {"prompt": load_prompt("pacific_chain").render(n=n, initial=initial, steps=steps)}
    first = load_prompt("pacific_chat_first").render(n=n, initial=initial,
                                                     step=step_text(1, entries[0], form, language))
    turns = [first] + [load_prompt("pacific_chat_next").render(previous=i - 1, index=i,
                                                               step=step_text(i, e, form, language))
                       for i, e in enumerate(entries[1:], 2)]
    return {"messages": [{"role": "user", "content": turn} for turn in turns]}


def variants(settings: PacificSettings) -> list[tuple[str, str, str | None]]:
    """(mode, form, language) of every row a chain gives: code rows once per language."""
    return [(mode, form, language) for mode in settings.modes for form in settings.forms
            for language in (settings.languages if form == "code" else [None])]


def rows_of(chain: GoldChain, settings: PacificSettings) -> list[dict[str, Any]]:
    entries = instruction_entries(chain.chain)
    rows = []
    for mode, form, language in variants(settings):
        rows.append({
            "family": "pacific", "task_id": f"{chain.task_id}-{mode}-{language or form}", "chain_id": chain.task_id,
            "mode": mode, "form": form, "language": language, "chain_length": chain.chain.chain_length,
            "output_length": chain.chain.output_length, "seed": settings.seed,
            "initial_input": chain.chain.initial_input,
            "instructions": [{k: e[k] for k in ("id", "args", "text", "code", "java", "cpp", "input_type",
                                                "output_type")} for e in entries],
            "gold": chain.gold, **render(chain, mode, form, language, entries),
        })
    return rows


class Pacific(Family):
    id = "pacific"
    title = "instruction chains: an initial value through small code or text instructions, gold per step"
    measures = 'whether a model can carry a value through a chain of small instructions (code or text) without running code, every intermediate value checked'
    follows = 'PACIFIC (precise, automatically checked instruction following in code)'
    settings_class = PacificSettings
    loads = Chain
    llm_stages = ()
    row_fields = {"task_id": object, "mode": str, "form": str, "chain_length": int, "output_length": int,
                  "gold": list}
    carried = ("task_id", "mode", "form", "chain_length", "output_length", "gold",
               "language")  # language: absent from rows written before code came in three languages
    answers = ("response", "responses")  # a prompt's reply, a chat's replies
    report = REPORT
    row_means = ("prompt_accuracy",)  # instruction accuracy: per step
    baselines = BASELINES
    review_guide = ReviewGuide(
        source="Reference code of each instruction", instruction="Prompt",
        guidance="For each task, check that each instruction of the prompt says what its reference code does, so "
                 "that following them in order from the starting value gives the gold output after every step.")

    def row_problem(self, row: dict[str, Any]) -> str | None:
        """Besides the fields: a chat row's turns are `messages` (objects with text `content`), a
        prompt row's text is `prompt`."""
        problem = super().row_problem(row)
        if problem or row["mode"] not in ("chat", "prompt"):
            return problem or f"field 'mode' must be 'chat' or 'prompt', not {row['mode']!r}"
        if row["mode"] == "prompt":
            return field_problem(row, {"prompt": str})
        messages = row.get("messages")
        if not isinstance(messages, list) or not messages or not all(
                isinstance(m, dict) and isinstance(m.get("content"), str) for m in messages):
            return "field 'messages' must be a list of objects with text 'content' (a chat row's turns)"
        return None

    def pool(self, settings: PacificSettings) -> list[str]:
        try:
            instructions.REGISTRY.check(sorted(settings.instructions))
        except ValueError as error:
            raise ValueError(f"setting 'instructions': {error}") from None
        return sorted(settings.instructions or instructions.REGISTRY)

    def load(self, settings: PacificSettings) -> Loaded:
        pool = self.pool(settings)
        built = chains.build_all(settings.seed, settings.chain_lengths, settings.output_lengths, settings.samples, pool)
        return Loaded(items=built, dropped=[], inputs={"seed": settings.seed, "pool": pool,
                                                       "pool_version": code_version(instructions)})

    def write_loaded(self, store: VersionStore, items: list[Chain]) -> None:
        for chain in items:
            store.write(f"items/{chain.task_id}/chain.json", {**chain.model_dump(mode="json"),
                                                              "provenance": provenance("load", "1", content_hash(chain))})

    def plan(self, settings: PacificSettings) -> list:
        steps: list = [Stage("gold", code_version(sys.modules[__name__]), GoldChain, compute_gold,
                             config=GoldConfig(case_seconds=settings.case_seconds, memory_mb=settings.memory_mb),
                             artifacts=_gold_files, reads=Chain)]
        compiled = [language for language in settings.languages if language != "python"]
        if compiled:
            for language in compiled:
                missing = languages.missing_tools(language)
                if missing:
                    raise ValueError(f"setting 'languages' asks for {language}, but {', '.join(missing)} is not on "
                                     f"PATH: install it, or leave {language} out")
            steps.append(BatchStage("crosscheck", crosscheck, {"version": code_version(languages),
                                                               "languages": compiled},
                                     reads=GoldChain, writes=GoldChain))
        return steps

    def independent_identity(self, settings: PacificSettings) -> Any:
        return {name: load_prompt(name).hash for name in ("pacific_chain", "pacific_chat_first", "pacific_chat_next")}

    def export(self, store: VersionStore, items: list[GoldChain], settings: PacificSettings,
               side: dict[str, Any]) -> dict[str, Any]:
        rows = [row for chain in sorted(items, key=lambda c: c.task_id) for row in rows_of(chain, settings)]
        store.write("benchmark.jsonl", "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
        return {"tasks": len(rows), "rows": len(rows), "chains": len(items),
                "by_setting": dict(Counter(f"L{c.chain.chain_length}-O{c.chain.output_length}" for c in items)),
                "by_instruction": dict(sorted(Counter(s.id for c in items for s in c.chain.steps).items())),
                "identity_redraws": sum(c.chain.redraws for c in items)}

    def summary_table(self, store: VersionStore) -> list[dict[str, Any]]:
        table = []
        for line in (store.path / "benchmark.jsonl").read_text().splitlines():
            row = json.loads(line)
            table.append({k: row.get(k) for k in ("task_id", "mode", "form", "language", "chain_length",
                                                  "output_length")})
        return table

    def request(self, row: dict[str, Any]) -> Request:
        """A prompt row is one prompt; a chat row's instructions are its turns, each answered before
        the next, the model's own reply going back into the conversation (each request cached on its own)."""
        if row["mode"] == "chat":
            return Request(tuple(m["content"] for m in row["messages"]), chat=True)
        return Request((row["prompt"],))

    def check(self, row: dict[str, Any], reply: Reply, options: Any = None) -> Verdict:
        return judge(row, reply)

    def sample_view(self, row: dict[str, Any], verdict: Verdict) -> dict[str, Any]:
        """The gold of every step; the first step not right, and how (missing, wrong type, wrong value)."""
        first = next((line for line in verdict.lines if not line.get("right")), None)
        reason = "right" if first is None else str(first.get("status", "wrong")).replace("_", " ")
        return {"gold": row.get("gold"), "reason": reason, "task": row.get("chain_id", row.get("task_id")),
                "tier": f"{row.get('chain_length')} steps"}

    def review_view(self, row: dict[str, Any]) -> dict[str, Any]:
        text = row.get("prompt") or "\n\n---\n\n".join(m["content"] for m in row.get("messages", []))
        field = LANGUAGE_NAMES[row.get("language") or "python"][2]
        comment = "#" if field == "code" else "//"
        code = "\n\n".join(f"{comment} step {i}: {e['id']}\n{e.get(field) or e['code']}"
                           for i, e in enumerate(row["instructions"], 1))
        return {"title": row["task_id"], "source": code, "instruction": text,
                "details": {"starting value": value_text(row["initial_input"]),
                            "gold per step": ", ".join(value_text(v) for v in row["gold"]),
                            "setting": f"{row['chain_length']} steps, output length {row['output_length']}, "
                                       f"{row['mode']} mode, {row['form']} form"
                                       + (f" ({row['language']})" if row.get("language") else "")}}


FAMILY = Pacific()
