"""Export to an lm-evaluation-harness task: a folder with `<name>.yaml`, `utils.py` and `docs.jsonl`.

    lm_eval --model local-chat-completions --model_args base_url=.../v1/chat/completions,model=M \
        --apply_chat_template --include_path <folder> --tasks <name>

The harness generates one reply per prompt, so only single-prompt rows go in: a chat-mode row
(PACIFIC's `mode=chat`, where the model's own replies go back between turns) cannot be asked there
and is left out, and the export says how many (inspect-ai runs them). Its chat-completions model
sends no tools, so a row that needs them goes in as the family's text protocol (`Family.text_row`;
IFEval-FC: the tools in the prompt, the call written as a JSON object in the reply), which is a
different protocol from the tools API: its task name ends in `_text` and its YAML says so. Each
reply is scored by ifforge's checker for the row's family; the metrics are `ifforge evaluate`'s:
case accuracy, task accuracy (a task passes only when all its cases do) and the family's finer
numbers.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import replace
from pathlib import Path
from typing import Any

from ifforge.core.store.versions import atomic_write
from ifforge.exports.benchmark import (
    Benchmark,
    check,
    metric_names,
    metrics,
    request,
    row_ids,
    task_key,
    task_name,
    text_row,
)
from ifforge.exports.inspect_task import DEFAULT_MAX_TOKENS, shown_source
from ifforge.families import family_of_row, options_of
from ifforge.families.base import Verdict

UTILS_FILE = '''"""lm-evaluation-harness hooks for {name}: the rows beside this file, ifforge's checker
(its scoring core is enough: pip install --no-deps <ifforge wheel>; pip install $(python -m ifforge.light))."""

from pathlib import Path

from ifforge.exports import lm_eval_task as _ifforge


def load_docs(**kwargs):
    return _ifforge.load_docs(Path(__file__).with_name("docs.jsonl"))


doc_to_text = _ifforge.doc_to_text
process_results = _ifforge.process_results
{aggregations}
'''


def write(benchmark: Benchmark, out: Path) -> dict[str, Any]:
    """Write the task folder; return what was written and what was left out."""
    as_text = [(sample_id, text_row(row)) for sample_id, row in zip(row_ids(benchmark.rows, benchmark.source), benchmark.rows)]
    single = [(sample_id, row) for sample_id, row in as_text if row is not None and len(request(row).turns) == 1]
    left_out = len(benchmark.rows) - len(single)
    if not single:
        raise ValueError(f"{benchmark.source}: no row can be asked as one text prompt, which is all "
                         "lm-evaluation-harness sends (export to inspect-ai instead)")
    protocol = next((task_name(row["protocol"]) for _, row in single if row.get("protocol")), None)
    benchmark = replace(benchmark, name=task_name(benchmark.name, protocol or ""))  # a name safe in YAML and code
    out.mkdir(parents=True, exist_ok=True)
    atomic_write(out / "docs.jsonl", "".join(
        json.dumps({"id": sample_id, "prompt": request(row).turns[0], "task_id": task_key(row),
                    "family": benchmark.family, "row": json.dumps(row, ensure_ascii=False)}, ensure_ascii=False) + "\n"
        for sample_id, row in single))
    keys = metric_names(benchmark.family, single[0][1])
    means = set(row_means(single[0][1]))
    metrics = "".join(f"  - metric: {key}\n    aggregation: " + ("mean" if key in means else f"!function utils.{key}")
                      + "\n    higher_is_better: true\n" for key in keys)
    atomic_write(out / f"{benchmark.name}.yaml", (
        f"# {benchmark.family} benchmark {benchmark.name}: {len(single)} rows from {json.dumps(shown_source(benchmark))}"
        + (f" ({left_out} rows left out: multi-turn chats, or rows lm-eval cannot ask)" if left_out else "") + "\n"
        + (f"# Protocol: {protocol}. lm-eval sends no tools, so each prompt shows the tools as JSON and the model "
           "writes its call as a JSON object {name, arguments} in its reply: not the tools API that `ifforge "
           "evaluate` and the inspect-ai export use, so scores are not comparable with theirs.\n" if protocol else "")
        + f"task: {benchmark.name}\n"
        "custom_dataset: !function utils.load_docs\n"
        "test_split: test\n"
        "output_type: generate_until\n"
        "doc_to_text: !function utils.doc_to_text\n"
        "doc_to_target: \"\"\n"
        "process_results: !function utils.process_results\n"
        "generation_kwargs:\n"
        "  until: []\n"
        "  do_sample: false\n"
        "  temperature: 0.0\n"
        f"  max_gen_toks: {DEFAULT_MAX_TOKENS}\n"
        "metric_list:\n" + metrics +
        "metadata:\n  version: 1.0\n"))
    aggregations = "\n".join(f"{key} = _ifforge.aggregation({benchmark.family!r}, {key!r})" for key in keys
                             if key not in means)
    atomic_write(out / "utils.py", UTILS_FILE.format(name=benchmark.name, aggregations=aggregations))
    return {"format": "lm-eval", "folder": str(out), "rows": len(single), "left_out_chat_rows": left_out,
            "task": benchmark.name, "protocol": protocol or "prompt",
            "run": f"lm_eval --model local-chat-completions --model_args base_url=<server>/v1/chat/completions,"
                   f"model=<model> --apply_chat_template --include_path {shlex.quote(str(out))} --tasks {benchmark.name}"}


# ---- what the exported utils.py calls -------------------------------------------------------------

def load_docs(path: Path):
    # lazy on purpose: datasets (heavy, an optional extra), only where the task runs
    import datasets

    records = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    return datasets.DatasetDict({"test": datasets.Dataset.from_list(records)})


def doc_to_text(doc: dict[str, Any]) -> str:
    return doc["prompt"]


def row_means(row: dict[str, Any]) -> tuple[str, ...]:
    """The metrics lm-eval aggregates as a plain `mean` of one number per row, which is what it
    needs to give a standard error: the family's `row_means`, when the row carries no option of its
    own (`Options.carried`; under an original's rules a family may judge rows together, as
    IFEval-FC's paper batches do)."""
    family = family_of_row(row)
    return () if any(name in row for name in options_of(family.id).model_fields) else family.row_means


def process_results(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """A metric that is a mean over rows gets this row's number (lm-eval averages them and gives
    their standard error); every other metric gets the verdict, from which its aggregation computes
    the family's number over all rows."""
    row = json.loads(doc["row"])
    verdict = check(row, [results[0]])
    means = row_means(row)
    numbers = metrics(doc["family"], [verdict])
    return {key: float(numbers[key]) if key in means else verdict.as_dict() for key in numbers}


def aggregation(family: str, key: str):
    def aggregate_key(verdicts: list) -> float:
        return metrics(family, [Verdict.from_dict(verdict) for verdict in verdicts]).get(key, 0.0)

    aggregate_key.__name__ = key
    return aggregate_key
