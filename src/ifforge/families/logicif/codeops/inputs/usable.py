"""Whether one run of a call can be a test case: what the inputs stage keeps, and what the
instrument stage keeps when it swaps a case (so both judge a call alike, and neither stage's
version depends on the other's code)."""

from __future__ import annotations

from ifforge.core.sandbox import execution as sandbox
from ifforge.core.store.versions import canonical_json
from ifforge.families.logicif.filters import decimal_places, largest_magnitude

TRIVIAL = (None, 0, False, "", [], {})


def trivial(output) -> bool:
    """An output a reader gets right without following the steps: None, empty, 0 or False. A seed
    that returns `(answer, {counter: n})` itself (LogicIFEval's functions) is judged by its answer."""
    if isinstance(output, list) and len(output) == 2 and isinstance(output[1], dict) and output[1] \
            and all(type(v) is int for v in output[1].values()):
        output = output[0]
    return any(output == t and type(output) is type(t) for t in TRIVIAL)


def problem(args: list, result: sandbox.CaseResult, config) -> str | None:
    """Why a candidate's run cannot become a test case (a short reason), or None."""
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
    return None
