"""The HTTP side of accounts (``service.app.accounts``): sign-up, sign-in, sessions, device codes,
the account's seats, and the guard against other origins.

The session travels in the ``ds_session`` cookie: HttpOnly, SameSite=Lax, Path=/, and Secure
when the request came over https (the connection's own TLS, or ``X-Forwarded-Proto: https`` from
a proxy named by ``--trusted-proxy``). A POST or DELETE that carries the cookie and names another
origin in ``Origin`` is refused (403 DS-39) before any handler runs. ``AccountHandlers`` is mixed
into the ``Api`` class; its methods are the handlers ``route_table`` names.
"""

from __future__ import annotations

import ipaddress
import time
from typing import Any
from urllib.parse import urlsplit

import msgspec
from aiohttp import web

from domain.errors import RuleViolation
from service.app.accounts import DEVICE_CODE_S, SESSION_S, Account, Accounts
from service.http.request import json_response, parse, read_body
from service.store.player_index import MAX_ROWS, member

COOKIE = "ds_session"
SIGNIN_LIMIT = 30  # sign-ins (and sign-ups) per address per SIGNIN_WINDOW_S
ACCOUNT_SIGNIN_LIMIT = 10  # sign-ins naming one account per SIGNIN_WINDOW_S
SIGNIN_WINDOW_S = 60.0


class SignInsSpent(RuleViolation):
    """A sign-in budget is spent: 429 with ``Retry-After: retry_after`` (whole seconds)."""

    def __init__(self, rule_id: str, message: str, retry_after: int) -> None:
        super().__init__(rule_id, message)
        self.retry_after = retry_after


class SignUp(msgspec.Struct, forbid_unknown_fields=True):
    name: Any = None
    password: Any = None


class SignIn(msgspec.Struct, forbid_unknown_fields=True):
    """Either ``name`` and ``password``, or ``device_code``."""

    name: Any = None
    password: Any = None
    device_code: Any = None


class SignedIn(msgspec.Struct):
    """The account's name; the session is in the ``ds_session`` cookie, never in a body."""

    name: str


class Me(msgspec.Struct):
    """The signed-in account: its name and, per game, its rating (empty until ratings exist)."""

    name: str
    ratings: dict[str, dict[str, float]]


class RatingRow(msgspec.Struct):
    """One player's rating in a game: ``rating`` is ``mu - 3 * sigma`` (what is shown);
    ``provisional`` while ``sigma`` is above 3 (the rating has not settled yet)."""

    name: str
    rating: float
    mu: float
    sigma: float
    games: int
    provisional: bool


class Leaderboard(msgspec.Struct):
    """A game's rated players, the best rating first (equal ratings by name)."""

    game: str
    players: list[RatingRow]


class HistoryRow(msgspec.Struct, omit_defaults=True):
    """The rating after one rated result, recorded at ``at``."""

    rating: float
    at: str
    deal_id: str | None = None
    match_id: str | None = None


class Profile(msgspec.Struct):
    """A rated player's public profile: per game its rating and the rating after each result."""

    name: str
    ratings: dict[str, RatingRow]
    history: dict[str, list[HistoryRow]]


def _row(name: str, rated: Any) -> RatingRow:
    from projections.ratings import SETTLED_SIGMA

    return RatingRow(name, rated.rating, rated.mu, rated.sigma, rated.games, rated.sigma > SETTLED_SIGMA)


class DeviceCode(msgspec.Struct):
    """A code another device signs in with once (``POST /sessions`` ``{"device_code"}``)."""

    device_code: str
    expires_in: int


class MySeat(msgspec.Struct):
    """The account's seat of the deal and a token of it for this device."""

    seat: int
    token: str


def _over_https(request: web.Request, client_address: Any) -> bool:
    if request.secure:
        return True
    try:
        peer = ipaddress.ip_address((request.remote or "").split("%")[0])
    except ValueError:
        return False
    if not client_address.networks or not client_address.trusts(peer):
        return False
    proto = request.headers.get("X-Forwarded-Proto", "").split(",")[0].strip().lower()
    return proto == "https"


def _hostname(netloc: str) -> str | None:
    try:
        return urlsplit("//" + netloc).hostname
    except ValueError:
        return None


def _other_origin(request: web.Request) -> bool:
    """Whether ``Origin`` names another host than the one the request was sent to. Ports are not
    compared: a proxy's ``Host`` often drops the port the browser used, and pages of one host on
    two ports share its cookies anyway. ``Origin: null`` (a sandboxed or file page) is another."""
    origin = request.headers.get("Origin")
    if origin is None:
        return False  # not a browser's cross-origin request (a browser names the origin of a POST)
    try:
        theirs = urlsplit(origin).hostname
    except ValueError:
        return True
    ours = _hostname(request.host)
    return theirs is None or ours is None or theirs != ours


