"""IFEval-FC end to end through the real Prefect engine: generate offline from the bank and with an
LLM writing more functions (byte for byte per seed: `test_ifeval_fc_family`), then evaluate through the tools API
against the local test server answering with tool calls."""

import json

from ifforge.flows.evaluate import evaluate
from ifforge.flows.generate import generate
from ifforge.families.ifeval_fc import rules
from ifforge.testing.openai_stub import Answer, StubServer
from floors_check import assert_floors_counted

OPTIONS = {"progress": False, "queries_per_function": 1, "seed": 3, "llm": "none"}


def right_value(row: dict) -> str | None:
    """A value that follows the row's rule, for the rules that have an easy one (else None)."""
    args = row["rule_args"]
    return {"json_format": '{"ok": true}', "python_list": "['a', 'b']", "title_format": "<<Plan>> for the day",
            "quotation": '"fine"' if args.get("quotes") == "double" else "'fine'",
            "cyrillic_greek": "Привет" if args.get("script") == "cyrillic" else "Καλημέρα"}.get(row["rule_id"])


def test_ifeval_fc_generates_offline_and_with_an_llm_and_scores_tool_calls(tmp_path, prefect_server, monkeypatch):
    out = tmp_path / "out"
    folder = generate(family="ifeval-fc", out=str(out), options=OPTIONS)
    rows = [json.loads(line) for line in open(f"{folder}/benchmark.jsonl")]
    assert len(rows) == 66 and {r["source"] for r in rows} == {"bank"}
    assert {r["rule_id"] for r in rows} == set(rules.DEFAULT_RULES)
    assert generate(family="ifeval-fc", out=str(out), options=OPTIONS) == folder  # nothing changed: same version

    written = {"name": "log_tide", "description": "Record a tide observation.",
               "parameters": {"type": "object", "properties": {"harbour": {"type": "string", "description": "Harbour."},
                                                               "notes": {"type": "string", "description": "What was seen."}},
                              "required": ["harbour", "notes"]},
               "carrier": "notes", "queries": ["At Dover the water rose fast after the storm."]}
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    with StubServer(lambda request: Answer(content=json.dumps(written))) as server:
        with_llm = generate(family="ifeval-fc", out=str(out), options={
            **OPTIONS, "llm": "openai", "model": "writer", "base_url": server.url, "llm_functions": 1})
    assert with_llm != folder
    llm_rows = [json.loads(line) for line in open(f"{with_llm}/benchmark.jsonl")]
    [mine] = [r for r in llm_rows if r["source"] == "llm"]
    assert mine["function_name"] == "log_tide" and mine["parameter"] == "notes" and len(llm_rows) == 67
    manifest = json.loads(open(f"{with_llm}/manifest.json").read())
    assert manifest["stages"]["write"]["in"] == 67 and manifest["llm"]["write"]["calls"] == 1
    assert_floors_counted(with_llm)

    by_query = {r["messages"][-1]["content"]: r for r in rows}

    def model(request):
        """Right where an easy right value exists; otherwise a wrong value, no call, a missing
        parameter or arguments that are not JSON, in turn."""
        row = by_query[request["messages"][-1]["content"]]
        assert request["tools"] == row["tools"] and request["tool_choice"] == "auto"
        value = right_value(row)
        if value is not None:
            return Answer(tool_calls=[{"name": row["function_name"], "arguments": json.dumps({row["parameter"]: value})}])
        kind = sorted(by_query).index(row["messages"][-1]["content"]) % 4
        if kind == 0:
            return Answer(content="Could you tell me more?")
        arguments = {1: json.dumps({row["parameter"]: "zz"}), 2: json.dumps({"other": "x"}), 3: "{not json"}[kind]
        return Answer(tool_calls=[{"name": row["function_name"], "arguments": arguments}])

    with StubServer(model) as server:
        report = evaluate(benchmark=folder, model="stub-model", base_url=server.url, options={"llm_max_retries": 0})
    summary = json.loads(open(f"{report}/report.json").read())
    queries = sorted(by_query)
    right = sum(right_value(r) is not None or (queries.index(r["messages"][-1]["content"]) % 4 == 1  # "zz" may pass
                                               and rules.get(r["rule_id"], **r["rule_args"]).check("zz")) for r in rows)
    overall = summary["overall"]
    assert overall["cases"] == 66 and overall["format_right"] == right
    assert summary["by_rule_id"]["json_format"]["format_right_rate"] == 1.0
    assert overall["called"] + overall["reasons"]["no_call"] == 66
    assert set(overall["reasons"]) >= {"no_call", "arguments_not_json", "parameter_missing", "ok"}
    assert set(summary["by_relation"]) >= {"none", "exactly", "at most", "at least"}
