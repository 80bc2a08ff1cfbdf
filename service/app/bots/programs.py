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

import importlib
import json
import logging
import os
import re
import shlex
import shutil
from dataclasses import asdict, dataclass, field
from typing import Any

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
    return sorted(g for g, package in GAMES.items() if translation_of(package, protocol) is not None)


def translation_of(package: str, protocol: str) -> Any:
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
