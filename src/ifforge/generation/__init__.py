"""A generate run without an orchestrator: `GenerateRun` (run.py) puts the steps in order and
`Accounts` (accounts.py) counts them; an engine (engines.py) says where the steps run; shards.py
is a chain's shard, all a Dask worker imports. `flows/generate.py` wraps the same run in Prefect.
Nothing is imported here, so a worker importing `shards` loads no more than it needs."""

from __future__ import annotations


def generate(settings):
    """A version of the benchmark `settings` ask for, made with no orchestrator: in threads of this
    process, or its shards on Dask with `task_runner=dask`."""
    from ifforge.generation.engines import engine_for
    from ifforge.generation.run import GenerateRun

    with engine_for(settings) as engine:
        return GenerateRun(settings).execute(engine)
