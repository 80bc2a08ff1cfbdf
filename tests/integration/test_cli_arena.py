"""``dealstream arena`` and the walls of ``dealstream simulate``, through the real command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        cwd=str(ROOT),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    if check:
        assert proc.returncode == 0, proc.stderr + proc.stdout
    return proc


def one_json_object(stdout: str) -> dict:
    lines = [line for line in stdout.splitlines() if line.strip()]
    assert len(lines) == 1, stdout
    out = json.loads(lines[0])
    assert isinstance(out, dict)
    return out


def simulate(game: str, bots: str, seed: str, deals: int = 4) -> dict:
    return one_json_object(
        cli(
            "simulate", "--game", game, "--deals", str(deals), "--bots", bots, "--seed", seed, "--json"
        ).stdout
    )


def test_simulate_plays_the_same_walls_whatever_the_lineup() -> None:
    for game, a, b in (
        ("paohuzi", "greedy,greedy,greedy", "random,greedy,random"),
        ("mcr", "greedy,greedy,greedy,greedy", "random,random,greedy,random"),
    ):
        first, second = simulate(game, a, "w"), simulate(game, b, "w")
        assert first["walls_digest"] == second["walls_digest"]
        assert simulate(game, a, "other")["walls_digest"] != first["walls_digest"]


def test_simulate_takes_every_level_the_game_has() -> None:
    from service.app.games import kit

    for game in ("paohuzi", "mcr"):
        k = kit(game)
        n = k.game.seat_count
        for i in range(0, len(k.bot_levels), n):  # every level in some seat, greedy in the rest
            levels = (k.bot_levels[i : i + n] + ["greedy"] * n)[:n]
            out = simulate(game, ",".join(levels), "levels", deals=1)
            assert out["bots"] == levels and sum(out["net_payments_per_seat"]) == 0


def test_arena_prints_one_json_object_over_simulates_walls() -> None:
    out = one_json_object(
        cli(
            "arena", "--game", "mcr", "--bots", "greedy,random", "--walls", "3", "--seed", "w", "--json"
        ).stdout
    )
    assert out["lineup"] == ["greedy", "random", "random", "random"]
    assert (out["walls"], out["deals"]) == (3, 12)
    assert set(out["per_bot"]) == {"greedy", "random"} and out["edge"]["of"] == "greedy"
    assert "deal_in_rate" in out["per_bot"]["greedy"]
    # wall w is simulate's deal w with the same seed
    assert out["walls_digest"] == simulate("mcr", "greedy,greedy,greedy,greedy", "w", deals=3)["walls_digest"]


def test_arena_table_and_refusals() -> None:
    table = cli("arena", "--game", "paohuzi", "--bots", "greedy,random", "--walls", "2").stdout
    assert "edge of greedy over random" in table and "feeding" in table
    for bad in (
        ["--bots", "greedy"],
        ["--bots", "greedy,nonesuch"],
        ["--bots", "greedy,random", "--walls", "0"],
    ):
        done = cli("arena", "--game", "paohuzi", *bad, check=False)
        assert done.returncode == 2 and done.stderr and not done.stdout
    assert "padded by repeating its last bot" in cli("arena", "--help").stdout


def test_arena_workers_die_with_an_arena_killed_by_sigkill():
    """An arena killed however it dies leaves no worker playing walls (each would hold a core
    until its share of walls was done)."""
    import signal
    import time

    from tests.reliability.test_bot_workers import _alive, _children

    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "service.cli",
            "arena",
            "--game",
            "paohuzi",
            "--bots",
            "strong,greedy",
            "--walls",
            "400",
            "--jobs",
            "2",
            "--json",
        ],  # fmt: skip
        cwd=str(ROOT),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
    )
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline:
            workers = {p for p in _children(proc.pid) if "spawn_main" in _cmdline(p)}
            time.sleep(0.05)
        assert len(workers) == 2, "the arena started no workers"
        time.sleep(1.0)  # the workers are playing
        proc.kill()
        proc.wait(10)
        deadline = time.monotonic() + 30
        while any(_alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [p for p in workers if _alive(p)]
        assert not left, "arena workers outlived the arena"
    finally:
        proc.kill()
        for p in workers:  # whatever the outcome, no worker is left playing
            if _alive(p):
                os.kill(p, signal.SIGKILL)


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline") as f:
            return f.read()
    except OSError:
        return ""
