"""A progress bar per stage on a terminal (rich); silent when output is not a terminal."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

_lock = threading.Lock()


@contextmanager
def stage_bar(stage: str, total: int, enabled: bool = True) -> Iterator[Callable[[], None]]:
    """Yield a thread-safe `advance()`; draws a bar only on an interactive terminal."""
    if not enabled or not sys.stderr.isatty() or total == 0:
        yield lambda: None
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
