"""``python -m bench.service --json`` runs end to end on a real Redis and prints every figure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.redis

REPO = Path(__file__).resolve().parents[2]

KEYS = {
    "commands_per_s",
    "trivial_requests_per_s",
    "ratio_commands_vs_trivial",
    "ratio_target",
    "command_latency_p50_ms",
    "command_latency_p99_ms",
    "replay_frame_latency_ms_step100",
    "replay_frame_latency_ms_step100_p99",
    "deals_finished",
    "commands",
    "errors_by_status",
    "redis",
}


@pytest.mark.timeout(60)
def test_small_service_bench_prints_every_figure_and_no_server_error(real_redis_url: str) -> None:
    args = ["--json", "--deals", "4", "--seconds", "20", "--redis", real_redis_url]
    done = subprocess.run(
        [sys.executable, "-m", "bench.service", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=55,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout
    figures = json.loads(lines[0])

    assert KEYS <= figures.keys(), KEYS - figures.keys()
    assert figures["commands"] > 0
    assert figures["commands_per_s"] > 0 and figures["trivial_requests_per_s"] > 0
    assert figures["ratio_commands_vs_trivial"] > 0
    assert figures["ratio_target"] == 0.4
    assert figures["deals_finished"] > 0
    assert figures["command_latency_p50_ms"] <= figures["command_latency_p99_ms"]
    server_errors = {s: n for s, n in figures["errors_by_status"].items() if s.startswith("5")}
    assert not server_errors, figures["errors_by_status"]
    assert not any(s.startswith("exception:") for s in figures["errors_by_status"]), figures
