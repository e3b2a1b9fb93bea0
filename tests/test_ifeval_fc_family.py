"""IFEval-FC without Prefect: the bank, seeded cases, bad input, the verdict on tool calls, asking a
model through the tools API (the local test server) and an LLM writing functions."""

import asyncio
import functools
import json

import pytest

from ifforge.core.llm.client import LLM, LLMConfig
from ifforge.core.llm.usage import Ledger
from ifforge.core.settings import SettingsError
from ifforge.core.untrusted import InputError
from ifforge.eval import template
from ifforge.eval.evaluation import EvalSettings, check_rows
from ifforge.families import get_family, load_family_settings
from ifforge.families.ifeval_fc import bank, functions, rules
from ifforge.families.ifeval_fc.family import assign, row_of
from ifforge.families.ifeval_fc.scoring import judge
from ifforge.families.ifeval_fc.settings import IfevalFcSettings
from ifforge.testing.openai_stub import Answer, StubServer

FAMILY = get_family("ifeval-fc")
FIELDS = {"family", "task_id", "tools", "messages", "function_name", "parameter", "rule_id", "rule_args"}


@functools.lru_cache
def checked_bank(queries: int) -> tuple:
    config = functions.CheckConfig(queries=queries, rules=list(rules.REGISTRY))
    return tuple(functions.check(f, config).kept for f in FAMILY.load(IfevalFcSettings(family="ifeval-fc", llm="none")).items)


def rows_for(**options) -> list[dict]:
    """The rows `export` writes (one JSON line each, so equal rows are equal files, byte for byte)."""
    settings = IfevalFcSettings(family="ifeval-fc", llm="none", **options)
    cases, dropped, _ = assign(list(checked_bank(settings.queries_per_function)), settings)
    assert not dropped
    return [row_of(case, settings) for case in cases]


def test_the_bank_has_60_valid_functions_over_20_domains_with_5_queries():
    loaded = functions.from_bank()
    assert len(loaded) >= 60 and len({f.domain for f in loaded}) >= 20
    config = functions.CheckConfig(queries=5, rules=list(rules.DEFAULT_RULES))
    assert all(functions.check(f, config).kept is not None for f in loaded)
    assert len({f.tool["function"]["name"] for f in loaded}) == len(loaded)


def test_same_seed_same_rows_new_seed_new_rows_and_every_rule_used():
    rows = rows_for(seed=4, distractors=2)
    assert rows == rows_for(seed=4, distractors=2)
    assert rows != rows_for(seed=5, distractors=2)
    assert len(rows) == 5 * len(functions.from_bank())
    assert {r["rule_id"] for r in rows} == set(rules.DEFAULT_RULES)
    counts = [sum(r["rule_id"] == rule_id for r in rows) for rule_id in rules.DEFAULT_RULES]
    assert max(counts) - min(counts) <= 10  # dealt evenly, up to a function's skip
    for row in rows:
        assert FIELDS <= set(row) and row["family"] == "ifeval-fc"
        names = [t["function"]["name"] for t in row["tools"]]
        assert len(names) == 3 and len(set(names)) == 3 and row["function_name"] in names
        target = next(t for t in row["tools"] if t["function"]["name"] == row["function_name"])
        spec = target["function"]["parameters"]["properties"][row["parameter"]]
        assert spec["type"] == "string" and "enum" not in spec and "format" not in spec
        assert spec["description"].endswith(row["rule_text"])
        others = [t for t in row["tools"] if t is not target]
        assert all(row["rule_text"] not in json.dumps(t) for t in others)
        query = row["messages"][-1]["content"]
        assert row["messages"][0]["role"] == "system" and not rules.REGISTRY[row["rule_id"]].named_in(query)
        assert row["rule_text"] not in query
        assert rules.get(row["rule_id"], **row["rule_args"]).describe() == row["rule_text"]


def test_settings_pick_rules_relations_and_refuse_unknown_ones():
    rows = rows_for(rules=["all_upper", "word_count"], relations=["at most"], queries_per_function=1)
    assert {r["rule_id"] for r in rows} == {"all_upper", "word_count"}
    assert {r["relation"] for r in rows} == {None, "at most"}
    with pytest.raises(SettingsError, match="setting 'rules'.*unknown rule 'haiku'"):
        load_family_settings({"family": "ifeval-fc", "rules": ["haiku"]})
    with pytest.raises(SettingsError, match="queries_per_function"):
        load_family_settings({"family": "ifeval-fc", "queries_per_function": 9})


