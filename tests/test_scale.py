"""What keeps a large run's cost and memory flat: the window of shards in flight (events counted, no clocks)."""

import pytest

from ifforge.generation.shards import in_window


def _trace(count: int, window: int) -> list[tuple[str, int]]:
    events: list[tuple[str, int]] = []
    in_window(count, window, lambda i: events.append(("start", i)) or f"job {i}",
              lambda i, job: events.append(("finish", i)) if job == f"job {i}" else None)
    return events


def test_at_most_window_shards_are_started_and_not_finished_and_all_finish_in_order():
    events = _trace(10, 3)
    open_at_most, started = 0, set()
    for kind, index in events:
        started.add(index) if kind == "start" else started.discard(index)
        open_at_most = max(open_at_most, len(started))
    assert open_at_most == 3
    assert [i for kind, i in events if kind == "finish"] == list(range(10))
    assert [i for kind, i in events if kind == "start"] == list(range(10))
    assert events.index(("start", 3)) > events.index(("finish", 0))  # the fourth waits for the first


def test_a_window_of_one_alternates_and_a_wide_window_starts_everything_first():
    assert _trace(3, 1) == [("start", 0), ("finish", 0), ("start", 1), ("finish", 1), ("start", 2), ("finish", 2)]
    assert [kind for kind, _ in _trace(3, 8)] == ["start"] * 3 + ["finish"] * 3
    assert _trace(0, 4) == []


def test_shards_of_a_chain_that_asks_a_model_hold_one_round_of_its_requests():
    from ifforge.generation.shards import SHARD_SIZE, shard_size
    from ifforge.families import get_family, load_family_settings

    def chain(**given):
        settings = load_family_settings({"family": "logicif", "dedup": False, **given})
        return settings, [step for step in get_family("logicif").plan(settings) if hasattr(step, "uses_llm")]

    offline, stages = chain()
    assert not any(stage.uses_llm for stage in stages) and shard_size(offline, stages) == SHARD_SIZE
    asking, stages = chain(base_url="http://127.0.0.1:9/v1", model="m", llm_concurrency=5)
    assert any(stage.uses_llm for stage in stages) and shard_size(asking, stages) == 5
    given, stages = chain(base_url="http://127.0.0.1:9/v1", model="m", llm_concurrency=5, shard_size=12)
    assert shard_size(given, stages) == 12  # the setting, when given, wins
    batched, stages = chain(base_url="http://127.0.0.1:9/v1", model="m", llm_concurrency=5, llm_batch=True)
    assert shard_size(batched, stages) == SHARD_SIZE  # a batch is a shard's requests: the ceiling does not bound it


def _finished(tmp_path, names=("printer_queue", "bus_route_load")):
    """Two project seeds and a finished version of them, as a run would leave it (no flow run)."""
    import shutil

    from ifforge.core.store.versions import VersionStore
    from ifforge.generation.artifacts import fingerprint
    from ifforge.families import get_family, load_family_settings
    from ifforge.families.logicif.family import DEFAULT_SEEDS

    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for name in names:
        shutil.copy(DEFAULT_SEEDS / f"{name}.py", seeds)
    settings = load_family_settings({"seeds": str(seeds), "out": str(tmp_path / "out")}, None)
    family = get_family("logicif")
    store = VersionStore(settings.benchmark_root,
                         fingerprint(family, family.load(settings).items, settings, family.plan(settings)))
    store.write("benchmark.jsonl", "")
    store.write_manifest({"export": {"tasks": 0, "rows": 0}, "stages": {"load": {"in": 2, "out": 2}}})
    return family, settings, seeds, store


def unchanged_version(family, settings):
    from ifforge.generation.run import GenerateRun

    run = GenerateRun(settings)
    assert run.family is family
    return run.finished()


def test_an_unchanged_run_is_found_without_writing_and_a_changed_seed_is_not(tmp_path):
    family, settings, seeds, store = _finished(tmp_path)
    assert unchanged_version(family, settings) == store.path
    (seeds / "printer_queue.py").write_text((seeds / "printer_queue.py").read_text() + "# input: [[], 2]\n")
    versions = sorted(p.name for p in settings.benchmark_root.iterdir())
    assert unchanged_version(family, settings) is None
    assert sorted(p.name for p in settings.benchmark_root.iterdir()) == versions  # nothing written
    (store.path / "benchmark.jsonl").write_text("edited\n")
    (seeds / "printer_queue.py").write_text((seeds / "printer_queue.py").read_text().rsplit("# input: [[], 2]", 1)[0])
    assert unchanged_version(family, settings) is None  # a finished version whose files changed is rewritten


