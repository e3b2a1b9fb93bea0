"""A version's card (`card.md` beside `manifest.json`, the README of its datasets export): what it
measures and the paper it follows, how each stage made it, its size by group, the floors, the
known differences from the original, the licences, the settings that regenerate it and how to cite
it. Every line comes from the manifest, the rows and the family's own declarations (its docs page,
`Family.card_sections`, `Family.data_licences`): nothing is written by hand.

A card is read where the repository is not (the Hugging Face Hub), so every link in it is absolute,
made from the project's URLs (`[project.urls]` in pyproject.toml), or left out; `check_card` says
what a card still lacks before it is published.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ifforge.eval.evaluation import BenchmarkError, read_jsonl
from ifforge.eval.floors import counts_by_group, floors, floors_lines, group_lines
from ifforge.families import get_family

PACKAGE = Path(__file__).resolve().parent
CHECKOUT = PACKAGE.parents[1]  # the checkout's top (src/ifforge -> .), when this runs from one
DOCS = PACKAGE / "docs"  # a link to the checkout's docs/ (a wheel carries the family pages as files)
DIFFERENCES = "Differences from the original"
LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")


# ---- the project's URLs and licence ----------------------------------------------------------------

@cache
def project() -> dict[str, Any]:
    """The project's `urls` and `license`: from the checkout's pyproject.toml, else the installed
    package's metadata (a wheel)."""
    pyproject = CHECKOUT / "pyproject.toml"
    if pyproject.is_file():
        import tomllib

        found = tomllib.loads(pyproject.read_text()).get("project") or {}
        if found.get("name") == "ifforge":
            licence = found.get("license")
            return {"urls": dict(found.get("urls") or {}),
                    "license": (licence.get("text") if isinstance(licence, dict) else licence) or None}
    from importlib import metadata

    try:
        meta = metadata.metadata("ifforge")
    except metadata.PackageNotFoundError:
        return {"urls": {}, "license": None}
    urls = dict(entry.split(", ", 1) for entry in meta.get_all("Project-URL") or [] if ", " in entry)
    return {"urls": urls, "license": meta.get("License-Expression") or meta.get("License") or None}


def docs_url(page: str, anchor: str = "") -> str | None:
    """The published docs page (mkdocs' address for `page`, a path under docs/), or None when the
    project names no Documentation URL."""
    base = project()["urls"].get("Documentation")
    if not base:
        return None
    path = page[:-len("index.md")] if page.endswith("index.md") else page[:-3] + "/" if page.endswith(".md") else page
    return f"{base.rstrip('/')}/{path}" + (f"#{anchor}" if anchor else "")


def absolute(target: str, page: str) -> str | None:
    """A link written in the docs page `page` (a path under docs/) as an absolute address, or None
    when the project has no URL for it."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target):
        return target
    path, _, anchor = target.partition("#")
    resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
    if resolved.startswith(".."):  # outside docs/: a file of the repository
        repository = project()["urls"].get("Repository")
        return f"{repository.rstrip('/')}/blob/main/{os.path.normpath(os.path.join('docs', resolved))}" \
            if repository else None
    return docs_url(resolved, anchor)


def absolute_links(lines: list[str], page: str) -> list[str]:
    """Every markdown link of a docs page's lines made absolute; one with no address left as its text."""
    def one(match: re.Match) -> str:
        bang, text, target = match.groups()
        address = absolute(target, page)
        return f"{bang}[{text}]({address})" if address else text

    return [LINK.sub(one, line) for line in lines]


# ---- the family's docs page ---------------------------------------------------------------------------

def docs_section(page: str, heading: str) -> list[str] | None:
    """The section `## heading` of a docs page (its subsections too), links made absolute; None when
    the page or the section is not there."""
    try:
        text = (DOCS / page).read_text()
    except OSError:
        return None
    match = re.search(rf"^## {re.escape(heading)}\n", text, re.MULTILINE)
    if match is None:
        return None
    section = re.split(r"^## ", text[match.end():], maxsplit=1, flags=re.MULTILINE)[0].strip("\n")
    return absolute_links(section.splitlines(), page) if section.strip() else None


def differences(family) -> list[str]:
    """The differences section of the family's docs page, or where to read it."""
    found = docs_section(family.docs_page, DIFFERENCES)
    if found:
        return found
    address = docs_url(family.docs_page, "differences-from-the-original")
    return [f"Listed on the family's documentation page: {address}." if address else
            f"Listed on the family's documentation page (`{family.docs_page}` in ifforge's documentation)."]


# ---- the sections ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Version:
    """What a card is made from: the manifest, the rows (iterable more than once), their floors,
    and, for a reviewed subset, its review."""

    manifest: dict[str, Any]
    rows: Iterable[dict[str, Any]]
    floors: dict[str, Any] | None
    review: dict[str, Any] | None = None
    family: Any = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "family", get_family(self.manifest["family"]))


