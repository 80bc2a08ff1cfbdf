"""Bot programs at the tables: one seat's program for one deal (``Seat``), every program seat
of this process (``ProgramHost``), and a program as a synchronous bot for self-play
(``ProgramBot``, ``view_fn``, ``step_fn``)."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import weakref
from typing import Any

import msgspec

from service.app.bots.program_process import Process
from service.app.bots.programs import (
    COMMAND_ID_PREFIX,
    PREFIX,
    PROTOCOL,
    Limits,
    ProgramFailed,
    ProgramSpec,
    limits,
    program,
    redacted,
    translation_of,
)

log = logging.getLogger("dealstream.bots.programs")


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
            module = translation_of(_package_of(kit.name), spec.protocol)
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
                here = self.seats[key] = Seat(spec, limits(), kit, seat)
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
            await asyncio.sleep(min(30.0, limits().idle_s / 2))
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
        command, reason = _Loop.run(coro, limits().decision_s + 30)
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
