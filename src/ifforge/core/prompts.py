"""Prompt files: a `version:` line, a `---` line, then the text with `{{placeholder}}` slots.

They live at the top of the checkout, one folder per family (`prompts/<family>/<name>.md`, shared
ones in `prompts/common/`); the package reaches them as `ifforge/prompts` (a link in a checkout,
real files in a wheel). Code names a prompt by its name alone, unique across the folders, so a
prompt can move between folders without touching its callers or its hash. A prompt's hash (of the
whole file) goes into every cache key and run fingerprint that uses it.
"""

from __future__ import annotations

import hashlib
import functools
import re
from dataclasses import dataclass
from pathlib import Path

PROMPTS_DIR = Path(__file__).resolve().parents[1] / "prompts"  # package data
_SLOT = re.compile(r"\{\{(\w+)\}\}")


class PromptError(ValueError):
    pass


@dataclass(frozen=True)
class Prompt:
    name: str
    version: str
    text: str
    hash: str

    @property
    def slots(self) -> set[str]:
        return set(_SLOT.findall(self.text))

    def render(self, **values: object) -> str:
        missing = self.slots - set(values)
        if missing:
            raise PromptError(f"prompt {self.name!r} needs {sorted(missing)}")
        return _SLOT.sub(lambda match: str(values[match[1]]), self.text)


@functools.cache
def _shipped() -> dict[str, Path]:
    """Every shipped prompt by name; a name in two family folders would be ambiguous, so it is refused."""
    found: dict[str, Path] = {}
    for path in sorted(PROMPTS_DIR.glob("*/*.md")):
        if path.stem in found:
            raise PromptError(f"{path}: prompt {path.stem!r} is also {found[path.stem]}; prompt names are unique "
                              "across family folders")
        found[path.stem] = path
    return found


def prompt_file(name: str) -> Path | None:
    """The shipped file of prompt `name` (`prompts/<family>/<name>.md`), None when there is none."""
    return _shipped().get(name)


def load_prompt(name: str, folder: Path | None = None) -> Prompt:
    """A shipped prompt by name, or `<folder>/<name>.md` when a folder is given."""
    if folder is not None:
        path = Path(folder) / f"{name}.md"
    elif (path := prompt_file(name)) is None:
        raise PromptError(f"{PROMPTS_DIR}: no prompt {name!r} in any family folder (prompts/<family>/{name}.md)")
    try:
        raw = path.read_text()
    except OSError as error:
        raise PromptError(f"{path}: cannot read prompt ({error.strerror})") from None
    head, separator, text = raw.partition("\n---\n")
    match = re.fullmatch(r"version:\s*(\S+)\s*", head)
    if not separator or not match:
        raise PromptError(f"{path}:1: a prompt starts with a `version: N` line, then a `---` line")
    return Prompt(name=name, version=match[1], text=text.strip() + "\n", hash=hashlib.sha256(raw.encode()).hexdigest()[:16])