def stage_lines(manifest: dict[str, Any]) -> list[str]:
    lines = ["| stage | made by | in | out |", "|---|---|---|---|"]
    counts, llm = manifest.get("stages") or {}, manifest.get("llm") or {}
    for name, identity in (manifest.get("stages_used") or {}).items():
        used = llm.get(name) or {}
        model = used.get("model") or ((identity or {}).get("llm") or {}).get("model")
        made = made_by(model, used)
        row = counts.get(name, {})
        lines.append(f"| {name} | {made} | {row.get('in', '')} | {row.get('out', '')} |")
    return lines


def made_by(model: str | None, used: dict[str, Any]) -> str:
    """Who made a stage's output: a model only where it was asked (a stage may have one configured
    and still make every item by code, as LogicIF's inputs stage does for seeds with their own cases)."""
    if not model:
        return "deterministic (code)"
    asked = int(used.get("calls") or 0) + int(used.get("cache_hits") or 0)
    if "calls" in used and not asked:
        return f"deterministic (code); model `{model}` configured, never asked"
    return f"model `{model}`" + (f" ({asked} requests)" if asked else "")


def shown_path(value: str) -> str:
    """A path as a card may show it: relative to the checkout (`seeds/logicif`) or the working
    folder, inside the installed package as `ifforge/...`, else the folder's name alone (never the
    layout of the machine that made it)."""
    path = Path(value).resolve()
    bases = [(CHECKOUT, "")] if (CHECKOUT / "pyproject.toml").is_file() else []
    for base, prefix in (*bases, (PACKAGE, "ifforge/"), (Path.cwd().resolve(), "")):
        if path.is_relative_to(base):
            return prefix + path.relative_to(base).as_posix()
    return path.name


