"""The SQLite archive: one file in the data directory, written from a thread of its own.

The stdlib driver blocks, so every call runs in a thread: one writer thread with its own
connection (writes are serialised anyway, and ``BEGIN IMMEDIATE`` serialises them across
processes sharing the file), and one reader thread with another connection, so reads go on
while a write commits (WAL mode). ``synchronous=FULL``: a commit is on disk before ``put``
returns, because the archiver deletes the deal from Redis right after; with ``NORMAL`` a power
cut could take back a commit whose deal Redis no longer has.

A deal is one row of ``archived_deals`` (a finished match, one of ``archived_matches``, in the
same shape); its records are one msgpack array of byte strings (each record's exact
bytes), which reads and writes in one step and keeps any byte a record may hold.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from service.store.archive.contract import (
    Archive,
    ArchiveConflict,
    ArchivedDeal,
    ArchivedListing,
    ChatCopy,
    ChatMessages,
    content_digest,
    merge_meta,
    spectators_of,
)

T = TypeVar("T")
BUSY_TIMEOUT_MS = 30_000  # how long a writer waits for another process's write transaction

DEALS_TABLE = "archived_deals"
MATCHES_TABLE = "archived_matches"  # a match's own log (TB-5.1), in the same shape as a deal's
_TABLE = """
CREATE TABLE IF NOT EXISTS {table} (
    deal_id      TEXT PRIMARY KEY,
    game         TEXT NOT NULL,
    created_ms   INTEGER NOT NULL,
    finished_ms  INTEGER NOT NULL,
    spectators   INTEGER NOT NULL,
    head_hash    TEXT NOT NULL,
    record_count INTEGER NOT NULL,
    digest       TEXT NOT NULL,
    meta         TEXT NOT NULL,
    records      BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS {table}_newest ON {table} (created_ms DESC, deal_id DESC);
"""
CHAT_TABLE = "archived_chat"  # a deal's chat: beside its log, never in it
_CHAT = f"""
CREATE TABLE IF NOT EXISTS {CHAT_TABLE} (
    deal_id  TEXT PRIMARY KEY,
    said     INTEGER NOT NULL,
    messages BLOB NOT NULL
);
"""
_SCHEMA = _TABLE.format(table=DEALS_TABLE) + _TABLE.format(table=MATCHES_TABLE) + _CHAT
_COLUMNS = "deal_id, game, created_ms, finished_ms, meta, records, head_hash"
_records_decoder = msgspec.msgpack.Decoder(list[bytes])


def _connect(path: Path) -> sqlite3.Connection:
    # on first use, not when opened: a service that never archives makes no file
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    con.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    _wal(con)
    con.execute("PRAGMA synchronous=FULL")
    return con


def _wal(con: sqlite3.Connection) -> None:
    """Switch the file to WAL once. Changing the journal mode takes a lock that SQLite's busy
    handler does not wait for, so connections opened together retry while another switches it."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            if con.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                con.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


class _Thread:
    """One thread and the connection that lives in it (opened there on first use)."""

    def __init__(self, path: Path, name: str, setup: Callable[[sqlite3.Connection], None] | None) -> None:
        self._path = path
        self._setup = setup
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._con: sqlite3.Connection | None = None
        self._closed = False

    def _connection(self) -> sqlite3.Connection:
        if self._con is None:
            self._con = _connect(self._path)
            if self._setup is not None:
                self._setup(self._con)
        return self._con

    async def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, lambda: work(self._connection()))

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True

        def close() -> None:
            if self._con is not None:
                self._con.close()
                self._con = None

        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._pool, close)
        self._pool.shutdown(wait=True)


def _create_schema(con: sqlite3.Connection) -> None:
    con.execute("BEGIN IMMEDIATE")
    try:
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                con.execute(statement)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def _row_to_deal(row: tuple[Any, ...]) -> ArchivedDeal:
    deal_id, game, created_ms, finished_ms, meta, records, head_hash = row
    return ArchivedDeal(
        deal_id, game, created_ms, finished_ms, json.loads(meta), _records_decoder.decode(records), head_hash
    )


