"""The items a chain of per-item stages kept, on disk shard by shard, read back one at a time.

The generate flow used to hold every kept record of the run in one list until the export (about
0.1 MB per item with LogicIF's sources and cases: a gigabyte at 10,000 seeds). Now each finished
shard appends its kept records to a JSON-lines file and `ItemsOnDisk` remembers only where each record
starts; it is a read-only sequence (len, index, iterate), so an export or batch stage reads it
like the list it replaced, while a record is in memory only while it is used. The flow removes
the files after the export.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import groupby
from pathlib import Path
from typing import Any

from pydantic import BaseModel


class ItemsOnDisk(Sequence):
    """Records of one type appended shard by shard to files in `folder`, read back by index."""

    def __init__(self, folder: Path, record: type[BaseModel]):
        self.folder, self.record = folder, record
        folder.mkdir(parents=True, exist_ok=True)
        self._where: list[tuple[Path, int]] = []  # per record: its shard's file and the byte it starts at

    def add_shard(self, index: int, records: list[BaseModel]) -> None:
        """Shard `index`'s kept records, in order (shards may arrive in any order: each has its file)."""
        path = self.folder / f"shard-{index:06d}.jsonl"
        with path.open("ab") as file:
            for record in records:
                self._where.append((path, file.tell()))
                file.write(record.model_dump_json().encode() + b"\n")

    def __len__(self) -> int:
        return len(self._where)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        path, offset = self._where[index]
        with path.open("rb") as file:
            file.seek(offset)
            return self.record.model_validate_json(file.readline())

    def __iter__(self) -> Iterator[Any]:
        for path, places in groupby(self._where, key=lambda where: where[0]):
            with path.open("rb") as file:
                for _, offset in places:
                    file.seek(offset)
                    yield self.record.model_validate_json(file.readline())
