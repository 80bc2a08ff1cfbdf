"""One bounded cache for every cache of the service: folds, token digests, heads, audits, locks."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LRUCache(Generic[K, V]):
    """At most ``maxsize`` entries; the least recently used goes first. ``keep(value)``, when
    given, protects an entry from eviction (a lock that is held), so the cache may then hold
    more than ``maxsize`` for a while."""

    def __init__(self, maxsize: int, keep: Callable[[V], bool] | None = None) -> None:
        if maxsize < 1:
            raise ValueError("an LRU cache holds at least one entry")
        self.maxsize = maxsize
        self._keep = keep
        self._data: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._data.get(key)
        if value is not None:
            self._data.move_to_end(key)
        return value

    def peek(self, key: K) -> V | None:
        """The value without marking it used."""
        return self._data.get(key)

    def put(self, key: K, value: V) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        self._trim()

    def get_or_put(self, key: K, make: Callable[[], V]) -> V:
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value

    def pop(self, key: K) -> V | None:
        return self._data.pop(key, None)

    def _trim(self) -> None:
        if len(self._data) <= self.maxsize:
            return
        for key in list(self._data):
            if len(self._data) <= self.maxsize:
                break
            if self._keep is None or not self._keep(self._data[key]):
                del self._data[key]

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)

    def __iter__(self) -> Iterator[K]:
        return iter(list(self._data))
