"""Prefect's environment for this project; call `configure()` before importing prefect.

Prefect reads its settings when it is first imported, so the defaults must be in place by then.
A user's own PREFECT_* variables always win. When no API URL is set and `ifforge server` is up
on 127.0.0.1, flows report to it (and show in its UI); otherwise Prefect runs them in its
ephemeral mode with a temporary local server.
"""

from __future__ import annotations

import os
from pathlib import Path

from ifforge.core.child_server import answers

_CHECKOUT = Path(__file__).resolve().parents[3]  # src/ifforge/core/ -> the checkout, in an editable install


def project_root() -> Path:
    """The checkout when running from one (its .prefect/ keeps Prefect's data), else the current folder."""
    return _CHECKOUT if (_CHECKOUT / "pyproject.toml").exists() else Path.cwd()
DEFAULT_PORT = 4200


def server_url(port: int | None = None) -> str:
    port = port or int(os.environ.get("IFFORGE_PREFECT_PORT", DEFAULT_PORT))
    return f"http://127.0.0.1:{port}/api"


def server_is_up(url: str, timeout: float = 0.5) -> bool:
    return answers(f"{url}/health", timeout)


def configure() -> str | None:
    """Set the project's Prefect defaults; return the API URL flows will report to, if any."""
    os.environ.setdefault("PREFECT_HOME", str(project_root() / ".prefect"))
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    if os.environ.get("PREFECT_API_URL"):
        return os.environ["PREFECT_API_URL"]
    if os.environ.get("IFFORGE_NO_SERVER_PROBE") != "1" and server_is_up(server_url()):
        os.environ["PREFECT_API_URL"] = server_url()
        return os.environ["PREFECT_API_URL"]
    from ifforge.core.orphans import guard_prefect_temporary_server

    guard_prefect_temporary_server()  # the temporary server dies with us, even on SIGKILL
    return None
