"""The archive contract on SQLite (the embedded default: a file in the data directory)."""

from __future__ import annotations

import sqlite3

import pytest

from service.store.archive import ARCHIVE_FILE, open_archive
from service.store.archive.sqlite import SqliteArchive
from tests.contracts.archive_contract import ArchiveContract, make_deal


class TestSqliteArchive(ArchiveContract):
    @pytest.fixture
    def open_same(self, tmp_path):
        path = tmp_path / "data" / ARCHIVE_FILE
        return lambda: SqliteArchive(path)


async def test_the_default_is_a_wal_file_in_the_data_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("DEALSTREAM_ARCHIVE_URL", raising=False)
    archive = open_archive(None, tmp_path / "dealstream-data")
    try:
        assert isinstance(archive, SqliteArchive)
        await archive.put(make_deal("d1"))
    finally:
        await archive.close()
    path = tmp_path / "dealstream-data" / ARCHIVE_FILE
    con = sqlite3.connect(path)
    try:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert con.execute("SELECT deal_id, record_count FROM archived_deals").fetchall() == [("d1", 30)]
    finally:
        con.close()


async def test_an_archive_url_picks_the_backend(tmp_path):
    archive = open_archive(f"sqlite://{tmp_path}/elsewhere.sqlite3", tmp_path / "unused")
    try:
        assert isinstance(archive, SqliteArchive) and archive.path == tmp_path / "elsewhere.sqlite3"
    finally:
        await archive.close()
    with pytest.raises(ValueError):
        open_archive("mysql://somewhere/db", tmp_path)
