"""Ctrl-C at every moment of `ifforge evaluate`'s start: does the command always stop cleanly?

A stub OpenAI-compatible server on 127.0.0.1 answers every request after 60 s, so requests are
always in flight; `ifforge evaluate` runs on four rows in a fresh process and gets SIGINT after
each given delay (during imports, while Prefect's temporary server starts, while it asks). A clean
stop exits 130 and says "evaluate stopped"; anything else is printed with the end of its stderr.
Found: SIGINT about 1 s in met `llm.client` half imported (exit 1, a traceback), since fixed; once,
at 2.5 s, an exit by the signal itself (-2) after the message, not seen again.

Usage: python benchmarks/ctrl_c_timing.py [--delays 0.3 0.6 1 1.5 2 2.5 3 4 6 8] [--rounds 1]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ifforge.testing.openai_stub import Answer, StubServer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delays", type=float, nargs="+", default=[0.3, 0.6, 1, 1.5, 2, 2.5, 3, 4, 6, 8])
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ifforge-ctrl-c-"))
    rows = [{"task_id": f"t{k}", "test_case_id": 0, "input": [k], "code_output": {"output": k, "stats": {"n": k}},
             "instruction": f"[t{k}#0] Do it."} for k in range(4)]
    (work / "rows.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    env = {**os.environ, "OPENAI_API_KEY": "k", "PREFECT_HOME": str(work / "prefect-home"), "IFFORGE_NO_SERVER_PROBE": "1"}
    env.pop("PREFECT_API_URL", None)
    clean = total = 0
    try:
        with StubServer(lambda request: Answer(content="later", delay=60)) as server:
            for _ in range(args.rounds):
                for delay in args.delays:
                    process = subprocess.Popen(
                        [sys.executable, "-m", "ifforge.cli", "evaluate", str(work / "rows.jsonl"), "--model", "m",
                         "--base-url", server.url, "--no-progress", "--timeout", "300"],
                        env=env, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                    time.sleep(delay)
                    process.send_signal(signal.SIGINT)
                    try:
                        _, err = process.communicate(timeout=60)
                    except subprocess.TimeoutExpired:
                        process.kill()
                        _, err = process.communicate()
                    said = "ifforge: evaluate stopped" in err
                    ok = process.returncode == 130 and said
                    clean, total = clean + ok, total + 1
                    print(f"SIGINT at {delay:4.1f} s: exit {process.returncode}, "
                          f"{'clean' if ok else 'NOT CLEAN'}, load {os.getloadavg()[0]:.1f}", flush=True)
                    if not ok:
                        print("  " + "\n  ".join(err.strip().splitlines()[-12:]), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{clean} of {total} stopped cleanly")


if __name__ == "__main__":
    main()
