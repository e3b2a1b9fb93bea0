"""Prefect's Dask task runner, with its workers reporting to the flow's own Prefect API.

Prefect sends its settings with every task run it hands to a Dask worker. With no server named
(PREFECT_API_URL unset: Prefect's ephemeral mode) those settings name none either, so each worker
started a temporary Prefect server of its own: seconds of start-up and a database per worker, and
task runs the flow's UI never shows. This runner names the API the flow's process talks to in the
settings for as long as it runs, so the task runs it sends carry it and workers report there.
"""

from __future__ import annotations

from prefect.client.orchestration import get_client
from prefect.settings import PREFECT_API_URL, temporary_settings
from prefect_dask import DaskTaskRunner


class ReportingDaskTaskRunner(DaskTaskRunner):
    def __enter__(self):
        super().__enter__()
        # the flow's process has its server by now (a temporary one is started before the runner)
        url = str(get_client(sync_client=True).api_url).rstrip("/")
        if url.startswith("http") and url != PREFECT_API_URL.value():
            self._exit_stack.enter_context(temporary_settings(updates={PREFECT_API_URL: url}))
        return self
