"""Describe stage (deterministic path): the instruction text for each measured function.

The LLM describer of a later issue plugs into this slot; this renderer stays as the offline path
and the fallback.
"""

from __future__ import annotations

import sys

from ifforge._sandbox_child import _type_name
from ifforge.artifacts import code_version
from ifforge.codeops import narrate
from ifforge.codeops.source import parameter_names
from ifforge.records import DescribedFunction, Instruction, MeasuredFunction, Outcome
from ifforge.stages.execute import merge_output_types

STAGE = "describe"
VERSION = code_version(narrate, sys.modules[__name__])


def output_format(item: MeasuredFunction) -> str:
    return merge_output_types([case.output_type for case in item.executed.cases])


def input_types(item: MeasuredFunction) -> dict[str, str]:
    """The type of each parameter, as seen across the test inputs."""
    names = parameter_names(item.executed.function.instrumented_source, "f")
    seen: dict[str, list[str]] = {}
    for case in item.executed.cases:
        for name, value in zip(names, case.input):
            seen.setdefault(name, []).append(_type_name(value))
    return {name: merge_output_types(kinds) for name, kinds in seen.items()}


def run(item: MeasuredFunction) -> Outcome[DescribedFunction]:
    function = item.executed.function
    text = narrate.describe(function.instrumented_source, function.trackers, input_types(item), output_format(item))
    return Outcome(kept=DescribedFunction(measured=item, instruction=Instruction(description=text)))
