"""Shared test set-up: Prefect runs against a throw-away home, never the user's."""

import atexit
import contextlib
import os
import shutil
import tempfile
from pathlib import Path

import pytest

_HOME = tempfile.mkdtemp(prefix="ifforge-test-prefect-")
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)
os.environ["PREFECT_HOME"] = _HOME
os.environ["IFFORGE_NO_SERVER_PROBE"] = "1"  # hermetic: never report to a server a developer left running
os.environ.pop("PREFECT_API_URL", None)
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "logicifeval"
PROJECT = Path(__file__).resolve().parents[1]


def needs_fixture(name: str) -> Path:
    path = FIXTURES / name
    if not path.exists():
        pytest.skip(f"LogicIFEval fixture {path} is not present")
    return path


_SHARED = contextlib.ExitStack()
_STARTED = []


@pytest.fixture
def prefect_server():
    """One temporary Prefect server for every flow test of the session, started on first use
    (unit tests never start it) and stopped before the tests against a real `ifforge server`."""
    if not _STARTED:
        from prefect.testing.utilities import prefect_test_harness

        _SHARED.enter_context(prefect_test_harness(server_startup_timeout=120))
        _STARTED.append(True)
    yield


def stop_shared_prefect_server():
    """Stop the shared server (it drains Prefect's event workers, which must happen before any test
    points Prefect at another server: a worker left for a stopped server hangs the drain)."""
    _SHARED.close()


def pytest_sessionfinish(session, exitstatus):
    stop_shared_prefect_server()


def pytest_collection_modifyitems(items):
    """Tests against a real `ifforge server` run last, after the shared server is stopped (under
    xdist's `--dist loadfile` their file is handed out last, to a process of its own server)."""
    items.sort(key=lambda item: 1 if item.path.name == "test_prefect_server.py" else 0)
