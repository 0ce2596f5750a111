"""What reading one model.json of an untrusted models folder may cost the server.

A models folder can come from anyone; one model.json of 64 MB used to cost about 650 MB and 4-8 s
per gallery request, and four concurrent requests 2.5 GB. Here each model.json is:

- **capped before it is read**: larger than :data:`MAX_MODEL_JSON_BYTES` (by ``lstat``) is refused;
- **costed before it is parsed**: the memory ``json.loads`` can need is bounded from counts taken
  on the raw bytes (every ``{``/``[`` becomes a container, every ``,``/``:`` at most one more
  object; :func:`parse_cost`); a file over :data:`MEMORY_BUDGET` is refused without parsing;
- **parsed once per file identity** (device, inode, size, modification and change times) and kept
  in a cache whose total cost, together with the parse in progress, stays within
  :data:`MEMORY_BUDGET` (least recently used models are dropped first); concurrent requests for
  the same file wait for the one parse (single flight), and parses of large files run one at a
  time, so the server's memory for models is bounded whatever the number of requests.

A refused file makes its model a "broken" entry (:class:`OverBudget` carries the reason), never an
error for the whole gallery. Cached models are shared between requests: callers treat them as
read-only. Called from :meth:`repomodeler.serve.store.ModelStore.model` only.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable

MB = 1024 * 1024
#: Largest model.json the viewer reads (a 2,000-service model is about 2 MB).
MAX_MODEL_JSON_BYTES = 32 * MB
#: Estimated memory all parsed models (cached, and being parsed) may hold together.
MEMORY_BUDGET = 384 * MB
#: Files larger than this are parsed one at a time.
_SERIAL_ABOVE = 1 * MB
_PER_CONTAINER = 150  # a dict or list object with its slots
_PER_ITEM = 60  # a str, int or float object and its slot, for every ',' or ':'
#: A file modified less than this long ago is not cached (as git treats "racily clean" files).
_RACY_NS = 2_000_000_000


class OverBudget(Exception):
    """model.json costs more than the viewer allows; `reason` completes "model.json ..."."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def parse_cost(data: bytes) -> int:
    """An upper estimate of the memory ``json.loads(data)`` builds (bytes); no parsing."""
    containers = data.count(b"{") + data.count(b"[")
    items = data.count(b",") + data.count(b":")
    return len(data) + containers * _PER_CONTAINER + items * _PER_ITEM


class _Cache:
    def __init__(self) -> None:
        self.entries: OrderedDict[tuple[int, ...], tuple[Any, int]] = OrderedDict()
        self.used = 0  # cost of the cached entries plus the parse in progress
        self.lock = threading.Lock()
        self.serial = threading.Lock()
        self.flights: dict[tuple[int, ...], threading.Lock] = {}
        self.refused: OrderedDict[tuple[int, ...], str] = OrderedDict()  # over-budget files, by identity

    def refuse(self, key: tuple[int, ...], reason: str) -> OverBudget:
        with self.lock:
            self.refused[key] = reason
            while len(self.refused) > 1024:
                self.refused.popitem(last=False)
        return OverBudget(reason)

    def get(self, key: tuple[int, ...]) -> Any | None:
        with self.lock:
            hit = self.entries.get(key)
            if hit is None:
                return None
            self.entries.move_to_end(key)
            return hit[0]

    def reserve(self, cost: int) -> None:
        """Drop least recently used models until `cost` fits in the budget, then count it."""
        with self.lock:
            while self.entries and self.used + cost > MEMORY_BUDGET:
                _key, (_value, old) = self.entries.popitem(last=False)
                self.used -= old
            self.used += cost

    def release(self, cost: int) -> None:
        with self.lock:
            self.used -= cost

    def put(self, key: tuple[int, ...], value: Any, cost: int) -> None:
        """Keep a parsed model whose cost was reserved (it stays counted while cached)."""
        with self.lock:
            self.entries[key] = (value, cost)
            self.entries.move_to_end(key)

    def flight(self, key: tuple[int, ...]) -> threading.Lock:
        with self.lock:
            return self.flights.setdefault(key, threading.Lock())

    def land(self, key: tuple[int, ...]) -> None:
        with self.lock:
            self.flights.pop(key, None)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.refused.clear()
            self.used = 0


_cache = _Cache()


def clear_cache() -> None:
    """Forget every parsed model (tests)."""
    _cache.clear()


def _identity(path: Path) -> tuple[int, ...] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def load_json(path: Path, read: Callable[[int], bytes], parse: Callable[[bytes], Any]) -> Any:
    """The parsed JSON of `path`, within the budget (see the module).

    `read(limit)` returns the file's bytes through the caller's own checks (no symlinks, a regular
    file, at most `limit` bytes); `parse` turns them into an object. Raises :class:`OverBudget`,
    or whatever `read` and `parse` raise.
    """
    key = _identity(path)
    if key is None:
        return parse(read(MAX_MODEL_JSON_BYTES))  # missing or unreadable: `read` says why
    size = key[2]
    if size > MAX_MODEL_JSON_BYTES:
        raise OverBudget(f"is too large to show ({size / MB:.1f} MB; the viewer reads up to "
                         f"{MAX_MODEL_JSON_BYTES // MB} MB)")
    cached = _cache.get(key)
    if cached is not None:
        return cached
    reason = _cache.refused.get(key)
    if reason is not None:
        raise OverBudget(reason)
    flight = _cache.flight(key)
    with flight:  # one parse per file however many requests ask for it at once
        cached = _cache.get(key)
        if cached is not None:
            return cached
        try:
            serial = _cache.serial if size > _SERIAL_ABOVE else None
            if serial is not None:
                serial.acquire()
            try:
                return _parse_within_budget(key, read, parse)
            finally:
                if serial is not None:
                    serial.release()
        finally:
            _cache.land(key)


def _parse_within_budget(key: tuple[int, ...], read: Callable[[int], bytes], parse: Callable[[bytes], Any]) -> Any:
    data = read(MAX_MODEL_JSON_BYTES)
    cost = parse_cost(data)
    if cost > MEMORY_BUDGET:
        raise _cache.refuse(key, f"holds too many values to show (reading it could take {cost / MB:.0f} MB; the viewer "
                         f"allows {MEMORY_BUDGET // MB} MB)")
    _cache.reserve(cost)
    try:
        value = parse(data)
    except BaseException:
        _cache.release(cost)
        raise
    del data
    if time.time_ns() - key[3] < _RACY_NS:  # modified just now: a change within the clock's
        _cache.release(cost)                 # granularity would keep the same identity, so not cached
    else:
        _cache.put(key, value, cost)
    return value
