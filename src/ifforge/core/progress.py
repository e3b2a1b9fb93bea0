"""Progress of a stage: a bar on an interactive terminal (rich); off a terminal (a log file, a CI
job, a deployment's worker), a plain line now and then, so a long stage is never silent."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

_lock = threading.Lock()
EVERY_SECONDS = 10.0  # off a terminal, at most one line this often
EVERY_SHARE = 20  # ... and at most one every 1/20 of the items (whichever is rarer)


class ProgressLines:
    """Lines such as `evaluate: 120 of 396 (30%), 42 s` written as items finish: a line when both
    `every_items` items and `every_seconds` seconds have passed since the last one (so neither a
    fast stage nor a slow one floods the log), and a last line at the end when any was written."""

    def __init__(self, stage: str, total: int, write: Callable[[str], None], every_seconds: float = EVERY_SECONDS,
                 every_items: int | None = None, clock: Callable[[], float] = time.monotonic):
        self.stage, self.total, self.write, self.clock = stage, total, write, clock
        self.every_seconds, self.every_items = every_seconds, every_items or max(1, total // EVERY_SHARE)
        self.started = self.last_time = clock()
        self.done = self.last_done = self.lines = 0
        self._lock = threading.Lock()

    def _line(self, now: float) -> None:
        self.write(f"{self.stage}: {self.done} of {self.total} ({self.done / self.total:.0%}), "
                   f"{now - self.started:.0f} s")
        self.last_time, self.last_done, self.lines = now, self.done, self.lines + 1

    def advance(self) -> None:
        with self._lock:
            self.done += 1
            now = self.clock()
            if self.done - self.last_done >= self.every_items and now - self.last_time >= self.every_seconds:
                self._line(now)

    def close(self) -> None:
        with self._lock:
            if self.lines and self.last_done < self.done:
                self._line(self.clock())


def _to_stderr(line: str) -> None:
    """Written, not printed: in a Prefect run, `print` goes to the run's logger from its own thread
    and to stderr from the stage's threads, and the lines must all go one way."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def off_terminal(stage: str, total: int, enabled: bool = True) -> ProgressLines | None:
    """`ProgressLines` on stderr, when enabled, with items to count, and stderr is no terminal."""
    if not enabled or total == 0 or sys.stderr.isatty():
        return None
    return ProgressLines(stage, total, _to_stderr, EVERY_SECONDS)


@contextmanager
def stage_bar(stage: str, total: int, enabled: bool = True) -> Iterator[Callable[[], None]]:
    """Yield a thread-safe `advance()`: a bar on an interactive terminal, `ProgressLines` on stderr
    off one; nothing when disabled."""
    if not enabled or total == 0:
        yield lambda: None
        return
    lines = off_terminal(stage, total)
    if lines is not None:
        yield lines.advance
        lines.close()
        return
    progress = Progress(TextColumn(f"{stage:<11}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        transient=False)
    task = progress.add_task(stage, total=total)

    def advance() -> None:
        with _lock:
            progress.advance(task)

    with progress:
        yield advance
        progress.update(task, completed=total)
