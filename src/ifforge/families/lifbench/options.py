"""LIFBench's evaluate and score options: its rules."""

from __future__ import annotations

from typing import Literal

from ifforge.families.options import COMMANDS, Options, option


class LifbenchOptions(Options):
    rules: Literal["ifforge", "paper"] = option(
        "ifforge", "ifforge (default): our checkers; paper: LIFBench's own verdicts, on rows from ifforge convert "
                   "lifbench", (*COMMANDS, "export"))


OPTIONS = LifbenchOptions
