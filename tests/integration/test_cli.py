"""The ``dealstream`` command line: simulate, export, audit, import, replay, on a real Redis."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.app.deals import DealService
from service.store.event_store import EventStore
from tests.conftest import drop_prefix
from tests.e2e.conftest import wait_for

pytestmark = pytest.mark.redis
ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        cwd=str(ROOT),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    if check:
        assert proc.returncode == 0, proc.stderr + proc.stdout
    return proc


def test_simulate_prints_a_summary_for_each_game():
    for game, bots, seats in (
        ("paohuzi", "greedy,random,random", 3),
        ("mcr", "greedy,greedy,greedy,random", 4),
    ):
        out = json.loads(cli("simulate", "--game", game, "--deals", "12", "--bots", bots, "--json").stdout)
        assert out["deals"] == 12 and len(out["wins_per_seat"]) == seats
        assert sum(out["wins_per_seat"]) + out["draws"] == 12
        assert sum(out["net_payments_per_seat"]) == 0
    table = cli("simulate", "--game", "paohuzi", "--deals", "3").stdout
    assert "wins" in table and "deals/s" in table
    assert cli("simulate", "--game", "mcr", "--bots", "greedy", check=False).returncode == 2


async def test_export_audit_import_replay_round_trip(real_redis_url, key_prefix, tmp_path):
    from service.store.connection import connect

    client = connect(real_redis_url)
    store = EventStore(client, key_prefix)
    deals = DealService(store, bot_delay=0.0)
    try:
        created = await deals.create("mcr", ["bot:greedy"] * 4, "cli")
        deal_id = created["deal_id"]

        async def over():
            return (await deals.load(deal_id)).over

        await wait_for(over, timeout=60)
        common = ["--redis", real_redis_url, "--prefix", key_prefix]
        audit = cli("audit", deal_id, *common)
        assert "AUDIT OK" in audit.stdout
        exported = cli("export", deal_id, *common).stdout
        path = tmp_path / "deal.jsonl"
        path.write_text(exported)
        assert len(exported.splitlines()) == (await deals.load(deal_id)).version
        assert "AUDIT OK" in cli("audit", str(path)).stdout

        # an import into another prefix keeps every byte
        other = key_prefix + "-imp"
        assert (
            cli("import", str(path), "--redis", real_redis_url, "--prefix", other).stdout.strip() == deal_id
        )
        imported = ["--redis", real_redis_url, "--prefix", other]
        again = cli("export", deal_id, *imported).stdout
        assert again == exported
        # a finished log, imported, is as public as any finished deal
        assert await EventStore(client, other).list_deals(public=True) == [deal_id]
        refused = cli("import", str(path), "--redis", real_redis_url, "--prefix", other, check=False)
        assert refused.returncode == 1 and "exists" in refused.stderr
        await drop_prefix(client, other)

        # --json keeps the raw events for scripts; without it the replay is in words (issue 13)
        replay = cli("replay", str(path), "--no-pause", "--json").stdout.splitlines()
        assert replay[0].lstrip().startswith("1 ")
        seat_replay = cli("replay", str(path), "--perspective", "2", "--no-pause", "--json").stdout
        assert '"type": "TilesDealt"' in seat_replay
        words = cli("replay", str(path), "--no-pause").stdout
        assert "TilesDealt" not in words and words.startswith(f"deal {deal_id} (mcr/")

        # one changed byte in the file: the audit fails and names the version
        lines = exported.splitlines()
        lines[9] = lines[9].replace('"recorded_at":"', '"recorded_at":"x', 1)
        path.write_text("\n".join(lines) + "\n")
        failed = cli("audit", str(path), check=False)
        assert failed.returncode == 1
        assert "problem at version 11" in failed.stdout and "AUDIT FAILED" in failed.stdout
        refused = cli("import", str(path), "--redis", real_redis_url, "--prefix", other, check=False)
        assert refused.returncode == 1 and "version 11" in refused.stderr
    finally:
        await deals.close()
        await drop_prefix(client, key_prefix)
        await client.aclose()
