"""``bench.tournament`` runs a small Swiss event to its end and times the pairing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(300)
def test_bench_tournament_runs_an_event_and_times_a_pairing(real_redis_url):
    done = subprocess.run(
        [
            sys.executable, "-m", "bench.tournament", "--json", "--quick", "--bot-delay", "0",
            "--redis", real_redis_url,
        ],
        cwd=str(ROOT), capture_output=True, text=True, timeout=280,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["event_players"] == 16 and figures["event_round_gaps"] == 1
    assert figures["event_round_gap_max_s"] >= 0 and figures["pair_swiss_s"] > 0
