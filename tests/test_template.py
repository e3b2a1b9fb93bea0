"""The one evaluate template, with the smallest family a scorer can be: its steps in order, the
files it writes, and what it hands the flow, asked through the stub server."""

import json

import pandas as pd

from ifforge.eval.evaluation import EvalSettings
from ifforge.eval.template import Scorer
from ifforge.testing.openai_stub import Answer, StubServer


class Echo(Scorer):
    """Right when the reply is the row's gold; grouped by `kind`; records the order of its hooks."""

    name = "Echo"
    carried = ("task_id", "gold", "kind")
    failed = {"response": None}
    groups = ("kind",)
    empty = {"answered": 0}
    columns = ("group", "answered", "right")
    headline_shares = (("right", "share"),)

    def __init__(self):
        self.calls = []

    def refine(self, results, rows, settings, cache_path):
        self.calls.append(("refine", len(results)))

    def frame(self, results, rows, settings):
        self.calls.append(("frame", len(results)))
        return pd.DataFrame([{"task_id": r["task_id"], "kind": r["kind"], "request_failed": r["request_failed"],
                              "right": not r["request_failed"] and r["response"] == r["gold"]} for r in results])

    def annotate(self, results, frame, rows, settings, cache_path, folder):
        self.calls.append(("annotate", len(frame)))
        return {"seen": int(frame["right"].sum())}

    def scores(self, part):
        answered = part[~part["request_failed"]]
        right = int(answered["right"].sum())
        return {"answered": len(answered), "right": right, "share": right / len(answered) if len(answered) else None}

    def line(self, label, row):
        return f"| {label} | {row['answered']} | {row['right']} |"

    def notes(self, summary):
        return ["Right: the reply is the gold."]


def test_the_template_asks_scores_and_reports_through_the_hooks(tmp_path):
    rows = [{"task_id": f"t{i}", "prompt": f"say {i}", "gold": str(i), "kind": "odd" if i % 2 else "even"}
            for i in range(5)]

    def answer(request):
        number = request["messages"][-1]["content"].split()[-1]
        if number == "3":
            return Answer(status=400, error="refused")
        return Answer(content=number if number != "4" else "four")

    scorer = Echo()
    with StubServer(answer) as server:
        settings = EvalSettings(model="stub", base_url=server.url, api_key="x", no_cache=True, llm_max_retries=0)
        summary = scorer.evaluate(rows, settings, None, tmp_path, "a test", run={"model": "stub"})
    assert scorer.calls == [("refine", 5), ("frame", 5), ("annotate", 5)]

    assert summary["overall"] == {"answered": 4, "right": 3, "share": 0.75}
    assert summary["by_kind"] == {"even": {"answered": 3, "right": 2, "share": 2 / 3},
                                  "odd": {"answered": 1, "right": 1, "share": 1.0}}
    assert summary["seen"] == 3 and "plots" not in summary  # what annotate found; no plots drawn
    assert summary["request_failures"] == 1 and summary["headline"] == "right 75.0%"
    assert summary["table"] == [{"group": "kind=even", "answered": 3, "right": 2, "share": 2 / 3},
                                {"group": "kind=odd", "answered": 1, "right": 1, "share": 1.0}]

    responses = [json.loads(line) for line in (tmp_path / "responses.jsonl").read_text().splitlines()]
    assert [r["task_id"] for r in responses] == ["t0", "t1", "t2", "t3", "t4"]  # row order, carried fields kept
    assert responses[3]["request_failed"] and responses[3]["response"] is None and responses[3]["kind"] == "odd"
    assert len(pd.read_parquet(tmp_path / "scores.parquet")) == 5
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["title"] == "a test" and report["run"]["model"] == "stub" and report["run"]["tokens"]["requests"] == 5
    assert {k: v for k, v in report.items() if k not in ("title", "run")} == {
        k: v for k, v in summary.items() if k not in ("request_failures", "headline", "table")}
    markdown = (tmp_path / "report.md").read_text()
    assert markdown.startswith("# Echo: a test\n\n## Run\n\n- model: stub\n- finished: ")
    assert markdown.endswith("| group | answered | right |\n|---|---|---|\n| overall | 4 | 3 |\n| kind = even | 3 | 2 |\n"
                             "| kind = odd | 1 | 1 |\n\nRight: the reply is the gold.\n")