# the routes the session cookie acts in: the account's own, and those that list a seat under it
COOKIE_ROUTES = frozenset(
    {
        ("POST", "/accounts"), ("POST", "/sessions"), ("DELETE", "/sessions/current"),
        ("DELETE", "/sessions"), ("DELETE", "/accounts/me"), ("POST", "/accounts/me/device-codes"),
        ("POST", "/deals/{deal_id}/my-seat"), ("POST", "/deals"), ("POST", "/matches"),
        ("POST", "/deals/{deal_id}/join"), ("POST", "/deals/{deal_id}/rematch"),
        ("POST", "/seeks"), ("DELETE", "/seeks/{seek_id}"), ("POST", "/deals/{deal_id}/watchers/chat"),
        ("POST", "/tournaments/{tournament_id}/entries"),
        ("POST", "/tournaments/{tournament_id}/withdrawals"),
    }
)  # fmt: skip


def _route_of(request: web.Request) -> tuple[str, str]:
    resource = request.match_info.route.resource
    return request.method, resource.canonical if resource is not None else request.path


@web.middleware
async def origin_guard(request: web.Request, handler: Any) -> web.StreamResponse:
    """A POST or DELETE of a route the session cookie acts in (``COOKIE_ROUTES``), sent with the
    cookie from a page of another origin: 403 DS-39, before anything is read or written."""
    if (
        COOKIE in request.cookies
        and request.method in ("POST", "DELETE")
        and _route_of(request) in COOKIE_ROUTES
        and _other_origin(request)
    ):
        raise RuleViolation("DS-39", "a signed-in request from a page of another origin is refused")
    return await handler(request)


