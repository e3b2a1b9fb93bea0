"""The factory's families, by id. Each is a generator plus a checker (see `families.base.Family`).

Families load lazily: `ifforge families` lists them without importing any family's code.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from ifforge.core.settings import Settings


@dataclass(frozen=True)
class Entry:
    id: str
    title: str
    module: str | None  # None: not built yet
    issue: str = ""


FAMILIES: dict[str, Entry] = {entry.id: entry for entry in (
    Entry("logicif", "logic-rich instructions: an anonymised function with state trackers, gold by running it",
          "ifforge.families.logicif.family"),
    Entry("pacific", "instruction chains: an initial value through small code or text instructions, gold per step",
          "ifforge.families.pacific.family"),
    Entry("ifeval-fc", "format rules inside tool schemas, scored on real tool calls",
          "ifforge.families.ifeval_fc.family"),
    Entry("mcbench", "step-by-step metric rubrics, gold from parallel reference code",
          "ifforge.families.mcbench.family"),
    Entry("lifbench", "long-input scenarios, LIFEval rubric scores and stability (IFS)",
          "ifforge.families.lifbench.family"),
)}


class UnknownFamily(KeyError, ValueError):
    """An unknown or unbuilt family id: a KeyError for lookups, a ValueError for commands that report bad input."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def get_family(family_id: str):
    """The family object for an id, with a clear error for unknown or not-yet-built ones."""
    entry = FAMILIES.get(family_id)
    if entry is None:
        raise UnknownFamily(f"unknown family {family_id!r} (families: {', '.join(FAMILIES)})")
    if entry.module is None:
        raise UnknownFamily(f"family {family_id!r} is not built yet ({entry.issue}); built: "
                            f"{', '.join(f for f, e in FAMILIES.items() if e.module)}")
    return importlib.import_module(entry.module).FAMILY


def settings_class(family_id: str) -> type[Settings]:
    return get_family(family_id).settings_class


def load_family_settings(overrides: dict | None = None, toml_path=None) -> Settings:
    """`core.settings.load_settings` with the family's own settings class."""
    from ifforge.core.settings import load_settings

    return load_settings(overrides, toml_path, settings_class)
