"""What an MCBench rubric is: a string metric written as 3 to 7 steps, each with a requirement, an
example and reference code, in the IFEval shape (one small class per metric, a registry by id).

Conventions every metric follows, so the sandbox can run any of them the same way:
- the inputs are two strings, the hypothesis `a` (A) and the reference `b` (B);
- step k is the function `stepk`; its parameters name what it reads: `a`, `b`, or an earlier step's
  value `s1`, `s2`, ... (so `def step3(s1, s2)` reads the values of steps 1 and 2);
- a step returns JSON values only: numbers, strings, lists, objects with string keys; minus
  infinity is written `None` (JSON null);
- the last step's value is the metric's final value;
- only the standard library (the code is shown to models and runs in the sandbox, no packages).

A metric's real name is never shown to a model (it would recall the metric instead of following
the rubric): prompts call it "NLP score".
"""

from __future__ import annotations

import ast
import json
import math
from dataclasses import dataclass
from typing import Any, ClassVar

from ifforge.core import pyast
from ifforge.core.registry import Registry

# The fixed pairs every example is computed on, by the metric's unit (words or characters).
EXAMPLES = {"words": ("the small cat sat on the mat", "the cat sat on the red mat"),
            "characters": ("kitten", "sitting")}


def _parameters(code: str) -> tuple[str, ...]:
    """The parameter names of the step function `code` defines (the values it is called with)."""
    [function] = [node for node in pyast.parse(code).body if isinstance(node, ast.FunctionDef)]
    return tuple(arg.arg for arg in function.args.args)


@dataclass(frozen=True)
class Step:
    title: str
    requirement: str  # self-contained; math in LaTeX
    code: str  # the source of `def stepk(...)`
    unordered: bool = False  # the value is a set written as a list: compared without regard to order


class Metric:
    id: ClassVar[str]  # lowercase, e.g. "jaro_winkler"
    name: ClassVar[str]  # the real name (reports and READMEs only, never prompts)
    unit: ClassVar[str]  # "words" or "characters": what the metric compares, and which example pair it shows
    direction: ClassVar[str] = "similarity"  # higher for closer texts; "distance": 0 for equal texts, higher apart
    summary: ClassVar[str]  # one line for the rubric's head, without the metric's name
    steps: ClassVar[tuple[Step, ...]]
    helpers: ClassVar[str] = ""  # functions several steps call, shown once with the code
    notes: ClassVar[str] = ""  # where it differs from a package's implementation, and why

    @classmethod
    def source(cls) -> str:
        """The module of the reference: the helpers, then every step function."""
        parts = [cls.helpers.strip()] if cls.helpers.strip() else []
        parts += [step.code.strip() for step in cls.steps]
        return "\n\n\n".join(parts) + "\n"

    @classmethod
    def program(cls) -> str:
        """What the sandbox runs: the reference and `run(a, b)`, every step's value in order."""
        calls = ", ".join(f"(step{k}, {_parameters(step.code)!r})" for k, step in enumerate(cls.steps, 1))
        return cls.source() + f"""

def run(a, b):
    values = {{"a": a, "b": b}}
    out = []
    for k, (function, wanted) in enumerate(({calls},), 1):
        value = function(*[values[name] for name in wanted])
        values["s" + str(k)] = value
        out.append(value)
    return out
"""

    @classmethod
    def run_in_process(cls, a: str, b: str) -> list[Any]:
        """Our own trusted reference, in process: for the examples and the package tests only;
        gold always comes from the sandbox."""
        namespace: dict[str, Any] = {}
        exec(compile(cls.program(), f"<mcbench {cls.id}>", "exec"), namespace)  # noqa: S102 - our own code
        return json.loads(json.dumps(namespace["run"](a, b)))  # as the sandbox returns it: tuples are lists

    @classmethod
    def example_values(cls) -> list[Any]:
        return cls.run_in_process(*EXAMPLES[cls.unit])


REGISTRY: Registry[type[Metric]] = Registry("metric")


def declare(metric_id: str, name: str, unit: str, summary: str, steps: tuple[Step, ...], **more: str) -> type[Metric]:
    """A metric from its declarations (`more`: `direction`, `helpers`, `notes`), registered: what
    a class body would say, without one."""
    return register(type(metric_id, (Metric,), {"id": metric_id, "name": name, "unit": unit, "summary": summary,
                                                "steps": tuple(steps), **more}))


def register(cls: type[Metric]) -> type[Metric]:
    if cls.unit not in EXAMPLES or cls.direction not in ("distance", "similarity"):
        raise ValueError(f"metric {cls.id!r}: unit {cls.unit!r} or direction {cls.direction!r} is not one we know")
    return REGISTRY.add(cls)


def shown(value: Any) -> str:
    """A value as prompts show it: JSON, numbers that are not whole rounded to 4 decimals."""
    def rounded(v: Any) -> Any:
        if isinstance(v, float):
            return round(v, 4) if math.isfinite(v) else None
        if isinstance(v, list):
            return [rounded(x) for x in v]
        if isinstance(v, dict):
            return {k: rounded(x) for k, x in v.items()}
        return v

    return json.dumps(rounded(value), ensure_ascii=False)
