"""One report for every family: each family's replies scored (`ifforge score`'s path) give a report
with the same sections, a headline whose every score carries its counts (or n) and 95% interval, the
floors beside the model's score, and plots that exist, name the model and draw their intervals
(their numbers in plots.json); the Prefect artifact carries the plots inside it."""

from __future__ import annotations

import json
import re

import pytest

from ifforge.eval.evaluation import EvalSettings
from ifforge.eval.plots import embedded
from ifforge.eval.template import score
from ifforge.families import FAMILIES, get_family
from test_exports import ifeval_fc_rows, lifbench_rows, logicif_rows, mcbench_rows, pacific_rows
from test_score_any_family import _reply

SECTIONS = ("**Headline (stub-model):**", "## Floors", "## Scores", "### Overall", "## Plots", "## Run", "## Files")
SHARE = re.compile(r"\d{1,3}\.\d% \((\d+)/(\d+)\) \[\d{1,3}\.\d-\d{1,3}\.\d\]")
MEAN = re.compile(r"\d\.\d{3} \(n=\d+\) \[\d\.\d{3}-\d\.\d{3}\]")
BUILT = {"logicif": lambda: logicif_rows(2), "pacific": lambda: (pacific_rows()[:12], None),
         "ifeval-fc": lambda: (ifeval_fc_rows(), None), "mcbench": lambda: (mcbench_rows(), None),
         "lifbench": lambda: (lifbench_rows(), None)}


def test_every_family_in_the_registry_is_tested_here():
    assert set(BUILT) == set(FAMILIES)


@pytest.mark.parametrize("family_id", sorted(BUILT))
def test_a_familys_report_has_the_sections_headline_floors_and_plots_of_every_report(family_id, tmp_path):
    family = get_family(family_id)
    rows, extra = BUILT[family_id]()
    rows = [{**row, "family": family_id} for row in rows]
    results = [{**family.carry(row), **_reply(family_id, rows, row, extra)} for row in rows]
    right = sum(family.check(row, _as_reply(result)).correct for row, result in zip(rows, results))
    assert 0 < right < len(rows), family_id  # some right, some wrong: the counts say which
    summary = score(family, results, rows, EvalSettings(model="stub-model"), tmp_path, "a run",
                    run={"model": "stub-model", "family": family_id})
    markdown = (tmp_path / "report.md").read_text()

    places = [markdown.index(section) for section in SECTIONS]  # every section, in the one order
    assert places == sorted(places), family_id
    headline = markdown[:markdown.index("## Floors")]
    figures = re.findall(r"^- .*?: \*\*(.*)\*\*$", headline, re.M)
    assert len(figures) == len(family.report.headline_shares), headline
    for text in figures:  # each score with its counts (a share) or its n (a mean), and its interval
        assert SHARE.fullmatch(text) or MEAN.fullmatch(text), text
    counted = [tuple(map(int, match.groups())) for match in SHARE.finditer(headline)]
    assert (right, len(rows)) in counted, (family_id, right, counted)  # the rows judged right, of all rows
    assert all(SHARE.search(part) or MEAN.search(part) for part in summary["headline"].split(", ")[:len(figures)])

    floors = markdown[markdown.index("## Floors"):markdown.index("## Scores")]
    assert "| **stub-model** |" in floors
    assert re.search(r"; some baseline passes \d+ of those rows \(\d+\.\d%\)\.", floors), floors  # said as a sentence
    for baseline in family.baselines:  # every trivial baseline of the card, judged on the same rows
        assert re.search(rf"\| `{baseline}`: .* \| \d+ of {len(rows)} \|", floors), (baseline, floors)
    assert set(summary["floors"]["baselines"]) == set(family.baselines)

    plotted = json.loads((tmp_path / "plots.json").read_text())
    assert [entry["file"] for entry in plotted] == summary["plots"] and len(summary["plots"]) > 1
    headline_points = plotted[0]["points"]  # the headline scores, each beside the floors on its metric
    assert [point["group"] for point in headline_points] == [label for label, _ in family.report.headline_shares]
    assert any(point["floors"] for point in headline_points)
    with_intervals = [entry for entry in plotted if "points" in entry]
    assert with_intervals, family_id
    for entry in plotted:
        assert (tmp_path / entry["file"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and entry["model"] == "stub-model"
        assert f"![{entry['file'][:-4]}]({entry['file']})" in markdown
    for entry in plotted:  # a floor named as its score is: a percent for a share, a score for a mean
        for text in (entry.get("floors_shown") or {}).values():
            assert text.endswith("%") == bool(summary["overall"].get(f"{entry['score']}_counts")), (entry, text)
    for entry in with_intervals:
        for point in entry["points"]:
            assert 0 <= point["low"] <= point["value"] <= point["high"] <= 1 and point["n"] > 0, point
            if point["value"] == 0 and point["n"] > 1:
                assert point["high"] > 0, point  # a zero still shows its interval
        assert any(point["high"] > point["low"] for point in entry["points"]), entry

    for row in summary["table"]:  # the table artifact: rounded once, never 0.7304347826...
        assert not re.search(r"\d\.\d{5,}", json.dumps(row)), row
    artifact = embedded(markdown, tmp_path)
    assert artifact.count("](data:image/png;base64,") == len(summary["plots"])


def _as_reply(result: dict):
    from ifforge.families.base import Reply

    return Reply(result)
