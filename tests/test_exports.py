"""Exports run for real where users run evaluations: `inspect eval` and `lm_eval` as commands against
the local test server, and `datasets` loading the folder; their scores must equal ifforge's own
evaluation (the family's `evaluate`, as `ifforge evaluate` runs it) on the same replies.

LogicIF rows are LogicIFEval's own (the shared fixture), answered with gpt-5's recorded replies,
some spoiled; PACIFIC rows are built and their gold run in the sandbox, answered right or wrong by
step, in prompt and chat mode; IFEval-FC rows are answered with tool calls (right, wrong format, no
call, missing parameter, arguments that are not JSON, a bare string), and in lm-eval's text
protocol with the same calls written as JSON; MCBench rows right, a little off, or out of format.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ifforge.eval import template
from ifforge.eval.evaluation import EvalSettings
from ifforge.exports import export
from ifforge.card import check_card
from ifforge.exports.benchmark import read_benchmark, row_ids, unflatten
from ifforge.families import get_family
from ifforge.families.ifeval_fc import functions as fc_functions
from ifforge.families.ifeval_fc.family import assign as fc_assign
from ifforge.families.ifeval_fc.family import row_of as fc_row_of
from ifforge.families.ifeval_fc.settings import IfevalFcSettings
from ifforge.families.lifbench import scenarios
from ifforge.families.lifbench.family import render_rows
from ifforge.families.lifbench.settings import LifbenchSettings
from ifforge.families.mcbench.family import GoldConfig as McbenchGold, compute_gold as mcbench_gold, rows_of as mcbench_rows_of
from ifforge.families.mcbench.pairs import CATEGORIES, make_pairs
from ifforge.families.mcbench.records import MetricTask
from ifforge.families.mcbench.settings import McbenchSettings
from ifforge.families.pacific import chains, instructions
from ifforge.families.pacific.family import GoldConfig, compute_gold, rows_of
from ifforge.families.pacific.settings import PacificSettings
from ifforge.testing.openai_stub import Answer, StubServer

from conftest import needs_fixture
from test_ifeval_fc_flow import right_value

BIN = Path(sys.executable).parent


def logicif_rows(tasks: int = 6) -> tuple[list[dict], dict[str, str]]:
    """LogicIFEval rows of the first tasks, with an instruction each, and the reply to give each."""
    described = {}
    for line in needs_fixture("tasks.jsonl").read_text().splitlines():
        task = json.loads(line)
        described[task["task_id"]] = task
    rows, replies = [], {}
    for line in needs_fixture("cases.jsonl").read_text().splitlines():
        case = json.loads(line)
        task = described[case["task_id"]]
        if case["task_id"] not in list(described)[:tasks]:
            continue
        instruction = (f"{task['description']}\n\nInput: {json.dumps(case['input'])}\n"
                       f"(case {case['task_id']} #{case['test_case_id']})")
        row = {"family": "logicif", **{k: case[k] for k in ("task_id", "test_case_id", "input", "code_output",
                                                            "stats_keys", "output_format")},
               "function": task["function"], "description": task["description"], "instruction": instruction,
               "complexity_metrics": task["complexity_metrics"]}
        reply = case["response"]
        spoiled = list(described).index(case["task_id"]) % 2 == 1  # every other task gets wrong replies
        if spoiled and case["test_case_id"] % 3 == 0:
            reply = "I could not work this one out."  # no answer at all
        elif spoiled and case["test_case_id"] % 3 == 1:
            reply = '{"output": "surely wrong", "stats": {}}'
        rows.append(row)
        replies[instruction] = reply
    return rows, replies


def pacific_rows() -> list[dict]:
    settings = PacificSettings(family="pacific", modes=["prompt", "chat"], forms=["code", "nl"])
    rows = []
    for chain in chains.build_all(11, [3, 4], [5], 2, sorted(instructions.REGISTRY)):
        rows.extend(rows_of(compute_gold(chain, GoldConfig(case_seconds=5, memory_mb=512)).kept, settings))
    return rows


def pacific_reply(rows: list[dict], messages: list[dict]) -> str:
    """Answer a PACIFIC prompt or chat turn: right, except step 2 of every third row."""
    first = messages[0]["content"] if messages[0]["role"] == "user" else messages[1]["content"]
    index, row = next((i, r) for i, r in enumerate(rows)
                      if (r.get("prompt") or r.get("messages", [{}])[0].get("content")) == first)
    steps = range(1, len(row["gold"]) + 1)
    if row["mode"] == "chat":
        steps = [sum(1 for m in messages if m["role"] == "user")]

    def value(step: int):
        gold = row["gold"][step - 1]
        return "wrong" if index % 3 == 0 and step == 2 else json.dumps(gold) if isinstance(gold, str) else gold

    return " ".join(f"[ANSWER][{step}] {value(step)} [\\ANSWER]" for step in steps)


FC_RULES = ("json_format", "python_list", "title_format", "quotation", "cyrillic_greek")


def ifeval_fc_rows() -> list[dict]:
    """Three cases of each of five rules with an easy right value, one distractor tool each."""
    settings = IfevalFcSettings(family="ifeval-fc", llm="none", queries_per_function=1, distractors=1, seed=2)
    config = fc_functions.CheckConfig(queries=1, rules=list(FC_RULES))
    cases, _, _ = fc_assign([fc_functions.check(f, config).kept for f in fc_functions.from_bank()], settings)
    rows = [fc_row_of(case, settings) for case in cases]
    return [row for rule_id in FC_RULES for row in [r for r in rows if r["rule_id"] == rule_id][:3]]


# inspect-ai keeps a text over 100 characters out of its log's events, as `attachment://<hash>`
LONG = "a note the model adds, long enough that inspect-ai logs it as an attachment, not inline. " * 2


def ifeval_fc_call(rows: list[dict], query: str) -> tuple[str | None, object]:
    """The call made for a row, by its place: right, wrong value (both with argument text over 100
    characters), no call, missing parameter, arguments that are not JSON, a bare string.
    (function name or None, arguments)."""
    index, row = next((i, r) for i, r in enumerate(rows) if r["messages"][-1]["content"] in query)
    kind = index % 6
    name, parameter = row["function_name"], row["parameter"]
    return {0: (name, {parameter: right_value(row), "note": LONG}), 1: (name, {parameter: "zz", "note": LONG}),
            2: (None, None), 3: (name, {"other": "x"}), 4: (name, "{not json"), 5: (name, '"zz"')}[kind]


def ifeval_fc_answer(rows: list[dict], request: dict) -> Answer:
    """Through the tools API: a tool call; as lm-eval's text protocol: the call as JSON in the text."""
    if request.get("tools"):
        name, arguments = ifeval_fc_call(rows, request["messages"][-1]["content"])
        if name is None:
            return Answer(content="Could you tell me more first?")
        raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
        return Answer(tool_calls=[{"name": name, "arguments": raw}])
    name, arguments = ifeval_fc_call(rows, request["messages"][-1]["content"])
    if name is None:
        return Answer(content="Could you tell me more first?")
    if arguments == "{not json":
        return Answer(content='{"name": "' + name + '", "arguments": {not json')
    value = "zz" if arguments == '"zz"' else arguments
    return Answer(content="Here is the call: " + json.dumps({"name": name, "arguments": value}))


