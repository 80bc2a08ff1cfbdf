"""The PostgreSQL archive (asyncpg): for several service processes, or hosts, sharing one history.

Two tables in a schema of their own (``?schema=NAME`` in the URL, default ``dealstream``): one
row per deal in ``archived_deals``, one per finished match in ``archived_matches`` (the same
shape, ``matches()``); the records are a ``bytea[]`` in version order, each element a record's exact bytes
(``SELECT convert_from(records[1], 'UTF8')`` shows the first). A put is one transaction: insert
unless the deal is there, else compare the digest under a row lock and add missing meta fields.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg

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

DEFAULT_SCHEMA = "dealstream"
LARGE_DEAL_BYTES = 256 * 1024
# no statement waits for ever (a lock another session holds, a server that stopped answering):
# it fails, and the archiver retries the deal at its next round, a read answers 503
COMMAND_TIMEOUT_S = 30.0
CLOSE_TIMEOUT_S = 10.0  # a close waits this long for connections in use, then cuts them
_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]{0,62}")
DEALS_TABLE = "archived_deals"
MATCHES_TABLE = "archived_matches"  # a match's own log (TB-5.1), in the same shape as a deal's
CHAT_TABLE = "archived_chat"  # a deal's chat: beside its log, never in it


def split_schema(url: str) -> tuple[str, str]:
    """(the URL without our ``schema`` parameter, the schema name)."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    schema = DEFAULT_SCHEMA
    rest = []
    for name, value in query:
        if name == "schema":
            schema = value
        else:
            rest.append((name, value))
    if not _IDENTIFIER.fullmatch(schema):
        raise ValueError(f"archive schema must be a lower-case SQL identifier, not {schema!r}")
    return urlunsplit(parts._replace(query=urlencode(rest))), schema


