"""The `generate` flow, one for every family: a `GenerateRun` (`ifforge.generation`) on Prefect.

The run decides what happens (load -> the family's plan -> export -> manifest) and counts it; this
flow only says how each kind of step becomes a Prefect task (retried or not, named after its
stage) and what the UI shows: the run's name once its version is known, its log lines, a summary
and a table of finished tasks as artifacts. Batch steps run as one task each, per-item stages as
one task per stage per shard, on Prefect's thread runner; with `task_runner=dask` a shard's task
sends its work to a Dask cluster and waits for it (the workers run no Prefect). Caching is per
item, by content, in `<out>/<benchmark>/.cache/` (see `ifforge.core.runner`): Prefect caches no
results, so deleting the outputs folder starts over for real.

Run it as `ifforge generate --family F ...`, from Python (`ifforge.flows.generate.generate`), or as a
deployment (`ifforge deploy`, see `serve.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

from ifforge.core.prefect.env import configure

configure()

from prefect import flow, get_run_logger, task  # noqa: E402
from prefect.artifacts import create_markdown_artifact, create_table_artifact  # noqa: E402
from prefect.cache_policies import NO_CACHE  # noqa: E402

from ifforge.core.llm.client import LLMFatal  # noqa: E402
from ifforge.core.untrusted import InputError  # noqa: E402
from ifforge.flows.naming import provisional_name, rename_flow_run, slug  # noqa: E402
from ifforge.generation.engines import BATCH, EXPORT, LOAD, SIDE, STAGE, Dask  # noqa: E402
from ifforge.generation.run import GenerateRun, LostItems, Report  # noqa: E402

__all__ = ["LostItems", "generate"]


def unless_fatal(task, task_run, state) -> bool:
    """Try a failed step again unless its error is fatal (a 401/404 from the LLM server, bad input):
    another try would only repeat it."""
    try:
        state.result()
    except (LLMFatal, InputError):
        return False
    except Exception:  # noqa: BLE001 - any other failure may be transient
        return True
    return True


# how each kind of step runs as a Prefect task: reading the inputs is how a run learns what
# changed, so nothing is cached by Prefect; a shard is retried unless its error is fatal
TASK_OPTIONS: dict[str, dict[str, Any]] = {
    LOAD: {"retries": 1, "retry_delay_seconds": 1, "retry_condition_fn": unless_fatal},
    BATCH: {"retries": 1, "retry_delay_seconds": 1},
    SIDE: {"retries": 1, "retry_delay_seconds": 1},
    STAGE: {"retries": 2, "retry_delay_seconds": 2, "persist_result": False, "retry_condition_fn": unless_fatal},
    EXPORT: {},
}


class PrefectTasks:
    """The run's engine on Prefect: each step a task run of this flow, on its thread runner. With
    `task_runner=dask` a shard's task hands its work to the `Dask` engine and waits for it there:
    the task run (its state, retries, timing) is recorded here, and the workers run no Prefect."""

    def __init__(self, remote: Dask | None = None):
        self.remote = remote
        self._tasks: dict[tuple[str, str, Callable], Any] = {}

    def _task(self, kind: str, name: str, function: Callable):
        """Made once per step: a Task reads its function's source and hashes its code."""
        key = (kind, name, function)
        if key not in self._tasks:
            self._tasks[key] = task(function, name=name, cache_policy=NO_CACHE, **TASK_OPTIONS[kind])
        return self._tasks[key]

    def call(self, kind: str, name: str, function: Callable, *args: Any) -> Any:
        return self._task(kind, name, function)(*args)

    def submit(self, kind: str, name: str, function: Callable, *args: Any) -> Any:
        if self.remote is None:
            return self._task(kind, name, function).submit(*args)  # a shard is one value to Prefect (`shards.Shard`)
        return self._task(kind, name, on_remote).submit(self.remote, kind, name, function, *args)

    def result(self, handle: Any) -> Any:
        value = handle.result()
        return value if self.remote is None else self.remote.result(value)


def on_remote(engine: Dask, kind: str, name: str, function: Callable, *args: Any) -> Any:
    """A step done on the remote engine, its task run recorded here: returns the step's handle
    there, so the next stage of the shard takes its items from the worker that has them."""
    return engine.settle(engine.submit(kind, name, function, *args))


class PrefectReport(Report):
    """The run's log lines on the flow run's logger; its name and artifacts in the UI."""

    def __init__(self):
        super().__init__(get_run_logger())

    def version(self, run: GenerateRun, store) -> None:
        rename_flow_run(slug("generate", run.settings.benchmark, store.version))

    def publish(self, run: GenerateRun, store, summary: str) -> None:
        benchmark = run.settings.benchmark
        create_markdown_artifact(summary, key=slug(benchmark, "generate-summary"),
                                 description=f"{benchmark} ({run.family.id}) generate run summary")
        table = run.family.summary_table(store)
        if table:
            create_table_artifact(table, key=slug(benchmark, "generate-tasks"),
                                  description=f"{benchmark}: finished tasks")


@flow(name="generate", log_prints=True, flow_run_name=provisional_name("generate", "benchmark", "family"))
def generate(family: str = "logicif", seeds: str | None = None, functions: str | None = None,
             test_cases: str | None = None, out: str | None = None, benchmark: str | None = None,
             options: dict[str, Any] | None = None, config: str | None = None) -> str:
    """Generate (or find, when nothing changed) a benchmark version of `family`; returns its folder."""
    run = GenerateRun.from_parameters({"family": family, "seeds": seeds, "functions": functions,
                                       "test_cases": test_cases, "out": out, "benchmark": benchmark,
                                       "options": options, "config": config})
    settings = run.settings
    shards = Dask(settings.dask_address, settings.dask_workers) if settings.task_runner == "dask" else nullcontext()
    with shards as remote:  # None on the thread runner
        return str(run.execute(PrefectTasks(remote), PrefectReport()))
