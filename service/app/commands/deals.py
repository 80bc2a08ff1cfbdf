"""The command side: create deals, and run each command through decide + one conditional append.

Game-agnostic: everything game-specific comes through ``GameKit``. Folds live in
``service.app.state.folds`` (the process's cache of each deal's state), bot seats in
``service.app.bots.runner``. A command's answer is built here from what the command side already holds
(the version, the seat's events through the visibility gate, the state after), so no caller
reads the state again; every command id is formed here (``seat_command_id``) or in the bot runner
(``bot_command_id``).

Who a token is lives in ``service.app.state.seats`` (shared with the read side). Why one file of over
350 lines: create, rematch, join and command share the per-deal lock, the fold cache and the
command-id rules, and an answer is built from what that same call holds; split apart, each half
would need the other's internals.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.envelope import GENESIS
from domain.errors import RuleViolation
from domain.game import GAMES, MatchPlace, StartDeal
from domain.table.absence import away_seat
from domain.table.clock import Back, idle_limit_ms, parse_clock
from domain.table.names import seat_name
from domain.table.seating import (
    OPEN,
    PERSON,
    TABLE_RULES,
    FillSeat,
    JoinSeat,
    SeatFilled,
    SeatJoined,
    replaces_person,
)
from service.app.bots import programs
from service.app.bots.runner import PACE_FACTORS, BotRunner
from service.app.games import GameKit, kit
from service.app.lru import LRUCache
from service.app.reads import gate
from service.app.state.folds import (
    DealNotFound,
    Folded,
    Folds,
    start_deadline_ms,
    step_clock,
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
REMATCH_WAIT_S = 5.0  # a "Play again" another request is creating is finished here after this long
JOIN_KEY = "join_key"  # the meta field an invited seat's token is derived from (TB-1.2)
PACES = tuple(PACE_FACTORS)  # a deal's pace: its bots think these many times the server's --bot-delay
__all__ = ["DealService", "DealNotFound", "Folded", "CommandIdReused", "StaleVersion"]
__all__ += ["AlreadyRematched"]


def seat_command_id(seat: int, command_id: str) -> str:
    """The stored id of a seat's command: each seat has its own namespace of client ids."""
    return f"seat{seat}:{command_id}"


class CommandIdReused(Exception):
    """A command id already names another command of this seat (HTTP 409, DS-13)."""

    def __init__(self, command_id: str) -> None:
        super().__init__("this command id was already used for another command; send a new command_id")
        self.command_id = command_id


class AlreadyRematched(Exception):
    """This deal was played again already (HTTP 409, DS-15)."""

    def __init__(self, deal_id: str, rematched_by: str | None) -> None:
        super().__init__(f"deal {deal_id} was played again already, as {rematched_by}")
        self.rematched_by = rematched_by


