"""No long silence: progress lines off a terminal, side work that says it is still working, the dry
run's tokens from the rows that count them, and LIFBench's stability as a readable line."""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor

from ifforge.core import progress
from ifforge.core.progress import ProgressLines, stage_bar
from ifforge.eval.evaluation import EvalSettings, dry_run
from ifforge.families import get_family
from ifforge.families.lifbench.scoring import REPORT
from ifforge.generation.run import waited_for


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_lines_come_no_more_often_than_every_n_items_and_every_n_seconds():
    clock, written = Clock(), []
    lines = ProgressLines("evaluate", 100, written.append, every_seconds=10, clock=clock)  # every 5 items
    for second in range(1, 61):  # an item a second for a minute: every 10 s wins
        clock.now = second
        lines.advance()
    assert written == [f"evaluate: {n} of 100 ({n}%), {n} s" for n in (10, 20, 30, 40, 50, 60)]
    for _ in range(40):  # forty items at once: every 5 items would be 8 lines; no 10 s passed, none
        lines.advance()
    assert len(written) == 6
    clock.now = 61
    lines.close()  # the end is said when anything was
    assert written[-1] == "evaluate: 100 of 100 (100%), 61 s"

    quiet = []
    fast = ProgressLines("build", 32, quiet.append, every_seconds=10, clock=clock)
    for _ in range(32):
        fast.advance()
    fast.close()
    assert quiet == []  # a stage over within 10 s adds nothing to its own log line


def test_off_a_terminal_the_stage_writes_plain_lines_to_stderr(monkeypatch, capsys):
    monkeypatch.setattr(progress, "EVERY_SECONDS", 0.0)
    with stage_bar("evaluate", 3) as advance:
        for _ in range(3):
            advance()
    err = capsys.readouterr().err.splitlines()
    assert [line.rsplit(",", 1)[0] for line in err] == ["evaluate: 1 of 3 (33%)", "evaluate: 2 of 3 (67%)",
                                                        "evaluate: 3 of 3 (100%)"]
    with stage_bar("evaluate", 3, enabled=False) as advance:  # --no-progress
        advance()
    assert capsys.readouterr().err == ""


def test_side_work_says_it_is_still_working_while_the_run_waits(caplog):
    log = logging.getLogger("ifforge.test.side")
    with ThreadPoolExecutor(1) as pool, caplog.at_level(logging.INFO, logger=log.name):
        future = pool.submit(lambda: time.sleep(0.35) or "chosen")
        assert waited_for(future, "expressions", log, every=0.1) == "chosen"
    said = [record.getMessage() for record in caplog.records]
    assert len(said) >= 2 and all(line.startswith("expressions: still working beside the stages (") for line in said)


def test_the_dry_run_takes_the_tokens_a_row_counts():
    lifbench = get_family("lifbench")
    rows = [{"family": "lifbench", "task_id": f"t{i}", "prompt": "word " * 80} for i in range(3)]  # 400 characters
    rows[0]["prompt_tokens"], rows[1]["prompt_tokens"] = 150, 90
    assert [lifbench.request_tokens(row) for row in rows] == [150, 90, None]
    assert get_family("pacific").request_tokens(rows[0]) is None  # a family that counts nothing: the estimate
    estimate = dry_run(rows, EvalSettings(model="m"), None)
    assert estimate["prompt_tokens_estimate"] == 150 + 90 + 400 // 4 and estimate["rows_with_counted_tokens"] == 2


def test_lifbenchs_stability_is_a_line_not_a_dict():
    summary = {"overall": {"ars": 0.5, "full_points_shown": "40.0% (2/5)"},
               "stability": {"expression": {"ifs": 0.12345}, "variables": None, "length": {"ifs": None}}}
    assert REPORT.headline_extra(summary) == "IFS (lower is steadier): expression 0.123, variables n/a, length n/a"
    assert "{" not in REPORT.headline(summary) and REPORT.headline(summary).endswith(REPORT.headline_extra(summary))


def test_replies_before_the_flow_takes_over_count_as_progress(capsys):
    """`ifforge evaluate` asks while Prefect starts: off a terminal, those replies write lines too."""
    from ifforge.core.progress import off_terminal
    from ifforge.eval.asking import EarlyAsking
    from ifforge.families.base import Family
    from ifforge.testing.openai_stub import Answer, StubServer

    assert off_terminal("evaluate", 3, enabled=False) is None and off_terminal("evaluate", 0) is None
    assert isinstance(off_terminal("evaluate", 3), ProgressLines)  # pytest's stderr is no terminal
    rows = [{"task_id": f"t{i}", "prompt": f"say {i}"} for i in range(3)]
    seen, later = [], []
    with StubServer(lambda request: Answer(content="said")) as server:
        settings = EvalSettings(model="m", base_url=server.url, api_key="x", no_cache=True)
        early = EarlyAsking("run", rows, settings, None, Family(), before=lambda: seen.append(1))
        assert [r["response"] for r in early.results.result(timeout=30)] == ["said"] * 3
        asker, _ = early.take(lambda: later.append(1))  # the flow's progress gets the replies so far
        asker.hub.close()
    assert len(seen) == 3 and len(later) == 3
