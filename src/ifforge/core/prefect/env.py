"""Prefect's environment for this project; call `configure()` before importing prefect.

Prefect reads its settings when it is first imported, so the defaults must be in place by then.
A user's own PREFECT_* variables always win. Without PREFECT_API_URL, flows report to the server
`ifforge server` started (it names itself in `$PREFECT_HOME/ifforge-server.json`, read only while
that server answers), else to one on the default port; otherwise Prefect runs them with a temporary
local server, on the port `IFFORGE_TEMP_SERVER_PORT` names (`--temp-port`) or a random one.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
from pathlib import Path

from ifforge.core.child_server import answers
from ifforge.core.orphans import guard_prefect_temporary_server
from ifforge.core.store.versions import out_of_space, write_json
from ifforge.core.untrusted import InputError

_CHECKOUT = Path(__file__).resolve().parents[4]  # src/ifforge/core/prefect/ -> the checkout, in an editable install
DEFAULT_PORT = 4200
STATE_FILE = "ifforge-server.json"
TEMP_PORT_VARIABLE = "IFFORGE_TEMP_SERVER_PORT"


class PortBusy(RuntimeError):
    """A port asked for is taken; the message says which and what to do."""


def project_root() -> Path:
    """The checkout when running from one (its .prefect/ keeps Prefect's data), else the current folder."""
    return _CHECKOUT if (_CHECKOUT / "pyproject.toml").exists() else Path.cwd()


def server_url(port: int | None = None) -> str:
    port = port or int(os.environ.get("IFFORGE_PREFECT_PORT", DEFAULT_PORT))
    return f"http://127.0.0.1:{port}/api"


def server_is_up(url: str, timeout: float = 0.5) -> bool:
    return answers(f"{url}/health", timeout)


def port_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def prefect_home() -> Path:
    return Path(os.environ.get("PREFECT_HOME") or project_root() / ".prefect")


def state_path(home: Path | None = None) -> Path:
    return Path(home or prefect_home()) / STATE_FILE


def record_server(api_url: str, pid: int, home: Path | None = None) -> None:
    """Name the running `ifforge server` for later runs (written by the server's parent)."""
    write_json(state_path(home), {"api_url": api_url, "pid": pid})


def forget_server(api_url: str, home: Path | None = None) -> None:
    """Remove the state file, if it still names this server (another may have replaced it)."""
    path = state_path(home)
    if recorded_url(path) == api_url:
        path.unlink(missing_ok=True)


def recorded_url(path: Path) -> str | None:
    try:
        url = json.loads(path.read_text()).get("api_url")
    except (OSError, ValueError, AttributeError):
        return None
    return url if isinstance(url, str) and url.startswith("http://127.0.0.1:") else None


def running_server() -> str | None:
    """The API URL of a live `ifforge server`: the recorded one, else one on the default port."""
    recorded = recorded_url(state_path())
    for url in (recorded, server_url()):
        if url and server_is_up(url):
            return url
    return None


def reporting_server() -> str | None:
    """The API URL flows would report to (PREFECT_API_URL, else a live `ifforge server`), or None:
    then a flow call starts Prefect's temporary server."""
    if os.environ.get("PREFECT_API_URL"):
        return os.environ["PREFECT_API_URL"]
    if os.environ.get("IFFORGE_NO_SERVER_PROBE") != "1":
        return running_server()
    return None


def pin_temporary_port(port: int) -> None:
    """Prefect has no setting for its temporary server's port: the instance it will start is
    created here with that port (Prefect keeps one instance per port, `None` being the default)."""
    if not port_free(port):
        raise PortBusy(f"port {port} for Prefect's temporary server is busy; choose another with --temp-port "
                       f"(or {TEMP_PORT_VARIABLE})")
    # lazy on purpose: Prefect's server (heavy), only when a port is pinned
    from prefect.server.api.server import SubprocessASGIServer

    SubprocessASGIServer().port = port


class UserErrorsInOneLine(logging.Filter):
    """Prefect logs a failed task or flow run with its traceback. An error meant for the user (an
    `InputError`: a full disk, a benchmark another run is writing, a bad input) keeps its one line
    there; the command says it again, last."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is not None:
            if isinstance(error, InputError) or out_of_space(error):
                record.exc_info, record.exc_text = None, None
        return True


def quiet_user_errors() -> None:
    """Put `UserErrorsInOneLine` on Prefect's flow-run and task-run loggers (once)."""
    for name in ("prefect.flow_runs", "prefect.task_runs"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, UserErrorsInOneLine) for f in logger.filters):
            logger.addFilter(UserErrorsInOneLine())


def configure() -> str | None:
    """Set the project's Prefect defaults; return the API URL flows will report to, if any."""
    quiet_user_errors()
    os.environ.setdefault("PREFECT_HOME", str(project_root() / ".prefect"))
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    # a run logs one line per stage (ifforge's own); Prefect's "Finished in state Completed()" per
    # task run is left out, its warnings and errors are not
    os.environ.setdefault("PREFECT_LOGGING_LOGGERS_PREFECT_TASK_RUNS_LEVEL", "WARNING")
    url = reporting_server()
    if url:
        os.environ["PREFECT_API_URL"] = url
        return url
    if os.environ.get(TEMP_PORT_VARIABLE):
        pin_temporary_port(int(os.environ[TEMP_PORT_VARIABLE]))
    guard_prefect_temporary_server()  # the temporary server dies with us, even on SIGKILL
    return None


def flow_run_settings():
    """Prefect's settings for a command's flow run. With no server to report to (Prefect's temporary
    one ends with the command), no flow-run heartbeats: nothing outlives the run to read them, and
    the run's end waits for the heartbeat thread, which sleeps in 1 s steps (0.5 s of `ifforge
    evaluate`'s tail in a timeline)."""
    # lazy on purpose: Prefect (heavy), after the settings it reads are set
    from prefect.settings import PREFECT_API_URL, PREFECT_FLOWS_HEARTBEAT_FREQUENCY, temporary_settings

    if PREFECT_API_URL.value():  # Prefect's own answer: from the environment, a profile or a test harness
        return contextlib.nullcontext()
    return temporary_settings(updates={PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None})
