"""Agreement of ifforge's IFEval-FC checkers with the paper repository's own, in both modes.

    python benchmarks/ifeval_fc_agreement.py ORIGINALS_DIR --paper-python /path/to/venv/bin/python

ORIGINALS_DIR is a fetched copy of the IFEval-FC repository (Skripkon/IFEval-FC); --paper-python a
Python with its dependencies (nltk; langchain-openai and colorama for the end-to-end part). Nothing
is fetched and nothing of the paper's is copied: its checkers, tests and evaluate.py are run from
ORIGINALS_DIR, in that Python, in a child process. Printed:

1. checkers: thousands of candidate argument strings built from the paper's 150 data files (its
   queries, their rewrites into each rule's format, and edge cases on purpose), each judged by the
   paper's checker and by ours, `ifforge` and `paper` rules, agreement per rule;
2. the paper's own test expectations (its tests/test_checkers.py, every assert counted on its own)
   against its code, against our paper rules and against our default rules;
3. end to end: a scripted server answers every query with the same tool call for both (calls of
   every shape: right, wrong format, no call, missing parameter, a number, JSON that does not parse,
   another function's name, a reply the paper's client cannot read); the paper's evaluate.py and
   ifforge's evaluate (both rule modes) score them; agreement per case and the three rates;
4. the same for ifforge's own bank benchmark, exported in the paper's layout (`export --format
   ifeval-fc`) for the paper's evaluate.py, beside ifforge's evaluate on the rows themselves.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import subprocess
import sys
import tempfile
import types
from collections import Counter, defaultdict
from pathlib import Path

# ---- the paper's side (runs in --paper-python; imports nothing of ifforge) ----------------------


def expectations_of(test_file: Path) -> types.CodeType:
    """The test module with every `assert X` turned into `_expect(lambda: X, line)`, so each
    expectation counts on its own (and one that raises is one failed expectation)."""

    class Rewrite(ast.NodeTransformer):
        def visit_Assert(self, node):
            check = ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
                               body=node.test)
            call = ast.Call(func=ast.Name("_expect", ast.Load()), args=[check, ast.Constant(node.lineno)], keywords=[])
            return ast.copy_location(ast.Expr(call), node)

    tree = ast.fix_missing_locations(Rewrite().visit(ast.parse(test_file.read_text())))
    return compile(tree, str(test_file), "exec")


def run_expectations(test_file: Path) -> dict[str, bool]:
    """`function:line` -> met, for every expectation of the test file, with whatever
    `IFEval_FC.checkers` is importable now."""
    met: dict[str, bool] = {}
    current = [""]

    def expect(check, line):
        try:
            met[f"{current[0]}:{line}"] = bool(check())
        except Exception:  # noqa: BLE001 - a checker that raises does not meet the expectation
            met[f"{current[0]}:{line}"] = False

    namespace = {"_expect": expect, "__name__": "paper_tests"}
    exec(expectations_of(test_file), namespace)  # noqa: S102 - the paper's own test file, rewritten
    for name, function in list(namespace.items()):
        if name.startswith("test_") and callable(function):
            current[0] = name
            function()
    return met


def paper_side(originals: Path, job: Path) -> None:
    """Verdicts of the paper's checkers on the job's (checker, args, value) triples, and its own
    test expectations against its own code; JSON on stdout."""
    sys.path.insert(0, str(originals))
    from IFEval_FC.checkers import get_all_checkers

    classes = {cls.__name__: cls for cls in get_all_checkers()}
    verdicts = []
    for checker, args, value in json.loads(job.read_text()):
        instance = classes[checker]()
        instance.arguments = args
        try:
            verdicts.append([bool(instance.check_following(value)), None])
        except Exception as error:  # noqa: BLE001 - the paper's evaluate.py counts it as not following
            verdicts.append([False, type(error).__name__])
    print(json.dumps({"verdicts": verdicts, "tests": run_expectations(originals / "tests" / "test_checkers.py")}))


# ---- candidates -----------------------------------------------------------------------------------

GREEK = dict(zip("abcdefghijklmnopqrstuvwxyz", "αβψδεφγηιξκλμνοπ;ρστθωςχυζ"))
CYRILLIC = dict(zip("abcdefghijklmnopqrstuvwxyz", "абцдефгхийклмнопярстуввхыз"))
EDGE = ["", " ", "word", "snake_case", "day’s end", "STOP—NOW please", "COVID_19 and NATO", "Really?! Yes.",
        "Wait... Now!", "Dr. Smith came. He left.", "Pi is 3.14 today. Right…", "e.g. this one", "A. B. C.",
        "Hello.\nP.S. see you", "P. P. S. more", "''", '""', "' '", "'hi'", '"hi"', "“hi”", "'hi' there", "\"", "42",
        '"text"', "[1, 2]", "null", "NaN", '{"a": NaN}', "{'a': 1}", '{"a": 1', '{"a": 1}', '```json\n{"a": 1}\n```',
        "```\n[1]\n```", "['a', 'b']", "['a', 1]", "('a',)", '```python\n["x"]\n```', "[]", "[" * 1200,
        "*one* and **two**", "* item\n* item", "** ** *x*", "**a\nb**", "*a * b*", "[name] at [address]", "[] [ ]",
        "[a\nb] [c]", "<<My Trip>> and more", "<<>>", "<< >>", "<<a\nb>>", "<<>> x <<>>", "<title>", ",,,",
        "a，b，c，d", "one     two", "one     two ", "one\ttwo", "one     two\nthree", "İi", "Ééé e",
        "Привет, мир! 2024", "Привеt", "ёж_ёж", "Καλημέρα κόσμε.", "ᾅδης", "Мир ٣", "123 ...", "йод\u0301"]


def candidates(data: dict) -> list[str]:
    """Argument strings for one data file: its queries, rewrites of the first into the file's
    format (and near misses), and the edge cases."""
    queries = [q for q in data["user_queries"] if isinstance(q, str)]
    first = queries[0]
    words = first.split()
    args = data["format"].get("args") or {}
    n = args.get("N", 5) if isinstance(args.get("N"), int) else 5
    found = list(queries)
    found += [first.upper(), first.lower(), " ".join(words[:n]), (" " * n).join(words[:n]),
              (" " * n).join(words[:3]) + " ", (" " * n).join(w.strip(".,") for w in words[:4]),
              "".join(CYRILLIC.get(c, c) for c in first.lower()), "".join(GREEK.get(c, c) for c in first.lower()),
              json.dumps({"note": first}), f"```json\n{json.dumps({'note': first})}\n```", repr(words[:n]),
              f"'{first}'", f'"{first}"', f"**{words[0]}** {first} *{words[-1]}*", f"[{words[0]}] {first} [x]",
              f"<<{words[0]}>> {first}", first.replace(".", "?!"), first.replace(",", ""),
              ", ".join(words[:n + 1]), " ".join(w.upper() for w in words[:n]) + " " + " ".join(words[n:])]
    keywords = args.get("list_of_keywords") or ([args["keyword"]] if "keyword" in args else [])
    if keywords:
        found += [" ".join(keywords), " ".join(k.upper() + "!" for k in keywords) * n, "_".join(keywords),
                  " ".join(k + "s" for k in keywords), first + " " + " ".join(f"{k}’s" for k in keywords)]
    if "letter" in args:
        found += [args["letter"] * n, args["letter"].upper() * (n + 1), first[: 3 * n]]
    return found + EDGE


# ---- ifforge's side -------------------------------------------------------------------------------


def load_files(originals: Path, data: Path | None = None) -> list[tuple[str, dict]]:
    return [(path.stem, json.loads(path.read_text())) for path in sorted((data or originals / "data").glob("*.json"))]


def paper_shim(mode: str) -> types.ModuleType:
    """An `IFEval_FC.checkers` whose checker classes judge with our rules in `mode`."""
    from ifforge.families.ifeval_fc import paper, paper_rules

    module = types.ModuleType("IFEval_FC.checkers")
    for name, (rule_id, _) in paper.CHECKERS.items():
        def check_following(self, value, rule_id=rule_id, name=name):
            return paper_rules.rule(mode, rule_id, paper.our_args(name, self.arguments)).check(value)

        setattr(module, name, type(name, (), {"arguments": {}, "check_following": check_following}))
    return module


def our_tests(originals: Path, mode: str) -> dict[str, bool]:
    package = types.ModuleType("IFEval_FC")
    package.checkers = paper_shim(mode)
    saved = {key: sys.modules.get(key) for key in ("IFEval_FC", "IFEval_FC.checkers")}
    sys.modules.update({"IFEval_FC": package, "IFEval_FC.checkers": package.checkers})
    try:
        return run_expectations(originals / "tests" / "test_checkers.py")
    finally:
        for key, module in saved.items():
            if module is None:
                sys.modules.pop(key, None)
            else:
                sys.modules[key] = module


def checker_agreement(originals: Path, python: str, work: Path) -> dict[str, bool]:
    from ifforge.families.ifeval_fc import paper, paper_rules

    jobs, rule_of = [], []
    for _, data in load_files(originals):
        checker, args = data["format"]["name"], data["format"].get("args") or {}
        for value in candidates(data):
            jobs.append([checker, args, value])
            rule_of.append((checker, paper.CHECKERS[checker][0], paper.our_args(checker, args)))
    job = work / "job.json"
    job.write_text(json.dumps(jobs))
    done = subprocess.run([python, __file__, str(originals), "--paper-side", str(job)], capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"the paper's side failed:\n{done.stderr[-3000:]}")
    theirs = json.loads(done.stdout)
    table: dict[str, Counter] = defaultdict(Counter)
    examples: dict[str, list] = defaultdict(list)
    for (checker, rule_id, args), (_, _, value), (verdict, _) in zip(rule_of, jobs, theirs["verdicts"]):
        for mode in ("ifforge", "paper"):
            ours = paper_rules.rule(mode, rule_id, args).check(value)
            table[checker][mode] += ours == verdict
            if mode == "paper" and ours != verdict and len(examples[checker]) < 3:
                examples[checker].append((value[:60], verdict, ours))
        table[checker]["n"] += 1
    print(f"## 1. Checkers: {len(jobs):,} candidate argument strings from {len(load_files(originals))} data files\n")
    print(f"| {'paper checker':<32} | cases | ifforge rules | paper rules |\n|---|---|---|---|")
    total = Counter()
    for checker in sorted(table):
        row = table[checker]
        total.update(row)
        print(f"| {checker:<32} | {row['n']:5} | {row['ifforge'] / row['n']:13.1%} | {row['paper'] / row['n']:11.1%} |")
    print(f"| {'all':<32} | {total['n']:5} | {total['ifforge'] / total['n']:13.1%} | {total['paper'] / total['n']:11.1%} |")
    for checker, cases in examples.items():
        print(f"  paper-mode disagreement, {checker}: {cases}")
    return theirs["tests"]


def test_agreement(originals: Path, theirs: dict[str, bool]) -> None:
    print("\n## 2. The paper's own test expectations (tests/test_checkers.py, one per assert)\n")
    print(f"- met by the paper's code: {sum(theirs.values())} of {len(theirs)}")
    for mode in ("paper", "ifforge"):
        ours = our_tests(originals, mode)
        missed = sorted(key for key, met in ours.items() if not met)
        same = sum(ours.get(key) == met for key, met in theirs.items())
        print(f"- met by ifforge's {mode} rules: {sum(ours.values())} of {len(ours)} (same verdict as the paper's code "
              f"on {same}){'; missed: ' + ', '.join(missed[:12]) + (' ...' if len(missed) > 12 else '') if missed else ''}")


# ---- end to end -----------------------------------------------------------------------------------

SHAPES = ("right", "right", "right", "right", "no_call", "missing", "number", "bad_json", "other_name", "two_calls",
          "empty_args", "newline")  # and, one reply in 40, JSON that is not an object (the paper's client fails the batch)


def scripted_reply(query: str, files: dict[str, list[tuple[dict, list[str]]]]):
    """The one answer both evaluators get for `query`: a call shape and a candidate value chosen by
    a hash of the query (the same query, the same answer, whoever asks)."""
    from ifforge.testing.openai_stub import Answer

    digest = int(hashlib.sha256(query.encode()).hexdigest(), 16)
    data, pool = files[query][0]
    name, parameter = data["fn_schema"]["name"], data["chosen_param"]
    value = pool[digest // 7 % len(pool)]
    shape = "unreadable" if digest % 40 == 0 else SHAPES[digest % len(SHAPES)]

    def call(arguments, function=name):
        return {"name": function, "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments)}

    calls = {"right": [call({parameter: value})], "no_call": [], "missing": [call({"other": value})],
             "number": [call({parameter: 42})], "bad_json": [call('{"%s": "%s' % (parameter, value[:20]))],
             "other_name": [call({parameter: value}, "some_other_tool")],
             "two_calls": [call({parameter: value}), call({parameter: pool[0]})], "empty_args": [call("")],
             "newline": [call('{"%s": "%s\nsecond line"}' % (parameter, value[:20].replace('"', "").replace("\\", "")))],
             "unreadable": [call('"%s"' % value[:20].replace('"', "").replace("\\", ""))]}[shape]
    return Answer(content=None if calls else "Which details would you like?", tool_calls=calls or None)


def our_bank_in_paper_layout(work: Path) -> tuple[Path, list[dict]]:
    """ifforge's default offline benchmark (the bank, seed 0), exported in the paper's layout."""
    from ifforge.exports import export
    from ifforge.exports.benchmark import read_benchmark
    from ifforge.families.ifeval_fc import functions
    from ifforge.families.ifeval_fc.family import assign, enabled_rules, row_of
    from ifforge.families.ifeval_fc.settings import IfevalFcSettings

    settings = IfevalFcSettings(family="ifeval-fc", llm="none")
    config = functions.CheckConfig(queries=settings.queries_per_function, rules=enabled_rules(settings))
    cases, _, _ = assign([functions.check(f, config).kept for f in functions.from_bank()], settings)
    rows = [row_of(case, settings) for case in cases]
    source = work / "bank.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows))
    export(read_benchmark(source), "ifeval-fc", work / "bank_layout")
    return work / "bank_layout", rows


def end_to_end(originals: Path, python: str, work: Path, data_dir: Path | None = None,
               our_rows: list[dict] | None = None) -> None:
    from ifforge.eval.evaluation import EvalSettings
    from ifforge.families.ifeval_fc import paper
    from ifforge.families.ifeval_fc.family import FAMILY
    from ifforge.testing.openai_stub import StubServer

    files: dict[str, list] = defaultdict(list)
    for _, data in load_files(originals, data_dir):
        for query in data["user_queries"]:
            files[query].append((data, candidates(data)))

    def handler(request):
        query = next(m["content"] for m in request["messages"] if m["role"] == "user")
        return scripted_reply(query, files)

    rows = our_rows or paper.convert(originals / "data")
    label = "ifforge's bank exported in the paper's layout" if our_rows else "the paper's 150 data files"
    with StubServer(handler) as server:
        env = {"OPENAI_API_KEY": "stub", "OPENAI_BASE_URL": server.url, "OPENAI_MAX_RETRIES": "0",
               "PATH": "/usr/bin:/bin", "HOME": str(work)}
        out = work / "paper_results.json"
        done = subprocess.run([python, "evaluate.py", "--data-dir", str(data_dir or "data"), "--provider", "openai", "--model", "stub",
                               "--output", str(out)], cwd=originals, env=env, capture_output=True, text=True)
        if done.returncode or not out.exists():
            sys.exit(f"the paper's evaluate.py failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        summaries, frames = {}, {}
        for mode in ("ifforge", "paper"):
            settings = EvalSettings(model="stub", base_url=server.url, api_key="stub", rules=mode, llm_concurrency=8,
                                    llm_max_retries=0)
            folder = work / f"ours_{mode}_{len(rows)}_{bool(our_rows)}"
            summaries[mode] = FAMILY.evaluate(rows, settings, work / f"cache_{bool(our_rows)}.sqlite", folder,
                                              mode)["overall"]
            import pandas as pd

            frames[mode] = pd.read_parquet(folder / "scores.parquet").set_index("task_id")
    theirs = json.loads(out.read_text())
    by_key = {(r["expected_function"], r["chosen_param"], r["format_name"], r["query_id"]): r
              for r in theirs["detailed_results"]}
    agree = Counter()
    disagreements = []
    for row in rows:
        checker = paper.CHECKER_OF[row["rule_id"]]
        result = by_key[(row["function_name"], row["parameter"], checker, row["query_index"])]
        paper_says = (result["function_called"], result["parameter_provided"], result["format_correct"])
        for mode in ("ifforge", "paper"):
            line = frames[mode].loc[row["task_id"]]
            ours = (bool(line["called"]), bool(line["provided"]), bool(line["correct"]))
            agree[mode] += ours == paper_says
            agree[f"{mode}_score"] += ours[2] == paper_says[2]
            if mode == "paper" and ours != paper_says and len(disagreements) < 5:
                disagreements.append((row["task_id"], line["reason"], paper_says, ours))
    n = len(rows)
    print(f"\n## {4 if our_rows else 3}. End to end, {label}: {n} cases, the same scripted tool calls for both\n")
    print("| scorer | called | provided | format right (score) | same verdicts as the paper's evaluate.py |")
    print("|---|---|---|---|---|")
    print(f"| the paper's evaluate.py | {theirs['function_called_rate']:.1%} | {theirs['parameter_provided_rate']:.1%} "
          f"| {theirs['format_correct_rate']:.1%} | - |")
    for mode in ("ifforge", "paper"):
        s = summaries[mode]
        print(f"| ifforge evaluate, {mode} rules | {s['called_rate']:.1%} | {s['provided_rate']:.1%} "
              f"| {s['format_right_rate']:.1%} | {agree[mode] / n:.1%} all three, {agree[mode + '_score'] / n:.1%} the "
              "score |")
    print(f"\nreasons, paper rules: {summaries['paper'].get('reasons')}")
    print(f"reasons, ifforge rules: {summaries['ifforge'].get('reasons')}")
    for case in disagreements:
        print(f"  paper-mode disagreement: {case}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("originals", type=Path, help="a fetched copy of the IFEval-FC repository")
    parser.add_argument("--paper-python", default=sys.executable, help="a Python with the paper's dependencies")
    parser.add_argument("--paper-side", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--no-end-to-end", action="store_true", help="skip part 3 (the paper's evaluate.py)")
    args = parser.parse_args()
    if args.paper_side:
        return paper_side(args.originals, args.paper_side)
    with tempfile.TemporaryDirectory() as folder:
        theirs = checker_agreement(args.originals.resolve(), args.paper_python, Path(folder))
        test_agreement(args.originals.resolve(), theirs)
        if not args.no_end_to_end:
            end_to_end(args.originals.resolve(), args.paper_python, Path(folder))
            layout, rows = our_bank_in_paper_layout(Path(folder))
            end_to_end(args.originals.resolve(), args.paper_python, Path(folder), layout, rows)


if __name__ == "__main__":
    main()