def shown_inputs(value: Any) -> Any:
    """The manifest's inputs with every absolute path shown as `shown_path` shows it."""
    if isinstance(value, dict):
        return {key: shown_inputs(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shown_inputs(item) for item in value]
    return shown_path(value) if isinstance(value, str) and os.path.isabs(value) else value


def made_lines(version: Version) -> list[str]:
    inputs = json.dumps(shown_inputs(version.manifest.get("inputs") or {}), ensure_ascii=False)
    return [*stage_lines(version.manifest), "", f"Inputs: `{inputs}`.", "", *unwalled_lines(version.manifest)]


def size_lines(family, rows: Iterable[dict[str, Any]]) -> list[str]:
    """Rows and tasks, then counts of rows by tier, category and each of the report's groups the rows
    carry: one pass, so `rows` may be a file read as it goes."""
    count, tasks = 0, set()

    def counted():
        nonlocal count
        for row in rows:
            count += 1
            tasks.add(row["task_id"])
            yield row

    groups = counts_by_group(family, counted())
    return [f"{count} rows, {len(tasks)} tasks.", "", *group_lines(groups)]


def floor_lines(version: Version) -> list[str]:
    lines = ["Scored by the family's own checker, as `ifforge evaluate` would score these replies.", ""]
    return lines + (floors_lines(version.floors) if version.floors else ["No floors were computed for these rows."])


def review_lines(review: dict[str, Any]) -> list[str]:
    """Who reviewed the subset, and by what rule its rows were kept."""
    reviewers = review["reviewers"]
    return [f"Every row of this subset belongs to a task that at least {review['min_reviewers']} reviewer(s) marked "
            "`faithful` on ifforge's review page (each step of the description beside the code it describes), "
            "and that no reviewer marked `not_faithful`; every other task's rows are left out.", "",
            f"{len(reviewers)} reviewer(s): " + ", ".join(f"`{name}` ({n} tasks marked)" for name, n in reviewers.items())
            + ".", "",
            f"Tasks of the version marked by someone: {review['reviewed']}; kept: {review['kept']}; "
            f"marked `not_faithful` by someone: {review['rejected']}; of {review['tasks']} tasks in the version."]


def licence_lines(version: Version) -> list[str]:
    """The project's licence and the licences of what the rows derive from (`Family.data_licences`)."""
    own = project()["license"]
    lines = [f"ifforge and the rows it generates: `{own}` (the project's licence, pyproject.toml)." if own else
             "ifforge's pyproject.toml declares no licence yet, so these rows carry none from ifforge: set one "
             "(`license` under `[project]`) before publishing them."]
    return lines + [f"- {line}" for line in version.family.data_licences(version.rows)]


def regenerate_lines(manifest: dict[str, Any]) -> list[str]:
    """The settings that made the version, as a file to run again: its paths as `shown_path` shows
    them (relative, so they resolve when run from the checkout), never the machine's own."""
    parameters = shown_inputs(manifest.get("parameters") or {})
    seed = f", seed `{parameters['seed']}`" if parameters.get("seed") is not None else ""
    return [f"Fingerprint `{manifest.get('fingerprint')}`{seed}. With these settings in `ifforge.toml`, "
            "`ifforge generate --config ifforge.toml`, run from the checkout, writes the version these rows come "
            "from again (an LLM stage gives the same text from the same response cache):", "",
            "```toml", *toml_lines(parameters), "```"]


def cite_lines(version: Version) -> list[str]:
    manifest = version.manifest
    return [f"The benchmark this follows: {version.family.follows}.",
            f"This version: ifforge, `{manifest.get('benchmark')}` {manifest.get('version')}, "
            f"fingerprint `{manifest.get('fingerprint')}`."]


# The card's sections in order: (title, lines). A family adds its own after the floors
# (`Family.card_sections`); a reviewed subset gets its review after its size.
SECTIONS: list[tuple[str, Callable[[Version], list[str]]]] = [
    ("How it was made", made_lines),
    ("Size", lambda version: size_lines(version.family, version.rows)),
    ("Review", lambda version: review_lines(version.review) if version.review else []),
    ("Floors: what a trivial answer scores", floor_lines),
    ("*", lambda version: []),  # the family's own sections go here
    (DIFFERENCES, lambda version: differences(version.family)),
    ("License", licence_lines),
    ("Regenerate", lambda version: regenerate_lines(version.manifest)),
    ("Cite", cite_lines),
]


def sections(version: Version) -> list[tuple[str, list[str]]]:
    found = []
    for title, lines_of in SECTIONS:
        if title == "*":
            found.extend(version.family.card_sections(version.manifest, version.rows).items())
        elif lines := lines_of(version):
            found.append((title, lines))
    return found


def toml_lines(parameters: dict[str, Any]) -> list[str]:
    """The settings as an `ifforge.toml` (values TOML cannot hold, such as none, are left out)."""
    lines = []
    for key, value in sorted(parameters.items()):
        if value is None or isinstance(value, dict) or (isinstance(value, list) and any(isinstance(v, (dict, list)) or v is None for v in value)):
            continue
        lines.append(f"{key} = {json.dumps(value, ensure_ascii=False)}")
    return lines


def unwalled_lines(manifest: dict[str, Any]) -> list[str]:
    """Where code from outside ifforge ran without the sandbox's walls (a setting allowed it), a line saying so."""
    unwalled = (manifest.get("sandbox") or {}).get("unwalled")
    return [f"Without the sandbox's walls: {unwalled}; that code could read and write the files of the machine "
            "that made this version and reach its network.", ""] if unwalled else []


def render(manifest: dict[str, Any], rows: Iterable[dict[str, Any]], floors: dict[str, Any] | None,
           review: dict[str, Any] | None = None, title: str | None = None) -> str:
    version = Version(manifest, rows, floors, review)
    family = version.family
    documented = docs_url(family.docs_page)
    name = title or f"{manifest.get('benchmark')} {manifest.get('version')}"
    lines = [f"# {name} ({family.id})", "",
             f"Measures {family.measures}.", "", f"Follows {family.follows}."
             + (f" Documentation: {documented}" if documented else ""), ""]
    for heading, body in sections(version):
        while body and not body[-1].strip():
            body = body[:-1]
        lines += [f"## {heading}", "", *body, ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def read_card(version: Path) -> str:
    """The version's card.md, or (for a version written before cards) one rendered from its files,
    its floors computed now."""
    version = Path(version)
    card = version / "card.md"
    if card.exists():
        return card.read_text()
    manifest = read_manifest(version)
    rows = read_jsonl(version / "benchmark.jsonl")
    floors_file = version / "floors.json"
    found = json.loads(floors_file.read_text()) if floors_file.exists() else floors(get_family(manifest["family"]), rows)
    return render(manifest, rows, found)


def read_manifest(version: Path) -> dict[str, Any]:
    try:
        return json.loads((Path(version) / "manifest.json").read_text())
    except (OSError, ValueError) as error:
        raise BenchmarkError(f"{version}: no readable manifest.json ({error})") from error


# ---- before publishing ------------------------------------------------------------------------------

def check_card(text: str) -> list[str]:
    """What a card still lacks before it is published, one line each (none: ready): a section with
    nothing in it, a link that is not an absolute address (it breaks wherever the repository is
    not), no licence (in the YAML header when it has one, and in its License section)."""
    problems = []
    body = text
    if text.startswith("---\n"):
        header, _, body = text[4:].partition("\n---\n")
        licence = re.search(r"^license:[ \t]*(\S.*)?$", header, re.MULTILINE)
        if not licence or not (licence.group(1) or "").strip():
            problems.append("the YAML header has no `license:`")
    fenced = re.sub(r"^```.*?^```", "", body, flags=re.MULTILINE | re.DOTALL)
    parts = re.split(r"^(#{1,6} .*)$", fenced, flags=re.MULTILINE)
    headings = parts[1::2]
    for index, (heading, content) in enumerate(zip(headings, parts[2::2])):
        level = len(heading) - len(heading.lstrip("#"))
        following = headings[index + 1] if index + 1 < len(headings) else ""
        deeper = len(following) - len(following.lstrip("#")) > level  # its content is its subsections
        if not content.strip() and not deeper:
            problems.append(f"section {heading.strip()!r} is empty")
    for match in LINK.finditer(fenced):
        if not re.match(r"^[a-z][a-z0-9+.-]*://", match.group(3)):
            problems.append(f"link {match.group(0)!r} is not absolute")
    if not re.search(r"^#{2,3} License\n\s*\S", body, re.MULTILINE):
        problems.append("no License section")
    return problems