def test_a_functions_file_line_that_does_not_fit_is_named(tmp_path):
    good = {"domain": "space", "tool": bank.tool("log_sighting", "Log a sky sighting.",
                                                 {"notes": "text: What was seen."}),
            "carriers": ["notes"], "queries": ["I saw a green light over the hills at midnight."]}
    path = tmp_path / "more.jsonl"
    path.write_text(json.dumps(good) + "\n\n")
    [loaded] = functions.from_file(path)
    assert loaded.task_id == "file.log_sighting" and loaded.origin == "more.jsonl:1"
    enum_carrier = json.loads(json.dumps(good))
    enum_carrier["tool"]["function"]["parameters"]["properties"]["notes"]["enum"] = ["a"]
    for line, message in ((json.dumps(good)[:-1], "more.jsonl:2: is not JSON"),
                          (json.dumps({**good, "queries": "one"}), "more.jsonl:2: field 'queries' must be a list"),
                          (json.dumps(enum_carrier), "more.jsonl:2: carrier 'notes' must be a free-form string")):
        path.write_text(json.dumps(good) + "\n" + line + "\n")
        with pytest.raises(InputError, match=message):
            FAMILY.check_inputs(IfevalFcSettings(family="ifeval-fc", functions=path))
    bad_schema = json.loads(json.dumps(good))
    bad_schema["tool"]["function"]["parameters"]["properties"]["notes"]["type"] = "text"
    assert "not a valid JSON schema" in functions.tool_problem(bad_schema["tool"], ["notes"], ["q"], 1)


ROW = {"function_name": "send_note", "parameter": "body", "rule_id": "word_count",
       "rule_args": {"relation": "exactly", "n": 2}}


def call(name: str, arguments: str) -> dict:
    return {"text": "", "tool_calls": [{"id": "c", "type": "function", "function": {"name": name, "arguments": arguments}}]}


OK, WRONG, NO_CALL = (True, True, True, "ok"), (True, True, False, "format_wrong"), (False, False, False, "no_call")


@pytest.mark.parametrize("reply, ours, papers", [  # (called, provided, correct, reason) by our rules, by the paper's
    (call("send_note", '{"body": "hello there"}'), OK, OK),
    (call("send_note", '{"body": "hello"}'), WRONG, WRONG),
    (call("send_note", '{"body": "hello\nthere"}'), OK, OK),  # a raw newline inside the string: read, as clients do
    ({"text": "Sure, what should it say?", "tool_calls": []}, NO_CALL, NO_CALL),
    ("I would call send_note", NO_CALL, NO_CALL),
    (call("other_tool", '{"body": "hello there"}'), (False, False, False, "wrong_function"), OK),  # the paper: any name
    (call("send_note", '{"to": "hello there"}'), (True, False, False, "parameter_missing"),
     (True, False, False, "parameter_missing")),
    (call("send_note", ""), (True, False, False, "parameter_missing"), (True, False, False, "parameter_missing")),
    (call("send_note", "[]"), (True, False, False, "arguments_not_json"), (True, False, False, "parameter_missing")),
    (call("send_note", '{"body": "hello there"'), (True, False, False, "arguments_not_json"), NO_CALL),
    (call("send_note", '"hello there"'), (True, False, False, "arguments_not_json"),
     (False, False, False, "reply_unreadable")),
    (call("send_note", '{"body": ["hello", "there"]}'), (True, True, False, "not_a_string"),
     (True, True, False, "not_a_string")),  # provided, though not as a string (as the paper counts it)
    (call("send_note", json.dumps({"body": "hello there " + "[" * 150})), OK, OK),  # brackets in a string nest nothing
    (call("send_note", '{"body": "hello there", "x": ' + "[" * 101 + "]" * 101 + "}"),
     (True, False, False, "arguments_not_json"), OK),  # over 100 levels: past the bounded reader's depth
])
def test_the_verdict_reads_the_tool_call_by_our_rules_and_the_papers(reply, ours, papers):
    for mode, expected in (("ifforge", ours), ("paper", papers)):
        verdict = judge(ROW, [reply], mode)
        assert (verdict["called"], verdict["provided"], verdict["correct"], verdict["reason"]) == expected, mode
    assert judge({**ROW, "rules": "paper"}, [reply])["reason"] == papers[3]  # an exported row carries its mode


