"""Where the review page puts each step of a LogicIF version's descriptions, checked with `ast`.

Reads a version folder (`benchmark.jsonl` and each task's `items/<task>/steps.json`, the describer's
record) and prints: tasks, tasks with a record made for their text, numbered steps, steps beside a
line where a statement of the function the record names starts, and steps beside any other line.
Also the CPU time the describe stage spends finding the places (`places.places`) per task, over the
project's seeds.
Usage: python benchmarks/review_placement.py VERSION   (e.g. outputs/logicif/v001, from `ifforge generate`)
"""

from __future__ import annotations

import ast
import json
import re
import sys
import time
from pathlib import Path

from ifforge.families.logicif.review import read_steps

NUMBERED = re.compile(r"^\s*((?:[0-9a-z]+\.)*[0-9a-z]+)\.\s")


def own_starts(source: str) -> dict[str, set[int]]:
    """Each function -> the first lines of the statements its own body holds (not a nested function's)."""
    found: dict[str, set[int]] = {}

    def visit(node, owner):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt) and owner:
                found.setdefault(owner, set()).add(child.lineno)
            visit(child, child.name if isinstance(child, ast.FunctionDef) else owner)

    visit(ast.parse(source), None)
    return found


def survey(version: Path) -> dict[str, int]:
    rows: dict[str, dict] = {}
    for line in (version / "benchmark.jsonl").read_text().splitlines():
        row = json.loads(line)
        rows.setdefault(row["task_id"], row)
    counts = dict.fromkeys(("tasks", "with a record", "numbered steps", "beside a statement of their function",
                            "beside any other line"), 0)
    for task, row in rows.items():
        counts["tasks"] += 1
        places = read_steps(version, row)
        if places is None:
            continue
        counts["with a record"] += 1
        starts = own_starts(row["function"])
        for place in places:
            if not place["step"]:
                continue
            counts["numbered steps"] += 1
            inside = place["first"] in starts.get(place["function"], set())
            counts["beside a statement of their function"] += inside
            counts["beside any other line"] += not inside
    return counts


def places_time() -> float:
    """Seconds of CPU `places.places` takes per task over the project's seeds (stages run as plain functions)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from conftest import PROJECT
    from test_describe_english import _measured

    from ifforge.families.logicif.codeops.describe import narrate, places
    from ifforge.families.logicif.typenames import input_types, output_format

    items = _measured(PROJECT / "seeds" / "logicif")
    spent = 0.0
    for item in items.values():
        function = item.executed.function
        told = narrate.narration(function.instrumented_source, function.trackers, input_types(item), output_format(item))
        start = time.process_time()
        places.places(told, item.executed.exported_source)
        spent += time.process_time() - start
    return spent / len(items)


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    for name, count in survey(Path(sys.argv[1])).items():
        print(f"{name:>40}: {count}")
    print(f"{'places per task (CPU ms)':>40}: {places_time() * 1000:.1f}")


if __name__ == "__main__":
    main()
