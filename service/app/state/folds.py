"""Folded deals: each deal's state at the log's version, cached per process, checked against the store.

The service keeps no state that Redis does not have, only this cache of folds keyed by deal (and
the version each is at), so any number of processes can serve the same deals. A read starts at
the version the fold is at and checks that the store still holds that very record: if it does
not (data lost, Redis restored from an older append-only file), the store's truth wins.

A finished deal the archiver moved out of Redis loads the same way: the store's reads of a deal
Redis no longer holds answer from the archive (``EventStore``, ``service.store.archive``), meta
and records alike, so a fold made while the deal was live finds its record in the archived log
and goes on from there; only a deal that neither Redis nor the archive holds as it was folded
counts as lost.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.envelope import GENESIS, StoredEvent, decode_record, record_hash
from domain.errors import RuleViolation
from domain.game import DealCreated
from domain.table.absence import away_seat
from domain.table.clock import ClockExpired, ClockTrack, SeatBack, recorded_ms
from domain.table.seating import PERSON, start_limit_ms
from service.app.games import GameKit, kit
from service.app.lru import LRUCache
from service.store.event_store import EventStore

log = logging.getLogger("dealstream.deals")


class StaleVersion(Exception):
    """The client's ``expected_version`` is not the log's version (HTTP 409): the
    command was decided on another state than the log's."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"expected version {expected}, the deal is at {actual}")
        self.expected = expected
        self.actual = actual


class DealNotFound(Exception):
    def __init__(self, deal_id: str) -> None:
        super().__init__(f"no deal {deal_id!r}")
        self.deal_id = deal_id


class LogDoesNotReplay(RuleViolation):
    """The stored log does not fold (DS-24): a record that does not decode, or an event that does
    not apply to the state before it. Only a log that never came from this service's commands
    can be so (one written to the store by hand); every read but the audit answers this."""

    def __init__(self, deal_id: str, version: int, detail: str) -> None:
        super().__init__(
            "DS-24",
            f"the stored log of deal {deal_id} does not replay at version {version} ({detail});"
            f" its audit (GET /deals/{deal_id}/audit) tells more",
        )
        self.deal_id = deal_id
        self.version = version
        self.detail = detail

    def __reduce__(self):  # picklable like any RuleViolation
        return (LogDoesNotReplay, (self.deal_id, self.version, self.detail))


@dataclass
class Folded:
    """A deal's state after ``version`` events, and those events (typed)."""

    kit: GameKit
    state: Any
    version: int = 0
    events: list[Any] = field(default_factory=list)
    head_hash: str = GENESIS  # of the stored record at ``version``: tells whether the store still has it
    created_ms: int = 0
    spectators: bool = False  # a live deal open to anyone's spectator stream and listed publicly
    pace: str = "normal"  # how long its bots think (slow, normal, fast)
    rematch_of: str | None = None  # the deal this one plays again
    coach: bool = False  # the deal allows the coach (its seats may ask for advice)
    lobby: bool = False  # listed in the lobby while a seat is open: anyone may take one (TB-1.2)
    clock: ClockTrack | None = None  # each person's wait and bank (TB-2), folded with the records
    # ``state`` was handed out (to a stream's batch): the next fold evolves a copy, not it
    state_shared: bool = field(default=False, repr=False)
    # states worked out at earlier versions (never changed again): where a stream that lags
    # behind the fold folds forward from (``Folds.state_at``), the newest few kept
    past: dict[int, Any] = field(default_factory=dict, repr=False)

    @property
    def over(self) -> bool:
        return self.kit.game.is_over(self.state)

    @property
    def started(self) -> bool:
        """Dealt (both games call the phase before the deal ``new``)."""
        return self.state.phase != "new"

    @property
    def seats(self) -> list[str]:
        """Each seat's kind now: ``human``, ``bot:<level>`` or ``open`` (TB-1.1), from the log."""
        return list(self.state.seating.kinds)

    @property
    def has_bots(self) -> bool:
        """Bots play some seat: a bot's seat, or a person's seat while it is away (TB-2.6)."""
        seating = self.state.seating
        return any(kind.startswith("bot:") for kind in seating.kinds) or any(seating.away)