def test_every_call_to_the_function_must_pass_and_the_text_protocol_reads_json():
    two = {"text": "", "tool_calls": call("send_note", '{"body": "hi there"}')["tool_calls"]
           + call("send_note", '{"body": "hi"}')["tool_calls"]}
    assert judge(ROW, [two])["reason"] == "format_wrong"
    text = {**ROW, "protocol": "text"}
    assert judge(text, ['Calling: {"name": "send_note", "arguments": {"body": "hi there"}}'])["correct"]
    assert judge(text, ['{"name": "send_note", "arguments": {"body": "hi"}}'])["reason"] == "format_wrong"
    assert judge(text, ["no call here"])["reason"] == "no_call"


def test_evaluate_asks_through_the_tools_api_and_reports_three_rates(tmp_path):
    rows = [r for r in rows_for(queries_per_function=1, distractors=1) if r["rule_id"] == "json_format"][:4]
    assert len(rows) == 4
    by_query = {r["messages"][-1]["content"]: r for r in rows}
    kinds = iter(["right", "wrong", "none", "broken"])
    plan = {query: next(kinds) for query in by_query}

    def answer(request):
        row = by_query[request["messages"][-1]["content"]]
        assert request["tools"] == row["tools"] and request["tool_choice"] == "auto"
        assert request["messages"][0] == {"role": "system", "content": row["messages"][0]["content"]}
        kind = plan[row["messages"][-1]["content"]]
        value = {"right": '{"k": 1}', "wrong": "not json"}.get(kind)
        if kind == "none":
            return Answer(content="Which details do you want?")
        arguments = json.dumps({row["parameter"]: value}) if value else '{"' + row["parameter"] + '": "x'
        return Answer(content=None, tool_calls=[{"name": row["function_name"], "arguments": arguments}])

    with StubServer(answer) as server:
        settings = EvalSettings(model="stub", base_url=server.url, api_key="x", no_cache=True, llm_max_retries=0)
        summary = template.evaluate(FAMILY, rows, settings, tmp_path / "cache.sqlite", tmp_path / "run", "t")
    overall = summary["overall"]
    assert (overall["cases"], overall["called"], overall["provided"], overall["format_right"]) == (4, 3, 2, 1)
    assert overall["format_right_ci95"][0] < 0.25 < overall["format_right_ci95"][1]
    assert overall["reasons"] == {"no_call": 1, "arguments_not_json": 1, "format_wrong": 1, "ok": 1}
    assert summary["by_rule_id"]["json_format"]["cases"] == 4
    responses = [json.loads(line) for line in (tmp_path / "run" / "responses.jsonl").read_text().splitlines()]
    assert sum(bool(r["tool_calls"]) for r in responses) == 3
    assert "format right" in (tmp_path / "run" / "report.md").read_text()


def test_an_llm_writes_a_function_checked_and_asked_again(tmp_path):
    template = {"name": "log_tide", "description": "Record a tide observation.",
                "parameters": {"type": "object", "properties": {
                    "harbour": {"type": "string", "description": "Harbour."},
                    "notes": {"type": "string", "description": "What was seen."}}, "required": ["harbour", "notes"]},
                "carrier": "notes", "queries": [f"At harbour {k} the water rose fast after the storm." for k in range(5)]}
    first = {**template, "carrier": "missing"}
    second = {**template, "queries": ["Write it as JSON please"] + template["queries"][1:]}
    with StubServer() as server:
        server.script(*(Answer(content=json.dumps(reply)) for reply in (first, second, template)))
        ledger = Ledger()
        llm = LLM(LLMConfig(model="stub", base_url=server.url, api_key="x", max_retries=0, json_mode="none"),
                  ledger=ledger)
        config = functions.WriteConfig(queries=5, rules=list(rules.DEFAULT_RULES), reasks=2)
        [request] = functions.requests(1, ["maritime"])

        async def run():
            try:
                return await functions.write(request, llm, config)
            finally:
                await llm.close()

        outcome = asyncio.run(run())
    written = outcome.kept
    assert written is not None and written.carriers == ["notes"] and written.model == "stub"
    assert written.tool["function"]["name"] == "log_tide" and len(written.queries) == 5
    asked = [r["messages"][-1]["content"] for r in server.requests]
    assert "carrier 'missing' is not a parameter" in asked[1] and "json_format" in asked[2]
    assert ledger.snapshot()["write"].reasks == 2  # each re-ask after a refused function is counted


