"""Prefect's Dask task runner, with its workers reporting to the flow's own Prefect API.

Prefect sends its settings with every task run it hands to a Dask worker. With no server named
(PREFECT_API_URL unset: Prefect's ephemeral mode) those settings name none either, so each worker
started a temporary Prefect server of its own: seconds of start-up and a database per worker, and
task runs the flow's UI never shows. This runner names the flow's temporary server in the
settings for as long as it runs, so the task runs it sends carry it and workers report there.
"""

from __future__ import annotations

from prefect.settings import PREFECT_API_URL, temporary_settings
from prefect_dask import DaskTaskRunner


class ReportingDaskTaskRunner(DaskTaskRunner):
    def __enter__(self):
        super().__enter__()
        if not PREFECT_API_URL.value():
            from prefect.server.api.server import SubprocessASGIServer  # imported already, in ephemeral mode

            server = SubprocessASGIServer()  # the temporary server this process reports to (`--temp-port`'s)
            server.start()  # up already: the flow run was created on it
            self._exit_stack.enter_context(temporary_settings(updates={PREFECT_API_URL: server.api_url}))
        return self
