"""``python -m bench.all`` merges the bench modules' figures into one table or one JSON object."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.reliability.harness import ROOT

pytestmark = pytest.mark.redis


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bench.all", "--quick", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


@pytest.mark.timeout(150)
def test_bench_all_prints_every_module_figure_as_json_and_as_one_table(real_redis_url):
    done = _run("--json", "--only", "store,paohuzi", "--redis", real_redis_url)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    figures = json.loads(lines[0])
    assert set(figures) == {"store", "paohuzi"}
    assert figures["store"]["ratio_batch1"] > 0 and figures["store"]["raw_xadd_events_per_s"] > 0
    assert figures["paohuzi"]["fold_over_decode"] > 0 and figures["paohuzi"]["tournament"]["deals"] == 100
    table = _run("--only", "store", "--redis", real_redis_url)
    assert table.returncode == 0, table.stderr
    rows = table.stdout.splitlines()
    assert rows[0].split() == ["bench", "figure", "value"]
    assert any(r.split()[:2] == ["store", "redis"] for r in rows)
    assert any("ratio_batch1" in r for r in rows)


def test_a_failing_module_is_reported_and_fails_the_run():
    done = _run("--json", "--only", "store", "--redis", "redis://127.0.0.1:1/0", "--timeout", "60")
    assert done.returncode == 1
    assert "error" in json.loads(done.stdout)["store"]
