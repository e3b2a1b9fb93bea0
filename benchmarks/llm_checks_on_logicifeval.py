"""How often the LLM path's checks refuse descriptions a capable model wrote: LogicIFEval's own.

LogicIFEval's released descriptions were written by a strong model and kept by its reviewer, so a
check that refuses many of them refuses good answers. For each task of a LogicIFEval-format file
(default: the fixture in ../shared/fixtures/logicifeval/tasks.jsonl) it runs the coverage check
(`narrate.uncovered`: every parameter, tracker key and number named) and counts what is missing by
kind; and `holds_code`, by pattern. LogicIFEval's texts do use operators ("r = n - (p * x)"), so
`holds_code` refusing some is expected; what matters is what it refuses that is prose.
Usage: python benchmarks/llm_checks_on_logicifeval.py [tasks.jsonl] [--show]
"""

from __future__ import annotations

import argparse
import ast
import json
from collections import Counter
from pathlib import Path

from ifforge.families.logicif.codeops.describe.narrate import holds_code, uncovered
from ifforge.families.logicif.records import Tracker

FIXTURE = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "logicifeval" / "tasks.jsonl"


def kind_of(name: str, parameters: set[str], trackers: set[str]) -> str:
    return "parameter" if name in parameters else "tracker" if name in trackers else "number"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="?", type=Path, default=FIXTURE)
    parser.add_argument("--show", action="store_true", help="print each refusal")
    options = parser.parse_args()
    rows = [json.loads(line) for line in options.tasks.read_text().splitlines() if line.strip()]
    missing, patterns, covered, prose = Counter(), Counter(), 0, 0
    for row in rows:
        entry = next(n for n in ast.parse(row["function"]).body if isinstance(n, ast.FunctionDef) and n.name == "f")
        parameters = {a.arg for a in entry.args.args + entry.args.posonlyargs + entry.args.kwonlyargs}
        trackers = [Tracker(name=key, kind="llm", explanation="") for key in row.get("stats_keys", [])]
        lost = uncovered(row["description"], row["function"], trackers)
        covered += not lost
        for name in lost:
            missing[kind_of(name, parameters, {t.name for t in trackers})] += 1
        code = holds_code(row["description"])
        prose += not code
        for found in code:
            patterns[found.split(":", 1)[0]] += 1
        if options.show and (lost or code):
            print(f"{row['task_id']}: missing {lost}; code {code[:4]}")
    print(f"{len(rows)} LogicIFEval descriptions ({options.tasks})")
    print(f"  coverage check passes: {covered}/{len(rows)}; missing by kind: {dict(missing) or 'none'}")
    print(f"  no code found: {prose}/{len(rows)}; refusals by pattern: {dict(patterns.most_common())}")


if __name__ == "__main__":
    main()