def mcbench_rows() -> list[dict]:
    settings = McbenchSettings(family="mcbench")
    pairs = make_pairs(2, list(CATEGORIES), 1)
    rows = []
    for metric in ("hamming", "rouge_l"):
        gold = mcbench_gold(MetricTask(task_id=metric, pairs=pairs), McbenchGold(case_seconds=10, memory_mb=512)).kept
        rows.extend(mcbench_rows_of(gold, settings))
    return rows


def mcbench_reply(rows: list[dict], prompt: str) -> str | None:
    """Every third MCBench row right, the next with its last step and final 10% off, the next without the block."""
    index, row = next(((i, r) for i, r in enumerate(rows) if r["prompt"] == prompt), (None, None))
    if row is None:
        return None
    steps, final = list(row["gold_steps"]), row["gold_final"]
    if index % 3 == 2:
        return f"I think it is about {final}."
    if index % 3 == 1:
        steps[-1] = final = (final * 1.1) if final else 1
    lines = "\n".join(f"[Step{k}] : {json.dumps(v, ensure_ascii=False)}" for k, v in enumerate(steps, 1))
    return f"### Final Results ###\n{lines}\n[Final] : {final}"


def lifbench_rows() -> list[dict]:
    settings = LifbenchSettings(family="lifbench", lengths=[1024], expressions=0, variable_sets=1)
    return [row for scenario in scenarios.SCENARIOS for row in render_rows(scenarios.build(scenarios.ContextSpec(
        task_id=f"{scenario}-L1024-s0", scenario=scenario, length=1024, sample=0, seed=3)), settings, {})]


