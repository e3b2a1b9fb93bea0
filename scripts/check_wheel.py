"""Build the wheel and check it carries the top-level flows/, prompts/ and seeds/logicif/ as files.

The package reaches those folders through links (src/ifforge/flows, src/ifforge/prompts,
src/ifforge/families/logicif/seeds); the build must follow them. Too slow for the test suite (a
build takes seconds), so it is a script: `.venv/bin/python scripts/check_wheel.py`.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
EXPECTED = {  # folder of the checkout -> where its files sit in the wheel
    "flows": "ifforge/flows",
    "prompts": "ifforge/prompts",
    "seeds/logicif": "ifforge/families/logicif/seeds",
    "src/ifforge/review": "ifforge/review",
    "src/ifforge/eval": "ifforge/eval",  # samples.html, the sample viewer's page
    "docs/families": "ifforge/docs/families",  # the pages a card quotes (ifforge.card)
}


def main() -> int:
    for stale in ("build", "src/ifforge.egg-info"):  # setuptools would reuse their files and hide a gap
        shutil.rmtree(PROJECT / stale, ignore_errors=True)
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", out, str(PROJECT)], check=True)
        wheel = next(Path(out).glob("ifforge-*.whl"))
        with zipfile.ZipFile(wheel) as archive:
            inside = {info.filename: info for info in archive.infolist()}
    missing, links = [], []
    for folder, target in EXPECTED.items():
        for path in sorted((PROJECT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                name = f"{target}/{path.relative_to(PROJECT / folder).as_posix()}"
                if name not in inside:
                    missing.append(name)
                elif (inside[name].external_attr >> 16) & 0o170000 == 0o120000:
                    links.append(name)
    counted = {target: sum(name.startswith(target + "/") for name in inside) for target in EXPECTED.values()}
    print(f"{wheel.name}: " + ", ".join(f"{target} {n} files" for target, n in counted.items()))
    for name in missing:
        print(f"missing from the wheel: {name}")
    for name in links:
        print(f"a link, not a file, in the wheel: {name}")
    return 1 if missing or links else 0


if __name__ == "__main__":
    sys.exit(main())
