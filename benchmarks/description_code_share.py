"""How many offline descriptions still hold code, over the project's seeds and 25 standard-library functions.

Each seed goes through the offline stages (load, instrument, execute, complexity, describe, verify)
as plain functions, without Prefect. Printed per set: descriptions written, the share holding code
(target 0), items dropped as not describable (by construct), coverage failures, and items lost
before describing (nothing to track, not runnable).
Usage: python benchmarks/description_code_share.py [--show-code]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

from ifforge.families.logicif.codeops.describe.narrate import holds_code
from ifforge.families.logicif.configs import ExecuteConfig, TrackerConfig, from_settings
from ifforge.families.logicif.family import DEFAULT_SEEDS
from ifforge.families.logicif.settings import LogicIFSettings
from ifforge.families.logicif.stages import complexity, describe, execute, instrument, load, verify

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import stdlib_functions  # noqa: E402  (the real-code test set lives beside the tests)


def survey(folder: Path, show_code: bool) -> dict:
    """Describe every seed of `folder`; count what holds code and what was dropped, and why."""
    seeds, _ = load.load_seed_dir(folder)
    settings = from_settings(ExecuteConfig, LogicIFSettings())
    found = {"seeds": len(seeds), "described": 0, "with_code": [], "undescribable": Counter(),
             "uncovered": [], "lost_before": Counter()}
    for seed in seeds:
        instrumented = instrument.run(seed, from_settings(TrackerConfig, LogicIFSettings()))
        if instrumented.kept is None:
            found["lost_before"][instrumented.dropped[0].reason] += 1
            continue
        executed = execute.run(instrumented.kept, settings)
        if executed.kept is None:
            found["lost_before"][executed.dropped[-1].reason] += 1
            continue
        described = describe.run(complexity.run(executed.kept).kept)
        if described.kept is None:
            found["undescribable"][described.dropped[0].detail.removeprefix("no clear English for ")] += 1
            continue
        found["described"] += 1
        text = described.kept.instruction.description
        code = holds_code(text)
        if code:
            found["with_code"].append(seed.task_id)
            if show_code:
                print(f"  {seed.task_id}: {code[:5]}")
        checked = verify.run(described.kept)
        if checked.kept is None:
            found["uncovered"].append(f"{seed.task_id} ({checked.dropped[0].detail})")
    return found


def report(title: str, found: dict) -> None:
    described = found["described"]
    share = len(found["with_code"]) / described if described else 0.0
    print(f"{title}: {found['seeds']} seeds, {described} described")
    print(f"  descriptions holding code: {len(found['with_code'])} of {described} ({share:.0%})"
          + (f": {', '.join(found['with_code'])}" if found["with_code"] else ""))
    dropped = sum(found["undescribable"].values())
    print(f"  dropped as not describable: {dropped}")
    for construct, count in found["undescribable"].most_common():
        print(f"    {count} x {construct}")
    print(f"  failing the coverage check: {len(found['uncovered'])}"
          + "".join(f"\n    {item}" for item in found["uncovered"]))
    if found["lost_before"]:
        lost = ", ".join(f"{count} {reason}" for reason, count in found["lost_before"].most_common())
        print(f"  lost before describing: {lost}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-code", action="store_true", help="print the code fragments each description holds")
    args = parser.parse_args()
    report("project seeds", survey(DEFAULT_SEEDS, args.show_code))
    with tempfile.TemporaryDirectory() as folder:
        stdlib_functions.write_seeds(Path(folder))
        report(f"standard library (Python {sys.version.split()[0]})", survey(Path(folder), args.show_code))


if __name__ == "__main__":
    main()