def lifbench_reply(rows: list[dict], prompt: str) -> str:
    """The gold answer on every other row (where it is a reply as it is), else no answer."""
    index, row = next((i, r) for i, r in enumerate(rows) if r["prompt"] == prompt)
    if index % 2 or isinstance(row["gold"], dict) and "side" in row["gold"]:
        return "I am not sure."
    return row["gold"] if isinstance(row["gold"], str) else json.dumps(row["gold"])


def write_rows(folder: Path, rows: list[dict]) -> Path:
    folder.mkdir(parents=True)
    path = folder / "benchmark.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return folder


def ifforge_scores(rows: list[dict], family: str, server: StubServer, folder: Path) -> dict[str, dict]:
    """ifforge's own evaluation of the rows (as `ifforge evaluate` runs it, less Prefect):
    per-case verdicts from its scores, and the family's headline numbers from its report."""
    settings = EvalSettings(model="stub", base_url=server.url, api_key="x", no_cache=True)
    summary = template.evaluate(get_family(family), rows, settings, folder / "cache.sqlite", folder / "run", "t")
    return summary


def run_all(commands: list[list[str]], env: dict[str, str], cwd: Path) -> None:
    """Run the commands side by side (each mostly waits on imports and the server) and check each ended well."""
    started = [subprocess.Popen(command, cwd=cwd, env={**os.environ, **env}, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True) for command in commands]
    for process in started:
        output, _ = process.communicate(timeout=600)
        assert process.returncode == 0, output[-5000:]


@pytest.fixture(scope="module")
def benchmarks(tmp_path_factory):
    base = tmp_path_factory.mktemp("exports")
    logic, replies = logicif_rows()
    pacific = pacific_rows()
    fc = ifeval_fc_rows()
    mcbench = mcbench_rows()
    lifbench = lifbench_rows()
    long_prompts = {row["prompt"] for row in lifbench}

    def answer(request: dict) -> Answer:
        messages = request.get("messages")
        if messages is None:
            raise AssertionError(f"not a chat request: {sorted(request)}")
        if request.get("tools") or "You can call these functions" in messages[-1]["content"]:
            return ifeval_fc_answer(fc, request)
        users = [m for m in messages if m["role"] == "user"]
        if users[0]["content"] in replies:
            return Answer(content=replies[users[0]["content"]])
        if users[0]["content"] in long_prompts:
            return Answer(content=lifbench_reply(lifbench, users[0]["content"]))
        reply = mcbench_reply(mcbench, users[0]["content"])
        return Answer(content=reply if reply is not None else pacific_reply(pacific, messages))

    return base, logic, pacific, answer, fc, mcbench, lifbench


