"""The `evaluate` flow: ask a model every case of a benchmark, keep every response, score, report.

DAG wiring only (see `ifforge.evaluation`). Requests are cached by content, so a crashed run
resumes without asking any case twice. Run it as `ifforge evaluate ...` or `python flows/evaluate.py`.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ifforge.prefect_env import configure

configure()

from prefect import flow, get_run_logger, task  # noqa: E402
from prefect.artifacts import create_markdown_artifact, create_table_artifact  # noqa: E402
from prefect.cache_policies import NO_CACHE  # noqa: E402

from ifforge.evaluation import (  # noqa: E402
    EvalSettings,
    analyze_errors,
    ask_all,
    load_rows,
    locate,
    model_folder,
    score_frame,
    write_outputs,
)
from ifforge.progress import stage_bar  # noqa: E402


@task(name="ask", retries=1, retry_delay_seconds=2, cache_policy=NO_CACHE)
def ask_task(rows: list[dict], settings: EvalSettings, cache_path: str, progress: bool) -> list[dict]:
    """No Prefect cache on purpose: the response cache answers repeated requests, case by case."""
    with stage_bar("evaluate", len(rows), progress) as advance:
        return asyncio.run(ask_all(rows, settings, Path(cache_path), on_done=advance))


@task(name="score", cache_policy=NO_CACHE)
def score_task(results: list[dict], rows: list[dict], settings: EvalSettings, folder: str, title: str,
               cache_path: str) -> dict[str, Any]:
    rows_by_key = {(r["task_id"], r["test_case_id"], r.get("expression_id")): r for r in rows}
    scores = score_frame(results, rows_by_key, settings.strict_types)
    labels = None
    if settings.analyze_errors:
        labels = asyncio.run(analyze_errors(results, scores, rows_by_key, settings, Path(cache_path)))
    return write_outputs(Path(folder), results, scores, title, labels)


@flow(name="evaluate", log_prints=True)
def evaluate(benchmark: str, model: str, base_url: str | None = None, split: str = "full",
             expressions: str = "original", options: dict[str, Any] | None = None, progress: bool = True) -> str:
    """Score `model` on a benchmark version; returns the folder of its responses and report."""
    import os

    logger = get_run_logger()
    settings = EvalSettings(model=model, base_url=base_url or os.environ.get("OPENAI_BASE_URL"),
                            api_key=os.environ.get("OPENAI_API_KEY"), split=split, expressions=expressions,
                            **(options or {}))
    rows_path, version = locate(Path(benchmark), settings.split)
    rows = load_rows(rows_path, settings.expressions)
    folder = model_folder(version, settings.model)
    cache_path = str(version / "evals" / ".llm_cache.sqlite")
    logger.info(f"Asking {settings.model} {len(rows)} cases of {rows_path}")
    results = ask_task(rows, settings, cache_path, progress)
    failed = sum(1 for r in results if r.get("response") is None)
    if failed:
        logger.warning(f"{failed} case(s) got no response after retries; they count as format failures")
    title = f"{settings.model} on {version.parent.name}/{version.name} ({settings.split})"
    summary = score_task(results, rows, settings, str(folder), title, cache_path)
    overall = summary["overall"]
    create_markdown_artifact((folder / "report.md").read_text(), key="evaluate-report",
                             description=f"evaluation of {settings.model}")
    table = [{"tier": tier, **row} for tier, row in summary.get("by_difficulty", {}).items()]
    if table:
        create_table_artifact(table, key="evaluate-by-tier", description="accuracy by difficulty")
    logger.info(f"{settings.model}: task accuracy (both) {overall.get('task_both', 0):.1%}, case accuracy "
                f"{overall.get('case_both', 0):.1%}; report in {folder}")
    return str(folder)


if __name__ == "__main__":
    from ifforge.cli import main

    sys.exit(main(["evaluate", *sys.argv[1:]]))
