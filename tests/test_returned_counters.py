"""A tracker that equals a number the function already returns is not added: it asks the same twice."""

from ifforge.families.logicif.codeops.instrument.trackers import returned_counters
from ifforge.families.logicif.configs import TrackerConfig, from_settings
from ifforge.families.logicif.records import SeedFunction, TestInput
from ifforge.families.logicif.settings import LogicIFSettings
from ifforge.families.logicif.stages import instrument

OWN_COUNTERS = '''
def f(items):
    total = 0
    odd = 0
    for item in items:
        if item % 2:
            odd += 1
            total += item * 2
        elif item > 5:
            total -= 1
    return total, {"odd": odd}
'''


def test_the_numbers_an_output_holds_are_found_by_where_they_sit():
    assert returned_counters([3, {"calls": 2, "ok": True, "name": "x"}]) == {(1, "calls"): 2}
    assert returned_counters({"depth": 4, "rows": {"kept": 1}}) == {("depth",): 4, ("rows", "kept"): 1}
    assert returned_counters([{"a": {"b": 1}}]) == {}  # two levels deep, no more
    assert returned_counters(7) == returned_counters([7, 2]) == {}  # the answer itself is no counter


def test_a_branch_counter_equal_to_the_functions_own_counter_is_not_added():
    cases = [[[1, 2, 3, 8]], [[4, 6, 8]], [[5, 7, 6]], [[2, 2, 2, 9]], [[]], [[1, 3, 5, 7, 9, 6, 8]]]
    seed = SeedFunction(task_id="own", source=OWN_COUNTERS, entry="f", origin="own.py",
                        inputs=[TestInput(args=a) for a in cases])
    outcome = instrument.run(seed, from_settings(TrackerConfig, LogicIFSettings()))
    assert outcome.kept is not None, outcome.dropped
    runs = instrument.sandbox.run_cases(outcome.kept.instrumented_source, "f", cases, tracked=True)
    for tracker in outcome.kept.trackers:  # none is the function's own "odd" on every case
        assert any(r.stats[tracker.name] != r.output[1]["odd"] for r in runs)
    assert outcome.kept.trackers
