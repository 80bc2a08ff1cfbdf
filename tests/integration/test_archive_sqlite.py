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
    archive = open_archive(None, tmp_path / "dealstream-data", prefix="ds")
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
    archive = open_archive(f"sqlite://{tmp_path}/elsewhere.sqlite3", tmp_path / "unused", prefix="ds")
    try:
        assert isinstance(archive, SqliteArchive) and archive.path == tmp_path / "elsewhere.sqlite3"
    finally:
        await archive.close()
    with pytest.raises(ValueError):
        open_archive("mysql://somewhere/db", tmp_path, prefix="ds")


async def test_the_default_archive_is_one_per_prefix(tmp_path, monkeypatch):
    """Services of different prefixes on one data directory keep their finished deals and
    matches apart: the default prefix's archive is the file every archive so far was, any other
    prefix's a file of its own (its name made safe), and neither serves the other's deals."""
    from service.bootstrap import Settings

    monkeypatch.delenv("DEALSTREAM_ARCHIVE_URL", raising=False)
    data = tmp_path / "data"
    default = Settings(prefix="ds", data_dir=str(data)).open_archive()
    other = Settings(prefix="team/b:1", data_dir=str(data)).open_archive()
    try:
        await default.put(make_deal("d-default"))
        await other.put(make_deal("d-other"))
        await other.matches().put(make_deal("m-other"))
        assert await default.get("d-other") is None and await default.matches().get("m-other") is None
        assert await other.get("d-default") is None
        assert [row.deal_id for row in await default.list()] == ["d-default"]
        assert [row.deal_id for row in await other.list()] == ["d-other"]
    finally:
        await default.close()
        await other.close()
    con = sqlite3.connect(data / ARCHIVE_FILE)  # the default prefix's file is the one it always was
    try:
        assert con.execute("SELECT deal_id FROM archived_deals").fetchall() == [("d-default",)]
    finally:
        con.close()
    assert sorted(p.name for p in data.glob("*.sqlite3")) == ["archive-team%2Fb%3A1.sqlite3", ARCHIVE_FILE]