def test_hf_folder_loads_with_datasets_and_gives_the_rows_back(benchmarks):
    import datasets

    base, logic, pacific, _, fc, mcbench, lifbench = benchmarks
    for name, rows in (("logicif", logic), ("pacific", pacific), ("ifeval-fc", fc), ("mcbench", mcbench),
                       ("lifbench", lifbench)):
        version = write_rows(base / "hf" / name / "v001", rows)
        written = export(read_benchmark(version), "hf", base / "hf-out" / name)
        folder = Path(written["folder"])
        card = (folder / "README.md").read_text()
        assert card.startswith("---\n") and "data/test-*.parquet" in card and f"- {name}\n" in card
        assert check_card(card) == []
        assert str(base) not in (folder / "ifforge_export.json").read_text()  # the rows' file, not this machine's layout
        # a cache of its own: pytest reuses tmp paths across runs, and datasets would serve an earlier run's rows
        fresh = datasets.load_dataset(str(folder), cache_dir=str(base / "hf-cache" / name))["test"]
        for loaded in (fresh, datasets.load_from_disk(str(folder / "arrow"))["test"]):
            assert len(loaded) == len(rows) and loaded["row_id"] == row_ids(rows)
            back = [unflatten(record, written["json_columns"]) for record in loaded]
            assert back == [{key: row.get(key) for key in back[0]} for row in rows]
        assert "input" in written["json_columns"] or name != "logicif"
        assert name != "ifeval-fc" or {"tools", "messages", "rule_args"} <= set(written["json_columns"])
        assert name != "ifeval-fc" or min(len(json.dumps(row["tools"])) for row in rows) > 100  # long texts back
        assert "gold_steps" in written["json_columns"] or name != "mcbench"


