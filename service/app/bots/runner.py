"""The bot runner: the service plays bot seats itself, through the same command path as people.

A bot sees one seat view (never the state) and returns a command; the command is decided and
appended like anyone's, under the id ``bot:<seat>:<version>`` (so two processes driving the same
deal at once produce the same command, and the second is a harmless duplicate). Searching bots
(every level but ``random`` and ``greedy``) think in worker processes, never on the event loop,
under a time budget the service sets; a worker that dies or overruns costs the seat nothing but
the search: it gets the ``greedy`` move instead and the deal goes on. The search itself is bounded
by counts, not by the clock, so the budget is only a safety net.

A store that cannot be reached (Redis stalled, restarting, cut off) is waited out with a short
backoff, and a supervisor sweep every few seconds restarts the runner of any cached live deal
whose bots must act: tables go on by themselves after a fault, with no request touching them.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

import msgspec

from domain.errors import RuleViolation
from domain.table.absence import away_command_id
from service.app.bots.program_host import ProgramHost, fallback_command_id
from service.app.bots.programs import limits as program_limits
from service.app.bots.workers import die_with_parent, stop_pool
from service.app.cancellation import raise_if_cancelled
from service.app.state.folds import DealNotFound, Folded, Folds, StaleVersion
from service.metrics import Metrics
from service.store.outages import STORE_OUTAGES

log = logging.getLogger("dealstream.bots")

RETRY_MAX_S = 2.0
INLINE_LEVELS = frozenset({"random", "greedy"})  # fast enough for the event loop (a few ms at most)
FALLBACK_LEVEL = "greedy"
PACE_FACTORS = {"slow": 2.0, "normal": 1.0, "fast": 0.3}  # a deal's pace: times the server's bot delay


def bot_command_id(seat: int, version: int) -> str:
    """The command id of a bot's move (the same in every process that might make it)."""
    return f"bot:{seat}:{version}"


AWAY_LEVEL = "greedy"  # plays an away person's seat (TB-2.6)
AWAY_THINK_S = 1.0  # and thinks this long before each move
STALL_MARGIN_S = 2.0  # beyond the longest a bot move may take, before the sweep adopts a deal


