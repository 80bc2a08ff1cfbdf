"""The application service: create deals, run commands through decide + append, play bot seats.

Game-agnostic: everything game-specific comes through ``GameKit``. Holds no state that Redis
does not have, only a fold cache keyed by deal and version, so any number of processes can
serve the same deals.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import os
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import msgspec

from domain.errors import RuleViolation
from domain.game import StartDeal
from service.games import GameKit, kit
from service.store import EventStore, VersionConflict, now_ms

log = logging.getLogger("dealstream.deals")

MAX_CONFLICT_RETRIES = 50


class DealNotFound(Exception):
    def __init__(self, deal_id: str) -> None:
        super().__init__(f"no deal {deal_id!r}")
        self.deal_id = deal_id


class StaleVersion(Exception):
    """The client's ``expected_version`` is not the log's version (HTTP 409)."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"expected version {expected}, the deal is at {actual}")
        self.expected = expected
        self.actual = actual


@dataclass
class Folded:
    """A deal's state after ``version`` events, and those events (typed)."""

    kit: GameKit
    seats: list[str]
    state: Any
    version: int = 0
    events: list[Any] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return self.kit.game.is_over(self.state)

    @cached_property
    def has_bots(self) -> bool:  # seat kinds never change: asked after every command
        return any(kind.startswith("bot:") for kind in self.seats)


class Outcome(msgspec.Struct, frozen=True):
    """What one command did: versions first..last, the events, and whether it was a retry."""

    first_version: int
    last_version: int
    events: list[Any]
    duplicate: bool = False


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def parse_seats(seats: Any, kit_: GameKit) -> list[str]:
    if not isinstance(seats, list) or len(seats) != kit_.game.seat_count:
        raise RuleViolation("DS-5", f"{kit_.name} needs a list of {kit_.game.seat_count} seats")
    parsed = []
    for seat in seats:
        if seat == "human":
            parsed.append(seat)
            continue
        if isinstance(seat, str) and seat.startswith("bot:") and seat[4:] in kit_.bot_levels:
            parsed.append(seat)
            continue
        levels = ", ".join(f"bot:{lvl}" for lvl in kit_.bot_levels)
        raise RuleViolation("DS-5", f"a seat is 'human' or one of {levels}; got {seat!r}")
    return parsed


