"""LLM throughput: N single-call items through llm.py against a local server that answers after a
fixed delay, at concurrency 1, 4 and 16; wall time beside the ideal (calls x delay / concurrency).
Target: within 15% of ideal at concurrency 16 for 200 items.
Usage: python benchmarks/llm_throughput.py [--items 200] [--delay 1.0]   (about 4.5 minutes)
"""

import argparse
import asyncio
import multiprocessing
import time

from ifforge.core.llm.client import LLM, LLMConfig
from ifforge.testing.openai_stub import Answer, StubServer


async def run_items(url: str, items: int, concurrency: int, tag: str) -> float:
    llm = LLM(LLMConfig(model="bench", base_url=url, api_key="k", concurrency=concurrency, timeout=60))
    started = time.perf_counter()
    try:
        await asyncio.gather(*(llm.chat([{"role": "user", "content": f"{tag} item {i}"}], stage="bench")
                               for i in range(items)))
    finally:
        await llm.close()
    return time.perf_counter() - started


def serve(delay: float, port: multiprocessing.Queue, stop: multiprocessing.Event) -> None:
    """The server lives in its own process, as a real one does (no GIL shared with the client)."""
    with StubServer(lambda request: Answer(content="done", delay=delay)) as server:
        port.put(server.url)
        stop.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=200)
    parser.add_argument("--delay", type=float, default=1.0,
                        help="server's answer delay, seconds (an LLM call takes seconds; the openai client's own "
                             "CPU cost, ~4 ms a request here, weighs more the shorter this is)")
    args = parser.parse_args()
    urls, stop = multiprocessing.Queue(), multiprocessing.Event()
    server = multiprocessing.Process(target=serve, args=(args.delay, urls, stop), daemon=True)
    server.start()
    url = urls.get(timeout=30)
    try:
        print(f"{args.items} items, server delay {args.delay:.2f} s")
        print(f"{'concurrency':>11} {'wall s':>8} {'ideal s':>8} {'wall/ideal':>10}")
        for concurrency in (1, 4, 16):
            wall = asyncio.run(run_items(url, args.items, concurrency, f"c{concurrency}"))
            ideal = args.items * args.delay / concurrency
            print(f"{concurrency:>11} {wall:>8.2f} {ideal:>8.2f} {wall / ideal:>10.3f}")
    finally:
        stop.set()
        server.join(timeout=10)


if __name__ == "__main__":
    main()
