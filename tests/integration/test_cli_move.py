"""``dealstream export --all`` / ``import --all`` (issue 26): deals of both games, finished (one
of them already in the archive) and live, moved from one store (a key prefix on the real Redis,
with its SQLite archive) to another prefix, as one stream and as a directory; each imported
deal's audit is green in the target, its records are the same bytes and its meta came along; a
second import skips them all, and a tampered deal is refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.app.archive.archiver import Archiver
from service.app.commands.deals import DealService
from service.store.archive import open_archive
from service.store.connection import connect
from service.store.event_store import EventStore
from tests.conftest import drop_prefix
from tests.e2e.conftest import wait_for

pytestmark = pytest.mark.redis
ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALSTREAM_")}
    proc = subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        cwd=str(ROOT), env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, timeout=300,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    if check:
        assert proc.returncode == 0, (proc.stderr + proc.stdout).decode(errors="replace")
    return proc


async def test_every_deal_moves_to_another_store_audited_and_byte_for_byte(
    real_redis_url, key_prefix, tmp_path
):
    client = connect(real_redis_url)
    source_archive = tmp_path / "source.sqlite3"
    archive = open_archive(f"sqlite:///{source_archive}", tmp_path, prefix="ds")
    store = EventStore(client, key_prefix, archive=archive)
    deals = DealService(store)
    targets = [f"{key_prefix}-stream", f"{key_prefix}-dir"]
    try:
        finished = [
            (await deals.create("mcr", ["bot:greedy"] * 4, "move-1")).deal_id,
            (await deals.create("paohuzi", ["bot:greedy"] * 3, "move-2")).deal_id,
        ]
        live = [
            (await deals.create("mcr", ["human"] + ["bot:greedy"] * 3, "move-3")).deal_id,
            (await deals.create("paohuzi", ["human", "bot:greedy", "bot:greedy"], "move-4")).deal_id,
        ]
        for deal_id in finished:

            async def over(deal_id: str = deal_id) -> bool:
                return (await deals.load(deal_id)).over

            await wait_for(over, timeout=120)
        # the MCR deal leaves Redis for the archive
        archiver = Archiver(store, archive, older_than=0.0)
        await wait_for(lambda: _archived(archiver, store, finished[0]), timeout=60)
        assert await client.exists(store.keys.events(finished[0])) == 0
        source = {d: await store.read_raw(d) for d in finished + live}
        metas = {d: await store.reader.get_meta(d) for d in live + finished[1:]}
        assert all(source.values())

        common = ["--redis", real_redis_url, "--archive", f"sqlite:///{source_archive}"]
        stream = tmp_path / "all.jsonl"
        cli("export", "--all", "--out", str(stream), "--prefix", key_prefix, *common)
        directory = tmp_path / "deals/"
        cli("export", "--all", "--out", str(directory) + "/", "--prefix", key_prefix, *common)
        assert sorted(p.name for p in directory.glob("*.jsonl")) == sorted(f"{d}.jsonl" for d in source)

        for target, what in zip(targets, (str(stream), str(directory)), strict=True):
            into = [
                "--redis",
                real_redis_url,
                "--prefix",
                target,
                "--archive",
                f"sqlite:///{tmp_path / target}.db",
            ]
            done = cli("import", "--all", what, *into)
            assert b"imported 4 deals, 0 already there, 0 refused" in done.stderr, done.stderr
            moved = EventStore(client, target)
            for deal_id, records in source.items():
                assert await moved.read_raw(deal_id) == records  # the same bytes
                audit = json.loads(cli("audit", deal_id, "--json", *into, check=False).stdout)
                assert audit["problems"] == [] and audit["chain_ok"] and audit["redecided_ok"], audit
                assert audit["ok"] is (deal_id in finished), audit  # a live deal's audit is not closed yet
            for deal_id, meta in metas.items():
                assert await moved.reader.get_meta(deal_id) == meta  # token digests too: the seats play on
            assert await moved.indexes.finished_count() == 2  # both finished deals listed for its archiver
            again = cli("import", "--all", what, *into)
            assert b"imported 0 deals, 4 already there, 0 refused" in again.stderr

        # a deal whose records were changed is refused, the others are stored
        lines = stream.read_bytes().splitlines()
        header = next(i for i, line in enumerate(lines) if live[0].encode() in line and b'"records"' in line)
        lines[header + 1] = lines[header + 1].replace(b"{", b"{ ", 1)  # its first record, one byte more
        tampered = tmp_path / "tampered.jsonl"
        tampered.write_bytes(b"\n".join(lines) + b"\n")
        third = f"{key_prefix}-tampered"
        targets.append(third)
        bad = cli("import", "--all", str(tampered), "--redis", real_redis_url, "--prefix", third,
                  "--archive", f"sqlite:///{tmp_path / 'third.db'}", check=False)  # fmt: skip
        assert bad.returncode == 1 and f"refused {live[0]}".encode() in bad.stderr, bad.stderr
        assert b"imported 3 deals" in bad.stderr
    finally:
        await deals.close()
        for prefix in (key_prefix, *targets):
            await drop_prefix(client, prefix)
        await archive.close()
        await client.aclose()


async def _archived(archiver: Archiver, store: EventStore, deal_id: str) -> bool:
    await archiver.archive_once()
    return await store.redis.exists(store.keys.events(deal_id)) == 0
