"""The top level of the checkout is where a newcomer looks (flows/, prompts/<family>/, seeds/); the
package reaches those same files, and its package data carries every one of them into a wheel."""

import ast
import os
import tomllib
from importlib.util import find_spec
from pathlib import Path

import pytest

import ifforge
from ifforge.core import prompts
from ifforge.core.prompts import PromptError, load_prompt, prompt_file
from ifforge.families import FAMILIES

PACKAGE = Path(ifforge.__file__).parent
PROJECT = Path(__file__).resolve().parents[1]


def test_the_package_reaches_the_top_level_folders():
    assert (PACKAGE / "flows").resolve() == PROJECT / "flows"
    assert (PACKAGE / "prompts").resolve() == PROJECT / "prompts"
    assert (PACKAGE / "families" / "logicif" / "seeds").resolve() == PROJECT / "seeds" / "logicif"
    assert Path(find_spec("ifforge.flows.generate").origin).resolve() == PROJECT / "flows" / "generate.py"


def test_prompts_live_in_family_folders_under_unique_names():
    files = sorted((PROJECT / "prompts").glob("*/*.md"))
    assert {path.parent.name for path in files} == set(FAMILIES) | {"common"}
    assert not list((PROJECT / "prompts").glob("*.md"))  # nothing loose above the family folders
    assert len({path.stem for path in files}) == len(files)
    for path in files:  # a prompt named after a family sits in that family's folder
        owner = next((family for family in FAMILIES if path.stem.startswith(family.replace("-", "_") + "_")), None)
        assert owner in (None, path.parent.name), path
    assert prompt_file("verify") == PACKAGE / "prompts" / "logicif" / "verify.md"
    assert prompt_file("rewrite") == PACKAGE / "prompts" / "common" / "rewrite.md"
    assert prompt_file("nope") is None
    with pytest.raises(PromptError, match="no prompt 'nope' in any family folder"):
        load_prompt("nope")


def test_a_prompt_name_in_two_family_folders_is_refused(tmp_path, monkeypatch):
    for family in ("logicif", "pacific"):
        (tmp_path / family).mkdir()
        (tmp_path / family / "same.md").write_text("version: 1\n---\nhello\n")
    monkeypatch.setattr(prompts, "PROMPTS_DIR", tmp_path)
    prompts._shipped.cache_clear()
    try:
        with pytest.raises(PromptError, match="pacific/same.md: prompt 'same' is also .*logicif/same.md"):
            load_prompt("same")
    finally:
        prompts._shipped.cache_clear()  # the next caller indexes the real folder again


def test_package_data_names_every_prompt_seed_and_page():
    """setuptools globs these patterns in the package folder (following the links) to fill the wheel."""
    patterns = tomllib.loads((PROJECT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["ifforge"]
    shipped = {path for pattern in patterns for path in PACKAGE.glob(pattern)}
    wanted = [*PACKAGE.glob("prompts/*/*.md"), *PACKAGE.glob("families/logicif/seeds/*.py"), PACKAGE / "review" / "page.html"]
    assert len(wanted) > 80 and not [path for path in wanted if path not in shipped]


def test_only_the_cli_imports_the_cli():
    """Flows and everything else sit below the command line, never beside it (no import circle);
    `python -m ifforge` (the package's `__main__`) is the command line itself."""
    offenders = []
    for folder, _, names in os.walk(PACKAGE, followlinks=True):  # flows/ is a link
        for name in names:
            path = Path(folder) / name
            if path.suffix != ".py" or path.relative_to(PACKAGE).parts[0] in ("cli", "cli.py", "__main__.py"):
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                modules = ([alias.name for alias in node.names] if isinstance(node, ast.Import) else
                           [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
                           if isinstance(node, ast.ImportFrom) and node.module else [])
                if any(module == "ifforge.cli" or str(module).startswith("ifforge.cli.") for module in modules):
                    offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert offenders == []