def test_a_row_that_cannot_be_scored_is_refused_before_asking(tmp_path):
    from ifforge.eval.evaluation import BenchmarkError

    row = rows_for(queries_per_function=1)[0]
    settings = EvalSettings(model="stub", base_url="http://127.0.0.1:9/v1", api_key="x", no_cache=True)
    for broken, message in (({**row, "rule_id": "word_count", "rule_args": {"relation": "about", "n": 2}},
                             "row 2 .*field 'rule_args'"),
                            ({**row, "function_name": "nope"}, "row 2 .*'nope' is not among the tools"),
                            ({k: v for k, v in row.items() if k != "parameter"}, "row 2 .*missing field 'parameter'")):
        with pytest.raises(BenchmarkError, match=message):
            template.evaluate(FAMILY, [row, broken], settings, tmp_path / "c.sqlite", tmp_path / "run", "t")



def test_the_papers_own_data_files_become_rows_our_evaluate_accepts(tmp_path):
    """Files in the IFEval-FC repository's data/ format (written here, not copied): the checker's name
    and arguments map to our rule, each query is a row with the repository's own system message
    (read from its evaluate.py); a bad file is named with its field."""
    from ifforge.core.untrusted import InputError
    from ifforge.families.ifeval_fc import paper
    from ifforge.families.ifeval_fc.settings import SYSTEM_MESSAGE

    data = tmp_path / "repo" / "data"
    data.mkdir(parents=True)
    schema = {"name": "plan_walk", "description": "Plan a walk.", "parameters": {"type": "object", "properties": {
        "route_notes": {"type": "string", "description": "Notes on the route. It must have at most 4 commas."},
        "miles": {"type": "integer", "description": "Length."}}, "required": ["route_notes"]}}
    (data / "plan_walk__fmt_NCommasChecker.json").write_text(json.dumps({
        "chosen_param": "route_notes", "fn_schema": schema, "user_queries": ["A short loop by the river.", "Hills."],
        "format": {"name": "NCommasChecker", "args": {"N": 4, "comparison_option": "at most"}}}))
    (data / "plan_walk__fmt_QuotationChecker.json").write_text(json.dumps({
        "chosen_param": "route_notes", "fn_schema": schema, "user_queries": ["Through the park."],
        "format": {"name": "QuotationChecker", "args": {"quotation_type": "single"}}}))
    with pytest.raises(InputError, match="no evaluate.py here or one folder up"):
        paper.convert(data)
    (tmp_path / "repo" / "evaluate.py").write_text('import os\nSYSTEM_MESSAGE = """\nCall a tool, always.\n""".strip()\n')
    rows = paper.convert(data)
    check_rows(FAMILY, rows)
    assert [(r["rule_id"], r["rule_args"]) for r in rows] == [
        ("comma_count", {"relation": "at most", "n": 4}), ("comma_count", {"relation": "at most", "n": 4}),
        ("quotation", {"quotes": "single"})]
    assert rows[0]["tools"][0]["function"] == schema and rows[1]["messages"][-1]["content"] == "Hills."
    assert rows[0]["messages"][0] == {"role": "system", "content": "Call a tool, always."}
    assert paper.convert(tmp_path / "repo") == rows  # the repository itself: its data/ folder
    assert paper.convert(data, "ifforge")[0]["messages"][0]["content"] == SYSTEM_MESSAGE
    (data / "bad.json").write_text(json.dumps({"chosen_param": "route_notes", "fn_schema": schema,
                                               "user_queries": [], "format": {"name": "RhymeChecker"}}))
    with pytest.raises(InputError, match=r"bad\.json: field 'format\.name': unknown checker 'RhymeChecker'"):
        paper.convert(data)


