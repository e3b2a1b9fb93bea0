"""Runs a row's function the way LogicIF's executor does, for tests: the source goes through
`exec(code, globals_dict, locals_dict)` with two separate dicts, then `f(*input)` is called from the
locals. Names the module defines beside f land in the locals, where f never looks."""

import copy
import json


def call_like_logicif(code: str, args: list):
    """f's return value on `args`, with the code executed as LogicIF's executor executes it."""
    globals_dict: dict = {}
    locals_dict: dict = {}
    exec(code, globals_dict, locals_dict)
    return locals_dict["f"](*copy.deepcopy(args))


def gives_its_gold(row: dict) -> bool:
    """Whether the row's function returns the row's gold `{output, stats}` (compared as JSON, as the
    exported row holds it)."""
    output, stats = call_like_logicif(row["function"], row["input"])
    return json.loads(json.dumps({"output": output, "stats": stats})) == row["code_output"]
