#!/usr/bin/env bash
# Set up (or refresh) the project's virtual environment in .venv: idempotent, offline-safe once cached.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
# the review page's browser test drives Debian's chromium; install it where we may (root, apt)
if { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; } && [ "$(id -u)" = 0 ] \
        && command -v apt-get >/dev/null; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
# the sandbox's walls (namespaces: no network, no other processes, read-only system) come from
# bubblewrap; without it seed code runs with rlimits only, and every run warns and says so
if ! command -v bwrap >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null
fi
stamp=.venv/.ifforge-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    # torch first, the CPU build this machine keeps on disk; later requirements then accept it
    .venv/bin/python -m pip install --quiet "torch==2.13.0"
    .venv/bin/python -m pip install --quiet -e '.[test]'
    .venv/bin/python -m pip check
    touch "$stamp"
fi