def test_export_writes_the_papers_file_layout_that_reads_back_as_the_same_cases(tmp_path, capsys):
    """`export --format ifeval-fc`: one file per function and rule, in the paper's fields and argument
    names; read back as the paper's data, they are the same cases. Distractors cannot go there."""
    from ifforge import cli
    from ifforge.families.ifeval_fc import paper

    rows = rows_for(queries_per_function=2, rules_per_function=2)
    source = tmp_path / "fc.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = tmp_path / "paper_layout"
    (out / "stale.json").parent.mkdir()
    (out / "stale.json").write_text("{}")  # the paper's evaluate.py reads every .json in the folder: refused, kept
    assert cli.main(["export", str(source), "--format", "ifeval-fc", "--out", str(out)]) == 2
    assert "holds stale.json" in capsys.readouterr().err and (out / "stale.json").exists()
    (out / "stale.json").unlink()
    assert cli.main(["export", str(source), "--format", "ifeval-fc", "--out", str(out)]) == 0
    assert f"exported to {out} as {len(rows) // 2} files" in capsys.readouterr().out
    files = sorted(out.glob("*.json"))
    assert len(files) == len(rows) // 2
    first = json.loads(files[0].read_text())
    assert set(first) == {"chosen_param", "format", "fn_schema", "user_queries"} and len(first["user_queries"]) == 2
    checker = first["format"]["name"]
    assert files[0].name == f"{first['fn_schema']['name']}__param_{first['chosen_param']}__fmt_{checker}.json"
    assert set(first["format"]["args"]) == set(paper.CHECKERS[checker][1])  # the paper's argument names

    def case(row):
        return (row["function_name"], row["parameter"], row["rule_id"], json.dumps(row["rule_args"], sort_keys=True),
                row["messages"][-1]["content"], json.dumps(row["tools"], sort_keys=True), row["query_index"])

    assert sorted(map(case, paper.convert(out, "ifforge"))) == sorted(map(case, rows))
    crowded = tmp_path / "crowded.jsonl"
    crowded.write_text("".join(json.dumps(row) + "\n" for row in rows_for(queries_per_function=1, distractors=2)))
    assert cli.main(["export", str(crowded), "--format", "ifeval-fc", "--out", str(tmp_path / "x")]) == 2
    assert "offers 3 tools" in capsys.readouterr().err


