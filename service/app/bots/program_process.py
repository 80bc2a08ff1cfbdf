"""A bot program's process: started with its limits in a clean environment, asked one line
at a time, and killed with everything it started (``service.app.bots.programs`` says the rules)."""

from __future__ import annotations

import asyncio
import logging
import os
import resource
import shutil
import signal
import tempfile
import time
from functools import partial

from service.app.bots.programs import Limits, ProgramFailed, ProgramSpec
from service.app.bots.workers import die_with_parent

log = logging.getLogger("dealstream.bots.programs")


def _child_limits(
    parent: int, memory_mib: int, cpu_s: int, nproc: int
) -> None:  # pragma: no cover - in the child
    die_with_parent(parent)
    mem = memory_mib * 1024 * 1024
    for which, value in (
        (resource.RLIMIT_AS, mem), (resource.RLIMIT_CPU, cpu_s), (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NPROC, nproc),
    ):  # fmt: skip
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass


def user_processes(uid: int) -> int:
    """How many processes (threads count too, as the kernel counts them) ``uid`` runs now."""
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid == uid:
                    count += len(os.listdir(f"/proc/{entry.name}/task"))
            except OSError:
                continue
    return count


def family(root: int | None, home: str | None) -> set[int]:
    """Every process a program started, as ``/proc`` shows them now: the program ``root`` (while
    it runs: a pid that was reaped may be another process's by now), its descendants and every
    process of its session (it leads its own), and every process whose ``HOME`` is the
    program's own folder (a child that left the session and lost its parent keeps its
    environment), with their descendants. Never this process or one of its ancestors."""
    parents: dict[int, int] = {}
    sessions: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        parents[pid], sessions[pid] = int(fields[1]), int(fields[3])
    found = set() if root is None else {pid for pid, sid in sessions.items() if sid == root}
    if root is not None and root in parents:
        found.add(root)
    marker = None if home is None else b"HOME=" + home.encode() + b"\0"
    if marker is not None:
        for pid in parents:
            try:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    if b"\0" + marker in b"\0" + f.read():
                        found.add(pid)
            except OSError:
                continue
    grew = True
    while grew:  # and everything below them
        grew = False
        for pid, parent in parents.items():
            if parent in found and pid not in found:
                found.add(pid)
                grew = True
    mine, pid = set(), os.getpid()
    while pid > 0 and pid not in mine:  # this process and its ancestors are never the program's
        mine.add(pid)
        pid = parents.get(pid, 0)
    return found - mine


def _signal_all(pids: set[int], signum: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, signum)
        except (ProcessLookupError, PermissionError):
            pass


def kill_family(root: int | None, home: str | None) -> int:
    """Stop every process of the program's family (a stopped process forks no more), look again
    until no new one appears, then kill them all; how many were killed."""
    stopped: set[int] = set()
    for _round in range(8):
        now = family(root, home) - stopped
        if not now:
            break
        _signal_all(now, signal.SIGSTOP)
        stopped |= now
    _signal_all(stopped, signal.SIGKILL)
    return len(stopped)


def clean_environment(home: str) -> dict[str, str]:
    """All a program inherits: where commands are, a language, and a home of its own."""
    return {"PATH": os.environ.get("PATH") or os.defpath, "LANG": "C.UTF-8", "HOME": home}


