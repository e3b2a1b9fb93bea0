"""The light install of an exported task, measured: a fresh virtual environment (no system site
packages) gets ifforge's wheel without its dependencies and the scoring core
(`python -m ifforge.light`), from the package index as pip is configured; then every
family's rows are scored there through each export's own path (the lm-eval task's
`process_results`, the inspect-ai task's scorer as a plain function, `check` as the datasets card
shows it), and the verdicts must equal the full install's.

    .venv/bin/python benchmarks/light_install.py [--keep DIR] [--harnesses]

`--harnesses` also installs inspect-ai and lm-eval there (the versions the full install has) and
runs every family's exported task in both, against a local OpenAI-compatible stub server: each
must finish and print its scores, with torch and Prefect still absent.

Prints the install's size (MB of the environment, and of its site-packages), the seconds each
step took, the packages installed, and whether torch, sentence-transformers or Prefect is there
(none may be). The rows are the ones tests/test_exports.py builds for each family.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import os
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(PROJECT / "src"), str(PROJECT / "tests")]

CLEAN = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}


def size_mb(folder: Path) -> float:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file() and not path.is_symlink()) / 1e6


def run(command: list[str], **kwargs) -> float:
    started = time.monotonic()
    subprocess.run(command, check=True, env=CLEAN, **kwargs)
    return time.monotonic() - started


def exports(folder: Path) -> dict[str, dict[str, bool]]:
    """Every family's rows exported to inspect-ai and lm-eval, a reply per row, and ifforge's verdicts
    on them in the full install."""
    from test_light_install import build_exports

    return build_exports(folder)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", help="build the environment in this folder and keep it")
    parser.add_argument("--harnesses", action="store_true",
                        help="also install inspect-ai and lm-eval there and run every family's exported task in each")
    args = parser.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="ifforge-light-"))
    if args.keep and work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    try:
        wheel_seconds = run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(work / "wheel"),
                             str(PROJECT)], stdout=subprocess.DEVNULL)
        wheel = next((work / "wheel").glob("ifforge-*.whl"))
        venv_seconds = run([sys.executable, "-m", "venv", str(work / "env")])
        python = work / "env" / "bin" / "python"
        before = size_mb(work / "env")
        own_seconds = run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)])
        printed = subprocess.run([str(python), "-m", "ifforge.light"], capture_output=True, text=True,
                                 check=True, env=CLEAN, cwd=work).stdout.split()
        core_seconds = run([str(python), "-m", "pip", "install", "--quiet", *printed], cwd=work)
        site = next((work / "env" / "lib").glob("python*/site-packages"))
        listed = json.loads(subprocess.run([str(python), "-m", "pip", "list", "--format", "json"], capture_output=True,
                                           text=True, check=True, env=CLEAN).stdout)
        names = sorted(entry["name"].lower() for entry in listed)
        heavy = [name for name in names if name in ("torch", "sentence-transformers", "prefect")]

        expected = exports(work / "exports")
        started = time.monotonic()
        done = subprocess.run([str(python), "-c", _score_script(), str(work / "exports"), ""], capture_output=True,
                              text=True, cwd=work, env=CLEAN)
        score_seconds = time.monotonic() - started
        if done.returncode != 0:
            print(done.stderr[-3000:])
            return 1
        scored = json.loads(done.stdout)["scored"]
        agree = {family: scored[family]["check"] == scored[family]["inspect"] == expected[family]
                 for family in expected}

        print(f"wheel {wheel.name}: built in {wheel_seconds:.1f} s")
        print(f"fresh venv: {venv_seconds:.1f} s, {before:.0f} MB")
        print(f"pip install --no-deps {wheel.name}: {own_seconds:.1f} s")
        print(f"pip install $(python -m ifforge.light): {core_seconds:.1f} s ({' '.join(printed)})")
        print(f"install: {own_seconds + core_seconds:.1f} s; environment {size_mb(work / 'env'):.0f} MB, "
              f"site-packages {size_mb(site):.0f} MB, {len(names)} packages")
        print(f"torch, sentence-transformers, prefect installed: {heavy or 'none'}")
        for family, same in agree.items():
            rows = len(expected[family])
            print(f"{family}: {rows} rows scored by lm-eval's process_results, inspect's scorer and check; "
                  f"verdicts {'equal' if same else 'DIFFER from'} the full install's")
        print(f"scoring in the light environment (imports included): {score_seconds:.1f} s")
        print(f"packages: {', '.join(names)}")
        ran = harnesses(work / "env", work / "exports") if args.harnesses else True
        return 0 if all(agree.values()) and not heavy and ran else 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def harnesses(env: Path, folder: Path) -> bool:
    """inspect-ai and lm-eval installed beside the light set, each running every family's export
    against a stub server that answers "no idea" (the harness must run and score, not the model)."""
    from importlib import metadata

    from ifforge.testing.openai_stub import Answer, StubServer

    python, bin_ = env / "bin" / "python", env / "bin"
    pins = [f"inspect-ai=={metadata.version('inspect_ai')}", f"lm-eval=={metadata.version('lm_eval')}"]
    seconds = run([str(python), "-m", "pip", "install", "--quiet", *pins])
    listed = json.loads(subprocess.run([str(python), "-m", "pip", "list", "--format", "json"], capture_output=True,
                                       text=True, check=True, env=CLEAN).stdout)
    heavy = [e["name"] for e in listed if e["name"].lower() in ("torch", "sentence-transformers", "prefect")]
    print(f"pip install {' '.join(pins)}: {seconds:.1f} s; environment {size_mb(env):.0f} MB, {len(listed)} packages; "
          f"torch, sentence-transformers, prefect installed: {heavy or 'none'}")
    ok = not heavy
    with StubServer(lambda request: Answer(content="no idea")) as stub:
        for family in sorted(path.name for path in folder.iterdir() if path.is_dir()):
            task = next((folder / family / "lm-eval").glob("*.yaml")).stem
            commands = {
                "inspect": [str(bin_ / "inspect"), "eval", "inspect/task.py", "--model",  # inspect takes a relative path
                            "openai-api/local/stub", "--display", "plain", "--log-format", "json",
                            "--log-dir", str(folder / family / "inspect-logs")],
                "lm-eval": [str(bin_ / "lm_eval"), "--model", "local-chat-completions", "--model_args",
                            f"base_url={stub.url}/chat/completions,model=stub", "--apply_chat_template",
                            "--include_path", str(folder / family / "lm-eval"), "--tasks", task,
                            "--output_path", str(folder / family / "lm-eval-results")]}
            for harness, command in commands.items():
                started = time.monotonic()
                done = subprocess.run(command, capture_output=True, text=True, cwd=folder / family,
                                      env={**CLEAN, "LOCAL_BASE_URL": stub.url, "LOCAL_API_KEY": "x",
                                           "OPENAI_API_KEY": "x"}, timeout=600)
                scored = done.returncode == 0 and results_written(harness, folder / family, task)
                ok &= scored
                print(f"{family}: {harness} {'ran and scored' if scored else 'FAILED'} in {time.monotonic() - started:.1f} s"
                      + ("" if scored else f": {(done.stderr or done.stdout)[-800:]}"))
    return ok


def results_written(harness: str, folder: Path, task: str) -> bool:
    """Whether the harness wrote a finished run with a number for every sample scored: inspect's log
    says `success` and holds a score per sample; lm-eval's results file holds the task's metrics."""
    if harness == "inspect":
        logs = sorted((folder / "inspect-logs").glob("*.json"))
        log = json.loads(logs[-1].read_text()) if logs else {}
        samples = log.get("samples") or []
        return log.get("status") == "success" and bool(samples) and all(sample.get("scores") for sample in samples)
    found = sorted((folder / "lm-eval-results").rglob("results_*.json"))
    metrics = json.loads(found[-1].read_text()).get("results", {}).get(task, {}) if found else {}
    return any(isinstance(value, (int, float)) for key, value in metrics.items() if key != "alias")


def _score_script() -> str:
    from test_light_install import SCORE as script

    return script


if __name__ == "__main__":
    sys.exit(main())
