"""``python -m bench.ratings`` rebuilds ratings from seeded synthetic results and checks the
rebuild against an incremental run, and seats quick play's seekers on one process; through
``bench.all`` too."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.ratings import run

ROOT = Path(__file__).resolve().parents[2]


def test_the_rebuild_equals_the_incremental_run_and_the_same_seed_the_same_ratings():
    first = run(3000, seed=5, accounts=40, batch=11)
    assert first["equal"] and first["largest_difference"] == 0.0
    assert first["players"] == {"mcr": 43, "paohuzi": 43}
    assert first["rebuild_results_per_s"] > 0 and first["incremental_results_per_s"] > 0
    assert run(3000, seed=5, accounts=40, batch=3)["equal"]


def test_bench_all_runs_the_ratings_bench():
    done = subprocess.run(
        [sys.executable, "-m", "bench.all", "--quick", "--json", "--only", "ratings"],
        cwd=str(ROOT), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)["ratings"]
    assert figures["results"] == 10_000 and figures["equal"] is True
    # quick play on one process: every seeker seated once, none before a seat could exist
    assert figures["quick_play_seekers"] == 200 and figures["quick_play_seated_once"] is True
    assert 0 < figures["quick_play_p50_to_seat_s"] <= figures["quick_play_p99_to_seat_s"]
    assert figures["quick_play_tables"] >= 200 // 3