def test_inspect_and_lm_eval_score_as_ifforge_evaluate_does(benchmarks):
    base, logic, pacific, answer, fc, mcbench, lifbench = benchmarks
    families = (("logicif", logic), ("pacific", pacific), ("ifeval-fc", fc), ("mcbench", mcbench),
                ("lifbench", lifbench))
    with StubServer(answer) as server:
        ours = {name: ifforge_scores(rows, name, server, base / f"ours-{name}") for name, rows in families}
        asked_by_evaluate = [r for r in server.requests if r.get("tools")]
        tasks = {}
        for name, rows in families:
            version = write_rows(base / "bench" / name / "v001", rows)
            benchmark = read_benchmark(version)
            tasks[name] = benchmark.name
            export(benchmark, "inspect", base / "inspect" / name)
            export(benchmark, "lm-eval", base / "lm-eval" / name)

        env = {"LOCAL_BASE_URL": server.url, "LOCAL_API_KEY": "x", "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1",
               "HF_DATASETS_CACHE": str(base / "hf-cache-lm-eval"),  # never an earlier run's docs at a reused path
               "INSPECT_LOG_DIR": str(base / "inspect-logs"), "NO_COLOR": "1"}
        run_all([[str(BIN / "inspect"), "eval", "inspect/logicif/task.py", "inspect/pacific/task.py",
                  "inspect/ifeval-fc/task.py", "inspect/mcbench/task.py", "inspect/lifbench/task.py",
                  "--model", "openai-api/local/stub", "--log-format", "json", "--display", "none",
                  "--max-connections", "4"],
                 [str(BIN / "lm_eval"), "--model", "local-chat-completions",
                  "--model_args", f"base_url={server.url}/chat/completions,model=stub,num_concurrent=4,max_retries=1",
                  "--apply_chat_template", "--include_path", str(base / "lm-eval"),
                  "--tasks", f"{tasks['logicif']},{tasks['pacific']},{tasks['ifeval-fc']}_text,{tasks['mcbench']},"
                             f"{tasks['lifbench']}",
                  "--output_path", str(base / "lm-out"),
                  "--log_samples"]], env, base)

    assert all("messages" in request for request in server.requests)  # chat completions, as evaluate asks
    for name, _ in families:  # every family's report counts the tokens its requests used
        tokens = json.loads((base / f"ours-{name}" / "run" / "report.json").read_text())["run"]["tokens"]
        assert tokens["prompt"] > 0 and tokens["requests"] > 0, (name, tokens)
    logs = {}
    for path in (base / "inspect-logs").glob("*.json"):
        log = json.loads(path.read_text())
        assert log["status"] == "success", path
        logs[log["eval"]["task"]] = log
    results = {}
    for path in (base / "lm-out").rglob("results_*.json"):
        results.update(json.loads(path.read_text())["results"])

    # LogicIF: the same case and task accuracies, and the same verdict for every case
    logic_overall = ours["logicif"]["overall"]
    inspect_logic = logs[tasks["logicif"]]
    metrics = {name: m["value"] for name, m in inspect_logic["results"]["scores"][0]["metrics"].items()}
    assert metrics["accuracy"] == pytest.approx(logic_overall["case_both"])
    assert metrics["task_accuracy"] == pytest.approx(logic_overall["task_both"])
    assert metrics["output_accuracy"] == pytest.approx(logic_overall["case_output"])
    assert metrics["state_accuracy"] == pytest.approx(logic_overall["case_state"])
    assert 0 < logic_overall["case_both"] < 1 and 0 < logic_overall["task_both"] < 1
    lm_logic = results[tasks["logicif"]]
    assert lm_logic["accuracy,none"] == pytest.approx(logic_overall["case_both"], abs=1e-4)
    assert lm_logic["task_accuracy,none"] == pytest.approx(logic_overall["task_both"])
    # a mean of one number per case gets lm-eval's standard error; task accuracy (per task) cannot
    p = lm_logic["accuracy,none"]
    assert lm_logic["accuracy_stderr,none"] == pytest.approx((p * (1 - p) / (len(logic) - 1)) ** 0.5)
    assert lm_logic["task_accuracy_stderr,none"] == "N/A"
    import pandas as pd

    ours_cases = pd.read_parquet(base / "ours-logicif" / "run" / "scores.parquet")
    expected = {r.row_id: bool(r.both_ok) for r in ours_cases.itertuples()}  # one id per row, as the exports
    got = {s["id"]: s["scores"]["ifforge_checker"]["value"] == "C" for s in inspect_logic["samples"]}
    assert got == expected and len(got) == len(logic)
    lm_samples = [json.loads(line) for path in (base / "lm-out").rglob(f"samples_{tasks['logicif']}_*.jsonl")
                  for line in path.read_text().splitlines()]
    got = {s["doc"]["id"]: s["accuracy"] == 1.0 for s in lm_samples}  # the case's own number, averaged by lm-eval
    assert got == expected

    # PACIFIC: prompt- and instruction-level accuracy; chat rows asked turn by turn in inspect,
    # left out of lm-eval (one prompt per row there), so lm-eval is compared on the prompt rows
    pacific_overall = ours["pacific"]["overall"]
    inspect_pacific = logs[tasks["pacific"]]
    metrics = {name: m["value"] for name, m in inspect_pacific["results"]["scores"][0]["metrics"].items()}
    assert metrics["prompt_accuracy"] == pytest.approx(pacific_overall["prompt_accuracy"], abs=1e-4)
    assert metrics["instruction_accuracy"] == pytest.approx(pacific_overall["instruction_accuracy"], abs=1e-4)
    assert 0 < pacific_overall["prompt_accuracy"] < 1
    prompt_only = ours["pacific"]["by_mode"]["prompt"]
    lm_pacific = results[tasks["pacific"]]
    assert lm_pacific["prompt_accuracy,none"] == pytest.approx(prompt_only["prompt_accuracy"], abs=1e-4)
    assert lm_pacific["instruction_accuracy,none"] == pytest.approx(prompt_only["instruction_accuracy"], abs=1e-4)

    # IFEval-FC: inspect offers the row's tools through the tools API (never running them) and scores
    # the calls as evaluate does, case by case; lm-eval asks the text protocol, scored by the same checker
    fc_overall = ours["ifeval-fc"]["overall"]
    inspect_fc = logs[tasks["ifeval-fc"]]
    metrics = {name: m["value"] for name, m in inspect_fc["results"]["scores"][0]["metrics"].items()}
    assert metrics["accuracy"] == pytest.approx(fc_overall["format_right_rate"], abs=1e-4)
    assert metrics["called_rate"] == pytest.approx(fc_overall["called_rate"], abs=1e-4)
    assert metrics["provided_rate"] == pytest.approx(fc_overall["provided_rate"], abs=1e-4)
    assert 0 < fc_overall["format_right_rate"] < fc_overall["provided_rate"] < fc_overall["called_rate"] < 1
    fc_cases = pd.read_parquet(base / "ours-ifeval-fc" / "run" / "scores.parquet")
    expected = {r.row_id: bool(r.correct) for r in fc_cases.itertuples()}
    got = {s["id"]: s["scores"]["ifforge_checker"]["value"] == "C" for s in inspect_fc["samples"]}
    assert got == expected and len(got) == len(fc)
    reasons = {s["id"]: s["scores"]["ifforge_checker"]["metadata"]["verdict"]["reason"] for s in inspect_fc["samples"]}
    assert reasons == {r.row_id: r.reason for r in fc_cases.itertuples()}  # the raw arguments, not inspect's reading
    assert set(reasons.values()) == {"ok", "format_wrong", "no_call", "parameter_missing", "arguments_not_json"}
    by_inspect = [r for r in server.requests if r.get("tools")][len(asked_by_evaluate):]
    assert len(by_inspect) == len(fc)
    for request in by_inspect:
        row = next(r for r in fc if r["messages"][-1]["content"] == request["messages"][-1]["content"])
        assert request["messages"][0] == row["messages"][0] and request["tool_choice"] == "auto"
        assert [t["function"]["name"] for t in request["tools"]] == [t["function"]["name"] for t in row["tools"]]
        assert [t["function"]["parameters"]["properties"] for t in request["tools"]] == \
            [t["function"]["parameters"]["properties"] for t in row["tools"]]
    from ifforge.exports.benchmark import check, text_row

    lm_fc = results[f"{tasks['ifeval-fc']}_text"]
    text_verdicts = []
    for row in fc:
        asked = text_row(row)
        reply = ifeval_fc_answer(fc, {"messages": [{"role": "user", "content": asked["prompt"]}]}).content
        text_verdicts.append(check(asked, [reply]).correct)
    assert lm_fc["accuracy,none"] == pytest.approx(sum(text_verdicts) / len(fc))
    assert 0 < sum(text_verdicts) < len(fc)

    # MCBench: FA, FF and FD as its report gives them, in both tools, and the same verdict per row
    mcbench_overall = ours["mcbench"]["overall"]
    inspect_mcbench = logs[tasks["mcbench"]]
    metrics = {name: m["value"] for name, m in inspect_mcbench["results"]["scores"][0]["metrics"].items()}
    lm_mcbench = results[tasks["mcbench"]]
    for name in ("final_accuracy", "format_following", "following_depth"):
        assert metrics[name] == pytest.approx(mcbench_overall[name], abs=1e-4)
        assert lm_mcbench[f"{name},none"] == pytest.approx(mcbench_overall[name], abs=1e-4)
    assert mcbench_overall["final_accuracy"] == pytest.approx(1 / 3, abs=1e-4)
    assert mcbench_overall["format_following"] == pytest.approx(2 / 3, abs=1e-4)
    ours_rows = pd.read_parquet(base / "ours-mcbench" / "run" / "scores.parquet")
    expected = {r.row_id: bool(r.fa) for r in ours_rows.itertuples()}
    got = {s["id"]: s["scores"]["ifforge_checker"]["value"] == "C" for s in inspect_mcbench["samples"]}
    assert got == expected and len(got) == len(mcbench)

    # LIFBench: ARS weighted by task totals and the share with full points, as its report gives them
    lifbench_overall = ours["lifbench"]["overall"]
    assert 0 < lifbench_overall["ars"] < 1
    metrics = {name: m["value"] for name, m in logs[tasks["lifbench"]]["results"]["scores"][0]["metrics"].items()}
    lm_lifbench = results[tasks["lifbench"]]
    for got in (metrics["ars"], lm_lifbench["ars,none"]):
        assert got == pytest.approx(lifbench_overall["ars"], abs=1e-4)
    for got in (metrics["full_points"], lm_lifbench["full_points,none"]):
        assert got == pytest.approx(lifbench_overall["full_points_share"], abs=1e-4)


