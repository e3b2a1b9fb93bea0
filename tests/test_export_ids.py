"""One id per row everywhere: inspect's sample ids, lm-eval's doc ids, the Hugging Face `row_id`
column and `scores.parquet`'s `row_id` are the same set, so an export's results join with
ifforge's own; and the lm-eval task gives what lm-eval needs for a standard error."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import yaml

from ifforge.eval.evaluation import BenchmarkError, EvalSettings
from ifforge.eval.template import score
from ifforge.exports import export
from ifforge.exports.benchmark import metrics, read_benchmark, row_ids
from ifforge.families import get_family
from test_exports import lifbench_reply, lifbench_rows, pacific_reply, pacific_rows, write_rows


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("family_id", ["lifbench", "pacific"])
def test_every_export_names_a_row_as_scores_parquet_does(tmp_path, family_id):
    if family_id == "lifbench":  # its task ids name the expression: `...-e0`, once, not `...-e0/e0`
        rows = lifbench_rows()[:6]
        replies = [{"response": lifbench_reply(rows, row["prompt"])} for row in rows]
    else:  # prompt rows only (lm-eval leaves chats out); a row's steps are several lines of scores.parquet
        rows = [row for row in pacific_rows() if row["mode"] == "prompt"][:6]
        replies = [{"response": pacific_reply(rows, [{"role": "user", "content": row["prompt"]}])} for row in rows]
    family = get_family(family_id)
    benchmark = read_benchmark(write_rows(tmp_path / family_id / "v001", rows))
    export(benchmark, "inspect", tmp_path / "inspect")
    export(benchmark, "lm-eval", tmp_path / "lm-eval")
    export(benchmark, "hf", tmp_path / "hf")
    summary_folder = tmp_path / "scored"
    score(family, [{**family.carry(row), **reply} for row, reply in zip(rows, replies)], rows,
          EvalSettings(model=""), summary_folder, "t")

    inspect_ids = [sample["id"] for sample in _lines(tmp_path / "inspect" / "samples.jsonl")]
    lm_eval_ids = [doc["id"] for doc in _lines(tmp_path / "lm-eval" / "docs.jsonl")]
    hf_ids = list(pd.read_parquet(next((tmp_path / "hf" / "data").glob("test-*.parquet")))["row_id"])
    scores = pd.read_parquet(summary_folder / "scores.parquet")
    assert inspect_ids == lm_eval_ids == hf_ids == [family.row_id(row) for row in rows]
    assert len(set(inspect_ids)) == len(rows) and set(scores["row_id"]) == set(inspect_ids)
    if family_id == "lifbench":
        assert all(sample_id == row["task_id"] and sample_id.endswith("-" + row["expression_id"])
                   for sample_id, row in zip(inspect_ids, rows))
    # joined on the id, each export's verdict is scores.parquet's
    exported = {doc["id"]: json.loads(doc["row"]) for doc in _lines(tmp_path / "lm-eval" / "docs.jsonl")}
    joined = scores.groupby("row_id")["right" if family_id == "pacific" else "full_points"].all()
    from ifforge.exports.benchmark import check

    for sample_id, reply in zip(inspect_ids, replies):
        assert check(exported[sample_id], [reply["response"]]).correct == bool(joined[sample_id])
    assert 0 < joined.sum() < len(rows)


def test_two_rows_with_one_id_are_refused_naming_both():
    rows = lifbench_rows()[:2]
    rows[1] = {**rows[1], "task_id": rows[0]["task_id"]}
    with pytest.raises(BenchmarkError, match=r"rows\.jsonl: rows 1 and 2 have the same id"):
        row_ids(rows, "rows.jsonl")


def test_lm_eval_aggregates_a_per_row_metric_as_its_mean_so_it_gives_a_standard_error(tmp_path):
    from lm_eval.api.metrics import mean, stderr_for_metric

    rows = [row for row in pacific_rows() if row["mode"] == "prompt"]
    benchmark = read_benchmark(write_rows(tmp_path / "pacific" / "v001", rows))
    written = export(benchmark, "lm-eval", tmp_path / "lm-eval")
    task = (tmp_path / "lm-eval" / f"{written['task']}.yaml").read_text()
    declared = {entry["metric"]: entry["aggregation"] for entry in
                yaml.load(task, Loader=_FunctionTags)["metric_list"]}
    assert declared == {"prompt_accuracy": "mean", "instruction_accuracy": "!function utils.instruction_accuracy"}

    import importlib.util
    spec = importlib.util.spec_from_file_location("exported_utils", tmp_path / "lm-eval" / "utils.py")
    utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(utils)
    docs = _lines(tmp_path / "lm-eval" / "docs.jsonl")
    per_doc = [utils.process_results(doc, [pacific_reply(rows, [{"role": "user", "content": doc["prompt"]}])])
               for doc in docs]
    values = [result["prompt_accuracy"] for result in per_doc]
    assert set(values) == {0.0, 1.0}  # one number per row
    stderr = stderr_for_metric(mean, bootstrap_iters=100)  # what lm-eval looks up for a `mean` aggregation
    p = mean(values)
    assert stderr(values) == pytest.approx((p * (1 - p) / (len(values) - 1)) ** 0.5)
    assert stderr_for_metric(utils.instruction_accuracy, bootstrap_iters=100) is None  # a ratio of steps: none
    verdicts = [result["instruction_accuracy"] for result in per_doc]
    ours = metrics("pacific", [get_family("pacific").check(json.loads(doc["row"]), _reply(rows, doc)) for doc in docs])
    assert p == pytest.approx(ours["prompt_accuracy"], abs=1e-4)
    assert utils.instruction_accuracy(verdicts) == pytest.approx(ours["instruction_accuracy"])


def _reply(rows, doc):
    from ifforge.families.base import Reply

    return Reply.of([pacific_reply(rows, [{"role": "user", "content": doc["prompt"]}])])


class _FunctionTags(yaml.SafeLoader):
    """lm-eval's YAML tags (`!function utils.x`) read as the text they hold."""


_FunctionTags.add_constructor("!function", lambda loader, node: f"!function {loader.construct_scalar(node)}")
