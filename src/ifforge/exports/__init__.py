"""Exports of a generated benchmark to where users already run evaluations.

`inspect` (an inspect-ai task), `lm-eval` (an lm-evaluation-harness task) and `hf` (a Hugging Face
`datasets` folder with a card), for every family; and the formats a family writes for itself
(`Family.own_exports`: `ifeval-fc`, IFEval-FC rows in the paper's file layout for its own
evaluate.py). The first two score with ifforge's own checker for the row's
family (`benchmark.check`), so their scores equal `ifforge evaluate`'s on the same replies.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

FORMATS = {"inspect": "ifforge.exports.inspect_task", "lm-eval": "ifforge.exports.lm_eval_task",
           "hf": "ifforge.exports.hf_dataset"}


def export(benchmark, format: str, out: Path) -> dict[str, Any]:
    """Write `benchmark` (an `exports.benchmark.Benchmark`) in `format` to the folder `out`."""
    from ifforge.families import get_family

    own = get_family(benchmark.family).own_exports
    modules = {**FORMATS, **own}
    if format not in modules:
        raise ValueError(f"the {format!r} export is not for {benchmark.family} rows (formats: {', '.join(modules)})")
    return importlib.import_module(modules[format]).write(benchmark, Path(out))
