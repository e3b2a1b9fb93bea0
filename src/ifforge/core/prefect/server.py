"""A Prefect server with its UI on 127.0.0.1 (sqlite under PREFECT_HOME), offline.

`ifforge server` keeps one in the foreground; tests start one in the background. While it is up
it is named in `$PREFECT_HOME/ifforge-server.json`, so flows started from this project report to
it whatever its port (see `env.configure`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ifforge.core.child_server import ChildServer, ChildServerError
from ifforge.core.prefect.env import forget_server, port_free, prefect_home, record_server, server_is_up, server_url


class PrefectServerError(ChildServerError):
    pass


class PrefectServer(ChildServer):
    label = "Prefect server"
    error = PrefectServerError

    def __init__(self, port: int, home: Path | None = None, startup_seconds: float = 120):
        env = {**os.environ, "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "PREFECT_UI_API_URL": server_url(port)}
        env.pop("PREFECT_API_URL", None)
        if home:
            env["PREFECT_HOME"] = str(home)
        super().__init__(port, startup_seconds, env)
        self.home = Path(home) if home else prefect_home()

    @property
    def api_url(self) -> str:
        return server_url(self.port)

    @property
    def ui_url(self) -> str:
        return self.origin

    @property
    def health_url(self) -> str:
        return f"{self.api_url}/health"

    def command(self) -> list[str]:
        if server_is_up(self.api_url):
            raise PrefectServerError(f"a Prefect server already answers on {self.api_url}; flows report to it "
                                     "already (or choose another --port)")
        if not port_free(self.port):
            raise PrefectServerError(f"port {self.port} is busy (another program listens on it); "
                                     "choose another with --port")
        return [sys.executable, "-m", "prefect", "server", "start", "--host", self.host,
                "--port", str(self.port), "--analytics-off"]

    def start(self):
        super().start()
        record_server(self.api_url, self.process.pid, self.home)
        return self

    def stop(self) -> None:
        forget_server(self.api_url, self.home)
        super().stop()
