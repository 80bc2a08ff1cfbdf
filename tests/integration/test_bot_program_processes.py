"""A bot program's whole family of processes ends with it (docs/bots.md, "Limits"): children that
left its session, children whose parent is gone, and a kill never waits on a program that
printed more than its pipe holds."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from pathlib import Path

import pytest

from service.app.bots import program_host, program_process, programs

PY = sys.executable
pytestmark = pytest.mark.timeout(120)

# answers one request after starting a child that leaves the session (setsid), says so, and sleeps
CHILD = (
    "import os, sys, time; os.setsid(); open(sys.argv[1], 'a').write(f'{os.getpid()}\\n'); time.sleep(600)"
)
SETSID_CHILD = (
    f"""
import os, subprocess, sys, time
subprocess.Popen([sys.executable, "-c", {CHILD!r}, sys.argv[1]])
"""
    + """
sys.stdin.readline()
print('{"type": "Pass"}', flush=True)
time.sleep(600)
"""
)
# the same child, and it also leaves the program's environment (found as the program's child)
NEW_ENV_CHILD = SETSID_CHILD.replace(
    "subprocess.Popen([sys.executable,", "subprocess.Popen(env={}, args=[sys.executable,"
)
# a daemon the classic way: fork, the middle process leaves the session and forks again, exits;
# the grandchild (parent gone) sleeps
DAEMON = """
import os, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        open(sys.argv[1], "a").write(f"{os.getpid()}\\n")
        time.sleep(600)
    os._exit(0)
sys.stdin.readline()
print('{"type": "Pass"}', flush=True)
time.sleep(600)
"""
# answers, then prints far more than a pipe and the reader's buffer hold, and waits
FLOODS_AFTER = """
import sys, time
sys.stdin.readline()
print('{"type": "Pass"}', flush=True)
sys.stdout.write("y" * 400_000 + "\\n")
sys.stdout.flush()
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def _pids(path: Path, count: int) -> list[int]:
    for _ in range(600):
        if path.exists() and len(path.read_text().split()) >= count:
            return [int(p) for p in path.read_text().split()]
        await asyncio.sleep(0.05)
    raise AssertionError("the program never said which children it started")


async def _gone(pids: list[int]) -> bool:
    for _ in range(200):
        if not any(_alive(p) for p in pids):
            return True
        await asyncio.sleep(0.05)
    return False


@pytest.mark.parametrize(
    "source", [SETSID_CHILD, NEW_ENV_CHILD, DAEMON], ids=["setsid-child", "new-environment", "daemon"]
)
async def test_a_kill_ends_every_process_the_program_started(tmp_path, source):
    script, pids = tmp_path / "p.py", tmp_path / "pids"
    script.write_text(source)
    process = program_process.Process(
        programs.ProgramSpec("fam", (PY, str(script), str(pids))), programs.Limits()
    )
    answer = await process.ask(b"{}\n")
    assert b"Pass" in answer
    children = await _pids(pids, 1)
    assert all(_alive(p) for p in children)
    await process.kill()
    assert await _gone(children), [p for p in children if _alive(p)]


async def test_a_kill_does_not_wait_on_a_program_that_printed_past_its_pipe(tmp_path, caplog):
    script = tmp_path / "p.py"
    script.write_text(FLOODS_AFTER)
    process = program_process.Process(programs.ProgramSpec("flood", (PY, str(script))), programs.Limits())
    assert b"Pass" in await process.ask(b"{}\n")
    await asyncio.sleep(0.5)  # it prints its 400 KB meanwhile
    caplog.set_level(logging.ERROR, "dealstream.bots.programs")
    started = time.monotonic()
    await process.kill()
    assert time.monotonic() - started < 2.0
    assert "did not end" not in caplog.text


async def test_a_program_may_start_only_so_many_processes(tmp_path):
    """A fork bomb meets a process-count limit: the program's RLIMIT_NPROC is what its user ran
    when it started plus the program's allowance (the kernel counts per user, so the allowance
    is on top; root is not held by it, the others are)."""
    script, seen = tmp_path / "p.py", tmp_path / "nproc"
    script.write_text(
        "import resource, sys\n"
        "open(sys.argv[1], 'w').write(str(resource.getrlimit(resource.RLIMIT_NPROC)[0]))\n"
        "sys.stdin.readline()\nprint('{}', flush=True)\n"
    )
    limits = programs.Limits(processes=7)
    before = program_process.user_processes(os.getuid())
    process = program_process.Process(programs.ProgramSpec("bomb", (PY, str(script), str(seen))), limits)
    try:
        await process.ask(b"{}\n")
        after = program_process.user_processes(os.getuid())
        limit = int(seen.read_text())
        # set, and to the count at its start plus 7 (other processes of the user come and go)
        assert 7 < limit <= max(before, after) + 7 + 200, (before, after, limit)
    finally:
        await process.kill()


async def test_a_host_runs_no_more_programs_than_its_bound(tmp_path):
    """One service process starts at most ``max_processes`` programs: a seat whose program would
    be one more plays its default move (``busy``), and its program starts once there is room."""
    from service.app.games import kit

    script = tmp_path / "p.py"
    script.write_text("import sys, time\nsys.stdin.readline()\ntime.sleep(600)\n")
    programs.register([programs.ProgramSpec("sleepy", (PY, str(script)))], programs.Limits())
    host = program_host.ProgramHost(max_processes=1)
    try:
        k = kit("mcr")
        first = host.seats[("d", 0)] = program_host.Seat(programs.program("sleepy"), programs.Limits(), k, 0)
        await first.process.start()
        assert host.running == 1
        assert await host.decide(k, "d", 1, "sleepy", None, "default move") == ("default move", "busy")
        assert host.seats[("d", 1)].process.proc is None and host.seats[("d", 1)].failures == 0
        await host.end_deal("d")
        assert host.running == 0
    finally:
        await host.close()
        programs.register([])
