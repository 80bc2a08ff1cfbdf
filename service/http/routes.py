"""The HTTP API's handlers: deals, commands, seat views, SSE, replay, log, audit.

Handlers decode the request (``service.http.request``), call one function of the command side
(``DealService``) or of the read side (``service.app.reads``, behind the one visibility gate) and
encode the answer; ``build_app`` mounts them as ``route_table.ROUTES`` lists them (the table
``/openapi.json`` is built from; docs/api.md shows each route), with the middleware and the
web client's files.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import msgspec
from aiohttp import web

from domain.errors import RuleViolation
from service import __version__
from service.app.accounts import Accounts
from service.app.analysis.reviews import ReviewedSeats, ReviewRefused, Reviews
from service.app.chat import ChatLog, ChatMessage, ChatPost, WatcherLog, WatcherMessage, checked
from service.app.chat.relay import ChatRelay
from service.app.commands.clocks import ClockKeeper
from service.app.commands.creation import CreatedDeal
from service.app.commands.deals import DealService
from service.app.commands.matches import MatchService
from service.app.commands.terms import CommandAnswer, is_program
from service.app.follow import FollowOn
from service.app.live.hub import StreamHub
from service.app.live.streams import LiveStreams
from service.app.reads import catalog
from service.app.reads.matches import MatchReads
from service.app.reads.side import ReadSide
from service.app.seeks import QuickPlay
from service.app.state.tickets import StreamTickets
from service.app.status import ServiceStatus
from service.app.tournaments import TournamentService
from service.app.viewer import NOBODY, SPECTATOR, Viewer
from service.http import sse
from service.http.accounts import (
    ACCOUNT_SIGNIN_LIMIT,
    COOKIE,
    SIGNIN_LIMIT,
    SIGNIN_WINDOW_S,
    AccountHandlers,
    origin_guard,
)
from service.http.client_address import ClientAddress
from service.http.openapi import openapi_document
from service.http.people import PeopleHandlers
from service.http.request import (
    MAX_BODY,
    RateLimiter,
    aborter,
    bearer,
    json_response,
    parse,
    player_key,
    read_body,
    resume_param,
    transport_alive,
    whole,
)
from service.http.route_table import ROUTES
from service.http.schemas import (
    CommandRequest,
    CreateDeal,
    CreateMatch,
    FilledSeat,
    FillRequest,
    Health,
    JoinedSeat,
    JoinRequest,
    MintedPlayerKey,
    Ready,
    RematchRequest,
    ReviewRequest,
    StreamTicket,
)
from service.http.tournaments import TournamentHandlers
from service.store.chat import ChatStore
from service.store.event_store import EventStore
from service.store.outages import STORE_OUTAGES
from service.store.program_seats import ProgramSeatsFull
from service.store.rate_limits import Reservation, SharedRateLimiter

log = logging.getLogger("dealstream.http")
T = TypeVar("T")
WEB_ROOT = Path(__file__).with_name("web")
KEEPALIVE_S = 15.0  # a comment on every live stream this often: a dead client fails a write
COMMAND_LIMIT = 200  # commands one seat token may send per COMMAND_WINDOW_S (a person sends a few)
COMMAND_WINDOW_S = 10.0
LIST_WINDOW_S = 60.0  # a player's list is read at most ``list_limit`` times a minute per address
REVIEW_LIMIT = 10  # new reviews one address may start per REVIEW_WINDOW_S (DS-29)
REVIEW_WINDOW_S = 60.0
CHAT_LIMIT = 5  # chat messages one seat may send per CHAT_WINDOW_S (DS-46)
CHAT_WINDOW_S = 10.0
PROGRAMS_RETRY_S = 30  # Retry-After when bot program seats are full (a deal's end frees them)
STOP_BACKGROUND_S = 10.0  # how long the shutdown waits for its background loops to stop
HUB = web.AppKey("hub", StreamHub)
CLOCKS = web.AppKey("clocks", ClockKeeper)
STATUS = web.AppKey("status", ServiceStatus)  # what /health and /ready tell
BACKGROUND = web.AppKey("background", list)  # the loops /ready checks
READY_PING_S = 2.0
REVIEWS = web.AppKey("reviews", Reviews)
CHAT_RELAY = web.AppKey("chat_relay", ChatRelay)


class BudgetSpent(RuleViolation):
    """An address's budget is spent: 429 with ``Retry-After: retry_after`` (whole seconds)."""

    def __init__(self, rule_id: str, message: str, retry_after: int) -> None:
        super().__init__(rule_id, message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Limiters:
    """The budgets the API counts. The per-address ones live in Redis, so every process (and
    host) on the store shares them; a seat's command budget is this process's."""

    create: SharedRateLimiter  # new deals per address
    command: RateLimiter  # commands per seat token: one person cannot flood a table (DS-22)
    list: SharedRateLimiter  # reads of a player's list per address (DS-28)
    review: SharedRateLimiter  # new reviews started per address (DS-29)
    chat: SharedRateLimiter  # chat lines per seat (DS-46)
    signin: SharedRateLimiter  # sign-ins and sign-ups per address (DS-38)
    account_signin: SharedRateLimiter  # sign-ins naming one account (DS-38)

    @classmethod
    def over(
        cls,
        redis: Any,
        prefix: str,
        *,
        create_limit: int = 120,
        create_window: float = 60.0,
        command_limit: int = COMMAND_LIMIT,
        list_limit: int = 120,
        review_limit: int = REVIEW_LIMIT,
    ) -> Limiters:
        """The budgets with these limits, kept in ``redis`` under ``prefix`` (``bootstrap`` calls it)."""
        return cls(
            create=SharedRateLimiter(redis, prefix, "create", create_limit, create_window),
            command=RateLimiter(command_limit, COMMAND_WINDOW_S),
            list=SharedRateLimiter(redis, prefix, "list", list_limit, LIST_WINDOW_S),
            review=SharedRateLimiter(redis, prefix, "review", review_limit, REVIEW_WINDOW_S),
            chat=SharedRateLimiter(redis, prefix, "chat", CHAT_LIMIT, CHAT_WINDOW_S),
            signin=SharedRateLimiter(redis, prefix, "signin", SIGNIN_LIMIT, SIGNIN_WINDOW_S),
            account_signin=SharedRateLimiter(
                redis, prefix, "signin-account", ACCOUNT_SIGNIN_LIMIT, SIGNIN_WINDOW_S
            ),
        )


class Api(AccountHandlers, PeopleHandlers, TournamentHandlers):
    """The handlers. Each part is made by ``service.bootstrap`` and handed here; the handlers
    decode a request, call one of them and encode the answer."""

    def __init__(
        self,
        *,
        deals: DealService,
        reads: ReadSide,
        live: LiveStreams,
        hub: StreamHub,
        reviews: Reviews,
        matches: MatchService,
        match_reads: MatchReads,
        limiters: Limiters,
        tickets: StreamTickets,
        chat: ChatStore,
        accounts: Accounts,
        client_address: ClientAddress,
        follow: FollowOn,
        quick: QuickPlay,
        tournaments: TournamentService,
        keepalive: float = KEEPALIVE_S,
        watch_chat: ChatStore | None = None,
    ) -> None:
        self.deals = deals
        self.store: EventStore = deals.store
        self.reads = reads
        self.live = live
        self.hub = hub
        self.reviews = reviews
        # matches (TB-5): each next deal once the last one ends, and a sweep for a process that died
        self.matches = matches
        self.match_reads = match_reads
        # whose address a request's limits count against (a trusted proxy's X-Forwarded-For)
        self.client_address = client_address
        self.limiter = limiters.create
        self.command_limiter = limiters.command
        self.list_limiter = limiters.list
        self.review_limiter = limiters.review
        self.chat_limiter = limiters.chat
        self.signin_limiter = limiters.signin
        self.account_signin_limiter = limiters.account_signin
        # a word at the table: kept beside the deal, never in its log
        self.chat = chat
        # the spectators' room of a deal open to them: apart from the seats' chat
        self.watch_chat = watch_chat or ChatStore(chat.redis, chat.prefix, chat.archive, room="watch")
        self.accounts = accounts  # accounts and sessions
        self.tickets = tickets  # stream tickets instead of tokens in URLs
        self.keepalive = keepalive
        self.follow = follow  # a seat's stream waits for the next deal of its table
        self.quick = quick  # quick play's seeks
        self.tournaments = tournaments  # tournaments (TN): their rounds run as matches

    async def _viewer(self, request: web.Request, deal_id: str, anonymous: Viewer = NOBODY) -> Viewer:
        return await self.reads.viewer(deal_id, bearer(request), anonymous=anonymous)

    # handlers ------------------------------------------------------------------
    async def health(self, request: web.Request) -> web.Response:
        """200 while the event store answers the stream hub's pings; 503 (DS-12) while not."""
        from service.http.problems import problem

        if not self.hub.healthy:
            return problem(503, "the event store is unreachable; the service retries by itself", "DS-12")
        status = request.app.get(STATUS) or ServiceStatus()
        return json_response(
            Health(
                ok=True, store="ok", streams=self.hub.subscribers, durability=status.durability,
                archive=status.archive, degraded=status.degraded, version=__version__,
            )
        )  # fmt: skip

    async def ready(self, request: web.Request) -> web.Response:
        """200 when the store answers a PING, the stream hub runs and the background workers are
        up; else 503 with each part that is not."""
        try:
            await asyncio.wait_for(self.store.redis.ping(), READY_PING_S)
            store = "ok"
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - whatever it is, the store did not answer
            store = f"unreachable: {type(exc).__name__}"
        running = all(not task.done() for task in getattr(self.hub, "_tasks", ()))
        streams = "ok" if self.hub.healthy and running else ("not running" if not running else "disconnected")
        workers = "ok"
        stopped = [t.get_name() for t in request.app.get(BACKGROUND, ()) if t.done()]
        if not request.app.get(BACKGROUND):
            workers = "not started"
        elif stopped:
            workers = "stopped: " + ", ".join(stopped)
        else:
            executor = getattr(self.deals.bots.pool, "_pool", None)
            if executor is not None and getattr(executor, "_broken", False):
                workers = "bot worker pool broken (replaced at the next search)"
        status = request.app.get(STATUS) or ServiceStatus()
        ready = Ready(
            ready=store == streams == workers == "ok", store=store, streams=streams, workers=workers,
            archive=status.archive,
        )  # fmt: skip
        return json_response(ready, status=200 if ready.ready else 503)

    async def _budgeted(self, request: web.Request, make: Callable[[], Awaitable[T]], seats: Any = ()) -> T:
        """A deal made within its address's budget (DS-11): a place in the budget is reserved
        first, in one step (a burst of concurrent requests gets exactly the budget), and given
        back when the creation fails, so a request refused for any other reason spends nothing.
        Its bot program ``seats`` take places of their own (DS-32, DS-33), the same way."""
        client = self.client_address.of(request)
        held, wait = await self.limiter.reserve(client)
        if held is None:
            wait = wait or 1
            raise BudgetSpent("DS-11", f"too many deals created from this address; retry in {wait} s", wait)
        places = None
        try:
            places = await self._program_places(client, seats)
            made = await make()
        except BaseException:
            try:
                await asyncio.shield(self._give_back(held, places))
            except STORE_OUTAGES as exc:  # the refusal stands; the places come back with time
                log.warning("a failed creation's budget was not given back: %s", exc)
            raise
        if places is not None:
            await self._programs_seated(places, made)
        return made

    async def _give_back(self, held: Reservation, places: str | None) -> None:
        await self.limiter.release(held)
        if places is not None:
            await self.deals.program_seats.release(places)

    async def _program_places(self, client: str, seats: Any, holder: str | None = None) -> str | None:
        """Places for the bot program seats among ``seats`` (seat kinds), or None when there are
        none: 429 DS-32 beyond the address's share, 503 DS-33 beyond the bound in all."""
        wanted = [i for i, kind in enumerate(seats if isinstance(seats, list) else ()) if is_program(kind)]
        if not wanted:
            return None
        try:
            return await self.deals.program_seats.reserve(client, wanted, holder)
        except ProgramSeatsFull as exc:
            rule = "DS-32" if exc.per_address else "DS-33"
            raise BudgetSpent(rule, str(exc), PROGRAMS_RETRY_S) from None

    async def _programs_seated(self, places: str, made: CreatedDeal | dict[str, Any]) -> None:
        """The reserved program seats now belong to the deal made (or, ``made`` a match's
        answer, its match); a deal that ended before this gives them back at once."""
        if isinstance(made, CreatedDeal):
            deal_id, holder = made.deal_id, made.deal_id
        else:
            deal_id = made["deal_id"]
            holder = made.get("match_id") or deal_id
        await self.deals.program_seats.move(places, holder)
        folded = self.deals.folds.cached(deal_id)
        if holder == deal_id and folded is not None and folded.over:
            await self.deals.program_seats.release(holder)

    async def create_deal(self, request: web.Request) -> web.Response:
        body = parse(await read_body(request), CreateDeal)
        rated_by = await self.rated_by(request) if body.rated else None
        created = await self._budgeted(
            request,
            lambda: self.deals.create(
                body.game, body.seats, body.client_seed, body.deck, body.dealer, spectators=body.spectators,
                pace=body.pace, coach=body.coach, lobby=body.lobby, name=body.name, clock=body.clock,
                idle_s=body.idle_s, player_key=body.player_key, rated_by=rated_by,
            ),
            body.seats,
        )  # fmt: skip
        await self.account_seats(request, "deal", created.deal_id, [int(s) for s in created.tokens])
        return json_response(created, status=201)

    async def create_match(self, request: web.Request) -> web.Response:
        """A match (TB-5) and its first deal: the body of ``POST /deals`` plus ``length``."""
        fields = msgspec.structs.asdict(parse(await read_body(request), CreateMatch))
        rated_by = await self.rated_by(request) if fields.pop("rated") else None
        game, length, target = fields.pop("game"), fields.pop("length"), fields.pop("target")
        fields["rated_by"] = rated_by
        make = lambda: self.matches.create(game, length, target, **fields)  # noqa: E731
        created = await self._budgeted(request, make, fields.get("seats"))
        seats = [int(s) for s in created.get("tokens") or {}]
        await self.account_seats(request, "deal", created["deal_id"], seats)
        await self.account_seats(request, "match", created["match_id"], seats)
        return json_response(created, status=201)

    async def match(self, request: web.Request) -> web.Response:
        return json_response(await self.match_reads.summary(request.match_info["match_id"]))

    async def match_audit(self, request: web.Request) -> web.Response:
        return json_response(await self.match_reads.audit(request.match_info["match_id"]))

    async def join(self, request: web.Request) -> web.Response:
        """Take an open seat (TB-1.2): the answer holds the seat's token, shown this once."""
        deal_id = request.match_info["deal_id"]
        body = parse(await read_body(request), JoinRequest)
        token = bearer(request)  # a seat of this deal may not take a second one
        name = await self.rated_joiner(request, deal_id, body.name)  # a rated deal: an account's seat
        joined = await self.deals.join(
            deal_id,
            invite=body.invite,
            seat=body.seat,
            name=name,
            token=token,
            player_key=body.player_key,
        )
        await self.account_seats(request, "deal", deal_id, [joined["seat"]])
        return json_response(JoinedSeat(**joined), status=201)

    async def fill_seat(self, request: web.Request) -> web.Response:
        """The creator puts a bot in an open seat (TB-1.4)."""
        deal_id = request.match_info["deal_id"]
        by_seat = await self.deals.seats.authenticate(deal_id, bearer(request))
        seat = whole(request, "seat", None, 0, 7, source=request.match_info)
        body = parse(await read_body(request), FillRequest)
        level = body.level if isinstance(body.level, str) else ""
        kinds = [""] * seat + [level if level.startswith("bot:") else f"bot:{level}"]
        await self.rated_fill(deal_id, kinds[-1])  # a rated deal: a house bot not at the table yet
        places = await self._program_places(self.client_address.of(request), kinds)  # DS-32, DS-33
        try:
            filled = await self.deals.fill_with_bot(deal_id, by_seat, seat, body.level)
        except BaseException:
            if places is not None:
                await asyncio.shield(self.deals.program_seats.release(places))
            raise
        if places is not None:
            match = getattr((await self.deals.load(deal_id)).events[0], "match", None)
            made = {"deal_id": deal_id, "match_id": match.match_id if match is not None else None}
            await self._programs_seated(places, made)
        return json_response(FilledSeat(**filled))

    async def lobby(self, request: web.Request) -> web.Response:
        count = whole(request, "count", 50, 1, 200)
        return json_response(await self.reads.lobby(count))

    async def rematch(self, request: web.Request) -> web.Response:
        """ "Play again" with a seat token of the finished deal: 201 to the request that made the
        new deal, 200 to every later one (each reaches it with its own seat)."""
        deal_id = request.match_info["deal_id"]
        token = bearer(request)
        seat = await self.deals.seats.authenticate(deal_id, token)
        assert token is not None
        raw = await read_body(request)
        body = parse(raw, RematchRequest) if raw.strip() else RematchRequest()
        seats = (await self.deals.load(deal_id)).seats  # its bot programs play again too
        hand = self.accounts.hand_seat  # a device's token (not carried over) gets one of the new seat
        again = lambda: self.deals.rematch(deal_id, seat, token, body.player_key, hand)  # noqa: E731
        if await self.deals.store.reader.meta_field(deal_id, "rematched_by") is None:
            made = await self._budgeted(request, again, seats)
        else:  # the deal another seat made already: reaching it makes nothing, spends no budget
            made = await again()
        await self.account_seats(request, "deal", made["deal_id"], [int(s) for s in made.get("tokens") or {}])
        await self.carry_accounts(deal_id, made["deal_id"])  # each account at the table
        return json_response(made, status=201 if made["created"] else 200)

    async def list_deals(self, request: web.Request) -> web.Response:
        offset = whole(request, "offset", 0, 0, 10**9)
        count = whole(request, "count", 50, 1, 200)
        return json_response(await self.reads.deals_list(NOBODY, offset, count))

    async def my_deals(self, request: web.Request) -> web.Response:
        """The deals of the player whose key is in ``X-Player-Key``, newest first. No
        key is 401 before anything is counted; then the address's reads are (DS-28)."""
        account = None
        if "X-Player-Key" not in request.headers and COOKIE in request.cookies:
            account = await self.signed_in(request)  # the account's list, by its session cookie
        key = player_key(request) if account is None else None
        client = self.client_address.of(request)
        wait = await self.list_limiter.allow(client)
        if wait is not None:
            from service.http.problems import problem

            answer = problem(429, f"too many reads of player lists from this address; wait {wait} s", "DS-28")
            answer.headers["Retry-After"] = str(wait)
            return answer
        limit = whole(request, "limit", 50, 1, 200)
        before = whole(request, "before", None, 0, 2**53)
        answer = await self.reads.player_deals(
            key, before, limit, match_row=self.match_reads.player_match,
            digest=self.accounts.games(account) if account is not None else None,
        )  # fmt: skip
        return json_response(answer)

    async def mint_player_key(self, request: web.Request) -> web.Response:
        """A new player key; nothing is stored (the key carries the server's tag)."""
        key = await self.reads.players.mint()
        return json_response(MintedPlayerKey(player_key=key), status=201)

    async def games(self, request: web.Request) -> web.Response:
        """The games this server plays: seat count, bot levels and their strength (the lobby)."""
        return json_response(catalog.games())

    async def summary(self, request: web.Request) -> web.Response:
        deal_id = request.match_info["deal_id"]
        return json_response(await self.reads.summary(deal_id, await self._viewer(request, deal_id)))

    async def view(self, request: web.Request) -> web.Response:
        deal_id = request.match_info["deal_id"]
        token = bearer(request)
        if token is None:
            raise RuleViolation("DS-8", "this needs a seat token (Authorization: Bearer …)")
        return json_response(await self.reads.view(deal_id, await self.reads.viewer(deal_id, token)))

    async def command(self, request: web.Request) -> web.Response:
        deal_id = request.match_info["deal_id"]
        seat = await self.deals.seats.authenticate(deal_id, bearer(request))  # 401 before a bad body's 400
        client = f"{deal_id}:{seat}"
        if not self.command_limiter.allow(client):
            from service.http.problems import problem

            wait = self.command_limiter.retry_after(client)
            answer = problem(429, f"too many commands from this seat; wait {wait} s", "DS-22")
            answer.headers["Retry-After"] = str(wait)
            return answer
        body = parse(await read_body(request), CommandRequest)
        answer: CommandAnswer = await self.deals.command(
            deal_id,
            seat,
            body.command_id,
            body.command,
            expected_version=body.expected_version,
            return_view=body.return_view,
            seen_version=body.seen_version,
        )
        return json_response(answer)  # a CommandAnswer, encoded as it is

    async def post_chat(self, request: web.Request) -> web.Response:
        """A seat's word at the table (``service.app.chat``): 201 and the message as stored."""
        deal_id = request.match_info["deal_id"]
        seat = await self.deals.seats.authenticate(deal_id, bearer(request))  # 401 before a bad body
        text, phrase = checked(parse(await read_body(request), ChatPost))
        wait = await self.chat_limiter.allow(f"{deal_id}:{seat}")
        if wait is not None:
            raise BudgetSpent("DS-46", f"too many chat messages from this seat; wait {wait} s", wait)
        names = (await self.reads.folds.load(deal_id)).state.seating.names
        name = names[seat] if seat < len(names) else None
        message = ChatMessage(seat=seat, name=name, text=text, at=int(time.time() * 1000), phrase=phrase)
        await self.chat.add(deal_id, message)
        return json_response(message, status=201)

    async def read_chat(self, request: web.Request) -> web.Response:
        """The seats' chat, oldest first: for the deal's seats only, during and after the deal."""
        deal_id = request.match_info["deal_id"]
        await self.deals.seats.authenticate(deal_id, bearer(request))
        return json_response(ChatLog(messages=await self.chat.messages(deal_id)))

    async def _watch_room(self, deal_id: str) -> None:
        """DS-44 (404) unless the deal's creator allowed spectators: only then has it a
        spectators' room (DS-7 for a deal that does not exist)."""
        if not (await self.reads.folds.load(deal_id)).spectators:
            raise RuleViolation("DS-44", "this table has no spectators' room")

    async def post_watch_chat(self, request: web.Request) -> web.Response:
        """A signed-in account's word in the spectators' room: 201 and the message as stored.
        No seat token is read; the name shown is the account's."""
        deal_id = request.match_info["deal_id"]
        account = await self._account(request)  # 401 before anything else
        await self._watch_room(deal_id)
        text, phrase = checked(parse(await read_body(request), ChatPost))
        wait = await self.chat_limiter.allow(f"{deal_id}:watch:{account.id}")
        if wait is not None:
            raise BudgetSpent("DS-46", f"too many chat messages from this account; wait {wait} s", wait)
        message = WatcherMessage(name=account.name, text=text, at=int(time.time() * 1000), phrase=phrase)
        await self.watch_chat.add(deal_id, message)
        return json_response(message, status=201)

    async def read_watch_chat(self, request: web.Request) -> web.Response:
        """The spectators' room, oldest first: for anyone, while the deal has one."""
        deal_id = request.match_info["deal_id"]
        await self._watch_room(deal_id)
        return json_response(WatcherLog(messages=await self.watch_chat.watcher_messages(deal_id)))

    async def stream_ticket(self, request: web.Request) -> web.Response:
        """A single-use ticket for one stream of the token's seat (``?ticket=``)."""
        deal_id = request.match_info["deal_id"]
        seat = await self.deals.seats.authenticate(deal_id, bearer(request))
        ticket = await self.tickets.issue(deal_id, seat)
        return json_response(StreamTicket(ticket=ticket, expires_in=self.tickets.ttl_s))

    async def stream(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events for the ticket's or token's seat, or a spectator without one
        (``service.app.live.streams``): the backlog after ``Last-Event-ID`` / ``?after=``, then live.
        ``?ticket=`` (single use) is what clients send; ``?token=`` is deprecated: URLs reach logs."""
        deal_id = request.match_info["deal_id"]
        after, seen_tag = resume_param(request)  # before a ticket is used up on a bad request
        ticket = request.query.get("ticket")
        if ticket is not None:
            viewer = Viewer.of_seat(await self.tickets.redeem(deal_id, ticket))
        else:
            viewer = await self._viewer(request, deal_id, anonymous=SPECTATOR)
        live = await self.live.open(
            deal_id, viewer, after, transport_alive(request), aborter(request), seen_tag,
            owner=self.client_address.of(request),  # a spectator's share of the streams (DS-31)
        )  # fmt: skip
        after_end = self.follow_after(request, deal_id, viewer.seat)  # a seat waits for the next deal
        return await sse.relay(request, live, self.keepalive, after_end)

    async def replay(self, request: web.Request) -> web.Response:
        deal_id = request.match_info["deal_id"]
        step = whole(request, "step", None, 0, 2**53)
        viewer = await self._viewer(request, deal_id)
        frame = await self.reads.replay(deal_id, viewer, step, request.query.get("perspective"))
        return json_response(frame)

    async def log(self, request: web.Request) -> web.StreamResponse:
        deal_id = request.match_info["deal_id"]
        body = await self.reads.log(deal_id, await self._viewer(request, deal_id))
        return web.Response(
            body=body,
            content_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{deal_id}.jsonl"'},
        )

    async def audit(self, request: web.Request) -> web.Response:
        deal_id = request.match_info["deal_id"]
        return json_response(await self.reads.audit(deal_id, await self._viewer(request, deal_id)))

    async def coach(self, request: web.Request) -> web.Response:
        """The coach's advice for the token's seat, from its own view (deals that allow it)."""
        deal_id = request.match_info["deal_id"]
        token = bearer(request)
        if token is None:
            raise RuleViolation("DS-8", "the coach answers a seat token (Authorization: Bearer …)")
        return json_response(await self.reads.coach(deal_id, await self.reads.viewer(deal_id, token)))

    async def start_review(self, request: web.Request) -> web.Response:
        """Start the review of a finished deal's seat: 202 with its progress (200 once done).
        A new review counts against its address (DS-29), its deal (DS-29) and the queue (DS-30)."""
        deal_id = request.match_info["deal_id"]
        body = parse(await read_body(request), ReviewRequest)
        await self.deals.load(deal_id)  # a log that does not replay is refused before any work (DS-24)
        await self.reads.may_review(deal_id)  # DS-47: a sealed board is reviewed once its round ends
        client = self.client_address.of(request)

        async def admit() -> int | None:
            return await self.review_limiter.allow(client)

        try:
            state = await self.reviews.start(deal_id, body.seat, body.seed, admit=admit)
        except ReviewRefused as exc:
            from service.http.problems import problem, status_for

            answer = problem(status_for(exc.rule), exc.message, exc.rule)
            answer.headers["Retry-After"] = str(exc.retry_after)
            return answer
        return json_response(state, status=200 if state.get("status") == "done" else 202)

    async def reviews_made(self, request: web.Request) -> web.Response:
        """The seats with a review for ``seed``: the replay page asks for a review only when one
        exists (a request for one never started answers 404)."""
        deal_id = request.match_info["deal_id"]
        seed = whole(request, "seed", 0, 0, 2**31)
        folded = await self.deals.load(deal_id)  # 404 for an unknown deal
        seats = await self.reviews.seats_reviewed(deal_id, len(folded.seats), seed)
        return json_response(ReviewedSeats(seed=seed, seats=seats))

    async def review(self, request: web.Request) -> web.Response:
        """A review's progress, or the review once done (404 if none was started)."""
        deal_id = request.match_info["deal_id"]
        seat = whole(request, "seat", None, 0, 7, source=request.match_info)
        seed = whole(request, "seed", 0, 0, 2**31)
        await self.deals.load(deal_id)  # 404 for an unknown deal
        await self.reads.may_review(deal_id)  # DS-47: a sealed board's reviews open with its round
        state = await self.reviews.read(deal_id, seat, seed)  # an orphan is started again
        if state is None:
            raise RuleViolation("DS-7", f"no review of seat {seat} (seed {seed}) was started; POST one")
        return json_response(state)

    async def openapi(self, request: web.Request) -> web.Response:
        return json_response(openapi_document())

    async def index(self, request: web.Request) -> web.StreamResponse:
        index = WEB_ROOT / "index.html"
        if index.exists():
            return web.FileResponse(index)
        return web.Response(text="dealstream API: see /openapi.json\n")


# The web client talks to this server only; the header says so even where the meta tag is not read.
_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; frame-ancestors 'none'"
)


async def _page_headers(request: web.Request, response: web.StreamResponse) -> None:
    if request.path == "/" or request.path.startswith("/web/"):
        response.headers["Content-Security-Policy"] = _CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        # static files change only with a new release; revalidate instead of trusting a stale copy
        response.headers["Cache-Control"] = "no-cache"
        if request.path == "/web/sw.js":  # the service worker keeps the shell of the whole site
            response.headers["Service-Worker-Allowed"] = "/"
        elif request.path.endswith(".webmanifest"):  # whatever the host's MIME table says
            response.headers["Content-Type"] = "application/manifest+json"


def build_app(
    api: Api,
    *,
    keeper: ClockKeeper,
    chat_relay: ChatRelay,
    bot_supervisor_s: float = 2.0,
) -> web.Application:
    """The application: ``api``'s handlers mounted as the route table lists them, the web
    client's files, and the hooks that start and stop the background loops (the bot sweep every
    ``bot_supervisor_s``, the clock ``keeper``, the matches' sweep, the ``chat_relay``). Every
    part is made by ``service.bootstrap``."""
    from service.http import parse_errors

    parse_errors.install()
    deals, hub, reviews, matches = api.deals, api.hub, api.reviews, api.matches
    from service.http.problems import problem_middleware

    app = web.Application(client_max_size=MAX_BODY, middlewares=[problem_middleware, origin_guard])
    app.on_response_prepare.append(_page_headers)
    r = app.router
    for route in ROUTES:  # in the table's order: aiohttp tries a prefix's routes in that order
        handler = getattr(api, route.handler)
        if route.method == "GET":
            r.add_get(route.path, handler)  # with its HEAD, as aiohttp mounts a GET
        else:
            r.add_route(route.method, route.path, handler)
    if WEB_ROOT.is_dir():
        r.add_static("/web/", WEB_ROOT)
    background: list[asyncio.Task] = []

    async def on_startup(app: web.Application) -> None:
        await hub.wait_connected()
        background.append(asyncio.create_task(deals.bots.supervise(bot_supervisor_s)))
        background.append(asyncio.create_task(keeper.run()))
        background.append(asyncio.create_task(matches.run()))
        background.append(asyncio.create_task(api.tournaments.run(), name="tournaments"))
        background.append(asyncio.create_task(chat_relay.run(), name="chat-relay"))

    async def on_shutdown(app: web.Application) -> None:
        # live streams wait on their queues; end them now instead of after the shutdown timeout
        chat_relay.close()
        await hub.close()

    async def on_cleanup(app: web.Application) -> None:
        # their loops end at their next turn even if a cancellation is lost (Python 3.11's
        # timeouts can swallow one that comes as a socket read times out)
        api.tournaments.stop()
        matches.stop()
        for task in background:
            task.cancel()
        # bounded: a background loop that does not stop (a client that swallowed its
        # cancellation) must not hold the shutdown for ever
        _done, stuck = await asyncio.wait(background, timeout=STOP_BACKGROUND_S) if background else ((), ())
        for task in stuck:
            log.warning("background task %s did not stop within %.0f s", task.get_name(), STOP_BACKGROUND_S)
        await keeper.close()
        await matches.close()
        api.tournaments.close()
        await reviews.close()
        await deals.close()

    app[HUB] = hub
    app[CHAT_RELAY] = chat_relay
    app[BACKGROUND] = background
    app[REVIEWS] = reviews
    app[CLOCKS] = keeper
    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    app.on_cleanup.append(on_cleanup)
    return app
