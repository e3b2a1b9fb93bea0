"""Agreement of ifforge's LogicIF scorer with LogicIF's own, on thousands of tricky (row, reply) cases.

    python benchmarks/logicif_agreement.py ORIGINALS_DIR [CANDIDATES.jsonl ...] \
        --original-python /path/to/venv/bin/python \
        [--fixtures ../shared/fixtures/logicifeval] [--rows outputs/logicif/v001/benchmark.jsonl]

ORIGINALS_DIR is a fetched copy of mianzhang/LogicIF; --original-python a Python with its
dependencies (tqdm, requests, openai). Nothing is fetched and nothing of LogicIF's is copied: its
`evaluation.py` is imported from ORIGINALS_DIR in that Python, in a child process, and its
`LogicIFEvaluator.compare_outputs` is called on result files exactly as its command line calls it.

LogicIF scores a reply in two steps: an LLM (gpt-4o-mini) extracts `{output, stats}` from the raw
reply, then `compare_outputs` checks them with Python equality. The extractor cannot be run here,
so it is modelled as a faithful one that follows its prompt: it copies the answer the reply states
(as JSON, so tuples become lists), keeps the expected tracker keys and sets a tracker the reply does
not state to 0, and returns `output: null` for a reply that states no answer. Every case is judged

1. `given`: LogicIF's extracted `llm_output` scored by ifforge (`ifforge score` on LogicIF's files,
   default rules and `--rules paper`) against `compare_outputs` on the same file: the comparison itself;
2. `reply`: ifforge's rules on the raw reply (last JSON object, then the labelled format) against
   the faithful extractor plus `compare_outputs`: where reading by rules and by an extractor part.

Each case is one task in the original's run, and the cases of one function under one variant and
render form one task in a second run (task-level: a task passes iff all its cases do), compared with
the original's per-task lines.

CANDIDATES.jsonl are result files built by someone else, in the layout `compare_outputs` reads
(`task_id`, `test_case_id`, `code_output`, `llm_output` and/or `llm_response`): a set this script
did not make, so agreement does not rest on its own cases. Each file is scored as it is, line for
line: `given` is `ifforge score` on the file (both rule modes) against `compare_outputs` on it;
`reply`, where a line has `llm_response`, is ifforge's rules on the reply alone against
`compare_outputs` on the file's `llm_output` (telling only where that is an extraction of the
reply). Lines the original raises on, and lines ifforge refuses (with the reason), are counted
apart from the agreement figures.

Own cases: every test case of the fixture rows (and of --rows, ifforge's own generated rows), its gold
answer rewritten on purpose (floats for ints, booleans for 0/1, key order, a wrong output or
tracker, a tracker missing or extra, null, numbers as text, trackers nested one level down) and
written in many ways (JSON plain, in a code fence, with trailing text, labelled, Python literals
with tuples and None, tracker bullets, the function's whole return pair, a draft before the final
answer, prose only, an empty reply), plus the fixture's real gpt-5 replies.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

# ---- LogicIF's side (runs in --original-python; imports nothing of ifforge) ---------------------


def original_side(originals: Path, jobs: list[Path]) -> None:
    """For each job (the lines of a result file as given, each marked whether it joins the task-level
    run): compare_outputs on each line alone (its question-level numbers are the line's verdicts),
    then once on the marked lines it can read, by their own task ids; JSON on stdout."""
    import importlib
    import types

    # the repository is a package named `logicif` (setup.py maps it to its own folder)
    module = types.ModuleType("logicif")
    module.__path__ = [str(originals)]
    sys.modules["logicif"] = module
    evaluation = importlib.import_module("logicif.evaluation")
    evaluator = evaluation.LogicIFEvaluator()
    answers = []
    for job in jobs:
        items = [json.loads(item) for item in job.read_text(encoding="utf-8").splitlines()]
        lines = [item["line"] for item in items]
        verdicts: list = []  # [output, stats, both], or the name of the exception it raised
        with tempfile.TemporaryDirectory() as folder, contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()):
            path = Path(folder) / "one.jsonl"
            for line in lines:
                path.write_text(line + "\n", encoding="utf-8")
                try:
                    result = evaluator.compare_outputs(result_file=str(path))["question_level_accuracy"]
                except Exception as error:  # an outside line it cannot read (llm_output null, say)
                    verdicts.append(type(error).__name__)
                    continue
                verdicts.append([result["output"] == 100, result["stats"] == 100, result["both"] == 100])
        # a line that raises would stop the whole file, and one ifforge refuses has no verdict of ours
        readable = [line for line, item, verdict in zip(lines, items, verdicts)
                    if isinstance(verdict, list) and item["task_level"]]
        tasks, summary = {}, None
        if readable:
            with tempfile.TemporaryDirectory() as folder, contextlib.redirect_stderr(io.StringIO()):
                path = Path(folder) / "all.jsonl"
                path.write_text("".join(line + "\n" for line in readable), encoding="utf-8")
                printed = io.StringIO()
                with contextlib.redirect_stdout(printed):
                    summary = evaluator.compare_outputs(result_file=str(path))["question_level_accuracy"]
            # its per-task line, "  <task_id>: <both>/<cases> both matches"
            for line in printed.getvalue().splitlines():
                if line.endswith(" both matches") and line.startswith("  "):
                    task, counts = line[2:-len(" both matches")].rsplit(": ", 1)
                    both, cases = counts.split("/")
                    tasks[task] = both == cases
        answers.append({"cases": verdicts, "tasks": tasks, "summary": summary})
    print(json.dumps(answers))


# ---- candidates (ifforge's side) ----------------------------------------------------------------

def to_floats(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, list):
        return [to_floats(v) for v in value]
    if isinstance(value, dict):
        return {k: to_floats(v) for k, v in value.items()}
    return value


def to_text(value: Any) -> Any:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, list):
        return [to_text(v) for v in value]
    return value


def to_tuples(value: Any) -> Any:
    return tuple(to_tuples(v) for v in value) if isinstance(value, list) else value


def bools_for_ints(value: Any) -> Any:
    """0 and 1 written as false and true (where the gold has them)."""
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return bool(value)
    if isinstance(value, list):
        return [bools_for_ints(v) for v in value]
    return value


def wrong(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, list):
        return value[::-1] + [0] if value else [0]
    if isinstance(value, dict):
        return {**value, "_": 0}
    return 0


def first_key(stats: dict) -> str | None:
    return next(iter(stats), None)


# answer variants: name -> (gold output, gold stats) -> (stated output, stated stats), or None when the
# variant does not apply. `stats` None: the reply states no trackers.
VARIANTS = {
    "exact": lambda o, s: (o, s),
    "float_ints": lambda o, s: (to_floats(o), s) if to_floats(o) != o or type(to_floats(o)) is not type(o) else None,
    "float_trackers": lambda o, s: (o, to_floats(s)),
    "bool_for_01": lambda o, s: (bools_for_ints(o), {k: bools_for_ints(v) for k, v in s.items()})
    if bools_for_ints(o) != o or any(v in (0, 1) and not isinstance(v, bool) for v in s.values()) else None,
    "key_order": lambda o, s: (o, dict(reversed(list(s.items())))) if len(s) > 1 else None,
    "wrong_output": lambda o, s: (wrong(o), s),
    "wrong_tracker": lambda o, s: (o, {**s, first_key(s): wrong(s[first_key(s)])}) if s else None,
    "missing_tracker": lambda o, s: (o, {k: v for k, v in s.items() if k != first_key(s)}) if s else None,
    "missing_zero_tracker": lambda o, s: (o, {k: v for k, v in s.items() if v != 0})
    if any(v == 0 for v in s.values()) else None,
    "extra_tracker": lambda o, s: (o, {**s, "steps_total": 3}),
    "null_output": lambda o, s: (None, s),
    "numbers_as_text": lambda o, s: (to_text(o), s) if to_text(o) != o else None,
    "nested_trackers": lambda o, s: (o, {"trackers": s}),
}


def python_repr(value: Any, tuples: bool) -> str:
    return repr(to_tuples(value) if tuples else value)


def render(how: str, output: Any, stats: dict | None) -> str | None:
    """A reply stating (output, stats) in one way; None when that way cannot state it."""
    lead = "Let me trace the function step by step.\nStep 1: read the input.\nStep 2: loop.\n\n"
    answer = {"output": output, "stats": stats}
    if how == "json_plain":
        return lead + json.dumps(answer)
    if how == "json_fenced":
        return lead + "```json\n" + json.dumps(answer, indent=2) + "\n```"
    if how == "json_trailing":
        return lead + json.dumps(answer) + "\n\nI hope this helps; tell me if you want the trace in more detail."
    if how == "json_stats_first":
        return lead + json.dumps({"stats": stats, "output": output})
    if how == "labelled":
        return lead + f"**Output:** {json.dumps(output)}\n\n**Statistics:** {json.dumps(stats)}"
    if how == "labelled_python":
        return lead + f"**Output:** {python_repr(output, True)}\n**Statistics:** {python_repr(stats, True)}"
    if how == "labelled_bullets":
        if not isinstance(stats, dict) or any(isinstance(v, dict) for v in stats.values()):
            return None
        bullets = "\n".join(f"- {k}: {json.dumps(v)}" for k, v in stats.items())
        return lead + f"**Output:** {json.dumps(output)}\n**Statistics:**\n{bullets}"
    if how == "return_pair":
        return lead + f"**Output:** {python_repr((output, stats), False)}"
    if how == "draft_then_final":
        draft = {"output": wrong(output), "stats": stats}
        return lead + "First attempt: " + json.dumps(draft) + "\nWait, I made a slip. Final answer:\n" + json.dumps(answer)
    if how == "prose":
        named = ", ".join(f"{k} ends at {v}" for k, v in (stats or {}).items())
        return lead + f"So the function returns {json.dumps(output)}; as for the counters, {named}."
    raise ValueError(how)


RENDERS = ("json_plain", "json_fenced", "json_trailing", "json_stats_first", "labelled", "labelled_python",
           "labelled_bullets", "return_pair", "draft_then_final", "prose")


def faithful_extraction(output: Any, stats: Any, keys: list[str], stated: bool) -> dict[str, Any]:
    """What LogicIF's extractor returns when it follows its prompt: the stated answer as JSON, the
    expected tracker keys (a tracker not stated set to 0), `output: null` when none is stated."""
    if not stated:
        return {"output": None, "stats": {k: 0 for k in keys}, "success": True}
    flat = stats.get("trackers") if isinstance(stats, dict) and set(stats) == {"trackers"} else stats
    flat = flat if isinstance(flat, dict) else {}
    return json.loads(json.dumps({"output": output, "stats": {k: flat.get(k, 0) for k in keys}, "success": True}))


def read_rows(paths: list[Path]) -> list[dict[str, Any]]:
    rows = []
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                rows.append(json.loads(line))
    return rows


def candidates(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """(row, reply) cases with the original's extraction and the case's class."""
    out = []
    for index, row in enumerate(rows):
        gold = row["code_output"]
        keys = list(gold["stats"])
        base = {"task_id": row["task_id"], "test_case_id": row["test_case_id"], "code_output": gold,
                "description": row.get("description") or "(description)", "source": row["_source"]}
        if isinstance(row.get("response"), str):  # the fixture's real reply: ifforge reads it as it is
            ours = __import__("ifforge.families.logicif.verdicts", fromlist=["extract_answer"]).extract_answer(
                row["response"])[0]
            stated = ours is not None
            extraction = faithful_extraction(*(ours["output"], ours["stats"]) if stated else (None, None), keys, stated)
            out.append({**base, "variant": "real_reply", "render": "gpt-5", "llm_response": row["response"],
                        "llm_output": extraction})
        for name, variant in VARIANTS.items():
            stated_answer = variant(gold["output"], gold["stats"])
            if stated_answer is None:
                continue
            # every variant in plain JSON, and in a rotating share of the other renders
            renders = [r for i, r in enumerate(RENDERS) if r == "json_plain" or (i + index + len(name)) % 3 == 0]
            if name == "exact":
                renders = list(RENDERS)
            for how in renders:
                reply = render(how, *stated_answer)
                if reply is None:
                    continue
                out.append({**base, "variant": name, "render": how, "llm_response": reply,
                            "llm_output": faithful_extraction(*stated_answer, keys, True)})
        # LogicIF extractions that lost a field (its extractor returns what it has after its retries)
        out.append({**base, "variant": "given_without_stats", "render": "json_plain",
                    "llm_response": render("json_plain", gold["output"], None),
                    "llm_output": {"output": gold["output"], "success": True}})
        out.append({**base, "variant": "given_without_output", "render": "prose",
                    "llm_response": render("prose", None, gold["stats"]),
                    "llm_output": {"stats": gold["stats"], "success": True}})
        out.append({**base, "variant": "no_answer", "render": "empty", "llm_response": "",
                    "llm_output": {"output": None, "stats": {}, "success": False, "error": "LLM response is empty"}})
        out.append({**base, "variant": "no_answer", "render": "refusal",
                    "llm_response": "I cannot run code, so I cannot tell what this function returns.",
                    "llm_output": faithful_extraction(None, None, keys, False)})
    return out


def ours(case: dict[str, Any], level: str, rules: str) -> list[bool]:
    from ifforge.families.logicif.scoring import verdict_of

    result = {"task_id": case["task_id"], "test_case_id": case["test_case_id"], "code_output": case["code_output"]}
    result |= {"llm_output": case["llm_output"]} if level == "given" else {"llm_response": case["llm_response"]}
    verdict = verdict_of(result, result, rules=rules)
    return [verdict.output_ok, verdict.stats_ok, verdict.both_ok]


def group_of(case: dict[str, Any]) -> str:
    """The task a case belongs to in the task-level check: its function under one variant and render."""
    return f"{case['source']}/{case['task_id']}/{case['variant']}/{case['render']}"


def outside_cases(path: Path) -> list[dict[str, Any]]:
    """Each line of an outside result file: its raw text for the original, and the reply as
    `ifforge score` reads it (`read_results` on that line alone, so a line ifforge refuses is
    counted with its reason and does not hide the others)."""
    from ifforge.core.untrusted import BadValue, read_lines
    from ifforge.eval.evaluation import BenchmarkError
    from ifforge.eval.results_file import read_results

    cases = []
    with tempfile.TemporaryDirectory() as folder:
        one = Path(folder) / "line.jsonl"
        for number, line in read_lines(path):
            case: dict[str, Any] = {"where": f"{path.name}:{number}", "raw": None, "result": None, "refused": None}
            if isinstance(line, BadValue):  # the original opens the file as UTF-8 and stops there
                cases.append({**case, "refused": str(line), "raised": "UnicodeDecodeError"})
                continue
            if not line.strip():
                continue
            case["raw"] = line
            try:
                task = json.loads(line).get("task_id")
                case["group"] = str(task)  # the original groups by it and prints it with str()
            except (ValueError, AttributeError, RecursionError):
                case["group"] = None
            one.write_text(line + "\n", encoding="utf-8")
            try:
                case["result"] = read_results(one)[1][0]
            except BenchmarkError as error:
                case["refused"] = str(error).replace(f"{one}:1", case["where"]).replace(str(one), case["where"])
            cases.append(case)
    return cases


def ours_outside(case: dict[str, Any], level: str, rules: str) -> list[bool] | str | None:
    """ifforge's verdicts on an outside line as `ifforge score` gives them, "refused: ..." when it
    refuses the line, None when the level does not apply (`reply` needs `llm_response`)."""
    from ifforge.families.base import Reply
    from ifforge.families.logicif.scoring import case_verdict

    if level == "reply" and not isinstance((case["result"] or {}).get("llm_response"), str):
        return None
    if case["refused"]:
        return "refused: " + case["refused"]
    result = case["result"]
    if level == "reply":
        result = {k: v for k, v in result.items() if k != "llm_output"}
    row = case_verdict(result, Reply(result), rules=rules).lines[0]
    return [bool(row["output_ok"]), bool(row["stats_ok"]), bool(row["both_ok"])]


def print_agreement(pairs: list[dict[str, Any]], tasks: dict[str, bool], show: int) -> None:
    """Agreement on the cases both sides read (case level, and task level on the tasks of `tasks`,
    the original's task-level run on those same cases), then the cases only one side could read,
    then every disagreement class with examples. Each pair has `mine` and `original` (three
    verdicts, or why that side could not read the case), `group`, `label` (its class) and `example`
    (lines to show)."""
    both = [p for p in pairs if isinstance(p["original"], list) and isinstance(p["mine"], list)]
    agree = [sum(p["mine"][i] == p["original"][i] for p in both) for i in range(3)]
    task_ok: dict[str, bool] = {}
    for p in both:
        task_ok[p["group"]] = task_ok.get(p["group"], True) and p["mine"][2]
    whole = {task: ok for task, ok in task_ok.items() if task in tasks}  # the original's run read these whole
    same_tasks = sum(ok == tasks[task] for task, ok in whole.items())
    total = max(1, len(both))
    task_line = f"{same_tasks / len(whole):.2%} of {len(whole)}" if whole else "none read whole"
    print(f"  cases: output {agree[0] / total:.2%}, state {agree[1] / total:.2%}, both {agree[2] / total:.2%}"
          f" of {len(both)}; tasks (both, all cases): {task_line}")
    refused = [p for p in pairs if isinstance(p["original"], list) and isinstance(p["mine"], str)]
    if refused:
        print(f"  ifforge refuses {len(refused)} the original reads (left out above, tasks too):")
        for reason, count in Counter(p["mine"].split(": ", 2)[-1] for p in refused).most_common():
            print(f"    {count:5d}  {reason[:160]}")
    raised = Counter(p["original"] for p in pairs if isinstance(p["original"], str))
    if raised:
        refused_too = sum(isinstance(p["mine"], str) for p in pairs if isinstance(p["original"], str))
        print(f"  the original raises on {sum(raised.values())} ({', '.join(f'{k} {v}' for k, v in raised.items())});"
              f" ifforge refuses {refused_too} of them and scores the rest")
    classes: Counter = Counter()
    examples: dict[tuple, list] = {}
    for p in both:
        if p["mine"] != p["original"]:
            key = (*p["label"], "ifforge " + "".join("01"[x] for x in p["mine"]),
                   "LogicIF " + "".join("01"[x] for x in p["original"]))
            classes[key] += 1
            examples.setdefault(key, []).append(p)
    if classes:
        print("  disagreements (class, verdicts output/state/both):")
    for key, count in classes.most_common():
        print(f"    {count:5d}  {' | '.join(key)}")
        for p in examples[key][:show]:
            for line in p["example"]:
                print(f"           {line}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("originals", type=Path, help="a fetched copy of mianzhang/LogicIF")
    parser.add_argument("candidates", type=Path, nargs="*",
                        help="outside result files (JSONL, compare_outputs' layout) to score both ways")
    parser.add_argument("--original-python", default=sys.executable, help="a Python with tqdm, requests, openai")
    parser.add_argument("--fixtures", type=Path, default=Path(__file__).resolve().parents[2] / "shared/fixtures/logicifeval",
                        help="folder with LogicIFEval rows (cases.jsonl, tasks.jsonl)")
    parser.add_argument("--rows", type=Path, action="append", default=[], help="ifforge benchmark rows (JSONL)")
    parser.add_argument("--show", type=int, default=2, help="examples printed per disagreement class")
    args = parser.parse_args()
    for path in [args.originals / "evaluation.py", *args.candidates]:
        if not path.is_file():
            parser.error(f"{path}: no such file")

    rows = []
    if (args.fixtures / "cases.jsonl").exists():
        tasks = {t["task_id"]: t for t in read_rows([args.fixtures / "tasks.jsonl"])}
        rows += [{**c, "description": tasks.get(c["task_id"], {}).get("description"), "_source": "fixture"}
                 for c in read_rows([args.fixtures / "cases.jsonl"])]
    rows += [{**r, "_source": "ifforge"} for r in read_rows(args.rows) if r.get("family", "logicif") == "logicif"]
    started = time.process_time(), time.perf_counter()
    cases = candidates(rows)
    outside = {path: outside_cases(path) for path in args.candidates}
    with tempfile.TemporaryDirectory() as folder:
        jobs = [Path(folder) / "own.jsonl"]
        own = ({**{k: v for k, v in case.items() if k not in ("variant", "render", "source")}, "task_id": group_of(case)}
               for case in cases)
        jobs[0].write_text("".join(json.dumps({"line": json.dumps(entry), "task_level": True}) + "\n" for entry in own))
        for index, lines in enumerate(outside.values()):
            jobs.append(Path(folder) / f"outside{index}.jsonl")
            jobs[-1].write_text("".join(json.dumps({"line": c["raw"], "task_level": not c["refused"]}) + "\n"
                                        for c in lines if c["raw"] is not None), encoding="utf-8")
        child = subprocess.run([args.original_python, __file__, "--original-side", str(args.originals.resolve()),
                                *map(str, jobs)], capture_output=True, text=True, check=False,
                               env={**os.environ, "TQDM_DISABLE": "1"})
    if child.returncode:
        print(child.stderr[-3000:], file=sys.stderr)
        return 1
    theirs, *theirs_outside = json.loads(child.stdout)
    print(f"LogicIF agreement: the original's compare_outputs in {args.original_python}")
    print(f"\n== own set: {len(cases)} cases from {len(rows)} test cases ({dict(Counter(r['_source'] for r in rows))})")
    for level, rules, what in (
            ("given", "ifforge", "LogicIF's extracted llm_output, ifforge's default rules"),
            ("given", "paper", "LogicIF's extracted llm_output, --rules paper"),
            ("reply", "ifforge", "the raw reply: ifforge's rules vs a faithful extractor + compare_outputs")):
        print(f"\n[{level}, {rules}] {what}")
        pairs = [{"mine": ours(case, level, rules), "original": original, "group": group_of(case),
                  "label": (case["variant"], case["render"] if level == "reply" else "-"),
                  "example": [f"gold {json.dumps(case['code_output'])[:150]}",
                              f"reply ...{case['llm_response'][-150:]!r}"]}
                 for case, original in zip(cases, theirs["cases"])]
        print_agreement(pairs, theirs["tasks"], args.show)
    print(f"\nthe original's own task-level numbers on those tasks: {json.dumps(theirs['summary'])}")

    for (path, lines), answer in zip(outside.items(), theirs_outside):
        verdicts = iter(answer["cases"])
        originals = [next(verdicts) if c["raw"] is not None else c["raised"] for c in lines]
        print(f"\n== outside file {path}: {len(lines)} lines")
        # the reply level's tasks: those whose every line in the original's task-level run has a reply
        no_reply = {c.get("group") for c in lines if c["raw"] is not None and not c["refused"]
                    and not isinstance(c["result"].get("llm_response"), str)}
        for level, rules, what in (
                ("given", "ifforge", "`ifforge score` on the file against compare_outputs on it"),
                ("given", "paper", "`ifforge score --rules paper` on the file against compare_outputs on it"),
                ("reply", "ifforge", "ifforge's rules on llm_response alone against compare_outputs on llm_output "
                                     "(telling where llm_output is an extraction of llm_response)")):
            pairs = []
            for case, original in zip(lines, originals):
                mine = ours_outside(case, level, rules)
                if mine is None:
                    continue
                parsed = case["result"] or {}
                shown = {k: json.dumps(parsed[k])[-150:] if k in parsed else "(none)" for k in
                         ("code_output", "llm_output", "llm_response")}
                pairs.append({"mine": mine, "original": original, "group": case.get("group"), "label": ("outside",),
                              "example": [f"{case['where']}: gold {shown['code_output']}",
                                          f"llm_output {shown['llm_output']}",
                                          f"llm_response ...{shown['llm_response']}"]})
            print(f"\n[{level}, {rules}] {what}: {len(pairs)} lines")
            if pairs:
                tasks = {t: ok for t, ok in answer["tasks"].items() if level == "given" or t not in no_reply}
                print_agreement(pairs, tasks, args.show)
        print(f"\nthe original's own task-level numbers on that file: {json.dumps(answer['summary'])}")
    wall = time.perf_counter() - started[1]
    child_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"time: wall {wall:.1f} s; CPU (user+sys) ifforge {time.process_time() - started[0]:.1f} s, "
          f"the original's child {child_cpu.ru_utime + child_cpu.ru_stime:.1f} s; load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "--original-side":
        original_side(Path(sys.argv[2]), [Path(job) for job in sys.argv[3:]])
    else:
        sys.exit(main())
