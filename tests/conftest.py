"""Shared test set-up: Prefect runs, and ifforge's own cache, against a throw-away home, never the user's."""

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
os.environ["IFFORGE_CACHE_DIR"] = os.path.join(_HOME, "ifforge-cache")  # code summaries (core.store.versions.CodeTree) too
os.environ["IFFORGE_NO_SERVER_PROBE"] = "1"  # hermetic: never report to a server a developer left running
# the tests' seeds are the project's own: they run where bubblewrap is missing too (test_seed_reach.py clears it)
os.environ["IFFORGE_ALLOW_UNWALLED_SEEDS"] = "1"
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
    points Prefect at another server: a worker left for a stopped server hangs the drain). A later
    flow test in this process starts it again."""
    _SHARED.close()
    _STARTED.clear()


def drain_prefect_workers():
    """Send this process's pending logs and events to the server Prefect points at now, and end the
    workers that send them (as the test harness does before it stops its server)."""
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker

    try:
        APILogWorker.instance().drain()
    except RuntimeError:  # never started
        pass
    EventsWorker.drain_all()


def pytest_sessionfinish(session, exitstatus):
    stop_shared_prefect_server()


# The slowest files, slowest first (seconds of one run on 2 cores): handed out first, so that the
# two processes finish together instead of one waiting out the last long file (longest first).
# `test_prefect_server.py` leads: its process has not started the shared server yet.
SLOWEST_FIRST = ("test_prefect_server.py",  # 54
                 "test_flow.py",  # 56
                 "test_embeddings.py",  # 35
                 "test_exports.py",  # 31
                 "test_replies.py",  # 30
                 "test_llm_pipeline.py",  # 26
                 "test_inputs.py",  # 23
                 "test_sandbox_isolation.py",  # 14
                 "test_stages.py",  # 13
                 "test_llm.py",  # 13
                 "test_pacific_languages.py",  # 11
                 "test_code_versions.py",  # 10
                 "test_pacific_flow.py")  # 9


def pytest_collection_modifyitems(items):
    """The slowest files first, the rest in their own order (`--no-loadscope-reorder` keeps this
    order under xdist's `--dist loadfile`)."""
    rank = {name: place for place, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
