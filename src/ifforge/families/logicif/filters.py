"""LogicIF's test-case filters on a case's input and output, shared by the stages that judge cases:
execute drops what they reject, instrument picks trackers on the cases they keep, and inputs keeps
only candidates that pass them."""

from __future__ import annotations

import decimal
from typing import Any

from ifforge.core.store.versions import canonical_json


def decimal_places(value: Any) -> int:
    """Most decimal places of any float inside `value` (1e-07 has 7)."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return 10**6
        exponent = decimal.Decimal(repr(value)).as_tuple().exponent
        return max(0, -exponent)
    if isinstance(value, dict):
        return max((decimal_places(v) for v in value.values()), default=0)
    if isinstance(value, (list, tuple)):
        return max((decimal_places(v) for v in value), default=0)
    return 0


def largest_magnitude(value: Any) -> float:
    if isinstance(value, bool):
        return 0
    if isinstance(value, (int, float)):
        return abs(value)
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return max((largest_magnitude(v) for v in value), default=0)
    return 0


def case_problem(args: list, output: Any, settings) -> tuple[str, str] | None:
    """(reason, detail) when LogicIF's filters drop a case for its output or input, else None."""
    places = decimal_places(output)
    if places > settings.max_decimal_places:
        return "too_many_decimals", f"output has {places} decimal places"
    magnitude = largest_magnitude(args)
    if magnitude > settings.max_input_magnitude:
        return "input_too_large", f"input holds {magnitude:g}, over {settings.max_input_magnitude:g}"
    if len(canonical_json(args)) > settings.max_input_length:
        return "input_too_large", f"input is over {settings.max_input_length} characters as JSON"
    if len(canonical_json(output)) > settings.max_output_length:  # an answer no reader writes out by hand
        return "output_too_large", f"output is over {settings.max_output_length} characters as JSON"
    return None


TRIVIAL = (None, 0, False, "", [], {})


def trivial(output, args: list = ()) -> bool:
    """An output a reader gets right without following the steps: None, empty, 0 or False, or (given
    the call's `args`) a list or dict equal to one of them, handed back as it came (a function that
    changes its argument in place and changed nothing on this call). A seed that returns `(answer,
    {counter: n})` itself (LogicIFEval's functions) is judged by its answer."""
    if isinstance(output, list) and len(output) == 2 and isinstance(output[1], dict) and output[1] \
            and all(type(v) is int for v in output[1].values()):
        output = output[0]
    return any(output == t and type(output) is type(t) for t in TRIVIAL) or isinstance(output, (list, dict)) \
        and any(type(a) is type(output) and a == output for a in args)


def run_problem(args: list, result, config) -> str | None:
    """Why a candidate's run (a sandbox `CaseResult`, traced) cannot become a test case (a short reason),
    or None: the inputs stage's rule, and the instrument stage's for a call it swaps in."""
    if not result.ok:
        return result.status
    if result.arcs is None or result.max_hits is None or result.steps is None:
        return "not_traced"
    if result.steps > config.input_max_steps:
        return "too_slow"
    if result.max_hits >= config.max_tracker_value:
        return "loops_too_long"
    if decimal_places(result.output) > config.max_decimal_places:
        return "too_many_decimals"
    if largest_magnitude(args) > config.max_input_magnitude or len(canonical_json(args)) > config.max_input_length:
        return "input_too_large"
    if len(canonical_json(result.output)) > config.max_output_length:
        return "output_too_large"
    return None
