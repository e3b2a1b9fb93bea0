"""Versioned, atomic, content-addressed artifacts.

Layout under `<out>/<benchmark>/`:
- `.cache/<stage>/<key>.json`: one stage's result for one item, addressed by the hash of everything
  that determines it (stage, stage code version, prompt hash, model, the item itself). Shared by all
  versions, so a changed seed recomputes only its own items and a crashed run resumes.
- `vNNN/`: one run's benchmark. A run whose fingerprint (inputs, settings, code versions) matches
  a finished version writes nothing new; a matching unfinished one is resumed; anything else gets a
  new version. `vNNN/items/<task_id>/` holds every turn of one item, readable by a person.
Every file is written to a temporary name and renamed, so a crash never leaves half a file.
Nothing read back is trusted blindly: a cache entry carries the hash of its content and one that
does not match is computed again; a finished version's manifest lists the hash of every artifact,
and a version whose files no longer match is resumed (rewritten), never reused.
"""

from __future__ import annotations

import ast
import errno
import hashlib
import json
import logging
import os
import re
import stat
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import BaseModel

from ifforge.core import pyast
from ifforge.core.orphans import pid_alive
from ifforge.core.untrusted import BadValue, InputError, plain_name, read_file

log = logging.getLogger("ifforge.store")
_UMASK = os.umask(0o022)  # read once at import (reading it means setting it), then put back
os.umask(_UMASK)
PACKAGE_ROOT = Path(__file__).resolve().parents[2]
MANIFEST = "manifest.json"
RUN_FILE = "run.json"


def canonical_json(value: Any) -> str:
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=_default)


def _default(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"cannot hash a {type(value).__name__}")


def content_hash(*parts: Any) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(canonical_json(part).encode())
        digest.update(b"\x00")
    return digest.hexdigest()


def code_version(*modules: ModuleType) -> str:
    """Hash of what the modules do, with every ifforge module they import, directly or not.

    The closure is found by reading import statements, so no hand-kept list of modules can miss
    one; each module counts by its syntax tree without comments and docstrings (`behaviour_dump`),
    so a reworded comment re-versions nothing and only code that can act differently recomputes.
    """
    return _INSTALLED.version(*(m.__name__ for m in modules))


def behaviour_dump(tree: ast.Module) -> str:
    """The module's syntax tree as text, without comments, line numbers or the docstrings of the
    module and its functions (`tree` is changed). A class keeps its docstring: pydantic puts it in
    the JSON schema a model is sent, so there it is behaviour."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)) and _has_docstring(node):
            node.body = node.body[1:] or [ast.Pass()]
    return ast.dump(tree, include_attributes=False)


def _has_docstring(node: ast.Module | ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    first = node.body[0] if node.body else None
    return (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str))


def _imported(tree: ast.Module) -> list[str]:
    """The ifforge modules a module's import statements may name (names that are no module drop out later)."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.startswith("ifforge.")]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ifforge"):
            found.append(node.module)
            found += [f"{node.module}.{alias.name}" for alias in node.names]  # submodules imported by name
    return found


class CodeTree:
    """The ifforge modules under one package folder (the installed one, or a copy a test edits),
    each read once: what it imports and what it does. With `summaries`, a JSON file, what a module
    imports and the hash of what it does are kept there by the hash of its text, so a later process
    parses only the modules that changed (parsing and dumping LogicIF's stages is 0.6 s, paid by
    every generate); a file that cannot be read or written is only slower."""

    def __init__(self, root: Path, summaries: Path | None = None):
        self.root = Path(root)
        self.summaries = summaries
        self._modules: dict[str, tuple[list[str], str] | None] = {}
        self._saved: dict[str, list] | None = None  # the summaries file, read on first need
        self._new = 0

    def version(self, *names: str) -> str:
        digest = hashlib.sha256()
        for name in sorted(self.closure(names)):
            digest.update(name.encode() + b"\x00" + self._module(name)[1].encode() + b"\x00")
        self._save()
        return digest.hexdigest()[:16]

    def closure(self, roots: tuple[str, ...]) -> set[str]:
        """The roots and every ifforge module their import statements reach."""
        seen: set[str] = set()
        todo = list(roots)
        while todo:
            name = todo.pop()
            module = self._module(name)
            if name in seen or module is None:
                continue
            seen.add(name)
            todo += module[0]
        return seen

    def _module(self, name: str) -> tuple[list[str], str] | None:
        """(ifforge modules it imports, the hash of its behaviour dump), or None when the name is no
        module here."""
        if name not in self._modules:
            base = self.root.joinpath(*name.split(".")[1:])
            found = [path for path in (base.with_suffix(".py"), base / "__init__.py") if path.is_file()]
            self._modules[name] = self._summary(found[0]) if found else None
        return self._modules[name]

    def _summary(self, path: Path) -> tuple[list[str], str]:
        text = path.read_bytes()
        key = hashlib.sha256(text).hexdigest()
        saved = self._read()
        match saved.get(key):
            case [list() as imports, str() as behaviour] if all(isinstance(name, str) for name in imports):
                return imports, behaviour
        tree = pyast.parse(text.decode("utf-8"), str(path))
        summary = (_imported(tree), hashlib.sha256(behaviour_dump(tree).encode()).hexdigest())
        saved[key] = list(summary)
        self._new += 1
        return summary

    def _read(self) -> dict[str, list]:
        if self._saved is None:
            self._saved = {}
            if self.summaries is not None:
                try:
                    loaded = json.loads(self.summaries.read_text())
                    self._saved = loaded if isinstance(loaded, dict) else {}
                except (OSError, ValueError):
                    pass
        return self._saved

    def _save(self) -> None:
        if not self._new or self.summaries is None:
            return
        try:
            atomic_write(self.summaries, json.dumps(self._saved), durable=False)
            self._new = 0
        except OSError:
            self.summaries = None  # read-only: this process keeps its summaries in memory


