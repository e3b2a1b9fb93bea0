"""Cards ready to publish: every family's card passes `check_card` (no empty section, no link that
breaks off the repository, a licence), carries its differences from the original in itself, shows
no machine's paths and counts groups in numeric order; a reviewed subset's card counts its own rows
and floors and says who reviewed them and by what rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ifforge import card
from ifforge.eval.floors import counts_by_group, floors, value_order
from ifforge.exports import export
from ifforge.exports.benchmark import read_benchmark
from ifforge.families import get_family
from ifforge.review import save_review
from test_exports import ifeval_fc_rows, lifbench_rows, logicif_rows, mcbench_rows, pacific_rows, write_rows

ROWS = {"logicif": lambda: logicif_rows(2)[0], "pacific": lambda: pacific_rows()[:8], "ifeval-fc": ifeval_fc_rows,
        "mcbench": lambda: mcbench_rows()[:6], "lifbench": lambda: lifbench_rows()[:6]}


def manifest(family_id: str, inputs: dict | None = None) -> dict:
    return {"family": family_id, "benchmark": family_id, "version": "v001", "fingerprint": "f" * 16,
            "parameters": {"seed": 3}, "inputs": inputs or {"seed": 3},
            "stages_used": {"gold": {"name": "gold", "llm": None}}, "stages": {"gold": {"in": 2, "out": 2}}}


def section(text: str, heading: str) -> str:
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


@pytest.mark.parametrize("family_id", list(ROWS))
def test_every_familys_card_is_ready_to_publish_and_carries_its_differences(family_id):
    rows = ROWS[family_id]()
    family = get_family(family_id)
    text = card.render(manifest(family_id), rows, floors(family, rows))
    assert card.check_card(text) == []
    differences = section(text, "Differences from the original")
    page = (Path(card.DOCS) / family.docs_page).read_text()
    first = next(line for line in page.split("## Differences from the original\n", 1)[1].splitlines()
                 if line.strip() and "](" not in line)
    assert first in differences  # the docs page's own text, in the card itself
    assert "](http" in differences or "](" not in differences  # links only as absolute addresses
    assert "above)" not in differences and "table above;" not in differences  # "above" the card does not hold
    assert "License" in text and "docs/families" not in text


def test_lifbench_card_names_the_licence_of_the_text_it_is_built_from():
    rows = lifbench_rows()[:3]
    text = card.render(manifest("lifbench"), rows, None)
    assert "PSF" in section(text, "License") and "LIFBench's released data" not in text
    converted = [{**row, "paper": {"task": "x"}} for row in rows]
    assert "declares no licence" in section(card.render(manifest("lifbench"), converted, None), "License")


def test_check_card_names_each_problem():
    bad = ("---\npretty_name: x\n---\n\n# x\n\n## Empty\n\n## Links\n\nSee [the page](../seeds.md) and "
           "[this](#x) but [that](https://example.org/a).\n\n```\n[code](not/a/link)\n```\n")
    problems = card.check_card(bad)
    assert "the YAML header has no `license:`" in problems and "section '## Empty' is empty" in problems
    assert "link '[the page](../seeds.md)' is not absolute" in problems and "no License section" in problems
    assert "link '[this](#x)' is not absolute" in problems and not any("example.org" in p or "code" in p
                                                                      for p in problems)
    good = "---\nlicense: mit\n---\n\n# x\n\n## Parts\n\n### One\n\ntext\n\n## License\n\nMIT.\n"
    assert card.check_card(good) == []


PUBLISHED = {"urls": {"Documentation": "https://docs.example.org/ifforge",
                      "Repository": "https://git.example.org/ifforge"}, "license": None}


def test_docs_links_become_absolute_or_plain_text(monkeypatch):
    lines = ["[a](../seeds.md#x), [b](#agreement), [c](pacific.md), [d](https://e.org), [e](../../tests/t.py)"]
    monkeypatch.setattr(card, "project", lambda: PUBLISHED)  # where a project that publishes its docs names them
    made = card.absolute_links(lines, "families/logicif.md")[0]
    docs = "https://docs.example.org/ifforge"
    assert f"[a]({docs}/seeds/#x)" in made and f"[b]({docs}/families/logicif/#agreement)" in made
    assert f"[c]({docs}/families/pacific/)" in made and "[d](https://e.org)" in made
    assert "/blob/main/tests/t.py)" in made
    monkeypatch.setattr(card, "project", lambda: {"urls": {}, "license": None})
    assert card.absolute_links(lines, "families/logicif.md")[0] == "a, b, c, [d](https://e.org), e"


def test_a_card_without_its_docs_page_says_where_the_differences_are(monkeypatch, tmp_path):
    monkeypatch.setattr(card, "DOCS", tmp_path)
    monkeypatch.setattr(card, "project", lambda: {"urls": {}, "license": None})
    text = card.render(manifest("pacific"), pacific_rows()[:2], None)
    assert card.check_card(text) == []  # no address to give: the page is named as plain text
    assert "`families/pacific.md` in ifforge's documentation" in section(text, "Differences from the original")
    monkeypatch.setattr(card, "project", lambda: PUBLISHED)
    text = card.render(manifest("pacific"), pacific_rows()[:2], None)
    assert card.check_card(text) == []
    assert "https://docs.example.org/ifforge/families/pacific/#differences-from-the-original" \
        in section(text, "Differences from the original")


def test_inputs_show_no_install_path_and_groups_count_in_numeric_order(tmp_path):
    seeds = str(Path(card.CHECKOUT) / "seeds" / "logicif")
    linked = str(Path(card.PACKAGE) / "families" / "logicif" / "seeds")  # the package's link to them
    elsewhere = str(tmp_path / "alice" / "my_seeds")
    rows = [{"family": "pacific", "task_id": f"t{n}", "chain_length": n, "mode": "prompt"} for n in (10, 3, 5, 3)]
    text = card.render(manifest("pacific", {"seeds": seeds, "more": [linked, elsewhere], "n": 3}), [], None)
    assert 'Inputs: `{"seeds": "seeds/logicif", "more": ["seeds/logicif", "my_seeds"], "n": 3}`' in text
    assert str(tmp_path) not in text and str(card.CHECKOUT) not in text
    assert list(counts_by_group(get_family("pacific"), rows)["chain_length"]) == ["3", "5", "10"]
    assert list(value_order(v) for v in ("L16384", "L1024"))[1] < value_order("L16384")


def test_the_verified_subset_card_counts_its_own_rows_and_says_who_reviewed_them(tmp_path):
    rows, _ = logicif_rows(3)
    version = write_rows(tmp_path / "logicif" / "v001", rows)
    (version / "manifest.json").write_text(json.dumps(manifest("logicif")))
    tasks = sorted({row["task_id"] for row in rows})
    known = set(tasks)
    for reviewer, marks in (("ana", {tasks[0]: "faithful", tasks[1]: "faithful", tasks[2]: "not_faithful"}),
                            ("ben.k", {tasks[0]: "faithful"})):
        for task, verdict in marks.items():
            save_review(version, known, {"reviewer": reviewer, "task_id": task, "verdict": verdict})
    subset = read_benchmark(version, verified_only=True, min_reviewers=2)
    export(subset, "hf", tmp_path / "hf")
    text = (tmp_path / "hf" / "README.md").read_text()
    assert card.check_card(text) == [] and "\nlicense: " in text.split("\n---\n", 1)[0]
    kept = [row for row in rows if row["task_id"] == tasks[0]]
    assert f"{len(kept)} rows, 1 tasks" in text and f"{len(rows)} rows" not in text
    assert "| `empty` | an empty reply to every turn |" in text and f"0 of {len(kept)} |" in text
    review = text.split("\n### Review\n", 1)[1].split("\n### ", 1)[0]
    assert "at least 2 reviewer(s) marked `faithful`" in review and "no reviewer marked `not_faithful`" in review
    assert "2 reviewer(s): `ana` (3 tasks marked), `ben.k` (1 tasks marked)" in review
    assert "marked by someone: 3; kept: 1; marked `not_faithful` by someone: 1; of 3 tasks" in review


def test_ifforge_card_check_says_whether_a_versions_card_is_ready(tmp_path, capsys):
    from ifforge.cli import main

    version = write_rows(tmp_path / "pacific" / "v001", pacific_rows()[:2])
    (version / "manifest.json").write_text(json.dumps(manifest("pacific")))
    assert main(["card", str(version), "--check"]) == 0
    assert "ready to publish" in capsys.readouterr().out
    (version / "card.md").write_text("# old card\n\n## Differences from the original\n\nSee [the page](docs/x.md).\n")
    assert main(["card", str(version), "--check"]) == 1
    out = capsys.readouterr().out
    assert "link '[the page](docs/x.md)' is not absolute" in out and "no License section" in out


def test_a_stage_is_credited_to_a_model_only_where_the_model_was_asked():
    """A seed with its own cases makes LogicIF's inputs stage ask nothing: the card must not credit
    the model configured for it with those inputs."""
    assert card.made_by(None, {}) == "deterministic (code)"
    assert card.made_by("m", {"model": "m", "calls": 0, "cache_hits": 0}) == \
        "deterministic (code); model `m` configured, never asked"
    assert card.made_by("m", {"model": "m", "calls": 3, "cache_hits": 4}) == "model `m` (7 requests)"
    manifest = {"stages_used": {"inputs": {"llm": {"model": "m"}}, "describe": {}},
                "llm": {"inputs": {"model": "m", "calls": 0, "cache_hits": 0}}, "stages": {}}
    assert card.stage_lines(manifest)[2:] == ["| inputs | deterministic (code); model `m` configured, never asked |  |  |",
                                              "| describe | deterministic (code) |  |  |"]
def test_tiers_count_in_the_familys_order_and_the_regenerate_toml_runs_from_the_checkout(tmp_path, monkeypatch):
    import tomllib

    from ifforge.families import load_family_settings

    family = get_family("logicif")
    rows = [{"task_id": f"t{n}", "difficulty": tier} for n, tier in enumerate(("hard", "easy", "medium", "hard"))]
    assert list(counts_by_group(family, rows)["difficulty"]) == list(family.tier_order)  # easy, medium, hard
    seeds = Path(card.CHECKOUT) / "seeds" / "logicif"
    parameters = {"family": "logicif", "out": str(tmp_path / "alice" / "outs"), "seeds": str(seeds), "min_cases": 4}
    text = card.render({**manifest("logicif"), "parameters": parameters}, rows, None)
    regenerate = section(text, "Regenerate")
    assert str(tmp_path) not in regenerate and str(card.CHECKOUT) not in regenerate and "seed `" not in regenerate
    toml = regenerate.split("```toml\n", 1)[1].split("```", 1)[0]
    assert tomllib.loads(toml) == {"family": "logicif", "min_cases": 4, "out": "outs", "seeds": "seeds/logicif"}
    (tmp_path / "ifforge.toml").write_text(toml)
    monkeypatch.chdir(card.CHECKOUT)  # run from the checkout, as the card says: its seeds are found again
    settings = load_family_settings(toml_path=tmp_path / "ifforge.toml")
    assert settings.seeds.resolve() == seeds.resolve() and settings.min_cases == 4
