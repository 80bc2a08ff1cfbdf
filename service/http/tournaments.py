"""The tournament routes (docs/api.md, tournaments): mixed into ``Api``; their table entries
come from ``tournament_routes``, which the route table adds to its own."""

from __future__ import annotations

from typing import Any, Literal

import msgspec
from aiohttp import web

from service.app.tournaments import TournamentService
from service.http.request import bearer, json_response, parse, read_body


class CreateTournament(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A tournament (TN-1.1). ``players``: account names and house bots (``bot:greedy``,
    ``bot:strong``, ``bot:random``, each listed once per bot); none: open entries, closed by the
    arbiter's start. ``clock``: TB-2.1's, for the tables' people. ``fill_with_bots``: house greedy
    fillers for a count that does not fill the tables (TN-1.2), which never rank."""

    game: str
    rounds: int
    format: Literal["swiss", "duplicate"] = "swiss"
    deals_per_round: int = 1
    players: list[str] = []
    pace: str = "normal"
    clock: dict[str, int] | None = None
    fill_with_bots: bool = False
    name: str = ""


class CreatedTournament(msgspec.Struct):
    """The arbiter's token is answered once, here; the service keeps only its digest."""

    tournament_id: str
    arbiter_token: str


class EntryRequest(msgspec.Struct, forbid_unknown_fields=True):
    """``client_seed``: mixed into every round seed as its digest (TN-2.1); default: a random one."""

    client_seed: str | None = None


class RulingRequest(msgspec.Struct, forbid_unknown_fields=True):
    """TN-4.1: ``points`` added to (or, negative, taken from) the player's score."""

    player: str
    points: int
    reason: str
    rule: str
    deal_id: str = ""


class WithdrawalRequest(msgspec.Struct, forbid_unknown_fields=True):
    player: str


class TournamentHandlers:
    """The handlers (``Api`` is handed ``tournaments``)."""

    tournaments: TournamentService
    matches: Any
    accounts: Any
    _account: Any  # AccountHandlers': the signed-in account or DS-34
    signed_in: Any  # AccountHandlers': the signed-in account or None
    _budgeted: Any  # Api's: a creation within the address's budget (DS-11)

    async def create_tournament(self, request: web.Request) -> web.Response:
        body = parse(await read_body(request), CreateTournament)
        # its tables are deals: made within the address's budget for new deals (DS-11)
        created = await self._budgeted(request, lambda: self.tournaments.create(msgspec.to_builtins(body)))
        return json_response(created, status=201)

    async def tournament(self, request: web.Request) -> web.Response:
        return json_response(await self.tournaments.view(request.match_info["tournament_id"]))

    async def enter_tournament(self, request: web.Request) -> web.Response:
        account = await self._account(request)
        raw = await read_body(request)
        body = parse(raw, EntryRequest) if raw.strip() else EntryRequest()
        entered = await self.tournaments.enter(
            request.match_info["tournament_id"], account.name, body.client_seed
        )
        return json_response(entered, status=201)

    async def start_tournament(self, request: web.Request) -> web.Response:
        return json_response(
            await self.tournaments.start(request.match_info["tournament_id"], bearer(request))
        )

    async def tournament_ruling(self, request: web.Request) -> web.Response:
        tournament_id, token = request.match_info["tournament_id"], bearer(request)
        await self.tournaments.check_arbiter(tournament_id, token)  # 401 before the body is read
        body = parse(await read_body(request), RulingRequest)
        made = await self.tournaments.ruling(tournament_id, token, msgspec.to_builtins(body))
        return json_response(made, status=201)

    async def tournament_withdrawal(self, request: web.Request) -> web.Response:
        body = parse(await read_body(request), WithdrawalRequest)
        token = bearer(request)
        account = None if token is not None else await self.signed_in(request)
        done = await self.tournaments.withdraw(
            request.match_info["tournament_id"], body.player, token, account.name if account else None
        )
        return json_response(done, status=201)

    async def tournament_arbiter(self, request: web.Request) -> web.Response:
        return json_response(
            await self.tournaments.arbiter_deals(request.match_info["tournament_id"], bearer(request))
        )

    async def tournament_seat(self, request: web.Request) -> web.Response:
        account = await self._account(request)
        return json_response(
            await self.tournaments.seat_of(request.match_info["tournament_id"], account.name)
        )


def tournament_routes(route: Any, answer: Any, path_param: Any) -> tuple[Any, ...]:
    """The route table's entries (its ``Route``, ``Answer`` and ``path_param`` handed in, so this
    module needs nothing from the table that imports it)."""
    tid = (path_param("tournament_id"),)
    return (
        route(
            "POST", "/tournaments", "create_tournament",
            "create a tournament (TN-1): answers its id and the arbiter's token (given only here)",
            (answer(201, CreatedTournament),), request=CreateTournament,
            errors=("DS-5", "DS-10", "DS-1", "DS-11", "TN-1.1", "TN-1.2", "TB-2.1", "DS-12"),
        ),
        route(
            "GET", "/tournaments/{tournament_id}", "tournament",
            "a tournament's rounds, tables, standings (TN-3), rulings and, in duplicate, the house table",
            (answer(200),), parameters=tid, errors=("DS-55", "DS-12"),
        ),
        route(
            "POST", "/tournaments/{tournament_id}/entries", "enter_tournament",
            "the signed-in account enters a tournament with open entries (again: the same entry)",
            (answer(201),), request=EntryRequest, parameters=tid, request_required=False,
            errors=("DS-5", "DS-10", "DS-34", "DS-39", "DS-55", "DS-57", "TN-1.2", "DS-12"),
        ),
        route(
            "POST", "/tournaments/{tournament_id}/start", "start_tournament",
            "the arbiter (Bearer arbiter token) closes the entries; round 1 is paired and played",
            (answer(200),), parameters=tid, request_required=False,
            errors=("DS-8", "DS-55", "DS-56", "TN-1.2", "DS-12"),
        ),
        route(
            "POST", "/tournaments/{tournament_id}/rulings", "tournament_ruling",
            "the arbiter's ruling (TN-4): points for a player, with its reason, rule and deal",
            (answer(201),), request=RulingRequest, parameters=tid,
            errors=("DS-5", "DS-8", "DS-10", "DS-55", "DS-56", "DS-57", "TN-4.1", "DS-12"),
        ),
        route(
            "POST", "/tournaments/{tournament_id}/withdrawals", "tournament_withdrawal",
            "a player withdraws (TN-1.4): the signed-in account itself, or anyone by the arbiter",
            (answer(201),), request=WithdrawalRequest, parameters=tid,
            errors=("DS-5", "DS-8", "DS-10", "DS-39", "DS-55", "DS-56", "DS-57", "TN-1.4", "DS-12"),
        ),
        route(
            "GET", "/tournaments/{tournament_id}/arbiter", "tournament_arbiter",
            "the arbiter's read (Bearer arbiter token): every finished deal with its claim-window report",
            (answer(200),), parameters=tid, errors=("DS-8", "DS-55", "DS-56", "DS-12"),
        ),
        route(
            "GET", "/tournaments/{tournament_id}/my-table", "tournament_seat",
            "where the signed-in account sits in the round in play (then POST /deals/{id}/my-seat)",
            (answer(200),), parameters=tid, errors=("DS-34", "DS-55", "DS-12"),
        ),
    )  # fmt: skip
