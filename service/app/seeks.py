"""Quick play: a signed-in person asks for a game, and the service seats people of similar rating
together (``service.store.seeks`` decides in Redis, atomically, so several processes seat each
seeker once).

Every seek waits in its game's queue, scored by its account's shown rating in that game (0 for a
new player). A table is the first run of seat-count seekers, neighbours by rating, each of whom
finds the run's spread within its own window: ``WINDOW_BASE`` rating points plus ``WIDEN_PER_S``
for every second it has waited, so a long wait accepts a wider table. A seek with ``bots_after_s``
that has waited that long takes the nearest seekers within both windows and house bots
(``BOT_LEVEL``) in the seats left. A seek whose person has not asked about it for ``STALE_S``
ends (the person left), and ``DELETE`` ends it at once. A table's plan is kept beside its seeks:
if the process that matched it dies before making the deal, the next read of one of its seeks
(on any process) makes it under the same id after ``MAKE_GRACE_S``. The time every decision uses is this
process's clock, passed to the script as a number (the domain never reads a clock).

A table is made like a deal of invited people: every seat is open at the creation and taken at
once under the account's name; a 2-s-per-move clock is the default (TB-2.1). Nobody holds its
creation tokens: each seeker gets a token of its own seat when it reads its seated seek (a
device token, as ``my-seat`` hands out), and the seat is listed under its account, so ``my-seat``
and "my games" find it on any device. Quick play tables are not rated.
"""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from collections.abc import Callable
from typing import Any

import msgspec

from domain.errors import RuleViolation
from service.app.accounts import Account
from service.app.games import kit
from service.store.seeks import SeekStore, Table

WINDOW_BASE = 2.0  # rating points a seek accepts at once
WIDEN_PER_S = 1.0  # and this many more per second it has waited
STALE_S = 30.0  # a seek nobody asked about this long ends: its person left
FORGET_S = 600.0  # a seated seek stays readable this long after its last read
MATCH_EVERY_S = 0.05  # a process looks for tables of a game at most this often
MAX_BOTS_AFTER_S = 3600
BOT_LEVEL = "bot:greedy"
MAKE_GRACE_S = 5.0  # a table matched this long ago whose deal is missing is made by whoever reads it
TABLES_PER_LOOK = 64


class SeekRequest(msgspec.Struct, forbid_unknown_fields=True):
    """``game``; ``bots_after_s``: house bots fill the empty seats after this long (none: wait
    for people only)."""

    game: Any = None
    bots_after_s: Any = None


class SeekMade(msgspec.Struct):
    seek_id: str


class SeekState(msgspec.Struct):
    """``waiting`` (deal_id, seat and token null) or ``seated``: the deal, the seat and a new
    token of it for this reader."""

    status: str
    deal_id: str | None
    seat: int | None
    token: str | None
    waited_s: float


def _game_of(seek_id: str) -> str | None:
    game, _, rest = seek_id.partition("-")
    return game if rest and len(seek_id) <= 80 and rest.isalnum() else None


