"""The archive of finished deals: where a deal goes once Redis no longer needs to hold it (and a
finished match's own log, on a shelf of its own: ``Archive.matches()``).

A deal is archived as the records Redis stored, byte for byte, so its hash chain still verifies
and an audit of an archived deal is the audit of the live one. Two backends behind one small
interface: SQLite in the data directory (the embedded default, one file per key prefix:
``archive_file``) and PostgreSQL when ``DEALSTREAM_ARCHIVE_URL=postgresql://…`` is set.

``put`` never overwrites: the same deal again is a no-op, a deal whose records, head hash or
times differ from the archived ones is refused (``ArchiveConflict``). Meta fields only grow: a
second put may add a field the first one lacked (a "play again" claim made after the first
copy), never change one. ``claim_meta`` sets a field of an archived deal once, for what must
still happen to a finished deal after it left Redis (it may be played again by its seats).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections import OrderedDict
from collections.abc import Awaitable
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote

import msgspec

from service.store.archive.contract import (
    Archive,
    ArchiveConflict,
    ArchivedDeal,
    ArchivedListing,
    ChatCopy,
    content_digest,
    merge_meta,
    spectators_of,
)

__all__ = [
    "ARCHIVE_FILE",
    "DEFAULT_PREFIX",
    "Archive",
    "ArchiveConflict",
    "ArchiveUnavailable",
    "ArchivedDeal",
    "ArchivedListing",
    "ArchivedLog",
    "ArchivedLogs",
    "archive_file",
    "content_digest",
    "merge_meta",
    "open_archive",
    "spectators_of",
]

T = TypeVar("T")
ARCHIVE_FILE = "archive.sqlite3"  # the default prefix's SQLite archive in the data directory
ARCHIVE_URL_ENV = "DEALSTREAM_ARCHIVE_URL"
DEFAULT_PREFIX = "ds"  # the key prefix of ``dealstream serve`` without ``--prefix``

log = logging.getLogger("dealstream.archive")


def archive_file(prefix: str) -> str:
    """The default SQLite archive's file name for the key prefix ``prefix``.

    Services of different prefixes may share a data directory (and a Redis); each serves its own
    deals only, so each has an archive of its own: the default prefix ``archive.sqlite3`` (the
    one file every archive was before prefixes had their own, so those keep working), any other
    ``archive-<prefix>.sqlite3``, the prefix percent-encoded where a file name could not hold it."""
    if prefix == DEFAULT_PREFIX:
        return ARCHIVE_FILE
    return f"archive-{quote(prefix, safe='')}.sqlite3"


def open_archive(url: str | None, data_dir: Path | str, *, prefix: str) -> Archive:
    """The archive ``url`` names: ``postgresql://…`` (or ``postgres://…``; ``?schema=NAME`` picks
    the schema, default ``dealstream``), ``sqlite:///path``, or with no URL
    ``DEALSTREAM_ARCHIVE_URL``, else ``prefix``'s SQLite file in ``data_dir`` (``archive_file``).
    A URL names one archive whatever the prefix: services of other prefixes each need their own
    (a schema, a file). Connects on first use."""
    url = url or os.environ.get(ARCHIVE_URL_ENV) or None
    if url is None:
        from service.store.archive.sqlite import SqliteArchive

        path = Path(data_dir) / archive_file(prefix)
        legacy = Path(data_dir) / ARCHIVE_FILE
        if path != legacy and not path.exists() and legacy.is_file():
            log.warning(
                "the archive of prefix %r is %s; %s holds the default prefix's archive (before each"
                " prefix had its own, every prefix archived there: docs/runbook.md, 'One data"
                " directory, several prefixes')",
                prefix,
                path,
                legacy,
            )
        return SqliteArchive(path)
    if url.startswith(("postgresql://", "postgres://")):
        from service.store.archive.postgres import PostgresArchive

        return PostgresArchive(url)
    if url.startswith("sqlite:///"):
        from service.store.archive.sqlite import SqliteArchive

        return SqliteArchive(Path(url.removeprefix("sqlite://")))
    raise ValueError(f"an archive URL is postgresql://… or sqlite:///path, not {url.split(':', 1)[0]}:…")


class ArchiveUnavailable(ConnectionError):
    """The archive did not answer a read: the service answers 503 (DS-12), as for Redis, and
    the stream reader retries (a ``ConnectionError``, so both treat it as a store outage)."""


def _archive_errors() -> tuple[type[BaseException], ...]:
    errors: tuple[type[BaseException], ...] = (OSError, sqlite3.Error, TimeoutError)
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - asyncpg is a dependency; SQLite works without it
        return errors
    return (*errors, asyncpg.PostgresError, asyncpg.InterfaceError)


class ArchivedLog(msgspec.Struct, frozen=True):
    """What the event store's reads need of an archived deal: its records and head hash."""

    records: list[bytes]
    head_hash: str


class ArchivedLogs:
    """The archive as the event store reads it: the last ``size`` archived logs kept in memory.

    An archived log never changes, so a cached one is never stale; the meta fields may still
    grow (a "play again" claim), so meta is always read from the archive. Concurrent reads of
    one deal share one archive read. A deal the archive lacks is not remembered: it may be
    archived a moment later.
    """

    def __init__(self, archive: Archive, size: int = 128) -> None:
        self.archive = archive
        self._size = max(1, size)
        self._logs: OrderedDict[str, ArchivedLog] = OrderedDict()
        self._reading: dict[str, asyncio.Future[ArchivedLog | None]] = {}
        self._errors = _archive_errors()

    async def log(self, deal_id: str) -> ArchivedLog | None:
        cached = self._logs.get(deal_id)
        if cached is not None:
            self._logs.move_to_end(deal_id)
            return cached
        pending = self._reading.get(deal_id)
        if pending is None:
            pending = self._reading[deal_id] = asyncio.ensure_future(self._read(deal_id))
            pending.add_done_callback(lambda _f: self._reading.pop(deal_id, None))
        return await asyncio.shield(pending)

    async def _read(self, deal_id: str) -> ArchivedLog | None:
        deal = await self._ask(self.archive.get(deal_id))
        if deal is None:
            return None
        log = ArchivedLog(deal.records, deal.head_hash)
        self._logs[deal_id] = log
        while len(self._logs) > self._size:
            self._logs.popitem(last=False)
        return log

    def matches(self) -> ArchivedLogs:
        """The archived match logs, read the same way (a cache of their own)."""
        return ArchivedLogs(self.archive.matches(), self._size)

    async def meta(self, deal_id: str) -> dict[str, str] | None:
        return await self._ask(self.archive.meta(deal_id))

    async def list(self, offset: int, count: int) -> list[ArchivedListing]:
        return await self._ask(self.archive.list(offset, count))

    async def chat(self, deal_id: str) -> ChatCopy | None:
        """An archived deal's chat (never cached: it is read once per page open)."""
        return await self._ask(self.archive.chat(deal_id))

    async def claim_meta(self, deal_id: str, field: str, value: str) -> str | None:
        return await self._ask(self.archive.claim_meta(deal_id, field, value))

    async def release_meta(self, deal_id: str, field: str, value: str) -> None:
        await self._ask(self.archive.release_meta(deal_id, field, value))

    async def _ask(self, call: Awaitable[T]) -> T:
        try:
            return await call
        except self._errors as exc:
            raise ArchiveUnavailable(f"the archive did not answer: {exc}") from exc
