"""Bot programs (issue 25, docs/bots.md): real processes playing whole deals in self-play, through
``dealstream simulate`` and ``arena``, and each way a program can fail costing its seat only the
default move (TB-2.5) of that decision."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from domain.selfplay import play_deal
from service.app.bots import program_host, programs
from service.app.games import kit

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "bots"
PY = sys.executable
BOTZONE_DECK_SEED = 1  # its deck deals no program a win mcr/2 refuses (see the test below)

pytestmark = pytest.mark.timeout(300)

# misbehaving programs, each a few lines of Python (argv[1], when given, is a file to write to)
CRASH_ON_SECOND = """
import json, sys
for n, line in enumerate(sys.stdin):
    if n % 2 == 1:
        sys.exit(3)
    print(json.dumps(json.loads(line)["view"]["legal_actions"][0]), flush=True)
"""
SLEEPS = """
import os, sys, time
open(sys.argv[1], "a").write(f"{os.getpid()}\\n")
sys.stdin.readline()
time.sleep(3600)
"""
GARBAGE = """
import sys
for line in sys.stdin:
    print("I discard the red dragon!", flush=True)
"""
ILLEGAL = """
import json, sys
for line in sys.stdin:
    view = json.loads(line)["view"]
    tile = next(t for t in range(144) if t not in view["hand"])
    print(json.dumps({"type": "Discard", "tile": tile}), flush=True)
"""
HUGE = """
import sys
sys.stdin.readline()
sys.stdout.write("x" * 10_000_000 + "\\n")
sys.stdout.flush()
sys.stdin.read()
"""
GREEDY_FOR_MEMORY = """
import json, sys
for line in sys.stdin:
    hog = bytearray(3 << 30)
    print(json.dumps(json.loads(line)["view"]["legal_actions"][0]), flush=True)
"""
ENV_DUMP = """
import json, os, sys
json.dump(dict(os.environ), open(sys.argv[1], "w"))
for line in sys.stdin:
    print(json.dumps(json.loads(line)["view"]["legal_actions"][-1]), flush=True)