def test_without_a_server_the_cli_returns_an_unchanged_version_without_starting_a_flow(tmp_path, monkeypatch, capsys):
    import ifforge.core.prefect.env as prefect_env
    import ifforge.flows.generate as flow_module
    from ifforge.cli import main

    family, settings, seeds, store = _finished(tmp_path)
    monkeypatch.setattr(prefect_env, "reporting_server", lambda: None)
    monkeypatch.setattr(flow_module, "generate", lambda **parameters: pytest.fail("a flow was started"))
    assert main(["generate", "--seeds", str(seeds), "--out", str(tmp_path / "out"), "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == str(store.path)
    assert f"nothing changed since {store.path.name}" in err
    monkeypatch.setattr(type(family), "warm_up", lambda self, settings: None)  # no model load in a test
    monkeypatch.setattr(prefect_env, "reporting_server", lambda: "http://127.0.0.1:9/api")  # a server is up
    with pytest.raises(pytest.fail.Exception, match="a flow was started"):
        main(["generate", "--seeds", str(seeds), "--out", str(tmp_path / "out"), "--no-progress"])


def test_the_original_runs_shared_and_only_cases_it_would_drop_are_run_again_alone(monkeypatch):
    """Execute's cheaper isolation: the original's pass shares one process; a case where it fails or
    disagrees with the gold is asked again alone, so no drop rests on a shared run."""
    from ifforge.core.sandbox import execution as sandbox
    from ifforge.families.logicif.configs import ExecuteConfig, from_settings
    from ifforge.families.logicif.records import InstrumentedFunction, TestInput, Tracker
    from ifforge.families.logicif.settings import LogicIFSettings
    from ifforge.families.logicif.stages import execute

    passes, originals = [], set()
    real = sandbox.run_cases

    def counted(code, entry, cases, **options):
        passes.append(("original" if code in originals else "f", options.get("alone", False), len(cases)))
        return real(code, entry, cases, **options)

    monkeypatch.setattr(execute.sandbox, "run_cases", counted)
    tracked = "def f(x):\n    stats = {'n': 1}\n    return (x, stats)\n"
    leaky = "from collections import Counter\ndef f(x):\n    later = hasattr(Counter, 'seen')\n" \
            "    Counter.seen = True\n    return x + 1000 if later else x\n"
    config = from_settings(ExecuteConfig, LogicIFSettings(min_cases=1))
    for original, again in ((tracked.replace(", stats)", ")"), 0), (leaky, 3)):
        passes.clear()
        originals.add(original)
        item = InstrumentedFunction(
            task_id="t", original_source=original, original_entry="f", anonymised_source=tracked,
            instrumented_source=tracked, renames={}, inputs=[TestInput(args=[n]) for n in (1, 2, 3, 4)],
            trackers=[Tracker(name="n", kind="loop_iterations", explanation="x")])
        outcome = execute.run(item, config)
        assert [case.output for case in outcome.kept.cases] == [1, 2, 3, 4]  # the shared run's +1000 is no drop
        assert passes[0] == ("original", False, 4)
        assert [p for p in passes if p[0] == "original" and p[1]] == [("original", True, 1)] * again
        assert ("f", False, 4) in passes  # gold of import-free code: one runner, fresh globals a case


# ---- kept items on disk, CPU-bound stages in worker processes ---------------------------------------
from pydantic import BaseModel  # noqa: E402


class Kept_(BaseModel):  # a record with text and floats that must survive the round trip
    task_id: str
    text: str
    numbers: list[float]


class _Seen(BaseModel):
    pid: int
    task_id: str


def _where(item: Kept_, config: "Kept_ | None" = None):
    """A stage function: the process it ran in; fails on purpose for task 'bad', and at the bottom
    of a long traceback for task 'deep'."""
    import os

    from ifforge.core.records import Outcome

    if item.task_id == "bad":
        raise ValueError("bad on purpose")
    if item.task_id == "nested":
        raise RecursionError("maximum recursion depth exceeded")
    if item.task_id.startswith("deep"):
        return _where(item.model_copy(update={"task_id": item.task_id + "p"})) if len(item.task_id) < 30 else \
            int("deep on purpose")
    return Outcome(kept=_Seen(pid=os.getpid(), task_id=item.task_id))


def test_kept_items_come_back_from_disk_equal_in_shard_order_by_index_and_by_iteration(tmp_path):
    from ifforge.core.store.on_disk import ItemsOnDisk

    records = [Kept_(task_id=f"t{i}", text="é\n\"x\"" * i, numbers=[0.1 * i, 1e-7, 2.0 ** 60]) for i in range(7)]
    kept = ItemsOnDisk(tmp_path / "kept", Kept_)
    kept.add_shard(0, records[:3])
    kept.add_shard(1, [])
    kept.add_shard(2, records[3:])
    assert len(kept) == 7
    assert list(kept) == records and list(kept) == records  # iterable again
    assert kept[4] == records[4] and kept[-1] == records[-1] and kept[1:3] == records[1:3]
    assert sorted(kept, key=lambda r: r.task_id, reverse=True)[0] == records[-1]


def test_a_stage_in_workers_runs_each_item_in_another_process_and_a_failure_stays_the_items(tmp_path):
    import os

    from ifforge.core.runner import Stage, run_items
    from ifforge.core.store.versions import ItemCache

    items = [Kept_(task_id=name, text="", numbers=[]) for name in ("a", "bad", "c", "deep", "nested")]
    stage = Stage("where", "1", _Seen, _where, in_workers=True, reads=_Seen)
    run = run_items(stage, items, ItemCache(tmp_path / "cache"))
    assert [o.kept.task_id if o.kept else None for o in run.outcomes] == ["a", None, "c", None, None]
    assert [o.dropped[0].reason for o in run.outcomes[1:5:2]] == ["stage_error", "stage_error"]
    nested = run.outcomes[4].dropped[0]  # the worker's RecursionError is the item's too deep code, as here
    assert nested.reason == "nested_too_deeply" and "maximum recursion depth" in nested.detail
    assert all(o.kept.pid != os.getpid() for o in run.outcomes if o.kept)
    assert "bad on purpose" in run.outcomes[1].dropped[0].detail
    deep = run.outcomes[3].dropped[0].detail  # a long worker traceback: its end, the error, is kept
    assert len(deep) <= 800 and deep.startswith("WorkerError") and "invalid literal for int()" in deep
    again = run_items(stage, items, ItemCache(tmp_path / "cache"))  # the kept ones from the cache, as computed
    assert [o.kept for o in again.outcomes] == [o.kept for o in run.outcomes] and again.computed == 3
    here = run_items(Stage("where", "1", _Seen, _where, reads=_Seen), [items[0], items[4]], ItemCache(tmp_path / "other"))
    assert here.outcomes[0].kept.pid == os.getpid()
    assert here.outcomes[1].dropped[0].reason == "nested_too_deeply"
