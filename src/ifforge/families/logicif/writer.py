"""A model writes (describe) or rewrites (refine) a description: it is asked again until the text has
the three parts INPUTS: / LOGICS: / OUTPUTS: and quotes no code, a bounded number of times."""

from __future__ import annotations

from ifforge.core.llm_client import LLM, LLMError
from ifforge.core.prompts import load_prompt
from ifforge.families.logicif.codeops import english
from ifforge.families.logicif.configs import DescribeConfig

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
