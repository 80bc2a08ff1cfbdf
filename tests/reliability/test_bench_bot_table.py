"""``python -m bench.bot_table`` measures a person's commands at strong and at greedy tables."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.reliability.harness import ROOT

pytestmark = pytest.mark.redis


@pytest.mark.timeout(150)
def test_bot_table_bench_samples_both_levels_under_load(real_redis_url):
    args = ["--json", "--redis", real_redis_url, "--load", "1", "--probes", "2", "--windows", "2"]
    done = subprocess.run(
        [sys.executable, "-m", "bench.bot_table", *args, "--window-seconds", "5"],
        cwd=ROOT, capture_output=True, text=True, timeout=140, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["greedy_samples"] > 0 and figures["strong_samples"] > 0
    assert figures["ratio_p99_strong_vs_greedy"] > 0
    assert figures["errors_by_status"] == {}
    assert figures["load_commands_per_s_beside_strong"] > 0
