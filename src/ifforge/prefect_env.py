"""Prefect's environment defaults for this project; call `configure()` before importing prefect.

Prefect reads its settings when it is first imported, so the defaults must be in place by then.
A user's own PREFECT_* variables always win.
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def configure() -> None:
    os.environ.setdefault("PREFECT_HOME", str(PROJECT_ROOT / ".prefect"))
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
