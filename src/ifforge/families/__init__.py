"""The factory's families, by id: the one place that lists them. Each is one contract
(`families.base.Family`) in a folder of its own; adding a family is one line here.

Families load lazily: `ifforge families` lists them without importing any family's code.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from ifforge.core.registry import Registry, UnknownId
from ifforge.core.settings import Settings, load_settings
from ifforge.families.options import Options, options_class


@dataclass(frozen=True)
class Entry:
    """A family's one registry line: read without importing the family's code (`ifforge --help`)."""

    id: str
    title: str
    module: str  # the module whose `FAMILY` is the family
    options: str = "ifforge.families.options"  # the module whose `OPTIONS` are its evaluate/score/export options
    commands: tuple[str, ...] = ()  # modules of command-line commands it adds (each with `register(commands)`)
    converts: str = ""  # the original's files its `Family.converter` reads (`ifforge convert`); "": it has none


FAMILIES: Registry[Entry] = Registry("family", (
    Entry("logicif", "logic-rich instructions: an anonymised function with state trackers, gold by running it",
          "ifforge.families.logicif.family", "ifforge.families.logicif.options", ("ifforge.families.logicif.command",)),
    Entry("pacific", "instruction chains: an initial value through small code or text instructions, gold per step",
          "ifforge.families.pacific.family"),
    Entry("ifeval-fc", "format rules inside tool schemas, scored on real tool calls",
          "ifforge.families.ifeval_fc.family", "ifforge.families.ifeval_fc.options",
          converts="the IFEval-FC repository, or its data/ folder"),
    Entry("mcbench", "step-by-step metric rubrics, gold from parallel reference code",
          "ifforge.families.mcbench.family"),
    Entry("lifbench", "long-input scenarios, LIFEval rubric scores and stability (IFS)",
          "ifforge.families.lifbench.family", "ifforge.families.lifbench.options",
          converts="LIFBench's data/ folder: its prompts/, else prompts rendered from its meta/; or one "
                   "<scenario>-<task>.json"),
), plural="families")

DEFAULT = "logicif"  # what `ifforge generate` makes when no family is named

# Rows that name no family are LogicIF's: LogicIFEval's released files (and result files) are read
# as they are, the one original whose rows ifforge scores without converting them.
UNNAMED = "logicif"

UnknownFamily = UnknownId


def get_family(family_id: str):
    """The family object for an id (an unknown one is an `UnknownId` naming the known ones)."""
    return importlib.import_module(FAMILIES[family_id].module).FAMILY


def options_of(family_id: str) -> type[Options]:
    """The options class of a family, read without importing the family's code."""
    return options_class(FAMILIES[family_id].options)


def option_names() -> set[str]:
    """Every option some family declares (the names evaluate takes as a family's option)."""
    return {name for family_id in FAMILIES for name in options_of(family_id).model_fields}


def converting() -> dict[str, str]:
    """The families with a converter of their original's files: id -> the files it reads."""
    return {family_id: entry.converts for family_id, entry in FAMILIES.items() if entry.converts}


def command_modules() -> list[str]:
    """The command-line commands families add, in registry order."""
    return [module for entry in FAMILIES.values() for module in entry.commands]


def family_id(row: dict[str, Any]) -> Any:
    """The id of the family a row (or a reply, or a report's run) belongs to."""
    return row.get("family", UNNAMED)


def family_of_row(row: dict[str, Any]):
    return get_family(family_id(row))


def settings_class(family_id: str) -> type[Settings]:
    return get_family(family_id).settings_class


def load_family_settings(overrides: dict | None = None, toml_path=None) -> Settings:
    """`core.settings.load_settings` with the family's own settings class."""
    return load_settings(overrides, toml_path, settings_class, DEFAULT)
