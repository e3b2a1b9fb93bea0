"""Prompt files: a `version:` line, a `---` line, then the text with `{{placeholder}}` slots.

A prompt's hash (of the whole file) goes into every cache key and run fingerprint that uses it.
"""

from __future__ import annotations

import hashlib
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


def load_prompt(name: str, folder: Path | None = None) -> Prompt:
    path = Path(folder or PROMPTS_DIR) / f"{name}.md"
    try:
        raw = path.read_text()
    except OSError as error:
        raise PromptError(f"{path}: cannot read prompt ({error.strerror})") from None
    head, separator, text = raw.partition("\n---\n")
    match = re.fullmatch(r"version:\s*(\S+)\s*", head)
    if not separator or not match:
        raise PromptError(f"{path}:1: a prompt starts with a `version: N` line, then a `---` line")
    return Prompt(name=name, version=match[1], text=text.strip() + "\n", hash=hashlib.sha256(raw.encode()).hexdigest()[:16])
