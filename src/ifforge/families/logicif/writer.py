"""A model writes (describe) or rewrites (refine) a description, told the rules its text is checked
by (`description_rules`): three parts INPUTS: / LOGICS: / OUTPUTS:, no code, every input, tracker
and number named, none of the original's domain words. A text that breaks one is sent back with
the reason, a bounded number of times; every such re-ask is counted."""

from __future__ import annotations

from ifforge.core.llm.client import LLM
from ifforge.core.prompts import load_prompt
from ifforge.families.logicif.checks import shown_inputs
from ifforge.families.logicif.codeops.common.domain import domain_used, domain_words, listed
from ifforge.families.logicif.codeops.common.source import parameter_names
from ifforge.families.logicif.codeops.describe import english
from ifforge.families.logicif.configs import DescribeConfig
from ifforge.families.logicif.records import InstrumentedFunction

SECTIONS = ("INPUTS:", "LOGICS:", "OUTPUTS:")
RULES = "description_rules"


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


def domain_problem(text: str, words: list[str]) -> str | None:
    """A description that says what the original code was about undoes the anonymisation."""
    used = domain_used(text, words)
    return (f"it uses words that give away what the original code was about ({', '.join(used)}); "
            "say what the steps do in neutral words") if used else None


def from_labels(text: str) -> str:
    """Drop any preamble a model puts before `INPUTS:`."""
    start = text.find("INPUTS:")
    return text[start:].strip() + "\n" if start >= 0 else text


def function_domain_words(function: InstrumentedFunction) -> list[str]:
    """The original's domain words a description of `function` may not use (its names it must use)."""
    names = parameter_names(function.instrumented_source, "f") + [t.name for t in function.trackers]
    return domain_words(function.original_source, function.task_id, keep=names)


def description_rules(function: InstrumentedFunction) -> str:
    """The rules a description is checked by, for this function, as the prompts state them."""
    return load_prompt(RULES).render(parameters=", ".join(parameter_names(function.instrumented_source, "f")),
                                     stats_keys=", ".join(t.name for t in function.trackers),
                                     domain_words=listed(function_domain_words(function)))


async def write_with_llm(llm: LLM, prompt_name: str, function: InstrumentedFunction, values: dict[str, str],
                         settings: DescribeConfig, stage: str, inputs: list[list]) -> tuple[str | None, str]:
    """A description from the LLM that passes the checks (re-asked with the reason when it does not),
    or None and why. The writer sees the inputs the rows carry, so it can say what each shape does."""
    prompt = load_prompt(prompt_name)
    words = function_domain_words(function)
    text = prompt.render(function=function.instrumented_source, stats_keys=", ".join(t.name for t in function.trackers),
                         rules=description_rules(function), inputs=shown_inputs(inputs), **values)
    asked = await llm.chat_checked(
        [{"role": "user", "content": text}], None, stage=stage, reasks=settings.llm_reasks,
        prompt_versions={prompt_name: prompt.hash, RULES: load_prompt(RULES).hash},
        again="That cannot be used: {problem}. Write it again.",
        check=lambda reply: sections_problem(reply) or code_problem(reply) or domain_problem(reply, words))
    if asked.problem is None:
        return from_labels(asked.reply), ""
    return None, asked.problem