class StaleVersion(Exception):
    """The client's ``expected_version`` is not the log's version (HTTP 409)."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"expected version {expected}, the deal is at {actual}")
        self.expected = expected
        self.actual = actual


@dataclass(frozen=True)
class Carried:
    """The seats of a deal that follows another with the same people: each seat's kind at
    creation (a joined person's seat open, taken again at once), the creator's token digests by
    seat, each joined person's (name, token digest, invited) by seat, the creator's name."""

    seats: list[str]
    creator: dict[int, str]
    joined: dict[int, tuple[str, str, bool]]
    name: str | None


@dataclass(frozen=True)
class NewDeal:
    """What a new deal is made from (``DealService._create``): the game and its seats, and the
    choices of ``DealService.create``. A deal made for another: ``rematch_of`` (the deal it plays
    again), ``match`` (its place in a match, TB-5.1), ``creator_digests`` and ``joined`` (seat ->
    name, token digest, invited), which carry the people of the deal before over with their
    tokens (TB-5.2): the creator's seats by their digests, each joined seat open at creation,
    without an invite, and taken again by its person's digest at once. ``player``: the digest of
    the creator's player key, whose list gets the deal's person seats."""

    game: str
    seats: Any
    client_seed: str | None = None
    deck: list[int] | None = None
    dealer: int | None = None
    spectators: bool | None = None
    pace: str = "normal"
    rematch_of: str | None = None
    deal_id: str | None = None
    coach: bool | None = None
    lobby: bool = False
    name: str | None = None
    clock: Any = None
    idle_s: int | None = None
    player: str | None = None
    match: MatchPlace | None = None
    creator_digests: dict[int, str] | None = None
    joined: dict[int, tuple[str, str, bool]] | None = None
    rated_by: str | None = None


class CreatedDeal(msgspec.Struct):
    """The answer to a creation: the deal, its seats and choices, its version, and what only
    its creator is given (each person seat's token, each open seat's invite and join link; empty
    when the deal was created already or its people were carried over)."""

    deal_id: str
    game: str
    ruleset: str
    seats: list[str]
    commitment: str
    tokens: dict[str, str]
    invites: dict[str, str]
    join_links: dict[str, str]
    lobby: bool
    clock: Any
    version: int
    spectators: bool
    pace: str
    rematch_of: str | None
    coach: bool

    def as_dict(self) -> dict[str, Any]:
        """The answer as the HTTP layer and the command line show it (its fields, in order)."""
        return msgspec.structs.asdict(self)


@dataclass(frozen=True)
class Outcome:
    """What one command did: versions first..last, the events, whether it was a retry, and the
    deal as it stands after it (what the answer needs, so no caller reads the state again)."""

    first_version: int
    last_version: int
    events: list[Any]
    duplicate: bool = False
    folded: Folded | None = None
    batch: Any = None  # the batch as this process's stream hub delivered it (None: it did not)


@dataclass(frozen=True)
class CommandAnswer:
    """What a seat is answered after its command: the versions, its events as it may see them,
    and its view afterwards when it asked for one."""

    version: int
    first_version: int
    duplicate: bool
    events: list[dict[str, Any]]
    view: Any = None


def _is_back(command: Any) -> bool:
    return isinstance(command, Back) or (isinstance(command, dict) and command.get("type") == "Back")


def is_program(kind: str) -> bool:
    """Whether a seat kind is a bot program the operator registered (``bot:NAME``)."""
    return kind.startswith("bot:") and programs.program(kind[4:]) is not None


def _seats_taken(events: list[Any]) -> bool:
    """Whether a batch took an open seat (the lobby's open tables change only then, or at the end)."""
    return any(type(event) is SeatJoined or type(event) is SeatFilled for event in events)


def parse_seats(seats: Any, kit_: GameKit) -> list[str]:
    if not isinstance(seats, list) or len(seats) != kit_.game.seat_count:
        raise RuleViolation("DS-5", f"{kit_.name} needs a list of {kit_.game.seat_count} seats")
    parsed = []
    for seat in seats:
        if seat in (PERSON, OPEN):
            parsed.append(seat)
            continue
        parsed.append(bot_kind(seat, kit_))
    return parsed


def bot_kind(seat: Any, kit_: GameKit) -> str:
    """``bot:<level>`` for one of the game's bot levels, else DS-5."""
    if isinstance(seat, str) and seat.startswith("bot:") and seat[4:] in kit_.bot_levels:
        return seat
    levels = ", ".join(f"bot:{lvl}" for lvl in kit_.bot_levels)
    raise RuleViolation("DS-5", f"a seat is 'human', 'open' or one of {levels}; got {seat!r}")


def rated_seats(seat_kinds: list[str], account: str) -> list[str]:
    """The rated player of each seat of a rated deal: ``account`` in its one person seat, the
    house bot's kind in each other (DS-41 for any other table: an open seat, a bot program,
    a second person seat, a player twice)."""
    from projections.ratings import RATED_BOTS

    players = [account if kind == PERSON else kind for kind in seat_kinds]
    if seat_kinds.count(PERSON) != 1 or any(k != PERSON and k not in RATED_BOTS for k in seat_kinds):
        raise RuleViolation(
            "DS-41", "a rated deal seats the signed-in account once and house bots (bot:random, "
            "bot:greedy, bot:strong) in every other seat",
        )  # fmt: skip
    if len(set(players)) != len(players):
        raise RuleViolation("DS-41", "a rated deal seats each player once: its bots are of different levels")
    return players


def invited_token(join_key: str, deal_id: str, seat: int, invite: str, name: str) -> str:
    """An invited seat's token, the same for the same invite and name: a join whose answer was
    lost is answered again with it (TB-1.2). Only its digest is kept, in the log, as for any
    token; without the deal's secret key nobody can work it out from the invite and the name."""
    message = json.dumps([deal_id, seat, invite, name]).encode()
    mac = hmac.new(bytes.fromhex(join_key), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


def check_seen(folded: Folded, seat: int, seen_version: int | None) -> None:
    """TB-2.8: a person's command answers the situation its sender saw (``seen_version``): once
    the table has acted for the seat or asked it anew since then, the command is refused."""
    if seen_version is None:
        return
    if seen_version > folded.version:
        raise RuleViolation("DS-5", f"seen_version {seen_version} is ahead of the deal (at {folded.version})")
    clock = folded.clock
    if clock is not None and clock.answered_since(seat, seen_version):
        raise RuleViolation(
            "TB-2.8",
            f"decided on version {seen_version}, but since then the table moved for seat {seat} or "
            f"asked it again (the deal is at {folded.version}): look at the table and decide again",
        )


def check_start_clock(folded: Folded, seat: int, at_ms: int) -> None:
    """TB-1.4 (table/2): a joined seat whose person never started gets a bot only once the
    clock's ``move_s`` has run since the last open seat was taken (the audit checks the same)."""
    clock = folded.clock
    if clock is None or clock.seated_ms is None:
        raise RuleViolation(
            "TB-1.4", f"seat {seat} is a person's: a bot may take it only at a full table with a clock"
        )
    due = clock.seated_ms + clock.settings.own_ms("move")
    if at_ms < due:
        raise RuleViolation(
            "TB-1.4",
            f"seat {seat}'s person may still start: a bot may take the seat in {-(-(due - at_ms) // 1000)} s",
        )


def join_link(deal_id: str, code: str) -> str:
    """Where an invited person opens the seat in the web table."""
    return f"/#/join/{deal_id}/{code}"


class DealService:
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
        # commands by game, type and outcome; the bots' decisions (default: unread)
        self.metrics = metrics if metrics is not None else Metrics()
        self.bots = bots if bots is not None else BotRunner(metrics=self.metrics)
        self.bots.attach(self)
        # who has a live stream (any process), for the views
        self.presence = presence if presence is not None else Presence(store)
        # player keys' digests and the seats listed under them ("My games")
        self.players = players if players is not None else Players(store)
        self.kick_bots = self.bots.kick
        # the bot program seats of live deals and matches, per address and in all (DS-32, DS-33)
        self.program_seats = ProgramSeats(store.redis, store.prefix)
        # called with a match's id when a deal of that match ends (TB-5.1: the next deal follows)
        self.on_match_deal_over: Callable[[str], Awaitable[None]] | None = None
        # the rated results' index and this process's fold of it (``service.store.ratings``)
        self.ratings = RatingStore(store.redis, store.prefix, sorted(GAMES))
        # one lock per deal serialises this process's commands on it; a held lock is never evicted
        self._locks: LRUCache[str, asyncio.Lock] = LRUCache(cache_size, keep=lambda lock: lock.locked())

    # creation ------------------------------------------------------------------
    async def create(
        self,
        game_name: str,
        seats: Any,
        client_seed: str | None = None,
        deck: list[int] | None = None,
        dealer: int | None = None,
        spectators: bool | None = None,
        pace: str = "normal",
        coach: bool | None = None,
        lobby: bool = False,
        name: str | None = None,
        clock: Any = None,
        idle_s: int | None = None,
        player_key: Any = None,
        deal_id: str | None = None,
        match: MatchPlace | None = None,
        rated_by: str | None = None,
    ) -> dict[str, Any]:
        """A new deal. ``player_key``: the creator's (DS-26 unless well formed): its person
        seats are listed under the key's digest, never in the deal's log or meta.
        ``clock``: ``{"move_s", "claim_s", "bank_s"}`` (TB-2.1); a table with
        open seats has one (the default when none is given), a deal of one person only if asked.
        ``open`` seats are for people the creator invites (each gets an invite
        code) or, with ``lobby``, for anyone who finds the table listed (TB-1). ``name``: the
        creator's name on its own seat (TB-1.3). ``spectators``: list it while it is live
        (anyone may watch its public table); by default only all-bot deals are, a deal with
        people stays unlisted until its end (anyone holding its id may still watch the public
        table). ``pace``: how long its
        bots think (``PACES``). ``coach``: whether its seats may ask for advice (default: when
        exactly one seat is a person; advice at a table of several people would be an aid the
        others did not agree to). ``rated_by``: the signed-in account's name for a rated deal
        (``rated_seats``)."""
        player = await self.players.digest(player_key) if player_key is not None else None
        if (deck is not None or dealer is not None) and not self.dev:
            raise RuleViolation("DS-9", "fixed decks and dealers need a server started with --dev")
        if idle_s is not None and not self.dev:
            raise RuleViolation("DS-9", "an idle or start limit other than TB-2.7's needs --dev")
        made = await self._create(
            NewDeal(
                game_name, seats, client_seed, deck, dealer, spectators, pace, deal_id=deal_id,
                coach=coach, lobby=lobby, name=name, clock=clock, idle_s=idle_s, player=player,
                match=match, rated_by=rated_by,
            )
        )  # fmt: skip
        return made.as_dict()

    async def rematch(self, deal_id: str, seat: int, token: str, player_key: Any = None) -> dict[str, Any]:
        """ "Play again": a new deal with the same seats, levels and pace, the dealer moved on by
        one seat, ``rematch_of`` in its first event, every person in their seat again with their
        name and their token of this deal, as a match's next deal (TB-5.2). Made once
        per deal (the ``rematched_by`` claim, in Redis or, for an archived deal, the archive);
        whoever asks first creates it, and every later request of a seat of this deal, a retry
        too, answers the same deal with that seat (``created`` False). DS-15 only for a seat the
        new deal does not hold (a rematch made before every person was carried over). With
        ``player_key`` the caller's seats in it are listed under the key."""
        player = await self.players.digest(player_key) if player_key is not None else None
        folded = await self.load(deal_id)
        if not folded.over:
            raise RuleViolation("DS-2", "a deal is played again once it is over")
        new_id = secrets.token_hex(8)
        taken = await self.store.claim_meta(deal_id, "rematched_by", new_id)
        plan = await self.carried_seats(folded)
        if taken == new_id:
            try:
                made = {**(await self._create_rematch(folded, plan, new_id)).as_dict(), "created": True}
            except BaseException:
                await self.store.release_meta(deal_id, "rematched_by", new_id)
                raise
        else:
            assert taken is not None
            made = {**(await self._rematch_made(folded, plan, taken)).as_dict(), "created": False}
        new = made["deal_id"]
        if await self.seats.seat_or_none(new, token) != seat:
            raise AlreadyRematched(deal_id, new)
        if player is not None:  # the seats the caller holds the tokens of (all the creator's)
            created_ms = (await self.load(new)).created_ms or now_ms()
            await self.players.seated(player, "deal", new, folded.state.seating.party(seat), created_ms)
        return {**made, "seat": seat, "token": token, "tokens": {str(seat): token}}

    async def carried_seats(self, folded: Folded) -> Carried:
        """Who sits where in a deal that follows ``folded`` with the same people, as TB-5.2 keeps
        them between a match's deals: bots keep their levels; the creator's seats their token
        digests (from the meta), each joined person their seat, name and digest (open at
        creation, taken again at once)."""
        seating = folded.state.seating
        meta = await self.store.get_meta(folded.events[0].deal_id)
        invited = {e.seat: e.invited for e in folded.events if type(e) is SeatJoined and e.token_digest}
        seats: list[str] = []
        creator: dict[int, str] = {}
        joined: dict[int, tuple[str, str, bool]] = {}
        for seat, kind in enumerate(seating.kinds):
            digest = seating.token_digests[seat] if kind == PERSON else ""
            if digest:
                seats.append(OPEN)
                joined[seat] = (seating.names[seat] or f"seat {seat}", digest, invited.get(seat, False))
            else:
                seats.append(kind)
                if kind == PERSON:
                    creator[seat] = meta.get(f"token:{seat}", "")
        named = [seating.names[seat] for seat in sorted(creator) if seating.names[seat]]
        return Carried(seats, creator, joined, named[0] if named else None)

    async def _create_rematch(self, folded: Folded, plan: Carried, new_id: str) -> CreatedDeal:
        """Create (or, created already, finish and answer) the deal ``new_id`` that plays
        ``folded`` again; every step is safe to run twice (each append is conditional)."""
        dealer = (folded.kit.projections.dealer_of(folded.state) + 1) % len(folded.seats)
        return await self._create(
            NewDeal(
                folded.kit.name,
                plan.seats,
                dealer=dealer,
                spectators=folded.spectators,
                pace=folded.pace,
                rematch_of=folded.events[0].deal_id,
                deal_id=new_id,
                coach=folded.coach,
                # a seat nobody took before the end is open again, listed as it was
                lobby=folded.lobby
                and any(k == OPEN and i not in plan.joined for i, k in enumerate(plan.seats)),
                name=plan.name,
                clock=msgspec.to_builtins(folded.clock.settings) if folded.clock is not None else None,
                creator_digests=plan.creator,
                joined=plan.joined,
            )
        )

    async def _rematch_made(self, folded: Folded, plan: Carried, new_id: str) -> CreatedDeal:
        """The deal another request claimed as the rematch, once it holds every carried person.
        The request that claimed it is usually done at once; what it did not do within
        ``REMATCH_WAIT_S`` (cut short, or in a process that died) is done here, each step a
        conditional append: the creation if the deal is missing, else the people's seats."""
        deadline = time.monotonic() + REMATCH_WAIT_S
        made: Folded | None = None
        while time.monotonic() < deadline:
            try:
                made = await self.load(new_id)
            except DealNotFound:
                made = None
            if made is not None and (
                made.started or all(made.state.seating.kinds[s] == PERSON for s in plan.joined)
            ):
                return await self._created_again(new_id)
            await asyncio.sleep(0.02)
        if made is None:
            return await self._create_rematch(folded, plan, new_id)
        await self._seat_again(new_id, plan.joined, plan.name, plan.creator, False)
        return await self._created_again(new_id)

    async def _create(self, request: NewDeal) -> CreatedDeal:
        """Create the deal ``request`` describes (or, created already under its id, finish it and
        answer it); each append is conditional, so a retry is safe."""
        r = request
        seats, client_seed, deck, dealer = r.seats, r.client_seed, r.deck, r.dealer
        spectators, pace, rematch_of, deal_id = r.spectators, r.pace, r.rematch_of, r.deal_id
        coach, lobby, name, clock, idle_s = r.coach, r.lobby, r.name, r.clock, r.idle_s
        player, match, rated_by = r.player, r.match, r.rated_by
        creator_digests, joined = r.creator_digests, r.joined
        kit_ = kit(r.game)
        seat_kinds = parse_seats(seats, kit_)
        rated = rated_seats(seat_kinds, rated_by) if rated_by is not None else None
        if pace not in PACES:
            raise RuleViolation("DS-5", f"pace is one of {', '.join(PACES)}")
        tokens = {i: secrets.token_urlsafe(32) for i, kind in enumerate(seat_kinds) if kind == PERSON}
        digests = {seat: token_digest(tok) for seat, tok in tokens.items()}
        if creator_digests is not None:  # a match's next deal: the same tokens (TB-5.2)
            tokens, digests = {}, dict(creator_digests)
        joined = joined or {}
        invited = [i for i, kind in enumerate(seat_kinds) if kind == OPEN and i not in joined]
        invites = {i: secrets.token_urlsafe(16) for i in invited}
        if lobby and not invites:
            raise RuleViolation("TB-1.2", "a table in the lobby needs at least one open seat")
        if name is not None:
            if creator_digests is None:  # a match's next deal keeps the name its deals recorded
                name = seat_name(name)
            if not digests:
                raise RuleViolation("TB-1.3", "a name is for the creator's own seat: it needs a 'human' seat")
        # TB-2.1: a table people may join has a clock; one person plays untimed unless it asks
        settings = parse_clock(clock) if clock is not None or invites else None
        deal_id = deal_id or secrets.token_hex(8)
        events = kit_.game.create(
            deal_id=deal_id,
            seats=seat_kinds,
            server_seed=os.urandom(32),
            fixed_deck=deck,
            fixed_dealer=dealer,
            rematch_of=rematch_of,
            table=TABLE_RULES,
            clock=settings,
            # TB-2.7: an untimed deal's idle limit, or a clocked deal's limit to be dealt in
            idle_limit_s=idle_s,
            match=match,
            rated=rated,
        )
        if spectators is None:
            spectators = not tokens and not invites
        if coach is None:
            coach = len(tokens) == 1 and not invites
        created_ns = time.time_ns()  # the DealCreated's recorded time: the clock folds from it
        created_ms = created_ns // 1_000_000
        if player is not None:  # before the deal exists: a row whose deal never came is skipped
            await self.players.seated(player, "deal", deal_id, sorted(tokens), created_ms)
            if match is not None:  # its match too: the match's later deals are found through it
                await self.players.seated(player, "match", match.match_id, sorted(tokens), created_ms)
        meta = {
            "game": kit_.name,
            "seats": json.dumps(seat_kinds),
            "created_ms": str(created_ms),
            "spectators": "1" if spectators else "0",
            "pace": pace,
            "coach": "1" if coach else "0",
            "lobby": "1" if lobby else "0",
            **({"rematch_of": rematch_of} if rematch_of else {}),
            **{f"token:{seat}": digest for seat, digest in digests.items()},
            # an invite is kept as its digest only, like a token (TB-1.2)
            **{f"invite:{seat}": token_digest(code) for seat, code in invites.items()},
            # what an invited seat's token is made from, so a retried join answers the same
            # token (TB-1.2); never read by anyone but ``join``
            **({JOIN_KEY: secrets.token_hex(32)} if invites else {}),
        }
        await self.store.put_meta(deal_id, meta)
        result = await self.store.append(deal_id, 0, events, command_id="create", recorded_ns=created_ns)
        if result.duplicate:  # a match's next deal another process created (same id): finish it
            await self._seat_again(deal_id, joined, name, digests, bool(invites))
            return await self._created_again(deal_id)
        # a lobby table is listed while it is live, for anyone to find a free seat at
        await self.store.put_meta(deal_id, {}, created_ms=created_ms, public=spectators or lobby)
        if lobby:  # the lobby reads its tables from the open tables' index until the last seat goes
            await self.store.open_table(deal_id, created_ms)
        # the first command needs neither the meta nor the log back from Redis
        self.seats.remember(deal_id, digests)
        folded = Folded(
            kit_,
            kit_.game.fold(events),
            result.last_version,
            list(events),
            head_hash=result.head_hash or GENESIS,
            created_ms=created_ms,
            spectators=spectators,
            pace=pace,
            rematch_of=rematch_of,
            coach=coach,
            lobby=lobby,
        )
        step_clock(folded, folded.state, events[0], created_ms)
        self.folds.remember(deal_id, folded)
        if settings is not None:  # every clocked live deal is looked at by the clock keepers
            await self.schedule(deal_id, folded)
        elif digests:  # an untimed deal of a person: looked at once its idle limit could pass (TB-2.7)
            await self.store.schedule_clock(deal_id, created_ms + idle_limit_ms(events[0]))
        version = result.last_version
        for seat, (joined_name, digest, invited) in sorted(joined.items()):  # TB-5.2: back in their seats
            command = JoinSeat(seat, joined_name, digest, invited)
            carried = await self.execute(deal_id, None, command, command_id=f"join:{seat}:{digest[:24]}")
            version = carried.last_version
        if name is not None:
            seat = min(digests)
            named = await self.execute(
                deal_id, seat, JoinSeat(seat, name, "", False), command_id=seat_command_id(seat, "name")
            )
            version = named.last_version
        if not digests and not invites and not joined:
            # never an empty client seed: sha256(server_seed || "") is the public commitment itself
            seed = client_seed or secrets.token_hex(16)
            outcome = await self.execute(
                deal_id, None, StartDeal(seat=0, client_seed=seed), command_id="start"
            )
            version = outcome.last_version
        return CreatedDeal(
            deal_id=deal_id,
            game=kit_.name,
            ruleset=kit_.game.ruleset,
            seats=seat_kinds,
            commitment=events[0].commitment,
            tokens={str(seat): tok for seat, tok in tokens.items()},
            invites={str(seat): code for seat, code in invites.items()},
            join_links={str(seat): join_link(deal_id, code) for seat, code in invites.items()},
            lobby=lobby,
            clock=msgspec.to_builtins(settings) if settings is not None else None,
            version=version,
            spectators=spectators,
            pace=pace,
            rematch_of=rematch_of,
            coach=coach,
        )

    async def _seat_again(
        self,
        deal_id: str,
        joined: dict[int, tuple[str, str, bool]],
        name: str | None,
        digests: dict[int, str],
        invites: bool,
    ) -> None:
        """What a creation does after its first append, done again where it was cut short
        (each step's command id makes a step already appended an answer, not a second append)."""
        steps: list[tuple[int | None, Any, str]] = [
            (None, JoinSeat(seat, n, digest, inv), f"join:{seat}:{digest[:24]}")
            for seat, (n, digest, inv) in sorted(joined.items())
        ]
        if name is not None:
            seat = min(digests)
            steps.append((seat, JoinSeat(seat, name, "", False), seat_command_id(seat, "name")))
        for seat, command, command_id in steps:
            try:
                await self.execute(deal_id, seat, command, command_id=command_id)
            except RuleViolation:
                pass  # the deal went on without it (dealt already): nothing to make good
        if not digests and not invites and not joined and not (await self.load(deal_id)).started:
            try:
                start = StartDeal(seat=0, client_seed=secrets.token_hex(16))
                await self.execute(deal_id, None, start, command_id="start")
            except (CommandIdReused, RuleViolation):
                pass  # another process dealt it first

    async def _created_again(self, deal_id: str) -> CreatedDeal:
        """The creation answer of a deal already created (no token or invite: they were given
        to whoever created it, or were carried over)."""
        folded = await self.load(deal_id)
        created = folded.events[0]
        return CreatedDeal(
            deal_id=deal_id, game=folded.kit.name, ruleset=created.ruleset,
            seats=list(created.seats), commitment=created.commitment,
            tokens={}, invites={}, join_links={},
            lobby=folded.lobby, clock=msgspec.to_builtins(created.clock) if created.clock else None,
            version=folded.version, spectators=folded.spectators, pace=folded.pace,
            rematch_of=folded.rematch_of, coach=folded.coach,
        )  # fmt: skip

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
        join_key = await self.store.meta_field(deal_id, JOIN_KEY) if invite is not None else None
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
        if seating.away and seating.away[seat] and not _is_back(command):
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
        return CommandAnswer(
            version=outcome.last_version,
            first_version=outcome.first_version,
            duplicate=outcome.duplicate,
            events=gate.command_events(folded, outcome.events, viewer),
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
            return gate.view(folded, viewer, await self.presence.seats(deal_id))
        connected = batch.memo.get("connected")
        if connected is None:
            connected = batch.memo["connected"] = await self.presence.seats(deal_id)
        return batch.view(viewer, lambda: gate.view_of_state(folded, state, viewer, connected))

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
                    if clock is not None and at_ns is not None:
                        step_clock_through(folded, folded.state, events, at_ns // 1_000_000, after)
                        away = away_seat(command_id)
                        if away is not None and folded.clock is not None:  # TB-2.8: moved for the seat
                            folded.clock.acted_for(away, result.first_version)
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
                await self.store.put_meta(
                    deal_id, {"status": "over"}, created_ms=folded.created_ms or now_ms(), public=True
                )
                await self.programs_over(deal_id, folded)
                await self.record_rated(deal_id, folded)
            if folded.lobby and not folded.state.seating.open_seats and _seats_taken(events):
                await self.store.close_table(deal_id)  # its last seat went: out of the lobby
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
        result = deal_result(folded.kit.name, folded.events[0], payments, at, abandoned(folded.events))
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
            await self.store.unschedule_clock(deal_id)
            return
        nxt = folded.clock.next_deadline_ms()
        if nxt is None:  # not dealt yet: when it is due to be abandoned (TB-2.7, table/2)
            nxt = start_deadline_ms(folded)
        await self.store.schedule_clock(deal_id, nxt if nxt is not None else now_ms() + LOOK_AGAIN_MS)

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

    async def close(self) -> None:
        await self.bots.close()
        await self.presence.close()
        self.store.close()
