"""LogicIF's evaluate and score options: how an answer is read and compared, and the optional
models that read replies (the extractor, the error analyst)."""

from __future__ import annotations

from typing import Literal

from ifforge.families.options import COMMANDS, Options, option


class LogicIFOptions(Options):
    rules: Literal["ifforge", "paper"] = option(
        "ifforge", "ifforge (default): our reading of the answer; paper: LogicIF's compare_outputs on its extracted "
                   "llm_output, verdict for verdict (with ifforge score)", (*COMMANDS, "export"))
    strict_types: bool = option(False, "LogicIF: true is not 1, 20 is not 20.0")
    extractor: Literal["rules", "llm"] = option(
        "rules", "LogicIF: rules (default): last JSON answer, then LogicIF's **Output:**/**Statistics:**; llm: also an "
                 "LLM's extraction where the rules find none, reported apart (ifforge score: needs --model)")
    extractor_model: str | None = option(None, "LogicIF: model for --extractor llm (default: --model)", ("evaluate",))
    analyze_errors: bool = option(False, "LogicIF: an LLM labels each formatted wrong answer's failure mode",
                                  ("evaluate",))
    analyzer_model: str | None = option(None, "LogicIF: model for --analyze-errors (default: --model)", ("evaluate",))


OPTIONS = LogicIFOptions
