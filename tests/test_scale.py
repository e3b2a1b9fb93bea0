"""What keeps a large run's cost and memory flat: the window of shards in flight (events counted, no clocks)."""

from ifforge.factory import in_window


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
