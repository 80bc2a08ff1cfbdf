"""HTTP handlers for people who play together again: the seat stream's wait for the deal that
follows (``service.app.follow``), accounts carried into a rematch, and quick play (``/seeks``).
``PeopleHandlers`` is mixed into ``Api`` beside ``AccountHandlers``; its methods are the handlers
``route_table`` names."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from domain.table.seating import PERSON
from service.app.follow import FollowOn
from service.http.request import transport_alive


class PeopleHandlers:
    """Set up by ``_people_init`` (after ``_accounts_init``)."""

    deals: Any
    accounts: Any
    hub: Any

    def _people_init(self) -> None:
        self.follow = FollowOn(self.deals, self.accounts.hand_seat, lambda: bool(self.hub.closing))

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
