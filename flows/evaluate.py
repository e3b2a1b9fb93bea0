"""The `evaluate` flow, one for every family: ask a model every row, keep every response, score, report.

DAG wiring only: the one evaluate template (`eval/template.py`) asks and scores, through the
family's contract (what each row is sent, how a reply is judged, what its report gives). Each run
gets its own folder, `evals/<model>/rNNN/` (the same folder again for the same benchmark file and
parameters, with `LATEST` pointing at the newest). Requests are cached by content, so a crashed run resumes without asking anything twice, and a re-run
asks only the requests that failed. When more requests failed than `allow_failures` allows, the
report is still written, but the run ends Failed: failures are not scores.
Run it as `ifforge evaluate ...`, from Python (`ifforge.flows.evaluate.evaluate`), or as a deployment
(`ifforge deploy`, see `serve.py`).
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ifforge.core.prefect.env import configure

configure()

from prefect import flow, get_run_logger, task  # noqa: E402
from prefect.artifacts import create_markdown_artifact, create_table_artifact  # noqa: E402
from prefect.cache_policies import NO_CACHE  # noqa: E402
from prefect.states import Failed  # noqa: E402

from ifforge.core.progress import stage_bar  # noqa: E402
from ifforge.core.store.versions import atomic_write, write_json  # noqa: E402
from ifforge.eval.evaluation import (  # noqa: E402
    EvalSettings,
    RequestsFailed,
    benchmark_check,
    cache_file,
    check_options,
    family_of,
    limit_tasks,
    load_eval_settings,
    load_rows,
    locate,
    run_fingerprint,
    run_folder,
)
from ifforge.eval.plots import embedded  # noqa: E402
from ifforge.eval.template import evaluate as evaluate_rows  # noqa: E402
from ifforge.families import get_family  # noqa: E402
from ifforge.flows.naming import provisional_name, rename_flow_run, slug  # noqa: E402


@task(name="ask-and-score", retries=0, cache_policy=NO_CACHE)
def evaluate_task(family_id: str, rows: list[dict], settings: EvalSettings, cache_path: str, folder: str,
                  title: str, progress: bool, run: dict[str, Any]) -> dict[str, Any]:
    """No Prefect cache on purpose: the response cache answers repeated requests, row by row. No
    Prefect retry either: the LLM client already retried every request within its budget, and a
    task retry would send every failed request again, with a fresh budget."""
    with stage_bar("evaluate", len(rows), progress) as advance:
        return evaluate_rows(get_family(family_id), rows, settings, Path(cache_path), Path(folder), title, advance, run)


def artifact_table(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The table artifact's rows: the report's table, and why requests failed (counted, as the
    report's Replies line says it) on the overall row, when any did."""
    why = (summary.get("replies") or {}).get("failed_because")
    if not why:
        return summary["table"]
    return [{**row, "why they failed": why if index == 0 else ""} for index, row in enumerate(summary["table"])]


@flow(name="evaluate", log_prints=True, flow_run_name=provisional_name("evaluate", "model"))
def evaluate(benchmark: str, model: str, base_url: str | None = None, split: str = "full",
             expressions: str = "original", options: dict[str, Any] | None = None, progress: bool = True,
             config: str | None = None) -> str:
    """Score `model` on a benchmark version of any family; returns the folder of its responses and
    report. `options` are settings by their names (`llm_concurrency`, `llm_max_retries`, ...);
    `config` a settings file for the limits and prices evaluate shares with generate."""
    logger = get_run_logger()
    settings = load_eval_settings({"model": model, "base_url": base_url or os.environ.get("OPENAI_BASE_URL"),
                                   "api_key": os.environ.get("OPENAI_API_KEY"), "split": split,
                                   "expressions": expressions, **(options or {})}, Path(config) if config else None)
    rows_path, version = locate(Path(benchmark), settings.split)
    check = benchmark_check(rows_path, version)
    artifacts = slug(version.parent.name, settings.model)  # one key per benchmark and model, across versions
    rename_flow_run(slug("evaluate", settings.model, version.parent.name, version.name))
    if check["matches_manifest"] is False:
        logger.warning(f"{rows_path} differs from what its manifest recorded when it was generated "
                       f"(sha256 {check['sha256'][:12]}, manifest {check['manifest_sha256'][:12]}): scores are for "
                       "the modified file; regenerate to score the benchmark as generated")
    rows = limit_tasks(load_rows(rows_path, settings.expressions), settings.limit)
    settings = check_options(rows, settings, rows_path)  # the family's options, typed once
    family_id = family_of(rows, rows_path)
    fingerprint = run_fingerprint(rows_path, check["sha256"], settings)
    folder = run_folder(version, settings.model, fingerprint)
    run = {"family": family_id, "benchmark": str(rows_path), "benchmark_sha256": check["sha256"], "split": settings.split,
           "expressions": settings.expressions, "limit": settings.limit, "model": settings.model,
           "server": settings.base_url, "cases": len(rows), "run_folder": f"{folder.parent.name}/{folder.name}",
           "started": datetime.now(timezone.utc).isoformat(timespec="seconds"), "fingerprint": fingerprint,
           "parameters": {k: v for k, v in settings.fingerprint_fields().items()
                          if k not in ("model", "base_url", "split", "expressions", "limit")}}
    write_json(folder / "run.json", run)  # first: a crashed run is found again by its fingerprint
    atomic_write(folder.parent / "LATEST", folder.name + "\n")
    cache_path = str(cache_file(settings, version))
    logger.info(f"Asking {settings.model} {len(rows)} rows of {rows_path} ({family_id}) into {folder}")
    title = f"{settings.model} on {version.parent.name}/{version.name} ({settings.split})"
    summary = evaluate_task(family_id, rows, settings, cache_path, str(folder), title, progress, run)
    write_json(folder / "benchmark_check.json", check)  # which file, byte for byte, the scores are for
    create_markdown_artifact(embedded((folder / "report.md").read_text(), folder), key=f"{artifacts}-evaluate-report",
                             description=f"evaluation of {settings.model}: the report, its plots inside it")
    if summary.get("table"):
        create_table_artifact(artifact_table(summary), key=f"{artifacts}-evaluate-table",
                              description=f"{settings.model}: the headline scores overall and by group")
    logger.info(f"{settings.model}: {summary.get('headline', '')}; report in {folder}, every sample in "
                f"{folder / 'samples.html'}")
    failures, why = summary.get("request_failures", 0), (summary.get("replies") or {}).get("failures")
    if why:
        logger.warning(why)
    if failures > settings.allow_failures * len(rows):
        # a failed run, but no crash: the state says why, with no traceback in the log
        failed = RequestsFailed(f"{why or f'{failures} of {len(rows)} requests failed'}, after retries (allowed: "
                                f"{settings.allow_failures:.0%}); they are not scored: the report in {folder} covers "
                                "the rest. Run the same command again to ask only those.")
        return Failed(message=str(failed), data=failed)
    return str(folder)