"""


@pytest.fixture
def register(tmp_path):
    """Register programs (name -> source or argv) for this test, with a short decision time."""

    def make(limits: programs.Limits | None = None, **sources: Any) -> None:
        specs = []
        for name, source in sources.items():
            if isinstance(source, str):
                path = tmp_path / f"{name}.py"
                path.write_text(source)
                argv = (PY, str(path))
            else:
                argv = tuple(source)
            specs.append(programs.ProgramSpec(name, argv))
        # roomy: a loaded machine starts a program slowly, and only the hang test wants a timeout
        programs.register(specs, limits or programs.Limits(decision_s=20.0))

    yield make
    programs.register([])


class Watched:
    """A program bot whose every decision is kept: (command, the seat's default move, why it failed)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.decisions: list[tuple[Any, Any, list[str]]] = []

    def choose(self, view: Any) -> Any:
        n, default = len(self.bot.reasons), self.bot.default
        command = self.bot.choose(view)
        self.decisions.append((command, default, self.bot.reasons[n:]))
        return command


def play(game: str, levels: list[str], seed: bytes = b"programs") -> tuple[list[Any], Any, list[Any]]:
    """One whole deal in memory; program seats are ``Watched``."""
    k = kit(game)
    bots = [k.make_bot(level, i) for i, level in enumerate(levels)]
    bots = [Watched(b) if isinstance(b, program_host.ProgramBot) else b for b in bots]
    events, state = play_deal(
        k.game, program_host.view_fn(k, bots), bots, deal_id="t", server_seed=seed.ljust(32, b"."),
        seats=[f"bot:{lv}" for lv in levels], on_step=program_host.step_fn(bots),
    )  # fmt: skip
    assert k.game.is_over(state)
    for b in bots:
        if isinstance(b, Watched):
            b.bot.close()
    return events, state, bots


def failed(bot: Watched) -> list[tuple[Any, Any, list[str]]]:
    return [d for d in bot.decisions if d[2]]


@pytest.mark.parametrize("game", ["paohuzi", "mcr"])
def test_the_python_example_plays_whole_deals_without_a_failure(register, game):
    register(example=[PY, str(EXAMPLES / "first_legal.py")])
    k = kit(game)
    assert "example" in k.bot_levels and "example" not in k.builtin_levels
    _, _, bots = play(game, ["example"] * k.game.seat_count)
    for bot in bots:
        assert bot.decisions and not failed(bot)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (.ci/run installs it)")
@pytest.mark.parametrize("game", ["paohuzi", "mcr"])
def test_the_javascript_example_plays_whole_deals_without_a_failure(register, game):
    register(example=["node", str(EXAMPLES / "first_legal.js")])
    k = kit(game)
    _, _, bots = play(game, ["example", "greedy", "example", "greedy"][: k.game.seat_count])
    assert all(b.decisions and not failed(b) for b in bots if isinstance(b, Watched))


def _only_defaults(bot: Watched, reason: str) -> None:
    """Every failed decision played the seat's default move (TB-2.5), for ``reason``."""
    bad = failed(bot)
    assert bad, "the program never failed"
    for command, default, reasons in bad:
        assert reasons in ([reason], ["given_up"]), reasons
        assert default is not None and command == default
    assert bad[0][2] == [reason]


def test_a_program_that_crashes_on_its_second_decision_costs_that_decision_only(register):
    register(crashy=CRASH_ON_SECOND)
    _, _, bots = play("mcr", ["crashy", "greedy", "greedy", "greedy"])
    bot = bots[0]
    _only_defaults(bot, "crashed")
    assert bot.decisions[0][2] == [] and bot.decisions[1][2] == ["crashed"]
    assert any(not r for _, _, r in bot.decisions[2:])  # restarted: it answers again after a crash


def test_a_program_that_hangs_is_killed_after_the_decision_time(register, tmp_path):
    pids = tmp_path / "pids"
    register(programs.Limits(decision_s=1.0), sleepy=[PY, "-c", SLEEPS, str(pids)])
    started = time.monotonic()
    _, _, bots = play("paohuzi", ["sleepy", "greedy", "greedy"])
    bot = bots[0]
    _only_defaults(bot, "timeout")
    timeouts = sum(r == ["timeout"] for _, _, r in bot.decisions)
    assert timeouts == programs.limits().failures  # then the seat plays its default moves to the end
    assert all(r == ["given_up"] for _, _, r in bot.decisions[timeouts:])
    assert time.monotonic() - started < 60
    for pid in pids.read_text().split():
        with pytest.raises(ProcessLookupError):
            os.kill(int(pid), 0)  # killed (and reaped): nothing left sleeping


def test_a_program_that_prints_garbage_plays_the_default_move(register):
    register(chatty=GARBAGE)
    _, _, bots = play("mcr", ["greedy", "chatty", "greedy", "greedy"])
    _only_defaults(bots[1], "garbage")


def test_a_program_that_answers_an_illegal_move_plays_the_default_move(register):
    register(cheat=ILLEGAL)
    _, _, bots = play("mcr", ["greedy", "greedy", "cheat", "greedy"])
    _only_defaults(bots[2], "illegal")


def test_a_program_that_prints_ten_megabytes_is_cut_off(register):
    register(flood=HUGE)
    _, _, bots = play("paohuzi", ["greedy", "flood", "greedy"])
    _only_defaults(bots[1], "too_long")


def test_a_program_over_its_memory_limit_dies_and_its_seat_plays_on(register):
    register(programs.Limits(decision_s=30.0, memory_mib=256), hog=GREEDY_FOR_MEMORY)
    _, _, bots = play("mcr", ["hog", "greedy", "greedy", "greedy"])
    _only_defaults(bots[0], "crashed")


def test_a_program_inherits_no_secret(register, tmp_path, monkeypatch):
    monkeypatch.setenv("DEALSTREAM_REDIS_URL", "redis://secret@127.0.0.1:6379/0")
    monkeypatch.setenv("DEALSTREAM_ADMIN_TOKEN", "hunter2")
    monkeypatch.setenv("REDIS_PASSWORD", "hunter2")
    out = tmp_path / "env.json"
    register(nosy=[PY, "-c", ENV_DUMP, str(out)])
    _, _, bots = play("paohuzi", ["nosy", "greedy", "greedy"])
    assert not failed(bots[0])
    env = json.loads(out.read_text())
    assert not [k for k in env if k.startswith("DEALSTREAM") or "REDIS" in k], env
    assert "hunter2" not in json.dumps(env)
    assert set(env) <= {"PATH", "LANG", "HOME", "PWD", "LC_CTYPE", "SHLVL", "_"}
    assert not os.path.exists(env["HOME"])  # a home of its own, removed with the process


def test_names_and_commands_are_checked_before_anything_runs(tmp_path):
    assert programs.configure(["greedy=python3 x.py"]) is not None  # a built-in level
    assert programs.configure(["Bad Name=python3"]) is not None
    assert "no such file" in programs.configure([f"p={PY} {tmp_path / 'nope.py'}"])
    assert "no such file" in programs.configure([f"p={tmp_path / 'nope'}"])
    assert "not an executable" in programs.configure(["p=no-such-command-anywhere"])
    assert programs.configure(["p=python3 x.py"], ["p=carrier-pigeon"]) is not None
    assert programs.configure(["p=python3 x.py"], ["q=botzone"]) is not None
    assert programs.registered() == {}


# --- through the real command line ------------------------------------------------------------------
def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "-m", "service.cli", *args], cwd=str(ROOT), env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL,
    )  # fmt: skip


