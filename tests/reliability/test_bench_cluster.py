"""``python -m bench.cluster`` prices the replica acknowledgement on a real cluster."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.reliability.harness import ROOT


@pytest.mark.timeout(150)
def test_cluster_bench_measures_appends_with_and_without_wait(cluster):
    done = subprocess.run(
        [sys.executable, "-m", "bench.cluster", "--json", "--redis", cluster.url, "--appends", "40",
         "--rounds", "1", "--concurrency", "8"],
        cwd=ROOT, capture_output=True, text=True, timeout=140, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["wait_p50_ms"] > 0 and figures["no_wait_p50_ms"] > 0
    assert figures["ratio_throughput_wait_vs_no_wait"] > 0
