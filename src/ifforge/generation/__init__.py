"""A generate run without an orchestrator: `GenerateRun` (run.py) puts the steps in order and
`Accounts` (accounts.py) counts them; an engine (engines.py) says where the steps run; shards.py
is a chain's shard, what a Dask worker runs. `flows/generate.py` wraps the same run in Prefect."""

from __future__ import annotations

from pathlib import Path

from ifforge.core.settings import Settings
from ifforge.generation.engines import engine_for
from ifforge.generation.run import GenerateRun


def generate(settings: Settings) -> Path:
    """A version of the benchmark `settings` ask for, made with no orchestrator: in threads of this
    process, or its shards on Dask with `task_runner=dask`."""
    with engine_for(settings) as engine:
        return GenerateRun(settings).execute(engine)
