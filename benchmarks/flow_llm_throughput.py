"""LLM-bound runs through the real generate flow: wall time against the ideal, and the peak of
requests in flight against `llm_concurrency` (a ceiling for the whole run, however many shards).

A local server in its own process answers every request after a fixed delay (an answer no stage
accepts, so every LLM stage re-asks and then falls back: the calls are real and their count is
what the run made). Ideal = calls x delay / concurrency. Target: within 15% at 200 items.
A Prefect server is started first, as `ifforge server` keeps one for a user's runs; its start-up is
printed apart, and the ratio with it added too.
Usage: python benchmarks/flow_llm_throughput.py [--items 200] [--delay 1.0] [--concurrency 8] [--shard-size N]
       [--shards-in-flight N] [--timeline]
"""

import argparse
import json
import multiprocessing
import shutil
import tempfile
import threading
import time
from pathlib import Path

from ifforge.families.logicif.family import DEFAULT_SEEDS
from ifforge.testing.openai_stub import Answer, StubServer


def copy_seeds(count: int, folder: Path) -> Path:
    """`count` seeds in `folder`: the project's, round-robin, copied as they are (each its own task id)."""
    folder.mkdir()
    sources = sorted(DEFAULT_SEEDS.glob("*.py"))
    for index in range(count):
        source = sources[index % len(sources)]
        shutil.copy(source, folder / f"{source.stem}_{index:04d}.py")
    return folder


def serve(delay: float, url: multiprocessing.Queue, stop: multiprocessing.Event, peak: multiprocessing.Value,
          log: str) -> None:
    """The server lives in its own process, as a real one does; it counts the requests in flight and
    logs when each began and ended (wall clock, comparable across processes)."""
    lock, now, spans = threading.Lock(), [0], []

    def answer(request):
        begun = time.time()
        with lock:
            now[0] += 1
            peak.value = max(peak.value, now[0])
        time.sleep(delay)
        with lock:
            now[0] -= 1
            spans.append((begun, time.time()))
        return Answer(content="no usable answer")

    with StubServer(answer) as server:
        url.put(server.url)
        stop.wait()
    Path(log).write_text(json.dumps(spans))


def busy_share(spans: list, concurrency: int, start: float, end: float) -> float:
    """Mean requests in flight between start and end, over the ceiling."""
    return sum(min(b, end) - max(a, start) for a, b in spans if b > start and a < end) / (concurrency * (end - start))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=200)
    parser.add_argument("--delay", type=float, default=1.0)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--shard-size", type=int, default=None, help="default: the ceiling (factory.shard_size)")
    parser.add_argument("--shards-in-flight", type=int, default=None, help="default: the setting's default")
    parser.add_argument("--timeline", action="store_true", help="print the mean requests in flight per 5 s")
    args = parser.parse_args()

    from ifforge.flows.generate import generate

    work = Path(tempfile.mkdtemp(prefix="ifforge-flow-llm-"))
    seeds = copy_seeds(args.items, work / "seeds")
    url, stop, peak = multiprocessing.Queue(), multiprocessing.Event(), multiprocessing.Value("i", 0)
    log = str(work / "spans.json")
    server = multiprocessing.Process(target=serve, args=(args.delay, url, stop, peak, log), daemon=True)
    server.start()
    from prefect.testing.utilities import prefect_test_harness

    server_started = time.perf_counter()
    harness = prefect_test_harness(server_startup_timeout=120)
    harness.__enter__()
    server_seconds = time.perf_counter() - server_started
    try:
        options = {"base_url": url.get(timeout=30), "model": "bench", "progress": False, "dedup": False,
                   "expressions": 0, "evolve_turns": 1, "verify_rounds": 1, "llm_reasks": 0,
                   "llm_concurrency": args.concurrency,
                   "llm_cache": str(work / "responses.sqlite")}
        if args.shard_size:
            options["shard_size"] = args.shard_size
        if args.shards_in_flight:
            options["shards_in_flight"] = args.shards_in_flight
        started, started_clock = time.perf_counter(), time.time()
        folder = generate(seeds=str(seeds), out=str(work / "out"), options=options)
        wall, ended_clock = time.perf_counter() - started, time.time()
    finally:
        stop.set()
        server.join(timeout=10)
        harness.__exit__(None, None, None)
    manifest = json.loads((Path(folder) / "manifest.json").read_text())
    calls = sum(usage["calls"] for usage in manifest["llm"].values())
    ideal = calls * args.delay / args.concurrency
    shard_size = args.shard_size or f"{args.concurrency} (the ceiling: factory.shard_size)"
    print(f"items {args.items}, shard size {shard_size}, delay {args.delay:g} s, concurrency {args.concurrency}")
    per_stage = ", ".join(f"{stage} {usage['calls']}" for stage, usage in manifest["llm"].items())
    print(f"LLM calls {calls} ({per_stage})")
    print(f"wall {wall:.1f} s (flow body {manifest['seconds']['total']:.1f} s), ideal {ideal:.1f} s, "
          f"wall/ideal {wall / ideal:.3f}")
    print(f"Prefect server start {server_seconds:.1f} s (before the run); with it, wall/ideal "
          f"{(wall + server_seconds) / ideal:.3f}")
    print(f"peak requests in flight at the server: {peak.value} (ceiling {args.concurrency})")
    spans = json.loads(Path(log).read_text())
    first, last = min(a for a, _ in spans), max(b for _, b in spans)
    print(f"first request {first - started_clock:.1f} s after the start, last answer {ended_clock - last:.1f} s "
          f"before the end; between them the ceiling was used {busy_share(spans, args.concurrency, first, last):.1%}")
    if args.timeline:
        marks = [first + 5 * i for i in range(int((last - first) // 5) + 1)]
        print("in flight per 5 s:", " ".join(f"{busy_share(spans, 1, m, min(m + 5, last)):.1f}" for m in marks))
    stages = ", ".join(f"{name} {seconds:.1f}" for name, seconds in manifest["seconds"].items())
    print(f"flow seconds by step: {stages}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
