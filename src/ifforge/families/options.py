"""What a family lets `ifforge evaluate`, `score` and `export` choose about its scoring: one typed
object per family, declared by the family, never named by generic code.

A family's options are a subclass of `Options` (each field: its name, type, default and help, and
the commands that offer it), in a small module of the family's folder that its registry line names
(`Entry.options`): the command line builds its flags from every family's options without importing
any family's code, and the family's `check`, `refine` and `annotate` read them, validated, as one
object (`settings.options`). Every family has `rules`: `ifforge`, its own checkers; a family that
reproduces its original's scorer widens it with `paper`.
"""

from __future__ import annotations

import importlib
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

COMMANDS = ("evaluate", "score")  # the commands an option is offered by, unless it says otherwise


def option(default: Any, help: str, commands: tuple[str, ...] = COMMANDS) -> Any:
    """One option: its default, its help text (the flag's and the setting's) and its commands."""
    return Field(default, description=help, json_schema_extra={"commands": list(commands)})


class Options(BaseModel):
    """A family's options (this base: the rules only). Subclasses add fields with `option(...)`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rules: Literal["ifforge"] = option("ifforge", "ifforge: ifforge's own checkers", (*COMMANDS, "export"))

    def fingerprint(self) -> dict[str, Any]:
        """What decides the scores (a part of an evaluation run's fingerprint): every option, by default."""
        return self.model_dump()

    def carried(self) -> dict[str, Any]:
        """What an exported row carries, so that its family's `check` (called with no options by the
        harness) scores it as chosen: the export options given other than their defaults."""
        return {name: value for name, value in self.model_dump().items()
                if "export" in commands_of(type(self), name) and value != type(self).model_fields[name].default}


OPTIONS = Options  # a family that declares no options of its own has these


def commands_of(options: type[Options], name: str) -> list[str]:
    return list((options.model_fields[name].json_schema_extra or {}).get("commands", COMMANDS))


def choices(options: type[Options], name: str) -> tuple[Any, ...]:
    """The values a Literal option takes (empty for any other type)."""
    annotation = options.model_fields[name].annotation
    return get_args(annotation) if getattr(annotation, "__origin__", None) is Literal else ()


def options_class(module: str) -> type[Options]:
    """The options class a registry line names (the module's `OPTIONS`)."""
    return importlib.import_module(module).OPTIONS


class OptionError(ValueError):
    """Options a family does not take, or values it does not accept: one line naming the option."""


def flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def validated(family_id: str, options: type[Options], given: dict[str, Any]) -> Options:
    """`given` (options by name) as the family's typed options, or one `OptionError` naming the
    family, the option and what it takes."""
    unknown = [name for name in given if name not in options.model_fields]
    if unknown:
        raise OptionError(f"{family_id} has no option {flag(unknown[0])} (setting {unknown[0]}; its options: "
                          f"{', '.join(options.model_fields)})")
    try:
        return options.model_validate(given)
    except ValidationError as error:
        first = error.errors()[0]
        name = str(first["loc"][0]) if first["loc"] else ""
        if first["type"] == "literal_error":
            allowed = ", ".join(map(str, choices(options, name)))
            raise OptionError(f"{family_id} has no `{flag(name)} {given[name]}` (it has: {allowed})") from None
        raise OptionError(f"{family_id}: option {name or 'options'}: {first['msg'].removeprefix('Value error, ')}") \
            from None
