"""Evaluate's LLM path: N LogicIF cases through the one evaluate (its Asker and the run's LLM hub)
against a local server, in its own process, that answers after a fixed delay; the wall time of
asking and scoring beside the ideal (cases x delay / llm_concurrency), the peak of requests in
flight the server saw, and a second run answered from the response cache.
Usage: python benchmarks/evaluate_throughput.py [--items 200] [--delay 0.5] [--concurrency 8]
"""

import argparse
import multiprocessing
import tempfile
import threading
import time
from pathlib import Path

from ifforge.eval import template
from ifforge.eval.evaluation import EvalSettings
from ifforge.families import get_family
from ifforge.testing.openai_stub import Answer, StubServer


def serve(delay: float, url: multiprocessing.Queue, peak: multiprocessing.Value, stop: multiprocessing.Event) -> None:
    in_flight, lock = [0], threading.Lock()

    def answer(request):
        with lock:
            in_flight[0] += 1
            peak.value = max(peak.value, in_flight[0])
        time.sleep(delay)
        with lock:
            in_flight[0] -= 1
        k = request["messages"][-1]["content"].split("#")[0][2:]
        return Answer(content=f'{{"output": {k}, "stats": {{"n": {k}}}}}')

    with StubServer(answer) as server:
        url.put(server.url)
        stop.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=200)
    parser.add_argument("--delay", type=float, default=0.5)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    rows = [{"task_id": f"t{k}", "test_case_id": 0, "input": [k], "code_output": {"output": k, "stats": {"n": k}},
             "instruction": f"[t{k}#0] Do it."} for k in range(args.items)]
    url, peak, stop = multiprocessing.Queue(), multiprocessing.Value("i", 0), multiprocessing.Event()
    server = multiprocessing.Process(target=serve, args=(args.delay, url, peak, stop), daemon=True)
    server.start()
    try:
        settings = EvalSettings(model="bench", base_url=url.get(timeout=30), api_key="k",
                                llm_concurrency=args.concurrency, llm_max_retries=0)
        family = get_family("logicif")  # imported before the clock starts
        with tempfile.TemporaryDirectory() as folder:
            for run in ("asked", "cached"):
                started = time.perf_counter()
                summary = template.evaluate(family, rows, settings, Path(folder) / "cache.sqlite", Path(folder) / run,
                                            "bench")
                wall = time.perf_counter() - started
                ideal = args.items * args.delay / args.concurrency if run == "asked" else 0.0
                print(f"{run}: {args.items} cases in {wall:.2f} s (ideal {ideal:.2f} s, "
                      f"{'x%.2f' % (wall / ideal) if ideal else 'no request'}), "
                      f"{summary['overall']['case_both_right']} right, peak in flight {peak.value}")
    finally:
        stop.set()
        server.join(timeout=10)


if __name__ == "__main__":
    main()
