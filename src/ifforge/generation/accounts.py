"""A generate run's accounts, kept in one place: per step its counts and seconds, every drop, the
LLM's usage and calls, and the items lost to an unreachable server.

The run hands each finished step here and logs the line it gets back; the manifest, the Prefect
summary and the last line read the totals. Shards of per-item stages arrive one at a time, in
order, so memory stays flat in the number of shards.
"""

from __future__ import annotations

import time
from typing import Any

from ifforge.core.llm.usage import Usage
from ifforge.core.records import DroppedItem
from ifforge.core.runner import Stage, StageRun
from ifforge.generation.artifacts import stage_line


class Accounts:
    def __init__(self):
        self.started = time.monotonic()
        self.counts: dict[str, dict[str, Any]] = {}  # per step, in the order steps finished
        self.seconds: dict[str, float] = {}
        self.busy: dict[str, float] = {}  # per-item stages: seconds their shards ran, summed
        self.dropped: list[DroppedItem] = []
        self.usage: dict[str, dict[str, Any]] = {}  # per step that asked a model
        self.calls: list[dict[str, Any]] = []
        self.lost = 0  # items that met an unreachable server: not cached, asked again next run

    def loaded(self, kept: int, dropped: list[DroppedItem], seconds: float) -> str:
        self.counts["load"] = {"in": kept + len(dropped), "out": kept}
        self.seconds["load"] = seconds
        self.dropped += dropped
        return stage_line("load", self.counts["load"], seconds, len(dropped))

    def batch(self, name: str, dropped: list[DroppedItem], counts: dict[str, Any], seconds: float) -> str:
        self.counts[name], self.seconds[name] = counts, seconds
        self.dropped += dropped
        return stage_line(name, counts, seconds, len(dropped))

    def chain(self, stages: list[Stage]) -> ChainAccount:
        return ChainAccount(self, stages)

    def side(self, name: str, usage: Usage, calls: list[dict[str, Any]], config: Any) -> None:
        """Side work's LLM usage, counted like a stage's when it asked (or found cached) anything."""
        if usage.calls or usage.cache_hits:
            self.usage[name] = {"model": config.model if config else None, **usage.report(config)}
            self.calls += calls

    def exported(self, items: int, export: dict[str, Any], seconds: float) -> str:
        self.counts["export"], self.seconds["export"] = {"in": items, "out": export["tasks"]}, seconds
        return stage_line("export", self.counts["export"], seconds)

    def total(self) -> float:
        self.seconds["total"] = time.monotonic() - self.started
        return self.seconds["total"]


class ChainAccount:
    """One chain of per-item stages, shard by shard: its stages' counts enter the run's accounts
    when the chain closes, each stage's seconds from the chain's start to its last shard's end
    (shards are pipelined)."""

    def __init__(self, accounts: Accounts, stages: list[Stage]):
        self.accounts, self.stages = accounts, stages
        self.begun = time.monotonic()
        self.rows = {stage.name: {"in": 0, "out": 0, "computed": 0, "lost": 0, "dropped": 0} for stage in stages}
        self.usage = {stage.name: Usage() for stage in stages}

    def shard(self, stage: Stage, run: StageRun) -> None:
        accounts, row, usage = self.accounts, self.rows[stage.name], self.usage[stage.name]
        accounts.calls += run.calls
        for name, value in (run.usage or {}).items():
            if hasattr(usage, name):
                setattr(usage, name, getattr(usage, name) + value)
        row["in"] += len(run.items)
        row["computed"] += run.computed
        row["lost"] += run.lost
        accounts.busy[stage.name] = accounts.busy.get(stage.name, 0.0) + run.seconds
        for outcome in run.outcomes:
            accounts.dropped += outcome.dropped
            row["out" if outcome.kept is not None else "dropped"] += 1
        accounts.seconds[stage.name] = time.monotonic() - self.begun

    def close(self) -> list[str]:
        """The stages' counts into the run's accounts; their log lines."""
        accounts, lines = self.accounts, []
        for stage in self.stages:
            row = self.rows[stage.name]
            accounts.counts[stage.name] = {"in": row["in"], "out": row["out"], "computed": row["computed"],
                                           "reused": row["in"] - row["computed"] - row["lost"]}
            accounts.lost += row["lost"]
            if stage.uses_llm:
                accounts.usage[stage.name] = {"model": stage.model, **self.usage[stage.name].report(stage.llm)}
            seconds = accounts.seconds.setdefault(stage.name, time.monotonic() - self.begun)
            lines.append(stage_line(stage.name, accounts.counts[stage.name], seconds, row["dropped"]))
        return lines