def test_the_export_command_names_what_it_wrote_and_what_it_left_out(benchmarks, capsys):
    from ifforge import cli

    base, _, pacific, _, _, _, _ = benchmarks
    version = write_rows(base / "cli" / "pacific" / "v001", pacific)
    (version.parent / "LATEST").write_text("v001\n")  # as a generate run leaves it
    assert cli.main(["export", str(version.parent), "--format", "lm-eval"]) == 0  # a benchmark folder: its LATEST
    printed = capsys.readouterr().out
    chat = sum(row["mode"] == "chat" for row in pacific)
    assert f"{len(pacific) - chat} rows of ifforge_pacific_v001 (pacific)" in printed
    assert f"{chat} rows left out (multi-turn chats" in printed
    docs = (version / "exports" / "lm-eval" / "ifforge_pacific_v001" / "docs.jsonl").read_text().splitlines()
    assert len(docs) == len(pacific) - chat
    assert cli.main(["export", str(version)]) == 2  # a plain jsonl export is the reviewed subset only
    assert "--verified-only" in capsys.readouterr().err
    assert cli.main(["export", str(base / "nowhere"), "--format", "hf"]) == 2
    assert "no benchmark.jsonl" in capsys.readouterr().err


def test_export_names_bare_files_apart_and_refuses_rows_it_cannot_score(tmp_path, capsys):
    from ifforge import cli

    folder = tmp_path / "sub"
    folder.mkdir()
    row = {"family": "logicif", "task_id": "t", "test_case_id": 0, "code_output": {"output": 1, "stats": {}},
           "instruction": "Say 1."}
    for name in ("mine.jsonl", "theirs.jsonl"):
        (folder / name).write_text(json.dumps(row) + "\n")
    assert read_benchmark(folder / "mine.jsonl").name == "ifforge_mine"
    assert read_benchmark(folder / "theirs.jsonl").name == "ifforge_theirs"
    (folder / "odd.jsonl").write_text(json.dumps({**row, "family": "nosuch"}) + "\n")
    assert cli.main(["export", str(folder / "odd.jsonl"), "--format", "hf"]) == 2
    assert "unknown family 'nosuch'" in capsys.readouterr().err
    (folder / "fc.jsonl").write_text(json.dumps({"family": "ifeval-fc", "task_id": "x"}) + "\n")
    assert cli.main(["export", str(folder / "fc.jsonl"), "--format", "inspect"]) == 2
    assert "missing field" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["review", str(folder), "--port", "70000"])
    assert "70000 is not a port" in capsys.readouterr().err