class PostgresArchive(Archive):
    """Finished deals in PostgreSQL; a small connection pool, opened on first use."""

    def __init__(
        self,
        url: str,
        *,
        pool_size: int = 4,
        command_timeout: float = COMMAND_TIMEOUT_S,
        _deals: PostgresArchive | None = None,
    ) -> None:
        self._url = url
        self._dsn, self.schema = split_schema(url)
        self._command_timeout = command_timeout
        self._deals = _deals  # the matches' table borrows the deals' pool
        self.table = f'"{self.schema}".{DEALS_TABLE if _deals is None else MATCHES_TABLE}'
        self._pool_size = pool_size
        self._pool: asyncpg.Pool | None = None
        self._opening = asyncio.Lock()
        self._matches: PostgresArchive | None = None if _deals is None else self

    def matches(self) -> PostgresArchive:
        if self._matches is None:
            self._matches = PostgresArchive(
                self._url, pool_size=self._pool_size, command_timeout=self._command_timeout, _deals=self
            )
        return self._matches

    async def _conn_pool(self) -> asyncpg.Pool:
        if self._deals is not None:
            return await self._deals._conn_pool()
        if self._pool is not None:
            return self._pool
        async with self._opening:
            if self._pool is None:
                pool = await asyncpg.create_pool(
                    self._dsn, min_size=1, max_size=self._pool_size, command_timeout=self._command_timeout
                )
                try:
                    await self._create_schema(pool)
                except BaseException:
                    await pool.close()
                    raise
                self._pool = pool
        return self._pool

    async def _create_schema(self, pool: asyncpg.Pool) -> None:
        async with pool.acquire() as con, con.transaction():
            # two processes creating the schema at once would collide in the catalogue
            await con.execute(
                "SELECT pg_advisory_xact_lock(hashtext($1))", f"dealstream-archive:{self.schema}"
            )
            await con.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
            for name in (DEALS_TABLE, MATCHES_TABLE):
                table = f'"{self.schema}".{name}'
                await con.execute(
                    f"""CREATE TABLE IF NOT EXISTS {table} (
                        deal_id      text COLLATE "C" PRIMARY KEY,
                        game         text NOT NULL,
                        created_ms   bigint NOT NULL,
                        finished_ms  bigint NOT NULL,
                        spectators   boolean NOT NULL,
                        head_hash    text NOT NULL,
                        record_count integer NOT NULL,
                        digest       text NOT NULL,
                        meta         jsonb NOT NULL,
                        records      bytea[] NOT NULL
                    )"""
                )
                await con.execute(
                    f"CREATE INDEX IF NOT EXISTS {name}_newest ON {table} (created_ms DESC, deal_id DESC)"
                )
            await con.execute(
                f"""CREATE TABLE IF NOT EXISTS "{self.schema}".{CHAT_TABLE} (
                    deal_id  text COLLATE "C" PRIMARY KEY,
                    said     integer NOT NULL,
                    messages bytea[] NOT NULL
                )"""
            )

    async def put(self, deal: ArchivedDeal) -> bool:
        pool = await self._conn_pool()
        if sum(map(len, deal.records)) > LARGE_DEAL_BYTES:  # hashing it would hold the loop up
            digest = await asyncio.to_thread(content_digest, deal)
        else:
            digest = content_digest(deal)
        async with pool.acquire() as con, con.transaction():
            inserted = await con.fetchval(
                f"INSERT INTO {self.table} (deal_id, game, created_ms, finished_ms, spectators, head_hash,"
                " record_count, digest, meta, records) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9::jsonb,$10)"
                " ON CONFLICT (deal_id) DO NOTHING RETURNING true",
                deal.deal_id, deal.game, deal.created_ms, deal.finished_ms, spectators_of(deal.meta),
                deal.head_hash, len(deal.records), digest, json.dumps(deal.meta), deal.records,
            )  # fmt: skip
            if inserted:
                return True
            row = await con.fetchrow(
                f"SELECT digest, meta::text AS meta FROM {self.table} WHERE deal_id = $1 FOR UPDATE",
                deal.deal_id,
            )
            if row["digest"] != digest:
                raise ArchiveConflict(deal.deal_id, "records, head hash or times")
            merged = merge_meta(json.loads(row["meta"]), deal.meta, deal.deal_id)
            if merged is not None:
                await con.execute(
                    f"UPDATE {self.table} SET meta = $2::jsonb WHERE deal_id = $1",
                    deal.deal_id,
                    json.dumps(merged),
                )
            return False

    async def get(self, deal_id: str) -> ArchivedDeal | None:
        pool = await self._conn_pool()
        row = await pool.fetchrow(
            f"SELECT deal_id, game, created_ms, finished_ms, meta::text AS meta, records, head_hash"
            f" FROM {self.table} WHERE deal_id = $1",
            deal_id,
        )
        if row is None:
            return None
        return ArchivedDeal(
            row["deal_id"],
            row["game"],
            row["created_ms"],
            row["finished_ms"],
            json.loads(row["meta"]),
            list(row["records"]),
            row["head_hash"],
        )

    async def records(self, deal_id: str) -> list[bytes] | None:
        pool = await self._conn_pool()
        value: Any = await pool.fetchval(f"SELECT records FROM {self.table} WHERE deal_id = $1", deal_id)
        return None if value is None else list(value)

    async def meta(self, deal_id: str) -> dict[str, str] | None:
        pool = await self._conn_pool()
        value = await pool.fetchval(f"SELECT meta::text FROM {self.table} WHERE deal_id = $1", deal_id)
        return None if value is None else json.loads(value)

    async def list(self, offset: int = 0, count: int = 100) -> list[ArchivedListing]:
        pool = await self._conn_pool()
        rows = await pool.fetch(
            f"SELECT deal_id, game, created_ms, finished_ms, spectators FROM {self.table}"
            " ORDER BY created_ms DESC, deal_id DESC LIMIT $1 OFFSET $2",
            max(0, count),
            max(0, offset),
        )
        return [ArchivedListing(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def count(self) -> int:
        pool = await self._conn_pool()
        return await pool.fetchval(f"SELECT count(*) FROM {self.table}")

    async def claim_meta(self, deal_id: str, field: str, value: str) -> str | None:
        pool = await self._conn_pool()
        # one statement: the row lock of the UPDATE makes two claims at once take turns
        await pool.execute(
            f"UPDATE {self.table} SET meta = meta || jsonb_build_object($2::text, $3::text)"
            " WHERE deal_id = $1 AND NOT meta ? $2",
            deal_id,
            field,
            value,
        )
        return await pool.fetchval(f"SELECT meta ->> $2 FROM {self.table} WHERE deal_id = $1", deal_id, field)

    async def release_meta(self, deal_id: str, field: str, value: str) -> None:
        pool = await self._conn_pool()
        await pool.execute(
            f"UPDATE {self.table} SET meta = meta - $2::text WHERE deal_id = $1 AND meta ->> $2 = $3",
            deal_id,
            field,
            value,
        )

    async def put_chat(self, deal_id: str, said: int, messages: ChatMessages) -> None:
        pool = await self._conn_pool()
        table = f'"{self.schema}".{CHAT_TABLE}'
        await pool.execute(
            f"INSERT INTO {table} (deal_id, said, messages) VALUES ($1, $2, $3)"
            f" ON CONFLICT (deal_id) DO UPDATE SET said = excluded.said, messages = excluded.messages"
            f" WHERE excluded.said > {table}.said",
            deal_id,
            said,
            messages,
        )

    async def chat(self, deal_id: str) -> ChatCopy | None:
        pool = await self._conn_pool()
        row = await pool.fetchrow(
            f'SELECT said, messages FROM "{self.schema}".{CHAT_TABLE} WHERE deal_id = $1', deal_id
        )
        return None if row is None else (int(row["said"]), list(row["messages"]))

    async def close(self) -> None:
        if self._pool is not None:  # the matches' table has none of its own: the deals' closes it
            pool, self._pool = self._pool, None
            try:
                await asyncio.wait_for(pool.close(), CLOSE_TIMEOUT_S)
            except TimeoutError:
                pool.terminate()

    async def drop_schema(self) -> None:
        """Drop this archive's schema and everything in it (tests, and nothing else)."""
        pool = await self._conn_pool()
        await pool.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')
