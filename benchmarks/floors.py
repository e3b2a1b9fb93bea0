"""Each family's floors (what its trivial baselines score) on ifforge's benchmark beside the same
baselines on the original's released rows, scored by the same checker.

    python benchmarks/floors.py ORIGINALS_DIR [--ours OUTPUTS] [--logicif-fixture DIR]

ORIGINALS_DIR holds fetched copies of the originals (`Skripkon+ifeval-fc`, `SheldonWu0327+LIFBench-2024`);
nothing is fetched. Their released rows are read with ifforge's own converters (`ifforge convert`),
LogicIFEval's with the fixture's rows (`--logicif-fixture`, LogicIF's own format). PACIFIC and
MCBench released no rows: their side is argued in the family pages. OUTPUTS holds ifforge's
versions (`OUTPUTS/<family>/LATEST`); a family missing there is generated offline into it first.
Printed: per family and baseline, every score ours and the original's, the rows some baseline
passes, and for LIFBench the ARS of each baseline per task.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from ifforge.core.store.versions import latest_version
from ifforge.eval.evaluation import read_jsonl
from ifforge.eval.floors import floors
from ifforge.families import get_family

FAMILIES = ("logicif", "pacific", "mcbench", "ifeval-fc", "lifbench")


def ours(outputs: Path, family: str) -> list[dict]:
    folder = outputs / family
    if not (folder / "LATEST").exists():
        subprocess.run([sys.executable, "-m", "ifforge.cli", "generate", "--family", family, "--llm", "none",
                        "--out", str(outputs)], check=True, capture_output=True)
    return read_jsonl(latest_version(folder) / "benchmark.jsonl")


def originals(family: str, root: Path, fixture: Path) -> list[dict] | None:
    if family == "ifeval-fc":
        from ifforge.families.ifeval_fc import paper

        return paper.convert(root / "Skripkon+ifeval-fc", "ifforge")
    if family == "lifbench":
        from ifforge.families.lifbench.convert import convert

        return convert(root / "SheldonWu0327+LIFBench-2024" / "data")
    if family == "logicif" and (fixture / "cases.jsonl").exists():
        return [{"family": "logicif", **row} for row in read_jsonl(fixture / "cases.jsonl")]
    return None


def per_task(family, rows: list[dict]) -> dict[str, dict[str, float]]:
    """LIFBench: each baseline's ARS per task (a task's floor hides in the weighted mean)."""
    by_task = defaultdict(list)
    for row in rows:
        by_task[row["task"]].append(row)
    return {task: {key: entry["scores"].get("ars", 0.0) for key, entry in floors(family, task_rows)["baselines"].items()}
            for task, task_rows in sorted(by_task.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("originals", type=Path)
    parser.add_argument("--ours", type=Path, default=Path("outputs"))
    parser.add_argument("--logicif-fixture", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "logicifeval")
    args = parser.parse_args()
    for family_id in FAMILIES:
        family = get_family(family_id)
        mine = floors(family, ours(args.ours, family_id))
        theirs_rows = originals(family_id, args.originals, args.logicif_fixture)
        theirs = floors(family, theirs_rows) if theirs_rows else None
        print(f"\n## {family_id}: ours {mine['rows']} rows, original "
              f"{theirs['rows'] if theirs else 'none released (see docs/families/' + family_id + '.md)'}\n")
        print("| baseline | score | ours | original |\n|---|---|---|---|")
        for key, entry in mine["baselines"].items():
            other = (theirs or {}).get("baselines", {}).get(key, {})
            for name, value in entry["scores"].items():
                there = other.get("scores", {}).get(name)
                print(f"| {key} | {name} | {value:.1%} | {'' if there is None else f'{there:.1%}'} |")
        passed = f"{theirs['trivially_passed']['share']:.1%}" if theirs else ""
        print(f"| any baseline | rows passed | {mine['trivially_passed']['share']:.1%} | {passed} |")
        if family_id == "lifbench":
            mine_tasks = per_task(family, ours(args.ours, family_id))
            theirs_tasks = per_task(family, theirs_rows) if theirs_rows else {}
            print("\n| task | baseline | ARS ours | ARS original |\n|---|---|---|---|")
            for task, scores in mine_tasks.items():
                for key, value in scores.items():
                    there = theirs_tasks.get(task, {}).get(key)
                    print(f"| {task} | {key} | {value:.3f} | {'' if there is None else f'{there:.3f}'} |")


if __name__ == "__main__":
    main()