class Process:
    """One running program: ``ask`` writes a line and reads one back, within the limits."""

    def __init__(self, spec: ProgramSpec, lim: Limits) -> None:
        self.spec = spec
        self.limits = lim
        self.proc: asyncio.subprocess.Process | None = None
        self.home: str | None = None
        self.used = time.monotonic()

    async def start(self) -> None:
        self.home = tempfile.mkdtemp(prefix=f"dealstream-bot-{self.spec.name}-")
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *self.spec.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL,
                env=clean_environment(self.home),
                close_fds=True,
                start_new_session=True,
                limit=self.limits.line_bytes,
                preexec_fn=partial(
                    _child_limits,
                    os.getpid(),
                    self.limits.memory_mib,
                    self.limits.cpu_s,
                    user_processes(os.getuid()) + self.limits.processes,
                ),  # fmt: skip
            )
        except OSError as exc:
            self._remove_home()
            raise ProgramFailed("no_start", f"{self.spec.argv[0]}: {exc.strerror or exc}") from None

    async def ask(self, line: bytes) -> bytes:
        if self.proc is None:
            await self.start()
        proc = self.proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        self.used = time.monotonic()
        try:
            async with asyncio.timeout(self.limits.decision_s):
                proc.stdin.write(line)
                await proc.stdin.drain()
                answer = await proc.stdout.readline()
        except TimeoutError:
            raise ProgramFailed("timeout", f"no answer within {self.limits.decision_s:g} s") from None
        except (BrokenPipeError, ConnectionResetError):
            answer = b""
        except ValueError:  # the StreamReader's limit: a line longer than line_bytes
            raise ProgramFailed("too_long", f"an answer longer than {self.limits.line_bytes} bytes") from None
        finally:
            self.used = time.monotonic()
        if not answer.endswith(b"\n"):
            code = await self._exit_code()
            raise ProgramFailed("crashed", "it exited" + (f" with {code}" if code is not None else "")
                                + (" mid-line" if answer else " without answering"))  # fmt: skip
        return answer

    async def keeps_running(self, marker: bytes, extra: list[str] | None = None, most: int = 0) -> bool:
        """After an answer: the next line is ``marker`` (the program waits for the next request),
        or the program ended (False); anything else is garbage, but for up to ``most`` lines
        first (blank or not) that the protocol lets a program print after its answer, which go
        into ``extra``."""
        assert self.proc is not None and self.proc.stdout is not None
        try:
            async with asyncio.timeout(self.limits.decision_s):
                line = await self.proc.stdout.readline()
                while line and line.strip() != marker:
                    if extra is not None and len(extra) < most:
                        extra.append(line.decode(errors="replace").rstrip("\r\n"))
                    elif line.strip():
                        break
                    line = await self.proc.stdout.readline()  # blank lines before the marker are allowed
        except TimeoutError:
            raise ProgramFailed("timeout", "no keep-running line after its answer") from None
        except ValueError:
            raise ProgramFailed("too_long", f"a line longer than {self.limits.line_bytes} bytes") from None
        if not line:
            return False
        if line.strip() != marker:
            raise ProgramFailed("garbage", f"{line[:60]!r} after its answer")
        return True

    async def _exit_code(self) -> int | None:
        try:
            async with asyncio.timeout(0.5):
                return await self.proc.wait() if self.proc is not None else None
        except TimeoutError:
            return None

    async def kill(self) -> None:
        """End the program and every process it started (``kill_family``: its session, its
        descendants, and whatever kept its home), then close our ends of its pipes: what it
        printed and nobody read must not hold the wait."""
        proc, self.proc = self.proc, None
        if proc is not None:
            running = proc.returncode is None  # else its pid was reaped: never look for it again
            root = proc.pid if running else None
            # stopped before it dies: its children are still its children when they are looked for
            await asyncio.get_running_loop().run_in_executor(None, kill_family, root, self.home)
            try:
                if running:
                    os.killpg(proc.pid, signal.SIGKILL)  # its group, once more
            except (ProcessLookupError, PermissionError):
                pass
            transport = getattr(proc, "_transport", None)
            if transport is not None:
                transport.close()  # the pipes: a wait would otherwise wait for their end
            try:
                async with asyncio.timeout(5):
                    await proc.wait()
            except TimeoutError:  # pragma: no cover - a process SIGKILL does not end
                log.error("bot program %s (pid %d) did not end after SIGKILL", self.spec.name, proc.pid)
        self._remove_home()

    def _remove_home(self) -> None:
        if self.home is not None:
            shutil.rmtree(self.home, ignore_errors=True)
            self.home = None