EXAMPLE = f"ex={PY} examples/bots/first_legal.py"


@pytest.mark.parametrize("game,bots", [("paohuzi", "prog:ex,greedy,ex"), ("mcr", "ex,strong,prog:ex,random")])
def test_simulate_seats_a_program(game, bots):
    proc = cli(
        "simulate", "--game", game, "--deals", "2", "--bots", bots, "--bot-program", EXAMPLE, "--json",
        "--bot-program-timeout", "60",  # a loaded machine starts the program slowly
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["deals"] == 2 and out["bots"] == bots.split(",")
    assert "failed" not in proc.stderr  # the example never costs its seat a move


@pytest.mark.parametrize("game", ["paohuzi", "mcr"])
def test_arena_plays_strong_against_a_program_in_duplicate(game):
    proc = cli(
        "arena", "--game", game, "--bots", "strong,prog:ex", "--walls", "2", "--jobs", "2",
        "--bot-program", EXAMPLE, "--json", "--bot-program-timeout", "60",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["bots"] == ["strong", "prog:ex"] and out["walls"] == 2
    assert out["per_bot"]["prog:ex"]["decisions"] > 0
    assert "failed" not in proc.stderr


@pytest.mark.parametrize("command", ["simulate", "arena", "serve"])
def test_a_program_path_that_does_not_exist_stops_the_command(command, tmp_path):
    missing = tmp_path / "nowhere" / "bot.py"
    args = {
        "simulate": ["simulate", "--game", "mcr", "--bots", "ghost,greedy,greedy,greedy"],
        "arena": ["arena", "--game", "mcr", "--bots", "strong,prog:ghost", "--walls", "1"],
        "serve": ["serve", "--port", "0", "--data-dir", str(tmp_path / "data")],
    }[command]
    proc = cli(*args, "--bot-program", f"ghost={PY} {missing}")
    assert proc.returncode != 0
    assert "ghost" in proc.stderr and str(missing) in proc.stderr and "no such file" in proc.stderr
    assert not (tmp_path / "data").exists()  # serve stopped before it stored anything


def test_an_unregistered_program_level_is_refused_by_simulate():
    proc = cli("simulate", "--game", "mcr", "--bots", "prog:ex,greedy,greedy,greedy")
    assert proc.returncode == 2 and "--bots" in proc.stderr


# --- another protocol through a game's translation (the hook a Botzone translation plugs into) ----
KEEPS_RUNNING = """
import sys
for line in sys.stdin:
    print("0", flush=True)
    print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
"""
ONE_TURN = """
import sys
lines = [sys.stdin.readline() for _ in range(int(sys.stdin.readline()))]
print("0", flush=True)
"""


class FakeTranslation:
    """A translation of a toy protocol: the input is the number of events (a new process first
    gets a count of lines, then that many), the answer the index of a legal action."""

    KEEP_RUNNING = b">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
    texts: list[str] = []

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def known(self, state: Any) -> Any:
        return None

    def inputs(self, events: Any, fresh: bool) -> list[tuple[int, str, str | None]]:
        text = f"1\n{len(events)}\n" if fresh else f"{len(events)}\n"
        self.texts.append(text)
        return [(len(events), text, None)]

    def command(self, response: str, state: Any) -> Any:
        actions = kit("mcr").game.legal_actions(state, self.seat)
        if not response.isdigit() or int(response) >= len(actions):
            raise ValueError(f"{response!r} names no legal action")
        return actions[int(response)]


@pytest.mark.parametrize("source,fresh_every_time", [(KEEPS_RUNNING, False), (ONE_TURN, True)])
def test_another_protocol_plays_through_the_games_translation(
    register, monkeypatch, source, fresh_every_time
):
    import types

    from domain.game import GAMES

    module = types.ModuleType("fake_botzone_program")
    module.SeatTranslation = FakeTranslation
    monkeypatch.setitem(sys.modules, f"{GAMES['mcr']}.botzone.program", module)
    monkeypatch.setattr(FakeTranslation, "texts", [])
    register(bz=source)
    programs.register(
        [programs.ProgramSpec("bz", programs.registered()["bz"].argv, "botzone")], programs.limits()
    )
    assert "bz" in kit("mcr").bot_levels and "bz" not in kit("paohuzi").bot_levels
    _, _, bots = play("mcr", ["bz", "greedy", "greedy", "greedy"])
    assert bots[0].decisions and not failed(bots[0])
    fresh = [t.startswith("1\n") for t in FakeTranslation.texts]
    assert fresh[0] and all(fresh) == fresh_every_time and (fresh_every_time or not any(fresh[1:]))


# --- a Botzone program through MCR's own translation (domain/mcr/botzone/program.py) ---------------
def _dealstream() -> str:
    exe = Path(PY).with_name("dealstream")
    return str(exe) if exe.exists() else f"{PY} -m service.cli"


@pytest.mark.parametrize("keep", [False, True])
def test_simulate_seats_dealstream_botzone_as_a_botzone_program(keep):
    """``dealstream botzone`` is itself a Botzone program: one process per turn (the simple
    interaction, the whole history each time) and long-running; whole deals, never a fallback."""
    command = f"zb={_dealstream()} botzone --level greedy" + (" --keep-running" if keep else "")
    proc = cli(
        "simulate", "--game", "mcr", "--deals", "2", "--bots", "zb,strong,prog:zb,zb",
        "--bot-program", command, "--bot-program-protocol", "zb=botzone", "--json",
        "--bot-program-timeout", "60",  # a loaded machine starts a process a turn slowly
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["deals"] == 2
    assert "failed" not in proc.stderr, proc.stderr


# A Botzone program written as Botzone's long-running mode asks: the whole history in the simple
# interaction on its first turn (with its data and globaldata lines), then one request a line,
# answering each (``PASS`` where nothing is asked of it). It plays every drawn tile and claims
# nothing, and fails loudly on any other input.
TSUMOGIRI_KEEPS_RUNNING = """
import sys
def answer(request):
    words = request.split()
    assert words and words[0] in "0123" and not request.startswith("{"), request
    return "PLAY " + words[1] if words[0] == "2" else "PASS"
turns = int(sys.stdin.readline())
lines = [sys.stdin.readline().strip() for _ in range(2 * turns - 1)]
data, globaldata = sys.stdin.readline(), sys.stdin.readline()  # after the history, on turn 1 only
seen = open(sys.argv[1], "a")
while True:
    print(answer(lines[-1]), flush=True)
    print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
    line = sys.stdin.readline()
    if not line:
        break
    lines = [line.strip()]
    seen.write(line)
    seen.flush()
"""


def test_a_long_running_botzone_program_reads_one_request_a_line(register, tmp_path):
    """Between its decisions the deal sends a long-running Botzone program each request it missed
    on a line of its own, as the judge does, and reads its ``PASS``: one process the whole deal,
    no fallback, every request after the first turn read once and in order."""
    seen = tmp_path / "requests.txt"
    roomy = programs.Limits(decision_s=20.0)  # a loaded machine starts Python slowly: no timeout here
    register(roomy, tz=TSUMOGIRI_KEEPS_RUNNING)
    spec = programs.registered()["tz"]
    programs.register([programs.ProgramSpec("tz", (*spec.argv, str(seen)), "botzone")], roomy)
    events, _, bots = play("mcr", ["tz", "greedy", "greedy", "greedy"])
    assert bots[0].decisions and not failed(bots[0]), failed(bots[0])[:3]
    from domain.mcr.botzone.program import seat_history

    requests, _ = seat_history(events, 0)
    lines = seen.read_text().splitlines()
    assert lines and all(not ln.startswith("{") for ln in lines)
    # the first decision read the history up to its request; later ones, each request after it
    starts = [i for i in range(1, 16) if requests[i : i + len(lines)] == lines]
    assert starts, (lines[:6], requests[:12])
    assert len(lines) > 2 * len(bots[0].decisions)  # requests of other seats' moves in between


def test_a_long_running_program_answering_more_than_pass_between_decisions_is_refused(register, tmp_path):
    """A long-running program that claims where the deal asked nothing of it fails that decision
    with the request named, and the seat plays its default move; the deal goes on."""
    roomy = programs.Limits(decision_s=20.0)  # a loaded machine starts Python slowly: no timeout here
    register(
        roomy,
        tc=TSUMOGIRI_KEEPS_RUNNING.replace('else "PASS"', 'else "PENG W1" if words[0] == "3" else "PASS"'),
    )
    spec = programs.registered()["tc"]
    programs.register(
        [programs.ProgramSpec("tc", (*spec.argv, str(tmp_path / "seen.txt")), "botzone")], roomy
    )
    _, _, bots = play("mcr", ["tc", "greedy", "greedy", "greedy"])
    reasons = [r for d in failed(bots[0]) for r in d[2]]
    assert "illegal" in reasons and set(reasons) <= {"illegal", "given_up"}, reasons


# A Botzone program of one turn per process, written as Botzone's simple interaction says: the
# turn count, the history, then the line of data it saved last turn and a globaldata line; after
# its response, the data to keep and a globaldata line. It plays every drawn tile and claims
# nothing; it answers garbage when its input lacks the data lines or brings back other data.
KEEPS_DATA = """
import sys
turns = int(input())
lines = [input() for _ in range(2 * turns - 1)]
data = input()  # what it saved last time (empty the first time)
globaldata = input()
ok = data == "" or (data.startswith("seen ") and int(data.split()[1]) < turns)
words = lines[-1].split()
print(("PLAY " + words[1] if words[0] == "2" else "PASS") if ok else "what data is " + repr(data))
print("seen", turns)
print("g")
"""


def test_a_botzone_program_reads_and_keeps_its_data_lines(register):
    """A program in the simple interaction gets the data and globaldata lines after its history
    and may print its own after its response: every decision of a whole deal is its own, the data
    it saved comes back to it, and nothing falls back."""
    register(programs.Limits(decision_s=20.0), kd=KEEPS_DATA)  # Python starting on a loaded machine
    spec = programs.registered()["kd"]
    programs.register([programs.ProgramSpec("kd", spec.argv, "botzone")], programs.Limits(decision_s=20.0))
    _, _, bots = play("mcr", ["kd", "greedy", "greedy", "greedy"])
    assert len(bots[0].decisions) > 3 and not failed(bots[0]), failed(bots[0])[:3]


def test_a_botzone_program_plays_at_a_table_through_http(real_redis_url, key_prefix, tmp_path):
    """``serve --bot-program zb=... --bot-program-protocol zb=botzone``: a deal of three
    ``dealstream botzone`` seats (one keeps running) ends with the audit green and no default move.

    The deck is fixed (``--dev``): a Botzone program judges the last-tile fans by the judge's four
    wall parts, which our one wall does not have, so in a few deals in a hundred it declares a win
    ``mcr/2`` refuses and plays its default move (as ``docs/botzone.md`` says). This deck's deal
    has no such moment, whatever the machine's load; the timeout is generous for a loaded one."""
    import asyncio
    import socket
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [
            PY, "-m", "service.cli", "serve", "--port", str(port), "--redis", real_redis_url,
            "--prefix", key_prefix, "--bot-delay", "0", "--metrics-port", "0", "--processes", "1",
            "--data-dir", str(tmp_path / "data"),
            "--dev", "--bot-program-timeout", "60",
            "--bot-program", f"zb={_dealstream()} botzone --level greedy",
            "--bot-program", f"zk={_dealstream()} botzone --level greedy --keep-running",
            "--bot-program-protocol", "zb=botzone", "--bot-program-protocol", "zk=botzone",
        ],
        cwd=str(ROOT), env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip

    def get(path: str) -> Any:
        with urllib.request.urlopen(base + path, timeout=30) as resp:
            body = resp.read().decode()
        return body if path.endswith("/log") else json.loads(body)

    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                get("/health")
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "serve did not start"
                time.sleep(0.2)
        deck = random.Random(BOTZONE_DECK_SEED).sample(range(144), 144)
        seats = ["bot:zb", "bot:zk", "bot:greedy", "bot:zb"]
        body = {"game": "mcr", "seats": seats, "client_seed": "bz", "deck": deck, "dealer": 0}
        req = urllib.request.Request(
            base + "/deals", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=30) as resp:
            deal_id = json.loads(resp.read())["deal_id"]
        deadline = time.monotonic() + 240
        while not get(f"/deals/{deal_id}")["over"]:
            assert time.monotonic() < deadline, "the deal did not end"
            time.sleep(0.5)
        audit = get(f"/deals/{deal_id}/audit")
        assert audit["ok"], audit["problems"]
        records = [json.loads(x) for x in get(f"/deals/{deal_id}/log").splitlines() if x.strip()]
        ids = [r.get("command_id") or "" for r in records]
        assert not [i for i in ids if i.startswith("prog:")], ids  # no default move
        moved = {int(i.split(":")[1]) for i in ids if i.startswith("bot:")}
        assert {0, 1, 3} <= moved
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(30)
        from service.store.connection import connect
        from tests.conftest import drop_prefix

        async def drop() -> None:
            client = connect(real_redis_url)
            await drop_prefix(client, key_prefix)
            await client.aclose()

        asyncio.run(drop())
