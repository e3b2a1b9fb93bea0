"""The typed configs of LogicIF's stages: exactly what each stage receives besides the item.

A stage's cache key hashes its config, so a setting a stage does not receive cannot change its
results, and one it does receive always re-keys it.
"""

from __future__ import annotations

from ifforge.core.sandbox import execution as sandbox
from ifforge.core.records import Record


def from_settings(config: type[Record], settings) -> Record:
    """The config a stage receives, taken field by field from the run's settings (each config
    field is named after the setting it carries)."""
    return config(**{name: getattr(settings, name) for name in config.model_fields})


class SandboxConfig(Record):
    case_seconds: float
    memory_mb: int
    function_seconds: float

    def limits(self) -> sandbox.Limits:
        return sandbox.Limits(case_seconds=self.case_seconds, memory_bytes=self.memory_mb << 20)

    def budget(self) -> sandbox.Budget:
        """One function's time for all its sandbox runs in a stage, started now."""
        return sandbox.Budget(self.function_seconds)


class ExecuteConfig(SandboxConfig):
    min_cases: int
    max_tracker_value: float
    max_decimal_places: int
    max_input_magnitude: float
    max_input_length: int
    max_output_length: int


class TrackerConfig(ExecuteConfig):
    """Trackers are judged on the cases execute will keep, so the instrument stage sees execute's filters;
    a call it swaps in for a case (no tracker told something on them) passes the inputs stage's too."""

    input_max_steps: int


class InstrumentConfig(TrackerConfig):
    """The LLM path: the anonymised function must reproduce the original's outputs in the sandbox."""

    llm_reasks: int


class EvolveConfig(InstrumentConfig):
    evolve_turns: int


class DescribeConfig(Record):
    llm_reasks: int


class VerifyConfig(DescribeConfig):
    verify_rounds: int


class InputsConfig(SandboxConfig):
    """Input generation for seeds with too few inputs; the execute filters it must pass too."""

    input_seed: int
    input_candidates: int
    min_cases: int  # execute's: a seed left with fewer calls is read wider too
    inputs_min: int
    inputs_max: int
    generate_inputs_below: int
    input_max_steps: int
    max_tracker_value: float
    max_decimal_places: int
    max_input_magnitude: float
    max_input_length: int
    max_output_length: int
