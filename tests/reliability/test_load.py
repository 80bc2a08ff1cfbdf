"""Two service processes on one Redis: concurrent deals of both games to the end, no 5xx, audits pass."""

from __future__ import annotations

import os

import pytest

from tests.reliability.load import run_load

FULL = os.environ.get("DEALSTREAM_FULL_LOAD") == "1"
DEALS = 50  # at once, half MCR, half Paohuzi
ROUNDS = 4 if FULL else 1  # deals each table plays back to back


@pytest.mark.timeout(600 if FULL else 120)
async def test_concurrent_deals_on_two_processes_end_with_no_server_error(own_redis, prefix):
    report = await run_load(own_redis.url, prefix, DEALS, rounds=ROUNDS)
    players = report.pop("_players")
    print(report)
    total = DEALS * ROUNDS
    assert report["deals"] == total and report["deals_finished"] == total
    assert report["deals_by_game"] == {"mcr": total // 2, "paohuzi": total // 2}
    assert report["server_errors_5xx"] == 0, players.stats.bad_5xx[:5]
    assert not players.stats.unexpected_4xx, players.stats.unexpected_4xx[:5]
    assert not any(k.startswith("conn:") for k in report["responses_by_status"]), report
    assert report["client_commands"] >= total * 10
    assert report["command_latency_p99_ms"] < 2000
    # every acknowledged command is in the log once (check_log ran inside run_load) and audits passed
    assert report["audits_passed"] == total
