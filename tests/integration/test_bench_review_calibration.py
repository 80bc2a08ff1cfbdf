"""``python -m bench.review_calibration --json --quick`` runs end to end (issue 24): decisions of
both games reviewed, their options played from the true position by strong seats, and the
claimed losses compared with the measured ones. A quick run is far too small to judge the
review by: this test checks that every figure is there and sane, never what it is, nor a time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _interval(v) -> None:
    assert v is None or (len(v) == 2 and v[0] <= v[1])


@pytest.mark.timeout(600)
def test_the_calibration_bench_compares_claimed_and_measured_losses() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.review_calibration", "--json", "--quick"],
        cwd=REPO, capture_output=True, text=True, timeout=580, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["method"]
    for game in ("mcr", "paohuzi"):
        g = figures[game]
        assert g["deals"] == 1 and g["continuations"] == 2 == g["mistake_continuations"]
        assert g["first_deal"] == 0
        # each marked mistake's row, so one measuring no loss can be looked up
        assert len(g["mistake_rows"]) == g["review"]["mistakes"]["count"]
        for row in g["mistake_rows"]:
            assert row["claimed"] > g["floors"]["mistake"] and row["measured_noise"] >= 0
        assert 0 < g["sampled_decisions"] <= 3 <= g["reviewed_decisions"]
        assert sum(g["verdicts_reviewed"].values()) == g["reviewed_decisions"]
        assert g["floors"]["mistake"] > g["floors"]["inaccuracy"] > 0
        blocks = [g["review"]] + ([g["model"]] if game == "mcr" else [])
        for b in blocks:
            assert 0 <= b["decisions"] <= g["sampled_decisions"]
            for key in ("slope_ci95", "correlation_ci95"):
                _interval(b.get(key))
            if b.get("correlation") is not None:
                assert -1.0 <= b["correlation"] <= 1.0
            assert b["measured_noise_mean"] is None or b["measured_noise_mean"] >= 0
            assert b.get("claim_error_sd") is None or b["claim_error_sd"] >= 0
            m = b["mistakes"]
            assert set(m) == {
                "count", "claimed_mean", "measured_mean", "measured_mean_ci95", "measured_over_claimed",
                "measured_over_claimed_ci95", "share_above_mistake_floor", "share_no_loss",
            }  # fmt: skip
            _interval(m["measured_mean_ci95"])
            _interval(m["measured_over_claimed_ci95"])
            if m["count"]:
                assert m["claimed_mean"] > 0
                assert 0 <= m["share_above_mistake_floor"] <= 1 and 0 <= m["share_no_loss"] <= 1
            assert sum(v["count"] for v in b["by_verdict"].values()) == b["decisions"]
    assert figures["mcr"]["model"]["floors"] == {"inaccuracy": 0.1, "mistake": 0.3}
