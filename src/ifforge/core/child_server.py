"""A server run as a child process in its own session: started, waited for until its health URL
answers, and stopped with its whole process group (so nothing outlives the command that started it)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from ifforge.core.orphans import guard


class ChildServerError(RuntimeError):
    pass


def answers(url: str, timeout: float = 1.0) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError, ValueError):
        return False


class ChildServer:
    """Subclasses give `label`, `command()` (listening on `host` and `port`) and `health_url`;
    `error` is the exception they raise."""

    label = "server"
    error: type[Exception] = ChildServerError
    host = "127.0.0.1"  # this machine only

    def __init__(self, port: int, startup_seconds: float, env: dict[str, str] | None = None):
        self.port = port
        self.startup_seconds = startup_seconds
        self.env = env
        self.process: subprocess.Popen | None = None
        self.log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"ifforge-{self.label.split()[0].lower()}-{port}.log"

    @property
    def origin(self) -> str:
        """Where the server answers, without a path."""
        return f"http://{self.host}:{self.port}"

    @property
    def health_url(self) -> str:
        raise NotImplementedError

    def command(self) -> list[str]:
        raise NotImplementedError

    def start(self):
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT, env=self.env,
                                            start_new_session=True)
        guard(self.process.pid, group=True)  # stopped even if we are killed with SIGKILL
        deadline = time.monotonic() + self.startup_seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                tail = self.log_path.read_text(errors="replace")[-800:]
                raise self.error(f"{self.label} exited with {self.process.returncode}: {tail}")
            if answers(self.health_url):
                return self
            time.sleep(0.5)
        self.stop()
        raise self.error(f"{self.label} did not answer within {self.startup_seconds:.0f} s (log: {self.log_path})")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
