"""``python -m bench.streams`` runs its scenarios end to end and prints one JSON object of figures."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.reliability.harness import ROOT


@pytest.mark.timeout(240)
def test_bench_streams_quick_prints_its_figures():
    done = subprocess.run(
        [sys.executable, "-m", "bench.streams", "--quick", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=220, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    figures = json.loads(lines[0])
    fanout, churn, faults = figures["fanout"], figures["churn"], figures["faults"]
    assert fanout["commands_acked"] > 0 and fanout["commands_failed"] == 0
    assert fanout["delivery_samples"] > 0 and fanout["redis_stream_connections_max"] <= 4
    assert fanout["redis_blocked_clients_max"] == 0
    assert churn["streams_opened_and_dropped"] == 1000 and churn["probe_errors"] == 0
    assert churn["back_to_baseline_s"] is not None
    assert faults["acked_commands_lost"] == 0 and faults["streams_with_gap_or_repeat"] == 0
    assert faults["deals_finished"] == faults["deals"]