def test_an_hf_export_into_a_folder_it_did_not_write_refuses_and_deletes_nothing(tmp_path, capsys):
    from ifforge import cli

    row = {"family": "logicif", "task_id": "t", "test_case_id": 0, "code_output": {"output": 1, "stats": {}},
           "instruction": "Say 1.", "input": [1]}
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(row) + "\n")
    out = tmp_path / "theirs"
    (out / "data").mkdir(parents=True)
    (out / "data" / "test-00000-of-00001.parquet").write_bytes(b"the user's own data")
    assert cli.main(["export", str(rows), "--format", "hf", "--out", str(out)]) == 2
    assert "not written by an hf export" in capsys.readouterr().err
    assert (out / "data" / "test-00000-of-00001.parquet").read_bytes() == b"the user's own data"


def test_exports_name_their_rows_file_without_the_machines_layout(tmp_path):
    version = write_rows(tmp_path / "alice" / "logicif" / "v001", logicif_rows(1)[0])
    for fmt in ("inspect", "lm-eval"):
        folder = Path(export(read_benchmark(version), fmt, tmp_path / fmt)["folder"])
        written = "".join(path.read_text() for path in folder.iterdir() if path.suffix in (".py", ".yaml"))
        assert "benchmark.jsonl" in written and str(tmp_path) not in written, fmt
