"""Bot programs: anyone's bot at our tables.

The operator names programs when starting ``serve``, ``simulate`` or ``arena``
(``--bot-program NAME=COMMAND``); ``bot:NAME`` is then a seat level like ``bot:greedy``. The HTTP
API never names a program: it only seats a registered name. ``docs/bots.md`` is the protocol.

- One process per deal and seat, started at the seat's first decision and kept for the deal (a
  program may remember what it saw); it ends with the deal, after ``idle_s`` without a decision,
  or at its first failure.
- Our protocol: one JSON line in per decision, ``{"protocol": "dealstream-bot/1", "deal_id",
  "game", "seat", "view"}``, one JSON line out, a command that must be one of
  ``view.legal_actions`` (its ``seat`` may be left out). The Botzone protocol (a game whose
  ``domain/<game>/botzone/program.py`` translates) is the judge's text lines instead.
- Limits, set in the child before it runs (``preexec_fn``): address space (``RLIMIT_AS``), CPU
  seconds (``RLIMIT_CPU``), no core files; a clean environment (``PATH``, ``LANG`` and ``HOME``, a
  fresh temporary folder: no ``DEALSTREAM_*``, no store URL, no token); no inherited descriptor
  (``close_fds``); its own session, so a kill reaches everything it started; killed with the
  process that started it (``PR_SET_PDEATHSIG``). Wall time per decision: ``decision_s``. An
  answer longer than ``line_bytes`` is garbage. stderr is discarded.
- A program that cannot start, crashes, hangs past ``decision_s``, prints garbage, a line that is
  too long or an illegal command costs its seat that decision: the seat plays its default move
  (TB-2.5, the move a clock expiry plays), the log says why (a warning naming the deal, seat,
  program and reason; the stored command id is ``prog:<name>:<seat>:<version>:<reason>``) and the
  deal goes on. The program is killed and started again for the seat's next decision; after
  ``failures`` failures in a row the seat plays its default moves for the rest of the deal.

The I/O is asyncio subprocess I/O: the service's event loop never blocks on a program. The
in-memory self-play (``simulate``, ``arena``) uses the same code through ``ProgramBot``, a
synchronous ``choose`` that runs it on a loop of its own in a background thread.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
import os
import re
import resource
import shlex
import shutil
import signal
import tempfile
import threading
import time
import weakref
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any

import msgspec

from service.app.bots.workers import die_with_parent

log = logging.getLogger("dealstream.bots.programs")

PROTOCOL = "dealstream-bot/1"
PROTOCOLS = ("dealstream", "botzone")
NAME_RE = re.compile(r"[a-z][a-z0-9_-]{0,31}\Z")
RESERVED = frozenset({"prog", "human", "open", "person", "bot", "away"})  # besides every game's own levels
PREFIX = "prog:"  # ``--bots strong,prog:NAME`` in simulate and arena
ENV_VAR = "DEALSTREAM_BOT_PROGRAMS"  # the registry, for worker processes this process spawns
COMMAND_ID_PREFIX = "prog:"
REASONS = (
    "no_start", "crashed", "timeout", "too_long", "garbage", "illegal", "given_up", "unregistered",
    "translation", "busy",
)  # fmt: skip
SCRIPT_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".rb", ".pl", ".sh", ".lua", ".jar")


@dataclass(frozen=True)
class Limits:
    """What one program process may use (``docs/bots.md``)."""

    decision_s: float = 5.0  # wall time for one answer
    memory_mib: int = 1024  # RLIMIT_AS
    cpu_s: int = 600  # RLIMIT_CPU, over the process's life (one deal)
    line_bytes: int = 64 * 1024  # one answer line
    failures: int = 3  # in a row; then the seat plays its default moves to the deal's end
    idle_s: float = 120.0  # a process that had no decision this long is ended
    # processes a program may add to what its user runs when it starts (RLIMIT_NPROC is counted
    # per user, so the limit is set to that count plus this): a fork bomb stops here
    processes: int = 64


@dataclass(frozen=True)
class ProgramSpec:
    name: str
    argv: tuple[str, ...]
    protocol: str = "dealstream"


@dataclass
class _Registry:
    programs: dict[str, ProgramSpec] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)


_REG = _Registry()


# --- the registry ---------------------------------------------------------------------------------
def builtin_levels() -> set[str]:
    """Every level some game's own bots module has (a program name may not be one)."""
    from domain.game import GAMES

    out: set[str] = set()
    for package in GAMES.values():
        out.update(importlib.import_module(f"{package}.bots").BOTS)
    return out


