"""The test command needs nothing but Python: with no ``DEALSTREAM_TEST_*`` variable,
``tests/servers.py`` starts a Redis and a PostgreSQL of its own on free loopback ports (never the
shared 6379 and 5432) and stops them at the end; a variable naming a server that does not answer
ends the run with one line saying what to do."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.reliability.harness import ROOT

PROBE = """
import asyncio, json, os
import asyncpg, redis
from tests import servers
r, p = servers.redis_url(), servers.postgres_url()
assert redis.Redis.from_url(r).ping()
async def one():
    c = await asyncpg.connect(p)
    try:
        return await c.fetchval("select current_database()")
    finally:
        await c.close()
db = asyncio.run(one())
pids = [proc.pid for proc, _sig, _dir in servers._started]
env = {k: os.environ[k] for k in (servers.REDIS_VAR, servers.POSTGRES_VAR, servers.BENCH_POSTGRES_VAR)}
servers.stop_all()
print(json.dumps({"redis": r, "postgres": p, "db": db, "pids": pids, "env": env}))
"""


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALSTREAM_")}
    return {**env, "PYTHONPATH": str(ROOT)}


def test_with_no_variable_the_session_starts_its_own_servers_and_stops_them():
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=clean_env(), capture_output=True, text=True,
        timeout=180, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["redis"].startswith("redis://127.0.0.1:") and ":6379/" not in got["redis"]
    assert got["postgres"].startswith("postgresql://postgres@127.0.0.1:") and ":5432/" not in got["postgres"]
    assert got["db"] == "test"
    assert got["env"] == {
        "DEALSTREAM_TEST_REDIS_URL": got["redis"],
        "DEALSTREAM_TEST_POSTGRES_URL": got["postgres"],
        "DEALSTREAM_BENCH_POSTGRES_URL": got["postgres"],
    }
    assert len(got["pids"]) == 2
    for pid in got["pids"]:  # stopped, not left behind
        assert not os.path.exists(f"/proc/{pid}") or "zombie" in open(f"/proc/{pid}/status").read().lower()


def test_a_variable_naming_a_dead_server_ends_the_run_with_one_line():
    env = {**clean_env(), "DEALSTREAM_TEST_REDIS_URL": "redis://127.0.0.1:1/0"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "tests/unit/test_usable_cpus.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    assert done.returncode == 3, done.stdout + done.stderr
    out = done.stdout + done.stderr
    assert "Traceback" not in out, out
    assert "DEALSTREAM_TEST_REDIS_URL=redis://127.0.0.1:1/0 does not answer" in out, out