FINISHED_CACHE_SIZE = 256


class Folds:
    """The fold cache of one process, with loads that share one read per deal.

    Live deals and finished ones are kept apart: ``cache_size`` live folds (every table being
    played here stays folded), and only the ``finished_size`` most recently used finished ones
    (a result sheet, a replay, Play again: read a few times, then rarely). Every fold is a deal's
    whole event list and state, tens of thousands of objects per hundred deals that the garbage
    collector walks on each full collection; with finished deals filling the same cache as the
    live ones, a process serving a thousand tables held twice the folds, and its full
    collections paused the event loop for a few hundred milliseconds (``bench.capacity``). A
    finished deal that left the cache folds again from the store on its next read."""

    def __init__(
        self, store: EventStore, cache_size: int = 2048, finished_size: int = FINISHED_CACHE_SIZE
    ) -> None:
        self.store = store
        self._cache: LRUCache[str, Folded] = LRUCache(cache_size)
        self._finished: LRUCache[str, Folded] = LRUCache(finished_size)
        self._loading: dict[str, asyncio.Future[Folded]] = {}
        self.on_forget: list[Any] = []  # called with a deal id whose fold the store contradicted

    def cached(self, deal_id: str) -> Folded | None:
        """The folded deal as this process last saw it (no I/O; may lag other processes)."""
        folded = self._cache.peek(deal_id)
        return folded if folded is not None else self._finished.peek(deal_id)

    def remember(self, deal_id: str, folded: Folded) -> None:
        if folded.over:
            self._cache.pop(deal_id)
            self._finished.put(deal_id, folded)
        else:
            self._cache.put(deal_id, folded)

    @staticmethod
    def share_state(folded: Folded) -> Any:
        """``folded.state``, to keep: the fold evolves a copy of it from now on."""
        folded.state_shared = True
        return folded.state

    @staticmethod
    def state_at(folded: Folded, version: int) -> Any:
        """The deal's state after ``version`` events (at most the fold's), never changed again
        by anyone: the fold's own state when it is there, else the nearest state kept at or
        before ``version`` (``Folded.past``) folded forward (from the first event only when
        none is kept)."""
        if version == folded.version:
            return Folds.share_state(folded)
        game = folded.kit.game
        base = max((v for v in folded.past if v <= version), default=None)
        if base == version:
            return folded.past[version]
        if base is None:
            state = game.fold(folded.events[:version])
        else:
            state = game.copy_state(folded.past[base])
            for event in folded.events[base:version]:
                state = game.evolve(state, event)
        keep_past(folded, version, state)
        return state

    def deal_ids(self) -> list[str]:
        return list(self._cache) + list(self._finished)

    async def load(self, deal_id: str) -> Folded:
        """The folded deal at the log's current version (cache plus whatever came since).

        Concurrent loads of one deal share one read (a burst of views or stream openings costs
        one round trip, not one connection each). The read starts at the cached version itself:
        if the store no longer holds that record as we folded it (data lost, or Redis restored
        from an older append-only file), the store's truth wins: the cache is dropped, loudly,
        and the log is folded again. The archive is asked first: a deal archived since it was
        folded is read on from the archived log (the store's read falls back to it), not lost.
        """
        while True:
            pending = self._loading.get(deal_id)
            if pending is None or pending.done():
                return await self._lead(deal_id)
            # another caller's read is under way: share it; its caller's cancellation is not ours
            await asyncio.wait([pending])
            if not pending.cancelled():
                return pending.result()

    async def _lead(self, deal_id: str) -> Folded:
        """The load in the caller's own task (no task of its own, no hop through the event loop
        when nobody shares it), published for callers that come meanwhile (``load``)."""
        shared: asyncio.Future[Folded] = asyncio.get_running_loop().create_future()
        self._loading[deal_id] = shared
        try:
            folded = await self._load(deal_id)
        except asyncio.CancelledError:
            shared.cancel()  # those who wait read again themselves
            raise
        except BaseException as exc:
            shared.set_exception(exc)
            shared.exception()  # nobody may be waiting: no "never retrieved" warning
            raise
        else:
            shared.set_result(folded)
            return folded
        finally:
            if self._loading.get(deal_id) is shared:
                del self._loading[deal_id]

    async def _load(self, deal_id: str) -> Folded:
        folded = self._cache.get(deal_id) or self._finished.get(deal_id)
        if folded is None:
            folded = await self._fresh(deal_id)
        # what the fold stood at when the read left: a command may extend it meanwhile
        base_version, base_hash = folded.version, folded.head_hash
        raws = await self.store.read_raw(deal_id, max(base_version, 1))
        if base_version:
            if not raws or record_hash(raws[0]) != base_hash:
                self._store_behind(deal_id, folded, raws)
                folded = await self._fresh(deal_id)
                raws = await self.store.read_raw(deal_id, 1)
            else:
                raws = raws[1:]
        if not raws and folded.version == 0:
            raise DealNotFound(deal_id)
        try:
            fold_in(folded, raws)
        except LogDoesNotReplay as exc:
            self._forget(deal_id)  # folded part way: no fold of it stays
            raise LogDoesNotReplay(deal_id, exc.version, exc.detail) from None
        self.remember(deal_id, folded)
        return folded

    async def _fresh(self, deal_id: str) -> Folded:
        meta = await self.store.reader.get_meta(deal_id)
        if "game" not in meta:
            self._forget(deal_id)
            raise DealNotFound(deal_id)
        kit_ = kit(meta["game"])
        return Folded(
            kit_,
            kit_.game.initial_state(),
            created_ms=int(meta.get("created_ms") or 0),
            spectators=meta.get("spectators") == "1",
            pace=meta.get("pace", "normal"),
            rematch_of=meta.get("rematch_of"),
            coach=meta.get("coach") == "1",
            lobby=meta.get("lobby") == "1",
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
        self._forget(deal_id)

    def _forget(self, deal_id: str) -> None:
        self._cache.pop(deal_id)
        self._finished.pop(deal_id)
        for callback in self.on_forget:
            callback(deal_id)

    def absorb(self, deal_id: str, raws: list[bytes], records: list[StoredEvent]) -> Folded | None:
        """Fold records a stream reader has just read, if they extend the cached fold; the
        fold as it stands then (None when this process holds no fold of the deal)."""
        folded = self.cached(deal_id)
        if folded is None:
            return None
        if records and records[0].version <= folded.version + 1 <= records[-1].version:
            try:
                fold_in(folded, raws, records)
            except LogDoesNotReplay:
                self._forget(deal_id)
                return None
            if folded.over:
                self.remember(deal_id, folded)
        return folded


PAST_STATES = 2  # states kept per fold for lagging streams (each a deal's whole table)


def keep_past(folded: Folded, version: int, state: Any) -> None:
    past = folded.past
    past.pop(version, None)
    past[version] = state
    while len(past) > PAST_STATES:
        del past[next(iter(past))]


def fold_in(folded: Folded, raws: list[bytes], records: list[StoredEvent] | None = None) -> None:
    """Evolve ``folded`` by the records that follow its version (others are skipped).

    A record that does not fold raises ``LogDoesNotReplay`` naming its version (the deal id is
    the caller's to add); ``folded`` is then part way and the caller drops it."""
    game = folded.kit.game
    for i, raw in enumerate(raws):
        try:
            record = records[i] if records is not None else decode_record(raw)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise LogDoesNotReplay("?", folded.version + 1, f"the record does not decode ({exc})") from None
        if record.version != folded.version + 1:
            continue  # another coroutine folded it while we were reading
        try:
            event = folded.kit.decode_event(record.data)
            if folded.state_shared:  # a stream holds this state: evolve a copy
                folded.state = game.copy_state(folded.state)
                folded.state_shared = False
            folded.state = game.evolve(folded.state, event)
            folded.events.append(event)
            folded.version = record.version
            folded.head_hash = record_hash(raw)
            if folded.clock is not None or record.version == 1:
                step_clock(folded, folded.state, event, recorded_ms(record.recorded_at))
                away = away_seat(record.command_id) if folded.clock is not None else None
                if away is not None:  # TB-2.8: the table moved for an away seat
                    folded.clock.acted_for(away, record.version)  # type: ignore[union-attr]
        except Exception as exc:  # noqa: BLE001 - a forged log may break any step of the fold
            raise LogDoesNotReplay("?", record.version, replay_failure(record, exc)) from None


def replay_failure(record: StoredEvent, exc: BaseException) -> str:
    """Why a record does not fold, in words that name no card (the error's own text may name one
    of a hidden hand, so it stays in the server's log)."""
    kind = record.type[:40]
    if isinstance(exc, msgspec.DecodeError | msgspec.ValidationError):
        return f"its {kind} event does not read"
    if isinstance(exc, ValueError) and "isoformat" in str(exc):
        return "its recorded_at is no time"
    log.warning("record %d (%s) does not fold: %r", record.version, kind, exc)
    return f"its {kind} event does not apply to the deal before it"


def asked_people(folded: Folded, state: Any) -> dict[int, str]:
    """The person seats ``state`` waits on, each with its wait (TB-2.2): a move when it is the
    seat's turn (anyone may know), else a claim; bots and away seats have no clock."""
    if state.phase == "new" or folded.kit.game.is_over(state):
        return {}
    seating = state.seating
    turn = set(folded.kit.projections.public_turn(state))
    return {
        seat: "move" if seat in turn else "claim"
        for seat in folded.kit.game.seats_to_act(state)
        if seating.kinds[seat] == PERSON and not seating.away[seat]
    }


def start_deadline_ms(folded: Folded) -> int | None:
    """TB-2.7 (table/2): when a clocked deal not dealt yet is abandoned: its start limit after
    the record that took its last open seat; None when that does not apply (yet)."""
    clock = folded.clock
    if clock is None or clock.seated_ms is None or folded.started or not folded.events:
        return None
    limit = start_limit_ms(folded.events[0])
    return None if limit is None else clock.seated_ms + limit


# what the clock reads of the state after an event: the people it waits on, each with its wait
# (``asked_people``), and whether every seat is taken
ClockFacts = tuple[dict[int, str], bool]


def clock_facts(folded: Folded, state: Any) -> ClockFacts:
    return asked_people(folded, state), not state.seating.open_seats


def step_clock(
    folded: Folded,
    state: Any,
    event: Any,
    at_ms: int,
    version: int | None = None,
    facts: ClockFacts | None = None,
) -> None:
    """The clock after ``event`` (recorded at ``at_ms`` as ``version``, by default the fold's),
    with ``state`` the state after it (or ``facts``, what the clock reads of it, read earlier)."""
    if type(event) is DealCreated and event.clock is not None:
        folded.clock = ClockTrack(event.clock, len(event.seats))
    clock = folded.clock
    if clock is not None:
        asked, seated = facts if facts is not None else clock_facts(folded, state)
        expired = event.seat if type(event) is ClockExpired else None
        if type(event) is SeatBack:  # back from away: the next expiry is a first one again
            clock.last_expired[event.seat] = False
        if clock.seated_ms is None and seated:
            clock.seated_ms = at_ms  # the last open seat was taken here (TB-1.4, TB-2.7)
        at_version = folded.version if version is None else version
        clock.step(at_ms, asked, expired, at_version)


class ClockWatch:
    """What the clock reads of each state on the way through a command's execution (the
    ``watch`` the game's ``execute`` takes): the clock steps through the batch once it is
    appended without evolving any of it again."""

    __slots__ = ("folded", "facts")

    def __init__(self, folded: Folded) -> None:
        self.folded = folded
        self.facts: list[ClockFacts] = []

    def __call__(self, event: Any, state: Any) -> None:
        self.facts.append(clock_facts(self.folded, state))


def step_clock_through(folded: Folded, events: list[Any], at_ms: int, watched: ClockWatch) -> None:
    """The clock through a batch just appended (after ``folded.version``), from what ``watched``
    read of each state as the command's execution made it."""
    if len(watched.facts) != len(events):  # an execution that did not show every event: a bug
        raise AssertionError(f"the execution showed {len(watched.facts)} of its {len(events)} events")
    for i, (event, facts) in enumerate(zip(events, watched.facts, strict=True), start=1):
        step_clock(folded, None, event, at_ms, folded.version + i, facts)