def _summaries_file() -> Path | None:
    """The installed package's summaries, in ifforge's cache folder (`IFFORGE_CACHE_DIR`, else
    `$XDG_CACHE_HOME/ifforge`, else `~/.cache/ifforge`); named by the Python version (its `ast`
    makes the dump) and by this file's own hash (its rules make it too)."""
    folder = user_cache_dir()
    if folder is None:  # no home folder: no summaries kept
        return None
    rules = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    return folder / f"code-summaries-{sys.version.split()[0]}-{rules}.json"


def user_cache_dir() -> Path | None:
    """ifforge's own folder on this machine (`IFFORGE_CACHE_DIR`, else `$XDG_CACHE_HOME/ifforge`,
    else `~/.cache/ifforge`); None without a home folder (expanduser leaves "~" then)."""
    folder = os.environ.get("IFFORGE_CACHE_DIR")
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
        if base.startswith("~"):
            return None
        folder = os.path.join(base, "ifforge")
    return Path(folder)


_INSTALLED = CodeTree(PACKAGE_ROOT, _summaries_file())


def bytes_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_hash(path: Path) -> str:
    """Read in blocks: a benchmark file of a large run is gigabytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _mode_for(path: Path) -> int:
    """The mode a plain `open(path, "w")` would give: the file's own if it exists, else the umask's."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return 0o666 & ~_UMASK


NO_SPACE = (errno.ENOSPC, errno.EDQUOT)
SQLITE_FULL = 13  # sqlite3.SQLITE_FULL: "database or disk is full", from a cache's database


class DiskFull(InputError):
    """A write met a full disk or quota: one line for the user, who frees space and runs again (the
    temporary file is gone, every file renamed before stays, so the run resumes where it stopped)."""


def out_of_space(error: BaseException) -> bool:
    """A full disk, as a file write (ENOSPC, EDQUOT) or a cache's sqlite database says it."""
    if isinstance(error, OSError):
        return error.errno in NO_SPACE
    return getattr(error, "sqlite_errorcode", None) == SQLITE_FULL


def disk_full(error: BaseException, path: Path | str | None = None) -> DiskFull:
    """The one line a full disk gets, naming the file that could not be written when it is known."""
    reason = os.strerror(error.errno) if isinstance(error, OSError) else str(error)
    where = path or getattr(error, "filename", None)
    return DiskFull(f"{f'{where}: cannot be written' if where else 'a write failed'}: {reason} (free some space, then "
                    "run the same command again: it resumes where it stopped)")


@contextmanager
def _full_disk_said(path: Path) -> Iterator[None]:
    try:
        yield
    except OSError as error:
        if not out_of_space(error):
            raise
        raise disk_full(error, path) from None


