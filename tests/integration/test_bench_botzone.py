"""``python -m bench.botzone`` without a judge binary: whole games of four ``dealstream botzone``
seats refereed by our own statement of the judge's reading, with no penalty (issue 25)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_botzone_bench_plays_whole_games_without_a_penalty():
    done = subprocess.run(
        [sys.executable, "-m", "bench.botzone", "--games", "2", "--json"],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["games"] == 2 and figures["completed"] == 2
    assert figures["penalties"] == 0 and figures["penalty_details"] == []
    assert figures["answers"] > 0 and figures["first_turn_s"]["max"] > 0