def parse_spec(text: str) -> ProgramSpec:
    """``NAME=COMMAND`` (COMMAND split as a shell would, but run without one); ValueError says why."""
    name, sep, command = text.partition("=")
    name = name.strip()
    if not sep:
        raise ValueError(f"--bot-program {text!r}: write NAME=COMMAND")
    if not NAME_RE.match(name):
        raise ValueError(
            f"--bot-program {name!r}: a name is a lowercase letter, then up to 31 of a-z 0-9 _ -"
        )
    if name in RESERVED or name in builtin_levels():
        raise ValueError(f"--bot-program {name!r}: the name of a built-in level or seat kind")
    try:
        argv = tuple(shlex.split(command))
    except ValueError as exc:
        raise ValueError(f"--bot-program {name}: the command does not parse ({exc})") from None
    if not argv:
        raise ValueError(f"--bot-program {name}: no command")
    return ProgramSpec(name, argv)


def check_spec(spec: ProgramSpec) -> str | None:
    """Why ``spec`` cannot run here (None: it can): its command is not an executable on PATH or at
    its path, or an argument naming a script file (a path with ``/`` or a script suffix, not an
    option and not the code of ``-c``/``-e``) names no file."""
    exe = spec.argv[0]
    if shutil.which(exe) is None:
        where = "no such file" if "/" in exe and not os.path.exists(exe) else "not an executable on PATH"
        return f"bot program {spec.name}: command {exe!r}: {where}"
    previous = exe
    for arg in spec.argv[1:]:
        code = previous in ("-c", "-e", "--eval", "-p", "--print")
        previous = arg
        if code or arg.startswith("-") or any(ch.isspace() for ch in arg):
            continue
        if ("/" in arg or arg.endswith(SCRIPT_SUFFIXES)) and not os.path.exists(arg):
            return f"bot program {spec.name}: {arg!r}: no such file"
    return None


def configure(
    programs: list[str] | None,
    protocols: list[str] | None = None,
    *,
    decision_s: float | None = None,
    memory_mib: int | None = None,
) -> str | None:
    """Register the operator's programs (the command line's flags); the problem, or None."""
    specs: dict[str, ProgramSpec] = {}
    try:
        for text in programs or []:
            spec = parse_spec(text)
            if spec.name in specs:
                return f"--bot-program {spec.name}: named twice"
            specs[spec.name] = spec
        for text in protocols or []:
            name, sep, protocol = text.partition("=")
            if not sep or protocol not in PROTOCOLS:
                return f"--bot-program-protocol {text!r}: write NAME=PROTOCOL, one of {', '.join(PROTOCOLS)}"
            if name not in specs:
                return f"--bot-program-protocol {name!r}: no --bot-program of that name"
            specs[name] = ProgramSpec(name, specs[name].argv, protocol)
    except ValueError as exc:
        return str(exc)
    for spec in specs.values():
        problem = check_spec(spec)
        if problem is None and spec.protocol != "dealstream" and not protocol_games(spec.protocol):
            problem = f"bot program {spec.name}: no game here speaks the {spec.protocol} protocol yet"
        if problem is not None:
            return problem
    limits = Limits()
    if decision_s is not None:
        if not 0 < decision_s <= 600:
            return "--bot-program-timeout is from 0 to 600 seconds"
        limits = Limits(**{**asdict(limits), "decision_s": decision_s})
    if memory_mib is not None:
        if memory_mib < 16:
            return "--bot-program-memory is at least 16 MiB"
        limits = Limits(**{**asdict(limits), "memory_mib": memory_mib})
    register(list(specs.values()), limits)
    return None


def register(specs: list[ProgramSpec], limits: Limits | None = None) -> None:
    """Make ``specs`` the registered programs of this process and of the workers it spawns."""
    _REG.programs = {s.name: s for s in specs}
    _REG.limits = limits or Limits()
    if specs:
        os.environ[ENV_VAR] = json.dumps(
            {"programs": [asdict(s) for s in specs], "limits": asdict(_REG.limits)}
        )
    else:
        os.environ.pop(ENV_VAR, None)


def _from_environment() -> None:
    text = os.environ.get(ENV_VAR)
    if not text:
        return
    try:
        data = json.loads(text)
        _REG.programs = {
            p["name"]: ProgramSpec(p["name"], tuple(p["argv"]), p.get("protocol", "dealstream"))
            for p in data["programs"]
        }
        _REG.limits = Limits(**data.get("limits", {}))
    except (ValueError, KeyError, TypeError):
        log.error("%s does not read; no bot programs registered", ENV_VAR)


