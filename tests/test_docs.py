"""The documentation: the site builds in strict mode, the README's links resolve, every setting is documented.

CI runs the README's test command, so a broken link, a page left out of nav or an undocumented
setting fails it here rather than on a reader.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def build(config: Path, site: Path) -> subprocess.CompletedProcess:
    """`mkdocs build --strict`; not `--quiet`, which hides the warnings strict mode counts (it then passes)."""
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "-f", str(config), "-d", str(site)], capture_output=True, text=True, timeout=120)


@pytest.fixture
def docs_copy(tmp_path: Path) -> Path:
    """The site's sources in a scratch folder, to break on purpose."""
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    return tmp_path


def test_site_builds_strictly(tmp_path: Path):
    result = build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "site" / "families" / "logicif" / "index.html").exists()
    assert not (tmp_path / "site" / "_incoming").exists()


def test_strict_build_fails_on_each_breakage_but_not_on_incoming_notes(docs_copy: Path):
    """One build, three breakages: each must be reported; a note in docs/_incoming/ must not be."""
    docs = docs_copy / "docs"
    seeds = docs / "seeds.md"
    seeds.write_text(seeds.read_text() + "\nSee [nothing](no-such-page.md) and [it](sandbox.md#no-such-part).\n")
    (docs / "orphan.md").write_text("# Orphan\n")
    (docs / "_incoming").mkdir(exist_ok=True)
    (docs / "_incoming" / "note.md").write_text("# A note waiting to be folded in\n\n[not yet](nowhere.md)\n")
    result = build(docs_copy / "mkdocs.yml", docs_copy / "site")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    for breakage in ("no-such-page.md", "orphan.md", "no-such-part"):
        assert breakage in output, f"{breakage} not reported:\n{output}"
    assert "nowhere.md" not in output and "note.md" not in output, output


def test_readme_links_point_at_files():
    targets = [t for t in LINK.findall(README.read_text()) if not re.match(r"[a-z]+:|#", t)]
    assert targets, "the README links to its docs pages"
    missing = [t for t in targets if not (README.parent / t.split("#")[0]).exists()]
    assert not missing, f"README.md links to missing files: {missing}"


def test_readme_stays_short_and_keeps_its_two_commands():
    text = README.read_text()
    assert len(text.encode()) < 12_000, "README.md over 12 KB: move the detail into docs/"
    lines = text.splitlines()
    assert "bash scripts/setup.sh && .venv/bin/ifforge generate" in lines
    assert "bash scripts/setup.sh && .venv/bin/python -m pytest" in lines


def test_every_setting_is_documented():
    """Common settings on docs/settings.md; a family's own on its page; evaluate's own on docs/scoring.md."""
    from ifforge.core.settings import Settings
    from ifforge.families import FAMILIES, settings_class

    common = (ROOT / "docs" / "settings.md").read_text()
    missing = [f"{name} (docs/settings.md)" for name in Settings.model_fields if f"| `{name}` |" not in common]
    for family_id in FAMILIES:
        page = ROOT / "docs" / "families" / f"{family_id}.md"
        text = page.read_text()
        own = set(settings_class(family_id).model_fields) - set(Settings.model_fields)
        missing += [f"{name} (docs/families/{page.name})" for name in sorted(own) if f"| `{name}` |" not in text]
    from ifforge.eval.evaluation import EvalSettings

    scoring = (ROOT / "docs" / "scoring.md").read_text()
    own = sorted(set(EvalSettings.model_fields) - set(Settings.model_fields))
    missing += [f"{name} (docs/scoring.md)" for name in own if f"| `{name}` |" not in scoring]
    from ifforge.families import options_of

    for family_id in FAMILIES:  # a family's options: on its own page or with evaluate's (a new family: its page)
        text = (ROOT / "docs" / "families" / f"{family_id}.md").read_text() + scoring
        missing += [f"option {name} of {family_id} (its page or docs/scoring.md)"
                    for name in options_of(family_id).model_fields if f"| `{name}` |" not in text]
    assert not missing, f"settings without documentation: {missing}"


def test_the_family_contract_reference_is_what_the_code_says():
    """docs/family-contract.md is written from the contract's docstrings by scripts/family_reference.py:
    a member added, renamed or re-documented without running it fails here."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("family_reference", ROOT / "scripts" / "family_reference.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    text = script.page()
    assert "## `Family`" in text and "- `loads: type | None = None`" in text and "check_plan" in text
    assert (ROOT / "docs" / "family-contract.md").read_text() == text, "run: python scripts/family_reference.py"
