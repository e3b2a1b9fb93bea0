"""A generate run without an orchestrator: `GenerateRun` (run.py) does the work, an engine
(engines.py) says where its steps run, `Accounts` (accounts.py) counts. `flows/generate.py`
wraps the same run in Prefect."""

from __future__ import annotations

from pathlib import Path

from ifforge.core.settings import Settings
from ifforge.generation.engines import Engine, Threads
from ifforge.generation.run import GenerateRun, LostItems, Report

__all__ = ["Engine", "GenerateRun", "LostItems", "Report", "Threads", "generate"]


def generate(settings: Settings) -> Path:
    """A version of the benchmark `settings` ask for, made in this process (threads, no Prefect)."""
    with Threads() as engine:
        return GenerateRun(settings).execute(engine)
