import json
import random
from types import SimpleNamespace

import pandas as pd
from conftest import PROJECT, needs_fixture

from ifforge.cli import main
from ifforge.families.logicif.codeops.metrics.complexity_metrics import logicif_metrics, measure
from ifforge.families.logicif import difficulty
from ifforge.families.logicif.difficulty import difficulty_tiers


def test_reproduces_logicifeval_complexity_metrics_exactly():
    tasks = [json.loads(line) for line in needs_fixture("tasks.jsonl").read_text().splitlines()]
    assert len(tasks) == 26
    for task in tasks:
        assert logicif_metrics(task["function"]) == task["complexity_metrics"], task["task_id"]


def test_counting_rules_on_a_hand_checked_function():
    source = '''
def f(a):
    def g(x):
        if x:
            return 1
        return 0
    total = 0
    for i in range(a):
        if i % 2 and i > 3:
            total += g(i)
        elif i == 2:
            try:
                total += 1 // 0
            except ZeroDivisionError:
                total -= 1
            except ValueError:
                pass
    while total > 100:
        total -= 1
    return [j for j in range(3) if j]
'''
    metrics = logicif_metrics(source)
    # ifs: 3 (if, elif, nested if) + for + while + 2 handlers; no BoolOp, no comprehension
    assert metrics["cyclomatic_complexity"] == 1 + 3 + 1 + 1 + 2
    assert metrics["total_control_structures"] == 3 + 1 + 1 + 1
    # for > if > elif(if) > try: depth 4; g restarts at 0 and only reaches 1
    assert metrics["max_nesting_depth"] == 4
    assert metrics["function_calls"] == 3  # g(i), range(a), range(3)
    lines = (source.strip().count("\n") + 1) + 4  # f spans the whole snippet, g spans 4 lines
    assert metrics["total_function_lines"] == lines
    expected = round(8 + 4 * 3 + 3 * 2 + (lines / 2) * 0.5, 2)
    assert metrics["code_complexity_score"] == expected


def test_radon_extras_are_reported():
    metrics = measure("def f(a):\n    if a:\n        return 1\n    return 2\n")
    assert metrics.radon_cyclomatic_complexity == 2
    assert 0 < metrics.radon_maintainability_index <= 100
    assert metrics.radon_halstead_volume >= 0


def test_tiers_are_terciles_and_ties_share_a_tier():
    scores = {f"t{i}": float(i) for i in range(9)}
    tiers = difficulty_tiers(scores)
    assert [tiers[f"t{i}"] for i in range(9)] == ["easy"] * 3 + ["medium"] * 3 + ["hard"] * 3
    tied = difficulty_tiers({"a": 1.0, "b": 1.0, "c": 1.0, "d": 5.0})
    assert tied["a"] == tied["b"] == tied["c"]


def test_complexity_command_prints_one_json_line_per_function(capsys):
    path = needs_fixture("tasks.jsonl")
    assert main(["complexity", str(path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    expected = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == len(expected)
    for got, task in zip(lines, expected):
        assert {k: got[k] for k in task["complexity_metrics"]} == task["complexity_metrics"]

    seed = PROJECT / "seeds" / "logicif" / "bank_ledger.py"
    assert main(["complexity", str(seed)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert "bank_ledger" in [row["function"] for row in rows]


def test_complexity_command_names_the_bad_line(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"task_id": "x", "function": "def f(a):\\n    return a\\n"}\nnot json\n')
    assert main(["complexity", str(bad)]) == 1
    captured = capsys.readouterr()
    assert f"{bad}:2" in captured.err
    assert len(captured.out.splitlines()) == 1


def test_measuring_from_many_threads_at_once_is_safe():
    """CPython 3.11 can raise 'AST constructor recursion depth mismatch' when threads parse at once;
    every parse goes through one lock, so this stress run must finish without an error."""
    from concurrent.futures import ThreadPoolExecutor

    sources = [path.read_text() for path in sorted((PROJECT / "seeds" / "logicif").glob("*.py"))] * 5
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(measure, sources))
    assert len(results) == len(sources) and all(r.cyclomatic_complexity >= 1 for r in results)


def _measured(task_id, static, steps):
    """Just what the tier rules read of a measured function."""
    cases = [SimpleNamespace(steps=s) for s in steps]
    return SimpleNamespace(task_id=task_id, complexity=SimpleNamespace(code_complexity_score=static),
                           executed=SimpleNamespace(cases=cases))


def test_the_tier_rule_ranks_by_static_score_executed_lines_or_both():
    # static order a < b < c; executed order c < b < a (a short function with a long loop)
    items = [_measured("a", 1.0, [900, 1100]), _measured("b", 5.0, [50, 70]), _measured("c", 9.0, [3, 5])]
    assert difficulty.tiers(items, "static") == {"a": "easy", "b": "medium", "c": "hard"}
    assert difficulty.tiers(items, "executed") == {"a": "hard", "b": "medium", "c": "easy"}
    assert difficulty.tier_scores(items, "combined") == {"a": 0.5, "b": 0.5, "c": 0.5}
    assert difficulty.executed_steps(items[0]) == 1000
    uncounted = [*items, _measured("d", 20.0, [None])]  # no steps: it keeps its static rank
    assert difficulty.tier_scores(uncounted, "executed")["d"] == 1.0  # the top static rank


def test_spearman_agrees_with_pandas():
    generator = random.Random(3)
    first = {f"t{i}": generator.choice([1.0, 2.0, 3.5, 7.0]) for i in range(40)}
    second = {key: value * generator.uniform(0.5, 2) + generator.choice([0, 0, 5]) for key, value in first.items()}
    expected = pd.Series(first).corr(pd.Series(second), method="spearman")
    assert difficulty.spearman(first, second) == round(expected, 3)
    assert difficulty.spearman({"a": 1, "b": 2}, {"a": 1, "b": None}) is None


def test_mini_membership_depends_only_on_the_task_itself():
    ids = [f"task_{i}" for i in range(2000)]
    chosen = {task_id for task_id in ids if difficulty.in_mini(task_id, 0.25, seed=0)}
    assert 0.22 < len(chosen) / len(ids) < 0.28
    more = ids + [f"new_{i}" for i in range(500)]  # new seeds arrive: nobody already there moves
    assert {task_id for task_id in more[:2000] if difficulty.in_mini(task_id, 0.25, seed=0)} == chosen
    assert {task_id for task_id in ids if difficulty.in_mini(task_id, 0.25, seed=1)} != chosen
