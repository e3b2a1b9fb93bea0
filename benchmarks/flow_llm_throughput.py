"""LLM-bound runs through the real generate flow: wall time against the ideal, and the peak of
requests in flight against `llm_concurrency` (a ceiling for the whole run, however many shards).

A local server in its own process answers every request after a fixed delay (an answer no stage
accepts, so every LLM stage re-asks and then falls back: the calls are real and their count is
what the run made). Ideal = calls x delay / concurrency. Target: within 15% at 200 items.
Usage: python benchmarks/flow_llm_throughput.py [--items 200] [--delay 1.0] [--concurrency 8]
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


def serve(delay: float, url: multiprocessing.Queue, stop: multiprocessing.Event, peak: multiprocessing.Value) -> None:
    """The server lives in its own process, as a real one does; it counts the requests in flight."""
    lock, now = threading.Lock(), [0]

    def answer(request):
        with lock:
            now[0] += 1
            peak.value = max(peak.value, now[0])
        time.sleep(delay)
        with lock:
            now[0] -= 1
        return Answer(content="no usable answer")

    with StubServer(answer) as server:
        url.put(server.url)
        stop.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=200)
    parser.add_argument("--delay", type=float, default=1.0)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--shard-size", type=int, default=64)
    args = parser.parse_args()

    from ifforge.flows.generate import generate

    work = Path(tempfile.mkdtemp(prefix="ifforge-flow-llm-"))
    seeds = work / "seeds"
    seeds.mkdir()
    sources = sorted(DEFAULT_SEEDS.glob("*.py"))
    for index in range(args.items):
        source = sources[index % len(sources)]
        shutil.copy(source, seeds / f"{source.stem}_{index:04d}.py")
    url, stop, peak = multiprocessing.Queue(), multiprocessing.Event(), multiprocessing.Value("i", 0)
    server = multiprocessing.Process(target=serve, args=(args.delay, url, stop, peak), daemon=True)
    server.start()
    try:
        options = {"base_url": url.get(timeout=30), "model": "bench", "progress": False, "dedup": False,
                   "expressions": 0, "evolve_turns": 1, "verify_rounds": 1, "llm_reasks": 0,
                   "llm_concurrency": args.concurrency, "shard_size": args.shard_size,
                   "llm_cache": str(work / "responses.sqlite")}
        started = time.perf_counter()
        folder = generate(seeds=str(seeds), out=str(work / "out"), options=options)
        wall = time.perf_counter() - started
    finally:
        stop.set()
        server.join(timeout=10)
    manifest = json.loads((Path(folder) / "manifest.json").read_text())
    calls = sum(usage["calls"] for usage in manifest["llm"].values())
    ideal = calls * args.delay / args.concurrency
    print(f"items {args.items}, shard size {args.shard_size}, delay {args.delay:g} s, concurrency {args.concurrency}")
    per_stage = ", ".join(f"{stage} {usage['calls']}" for stage, usage in manifest["llm"].items())
    print(f"LLM calls {calls} ({per_stage})")
    print(f"wall {wall:.1f} s (flow body {manifest['seconds']['total']:.1f} s), ideal {ideal:.1f} s, "
          f"wall/ideal {wall / ideal:.3f}")
    print(f"peak requests in flight at the server: {peak.value} (ceiling {args.concurrency})")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
