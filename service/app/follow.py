"""Where a seat goes after its deal: a seat's stream at a table of people outlives the deal's end.

After ``deal-over`` a seat's stream of a deal people joined (``people_table``) stays open and waits
for the deal that follows it: "Play again" (the ``rematched_by`` meta field) or, in a match, the
next deal (``next_deal_id``). Once that deal holds the seat for a person (TB-5.2 carries every
person to the same seat), the stream gets one ``rematch`` message, ``{"deal_id", "seat",
"token"}``, and ends. The token is new and random, made for this stream alone (kept as one of the
seat's device tokens, like ``POST /deals/{id}/my-seat`` hands out): the stream knows its seat, not
the token it was opened with. So a person without an account, whose page holds no token of the new
deal (another device, a stream ticket), still reaches their seat. Spectators' streams end at
``deal-over`` as before, and no other seat's stream hears of this seat's token.

The wait looks at the meta once per ``LOOK_S`` (any process may make the next deal), ends with
the client, after ``LISTEN_S``, or with ``retry`` when the service stops (the client reconnects
elsewhere and waits there). At most ``MAX_WAITING`` streams wait per process; past that a stream
ends at ``deal-over`` as before (a page still finds the new deal by reading the summary).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from domain.table.seating import PERSON

LOOK_S = 1.0
LISTEN_S = 30 * 60.0
SEATED_S = 15.0  # how long a named next deal may take to hold the seat before the wait gives up
MAX_WAITING = 2000


class Rematch(msgspec.Struct):
    """The ``rematch`` message of a seat's stream: the seat's deal now, and a token of it."""

    deal_id: str
    seat: int
    token: str | None


def people_table(folded: Any) -> bool:
    """Whether people other than the creator sat at the deal (joined a seat by invite, from the
    lobby, carried into a rematch, or seated by quick play): its seats' streams wait for what
    follows. A creator's deal of several seats it holds itself is no table of people."""
    return any(type(e).__name__ == "SeatJoined" and e.token_digest for e in folded.events)


class FollowOn:
    """Waits, for one seat's stream, for the deal that follows the seat's finished deal."""

    def __init__(
        self,
        deals: Any,
        hand_seat: Callable[[str, int], Awaitable[str | None]],
        closing: Callable[[], bool],
        look_s: float = LOOK_S,
    ) -> None:
        self.deals = deals
        self.hand_seat = hand_seat
        self.closing = closing
        self.look_s = look_s
        self.waiting = 0

    async def _next(self, deal_id: str) -> str | None:
        store = self.deals.store
        again = await store.reader.meta_field(deal_id, "rematched_by")
        return again or await store.reader.meta_field(deal_id, "next_deal_id")

    async def _holds(self, old: Any, deal_id: str, seat: int) -> bool:
        """Whether the deal follows ``old`` (its rematch, or the next deal of its match) and
        seats a person in ``seat`` (a joined person's seat is open at the creation and taken
        again at once: until then it does not)."""
        try:
            folded = await self.deals.load(deal_id)
        except Exception:  # noqa: BLE001 - not made yet (another process is making it)
            return False
        match, old_match = getattr(folded.events[0], "match", None), getattr(old.events[0], "match", None)
        follows = folded.rematch_of == old.events[0].deal_id or (
            match is not None and old_match is not None and match.match_id == old_match.match_id
        )
        kinds = folded.state.seating.kinds
        return follows and seat < len(kinds) and kinds[seat] == PERSON

    async def wait(self, deal_id: str, seat: int, alive: Callable[[], bool]) -> tuple[str, bytes] | None:
        """``("rematch", message)`` once the next deal holds the seat; ``("retry", b"")`` when the
        service stops; None when nothing follows (not a table of people, the client left, the
        wait's end)."""
        folded = await self.deals.load(deal_id)
        if not folded.over or not people_table(folded) or self.waiting >= MAX_WAITING:
            return None
        self.waiting += 1
        try:
            deadline = time.monotonic() + LISTEN_S
            named_at: float | None = None
            while time.monotonic() < deadline and alive():
                if self.closing():
                    return "retry", b"{}"
                nxt = await self._next(deal_id)
                if nxt is not None:
                    named_at = named_at or time.monotonic()
                    if await self._holds(folded, nxt, seat):
                        token = await self.hand_seat(nxt, seat)
                        return "rematch", msgspec.json.encode(Rematch(nxt, seat, token))
                    if time.monotonic() - named_at > SEATED_S:
                        return None  # the seat was not carried over (DS-15 for its request too)
                await asyncio.sleep(self.look_s if nxt is None else min(self.look_s, 0.1))
            return None
        finally:
            self.waiting -= 1
