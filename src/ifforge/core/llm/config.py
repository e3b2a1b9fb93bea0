"""How one model is reached (`LLMConfig`): a type of its own, so the cache, the ledger and the client
import it without importing each other."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

JsonMode = Literal["auto", "json_schema", "json_object", "none"]


class LLMConfig(BaseModel):
    """How to reach one model; every field but the key and limits is part of the cache key."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str
    base_url: str | None = None
    api_key: str | None = None
    temperature: float = 0.0
    max_tokens: int | None = 4096
    extra_body: dict[str, Any] = {}  # e.g. {"reasoning_effort": "high"}, passed through and keyed
    timeout: float = 120.0
    max_retries: int = 5
    concurrency: int = 8
    requests_per_minute: int | None = None
    tokens_per_minute: int | None = None
    json_mode: JsonMode = "auto"
    reasks: int = 2
    price_input_per_mtok: float | None = None
    price_output_per_mtok: float | None = None
    max_reply_bytes: int = 4_000_000  # a reply's body at most, compressed or not (`body`)

    def generation_parameters(self) -> dict[str, Any]:
        return {"temperature": self.temperature, "max_tokens": self.max_tokens, **self.extra_body}
