"""Regenerate on new seed code: poll a seed folder and start a generate run when it changes.

Polling (not inotify) keeps it portable and dependency-free; a change is acted on once the folder
has been quiet for `settle` seconds, so an editor's burst of writes makes one run. Only changed
seeds are recomputed: everything else comes from the per-item caches.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from threading import Event

Snapshot = dict[str, tuple[int, int]]


def snapshot(folder: Path) -> Snapshot:
    return {str(p.relative_to(folder)): (p.stat().st_mtime_ns, p.stat().st_size)
            for p in sorted(Path(folder).rglob("*.py")) if p.is_file()}


def describe_change(before: Snapshot, after: Snapshot) -> str:
    added = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    changed = sorted(k for k in set(before) & set(after) if before[k] != after[k])
    parts = [f"{label}: {', '.join(names)}" for label, names in
             (("added", added), ("changed", changed), ("removed", removed)) if names]
    return "; ".join(parts)


def watch(folder: Path, on_change: Callable[[str], None], *, interval: float = 2.0, settle: float = 1.0,
          stop: Event | None = None, run_first: bool = False, max_runs: int | None = None) -> int:
    """Call `on_change(summary)` after each settled change; returns how many times it was called."""
    stop = stop or Event()
    runs = 0
    seen = snapshot(folder)
    if run_first:
        on_change("first run")
        runs += 1
    while not stop.is_set() and (max_runs is None or runs < max_runs):
        stop.wait(interval)
        current = snapshot(folder)
        if current == seen:
            continue
        while not stop.is_set():  # wait for the writes to settle
            stop.wait(settle)
            later = snapshot(folder)
            if later == current:
                break
            current = later
        summary = describe_change(seen, current)
        seen = current
        on_change(summary)
        runs += 1
    return runs


@dataclass(frozen=True)
class Triggered:
    message: str
    flow_run_id: str | None = None  # set when a deployment run was started (it runs elsewhere)


def trigger(folder: Path, options: dict | None = None, local: bool = False) -> Triggered:
    """Start a generate run for `folder`: through the served deployment when a server is up and it
    exists, else in this process."""
    # lazy on purpose: Prefect's set-up, only when a run starts
    from ifforge.core.prefect.env import configure

    api = configure()
    if api and not local:
        # lazy on purpose: Prefect (heavy), only when a run starts
        from prefect.deployments import run_deployment
        from prefect.exceptions import ObjectNotFound

        try:
            run = run_deployment("generate/generate", parameters={"seeds": str(folder), "options": options or {}},
                                 timeout=0)
            return Triggered(f"started deployment run {run.name} ({run.id}) on {api}", str(run.id))
        except ObjectNotFound:
            pass
    # lazy on purpose: the generate flow imports Prefect (heavy), only when a run starts
    from ifforge.flows.generate import generate

    folder_out = generate(seeds=str(folder), options=options or {})
    return Triggered(f"ran generate in this process: {folder_out}")


def ended(flow_run_id: str, poll: float = 1.0, timeout: float | None = None) -> str:
    """How a deployment run that `trigger` started ended, waited for: a line with its final state
    and the state's message ("deployment run generate-logicif-v002 ended Completed: ..."); after
    `timeout` seconds, the state it is still in."""
    # lazy on purpose: Prefect (heavy), only when a deployment run was started
    from uuid import UUID

    from prefect.client.orchestration import get_client

    deadline = None if timeout is None else time.monotonic() + timeout
    with get_client(sync_client=True) as client:
        while True:
            run = client.read_flow_run(UUID(flow_run_id))
            state = run.state
            if state is not None and state.is_final():
                return f"deployment run {run.name} ended {state.name}" + (f": {state.message}" if state.message else "")
            if deadline is not None and time.monotonic() >= deadline:
                return f"deployment run {run.name} is still {state.name if state else 'without a state'} after {timeout:g} s"
            time.sleep(poll)