_from_environment()


def registered() -> dict[str, ProgramSpec]:
    return dict(_REG.programs)


def limits() -> Limits:
    return _REG.limits


def program(level: str) -> ProgramSpec | None:
    """The registered program of a level (``NAME`` or ``prog:NAME``)."""
    return _REG.programs.get(level.removeprefix(PREFIX))


def protocol_games(protocol: str) -> list[str]:
    """The games a program of ``protocol`` may play: ours, every game; another, the games whose
    folder has a translation (``domain/<game>/<protocol>/program.py``)."""
    from domain.game import GAMES

    if protocol == "dealstream":
        return sorted(GAMES)
    return sorted(g for g, package in GAMES.items() if _translation(package, protocol) is not None)


def _translation(package: str, protocol: str) -> Any:
    try:
        return importlib.import_module(f"{package}.{protocol}.program")
    except ImportError:
        return None


def levels_for(game: str) -> list[str]:
    """The program levels a game's seats may take (names only)."""
    return sorted(n for n, s in _REG.programs.items() if game in protocol_games(s.protocol))


# --- one program process -------------------------------------------------------------------------
class ProgramFailed(Exception):
    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail

    @property
    def public(self) -> str:
        """The detail as the log may hold it: without the program's own words."""
        return redacted(self.detail)


# A program's words quote its hand (a discard it named, a garbage line that printed its tiles), and
# the deal is live when it fails: the log, which operators and proxies read, never holds them.
_QUOTED = re.compile(r"""b?'(?:[^'\\]|\\.)*'|b?"(?:[^"\\]|\\.)*"|\{.*\}""")
_PIECE_CODE = re.compile(r"\b[WBTFJH][1-9]\b")


def redacted(text: str) -> str:
    """``text`` with every quoted or JSON part and every tile code replaced by ``…``: what a
    failure says without the pieces it named."""
    return _PIECE_CODE.sub("…", _QUOTED.sub("…", text))


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


# --- one seat's program for one deal ------------------------------------------------------------
def read_command(kit: Any, view: Any, seat: int, answer: bytes) -> Any:
    """The game's command a program answered, if it is one of the view's legal actions."""
    try:
        data = json.loads(answer)
    except ValueError:
        raise ProgramFailed("garbage", f"not a JSON line: {answer[:60]!r}") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProgramFailed("garbage", f"not a command object: {answer[:60]!r}")
    data.setdefault("seat", seat)
    try:
        command = kit.convert_command(data)
    except msgspec.ValidationError as exc:
        raise ProgramFailed("garbage", f"not a command: {exc}") from None
    if command not in view.legal_actions:
        raise ProgramFailed(
            "illegal", f"{answer.strip()[:120].decode(errors='replace')} is not a legal action"
        )
    return command