class SqliteArchive(Archive):
    """Finished deals in one SQLite file (created with its folder on first use); ``matches()``
    is the same file's table of finished matches, on the same two threads."""

    def __init__(self, path: Path | str, *, _deals: SqliteArchive | None = None) -> None:
        self.path = Path(path)
        self._owner = _deals is None
        if _deals is None:
            self.table = DEALS_TABLE
            self._writer = _Thread(self.path, "archive-sqlite-write", _create_schema)
            self._reader = _Thread(self.path, "archive-sqlite-read", None)
            self._matches: SqliteArchive | None = None
        else:
            self.table = MATCHES_TABLE
            self._writer, self._reader = _deals._writer, _deals._reader
            self._matches = self
        self._ready = False

    def matches(self) -> SqliteArchive:
        if self._matches is None:
            self._matches = SqliteArchive(self.path, _deals=self)
        return self._matches

    async def _read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        if not self._ready:  # the writer makes the tables; a reader must not look before that
            await self._writer.run(lambda con: None)
            self._ready = True
        return await self._reader.run(work)

    async def put(self, deal: ArchivedDeal) -> bool:
        def write(con: sqlite3.Connection) -> bool:
            # hashing and encoding a large deal takes a while: here, not on the event loop
            digest = content_digest(deal)
            row = (
                deal.deal_id, deal.game, deal.created_ms, deal.finished_ms, int(spectators_of(deal.meta)),
                deal.head_hash, len(deal.records), digest, json.dumps(deal.meta, sort_keys=True),
                msgspec.msgpack.encode(deal.records),
            )  # fmt: skip
            con.execute("BEGIN IMMEDIATE")
            try:
                inserted = con.execute(
                    f"INSERT INTO {self.table} (deal_id, game, created_ms, finished_ms, spectators,"
                    " head_hash, record_count, digest, meta, records) VALUES (?,?,?,?,?,?,?,?,?,?)"
                    " ON CONFLICT (deal_id) DO NOTHING",
                    row,
                ).rowcount
                if inserted != 1:
                    held_digest, held_meta = con.execute(
                        f"SELECT digest, meta FROM {self.table} WHERE deal_id = ?", (deal.deal_id,)
                    ).fetchone()
                    if held_digest != digest:
                        raise ArchiveConflict(deal.deal_id, "records, head hash or times")
                    merged = merge_meta(json.loads(held_meta), deal.meta, deal.deal_id)
                    if merged is not None:
                        con.execute(
                            f"UPDATE {self.table} SET meta = ? WHERE deal_id = ?",
                            (json.dumps(merged, sort_keys=True), deal.deal_id),
                        )
                con.execute("COMMIT")
                return inserted == 1
            except BaseException:
                con.execute("ROLLBACK")
                raise

        return await self._writer.run(write)

    async def get(self, deal_id: str) -> ArchivedDeal | None:
        def read(con: sqlite3.Connection) -> ArchivedDeal | None:
            row = con.execute(f"SELECT {_COLUMNS} FROM {self.table} WHERE deal_id = ?", (deal_id,)).fetchone()
            return None if row is None else _row_to_deal(row)

        return await self._read(read)

    async def records(self, deal_id: str) -> list[bytes] | None:
        def read(con: sqlite3.Connection) -> list[bytes] | None:
            row = con.execute(f"SELECT records FROM {self.table} WHERE deal_id = ?", (deal_id,)).fetchone()
            return None if row is None else _records_decoder.decode(row[0])

        return await self._read(read)

    async def meta(self, deal_id: str) -> dict[str, str] | None:
        def read(con: sqlite3.Connection) -> dict[str, str] | None:
            row = con.execute(f"SELECT meta FROM {self.table} WHERE deal_id = ?", (deal_id,)).fetchone()
            return None if row is None else json.loads(row[0])

        return await self._read(read)

    async def list(self, offset: int = 0, count: int = 100) -> list[ArchivedListing]:
        def read(con: sqlite3.Connection) -> list[ArchivedListing]:
            rows = con.execute(
                f"SELECT deal_id, game, created_ms, finished_ms, spectators FROM {self.table}"
                " ORDER BY created_ms DESC, deal_id DESC LIMIT ? OFFSET ?",
                (max(0, count), max(0, offset)),
            ).fetchall()
            return [ArchivedListing(d, g, c, f, bool(s)) for d, g, c, f, s in rows]

        return await self._read(read)

    async def count(self) -> int:
        return await self._read(lambda con: con.execute(f"SELECT count(*) FROM {self.table}").fetchone()[0])

    async def claim_meta(self, deal_id: str, field: str, value: str) -> str | None:
        def write(con: sqlite3.Connection) -> str | None:
            con.execute("BEGIN IMMEDIATE")
            try:
                row = con.execute(f"SELECT meta FROM {self.table} WHERE deal_id = ?", (deal_id,)).fetchone()
                if row is None:
                    con.execute("COMMIT")
                    return None
                meta = json.loads(row[0])
                if field not in meta:
                    meta[field] = value
                    con.execute(
                        f"UPDATE {self.table} SET meta = ? WHERE deal_id = ?",
                        (json.dumps(meta, sort_keys=True), deal_id),
                    )
                con.execute("COMMIT")
                return meta[field]
            except BaseException:
                con.execute("ROLLBACK")
                raise

        return await self._writer.run(write)

    async def release_meta(self, deal_id: str, field: str, value: str) -> None:
        def write(con: sqlite3.Connection) -> None:
            con.execute("BEGIN IMMEDIATE")
            try:
                row = con.execute(f"SELECT meta FROM {self.table} WHERE deal_id = ?", (deal_id,)).fetchone()
                if row is not None:
                    meta = json.loads(row[0])
                    if meta.get(field) == value:
                        del meta[field]
                        con.execute(
                            f"UPDATE {self.table} SET meta = ? WHERE deal_id = ?",
                            (json.dumps(meta, sort_keys=True), deal_id),
                        )
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise

        await self._writer.run(write)

    async def put_chat(self, deal_id: str, said: int, messages: ChatMessages) -> None:
        def write(con: sqlite3.Connection) -> None:
            con.execute("BEGIN IMMEDIATE")
            try:
                con.execute(
                    f"INSERT INTO {CHAT_TABLE} (deal_id, said, messages) VALUES (?,?,?)"
                    " ON CONFLICT (deal_id) DO UPDATE SET said = excluded.said, messages = excluded.messages"
                    f" WHERE excluded.said > {CHAT_TABLE}.said",
                    (deal_id, said, msgspec.msgpack.encode(messages)),
                )
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise

        await self._writer.run(write)

    async def chat(self, deal_id: str) -> ChatCopy | None:
        def read(con: sqlite3.Connection) -> ChatCopy | None:
            row = con.execute(
                f"SELECT said, messages FROM {CHAT_TABLE} WHERE deal_id = ?", (deal_id,)
            ).fetchone()
            return None if row is None else (int(row[0]), _records_decoder.decode(row[1]))

        return await self._read(read)

    async def close(self) -> None:
        if self._owner:  # the matches' table shares the deals' threads: they close them
            await self._reader.close()
            await self._writer.close()
