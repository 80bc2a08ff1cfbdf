"""The archiver killed (SIGKILL) right after each of its steps, then run again: every deal ends in
exactly one place, whole, its chain verifying, and nothing is archived twice.

``dealstream archive`` runs in a subprocess with ``DEALSTREAM_ARCHIVER_CRASH_AFTER=<step>:<n>``,
which makes it kill itself right after that step of its n-th deal. With ``--jobs 1`` the deals go
in id order (they all finished at the same time), so the state the kill leaves is known exactly;
with ``--jobs 4`` several deals are between steps at the moment of the kill.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from service.app.archive.archiver import CRASH_ENV, STEPS
from service.store.archive.postgres import PostgresArchive
from service.store.archive.sqlite import SqliteArchive
from service.store.connection import connect
from service.store.event_store import EventStore
from tests.conftest import drop_prefix
from tests.integration.archive_helpers import (
    assert_whole_in_archive,
    assert_whole_in_redis,
    in_redis,
    play_finished,
    prefix_keys,
)
from tests.integration.postgres_url import POSTGRES_URL, with_schema

pytestmark = pytest.mark.redis
ROOT = Path(__file__).resolve().parents[2]
DEALS = 6
KILLED_AT = 3  # the deal (in processing order) whose step is the last thing the process does
# each deal's copy, check and removal must end within its lease, and the dead archiver's lease must
# outlast the checks after the kill: on a loaded machine half a second was not always enough
LEASE_S = 5.0


async def wait_for_leases_to_run_out(store: EventStore) -> None:
    """Until no archive lease is left (the dead archiver's runs out after ``LEASE_S``)."""
    deadline = time.monotonic() + LEASE_S + 60
    while any(k.endswith(":archiving") for k in await prefix_keys(store)):
        assert time.monotonic() < deadline, "an archive lease outlived its time"
        await asyncio.sleep(0.05)


def run_archiver(redis_url: str, prefix: str, archive_url: str, jobs: int, crash: str | None):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(CRASH_ENV, None)
    if crash:
        env[CRASH_ENV] = crash
    args = ["--redis", redis_url, "--prefix", prefix, "--archive", archive_url, "--older-than", "0"]
    args += ["--once", "--json", "--lease", str(LEASE_S), "--jobs", str(jobs)]
    return subprocess.run(
        [sys.executable, "-m", "service.cli", "archive", *args],
        cwd=str(ROOT),
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture(params=["sqlite", "postgres"])
async def archive_url(request, tmp_path):
    if request.param == "sqlite":
        url = f"sqlite://{tmp_path}/archive.sqlite3"
        yield url, lambda: SqliteArchive(tmp_path / "archive.sqlite3")
        return
    url = with_schema(POSTGRES_URL, f"dstest_{uuid.uuid4().hex[:12]}")
    yield url, lambda: PostgresArchive(url)
    cleaner = PostgresArchive(url)
    await cleaner.drop_schema()
    await cleaner.close()


@pytest.fixture
async def store(real_redis_url, key_prefix):
    client = connect(real_redis_url)
    await client.ping()
    store = EventStore(client, key_prefix)
    yield store
    store.close()
    await drop_prefix(client, key_prefix)
    await client.aclose()


@pytest.mark.parametrize("step", STEPS)
async def test_a_kill_after_each_step_loses_nothing_and_archives_nothing_twice(
    store, archive_url, real_redis_url, step
):
    url, open_archive = archive_url
    originals = sorted(await play_finished(store, ["paohuzi"] * DEALS), key=lambda o: o.deal_id)

    killed = run_archiver(real_redis_url, store.prefix, url, 1, f"{step}:{KILLED_AT}")
    assert killed.returncode == -signal.SIGKILL, killed.stderr

    archive = open_archive()
    try:
        # the state the kill left, deal by deal
        done, victim, untouched = originals[: KILLED_AT - 1], originals[KILLED_AT - 1], originals[KILLED_AT:]
        for original in done:
            await assert_whole_in_archive(archive, original)
            assert not await in_redis(store, original.deal_id)
        for original in untouched:
            await assert_whole_in_redis(store, original)
            assert await archive.get(original.deal_id) is None
        victim_in_archive = step != "leased"
        victim_in_redis = step != "removed"
        if victim_in_archive:
            await assert_whole_in_archive(archive, victim)
        else:
            assert await archive.get(victim.deal_id) is None
        if victim_in_redis:
            await assert_whole_in_redis(store, victim)
            assert await store.redis.exists(store.keys.archive_lease(victim.deal_id))  # the dead one's
        else:
            assert not await in_redis(store, victim.deal_id)

        await wait_for_leases_to_run_out(store)
        again = run_archiver(real_redis_url, store.prefix, url, 1, None)
        assert again.returncode == 0, again.stderr
        report = json.loads(again.stdout.splitlines()[-1])
        left = DEALS - KILLED_AT + victim_in_redis
        assert (report["archived"], report["failed"], report["changed"]) == (left, 0, 0)
        assert report["already"] == (1 if victim_in_archive and victim_in_redis else 0)

        # every deal in exactly one place, whole; nothing twice
        for original in originals:
            await assert_whole_in_archive(archive, original)
        assert await archive.count() == DEALS
        newest_first = sorted(originals, key=lambda o: (int(o.meta["created_ms"]), o.deal_id), reverse=True)
        assert [x.deal_id for x in await archive.list(0, 100)] == [o.deal_id for o in newest_first]
        assert await prefix_keys(store) == []
    finally:
        await archive.close()


async def test_a_kill_with_several_deals_in_flight(store, archive_url, real_redis_url):
    url, open_archive = archive_url
    originals = await play_finished(store, ["paohuzi"] * 8)
    killed = run_archiver(real_redis_url, store.prefix, url, 4, f"copied:{KILLED_AT}")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    archive = open_archive()
    try:
        for original in originals:  # whole in Redis, or whole in the archive, or both: never lost
            here = await in_redis(store, original.deal_id)
            if here:
                await assert_whole_in_redis(store, original)
            if not here or await archive.get(original.deal_id) is not None:
                await assert_whole_in_archive(archive, original)
        await wait_for_leases_to_run_out(store)
        again = run_archiver(real_redis_url, store.prefix, url, 4, None)
        assert again.returncode == 0, again.stderr
        assert json.loads(again.stdout.splitlines()[-1])["failed"] == 0
        for original in originals:
            await assert_whole_in_archive(archive, original)
        assert await archive.count() == 8
        assert await prefix_keys(store) == []
    finally:
        await archive.close()


async def test_the_command_line_reports_a_round_and_backfills(store, real_redis_url, tmp_path):
    originals = await play_finished(store, ["paohuzi", "mcr"])
    await store.redis.delete(store.keys.finished_index)  # as before the finished index existed
    url = f"sqlite://{tmp_path}/archive.sqlite3"
    common = ["--redis", real_redis_url, "--prefix", store.prefix, "--archive", url, "--once"]

    def cli(*extra: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "service.cli", "archive", *common, *extra],
            cwd=str(ROOT), env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
            timeout=120, stdin=subprocess.DEVNULL,
        )  # fmt: skip

    plain = cli("--older-than", "0")
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.startswith("0 archived") and "2 in the archive" not in plain.stdout
    backfilled = cli("--older-than", "0", "--backfill")
    assert backfilled.returncode == 0, backfilled.stderr
    assert "2 finished deals added" in backfilled.stderr
    assert "2 archived (0 were already)" in backfilled.stdout and "2 in the archive" in backfilled.stdout
    archive = SqliteArchive(tmp_path / "archive.sqlite3")
    try:
        for original in originals:
            await assert_whole_in_archive(archive, original)
    finally:
        await archive.close()
    assert await prefix_keys(store) == []
    refused = cli("--older-than", "-1")
    assert refused.returncode == 2 and "--older-than" in refused.stderr
