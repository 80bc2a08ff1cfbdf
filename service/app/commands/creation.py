"""Creating deals: a new deal from its request (``NewDeal``), "Play again" and a match's next
deal with the same people (TB-5.2), each answered as a ``CreatedDeal``. ``Creation`` is the part
of ``DealService`` that does it; every step is a conditional append, so a retry, or another
process doing the same, is safe."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.envelope import GENESIS
from domain.errors import RuleViolation
from domain.game import MatchPlace, StartDeal
from domain.table.clock import idle_limit_ms, parse_clock
from domain.table.names import seat_name
from domain.table.seating import (
    OPEN,
    PERSON,
    TABLE_RULES,
    JoinSeat,
    SeatJoined,
)
from service.app.commands.terms import (
    JOIN_KEY,
    PACES,
    AlreadyRematched,
    CommandIdReused,
    Outcome,
    join_link,
    parse_seats,
    rated_seats,
    seat_command_id,
)
from service.app.games import kit
from service.app.state.folds import (
    DealNotFound,
    Folded,
    Folds,
    step_clock,
)
from service.app.state.players import Players
from service.app.state.seats import SeatTokens, token_digest
from service.store.event_store import EventStore, now_ms

REMATCH_WAIT_S = 5.0  # a "Play again" another request is creating is finished here after this long


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


class Creation:
    """``DealService``'s creation of deals (mixed into it): the parts it uses are the service's."""

    store: EventStore
    dev: bool
    folds: Folds
    seats: SeatTokens
    players: Players
    load: Callable[[str], Awaitable[Folded]]
    execute: Callable[..., Awaitable[Outcome]]
    schedule: Callable[[str, Folded], Awaitable[None]]

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
        board: tuple[int, list[int]] | None = None,
        start_s: int | None = None,
    ) -> CreatedDeal:
        """A new deal, answered as a ``CreatedDeal`` (the HTTP layer encodes it as it is).
        ``board``: the dealer and wall a duplicate tournament's round gives this deal (TN-3.4;
        from the service, never from a request). ``start_s``: how long a clocked deal waits for
        its people's ``StartDeal`` (a tournament's table, TN-1.4; from the service, never from a
        request), recorded as its start limit. ``player_key``: the creator's
        (DS-26 unless well formed): its person seats are listed under the key's digest, never in
        the deal's log or meta.
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
        if board is not None:
            dealer, deck = board
        if idle_s is not None and not self.dev:
            raise RuleViolation("DS-9", "an idle or start limit other than TB-2.7's needs --dev")
        if start_s is not None:
            idle_s = start_s
        return await self._create(
            NewDeal(
                game_name, seats, client_seed, deck, dealer, spectators, pace, deal_id=deal_id,
                coach=coach, lobby=lobby, name=name, clock=clock, idle_s=idle_s, player=player,
                match=match, rated_by=rated_by,
            )
        )  # fmt: skip

    async def create_seated(
        self, game_name: str, seats: list[str], people: dict[int, str], deal_id: str
    ) -> dict[str, Any]:
        """A table the service seats people at (quick play): each person's seat open at the
        creation and taken at once under its name, with a token nobody is given (each person
        gets a token of its own seat later, as ``my-seat`` hands out); a clock (TB-2.1), not
        listed while it is live. Made twice under one id, the second answers the first."""
        joined = {
            seat: (name, token_digest(secrets.token_urlsafe(32)), False) for seat, name in people.items()
        }
        made = await self._create(
            NewDeal(game_name, seats, spectators=False, deal_id=deal_id, joined=joined, clock={})
        )
        return made.as_dict()

    async def rematch(
        self, deal_id: str, seat: int, token: str, player_key: Any = None, hand_seat: Any = None
    ) -> dict[str, Any]:
        """ "Play again": a new deal with the same seats, levels and pace, the dealer moved on by
        one seat, ``rematch_of`` in its first event, every person in their seat again with their
        name and their token of this deal, as a match's next deal (TB-5.2). Made once
        per deal (the ``rematched_by`` claim, in Redis or, for an archived deal, the archive);
        whoever asks first creates it, and every later request of a seat of this deal, a retry
        too, answers the same deal with that seat (``created`` False). DS-15 only for a seat the
        new deal does not hold (a rematch made before every person was carried over). With
        ``player_key`` the caller's seats in it are listed under the key. ``hand_seat(deal, seat)``:
        a new token of the seat, for a caller whose token was handed to one device (``my-seat``,
        a stream's ``rematch``) and so was not carried over, when the new deal seats a person there."""
        player = await self.players.digest(player_key) if player_key is not None else None
        folded = await self.load(deal_id)
        if not folded.over:
            raise RuleViolation("DS-2", "a deal is played again once it is over")
        new_id = secrets.token_hex(8)
        taken = await self.store.reader.claim_meta(deal_id, "rematched_by", new_id)
        plan = await self.carried_seats(folded)
        if taken == new_id:
            try:
                made = {**(await self._create_rematch(folded, plan, new_id)).as_dict(), "created": True}
            except BaseException:
                await self.store.reader.release_meta(deal_id, "rematched_by", new_id)
                raise
        else:
            assert taken is not None
            made = {**(await self._rematch_made(folded, plan, taken)).as_dict(), "created": False}
        new = made["deal_id"]
        if await self.seats.seat_or_none(new, token) != seat:
            made_again = await self.load(new)  # this deal's own rematch, a person in the seat
            kinds = made_again.state.seating.kinds
            ours = made_again.rematch_of == deal_id and seat < len(kinds) and kinds[seat] == PERSON
            handed = await hand_seat(new, seat) if hand_seat is not None and ours else None
            if handed is None:
                raise AlreadyRematched(deal_id, new)
            token = handed
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
        meta = await self.store.reader.get_meta(folded.events[0].deal_id)
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
        rated = rated_seats(seat_kinds, rated_by, match is None) if rated_by is not None else None
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
        await self.store.indexes.put_meta(deal_id, meta)
        result = await self.store.append(deal_id, 0, events, command_id="create", recorded_ns=created_ns)
        if result.duplicate:  # a match's next deal another process created (same id): finish it
            await self._seat_again(deal_id, joined, name, digests, bool(invites))
            return await self._created_again(deal_id)
        # a lobby table is listed while it is live, for anyone to find a free seat at
        await self.store.indexes.put_meta(deal_id, {}, created_ms=created_ms, public=spectators or lobby)
        if lobby:  # the lobby reads its tables from the open tables' index until the last seat goes
            await self.store.indexes.open_table(deal_id, created_ms)
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
            await self.store.indexes.schedule_clock(deal_id, created_ms + idle_limit_ms(events[0]))
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
