"""Named things of one kind, by id: families, rules, instructions, metrics, tasks, baselines.

One shape for every registry of the house (as google-research's IFEval keeps one dict from id to
rule class), so an unknown id reads the same everywhere: `unknown rule 'haiku' (known rules:
...)`, naming the kind and every id it knows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class UnknownId(KeyError, ValueError):
    """An id a registry does not hold: a KeyError for lookups, a ValueError for settings and commands."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class Registry(Mapping[str, T], Generic[T]):
    """Items of one `kind` by id, in the order they were added (`id_of` reads an item's id; by
    default its `id`). Adding an id twice is a mistake in the code, said at import."""

    def __init__(self, kind: str, items: Iterable[T] = (), plural: str | None = None,
                 id_of: Callable[[T], str] = lambda item: item.id):  # type: ignore[attr-defined]
        self.kind, self.plural, self._id_of = kind, plural or f"{kind}s", id_of
        self._items: dict[str, T] = {}
        for item in items:
            self.add(item)

    def add(self, item: T) -> T:
        """Register `item` (also a class decorator); returns it."""
        key = self._id_of(item)
        if key in self._items:
            raise ValueError(f"{self.kind} {key!r} is registered twice")
        self._items[key] = item
        return item

    @contextmanager
    def registered(self, item: T) -> Iterator[T]:
        """`item` registered for the time of a `with` block (a test's own family, metric, ...)."""
        self.add(item)
        try:
            yield item
        finally:
            del self._items[self._id_of(item)]

    def unknown(self, key: Any) -> UnknownId:
        return UnknownId(f"unknown {self.kind} {key!r} (known {self.plural}: {', '.join(self._items)})")

    def __getitem__(self, key: str) -> T:
        try:
            return self._items[key]
        except (KeyError, TypeError):
            raise self.unknown(key) from None

    def check(self, keys: Iterable[str]) -> list[str]:
        """`keys` as a list, or the error for the first unknown one (a setting's validator:
        `Annotated[list[str], AfterValidator(REGISTRY.check)]`)."""
        keys = list(keys)
        for key in keys:
            if key not in self._items:
                raise self.unknown(key)
        return keys

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {list(self._items)})"
