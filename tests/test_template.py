"""The one evaluate template, with the smallest family the contract allows: its steps in order, the
files it writes, and what it hands the flow, asked through the stub server."""

import json

import pandas as pd

from ifforge.eval import template
from ifforge.eval.evaluation import EvalSettings
from ifforge.eval.report import Report
from ifforge.families.base import Family, Verdict
from ifforge.testing.openai_stub import Answer, StubServer


class EchoReport(Report):
    name = "Echo"
    groups = ("kind",)
    notes = staticmethod(lambda summary: ["Right: the reply is the gold."])


class Echo(Family):
    """Right when the reply is the row's gold; grouped by `kind`; records the order of its hooks."""

    id = "echo"
    carried = ("task_id", "gold", "kind")
    report = EchoReport()

    def __init__(self):
        self.calls = []

    def refine(self, results, rows, settings, asker):
        self.calls.append(("refine", len(results)))

    def check(self, row, reply, settings=None):
        self.calls.append(("check", row["task_id"]))
        right = not reply.failed and reply.text == row["gold"]
        return Verdict(right, ({"task_id": row["task_id"], "kind": row["kind"], "request_failed": reply.failed,
                                "correct": right},))

    def annotate(self, results, frame, rows, settings, asker, folder):
        self.calls.append(("annotate", len(frame)))
        return {"seen": int(frame["correct"].sum())}


def test_the_template_asks_scores_and_reports_through_the_contract(tmp_path):
    rows = [{"task_id": f"t{i}", "prompt": f"say {i}", "gold": str(i), "kind": "odd" if i % 2 else "even"}
            for i in range(5)]

    def answer(request):
        number = request["messages"][-1]["content"].split()[-1]
        if number == "3":
            return Answer(status=400, error="refused")
        return Answer(content=number if number != "4" else "four")

    family = Echo()
    with StubServer(answer) as server:
        settings = EvalSettings(model="stub", base_url=server.url, api_key="x", no_cache=True, llm_max_retries=0)
        summary = template.evaluate(family, rows, settings, None, tmp_path, "a test", run={"model": "stub"})
    checks = [("check", f"t{i}") for i in range(5)]
    assert family.calls == [("refine", 5), *checks, ("annotate", 5), *checks]  # then the floors, by the same check

    right = {"rows": 4, "right": 3, "accuracy": 0.75, "accuracy_counts": [3, 4], "accuracy_ci95": [0.3006, 0.9544],
             "request_failures": 1}
    assert summary["overall"] == right
    assert summary["by_kind"]["even"]["right"] == 2 and summary["by_kind"]["odd"]["rows"] == 1
    assert summary["seen"] == 3  # what annotate found
    assert summary["plots"] == ["headline.png", "accuracy_by_kind.png"]
    assert summary["request_failures"] == 1
    assert summary["headline"] == "accuracy 75.0% (3/4) [30.1-95.4], 1 failed requests not scored"
    assert summary["table"] == [  # rounded once, with counts and interval, as the report shows them
        {"group": "overall", "accuracy": "75.0% (3/4) [30.1-95.4]", "failed requests": 1},
        {"group": "kind=even", "accuracy": "66.7% (2/3) [20.8-93.8]", "failed requests": 0},
        {"group": "kind=odd", "accuracy": "100.0% (1/1) [20.6-100.0]", "failed requests": 1}]
    assert summary["floors"]["baselines"]["empty"]["scores"] == {"accuracy": 0.0}

    responses = [json.loads(line) for line in (tmp_path / "responses.jsonl").read_text().splitlines()]
    assert [r["task_id"] for r in responses] == ["t0", "t1", "t2", "t3", "t4"]  # row order, carried fields kept
    assert responses[3]["request_failed"] and responses[3]["response"] is None and responses[3]["kind"] == "odd"
    assert len(pd.read_parquet(tmp_path / "scores.parquet")) == 5
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["title"] == "a test" and report["run"]["model"] == "stub" and report["run"]["tokens"]["requests"] == 5
    assert {k: v for k, v in report.items() if k not in ("title", "run")} == {
        k: v for k, v in summary.items() if k not in ("request_failures", "headline", "table")}
    markdown = (tmp_path / "report.md").read_text()
    assert markdown.startswith("# Echo: a test\n\n**Headline (stub):**\n\n- accuracy: **75.0% (3/4) [30.1-95.4]**\n")
    header = "| group | rows | correct | failed requests |\n|---|---|---|---|\n"
    assert (f"## Scores\n\n### Overall\n\n{header}| overall | 4 | 75.0% (3/4) [30.1-95.4] | 1 |\n\n### By kind\n\n"
            f"{header}| even | 3 | 66.7% (2/3) [20.8-93.8] | 0 |\n| odd | 1 | 100.0% (1/1) [20.6-100.0] | 1 |\n"
            "\nRight: the reply is the gold.\n") in markdown
    assert "\n## Run\n\n- model: stub\n- finished: " in markdown