def atomic_write(path: Path, data: str | bytes, durable: bool = True) -> None:
    """Write to a temporary name, then rename: a reader never sees half a file, and a crash of the
    process loses nothing renamed. `durable` also waits for the disk (fsync), which survives a power
    cut but costs milliseconds a file: per-item artifacts, hundreds a run, go without it. A full
    disk is a `DiskFull` naming the file."""
    path = Path(path)
    with _full_disk_said(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}-", suffix=".tmp")
        try:
            os.fchmod(fd, _mode_for(path))  # mkstemp's 0600 would hide a shared benchmark from its readers
            with os.fdopen(fd, "wb") as handle:
                # a lone surrogate (from a model's JSON escape) cannot be UTF-8: shown escaped, never a crash
                handle.write(data.encode("utf-8", "backslashreplace") if isinstance(data, str) else data)
                handle.flush()
                if durable:
                    os.fsync(handle.fileno())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary name beside `path` for writers that want a file name (pandas, matplotlib),
    renamed into place when the block succeeds and removed when it fails (a full disk: `DiskFull`)."""
    path = Path(path)
    with _full_disk_said(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        # unique (two runs on one --out write at once), and the suffix tells matplotlib the format
        temporary = path.with_name(f".{path.stem}.{os.getpid()}-{uuid.uuid4().hex[:8]}.tmp{path.suffix}")
        try:
            yield temporary
            os.replace(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise


def remove_stale_temporaries(root: Path) -> int:
    """Temporary files of writers that were killed mid-write (their process is gone): removed."""
    removed = 0
    for folder, _, names in os.walk(root):
        for name in names:
            if not (name.startswith(".") and ".tmp" in name):
                continue
            match = re.search(r"\.(\d+)-[^.]*\.tmp", name)
            if match and not pid_alive(int(match[1])):
                try:
                    os.unlink(os.path.join(folder, name))
                    removed += 1
                except OSError:
                    pass
    return removed



def write_json(path: Path, value: Any, durable: bool = True) -> None:
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    text = json.dumps(value, indent=2, ensure_ascii=False, default=_default) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: JSON can still carry it, as an escape
        text = json.dumps(value, indent=2, ensure_ascii=True, default=_default) + "\n"
    atomic_write(path, text, durable)



def changed_artifacts(version: Path) -> list[str]:
    """The artifacts of a finished version whose content no longer matches its manifest's hashes."""
    try:
        hashes = json.loads((Path(version) / MANIFEST).read_text()).get("artifact_sha256")
    except (OSError, ValueError):
        return [MANIFEST]
    if not isinstance(hashes, dict):
        return [f"{MANIFEST} (no artifact hashes)"]
    changed = []
    for name, digest in sorted(hashes.items()):
        path = Path(version) / name
        if ".." in Path(name).parts or not path.is_file() or file_hash(path) != digest:
            changed.append(name)
    return changed


def latest_version(folder: Path) -> Path:
    """The version a benchmark folder's `LATEST` names (or an eval model folder's latest run);
    any other path as given, so a caller may pass either. `LATEST` is a file anyone could edit:
    it must name a folder beside it (`/etc` or `../x` is an `InputError` naming the file)."""
    folder = Path(folder)
    latest = folder / "LATEST"
    if not (latest.is_symlink() or latest.exists()):
        return folder
    try:
        text = read_file(latest, max_bytes=1024).decode("utf-8").strip()
    except BadValue as error:
        raise InputError(f"{latest}: {error}") from None
    except UnicodeDecodeError:
        raise InputError(f"{latest}: is not UTF-8 text") from None
    try:
        name = plain_name(text, "names")
    except BadValue as error:
        raise InputError(f"{latest}: {error}: it must name a version folder beside it") from None
    version = folder / name
    if not version.is_dir() or not Path(os.path.realpath(version)).is_relative_to(os.path.realpath(folder)):
        raise InputError(f"{latest}: names {name!r}, which is no folder in {folder}")
    return version


class ItemCache:
    """Per-item stage results, addressed by content; shared across runs and versions.

    An entry is the SHA-256 of its JSON on the first line, then the JSON. An entry whose hash does
    not match (edited, truncated, written by something else) reads as a miss and is counted in
    `mismatches`: the item is computed again, never trusted.
    """

    def __init__(self, root: Path):
        self.root = Path(root)
        self.mismatches = 0

    def _path(self, stage: str, key: str) -> Path:
        return self.root / stage / key[:2] / f"{key}.json"

    def get(self, stage: str, key: str) -> Any | None:
        path = self._path(stage, key)
        try:
            digest, _, body = path.read_bytes().partition(b"\n")
        except OSError:
            return None
        if digest.decode("ascii", "replace") != bytes_hash(body):
            self.mismatches += 1
            log.warning("%s: the cached result does not match its hash; computing it again", path)
            return None
        try:
            return json.loads(body)
        except ValueError:
            return None

    def put(self, stage: str, key: str, value: Any) -> None:
        if isinstance(value, BaseModel):
            value = value.model_dump(mode="json")
        # not canonical: dict order is data here (a tracker dict keeps the order the code built it in).
        # ASCII: a lone surrogate in a value stays an escape. Not fsynced: after a power cut a lost or
        # torn entry fails its hash, reads as a miss and is computed again.
        body = json.dumps(value, ensure_ascii=True, default=_default).encode("ascii")
        atomic_write(self._path(stage, key), bytes_hash(body).encode("ascii") + b"\n" + body, durable=False)


