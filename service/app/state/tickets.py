"""Stream tickets: a short-lived, single-use stand-in for a seat token in a URL.

A browser's ``EventSource`` cannot send an ``Authorization`` header, so the seat token once rode
in the stream's URL (``?token=``), where access logs and proxies keep it. Instead the client
asks ``POST /deals/{id}/stream-ticket`` with its token in the header and opens the stream with
``?ticket=``: a random value kept in Redis (only its SHA-256, beside the deal, in its hash tag)
with the seat, for ``TICKET_TTL_S`` seconds, and taken (read and deleted in one transaction) by
the first stream that shows it. A ticket is never accepted twice, after its time, or for
another deal (the deal is part of its key).
"""

from __future__ import annotations

import hashlib
import secrets

from domain.errors import RuleViolation
from service.store.event_store import EventStore

TICKET_TTL_S = 30


class StreamTickets:
    def __init__(self, store: EventStore, ttl_s: int = TICKET_TTL_S) -> None:
        self.store = store
        self.ttl_s = ttl_s

    def _key(self, deal_id: str, ticket: str) -> str:
        digest = hashlib.sha256(ticket.encode()).hexdigest()
        return f"{self.store.prefix}:{{{deal_id}}}:ticket:{digest}"

    async def issue(self, deal_id: str, seat: int) -> str:
        ticket = secrets.token_urlsafe(24)
        await self.store.redis.set(self._key(deal_id, ticket), str(seat), ex=self.ttl_s, nx=True)
        return ticket

    async def redeem(self, deal_id: str, ticket: str) -> int:
        """The seat of a ticket of this deal, which is used up; DS-8 for any other."""
        if not ticket.isascii() or not ticket.isprintable() or len(ticket) > 64:
            raise RuleViolation("DS-8", "this stream ticket is unknown, used already or expired")
        async with self.store.redis.pipeline(transaction=True) as pipe:
            pipe.get(self._key(deal_id, ticket))
            pipe.delete(self._key(deal_id, ticket))
            seat, _ = await pipe.execute()
        if seat is None:
            raise RuleViolation("DS-8", "this stream ticket is unknown, used already or expired")
        return int(seat)
