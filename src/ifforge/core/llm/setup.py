"""Which of a family's stages use which model, from the settings; one line that says so."""

from __future__ import annotations

import os

from ifforge.core.llm.client import LLMConfig
from ifforge.core.settings import Settings


class LLMSetupError(ValueError):
    pass


def resolve_llm(settings: Settings, stages: tuple[str, ...], idle: tuple[str, ...] = ()) -> tuple[dict[str, LLMConfig], str]:
    """Model per LLM stage (none offline), and a line saying so. The key comes from OPENAI_API_KEY only.
    `idle`: stages the settings switch off (they would ask nothing), left out of the line."""
    base_url = settings.base_url or os.environ.get("OPENAI_BASE_URL")
    api_key = os.environ.get("OPENAI_API_KEY")
    unknown = sorted(set(settings.stage_models) - set(stages))
    if unknown:
        raise LLMSetupError(f"setting 'stage_models': unknown stage {unknown[0]!r} for family {settings.family!r} "
                            f"(its LLM stages: {', '.join(stages) or 'none'})")
    if settings.llm == "none":
        return {}, "LLM stages off (--llm none): running the deterministic stages"
    models = {stage: settings.stage_models.get(stage) or settings.model for stage in stages}
    if not any(models.values()) or not (base_url or api_key):
        if settings.llm in ("openai", "local"):
            raise LLMSetupError("--llm openai needs a model (--model or IFFORGE_MODEL) and a server "
                                "(OPENAI_BASE_URL or --base-url, and OPENAI_API_KEY where the server wants one)")
        return {}, ("No LLM configured (set OPENAI_BASE_URL and IFFORGE_MODEL, or use --llm local --model FILE.gguf): "
                    "running the deterministic stages")
    configs = {stage: settings.llm_config(model, api_key, base_url, json_mode=settings.json_mode,
                                          reasks=settings.llm_reasks)
               for stage, model in models.items() if model}
    where = base_url or "the OpenAI API"
    names = ", ".join(f"{stage}={config.model}" for stage, config in configs.items() if stage not in idle)
    return configs, f"LLM stages on, through {where}: {names}"
