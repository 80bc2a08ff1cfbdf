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
import redis.exceptions

from domain.envelope import GENESIS, StoredEvent, decode_record, record_hash
from domain.errors import RuleViolation
from domain.game import StartDeal
from service.games import GameKit, kit
from service.store import EventStore, VersionConflict, now_ms

log = logging.getLogger("dealstream.deals")

MAX_CONFLICT_RETRIES = 50
# what a store that cannot be reached raises; the bot runner waits these out instead of stopping
STORE_ERRORS = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, ConnectionError, OSError)
BOT_RETRY_MAX_S = 2.0


class DealNotFound(Exception):
    def __init__(self, deal_id: str) -> None:
        super().__init__(f"no deal {deal_id!r}")
        self.deal_id = deal_id


class CommandIdReused(Exception):
    """A command id already names another command of this seat (HTTP 409, DS-13)."""

    def __init__(self, command_id: str) -> None:
        super().__init__("this command id was already used for another command; send a new command_id")
        self.command_id = command_id


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
    head_hash: str = GENESIS  # of the stored record at ``version``: tells whether the store still has it
    created_ms: int = 0
    spectators: bool = False  # a live deal open to anyone's spectator stream and listed publicly

    @property
    def over(self) -> bool:
        return self.kit.game.is_over(self.state)

    @cached_property
    def has_bots(self) -> bool:  # seat kinds never change: asked after every command
        return any(kind.startswith("bot:") for kind in self.seats)


