"""Versions are never overwritten, writes are atomic, an unfinished version is resumed."""

import os
import stat

import pytest

from ifforge.core.store.versions import ItemCache, VersionStore, atomic_write, content_hash
from ifforge.core.prompts import PromptError, load_prompt


def test_versions_by_fingerprint(tmp_path):
    first = VersionStore(tmp_path, "aaa")
    assert first.version == "v001" and first.state == "new"
    again = VersionStore(tmp_path, "aaa")
    assert again.path == first.path and again.state == "resumed"  # no manifest yet: a crashed run
    first.write_manifest({"done": True})
    assert VersionStore(tmp_path, "aaa").finished
    other = VersionStore(tmp_path, "bbb")
    assert other.version == "v002" and other.state == "new"
    assert (tmp_path / "LATEST").read_text().strip() == "v001"


def test_atomic_write_leaves_no_partial_file(tmp_path):
    target = tmp_path / "a" / "file.txt"
    atomic_write(target, "old")

    class Boom(str):
        def encode(self, *args):
            raise RuntimeError("disk gone mid-write")

    with pytest.raises(RuntimeError):
        atomic_write(target, Boom("new"))
    assert target.read_text() == "old"
    assert [p.name for p in target.parent.iterdir()] == ["file.txt"]


def test_atomic_write_gives_the_mode_a_plain_open_would(tmp_path):
    """mkstemp makes 0600 files: a benchmark written that way is unreadable to the lab's group."""
    target = tmp_path / "a.json"
    atomic_write(target, "{}")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    target.chmod(0o640)
    atomic_write(target, "[]")  # an existing file keeps the mode it was given
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_item_cache_round_trip_keeps_dict_order(tmp_path):
    cache = ItemCache(tmp_path)
    key = content_hash("stage", {"b": 1, "a": 2})
    assert key == content_hash("stage", {"a": 2, "b": 1})  # keys are canonical...
    cache.put("stage", key, {"stats": {"z": 1, "a": 2}})
    assert list(cache.get("stage", key)["stats"]) == ["z", "a"]  # ...stored values keep their order
    assert cache.get("stage", "0" * 64) is None


def test_prompt_files_need_a_version_line(tmp_path):
    solve = load_prompt("solve")
    assert solve.version and len(solve.hash) == 16
    assert solve.slots == {"description", "input", "stats_keys", "output_format"}
    (tmp_path / "bad.md").write_text("no version here\n")
    with pytest.raises(PromptError, match="bad.md:1"):
        load_prompt("bad", tmp_path)
