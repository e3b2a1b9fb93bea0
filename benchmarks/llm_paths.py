"""The generate flow's LLM path and `evaluate` side by side, against ONE server in its own process
answering every request after a fixed delay: each as wall / (calls x delay / concurrency), with
the CPU (user+sys) and the load average, and where the time outside the requests went.

Three runs, in this order:
- generate: the real generate flow on N seeds (every LLM stage re-asks and falls back, as in
  `flow_llm_throughput.py`), reported to a Prefect server started first (as `ifforge server` keeps
  one); the server's start-up is printed apart.
- evaluate flow: the evaluate flow on N LogicIF cases, reported to the same Prefect server.
- evaluate CLI: `ifforge evaluate` in a fresh process with no Prefect server up (it starts Prefect's
  temporary server, as a user's first run does), its wall time from the command to its exit.

For each: the first request's time after the start, the share of the ceiling kept busy between
the first request and the last answer, and the time after the last answer. The CPU of the
in-process runs is this process's only (not the Prefect server's); the CLI's is its whole tree.
With `--against SRC` only the CLI runs, `--rounds` times each way, alternating: with SRC first on
PYTHONPATH (before: another checkout's `src`), then with this checkout's (after).
Usage: python benchmarks/llm_paths.py [--seeds 100] [--cases 200] [--delay 0.5] [--concurrency 8]
       [--against /path/to/other/src --rounds 3]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flow_llm_throughput import busy_share, copy_seeds  # noqa: E402
from flow_scale import load  # noqa: E402

EVALUATE_MARK = "[t"  # an evaluate case's prompt starts with its label; generate's prompts never do


def serve(delay: float, url: multiprocessing.Queue, stop: multiprocessing.Event, log: str) -> None:
    """One server for every run: logs when each request began and ended (wall clock, comparable
    across processes); answers evaluate's cases right, generate's with nothing usable."""
    lock, spans = threading.Lock(), []

    from ifforge.testing.openai_stub import Answer, StubServer

    def answer(request):
        begun = time.time()
        time.sleep(delay)
        with lock:
            spans.append((begun, time.time()))
        content = request["messages"][-1]["content"]
        if content.startswith(EVALUATE_MARK):
            k = content.split("#")[0][2:]
            return Answer(content=f'{{"output": {k}, "stats": {{"n": {k}}}}}')
        return Answer(content="no usable answer")

    with StubServer(answer) as server:
        url.put(server.url)
        stop.wait()
    Path(log).write_text(json.dumps(spans))


def cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def report(name: str, calls: int, args, begun: float, ended: float, cpu: float, before: str, spans: list) -> None:
    ideal = calls * args.delay / args.concurrency
    wall = ended - begun
    mine = [(a, b) for a, b in spans if begun <= a and b <= ended]
    print(f"{name}: {calls} calls, wall {wall:.1f} s, ideal {ideal:.1f} s, wall/ideal {wall / ideal:.3f}; "
          f"CPU {cpu:.1f} s; load {before} -> {load()}")
    if mine:
        first, last = min(a for a, _ in mine), max(b for _, b in mine)
        print(f"  first request {first - begun:.1f} s after the start; between it and the last answer the "
              f"ceiling was used {busy_share(mine, args.concurrency, first, last):.1%} "
              f"({last - first:.1f} s for {len(mine)} requests); {ended - last:.1f} s after the last answer")


def write_cases(path: Path, count: int) -> None:
    rows = [{"task_id": f"t{k}", "test_case_id": 0, "input": [k], "code_output": {"output": k, "stats": {"n": k}},
             "instruction": f"{EVALUATE_MARK}{k}#0] Do it."} for k in range(count)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


def calls_of(folder: Path) -> int:
    return sum(1 for _ in (folder / "llm_calls.jsonl").open())


def evaluate_cli(cases: Path, base_url: str, args, source: Path) -> tuple:
    """`ifforge evaluate` in a fresh process, with no Prefect server up, from `source` (a `src` folder)."""
    env = {**os.environ, "IFFORGE_NO_SERVER_PROBE": "1", "OPENAI_API_KEY": "k", "PYTHONPATH": str(source)}
    env.pop("PREFECT_API_URL", None)
    before, cpu, begun = load(), cpu_children(), time.time()
    done = subprocess.run([sys.executable, "-m", "ifforge.cli", "evaluate", str(cases), "--model", "bench",
                           "--base-url", base_url, "--concurrency", str(args.concurrency), "--max-retries", "0",
                           "--no-cache", "--no-progress"], capture_output=True, text=True, env=env)
    ended = time.time()
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    return calls_of(Path(done.stdout.strip().splitlines()[-1]).parent), begun, ended, cpu_children() - cpu, before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100, help="seeds of the generate run (0: skip it)")
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--delay", type=float, default=0.5)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--against", type=Path, help="another checkout's src: the CLI alone, before and after in turn")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: runs each way")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="ifforge-llm-paths-"))
    log = str(work / "spans.json")
    url, stop = multiprocessing.Queue(), multiprocessing.Event()
    server = multiprocessing.Process(target=serve, args=(args.delay, url, stop, log), daemon=True)
    server.start()
    base_url = url.get(timeout=60)
    cases = work / "bench" / "benchmark.jsonl"
    write_cases(cases, args.cases)
    marks: dict[str, tuple] = {}
    print(f"delay {args.delay:g} s, concurrency {args.concurrency}, {os.cpu_count()} cores, load {load()}", flush=True)
    try:
        # the CLI first, with no Prefect server up in this process's tree
        here = Path(__file__).resolve().parents[1] / "src"
        if args.against:
            for round_ in range(1, args.rounds + 1):
                for label, source in (("before", args.against), ("after", here)):
                    marks[f"evaluate CLI, {label} ({source}), round {round_}"] = evaluate_cli(cases, base_url, args,
                                                                                             source)
        else:
            marks["evaluate CLI (its own temporary Prefect server)"] = evaluate_cli(cases, base_url, args, here)

        if not args.against:  # the flows, reported to a Prefect server up first
            # prefect is first imported here, before any ifforge flow module sets the project's defaults:
            # without this its test server's telemetry met a locked database and printed a traceback
            os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
            from prefect.testing.utilities import prefect_test_harness

            started = time.perf_counter()
            with prefect_test_harness(server_startup_timeout=120):
                from prefect.client.orchestration import get_client

                with get_client(sync_client=True) as client:  # its first answer, as from a server up for a while
                    client.api_version()
                print(f"Prefect server for the in-process runs: {time.perf_counter() - started:.1f} s to start and "
                      "answer", flush=True)
                from ifforge.flows.evaluate import evaluate

                before, cpu, begun = load(), cpu_self(), time.time()
                folder = Path(evaluate(benchmark=str(cases), model="bench", base_url=base_url, progress=False,
                                       options={"llm_concurrency": args.concurrency, "llm_max_retries": 0,
                                                "no_cache": True}))
                marks["evaluate flow"] = (calls_of(folder), begun, time.time(), cpu_self() - cpu, before)
                if args.seeds:
                    from ifforge.flows.generate import generate

                    seeds = copy_seeds(args.seeds, work / "seeds")
                    options = {"base_url": base_url, "model": "bench", "progress": False, "dedup": False,
                               "expressions": 0, "evolve_turns": 1, "verify_rounds": 1, "llm_reasks": 0,
                               "llm_concurrency": args.concurrency, "llm_cache": str(work / "responses.sqlite")}
                    before, cpu, begun = load(), cpu_self(), time.time()
                    folder = Path(generate(seeds=str(seeds), out=str(work / "out"), options=options))
                    manifest = json.loads((folder / "manifest.json").read_text())
                    calls = sum(usage["calls"] for usage in manifest["llm"].values())
                    marks["generate flow"] = (calls, begun, time.time(), cpu_self() - cpu, before)
    finally:
        stop.set()
        server.join(timeout=60)
    spans = json.loads(Path(log).read_text())
    print(f"the server answered {len(spans)} requests")
    for name, (calls, begun, ended, cpu, before) in marks.items():
        report(name, calls, args, begun, ended, cpu, before, spans)
    if args.against:
        for label in ("before", "after"):
            ratios = sorted((ended - begun) / (calls * args.delay / args.concurrency)
                            for name, (calls, begun, ended, _, _) in marks.items() if f", {label} (" in name)
            print(f"{label}: wall / ideal {', '.join(f'{r:.3f}' for r in ratios)}; median {ratios[len(ratios) // 2]:.3f}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
