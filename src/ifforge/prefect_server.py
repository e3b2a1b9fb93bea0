"""A Prefect server with its UI on 127.0.0.1 (sqlite under PREFECT_HOME), offline.

`ifforge server` keeps one in the foreground; tests start one in the background. While one is up
on the default port, flows started from this project report to it (see `prefect_env.configure`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from ifforge.prefect_env import server_is_up, server_url


class PrefectServerError(RuntimeError):
    pass


class PrefectServer:
    def __init__(self, port: int, home: Path | None = None, startup_seconds: float = 120):
        self.port = port
        self.home = home
        self.startup_seconds = startup_seconds
        self.process: subprocess.Popen | None = None
        self.log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"ifforge-prefect-server-{port}.log"

    @property
    def api_url(self) -> str:
        return server_url(self.port)

    @property
    def ui_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> PrefectServer:
        if server_is_up(self.api_url):
            raise PrefectServerError(f"something already answers on {self.api_url}")
        env = {**os.environ, "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "PREFECT_UI_API_URL": self.api_url}
        env.pop("PREFECT_API_URL", None)
        if self.home:
            env["PREFECT_HOME"] = str(self.home)
        command = [sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1",
                   "--port", str(self.port), "--analytics-off"]
        log = open(self.log_path, "wb")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env,
                                        start_new_session=True)
        deadline = time.monotonic() + self.startup_seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise PrefectServerError(f"prefect server exited with {self.process.returncode}: "
                                         f"{self.log_path.read_text(errors='replace')[-800:]}")
            if server_is_up(self.api_url, timeout=1):
                return self
            time.sleep(0.5)
        self.stop()
        raise PrefectServerError(f"prefect server did not answer within {self.startup_seconds:.0f} s ({self.log_path})")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def __enter__(self) -> PrefectServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
