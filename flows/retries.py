"""When a failed generate task is tried again: unless its error is fatal (a 401/404 from the LLM
server, bad input), which another try would only repeat. Its own light module: Prefect sends the
condition with every task run it hands a Dask worker, and the worker imports it by name (from the
flow's module it imported Prefect's server, seconds of CPU per worker)."""

from __future__ import annotations


def unless_fatal(task, task_run, state) -> bool:
    from ifforge.core.llm_client import LLMFatal
    from ifforge.core.untrusted import InputError

    try:
        state.result()
    except (LLMFatal, InputError):
        return False
    except Exception:  # noqa: BLE001 - any other failure may be transient
        return True
    return True
