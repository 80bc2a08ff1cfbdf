"""The embedded default keeps every event across a stop and a start on the same directory."""

from __future__ import annotations

import msgspec

from domain.envelope import verify_chain
from service.store.connection import connect, resolve_redis_url
from service.store.embedded import EmbeddedRedis
from service.store.event_store import EventStore


class Noted(msgspec.Struct, frozen=True, tag=True):
    n: int


async def test_events_survive_a_restart_of_the_embedded_server(tmp_path):
    server = EmbeddedRedis(tmp_path / "data")
    url = server.start(timeout=60)
    assert url.startswith("unix://")
    client = connect(url)
    info = await client.info("persistence")
    assert info["aof_enabled"] == 1
    store = EventStore(client)
    for v in range(50):
        await store.append("deal", v, [Noted(v)], command_id=f"c{v}")
    await client.aclose()
    server.stop()
    assert server.process is None

    again = EmbeddedRedis(tmp_path / "data")
    client = connect(again.start(timeout=60))
    try:
        store = EventStore(client)
        raws = await store.read_raw("deal")
        assert [msgspec.json.decode(r)["data"]["n"] for r in raws] == list(range(50))
        assert verify_chain(raws) is None
        # the command ids came back too: a retry is still recognised
        dup = await store.append("deal", 50, [Noted(0)], command_id="c0")
        assert dup.duplicate and dup.first_version == 1
    finally:
        await client.aclose()
        again.stop()


def test_url_from_environment_wins(monkeypatch):
    monkeypatch.setenv("DEALSTREAM_REDIS_URL", "redis://127.0.0.1:6379/3")
    url, embedded = resolve_redis_url()
    assert url == "redis://127.0.0.1:6379/3" and embedded is None


def test_without_url_the_embedded_server_starts(monkeypatch, tmp_path):
    monkeypatch.delenv("DEALSTREAM_REDIS_URL", raising=False)
    url, embedded = resolve_redis_url(data_dir=str(tmp_path / "d"))
    try:
        assert embedded is not None and url == embedded.url
        assert (tmp_path / "d" / "redis.conf").read_text().count("appendonly yes") == 1
    finally:
        embedded.stop()
