"""The sample viewer of a run: how big `samples.html` is and how long `ifforge view` takes to write
it again (judging every reply again included), beside the size of the run's own prompts and replies.

Usage: python benchmarks/viewer_size.py RUN_FOLDER [RUN_FOLDER ...]
(a run folder of `ifforge evaluate` or `ifforge score`, with its report.json and responses.jsonl)
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from ifforge.eval.evaluation import locate, locate_report
from ifforge.eval.viewer import rebuild


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path)
    for given in parser.parse_args().runs:
        folder = locate_report(given).parent
        begun = time.perf_counter()
        path = rebuild(folder)
        seconds = time.perf_counter() - begun
        rows = sum(1 for line in (folder / "responses.jsonl").open() if line.strip())
        benchmark = json.loads((folder / "report.json").read_text()).get("run", {}).get("benchmark")
        sent = locate(Path(benchmark), "full")[0].stat().st_size if benchmark and Path(benchmark).exists() else None
        print(f"{folder}: {rows} rows; samples.html {path.stat().st_size / 1e6:.2f} MB written in {seconds:.2f} s"
              + (f" (the benchmark file: {sent / 1e6:.2f} MB)" if sent else ""))


if __name__ == "__main__":
    main()
