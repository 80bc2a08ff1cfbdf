"""Who a token or an invite code is: the seat it acts for in one deal.

Only digests are kept (SHA-256 of the token): the creator's seats in the deal's meta hash, a
joined seat's in its ``SeatJoined`` event (TB-1.2), an invite's in the meta hash too, and a
token handed to another device of the seat's account (``POST /deals/{id}/my-seat``) in the meta's
``device:<seat>`` field. Every
comparison is in constant time over all the seats, so the time an answer takes says nothing
about which seat came close. Both the command side (a command acts for its token's seat) and the
read side (a read is shown to its token's seat) ask here; neither holds a token rule of its own.
"""

from __future__ import annotations

import hashlib
import hmac

from domain.errors import RuleViolation
from service.app.lru import LRUCache
from service.app.request_context import note_seat
from service.app.state.folds import DealNotFound, Folds
from service.store.event_store import EventStore

MAX_TOKEN_CHARS = 256
MAX_SEATS = 8  # the seats a table may have, at most (device tokens are looked up for each)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of(digests: dict[int, str], digest: str) -> int | None:
    """The seat whose stored digest is ``digest``; every candidate compared in constant time."""
    seat = None
    for candidate, stored in digests.items():
        if hmac.compare_digest(stored, digest):
            seat = candidate
    return seat


def _well_formed(text: object) -> bool:
    return isinstance(text, str) and text.isascii() and text.isprintable() and len(text) <= MAX_TOKEN_CHARS


class SeatTokens:
    """The seat tokens and invite codes of the deals this process serves.

    The creator's token digests never change once a deal is created, so they are read from the
    meta hash once per deal and kept (dropped when the fold cache forgets the deal); a joined
    seat's digest is read from the deal's fold, which every process folds alike."""

    def __init__(self, store: EventStore, folds: Folds, cache_size: int = 2048) -> None:
        self.store = store
        self.folds = folds
        self._digests: LRUCache[str, dict[int, str]] = LRUCache(cache_size)
        folds.on_forget.append(self._digests.pop)

    def remember(self, deal_id: str, digests: dict[int, str]) -> None:
        """The creator's seat digests of a deal just created (its first command reads no meta)."""
        self._digests.put(deal_id, dict(digests))

    async def authenticate(self, deal_id: str, token: str | None) -> int:
        """The seat this token acts for (DS-8 for a missing, malformed or unknown token)."""
        if not token:
            raise RuleViolation("DS-8", "this needs a seat token (Authorization: Bearer …)")
        if not _well_formed(token):
            raise RuleViolation("DS-8", "a seat token is at most 256 printable ASCII characters")
        digests = self._digests.get(deal_id)
        if digests is None:
            meta = await self.store.reader.get_meta(deal_id)
            if "game" not in meta:
                raise DealNotFound(deal_id)
            digests = {int(k.split(":", 1)[1]): v for k, v in meta.items() if k.startswith("token:")}
            self._digests.put(deal_id, digests)
        digest = token_digest(token)
        seat = seat_of(digests, digest)
        if seat is None:
            # a seat someone joined: its digest is in the log (SeatJoined), read by every process
            joined = (await self.folds.load(deal_id)).state.seating.token_digests
            seat = seat_of({i: d for i, d in enumerate(joined) if d}, digest)
        if seat is None:
            seat = await self._device_seat(deal_id, digest)
        if seat is None:
            raise RuleViolation("DS-8", "this token is not a seat of this deal")
        note_seat(seat)  # the request's log lines name the seat, never the token
        return seat

    async def _device_seat(self, deal_id: str, digest: str) -> int | None:
        """A seat's token handed to another device of its account (``device:<seat>`` in the
        meta, comma-separated digests; ``service.app.accounts``). Read at every use, never
        cached: a token dropped from the list (the seat keeps the newest few) ends at once, in
        every process. Only a token that is none of the seats' own gets here."""
        fields = [f"device:{seat}" for seat in range(MAX_SEATS)]
        held = await self.store.redis.hmget(self.store.keys.meta(deal_id), fields)
        found = None
        for seat, value in enumerate(held):
            for stored in (value.decode() if isinstance(value, bytes) else value or "").split(","):
                if stored and hmac.compare_digest(stored, digest):
                    found = seat
        return found

    async def seat_or_none(self, deal_id: str, token: str) -> int | None:
        """The seat of ``token``, None when it is no seat of this deal."""
        try:
            return await self.authenticate(deal_id, token)
        except RuleViolation:
            return None

    async def invited_seat(self, deal_id: str, code: object) -> int:
        """The open seat an invite code opens (TB-1.2; DS-19 for any other code)."""
        if not _well_formed(code):
            raise RuleViolation("DS-19", "an invite code is at most 256 printable ASCII characters")
        assert isinstance(code, str)
        meta = await self.store.reader.get_meta(deal_id)
        invites = {int(k.split(":", 1)[1]): v for k, v in meta.items() if k.startswith("invite:")}
        seat = seat_of(invites, token_digest(code))
        if seat is None:
            raise RuleViolation("DS-19", "this invite is not one of this deal's")
        return seat
