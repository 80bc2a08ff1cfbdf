"""The archive contract on PostgreSQL (asyncpg), each test in a schema of its own.

Needs a PostgreSQL server: ``DEALSTREAM_TEST_POSTGRES_URL``, default
``postgresql://postgres@127.0.0.1:5432/test`` (``.ci/run`` starts one). Never skipped.
"""

from __future__ import annotations

import asyncio
import uuid

import asyncpg
import pytest

from service.store.archive import open_archive
from service.store.archive.postgres import PostgresArchive, split_schema
from tests.contracts.archive_contract import ArchiveContract, make_deal
from tests.integration.postgres_url import POSTGRES_URL, with_schema


class TestPostgresArchive(ArchiveContract):
    @pytest.fixture
    async def open_same(self):
        url = with_schema(POSTGRES_URL, f"dstest_{uuid.uuid4().hex[:12]}")
        yield lambda: PostgresArchive(url)
        cleaner = PostgresArchive(url)
        await cleaner.drop_schema()
        await cleaner.close()


def test_the_schema_parameter_is_ours_and_checked():
    dsn, schema = split_schema("postgresql://u@h:5432/db?schema=abc_1&sslmode=disable")
    assert (dsn, schema) == ("postgresql://u@h:5432/db?sslmode=disable", "abc_1")
    assert split_schema("postgresql://u@h/db")[1] == "dealstream"
    with pytest.raises(ValueError):
        split_schema('postgresql://u@h/db?schema=x";drop')


async def test_two_processes_creating_the_schema_at_once():
    schema = f"dstest_{uuid.uuid4().hex[:12]}"
    url = with_schema(POSTGRES_URL, schema)
    archives = [open_archive(url, "/nonexistent", prefix="ds") for _ in range(4)]
    try:
        assert all(isinstance(a, PostgresArchive) for a in archives)
        await asyncio.gather(*(a.put(make_deal(f"d{i}")) for i, a in enumerate(archives)))
        assert await archives[0].count() == 4
        con = await asyncpg.connect(split_schema(url)[0])
        try:
            kind = await con.fetchval(
                "SELECT data_type FROM information_schema.columns"
                " WHERE table_schema = $1 AND table_name = 'archived_deals' AND column_name = 'records'",
                schema,
            )
        finally:
            await con.close()
        assert kind == "ARRAY"
    finally:
        await archives[0].drop_schema()
        for a in archives:
            await a.close()


async def test_a_read_behind_a_lock_fails_in_time_instead_of_hanging():
    """Another session holding the table locked makes a read fail after the command timeout (an
    ``ArchiveUnavailable`` to the event store: 503 and a retry), never wait for ever."""
    from service.store.archive import ArchivedLogs, ArchiveUnavailable

    url = with_schema(POSTGRES_URL, f"dstest_{uuid.uuid4().hex[:12]}")
    archive = PostgresArchive(url, command_timeout=0.5)
    await archive.put(make_deal("locked"))
    con = await asyncpg.connect(split_schema(url)[0])
    try:
        async with con.transaction():
            await con.execute(f"LOCK TABLE {archive.table} IN ACCESS EXCLUSIVE MODE")
            started = asyncio.get_running_loop().time()
            with pytest.raises(ArchiveUnavailable):
                await ArchivedLogs(archive).log("locked")
            assert asyncio.get_running_loop().time() - started < 10
        assert (await ArchivedLogs(archive).log("locked")) is not None  # the lock gone, it reads again
    finally:
        await con.close()
        await archive.drop_schema()
        await archive.close()
