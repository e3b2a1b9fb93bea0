"""Exports of a generated benchmark to where users already run evaluations.

`inspect` (an inspect-ai task), `lm-eval` (an lm-evaluation-harness task) and `hf` (a Hugging Face
`datasets` folder with a card), for every family; and the formats a family writes for itself
(`Family.exports`, such as an original's own file layout for its own evaluation script). The first
two score with ifforge's own checker for the row's family (`benchmark.check`), so their scores
equal `ifforge evaluate`'s on the same replies.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from ifforge.families import get_family

FORMATS = {"inspect": "ifforge.exports.inspect_task", "lm-eval": "ifforge.exports.lm_eval_task",
           "hf": "ifforge.exports.hf_dataset"}


def formats(family_id: str) -> dict[str, str]:
    """Every format a family's benchmarks can be exported to: format -> module with `write`."""
    return {**FORMATS, **get_family(family_id).exports}


def export(benchmark, format: str, out: Path) -> dict[str, Any]:
    """Write `benchmark` (an `exports.benchmark.Benchmark`) in `format` to the folder `out`."""
    modules = formats(benchmark.family)
    if format not in modules:
        raise ValueError(f"the {format!r} export is not for {benchmark.family} rows (formats: {', '.join(modules)})")
    return importlib.import_module(modules[format]).write(benchmark, Path(out))  # only the format asked for