class QuickPlay:
    def __init__(self, deals: Any, accounts: Any, clock: Callable[[], float] = time.time) -> None:
        self.deals = deals
        self.accounts = accounts
        self.store = SeekStore(deals.store.redis, deals.store.prefix)
        self.clock = clock
        self._looked: dict[str, float] = {}
        self._looking: dict[str, asyncio.Lock] = {}

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    async def _rating(self, game: str, name: str) -> float:
        held = (await self.deals.ratings.ratings(game)).games.get(game, {}).get(name)
        return float(held.rating) if held is not None else 0.0

    async def seek(self, account: Account, body: SeekRequest) -> str:
        if not isinstance(body.game, str):
            raise RuleViolation("DS-50", "a seek names its game")
        game = kit(body.game).name  # DS-1 for an unknown game
        after = body.bots_after_s
        if after is not None and (
            isinstance(after, bool) or not isinstance(after, int | float) or not math.isfinite(after)
            or not 0 <= after <= MAX_BOTS_AFTER_S
        ):  # fmt: skip
            raise RuleViolation(
                "DS-50", f"bots_after_s is a number of seconds from 0 to {MAX_BOTS_AFTER_S}, or null"
            )
        seek_id = f"{game}-{secrets.token_hex(12)}"
        rating = await self._rating(game, account.name)
        bots_ms = -1 if after is None else int(after * 1000)
        held = await self.store.add(
            game, seek_id, account.id, account.name, rating, bots_ms, self.now_ms(), int(STALE_S * 1000)
        )
        await self.look(game)  # at most once per MATCH_EVERY_S here, however many ask
        return held

    async def read(self, account: Account, seek_id: str) -> SeekState:
        game = _game_of(seek_id)
        seek = await self.store.poll(game, seek_id, self.now_ms(), account.id) if game in _games() else None
        if seek is None or seek.account != account.id:  # another account's seek is no seek to it
            raise RuleViolation("DS-51", "no seek of this account has this id (it ended, or is another's)")
        assert game is not None
        if seek.status == "waiting":
            await self.look(game)
            seek = await self.store.poll(game, seek_id, self.now_ms(), account.id) or seek
        waited = max(0.0, ((seek.seated_ms or self.now_ms()) - seek.since_ms) / 1000)
        if seek.status == "seated" and seek.deal_id is not None and seek.seat is not None:
            token = await self.accounts.hand_seat(seek.deal_id, seek.seat)
            late = self.now_ms() - (seek.seated_ms or 0) > MAKE_GRACE_S * 1000
            if token is None and late:  # the process that matched it died before making the deal
                table = await self.store.plan(game, seek.deal_id, self.now_ms())
                if table is not None:
                    await self._make(game, table)
                    token = await self.accounts.hand_seat(seek.deal_id, seek.seat)
            if token is not None:  # else the table is still being made (by another process)
                return SeekState("seated", seek.deal_id, seek.seat, token, waited)
        return SeekState("waiting", None, None, None, waited)

    async def leave(self, account: Account, seek_id: str) -> None:
        game = _game_of(seek_id)
        if game not in _games() or not await self.store.drop(str(game), seek_id, account.id, self.now_ms()):
            raise RuleViolation("DS-51", "no seek of this account has this id (it ended, or is another's)")

    async def look(self, game: str, force: bool = False) -> int:
        """Make the tables the queue holds now (at most once per ``MATCH_EVERY_S`` here)."""
        now = time.monotonic()
        if not force and now - self._looked.get(game, 0.0) < MATCH_EVERY_S:
            return 0
        lock = self._looking.setdefault(game, asyncio.Lock())
        if lock.locked():
            return 0  # another request of this process is looking right now
        async with lock:
            self._looked[game] = time.monotonic()
            seats = kit(game).game.seat_count
            tables: list[Table] = []
            for _ in range(TABLES_PER_LOOK):
                table = await self.store.match(
                    game,
                    secrets.token_hex(8),
                    seats,
                    WINDOW_BASE,
                    WIDEN_PER_S,
                    int(STALE_S * 1000),
                    self.now_ms(),
                )
                if table is None:
                    break
                tables.append(table)
            await asyncio.gather(*(self._make(game, t) for t in tables))
            if secrets.randbelow(100) == 0:
                await self.store.sweep(game, int(FORGET_S * 1000), self.now_ms())
            return len(tables)

    async def _make(self, game: str, table: Table) -> None:
        seeks = [await self.store.poll(game, sid, self.now_ms()) for sid in table.seek_ids]
        people = {s.seat: s for s in seeks if s is not None and s.seat is not None}
        seats = ["open"] * len(people) + [BOT_LEVEL] * table.bots
        await self.deals.create_seated(
            game, seats, {seat: s.name for seat, s in people.items()}, table.deal_id
        )
        for seat, s in people.items():
            await self.accounts.list_seat(s.account, table.deal_id, seat)


def _games() -> set[str]:
    from domain.game import GAMES

    return set(GAMES)
