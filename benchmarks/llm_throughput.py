"""LLM throughput: N single-call items through llm.py against a local server that answers after a
fixed delay, at concurrency 1, 4 and 16; wall time beside the ideal (calls x delay / concurrency).
Target: within 15% of ideal at concurrency 16 for 200 items.
Usage: python benchmarks/llm_throughput.py [--items 200] [--delay 0.2]
"""

import argparse
import asyncio
import time

from ifforge.llm import LLM, LLMConfig
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=200)
    parser.add_argument("--delay", type=float, default=0.2, help="server's answer delay, seconds")
    args = parser.parse_args()
    with StubServer(lambda request: Answer(content="done", delay=args.delay)) as server:
        print(f"{args.items} items, server delay {args.delay:.2f} s")
        print(f"{'concurrency':>11} {'wall s':>8} {'ideal s':>8} {'wall/ideal':>10}")
        for concurrency in (1, 4, 16):
            wall = asyncio.run(run_items(server.url, args.items, concurrency, f"c{concurrency}"))
            ideal = args.items * args.delay / concurrency
            print(f"{concurrency:>11} {wall:>8.2f} {ideal:>8.2f} {wall / ideal:>10.3f}")
        assert len(server.requests) == 3 * args.items


if __name__ == "__main__":
    main()