@dataclass(frozen=True)
class Outcome:
    """What one command did: versions first..last, the events, whether it was a retry, and the
    deal as it stands after it (what the answer needs, so no caller reads the state again)."""

    first_version: int
    last_version: int
    events: list[Any]
    duplicate: bool = False
    folded: Folded | None = None


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
        self._loading: dict[str, asyncio.Future[Folded]] = {}
        self._bot_tasks: dict[str, asyncio.Task] = {}

    # creation ------------------------------------------------------------------
    async def create(
        self,
        game_name: str,
        seats: Any,
        client_seed: str | None = None,
        deck: list[int] | None = None,
        dealer: int | None = None,
        spectators: bool | None = None,
    ) -> dict[str, Any]:
        """A new deal. ``spectators``: list it while it is live (anyone may watch its public
        table); by default only all-bot deals are, a deal with people stays unlisted until its
        end (anyone holding its id may still watch the public table)."""
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
        if spectators is None:
            spectators = not tokens
        created_ms = now_ms()
        meta = {
            "game": kit_.name,
            "seats": json.dumps(seat_kinds),
            "created_ms": str(created_ms),
            "spectators": "1" if spectators else "0",
            **{f"token:{seat}": token_digest(tok) for seat, tok in tokens.items()},
        }
        await self.store.put_meta(deal_id, meta)
        result = await self.store.append(deal_id, 0, events, command_id="create")
        await self.store.put_meta(deal_id, {}, created_ms=created_ms, public=spectators)
        # the first command needs neither the meta nor the log back from Redis
        self._remember_tokens(deal_id, {seat: token_digest(tok) for seat, tok in tokens.items()})
        self._remember_fold(
            deal_id,
            Folded(
                kit_,
                seat_kinds,
                kit_.game.fold(events),
                result.last_version,
                list(events),
                head_hash=result.head_hash or GENESIS,
                created_ms=created_ms,
                spectators=spectators,
            ),
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
            "spectators": spectators,
        }

    # loading -------------------------------------------------------------------
    def _lock(self, deal_id: str) -> asyncio.Lock:
        lock = self._locks.get(deal_id)
        if lock is None:
            lock = self._locks[deal_id] = asyncio.Lock()
        return lock

    async def load(self, deal_id: str) -> Folded:
        """The folded deal at the log's current version (cache plus whatever came since).

        Concurrent loads of one deal share one read (a burst of views or stream openings costs
        one round trip, not one connection each). The read starts at the cached version itself:
        if the store no longer holds that record as we folded it (data lost, or Redis restored
        from an older append-only file), the store's truth wins: the cache is dropped, loudly,
        and the log is folded again.
        """
        pending = self._loading.get(deal_id)
        if pending is None or pending.done():
            pending = self._loading[deal_id] = asyncio.ensure_future(self._load(deal_id))
            pending.add_done_callback(
                lambda f: self._loading.pop(deal_id, None) if self._loading.get(deal_id) is f else None
            )
        return await asyncio.shield(pending)

    async def _load(self, deal_id: str) -> Folded:
        folded = self._cache.get(deal_id)
        if folded is None:
            folded = await self._fresh_fold(deal_id)
        # what the fold stood at when the read left: a command may extend it meanwhile
        base_version, base_hash = folded.version, folded.head_hash
        raws = await self.store.read_raw(deal_id, max(base_version, 1))
        if base_version:
            if not raws or record_hash(raws[0]) != base_hash:
                self._store_behind(deal_id, folded, raws)
                folded = await self._fresh_fold(deal_id)
                raws = await self.store.read_raw(deal_id, 1)
            else:
                raws = raws[1:]
        if not raws and folded.version == 0:
            raise DealNotFound(deal_id)
        self._fold_in(folded, raws)
        self._remember_fold(deal_id, folded)
        return folded

    def _fold_in(self, folded: Folded, raws: list[bytes], records: list[StoredEvent] | None = None) -> None:
        game = folded.kit.game
        for i, raw in enumerate(raws):
            record = records[i] if records is not None else decode_record(raw)
            if record.version != folded.version + 1:
                continue  # another coroutine folded it while we were reading
            event = folded.kit.decode_event(record.data)
            folded.state = game.evolve(folded.state, event)
            folded.events.append(event)
            folded.version = record.version
            folded.head_hash = record_hash(raw)

    async def _fresh_fold(self, deal_id: str) -> Folded:
        meta = await self.store.get_meta(deal_id)
        if "game" not in meta:
            self._token_digests.pop(deal_id, None)
            raise DealNotFound(deal_id)
        kit_ = kit(meta["game"])
        return Folded(
            kit_,
            json.loads(meta["seats"]),
            kit_.game.initial_state(),
            created_ms=int(meta.get("created_ms") or 0),
            spectators=meta.get("spectators") == "1",
        )

    def _store_behind(self, deal_id: str, folded: Folded, raws: list[bytes]) -> None:
        """The store lost what this process folded: say so loudly and forget the fold."""
        log.error(
            "deal %s: the event store no longer holds version %d as it was folded here (it now has %s); "
            "data was lost or Redis was restored from an older append-only file: serving what the "
            "store holds",
            deal_id,
            folded.version,
            "a different record there" if raws else "nothing at that version",
        )
        self._cache.pop(deal_id, None)
        self._token_digests.pop(deal_id, None)

    def absorb(self, deal_id: str, raws: list[bytes], records: list[StoredEvent]) -> Folded | None:
        """Fold records a stream reader has just read, if they extend the cached fold; the
        fold as it stands then (None when this process holds no fold of the deal)."""
        folded = self._cache.get(deal_id)
        if folded is None:
            return None
        if records and records[0].version <= folded.version + 1 <= records[-1].version:
            self._fold_in(folded, raws, records)
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

    async def authenticate(self, deal_id: str, token: str | None) -> int:
        """The seat this token acts for; constant-time comparison of digests."""
        if not token:
            raise RuleViolation("DS-8", "this needs a seat token (Authorization: Bearer …)")
        if not token.isascii() or not token.isprintable() or len(token) > 256:
            raise RuleViolation("DS-8", "a seat token is at most 256 printable ASCII characters")
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
            typed = None
            try:
                typed = self.decode_command(folded, seat, command)
                if expected_version is not None and expected_version != folded.version:
                    raise StaleVersion(expected_version, folded.version)
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
                    await self._check_same_command(deal_id, previous[0], typed, command_id)
                    return await self._replayed(folded, deal_id, *previous)
                raise
            try:
                result = await self.store.append(
                    deal_id, folded.version, events, command_id=command_id, command=typed
                )
            except VersionConflict as conflict:
                if conflict.actual < folded.version:  # the store is behind this fold: load sees it
                    log.error("deal %s: the store is at version %d, this fold at %d", deal_id,
                              conflict.actual, folded.version)  # fmt: skip
                if expected_version is not None:
                    raise StaleVersion(expected_version, (await self.load(deal_id)).version) from None
                fresh = True
                continue
            if result.duplicate:
                await self._check_same_command(deal_id, result.first_version, typed, command_id)
                return await self._replayed(
                    await self.load(deal_id), deal_id, result.first_version, result.last_version
                )
            if folded.version == result.first_version - 1:
                folded.state = after  # what evolving by ``events`` gives, already worked out
                folded.events.extend(events)
                folded.version = result.last_version
                folded.head_hash = result.head_hash or folded.head_hash
            else:  # a reader folded our events from the store while we awaited the append
                folded = await self.load(deal_id)
            if folded.over:
                await self.store.put_meta(
                    deal_id, {"status": "over"}, created_ms=folded.created_ms or now_ms(), public=True
                )
                self._locks.pop(deal_id, None)  # later commands only read; a fresh lock is fine
            return Outcome(result.first_version, result.last_version, events, folded=folded)
        raise RuleViolation("DS-4", "too many concurrent writers on this deal; try again")

    async def _check_same_command(
        self, deal_id: str, first_version: int, typed: Any, command_id: str
    ) -> None:
        """A repeated command id must carry the command it was first used for: a different one
        is refused, never silently dropped behind the first answer."""
        stored = await self.store.command_at(deal_id, first_version)
        if stored is None:  # a batch the service wrote without its command (deal creation)
            return
        if typed is None or msgspec.json.encode(typed) != stored:
            raise CommandIdReused(command_id)

    async def _replayed(self, folded: Folded, deal_id: str, first: int, last: int) -> Outcome:
        if folded.version < last:
            folded = await self.load(deal_id)
        return Outcome(first, last, folded.events[first - 1 : last], duplicate=True, folded=folded)

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
        """Move the deal's bot seats until a person must act or the deal ends.

        A store that cannot be reached (Redis stalled, restarting, cut off) is waited out with
        a short backoff: the runner resumes by itself once the store answers again.
        """
        backoff = 0.05
        try:
            while True:
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                try:
                    if not await self._bot_step(deal_id):
                        return
                    backoff = 0.05
                except STORE_ERRORS as exc:
                    log.warning("bot runner on deal %s waits for the event store: %s", deal_id, exc)
                    await asyncio.sleep(backoff)
                    backoff = min(BOT_RETRY_MAX_S, backoff * 2)
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except DealNotFound:
            log.error("bot runner on deal %s: the deal is gone from the store", deal_id)
        except Exception:  # a bot must never take the server down; the supervisor looks again later
            log.exception("bot runner stopped on deal %s", deal_id)
        finally:
            if self._bot_tasks.get(deal_id) is asyncio.current_task():
                del self._bot_tasks[deal_id]

    async def _bot_step(self, deal_id: str) -> bool:
        """One bot move; False when no bot seat must act."""
        folded = await self.load(deal_id)
        seats = [] if folded.over else self._bots_to_act(folded)
        if not seats:
            return False
        seat = seats[0]
        version = folded.version
        view = folded.kit.projections.view_from_state(folded.state, seat)
        seed = int.from_bytes(hashlib.sha256(f"{deal_id}:{seat}:{version}".encode()).digest()[:8], "big")
        bot = folded.kit.make_bot(folded.seats[seat][4:], seed)
        command = bot.choose(view)
        try:
            async with self._lock(deal_id):
                await self._execute_locked(deal_id, seat, command, f"bot:{seat}:{version}", None)
        except RuleViolation:
            if (await self.load(deal_id)).version == version:
                raise  # refused on the very state the bot saw: a bot bug, not a race
        # else someone moved first (a claim window closed): look again
        return True

    def kick_all_bots(self) -> int:
        """Kick every cached live deal whose bots must act and have no runner (the supervisor's
        sweep: a runner that ended on an error, or a deal no request touched since)."""
        kicked = 0
        for deal_id in list(self._cache):
            task = self._bot_tasks.get(deal_id)
            if task is None or task.done():
                self.kick_bots(deal_id)
                kicked += deal_id in self._bot_tasks
        return kicked

    async def supervise_bots(self, interval: float = 2.0) -> None:
        """Run ``kick_all_bots`` every ``interval`` seconds, for as long as the service runs."""
        while True:
            await asyncio.sleep(interval)
            try:
                self.kick_all_bots()
            except Exception:  # noqa: BLE001 - the sweep must outlive any one deal's trouble
                log.exception("bot supervisor sweep failed")

    async def close(self) -> None:
        for task in self._bot_tasks.values():
            task.cancel()
        await asyncio.gather(*self._bot_tasks.values(), return_exceptions=True)
        self.store.close()
