"""``python -m bench.capacity --quick --json`` ramps tiny tables, measures, archives, and prints
one JSON object of figures (speed itself is the bench's business, not this test's)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.reliability.harness import ROOT


@pytest.mark.timeout(240)
def test_bench_capacity_quick_prints_its_figures():
    done = subprocess.run(
        [sys.executable, "-m", "bench.capacity", "--quick", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=220, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    figures = json.loads(lines[0])
    assert figures["steps"], figures
    for step in figures["steps"]:
        assert step["actions"] > 0 and step["events_missing"] == 0 and step["commands_failed"] == 0
        assert step["action_to_event_p99_ms"] >= step["action_to_event_p50_ms"] >= 0
    assert figures["capacity_tables"] in [0] + [s["tables"] for s in figures["steps"] if s["held"]]
    assert figures["deals_started"] >= 2 and figures["failures"] == []
    archive = figures["archive"]
    assert archive["redis_keys_left"] == 0 and archive["sqlite_deals_per_s"] > 0
    assert archive["redis_bytes_per_finished_deal_in_redis"] > archive["redis_bytes_per_archived_deal"]


@pytest.mark.timeout(240)
def test_bench_capacity_drives_a_service_it_did_not_start():
    """``--target``: the people play a service started elsewhere (here by the test, as another
    host's would be); the bench starts no service or Redis and reads no CPU of theirs."""
    from bench.streams import Redis, Service

    server = Redis().start()
    service = Service(server.port, "--bot-delay", "0.1")
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bench.capacity", "--quick", "--json", "--target", service.base],
            cwd=ROOT, capture_output=True, text=True, timeout=220, check=False,
        )  # fmt: skip
        assert service.process.poll() is None  # the bench left the service running
    finally:
        service.stop()
        server.cleanup()
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["target"] == service.base and "archive" not in figures
    assert figures["deals_started"] >= 2 and figures["failures"] == []
    for step in figures["steps"]:
        assert step["actions"] > 0 and step["events_missing"] == 0 and step["commands_failed"] == 0
        assert step["service_cpu_cores"] is None and step["redis_cpu_cores"] is None
