"""HTTP handlers for people who play together again: the seat stream's wait for the deal that
follows (``service.app.follow``), accounts carried into a rematch, and quick play (``/seeks``).
``PeopleHandlers`` is mixed into ``Api`` beside ``AccountHandlers``; its methods are the handlers
``route_table`` names."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from domain.errors import RuleViolation
from domain.table.seating import PERSON
from service.app.follow import FollowOn
from service.app.seeks import QuickPlay, SeekMade, SeekRequest
from service.http.request import json_response, parse, read_body, transport_alive


class PeopleHandlers:
    """Quick play and the seat streams' wait for the next deal (``Api`` is handed both)."""

    deals: Any
    accounts: Any
    hub: Any
    signed_in: Any
    _account: Any
    matches: Any

    follow: FollowOn
    quick: QuickPlay

    def follow_after(
        self, request: web.Request, deal_id: str, seat: int | None
    ) -> Callable[[], Awaitable[tuple[str, bytes] | None]] | None:
        """What a seat's stream waits for after the deal's end (nothing for a spectator's)."""
        if seat is None:
            return None
        alive = transport_alive(request)
        return lambda: self.follow.wait(deal_id, seat, alive)

    async def carry_accounts(self, old: str, new: str) -> None:
        """Every account that held a person seat of ``old`` holds the same seat of ``new``."""
        kinds = (await self.deals.load(old)).state.seating.kinds
        await self.accounts.carry_seats(old, new, [s for s, kind in enumerate(kinds) if kind == PERSON])

    # rated tables of several accounts ---------------------------------------------------
    async def _rated(self, deal_id: str) -> tuple[Any, list[str] | None]:
        """The deal and its rated players: its own, or its rated match's (a match's deal)."""
        folded = await self.deals.load(deal_id)
        rated = getattr(folded.events[0], "rated", None)
        match = getattr(folded.events[0], "match", None)
        if not rated and match is not None:
            state, _version = await self.matches.log.state(match.match_id)
            rated = state.created.rated if state.created is not None else None
        return folded, rated

    async def rated_joiner(self, request: web.Request, deal_id: str, name: Any) -> Any:
        """The seat name a join records: at a rated deal the signed-in account's name (the
        rated player the ratings read from the log), DS-34 without a session and DS-41 for an
        account that sits at the table already; elsewhere the name sent."""
        from service.http.accounts import COOKIE

        folded, rated = await self._rated(deal_id)
        if not rated:
            return name
        account = await self.signed_in(request) if COOKIE in request.cookies else None
        if account is None:
            raise RuleViolation("DS-34", "a rated table's open seats are for signed-in accounts: sign in")
        if account.name in rated or account.name in folded.state.seating.names:
            raise RuleViolation("DS-41", "a rated deal seats each player once: this account sits here")
        return account.name

    async def rated_fill(self, deal_id: str, kind: str) -> None:
        """At a rated deal an open seat takes a house bot not at the table yet (DS-41)."""
        from projections.ratings import RATED_BOTS

        folded, rated = await self._rated(deal_id)
        if rated and (kind not in RATED_BOTS or kind in rated or kind in folded.state.seating.kinds):
            raise RuleViolation("DS-41", "a rated deal's open seat takes a house bot of a level not there")

    # quick play ---------------------------------------------------------------------------
    async def seek_create(self, request: web.Request) -> web.Response:
        """Ask for a table of ``game`` (signed in): 201 with the seek's id."""
        account = await self._account(request)  # DS-34 (401) before the body is read
        body = parse(await read_body(request), SeekRequest)
        return json_response(SeekMade(seek_id=await self.quick.seek(account, body)), status=201)

    async def seek_read(self, request: web.Request) -> web.Response:
        """The seek's state for its own account (404 to any other): waiting, or seated with a
        new token of the seat. Reading it is what keeps it alive."""
        account = await self._account(request)
        return json_response(await self.quick.read(account, request.match_info["seek_id"]))

    async def seek_delete(self, request: web.Request) -> web.Response:
        """The person leaves the queue: 204; the seek is gone."""
        account = await self._account(request)
        await self.quick.leave(account, request.match_info["seek_id"])
        return web.Response(status=204)
