"""The command side: run each command through decide + one conditional append, and seat people.

Game-agnostic: everything game-specific comes through ``GameKit``. Folds live in
``service.app.state.folds`` (the process's cache of each deal's state), bot seats in
``service.app.bots.runner``. A command's answer is built here from what the command side already holds
(the version, the seat's events through the visibility gate, the state after), so no caller
reads the state again; every command id is formed by ``terms.seat_command_id`` or in the bot
runner (``bot_command_id``). Creating a deal is ``creation``'s part of ``DealService``; the
refusals, the answers and the checks both parts make are in ``terms``.

Who a token is lives in ``service.app.state.seats`` (shared with the read side). Create, rematch,
join and command share the per-deal lock, the fold cache and the command-id rules: one service
holds them, in two modules by role.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from domain.errors import RuleViolation
from domain.game import GAMES, StartDeal
from domain.table.absence import away_seat
from domain.table.clock import Back
from domain.table.names import seat_name
from domain.table.seating import (
    PERSON,
    FillSeat,
    JoinSeat,
    replaces_person,
)
from service.app import visibility
from service.app.bots.runner import BotRunner
from service.app.commands.creation import Creation
from service.app.commands.terms import (
    JOIN_KEY,
    CommandAnswer,
    CommandIdReused,
    Outcome,
    bot_kind,
    check_seen,
    check_start_clock,
    invited_token,
    is_back,
    is_program,
    seat_command_id,
    seats_taken,
)
from service.app.lru import LRUCache
from service.app.state.folds import (
    ClockWatch,
    Folded,
    Folds,
    StaleVersion,
    start_deadline_ms,
    step_clock_through,
)
from service.app.state.players import Players
from service.app.state.presence import Presence
from service.app.state.seats import SeatTokens, token_digest
from service.app.viewer import Viewer
from service.metrics import Metrics, command_outcome
from service.store.event_store import EventStore, VersionConflict, now_ms
from service.store.program_seats import ProgramSeats
from service.store.ratings import RatingStore

log = logging.getLogger("dealstream.deals")

MAX_CONFLICT_RETRIES = 50
LOOK_AGAIN_MS = 60_000  # a clocked deal no seat's wait is running on is looked at again this late


class DealService(Creation):
    def __init__(
        self,
        store: EventStore,
        *,
        dev: bool = False,
        cache_size: int = 2048,
        bots: BotRunner | None = None,
        folds: Folds | None = None,
        seats: SeatTokens | None = None,
        presence: Presence | None = None,
        players: Players | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        """The command side over ``store``. ``folds``, ``seats``, ``presence`` and ``players``
        are the parts it shares with the read side (``bootstrap`` makes them once and hands them
        to both); ``bots`` the runner that moves its bot seats (``bootstrap`` makes it with the
        service's delay and worker pool). Left out, it makes its own: a command side alone, as a
        tool or a test uses it, with bots that move at once in this process."""
        self.store = store
        self.dev = dev
        self.folds = folds if folds is not None else Folds(store, cache_size)
        self.seats = seats if seats is not None else SeatTokens(store, self.folds, cache_size)
        self.load = self.folds.load  # the deal as the store holds it now (through the fold cache)
        self.cached = self.folds.cached  # the deal as this process last folded it (no I/O)
        self.absorb = self.folds.absorb  # records a stream reader read, folded in
        # this process's stream hub, handed each batch this process appends (``StreamHub.written``)
        self.own_batches: Any = None
        # ``Boards`` (set by ``bootstrap``): a command that ends a duplicate board answers its seat
        # as the board's reads do while the round still plays elsewhere (TN-3.6)
        self.boards: Any = None
        # (match id) -> whether its deals start for an absent person (a tournament's table,
        # TN-1.4); the tournament service sets it
        self.plays_for_absent: Any = None
        # commands by game, type and outcome; the bots' decisions (default: unread)
        self.metrics = metrics if metrics is not None else Metrics()
        self.bots = bots if bots is not None else BotRunner(metrics=self.metrics)
        self.bots.attach(self)
        # who has a live stream (any process), for the views
        self.presence = presence if presence is not None else Presence(store.indexes)
        # player keys' digests and the seats listed under them ("My games")
        self.players = players if players is not None else Players(store.players)
        self.kick_bots = self.bots.kick
        # the bot program seats of live deals and matches, per address and in all (DS-32, DS-33)
        self.program_seats = ProgramSeats(store.redis, store.prefix)
        # called with a match's id when a deal of that match ends (TB-5.1: the next deal follows)
        self.on_match_deal_over: Callable[[str], Awaitable[None]] | None = None
        # the rated results' index and this process's fold of it (``service.store.ratings``)
        self.ratings = RatingStore(store.redis, store.prefix, sorted(GAMES))
        # one lock per deal serialises this process's commands on it; a held lock is never evicted
        self._locks: LRUCache[str, asyncio.Lock] = LRUCache(cache_size, keep=lambda lock: lock.locked())

    def _lock(self, deal_id: str) -> asyncio.Lock:
        return self._locks.get_or_put(deal_id, asyncio.Lock)

    # seats for people (TB-1) ----------------------------------------------------
    async def join(
        self,
        deal_id: str,
        *,
        invite: str | None,
        seat: int | None,
        name: Any,
        token: str | None = None,
        player_key: Any = None,
    ) -> dict[str, Any]:
        """A person takes an open seat: with its invite code, or at a lobby table by number.
        The seat is given once (the conditional append decides between concurrent joins); the
        answer is the seat's new token, of which only the digest is kept (in the log). With a
        ``player_key`` the seat is listed under the key's digest once it is taken (never in the
        log: ``SeatJoined`` is the same with or without one)."""
        player = await self.players.digest(player_key) if player_key is not None else None
        name = seat_name(name)
        folded = await self.load(deal_id)
        if token is not None:
            held = await self.seats.seat_or_none(deal_id, token)
            if held is not None:
                raise RuleViolation("DS-21", f"this token holds seat {held} of this deal already")
        if (invite is None) == (seat is None):
            raise RuleViolation("DS-5", "a join names either an 'invite' code or, at a lobby table, a 'seat'")
        if invite is not None:
            seat = await self.seats.invited_seat(deal_id, invite)
        elif not folded.lobby:
            raise RuleViolation("DS-19", "this table is not in the lobby: joining it needs an invite")
        assert seat is not None
        join_key = await self.store.reader.meta_field(deal_id, JOIN_KEY) if invite is not None else None
        if join_key:  # TB-1.2: the same invite and name give the same token, hence the same command
            new_token = invited_token(join_key, deal_id, seat, invite, name)  # type: ignore[arg-type]
        else:
            new_token = secrets.token_urlsafe(32)
        digest = token_digest(new_token)
        command = JoinSeat(seat, name, digest, invite is not None)
        outcome = await self.execute(deal_id, None, command, command_id=f"join:{seat}:{digest[:24]}")
        if outcome.duplicate:  # a retried join: answered again only until the seat has started
            after = outcome.folded or await self.load(deal_id)
            seating = after.state.seating
            if after.started or seating.token_digests[seat] != digest or seating.has_started(seat):
                raise RuleViolation("DS-18", f"seat {seat} is not open: it was taken already")
        if player is not None:
            created_ms = folded.created_ms or now_ms()
            await self.players.seated(player, "deal", deal_id, [seat], created_ms)
            match = getattr(folded.events[0], "match", None) if folded.events else None
            if match is not None:  # the seat stays the person's for the whole match (TB-5.2)
                await self.players.seated(player, "match", match.match_id, [seat], created_ms)
        return {
            "deal_id": deal_id,
            "seat": seat,
            "token": new_token,
            "name": name,
            "version": outcome.last_version,
        }

    async def fill_with_bot(self, deal_id: str, by_seat: int, seat: int, level: Any) -> dict[str, Any]:
        """TB-1.4: the creator (a seat whose token came with the deal) puts a bot in an open seat,
        or (table/2) in a joined seat whose person never started, once the start clock's
        ``move_s`` has run. The same request again answers as the first did (a retry); another
        level is refused."""
        folded = await self.load(deal_id)
        seating = folded.state.seating
        if seating.kinds[by_seat] != PERSON or seating.token_digests[by_seat]:
            raise RuleViolation("DS-20", "only the deal's creator may fill an open seat with a bot")
        if not isinstance(level, str):
            raise RuleViolation("DS-5", "'level' is a bot level, as text")
        kind = bot_kind(level if level.startswith("bot:") else f"bot:{level}", folded.kit)
        outcome = await self.execute(
            deal_id, by_seat, FillSeat(seat, kind), command_id=seat_command_id(by_seat, f"fill:{seat}:{kind}")
        )
        return {"deal_id": deal_id, "seat": seat, "kind": kind, "version": outcome.last_version}

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
        kick: bool = True,
        person: bool = False,
        seen_version: int | None = None,
    ) -> Outcome:
        """Decide and append one command; a repeated ``command_id`` returns its first outcome.

        A version conflict with another writer re-folds and decides again (the rules, not the
        arrival order, settle claims), unless the client pinned ``expected_version``.
        ``person``: the command came from a seat's person, whose clock it must beat (TB-2.4);
        ``seen_version``: the version that person decided on (TB-2.8).
        """
        started, counted = time.perf_counter(), "error"
        try:
            async with self._lock(deal_id):
                outcome = await self._execute_locked(
                    deal_id, seat, command, command_id, expected_version, person, seen_version
                )
            counted = "duplicate" if outcome.duplicate else "accepted"
        except BaseException as exc:
            counted = command_outcome(exc)
            raise
        finally:
            folded_now = self.folds.cached(deal_id)
            kit_ = folded_now.kit if folded_now is not None else None
            self.metrics.command(kit_, command, counted, time.perf_counter() - started)
        if kick:
            self.bots.kick(deal_id)
        folded = outcome.folded
        if folded is not None and folded.over and self.on_match_deal_over is not None and folded.events:
            match = getattr(folded.events[0], "match", None)
            if match is not None:  # TB-5.1: the match's next deal (the sweep retries a failure)
                try:
                    await self.on_match_deal_over(match.match_id)
                except Exception:  # noqa: BLE001 - the deal's own answer stands
                    log.exception("match %s: going on after deal %s failed", match.match_id, deal_id)
        return outcome

    async def command(
        self,
        deal_id: str,
        seat: int,
        command_id: str,
        command: Any,
        *,
        expected_version: int | None = None,
        return_view: bool = False,
        seen_version: int | None = None,
    ) -> CommandAnswer:
        """A seat's command (``seat`` as ``SeatTokens.authenticate`` found it from the token) and the answer
        the seat gets: its events as it may see them, and its view when it asks. ``seen_version``:
        the version the command was decided on (TB-2.8)."""
        folded = self.folds.cached(deal_id) or await self.load(deal_id)
        seating = folded.state.seating
        if seating.away and seating.away[seat] and not is_back(command):
            if seen_version is not None:  # a stale command brings nobody back
                check_seen(await self.load(deal_id), seat, seen_version)
            # TB-2.6: the person's first command ends the absence, then it is decided
            back = await self.execute(
                deal_id, seat, Back(seat), command_id=seat_command_id(seat, f"back:{command_id}"), person=True
            )
            if seen_version is not None:  # being back asks the seat anew: not a move of the table's
                seen_version = max(seen_version, back.last_version)
        outcome = await self.execute(
            deal_id,
            seat,
            command,
            command_id=seat_command_id(seat, command_id),
            expected_version=expected_version,
            person=True,
            seen_version=seen_version,
        )
        viewer = Viewer.of_seat(seat)
        folded = outcome.folded
        if folded is not None and self.boards is not None and folded.over:
            if visibility.sealed(folded.over, await self.boards.round_over(folded)):
                sealed = visibility.sealed_fold(folded)
                versions = range(outcome.first_version, outcome.first_version + len(outcome.events))
                pairs = list(zip(versions, outcome.events, strict=True))
                shown = visibility.sealed_command_events(sealed, pairs, viewer)
                connected = await self.presence.seats(deal_id)
                return CommandAnswer(
                    version=outcome.last_version,
                    first_version=outcome.first_version,
                    duplicate=outcome.duplicate,
                    events=shown,
                    view=visibility.sealed_view(sealed, viewer, connected) if return_view else None,
                )
        return CommandAnswer(
            version=outcome.last_version,
            first_version=outcome.first_version,
            duplicate=outcome.duplicate,
            events=visibility.command_events(folded, outcome.events, viewer),
            view=await self._answer_view(deal_id, outcome, viewer) if return_view else None,
        )

    async def _answer_view(self, deal_id: str, outcome: Outcome, viewer: Viewer) -> Any:
        """The seat's view after its command. When this process's stream hub delivered the batch
        (the seat's stream may be open here), the view is the one its stream part shows, made
        once for both; else it is made from the fold."""
        folded, batch = outcome.folded, outcome.batch
        assert folded is not None
        state = batch.memo.get("state") if batch is not None else None
        if state is None:
            return visibility.view(folded, viewer, await self.presence.seats(deal_id))
        connected = batch.memo.get("connected")
        if connected is None:
            connected = batch.memo["connected"] = await self.presence.seats(deal_id)
        return batch.view(viewer, lambda: visibility.view_of_state(folded, state, viewer, connected))

    async def _execute_locked(
        self,
        deal_id: str,
        seat: int | None,
        command: Any,
        command_id: str,
        expected_version: int | None,
        person: bool = False,
        seen_version: int | None = None,
    ) -> Outcome:
        # Optimistic: decide on the cached fold without reading the log first; the append
        # script's version check catches a stale cache, and then we fold the log and retry.
        fresh = False
        for _attempt in range(MAX_CONFLICT_RETRIES):
            folded = None if fresh else self.folds.cached(deal_id)
            if folded is None:
                folded = await self.load(deal_id)
                fresh = True
            typed = None
            clock = folded.clock
            # a clocked batch is recorded at the time its deadline was judged at, never before
            # the log's latest record (TB-2.3: deadlines follow from the recorded times)
            at_ns = max(time.time_ns(), clock.last_ms * 1_000_000) if clock is not None else None
            try:
                typed = self.decode_command(folded, seat, command)
                if expected_version is not None and expected_version != folded.version:
                    raise StaleVersion(expected_version, folded.version)
                if person and seat is not None and type(typed) is not Back:  # "I'm back" answers nothing
                    check_seen(folded, seat, seen_version)
                if type(typed) is FillSeat and not folded.started:
                    if replaces_person(folded.state.seating, typed.seat):
                        decided_ms = (at_ns if at_ns is not None else time.time_ns()) // 1_000_000
                        check_start_clock(folded, typed.seat, decided_ms)
                if folded.over:
                    raise RuleViolation("DS-6", "the deal is over")
                if person and clock is not None and seat is not None and at_ns is not None:
                    due = clock.deadline(seat)
                    if due is not None and at_ns // 1_000_000 > due.final_ms:
                        late = at_ns // 1_000_000 - due.final_ms
                        raise RuleViolation(
                            "DS-17", f"too late: seat {seat}'s time ran out {late} ms ago (TB-2.4)"
                        )
                # a clocked deal's clock reads each state on the way through the batch
                watched = ClockWatch(folded) if clock is not None else None
                events, after = folded.kit.game.execute(folded.state, typed, watched)
                if not events:
                    raise RuleViolation("DS-5", "the command changed nothing")
            except (RuleViolation, StaleVersion) as refused:
                # a fold already past the version the client decided on: the log is too, so
                # the refusal stands without a read
                past = isinstance(refused, StaleVersion) and folded.version > refused.expected
                if not fresh and not past:  # judge a refusal on the log as it is, not on a cached fold
                    fresh = True
                    continue
                # a retry of an accepted command may be refused by the state it made: answer it
                # with its first result (a legal retry is caught by the append script instead)
                previous = await self.store.reader.command_result(deal_id, command_id)
                if previous is not None:
                    await self._check_same_command(deal_id, previous[0], typed, command_id)
                    return await self._replayed(folded, deal_id, *previous)
                raise
            hub = self.own_batches  # this process's stream hub: our batch goes to it directly
            if hub is not None:
                hub.writing(deal_id)
            handed: tuple[Any, ...] = ()
            delivered = None
            try:
                try:
                    result = await self.store.append(
                        deal_id, folded.version, events, command_id=command_id, command=typed,
                        recorded_ns=at_ns, head_hash=folded.head_hash,
                    )  # fmt: skip
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
                    if watched is not None and at_ns is not None:
                        step_clock_through(folded, events, at_ns // 1_000_000, watched)
                        away = away_seat(command_id)
                        if away is not None and folded.clock is not None:  # TB-2.8: moved for the seat
                            folded.clock.acted_for(away, result.last_version)  # as a fold marks it
                    folded.state = after  # what evolving by ``events`` gives, already worked out
                    folded.state_shared = False  # a new state, nobody else holds it yet
                    folded.events.extend(events)
                    folded.version = result.last_version
                    folded.head_hash = result.head_hash or folded.head_hash
                    handed = (result.raws, result.records, events, folded)
                else:  # a reader folded our events from the store while we awaited the append
                    folded = await self.load(deal_id)
            finally:
                if hub is not None:
                    delivered = hub.written(deal_id, *handed)
            if folded.over:
                # the status also lists the deal in the finished index (``mark_finished``, now):
                # the archiver moves it out of Redis once it is older than its age
                await self.store.indexes.put_meta(
                    deal_id, {"status": "over"}, created_ms=folded.created_ms or now_ms(), public=True
                )
                await self.programs_over(deal_id, folded)
                await self.record_rated(deal_id, folded)
            if folded.lobby and not folded.state.seating.open_seats and seats_taken(events):
                await self.store.indexes.close_table(deal_id)  # its last seat went: out of the lobby
            if folded.clock is not None or folded.over:  # an ended deal leaves the keepers' index
                await self.schedule(deal_id, folded)
            return Outcome(result.first_version, result.last_version, events, folded=folded, batch=delivered)
        raise RuleViolation("DS-4", "too many concurrent writers on this deal; try again")

    async def record_rated(self, deal_id: str, folded: Folded) -> None:
        """A rated deal's result into the ratings' index once it is over (adding it twice adds
        nothing). Its time is the ``recorded_at`` of the log's last record, as the rebuild reads."""
        if not folded.events or not getattr(folded.events[0], "rated", None):
            return
        from domain.envelope import decode_record
        from projections.ratings import deal_result
        from service.app.ratings import abandoned

        records = await self.store.read_raw(deal_id)
        if not records:
            return
        at = decode_record(records[-1]).recorded_at
        payments = folded.kit.deal_summary(folded.state).payments
        ended = abandoned(folded.events)
        result = deal_result(folded.kit.name, folded.events[0], payments, at, ended, folded.events)
        if result is not None:
            await self.ratings.record(result)

    async def programs_over(self, deal_id: str, folded: Folded) -> None:
        """A deal with bot program seats ended: its program processes here end with it, and its
        seats are given back (a match's, once the match ends)."""
        if not any(is_program(kind) for kind in folded.seats):
            return
        await self.bots.programs.end_deal(deal_id)
        if getattr(folded.events[0], "match", None) is None:
            await self.program_seats.release(deal_id)

    async def schedule(self, deal_id: str, folded: Folded) -> None:
        """The clock keepers look at the deal at its next deadline (or a minute on, when no wait
        runs); a finished deal leaves their index."""
        if folded.over or folded.clock is None:
            await self.store.indexes.unschedule_clock(deal_id)
            return
        nxt = folded.clock.next_deadline_ms()
        if nxt is None:  # not dealt yet: when it is due to be abandoned (TB-2.7, table/2)
            nxt = start_deadline_ms(folded)
        await self.store.indexes.schedule_clock(deal_id, nxt if nxt is not None else now_ms() + LOOK_AGAIN_MS)

    async def _check_same_command(
        self, deal_id: str, first_version: int, typed: Any, command_id: str
    ) -> None:
        """A repeated command id must carry the command it was first used for: a different one
        is refused, never silently dropped behind the first answer."""
        stored = await self.store.reader.command_at(deal_id, first_version)
        if stored is None:  # a batch the service wrote without its command (deal creation)
            return
        if typed is None or msgspec.json.encode(typed) != stored:
            raise CommandIdReused(command_id)

    async def _replayed(self, folded: Folded, deal_id: str, first: int, last: int) -> Outcome:
        if folded.version < last:
            folded = await self.load(deal_id)
        return Outcome(first, last, folded.events[first - 1 : last], duplicate=True, folded=folded)

    async def close(self) -> None:
        await self.bots.close()
        await self.presence.close()
        self.store.close()
