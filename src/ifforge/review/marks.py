"""Reviewers' marks: one file per reviewer, `<version>/reviews/<reviewer>.json`, checked when read.

Several people can review the same version and their files can be copied around; a file that is
not what the page writes is named, never guessed at. Several servers may serve one version at once
(one per reviewer, or a second one started by mistake): every read-modify-write of a reviewer file
holds an exclusive `flock` on the `reviews/` folder, so no server writes over a mark another one
acknowledged. The kernel drops the lock when its process dies: no lock file, nothing stale.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ifforge.core.store.versions import write_json

REVIEWS = "reviews"
VERDICTS = ("faithful", "not_faithful")
REVIEWER_PATTERN = re.compile(r"[A-Za-z0-9._-]{1,64}")
MAX_COMMENT = 5000

class ReviewError(ValueError):
    """Bad input from a reviewer; `field` names what to fix (sent back as HTTP 400)."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


def check_reviewer(name: Any) -> str:
    """Reviewer names become file names, so only a safe alphabet is allowed."""
    if not isinstance(name, str) or not name:
        raise ReviewError("reviewer", "reviewer: give your name")
    if not REVIEWER_PATTERN.fullmatch(name) or name.startswith("."):
        raise ReviewError("reviewer", "reviewer: use 1-64 of the characters A-Z a-z 0-9 . _ - "
                          "(not starting with '.')")
    return name


def _reviewer_path(version: Path, reviewer: str) -> Path:
    return Path(version) / REVIEWS / f"{check_reviewer(reviewer)}.json"


class ReviewFileError(ReviewError):
    """A reviewer file that is not what the page writes (hand-edited, truncated): named, never guessed at."""

    def __init__(self, path: Path, problem: str):
        super().__init__("file", f"{path}: {problem}; fix the file or move it away")


def _read_marks(path: Path) -> dict[str, dict[str, Any]]:
    try:
        marks = json.loads(path.read_text())
    except UnicodeDecodeError:
        raise ReviewFileError(path, "not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise ReviewFileError(path, f"not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(marks, dict):
        raise ReviewFileError(path, "not a review file (expected an object of task id -> mark)")
    for task, record in marks.items():
        if not isinstance(record, dict) or record.get("verdict") not in VERDICTS:
            raise ReviewFileError(path, f"the mark of task {task!r} has no verdict ({' or '.join(VERDICTS)})")
    return marks


def load_reviews(version: Path, reviewer: str) -> dict[str, dict[str, Any]]:
    path = _reviewer_path(version, reviewer)
    return _read_marks(path) if path.exists() else {}


def all_reviews(version: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """{reviewer: {task_id: record}} for every reviewer file of the version."""
    folder = Path(version) / REVIEWS
    if not folder.is_dir():
        return {}
    return {path.stem: _read_marks(path)
            for path in sorted(folder.glob("*.json")) if REVIEWER_PATTERN.fullmatch(path.stem)}


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold the folder's exclusive lock: across threads (each opens its own descriptor) and processes."""
    folder.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


def save_review(version: Path, task_ids: set[str], body: Any) -> dict[str, Any]:
    """Validate one mark and store it in the reviewer's file; returns the stored record."""
    if not isinstance(body, dict):
        raise ReviewError("body", "body: expected a JSON object")
    reviewer = check_reviewer(body.get("reviewer"))
    task_id = body.get("task_id")
    if not isinstance(task_id, str) or task_id not in task_ids:
        raise ReviewError("task_id", f"task_id: unknown task {task_id!r}")
    verdict = body.get("verdict")
    if verdict not in VERDICTS:
        raise ReviewError("verdict", f"verdict: must be one of {', '.join(VERDICTS)}, got {verdict!r}")
    comment = body.get("comment") or ""
    if not isinstance(comment, str):
        raise ReviewError("comment", "comment: must be text")
    if len(comment) > MAX_COMMENT:
        raise ReviewError("comment", f"comment: at most {MAX_COMMENT} characters")
    record = {"verdict": verdict, "comment": comment.strip(),
              "at": datetime.now(UTC).isoformat(timespec="seconds")}
    with _locked(Path(version) / REVIEWS):
        reviews = load_reviews(version, reviewer)
        reviews[task_id] = record
        write_json(_reviewer_path(version, reviewer), reviews)
    return {"reviewer": reviewer, "task_id": task_id, **record}

