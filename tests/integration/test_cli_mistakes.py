"""The command line as an operator meets it: a mistake (a file that is not there, a Redis that
does not answer, a folder that does not exist, a bot level a game lacks) is one line and exit 1
(2 for a bad argument), never a traceback; ``export --all`` and ``import --all`` show how far
they are; counts take the noun's number."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.app.commands.deals import DealService
from service.cli.words import Progress, count
from service.store.connection import connect
from service.store.event_store import EventStore
from tests.conftest import drop_prefix
from tests.e2e.conftest import wait_for

ROOT = Path(__file__).resolve().parents[2]
NOBODY = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def cli(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALSTREAM_")}
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        cwd=str(ROOT), env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=300,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip


def one_line(done: subprocess.CompletedProcess, code: int = 1) -> str:
    assert done.returncode == code, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_import_of_a_missing_file_is_one_line(tmp_path):
    missing = tmp_path / "nope.jsonl"
    line = one_line(cli("import", str(missing), "--redis", NOBODY))
    assert line == f"dealstream import: {missing}: no such file or directory"


def test_audit_with_an_unreachable_redis_is_one_line():
    line = one_line(cli("audit", "some-deal", "--redis", NOBODY))
    assert line.startswith(f"dealstream audit: cannot reach Redis at {NOBODY}"), line
    assert "--redis" in line


def test_export_all_into_a_missing_folder_is_one_line(tmp_path):
    out = tmp_path / "no" / "such" / "all.jsonl"
    line = one_line(cli("export", "--all", "--out", str(out), "--redis", NOBODY))
    assert f"the folder {out.parent} does not exist" in line, line


def test_simulate_names_the_bad_level():
    line = one_line(cli("simulate", "--game", "mcr", "--bots", "greedy,clever,greedy,greedy"), code=2)
    assert "'clever'" in line and "greedy" in line and "strong" in line, line
    line = one_line(cli("simulate", "--game", "paohuzi", "--bots", "greedy"), code=2)
    assert "1 levels" not in line and "3 seats" in line, line


def test_counts_take_the_nouns_number():
    assert count(1, "inaccuracy") == "1 inaccuracy"
    assert count(2, "inaccuracy") == "2 inaccuracies"
    assert count(0, "mistake") == "0 mistakes"
    assert count(1, "match") == "1 match" and count(3, "match") == "3 matches"
    assert count(1, "deal") == "1 deal"


def test_progress_off_a_terminal_is_a_line_a_tenth():
    out = io.StringIO()
    progress = Progress("export", 100, "deal", out)
    for _ in range(100):
        progress.step()
    lines = out.getvalue().splitlines()
    assert lines[0] == "export: 1/100 deals" and lines[-1] == "export: 100/100 deals"
    assert len(lines) == 11, lines


@pytest.mark.redis
async def test_export_all_and_import_all_show_progress(real_redis_url, key_prefix, tmp_path):
    client = connect(real_redis_url)
    store = EventStore(client, key_prefix)
    deals = DealService(store)
    target = f"{key_prefix}-into"
    try:
        made = [(await deals.create("mcr", ["bot:greedy"] * 4, f"seed-{i}")).deal_id for i in range(2)]
        for deal_id in made:

            async def over(deal_id: str = deal_id) -> bool:
                return (await deals.load(deal_id)).over

            await wait_for(over, timeout=120)
        common = ["--redis", real_redis_url, "--archive", f"sqlite:///{tmp_path / 'a.db'}"]
        stream = tmp_path / "all.jsonl"
        done = cli("export", "--all", "--out", str(stream), "--prefix", key_prefix, *common)
        assert done.returncode == 0, done.stderr
        assert "export: read from Redis: 2/2 deals" in done.stderr, done.stderr
        assert "exported 2 deals, 0 matches" in done.stderr, done.stderr
        done = cli("import", "--all", str(stream), "--prefix", target, *common)
        assert done.returncode == 0, done.stderr
        assert "import: 1/2 deals" in done.stderr and "import: 2/2 deals" in done.stderr, done.stderr
        assert "imported 2 deals" in done.stderr
    finally:
        await deals.close()
        await drop_prefix(client, key_prefix)
        await drop_prefix(client, target)
        await client.aclose()