class Seat:
    """A seat's program during one deal: its process, its failures in a row, and (the Botzone
    protocol) its translation, which keeps the seat's history."""

    def __init__(self, spec: ProgramSpec, lim: Limits, kit: Any, seat: int) -> None:
        self.spec = spec
        self.limits = lim
        self.process = Process(spec, lim)
        self.failures = 0
        self.gave_up = False
        self.translation = None
        if spec.protocol != "dealstream":
            module = _translation(_package_of(kit.name), spec.protocol)
            if module is None:
                raise ProgramFailed("unregistered", f"{kit.name} does not speak the {spec.protocol} protocol")
            self.translation = module.SeatTranslation(seat)

    async def decide(
        self, kit: Any, deal_id: str | None, seat: int, view: Any, state: Any = None, events: Any = None
    ) -> Any:
        if self.translation is not None:
            return await self._translated(view, state, events)
        message = {"protocol": PROTOCOL, "deal_id": deal_id, "game": kit.name, "seat": seat}
        line = msgspec.json.encode({**message, "view": view}) + b"\n"
        return read_command(kit, view, seat, await self.process.ask(line))

    async def _translated(self, view: Any, state: Any, events: Any) -> Any:
        """Another protocol (Botzone's, a long-running program included) through the game's
        translation: ``known(state)`` is a move already answered (the discard a ``PENG`` named);
        ``inputs(events, fresh)`` what the program reads first, as (request index, text, expected
        answer or None for this decision): a new process gets the whole history at once, a
        long-running one each request it missed, as the judge sends them, answering ``PASS`` to
        those that asked nothing of it (``response(answer)`` reads such an answer);
        ``command(response, state)`` the legal action a response
        names (ValueError: none)."""
        t = self.translation
        try:
            known = t.known(state)
            if known is not None:
                return known
            inputs = t.inputs(events, self.process.proc is None)
        except Exception as exc:  # noqa: BLE001 - our translation's fault, but the deal goes on
            log.error("the %s translation failed: %s: %s", self.spec.protocol, type(exc).__name__,
                      redacted(str(exc)))  # fmt: skip
            raise ProgramFailed("translation", f"{type(exc).__name__}: {exc}") from None
        while inputs[0][2] is not None:  # a request between decisions: only PASS answers it
            index, text, expected = inputs.pop(0)
            answer = await self.process.ask(text.encode())
            got = " ".join(answer.decode(errors="replace").split())
            if t.response(got) != expected:
                raise ProgramFailed(
                    "illegal", f"request {index + 1}: {got[:80]!r} where only {expected} answers"
                )
            if not await self._keeps_running(t):
                await self.process.kill()  # it ended: a new process reads the whole history
                inputs = t.inputs(events, True)
        answer = await self.process.ask(inputs[0][1].encode())
        try:
            command = t.command(answer.decode(errors="replace").strip(), state)
        except ValueError as exc:
            raise ProgramFailed("illegal", str(exc)) from None
        if command not in view.legal_actions:
            raise ProgramFailed("illegal", f"{answer.strip()[:80]!r} is not a legal action")
        if not await self._keeps_running(t):
            await self.process.kill()  # it answered and ended: the next decision starts it afresh
        return command

    async def _keeps_running(self, t: Any) -> bool:
        """``keeps_running`` for a translated program, handing the lines its protocol lets it
        print after an answer (Botzone's data and globaldata) to the translation."""
        extra: list[str] = []
        running = await self.process.keeps_running(t.KEEP_RUNNING, extra, getattr(t, "EXTRA_LINES", 0))
        if hasattr(t, "kept"):
            t.kept(extra)
        return running


def _package_of(game: str) -> str:
    from domain.game import GAMES

    return GAMES[game]


def fallback_command_id(name: str, seat: int, version: int, reason: str) -> str:
    """The stored id of a default move a program's failure cost its seat: the log says why."""
    return f"{COMMAND_ID_PREFIX}{name}:{seat}:{version}:{reason}"


def _default(view: Any, default: Any) -> Any:
    if default is not None:
        return default
    return view.legal_actions[0]  # pragma: no cover - the table waits on the seat, so TB-2.5 has one


