"""IFEval-FC's evaluate, score and export options: its rules, and under the paper's, the nltk whose
word count they reproduce."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ValidationInfo, field_validator

from ifforge.families.options import COMMANDS, Options, option

EVERYWHERE = (*COMMANDS, "export")


class IfevalFcOptions(Options):
    rules: Literal["ifforge", "paper"] = option(
        "ifforge", "ifforge (default): our checkers; paper: the paper's own checker, verdict for verdict", EVERYWHERE)
    paper_nltk: Literal["3.9", "3.10"] = option(
        "3.9", "IFEval-FC, rules paper: the nltk whose word count is reproduced: 3.9 (3.9.1, the paper's published "
               "results) or 3.10 (3.10.3 and later, which tokenize with the regex engine)", EVERYWHERE)

    system_message: str = option(
        "paper", "IFEval-FC: the system message of the converted rows: paper (default: the paper's own, read from its "
                 "evaluate.py), ifforge (ours), or a text", ("convert",))

    @field_validator("paper_nltk", mode="before")
    @classmethod
    def _nltk_as_text(cls, value: Any) -> Any:
        """`--set paper_nltk=3.10` reads as the number 3.1: ask for text."""
        if isinstance(value, (int, float)):
            raise ValueError(f'give the version as text, "3.9" or "3.10" ({value!r} is a number: '
                             "--paper-nltk 3.10, or --set paper_nltk='\"3.10\"')")
        return value

    @field_validator("paper_nltk")
    @classmethod
    def _nltk_with_paper_rules(cls, value: str, info: ValidationInfo) -> str:
        """The option chooses among paper modes: with our rules it would change nothing, so it is refused."""
        if value != "3.9" and info.data.get("rules") != "paper":
            raise ValueError(f"--paper-nltk {value} applies to --rules paper only (IFEval-FC's paper mode), not to "
                             f"rules {info.data.get('rules')!r}")
        return value

    def fingerprint(self) -> dict[str, Any]:
        """`paper_nltk` decides paper scores only."""
        return {"rules": self.rules, **({"paper_nltk": self.paper_nltk} if self.rules == "paper" else {})}


OPTIONS = IfevalFcOptions
