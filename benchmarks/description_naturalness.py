"""How close offline descriptions come to LogicIFEval's own: length, numbered names, rule preambles.

Describes the project's seeds, the standard-library set (`tests/stdlib_functions.py`) and the
real-code set of `real_code_survival.py` (those of its functions the describer takes) through the
offline stages as plain functions, and prints per set: median and largest word count, the median
against LogicIFEval's own median (target at most 1.5x), how many descriptions still use `v<digits>`
names (target 0), and how many "Rule N" paragraphs come before the first step (target 0).
Usage: python benchmarks/description_naturalness.py FIXTURE_DIR  (the folder holding LogicIFEval's
tasks.jsonl, e.g. ../shared/fixtures/logicifeval)
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
from pathlib import Path

from ifforge.families.logicif.configs import ExecuteConfig, InputsConfig, TrackerConfig, from_settings
from ifforge.families.logicif.family import DEFAULT_SEEDS
from ifforge.families.logicif.settings import LogicIFSettings
from ifforge.families.logicif.stages import complexity, describe, execute, inputs, instrument, load

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import stdlib_functions  # noqa: E402  (the real-code test set lives beside the tests)
from real_code_survival import pick  # noqa: E402  (beside this script)

NUMBERED = re.compile(r"\bv\d+\b")


def descriptions(folder: Path, make_inputs: bool = False) -> list[str]:
    seeds, _ = load.load_seed_dir(folder)
    settings = LogicIFSettings()
    texts = []
    for seed in seeds:
        if make_inputs:  # real code comes without inputs
            seed = inputs.run(seed, from_settings(InputsConfig, settings)).kept
            if seed is None:
                continue
        instrumented = instrument.run(seed, from_settings(TrackerConfig, settings)).kept
        executed = instrumented and execute.run(instrumented, from_settings(ExecuteConfig, settings)).kept
        described = executed and describe.run(complexity.run(executed).kept).kept
        if described:
            texts.append(described.instruction.description)
    return texts


def rules_before_first_step(text: str) -> int:
    head = re.split(r"(?m)^\s*1\. ", text, maxsplit=1)[0]
    return len(re.findall(r"(?m)^Rule \d+:", head))


def report(title: str, texts: list[str], reference: float) -> None:
    words = [len(t.split()) for t in texts]
    median = statistics.median(words)
    print(f"{title}: {len(texts)} descriptions, median {median:.0f} words ({median / reference:.2f}x "
          f"LogicIFEval's {reference:.0f}; target at most 1.5x), largest {max(words)}")
    print(f"  with v<digits> names: {sum(bool(NUMBERED.search(t)) for t in texts)} (target 0)")
    print(f"  rule paragraphs before the first step: {sum(rules_before_first_step(t) for t in texts)} (target 0)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fixture", type=Path, help="folder with LogicIFEval's tasks.jsonl")
    args = parser.parse_args()
    theirs = [json.loads(line)["description"] for line in (args.fixture / "tasks.jsonl").read_text().splitlines()]
    reference = statistics.median(len(t.split()) for t in theirs)
    print(f"LogicIFEval: {len(theirs)} descriptions, median {reference:.0f} words")
    report("project seeds", descriptions(DEFAULT_SEEDS), reference)
    with tempfile.TemporaryDirectory() as folder:
        stdlib_functions.write_seeds(Path(folder))
        report(f"standard library (Python {sys.version.split()[0]})", descriptions(Path(folder)), reference)
    with tempfile.TemporaryDirectory() as folder:
        for item in pick():
            (Path(folder) / f"{item.task_id}.py").write_text(item.source)
        report("real-code set (real_code_survival.py)", descriptions(Path(folder), make_inputs=True), reference)


if __name__ == "__main__":
    main()