class AccountHandlers:
    """The account routes' handlers (mixed into ``Api``, which sets ``accounts`` and the
    sign-in limiters it is handed)."""

    accounts: Accounts
    client_address: Any
    reads: Any
    deals: Any

    signin_limiter: Any
    account_signin_limiter: Any

    async def _throttle(self, limiter: Any, client: str) -> None:
        wait = await limiter.allow(client)
        if wait is not None:
            raise SignInsSpent("DS-38", f"too many sign-ins; retry in {wait} s", wait)

    async def signed_in(self, request: web.Request) -> Account | None:
        return await self.accounts.of_session(request.cookies.get(COOKIE))

    async def _account(self, request: web.Request) -> Account:
        account = await self.signed_in(request)
        if account is None:
            raise RuleViolation("DS-34", "this needs a signed-in session (the ds_session cookie)")
        return account

    def _with_session(self, request: web.Request, answer: web.Response, session: str) -> web.Response:
        answer.set_cookie(
            COOKIE, session, max_age=SESSION_S, path="/", httponly=True, samesite="Lax",
            secure=_over_https(request, self.client_address),
        )  # fmt: skip
        return answer

    async def _carried_key(self, request: web.Request) -> str | None:
        """The digest of an ``X-Player-Key`` sent with a sign-up or sign-in (DS-26 if bad)."""
        key = request.headers.get("X-Player-Key")
        return None if key is None else await self.reads.players.digest(key)

    async def _take_over(self, account: Account, digest: str | None) -> None:
        if digest is None:
            return
        rows = await self.reads.players.rows(digest, None, MAX_ROWS)
        await self.accounts.take_over(account, [(member(r.kind, r.id, r.seat), r.created_ms) for r in rows])

    async def rated_by(self, request: web.Request) -> str:
        """The name of the signed-in account creating a rated table (DS-41 without one)."""
        account = await self.signed_in(request) if COOKIE in request.cookies else None
        if account is None:
            raise RuleViolation("DS-41", "a rated table's person seat is a signed-in account's (ds_session)")
        return str(account.name)

    async def account_seats(self, request: web.Request, kind: str, id_: str, seats: list[int]) -> None:
        """List seats just taken under the signed-in account (nothing without one)."""
        if COOKIE not in request.cookies or not seats:
            return
        account = await self.signed_in(request)
        if account is None:
            return
        created_ms = int(time.time() * 1000)
        rows = [(member(kind, id_, seat), created_ms) for seat in seats]
        await self.accounts.take_over(account, rows)  # type: ignore[arg-type]
        if kind == "deal":  # whose seat it is: Play again lists the next deal under the same account
            await self.accounts.mark_seats(id_, seats, account)
            match = getattr((await self.deals.load(id_)).events[0], "match", None)
            if match is not None:  # a seat joined in a match's deal: the match's later deals too
                more = [(member("match", match.match_id, seat), created_ms) for seat in seats]
                await self.accounts.take_over(account, more)  # type: ignore[arg-type]

    # handlers -------------------------------------------------------------------------
    async def sign_up(self, request: web.Request) -> web.Response:
        body = parse(await read_body(request), SignUp)
        carried = await self._carried_key(request)
        await self._throttle(self.signin_limiter, self.client_address.of(request))
        account = await self.accounts.sign_up(body.name, body.password)
        await self._take_over(account, carried)
        session = await self.accounts.new_session(account)
        return self._with_session(request, json_response(SignedIn(name=account.name), status=201), session)

    async def sign_in(self, request: web.Request) -> web.Response:
        body = parse(await read_body(request), SignIn)
        by_code = body.device_code is not None
        if by_code == (body.name is not None or body.password is not None):
            raise RuleViolation("DS-5", "a sign-in sends either name and password, or device_code")
        carried = await self._carried_key(request)
        await self._throttle(self.signin_limiter, self.client_address.of(request))
        if by_code:
            account = await self.accounts.redeem(body.device_code)
        else:
            await self._throttle(self.account_signin_limiter, self.accounts.throttle_key(body.name))
            account = await self.accounts.check_credentials(body.name, body.password)
        await self._take_over(account, carried)
        session = await self.accounts.new_session(account)
        return self._with_session(request, json_response(SignedIn(name=account.name)), session)

    async def sign_out(self, request: web.Request) -> web.Response:
        account = await self._account(request)
        await self.accounts.sign_out(account, request.cookies[COOKIE])
        answer = web.Response(status=204)
        answer.del_cookie(COOKIE, path="/")
        return answer

    async def sign_out_everywhere(self, request: web.Request) -> web.Response:
        account = await self._account(request)
        await self.accounts.sign_out_everywhere(account)
        answer = web.Response(status=204)
        answer.del_cookie(COOKIE, path="/")
        return answer

    async def me(self, request: web.Request) -> web.Response:
        account = await self._account(request)
        ratings: dict[str, dict[str, float]] = {}
        for game in self.deals.ratings.games:
            held = (await self.deals.ratings.ratings(game)).games.get(game, {}).get(account.name)
            if held is not None:
                ratings[game] = {
                    "rating": held.rating,
                    "mu": held.mu,
                    "sigma": held.sigma,
                    "games": held.games,
                }
        answer = json_response(Me(name=account.name, ratings=ratings))
        # the web client asks this on every page: each visit gives the session its 30 days again
        session = request.cookies[COOKIE]
        if await self.accounts.renew(session):
            self._with_session(request, answer, session)
        return answer

    async def leaderboard(self, request: web.Request) -> web.Response:
        game = request.match_info["game"]
        if game not in self.deals.ratings.games:
            raise RuleViolation("DS-42", f"no ratings of a game {game!r}")
        players = (await self.deals.ratings.ratings(game)).games.get(game, {})
        rows = sorted((_row(n, r) for n, r in players.items()), key=lambda row: (-row.rating, row.name))
        return json_response(Leaderboard(game, rows))

    async def profile(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        ratings: dict[str, RatingRow] = {}
        history: dict[str, list[HistoryRow]] = {}
        for game in self.deals.ratings.games:
            folded = await self.deals.ratings.ratings(game)
            held = folded.games.get(game, {}).get(name)
            if held is None:
                continue
            ratings[game] = _row(name, held)
            history[game] = [
                HistoryRow(p.rating, p.at, **{"deal_id" if p.kind == "deal" else "match_id": p.result_id})
                for p in folded.history.get(game, {}).get(name, [])
            ]
        if not ratings:
            raise RuleViolation("DS-42", "no rated player of this name")
        return json_response(Profile(name, ratings, history))

    async def delete_me(self, request: web.Request) -> web.Response:
        account = await self._account(request)
        await self.accounts.delete(account)
        answer = web.Response(status=204)
        answer.del_cookie(COOKIE, path="/")
        return answer

    async def new_device_code(self, request: web.Request) -> web.Response:
        account = await self._account(request)
        code = await self.accounts.device_code(account)
        return json_response(DeviceCode(device_code=code, expires_in=DEVICE_CODE_S), status=201)

    async def my_seat(self, request: web.Request) -> web.Response:
        deal_id = request.match_info["deal_id"]
        account = await self._account(request)
        folded = await self.deals.load(deal_id)  # 404 DS-7 for no such deal
        seat = await self.accounts.seat_in(account, deal_id, len(folded.seats))
        match = getattr(folded.events[0], "match", None)
        if seat is None and match is not None:  # a match's later deal: the same seats (TB-5.2)
            seat = await self.accounts.seat_in(account, match.match_id, len(folded.seats), kind="match")
        if seat is None:
            raise RuleViolation("DS-40", "this account holds no seat of this deal")
        token = await self.accounts.hand_seat(deal_id, seat)
        if token is None:
            raise RuleViolation("DS-6", "this deal is over and archived: its seats take no new token")
        return json_response(MySeat(seat=seat, token=token))