def bot_seed(deal_id: str, seat: int, version: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{deal_id}:{seat}:{version}".encode()).digest()[:8], "big")


def _think(game: str, level: str, seed: int, view_json: bytes) -> bytes:
    """In a worker process: the bot's command for a view, both as JSON."""
    from service.app.games import kit

    k = kit(game)
    view = msgspec.json.decode(view_json, type=k.view_type)
    return msgspec.json.encode(k.make_bot(level, seed).choose(view))


WORKER_NICE = 10  # bot workers yield the CPU to the event loop that answers people


def _start_worker(parent: int) -> None:
    """In a new worker process: die with the service, however it dies (``kill -9`` included,
    where no executor shutdown runs), and think at a lower priority than its event loop."""
    die_with_parent(parent)
    try:
        os.nice(WORKER_NICE)
    except OSError:  # not permitted here: think at the same priority
        pass


def _warm() -> int:
    """In a new worker process: import both engines and their bots before the first search, so
    that cost is paid once and never counted against a decision's budget."""
    from domain.game import GAMES
    from service.app.games import kit

    for game in GAMES:
        kit(game).make_bot("strong", 0)
    return os.getpid()


class BotPool:
    """Worker processes for searching bots. ``choose`` answers within ``budget`` seconds or
    raises ``TimeoutError`` (the seat then plays greedy); a dead worker raises
    ``BrokenProcessPool`` and the pool is replaced for the next call.

    Why an overrun keeps its worker: searches are bounded by a count, so a search past its budget
    is a busy machine, not a stuck worker. Killing and respawning the workers then would make the
    next searches pay a spawn too and overrun in turn (every strong seat would play greedy under
    load), and would break the other searches running beside it. A search still running
    ``stuck_after`` seconds past its budget is treated as stuck: the pool is replaced. Starting
    the workers (spawn and imports) is waited for outside the budget, bounded by ``start_limit``.
    """

    def __init__(
        self,
        workers: int | None = None,
        budget: float = 1.0,
        *,
        stuck_after: float = 10.0,
        start_limit: float = 60.0,
    ) -> None:
        # leave the event loop a core of its own: on two cores one worker thinks (a
        # person's commands at a table of strong bots stay as fast as at a table of greedy bots)
        self.workers = workers or max(1, min(2, (os.cpu_count() or 1) - 1))
        self.budget = budget
        self.stuck_after = stuck_after
        self.start_limit = start_limit
        self._pool: ProcessPoolExecutor | None = None
        self._warming: asyncio.Future | None = None
        self.decisions = 0  # searches asked for (for tests and benchmarks)
        self.fallbacks = 0  # decisions that fell back to greedy (for tests and benchmarks)
        self.replaced = 0  # times the workers were replaced (dead or stuck)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: workers never inherit the server's sockets, loop or locks
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
            self._warming = None
        return self._pool

    async def start(self) -> None:
        """Start the workers (once per pool); a caller may await it ahead of the first search."""
        pool = self._executor()
        if self._warming is None:
            warm = [asyncio.wrap_future(pool.submit(_warm)) for _ in range(self.workers)]
            self._warming = asyncio.ensure_future(asyncio.gather(*warm))
        try:
            async with asyncio.timeout(self.start_limit):
                await asyncio.shield(self._warming)
        except BrokenProcessPool:
            self._replace(pool)
            raise

    def worker_pids(self) -> list[int]:
        pool = self._pool
        return list(pool._processes) if pool is not None and pool._processes else []  # noqa: SLF001

    async def choose(self, game: str, level: str, seed: int, view: Any) -> bytes:
        self.decisions += 1
        await self.start()
        pool = self._executor()
        work = pool.submit(_think, game, level, seed, msgspec.json.encode(view))
        try:
            async with asyncio.timeout(self.budget):  # not wait_for: it may swallow a cancellation
                # on the timeout the wrapper is cancelled, which drops a search still queued
                return await asyncio.wrap_future(work)
        except BrokenProcessPool:
            self._replace(pool)
            raise
        except TimeoutError:
            if work.running():  # a running search cannot be cancelled: give it time, then judge it
                asyncio.get_running_loop().call_later(self.stuck_after, self._replace_if_stuck, pool, work)
            raise

    def _replace_if_stuck(self, pool: ProcessPoolExecutor, work: Any) -> None:
        if not work.done() and self._pool is pool:
            log.warning("a bot search ran %.0f s past its budget: replacing the workers", self.stuck_after)
            self._replace(pool)

    async def run(self, fn: Any, *args: Any) -> Any:
        """Any picklable work in the workers (a review's chunk), with no budget of its own."""
        await self.start()
        pool = self._executor()
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            self._replace(pool)
            raise

    def _replace(self, pool: ProcessPoolExecutor | None = None) -> None:
        """Drop the workers (those of ``pool`` only, when given and still current)."""
        if pool is not None and pool is not self._pool:
            return  # replaced already by another caller
        self.replaced += self._pool is not None
        self._drop()

    def _drop(self) -> None:
        pool, self._pool, self._warming = self._pool, None, None
        if pool is not None:
            stop_pool(pool)

    def close(self) -> None:
        self._drop()


def _fallback_reason(exc: BaseException) -> str:
    """Why a search fell back to the greedy move, as a label: over its budget, or its worker died."""
    if isinstance(exc, TimeoutError):
        return "budget"
    return "worker_died" if isinstance(exc, BrokenProcessPool) else "os_error"


def _away_first(folded: Folded, seats: list[int]) -> bool:
    """The first of ``seats`` is a person's seat that is away."""
    seating = folded.state.seating
    return (
        bool(seats)
        and bool(seating.away)
        and seating.away[seats[0]]
        and not seating.kinds[seats[0]].startswith("bot:")
    )


class CommandSide(Protocol):
    """What the runner needs of the command side: the fold cache it reads the deals from and
    the one way a command is appended (``DealService`` is it; it owns the runner, so the runner
    names the shape it needs instead of importing its owner)."""

    folds: Folds

    async def execute(
        self,
        deal_id: str,
        seat: int | None,
        command: Any,
        *,
        command_id: str,
        expected_version: int | None = None,
        kick: bool = True,
    ) -> Any: ...


class BotRunner:
    """Moves the bot seats of the deals this process holds folds of."""

    deals: CommandSide  # the command side it appends through (``attach``)

    def __init__(
        self,
        delay: float = 0.0,
        pool: BotPool | None = None,
        *,
        metrics: Metrics | None = None,
    ) -> None:
        """``bootstrap`` makes the runner and hands it to the command side, which attaches
        itself (the two need each other)."""
        self.delay = delay
        self.pool = pool
        self.metrics = metrics if metrics is not None else Metrics()  # decisions, fallbacks
        self._tasks: dict[str, asyncio.Task] = {}
        self._standing: dict[str, tuple[int, float]] = {}  # deal -> (version, since): the sweep's memory
        self.programs = ProgramHost()  # the operator's bot programs, one process a deal and seat
        self.decision_ms: list[float] = []  # recent decision times (bounded), for benchmarks
        self.loads = 0  # moves that had to read the store first (no fold here, or it was behind)

    def attach(self, deals: CommandSide) -> None:
        """The command side whose deals this runner moves (it calls this when handed the runner)."""
        self.deals = deals

    def kick(self, deal_id: str) -> None:
        """Make sure a task is moving this deal's bot seats if any must act."""
        if self._undriven(deal_id) is not None:
            self._tasks[deal_id] = asyncio.create_task(self._drive(deal_id))

    def _undriven(self, deal_id: str) -> Folded | None:
        """The cached deal when it waits on a bot (or an away seat) and no task here drives it."""
        task = self._tasks.get(deal_id)
        if task is not None and not task.done():
            return None
        folded = self.deals.folds.cached(deal_id)
        if folded is None or not folded.has_bots or folded.over or not self._bots_to_act(folded):
            return None
        return folded

    @staticmethod
    def _bots_to_act(folded: Folded) -> list[int]:
        """Bot seats the deal waits on, and away seats (the bot plays them for their person)."""
        seating = folded.state.seating
        return [
            s
            for s in folded.kit.game.seats_to_act(folded.state)
            if seating.kinds[s].startswith("bot:") or (seating.away and seating.away[s])
        ]

    async def _drive(self, deal_id: str) -> None:
        backoff = 0.05
        try:
            while True:
                folded = self.deals.folds.cached(deal_id)
                delay = self.delay * PACE_FACTORS.get(folded.pace if folded is not None else "normal", 1.0)
                if folded is not None and _away_first(folded, self._bots_to_act(folded)):
                    delay = max(delay, AWAY_THINK_S)
                if delay:
                    await asyncio.sleep(delay)
                try:
                    stepped = await self._step(deal_id)
                    raise_if_cancelled()  # a client may swallow a cancellation and answer anyway
                    if not stepped:
                        return
                    backoff = 0.05
                except (*STORE_OUTAGES, OSError) as exc:  # waited out, not a reason to stop
                    raise_if_cancelled()  # unless it was a cancellation the client turned into one
                    self.metrics.outage("bots", exc)
                    log.warning("bot runner on deal %s waits for the event store: %s", deal_id, exc)
                    await asyncio.sleep(backoff)
                    backoff = min(RETRY_MAX_S, backoff * 2)
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except DealNotFound:
            log.error("bot runner on deal %s: the deal is gone from the store", deal_id)
        except Exception:  # a bot must never take the server down; the supervisor looks again later
            log.exception("bot runner stopped on deal %s", deal_id)
        finally:
            if self._tasks.get(deal_id) is asyncio.current_task():
                del self._tasks[deal_id]

    async def _step(self, deal_id: str) -> bool:
        """One bot move; False when no bot seat must act.

        The move is decided on the fold this process holds, without a read of the store: it is
        appended only at the version it was decided on (``expected_version``), so a fold that
        another process's append left behind costs a refused append, then a read and a new
        decision, never a move made on a state the bot did not see."""
        folded = self.deals.folds.cached(deal_id)
        if folded is None:
            self.loads += 1
            folded = await self.deals.folds.load(deal_id)
        seats = [] if folded.over else self._bots_to_act(folded)
        if not seats:
            if folded.over:
                await self.programs.end_deal(deal_id)
            return False
        seat = seats[0]
        version = folded.version
        view = folded.kit.projections.view_from_state(folded.state, seat)
        level = folded.seats[seat][4:] if folded.seats[seat].startswith("bot:") else None
        if level is not None and level not in folded.kit.builtin_levels:  # a bot program
            default = folded.kit.default_move(folded.state, seat)
            command, why = await self.programs.decide(
                folded.kit, deal_id, seat, level, view, default, folded.state, folded.events
            )
            command_id = (
                bot_command_id(seat, version)
                if why is None
                else fallback_command_id(level, seat, version, why)
            )
            if why is not None:
                self.metrics.bot_fallbacks.labels(level, why).inc()
        else:
            command = await self._choose(folded, deal_id, seat, version, view)
            away = _away_first(folded, [seat])
            command_id = away_command_id(seat, version) if away else bot_command_id(seat, version)
        try:
            await self.deals.execute(
                deal_id, seat, command, command_id=command_id, expected_version=version, kick=False
            )
        except StaleVersion:  # someone moved first (here, or in another process): look again
            self.loads += 1
            await self.deals.folds.load(deal_id)
        except RuleViolation:
            if (await self.deals.folds.load(deal_id)).version == version:
                raise  # refused on the very state the bot saw: a bot bug, not a race
        # else someone moved first (a claim window closed): look again
        return True

    async def _choose(self, folded: Folded, deal_id: str, seat: int, version: int, view: Any) -> Any:
        kind = folded.seats[seat]
        level = kind[4:] if kind.startswith("bot:") else AWAY_LEVEL
        seed = bot_seed(deal_id, seat, version)
        started = time.perf_counter()
        try:
            if level in INLINE_LEVELS or self.pool is None:
                return folded.kit.make_bot(level, seed).choose(view)
            try:
                answer = await self.pool.choose(folded.kit.name, level, seed, view)
                return folded.kit.convert_command(msgspec.json.decode(answer))
            except (TimeoutError, BrokenProcessPool, OSError) as exc:
                self.pool.fallbacks += 1
                self.metrics.bot_fallbacks.labels(level, _fallback_reason(exc)).inc()
                log.warning("bot %s on deal %s seat %d: %s; playing the %s move", level, deal_id, seat,
                            type(exc).__name__ or exc, FALLBACK_LEVEL)  # fmt: skip
                return folded.kit.make_bot(FALLBACK_LEVEL, seed).choose(view)
        finally:
            took = time.perf_counter() - started
            self.metrics.child(self.metrics.bot_decisions, folded.kit.name, level).inc()
            self.metrics.child(self.metrics.bot_decision_duration, level).observe(took)
            self.decision_ms.append(took * 1000)
            if len(self.decision_ms) > 10_000:
                del self.decision_ms[:5_000]

    def stall_s(self, folded: Folded | None = None) -> float:
        """How long a deal whose bots must act may stand still before the sweep takes it up: the
        slowest pace's delay, the longest one of its moves may think (an away seat, a search, a
        bot program if it seats one) and a margin."""
        think = max(AWAY_THINK_S, self.pool.budget if self.pool is not None else 0.0)
        if folded is not None and any(
            kind.startswith("bot:") and kind[4:] not in folded.kit.builtin_levels for kind in folded.seats
        ):
            think = max(think, program_limits().decision_s)
        return self.delay * max(PACE_FACTORS.values()) + think + STALL_MARGIN_S

    def kick_all(self, now: float | None = None) -> None:
        """The supervisor's sweep: start a runner for every cached live deal whose bots must act,
        that has none here and whose log stood still for ``stall_s`` (a runner that ended on an
        error, a deal no request touched since, a process that stopped).

        Why not every such deal at once: a deal's commands may reach any of the service's
        processes (``serve --processes``) and the one that took the last command drives
        its bots; a process that only streams the deal holds its fold too, and driving it there as
        well computed every bot move twice (the second a duplicate command). A deal that moves is
        being driven; one that stands still is adopted, after a fresh read confirms it."""
        now = time.monotonic() if now is None else now
        standing: dict[str, tuple[int, float]] = {}
        for deal_id in self.deals.folds.deal_ids():
            folded = self._undriven(deal_id)
            if folded is None:
                continue
            version, since = self._standing.get(deal_id, (folded.version, now))
            if version != folded.version:
                since = now
            standing[deal_id] = (folded.version, since)
            if now - since >= self.stall_s(folded):
                self._tasks[deal_id] = asyncio.create_task(self._adopt(deal_id, folded.version))
        self._standing = standing

    async def _adopt(self, deal_id: str, version: int) -> None:
        """Drive a deal that stood still at ``version`` here, unless the store shows it moved."""
        try:
            folded = await self.deals.folds.load(deal_id)
        except (*STORE_OUTAGES, OSError, DealNotFound) as exc:
            log.warning("bot supervisor could not read deal %s: %s", deal_id, exc)
            return
        if folded.version == version:
            await self._drive(deal_id)

    async def supervise(self, interval: float = 2.0) -> None:
        """``kick_all`` every ``interval`` seconds, for as long as the service runs."""
        while True:
            await asyncio.sleep(interval)
            try:
                self.kick_all()
            except Exception:  # noqa: BLE001 - the sweep must outlive any one deal's trouble
                log.exception("bot supervisor sweep failed")

    async def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        await self.programs.close()
        if self.pool is not None:
            self.pool.close()