class DealService:
    def __init__(
        self,
        store: EventStore,
        *,
        dev: bool = False,
        bot_delay: float = 0.0,
        cache_size: int = 2048,
    ) -> None:
        self.store = store
        self.dev = dev
        self.bot_delay = bot_delay
        self._cache: OrderedDict[str, Folded] = OrderedDict()
        self._cache_size = cache_size
        self._token_digests: OrderedDict[str, dict[int, str]] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = {}
        self._bot_tasks: dict[str, asyncio.Task] = {}

    # creation ------------------------------------------------------------------
    async def create(
        self,
        game_name: str,
        seats: Any,
        client_seed: str | None = None,
        deck: list[int] | None = None,
        dealer: int | None = None,
    ) -> dict[str, Any]:
        kit_ = kit(game_name)
        seat_kinds = parse_seats(seats, kit_)
        if (deck is not None or dealer is not None) and not self.dev:
            raise RuleViolation("DS-9", "fixed decks and dealers need a server started with --dev")
        deal_id = secrets.token_hex(8)
        events = kit_.game.create(
            deal_id=deal_id,
            seats=seat_kinds,
            server_seed=os.urandom(32),
            fixed_deck=deck,
            fixed_dealer=dealer,
        )
        tokens = {i: secrets.token_urlsafe(32) for i, kind in enumerate(seat_kinds) if kind == "human"}
        meta = {
            "game": kit_.name,
            "seats": json.dumps(seat_kinds),
            "created_ms": str(now_ms()),
            **{f"token:{seat}": token_digest(tok) for seat, tok in tokens.items()},
        }
        await self.store.put_meta(deal_id, meta)
        result = await self.store.append(deal_id, 0, events, command_id="create")
        await self.store.put_meta(deal_id, {}, created_ms=int(meta["created_ms"]))
        # the first command needs neither the meta nor the log back from Redis
        self._remember_tokens(deal_id, {seat: token_digest(tok) for seat, tok in tokens.items()})
        self._remember_fold(
            deal_id,
            Folded(kit_, seat_kinds, kit_.game.fold(events), result.last_version, list(events)),
        )
        version = 1
        if not tokens:
            # never an empty client seed: sha256(server_seed || "") is the public commitment itself
            seed = client_seed or secrets.token_hex(16)
            outcome = await self.execute(
                deal_id, None, StartDeal(seat=0, client_seed=seed), command_id="start"
            )
            version = outcome.last_version
        return {
            "deal_id": deal_id,
            "game": kit_.name,
            "ruleset": kit_.game.ruleset,
            "seats": seat_kinds,
            "commitment": events[0].commitment,
            "tokens": {str(seat): tok for seat, tok in tokens.items()},
            "version": version,
        }

    # loading -------------------------------------------------------------------
    def _lock(self, deal_id: str) -> asyncio.Lock:
        lock = self._locks.get(deal_id)
        if lock is None:
            lock = self._locks[deal_id] = asyncio.Lock()
        return lock

    async def load(self, deal_id: str) -> Folded:
        """The folded deal at the log's current version (cache plus whatever came since)."""
        folded = self._cache.get(deal_id)
        if folded is None:
            meta = await self.store.get_meta(deal_id)
            if "game" not in meta:
                raise DealNotFound(deal_id)
            kit_ = kit(meta["game"])
            folded = Folded(kit_, json.loads(meta["seats"]), kit_.game.initial_state())
        records = await self.store.read(deal_id, folded.version + 1)
        if not records and folded.version == 0:
            raise DealNotFound(deal_id)
        game = folded.kit.game
        for record in records:
            if record.version != folded.version + 1:
                continue  # another coroutine folded it while we were reading
            event = folded.kit.decode_event(record.data)
            folded.state = game.evolve(folded.state, event)
            folded.events.append(event)
            folded.version = record.version
        self._remember_fold(deal_id, folded)
        return folded

    def _remember_fold(self, deal_id: str, folded: Folded) -> None:
        self._cache[deal_id] = folded
        self._cache.move_to_end(deal_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def _remember_tokens(self, deal_id: str, digests: dict[int, str]) -> None:
        self._token_digests[deal_id] = digests
        while len(self._token_digests) > self._cache_size:
            self._token_digests.popitem(last=False)

    async def seats(self, deal_id: str) -> list[str]:
        return (await self.load(deal_id)).seats

    async def authenticate(self, deal_id: str, token: str | None) -> int:
        """The seat this token acts for; constant-time comparison of digests."""
        if not token:
            raise RuleViolation("DS-8", "this needs a seat token (Authorization: Bearer …)")
        digests = self._token_digests.get(deal_id)
        if digests is None:  # seat tokens never change after creation: read them once
            meta = await self.store.get_meta(deal_id)
            if "game" not in meta:
                raise DealNotFound(deal_id)
            digests = {int(k.split(":", 1)[1]): v for k, v in meta.items() if k.startswith("token:")}
            self._remember_tokens(deal_id, digests)
        digest = token_digest(token)
        seat = None
        for candidate, stored in digests.items():
            if hmac.compare_digest(stored, digest):
                seat = candidate
        if seat is None:
            raise RuleViolation("DS-8", "this token is not a seat of this deal")
        return seat

    # commands ------------------------------------------------------------------
    def decode_command(self, folded: Folded, seat: int | None, command: Any) -> Any:
        """Turn request JSON into the game's command, acting for ``seat`` (from the token)."""
        if isinstance(command, msgspec.Struct):
            return command
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise RuleViolation("DS-5", "command must be an object with a 'type'")
        if seat is not None:
            claimed = command.get("seat", seat)
            if claimed != seat:
                raise RuleViolation("DS-3", f"this token acts for seat {seat}, not {claimed!r}")
            command = {**command, "seat": seat}
        try:
            typed = folded.kit.convert_command(command)
        except msgspec.ValidationError as exc:
            raise RuleViolation("DS-5", f"malformed {command.get('type')!r} command: {exc}") from None
        if isinstance(typed, StartDeal) and not typed.client_seed:
            # with an empty client seed the deck would follow from the public commitment alone
            raise RuleViolation("DS-5", "StartDeal needs a non-empty client_seed")
        return typed

    async def execute(
        self,
        deal_id: str,
        seat: int | None,
        command: Any,
        *,
        command_id: str,
        expected_version: int | None = None,
    ) -> Outcome:
        """Decide and append one command; a repeated ``command_id`` returns its first outcome.

        A version conflict with another writer re-folds and decides again (the rules, not the
        arrival order, settle claims), unless the client pinned ``expected_version``.
        """
        async with self._lock(deal_id):
            outcome = await self._execute_locked(deal_id, seat, command, command_id, expected_version)
        self.kick_bots(deal_id)
        return outcome

    def cached(self, deal_id: str) -> Folded | None:
        """The folded deal as this process last saw it (no I/O; may lag other processes)."""
        return self._cache.get(deal_id)

    async def _execute_locked(
        self,
        deal_id: str,
        seat: int | None,
        command: Any,
        command_id: str,
        expected_version: int | None,
    ) -> Outcome:
        # Optimistic: decide on the cached fold without reading the log first; the append
        # script's version check catches a stale cache, and then we fold the log and retry.
        fresh = False
        for _attempt in range(MAX_CONFLICT_RETRIES):
            folded = None if fresh else self._cache.get(deal_id)
            if folded is None:
                folded = await self.load(deal_id)
                fresh = True
            try:
                if expected_version is not None and expected_version != folded.version:
                    raise StaleVersion(expected_version, folded.version)
                typed = self.decode_command(folded, seat, command)
                if folded.over:
                    raise RuleViolation("DS-6", "the deal is over")
                events, after = folded.kit.game.execute(folded.state, typed)
                if not events:
                    raise RuleViolation("DS-5", "the command changed nothing")
            except (RuleViolation, StaleVersion):
                if not fresh:  # judge a refusal on the log as it is, not on a cached fold
                    fresh = True
                    continue
                # a retry of an accepted command may be refused by the state it made: answer it
                # with its first result (a legal retry is caught by the append script instead)
                previous = await self.store.command_result(deal_id, command_id)
                if previous is not None:
                    return await self._replayed(folded, deal_id, *previous)
                raise
            try:
                result = await self.store.append(
                    deal_id, folded.version, events, command_id=command_id, command=typed
                )
            except VersionConflict:
                if expected_version is not None:
                    raise StaleVersion(expected_version, (await self.load(deal_id)).version) from None
                fresh = True
                continue
            if result.duplicate:
                return await self._replayed(
                    await self.load(deal_id), deal_id, result.first_version, result.last_version
                )
            if folded.version == result.first_version - 1:
                folded.state = after  # what evolving by ``events`` gives, already worked out
                folded.events.extend(events)
                folded.version = result.last_version
            else:  # a reader folded our events from the store while we awaited the append
                folded = await self.load(deal_id)
            if folded.over:
                await self.store.put_meta(deal_id, {"status": "over"})
                self._locks.pop(deal_id, None)  # later commands only read; a fresh lock is fine
            return Outcome(result.first_version, result.last_version, events)
        raise RuleViolation("DS-4", "too many concurrent writers on this deal; try again")

    async def _replayed(self, folded: Folded, deal_id: str, first: int, last: int) -> Outcome:
        if folded.version < last:
            folded = await self.load(deal_id)
        return Outcome(first, last, folded.events[first - 1 : last], duplicate=True)

    # bots ----------------------------------------------------------------------
    def kick_bots(self, deal_id: str) -> None:
        """Make sure a task is moving this deal's bot seats if any must act."""
        task = self._bot_tasks.get(deal_id)
        if task is not None and not task.done():
            return
        folded = self._cache.get(deal_id)
        if folded is None or not folded.has_bots or folded.over or not self._bots_to_act(folded):
            return
        self._bot_tasks[deal_id] = asyncio.create_task(self._drive_bots(deal_id))

    def _bots_to_act(self, folded: Folded) -> list[int]:
        return [s for s in folded.kit.game.seats_to_act(folded.state) if folded.seats[s].startswith("bot:")]

    async def _drive_bots(self, deal_id: str) -> None:
        try:
            while True:
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                folded = await self.load(deal_id)
                seats = [] if folded.over else self._bots_to_act(folded)
                if not seats:
                    return
                seat = seats[0]
                version = folded.version
                view = folded.kit.projections.view_from_state(folded.state, seat)
                seed = int.from_bytes(
                    hashlib.sha256(f"{deal_id}:{seat}:{version}".encode()).digest()[:8], "big"
                )
                bot = folded.kit.make_bot(folded.seats[seat][4:], seed)
                command = bot.choose(view)
                try:
                    async with self._lock(deal_id):
                        await self._execute_locked(deal_id, seat, command, f"bot:{seat}:{version}", None)
                except RuleViolation:
                    if (await self.load(deal_id)).version == version:
                        raise  # refused on the very state the bot saw: a bot bug, not a race
                    continue  # someone moved first (a claim window closed): look again
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bot must never take the server down; the deal waits for a kick
            log.exception("bot runner stopped on deal %s", deal_id)
        finally:
            if self._bot_tasks.get(deal_id) is asyncio.current_task():
                del self._bot_tasks[deal_id]

    async def close(self) -> None:
        for task in self._bot_tasks.values():
            task.cancel()
        await asyncio.gather(*self._bot_tasks.values(), return_exceptions=True)
        self.store.close()