def test_rules_paper_is_refused_where_a_family_has_no_paper_scorer_and_recorded_where_it_has(tmp_path):
    from ifforge.eval.evaluation import BenchmarkError, check_options

    rows = rows_for(queries_per_function=1)
    settings = EvalSettings(model="stub", base_url="http://127.0.0.1:9/v1", api_key="x", options={"rules": "paper"})
    assert check_options(rows, settings, tmp_path / "fc.jsonl").options.rules == "paper"
    with pytest.raises(BenchmarkError, match="pacific has no `--rules paper`"):
        check_options([{"family": "pacific", "task_id": "t"}], settings, tmp_path / "p.jsonl")
    results = [{"task_id": rows[0]["task_id"], "response": "", "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "not_the_function", "arguments": "{}"}}]}]
    summary = template.score(FAMILY, results, rows[:1], settings, tmp_path / "scored", "t")
    assert summary["overall"]["called"] == 1  # the paper counts a call whatever function it names
    assert json.loads((tmp_path / "scored" / "report.json").read_text())["rules"] == "paper"
    assert "Rules: the paper's" in (tmp_path / "scored" / "report.md").read_text()


def test_paper_nltk_is_one_evaluate_setting_checked_by_name_and_stated_in_the_report(tmp_path, capsys):
    """`paper_nltk` picks the nltk whose word count `--rules paper` reproduces: 3.9 (the paper's
    published results) by default, 3.10 (nltk 3.10.3 and later); the report names the one used."""
    from ifforge import cli
    from ifforge.eval.evaluation import load_eval_settings
    from ifforge.families.ifeval_fc.scoring import row_problem

    from ifforge.families.options import OptionError

    for given, message in (({"paper_nltk": 3.1, "rules": "paper"}, "ifeval-fc: option paper_nltk: .*as text"),
                           ({"paper_nltk": "3.8", "rules": "paper"}, "ifeval-fc has no `--paper-nltk 3.8`"),
                           ({"paper_nltk": "3.10"}, "ifeval-fc: option paper_nltk: .*rules paper only")):
        with pytest.raises(OptionError, match=message):
            load_eval_settings({"model": "m", **given}).for_family(FAMILY)
    from typing import get_args

    from ifforge.families.ifeval_fc import paper_rules

    assert set(get_args(FAMILY.options.model_fields["paper_nltk"].annotation)) == set(paper_rules.NLTK)
    paper = load_eval_settings({"model": "m", "rules": "paper"}).for_family(FAMILY)
    assert paper.fingerprint_fields()["paper_nltk"] == "3.9"
    assert "paper_nltk" not in EvalSettings(model="m").for_family(FAMILY).fingerprint_fields()  # paper scores only
    replies, benchmark = tmp_path / "replies.jsonl", tmp_path / "rows.jsonl"
    written = rows_for(queries_per_function=1)
    benchmark.write_text("".join(json.dumps(row) + "\n" for row in written))
    replies.write_text(json.dumps({"family": "ifeval-fc", "task_id": written[0]["task_id"], "response": ""}) + "\n")
    for command in (["score", str(replies), "--benchmark", str(benchmark)], ["export", str(benchmark), "--format", "hf", "--out", str(tmp_path / "h")]):
        assert cli.main([*command, "--paper-nltk", "3.10"]) == 2
        assert "--paper-nltk 3.10 applies to --rules paper only" in capsys.readouterr().err

    row = {**rows_for(queries_per_function=1)[0], "rule_id": "word_count", "rule_args": {"relation": "exactly", "n": 3}}
    reply = call(row["function_name"], json.dumps({row["parameter"]: "❤️ ❤️ ❤️"}))  # 0 words to nltk 3.9.1, 3 to 3.10.4
    results = [{"task_id": row["task_id"], "response": "", "tool_calls": reply["tool_calls"]}]
    for nltk, reason, stated in (("3.9", "format_wrong", "nltk 3.9.1"), ("3.10", "ok", "nltk 3.10.3 or later")):
        settings = EvalSettings(model="stub", base_url="http://127.0.0.1:9/v1", api_key="x",
                                options={"rules": "paper", "paper_nltk": nltk})
        summary = template.score(FAMILY, results, [row], settings, tmp_path / nltk, "t")
        assert summary["overall"]["reasons"] == {reason: 1}
        assert json.loads((tmp_path / nltk / "report.json").read_text())["paper_nltk"] == nltk
        assert f"words counted as {stated}" in (tmp_path / nltk / "report.md").read_text()
        assert judge({**row, "rules": "paper", "paper_nltk": nltk}, [reply])["reason"] == reason  # an exported row
    assert judge(row, [reply], "paper")["reason"] == "format_wrong"  # default: 3.9
    assert row_problem({**row, "paper_nltk": "3.11"}) == "field 'paper_nltk' must be one of '3.9', '3.10', got '3.11'"


def test_no_query_already_follows_its_rows_rule_and_the_redraws_are_counted():
    """A model that copies the query into the parameter must not pass (issue 25): arguments are
    redrawn until no query of the function follows them, and a rule no draw gets past is skipped."""
    bank_functions = list(checked_bank(5))
    cases, _, stats = assign(bank_functions, IfevalFcSettings(family="ifeval-fc", llm="none"))
    assert len(cases) == 330
    assert not [c.task_id for c in cases if rules.get(c.rule_id, **c.rule_args).check(c.function.queries[c.query_index])]
    assert stats["query_already_follows"]["redrawn"] > 0 and stats["query_already_follows"]["rules_skipped"] == 0
    at_most = IfevalFcSettings(family="ifeval-fc", llm="none", rules=["placeholder_count", "json_format"],
                               relations=["at most"])  # no query holds a placeholder: "at most N" is always followed
    cases, _, stats = assign(bank_functions, at_most)
    assert {c.rule_id for c in cases} == {"json_format"} and stats["query_already_follows"]["rules_skipped"] > 0


def test_the_bounded_json_reader_counts_no_brackets_inside_strings_of_a_json_text():
    from ifforge.core import jsontext

    assert jsontext.loads('{"body": "' + "[" * 150 + '\\" {{{"}')["body"] == "[" * 150 + '" {{{'
    for deep in ("[" * 101 + "]" * 101, '{"a": "\\\\", "b": ' + "[" * 101 + "]" * 101 + "}"):
        with pytest.raises(jsontext.Unreadable, match="deeper than 100"):
            jsontext.loads(deep)
    assert jsontext.refusal('He wrote "' + "[" * 150)  # in prose a quote opens no string: still refused