class ProgramHost:
    """Every program seat of the deals one process drives (the bot runner owns one)."""

    def __init__(self, max_processes: int | None = None) -> None:
        self.seats: dict[tuple[str | None, int], Seat] = {}
        self.failures = 0  # decisions a program failed (for tests)
        self._reaper: asyncio.Task | None = None
        # program processes this host runs at once (None: no bound); a seat whose process would
        # be one more plays its default move ("busy") and tries again at its next decision
        self.max_processes = max_processes

    @property
    def running(self) -> int:
        return sum(1 for seat in self.seats.values() if seat.process.proc is not None)

    def plays(self, level: str) -> bool:
        return program(level) is not None

    async def decide(
        self,
        kit: Any,
        deal_id: str | None,
        seat: int,
        level: str,
        view: Any,
        default: Any,
        state: Any = None,
        events: Any = None,
    ) -> tuple[Any, str | None]:
        """(command, None) as the program chose, or (the default move, why) when it did not."""
        name = level.removeprefix(PREFIX)
        spec = program(name)
        key = (deal_id, seat)
        here = self.seats.get(key)
        try:
            if spec is None:
                raise ProgramFailed("unregistered", "no program of that name in this process")
            if here is None:
                here = self.seats[key] = Seat(spec, _REG.limits, kit, seat)
                self._reap_later()
            if here.gave_up:
                return _default(view, default), "given_up"
            limit = self.max_processes
            if here.process.proc is None and limit is not None and self.running >= limit:
                log.warning("bot program %s on deal %s seat %d waits: %d program processes run here",
                            name, deal_id, seat, limit)  # fmt: skip
                return _default(view, default), "busy"
            command = await here.decide(kit, deal_id, seat, view, state, events)
            here.failures = 0
            return command, None
        except ProgramFailed as exc:
            self.failures += 1
            given_up = False
            if here is not None:
                await here.process.kill()
                here.failures += 1
                if here.failures >= here.limits.failures:
                    here.gave_up = given_up = True
            log.warning(
                "bot program %s on deal %s seat %d failed (%s): %s;"
                " the seat plays its default move (TB-2.5)%s",
                name, deal_id, seat, exc.reason, exc.public,
                f", and after {here.failures} failures in a row every move to the deal's end"
                if given_up else "",
            )  # fmt: skip
            return _default(view, default), exc.reason

    async def end_deal(self, deal_id: str | None) -> None:
        for key in [k for k in self.seats if k[0] == deal_id]:
            seat = self.seats.pop(key)
            await seat.process.kill()

    def _reap_later(self) -> None:
        if self._reaper is None or self._reaper.done():
            self._reaper = asyncio.get_running_loop().create_task(self._reap())

    async def _reap(self) -> None:
        """End the processes of seats that had no decision for ``idle_s`` (a deal that ended in
        another process, or was left)."""
        while self.seats:
            await asyncio.sleep(min(30.0, _REG.limits.idle_s / 2))
            now = time.monotonic()
            for key, seat in list(self.seats.items()):
                if now - seat.process.used > seat.limits.idle_s:
                    self.seats.pop(key, None)
                    await seat.process.kill()

    async def close(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
        seats, self.seats = list(self.seats.values()), {}
        for seat in seats:
            await seat.process.kill()


# --- the same, synchronous, for self-play (simulate, arena) ---------------------------------------
class _Loop:
    """One event loop in a daemon thread, for the synchronous callers of this process."""

    _lock = threading.Lock()
    _loop: asyncio.AbstractEventLoop | None = None

    @classmethod
    def get(cls) -> asyncio.AbstractEventLoop:
        with cls._lock:
            if cls._loop is None:
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="bot-programs", daemon=True).start()
                cls._loop = loop
            return cls._loop

    @classmethod
    def run(cls, coro: Any, timeout: float) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, cls.get()).result(timeout)


def _end(host: ProgramHost) -> None:
    try:
        _Loop.run(host.close(), 30)
    except Exception:  # noqa: BLE001 - at exit or in a finalizer: nothing to tell anyone
        pass


class ProgramBot:
    """A program as a self-play bot (``kit.make_bot(NAME, seed)``): one process for the deal the
    bot plays, ended when the bot is dropped (or ``close``). ``default`` is the seat's default
    move at the view ``choose`` gets next, set by ``view_fn``; without it a failure plays the
    first legal action."""

    def __init__(self, kit: Any, level: str) -> None:
        self.kit = kit
        self.level = level
        self.host = ProgramHost()
        self.default: Any = None
        self.state: Any = None
        self.events: Any = None  # the deal's events so far, for another protocol's translation
        self.deal_id = f"selfplay-{id(self):x}"
        self.reasons: list[str] = []  # why each failed decision failed (for tests)
        self._finalizer = weakref.finalize(self, _end, self.host)

    def choose(self, view: Any) -> Any:
        default, self.default = self.default, None
        coro = self.host.decide(
            self.kit, self.deal_id, view.seat, self.level, view, default, self.state, self.events
        )
        command, reason = _Loop.run(coro, _REG.limits.decision_s + 30)
        if reason is not None:
            self.reasons.append(reason)
        return command

    def close(self) -> None:
        self._finalizer()


def view_fn(kit: Any, bots: Any) -> Any:
    """``kit.projections.view_from_state`` for ``play_deal``, which also tells each program bot of
    ``bots`` (or one a wrapper holds as ``.bot``) its seat's default move at that state (TB-2.5)."""
    base = kit.projections.view_from_state

    def view(state: Any, seat: int) -> Any:
        bot = bots[seat]
        bot = getattr(bot, "bot", bot)
        if isinstance(bot, ProgramBot):
            bot.default = kit.default_move(state, seat)
            bot.state = state
        return base(state, seat)

    return view


def step_fn(bots: Any) -> Any:
    """``on_step`` for ``play_deal``: each program bot of ``bots`` keeps the deal's events (the
    Botzone protocol tells a program every move it saw, not only its seat's view)."""

    def on_step(step: Any) -> None:
        for bot in bots:
            bot = getattr(bot, "bot", bot)
            if isinstance(bot, ProgramBot):
                bot.events = step.log

    return on_step