def provenance(stage: str, stage_version: str, input_hash: str, prompt_hash: str | None = None,
               model: str | None = None) -> dict[str, Any]:
    return {
        "stage": stage,
        "stage_version": stage_version,
        "input_hash": input_hash,
        "prompt_hash": prompt_hash,
        "model": model,
        "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def _versions(root: Path) -> list[Path]:
    return sorted(p for p in Path(root).glob("v[0-9]*") if p.is_dir())


def _run_fingerprint(version: Path) -> str | None:
    try:
        return json.loads((version / RUN_FILE).read_text()).get("fingerprint")
    except (OSError, ValueError, AttributeError):
        return None


def finished_version(root: Path, fingerprint: str) -> Path | None:
    """The version a run with `fingerprint` would find finished (as `VersionStore` chooses), or None;
    only reads, so a caller can ask before deciding to start a run at all."""
    for candidate in reversed(_versions(root)):
        if _run_fingerprint(candidate) == fingerprint:
            finished = (candidate / MANIFEST).exists() and not changed_artifacts(candidate)
            return candidate if finished else None
    return None


class VersionStore:
    """One version folder of one benchmark: where a run writes, and what it wrote."""

    def __init__(self, root: Path, fingerprint: str):
        self.benchmark_root = Path(root)
        self.fingerprint = fingerprint
        self.path, self.state = self._choose()
        self.artifacts: list[str] = []
        self.notes: list[str] = []  # lines for the manifest and the run's log, e.g. what side work did
        self.cache = ItemCache(self.benchmark_root / ".cache")

    @property
    def version(self) -> str:
        return self.path.name

    @property
    def finished(self) -> bool:
        return self.state == "finished"

    def _choose(self) -> tuple[Path, str]:
        self.benchmark_root.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(self.benchmark_root)
        versions = _versions(self.benchmark_root)
        for candidate in reversed(versions):
            if _run_fingerprint(candidate) == self.fingerprint:
                if not (candidate / MANIFEST).exists():
                    return candidate, "resumed"
                changed = changed_artifacts(candidate)
                if not changed:
                    return candidate, "finished"
                log.warning("%s: %d file(s) differ from the hashes in its manifest (%s); the version is "
                            "written again", candidate, len(changed), ", ".join(changed[:5]))
                (candidate / MANIFEST).unlink()  # no longer finished-looking until it is rewritten
                return candidate, "resumed"
        number = max((int(p.name[1:]) for p in versions if p.name[1:].isdigit()), default=0) + 1
        while True:
            candidate = self.benchmark_root / f"v{number:03d}"
            try:
                candidate.mkdir()  # atomic: two runs never share a new version
                break
            except FileExistsError:
                number += 1
        try:
            write_json(candidate / RUN_FILE, {"fingerprint": self.fingerprint,
                                              "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
        except BaseException:  # a full disk: a folder no run can find again by its fingerprint is not left
            candidate.rmdir()
            raise
        return candidate, "new"

    def item_dir(self, task_id: str) -> Path:
        return self.path / "items" / task_id

    def write(self, relative: str, data: str | bytes | dict | list | BaseModel) -> Path:
        """Write one artifact (JSON for structured data) and remember its path for the manifest.
        Per-item artifacts skip the fsync (see `atomic_write`): the item cache, not they, is what a
        re-run reuses, and the run's own files (benchmark, manifest) are written durably."""
        target = self.path / relative
        durable = not relative.startswith("items/")
        if isinstance(data, (str, bytes)):
            atomic_write(target, data, durable)
        else:
            write_json(target, data, durable)
        self.artifacts.append(relative)
        return target

    @contextmanager
    def writing(self, relative: str) -> Iterator[Any]:
        """A text file written as it goes (a large benchmark's rows never sit in memory whole), under
        a temporary name renamed into place when the block succeeds; remembered for the manifest."""
        with atomic_path(self.path / relative) as temporary:
            with open(temporary, "w", encoding="utf-8", errors="backslashreplace") as handle:
                yield handle
                handle.flush()
                os.fsync(handle.fileno())
        self.artifacts.append(relative)

    def write_manifest(self, manifest: dict[str, Any]) -> Path:
        artifacts = sorted(set(self.artifacts))
        manifest = {**manifest, "artifacts": artifacts,
                    "artifact_sha256": {name: file_hash(self.path / name) for name in artifacts
                                        if (self.path / name).is_file()}}
        write_json(self.path / MANIFEST, manifest)
        latest = self.benchmark_root / "LATEST"
        atomic_write(latest, self.version + "\n")
        return self.path / MANIFEST
