"""The request a piece of work runs for, for the logs: its id, route template, deal
and seat.

The HTTP middleware (``service.http.observe``) sets a ``RequestContext`` for each request; the
JSON log formatter (``service.logs_format``) adds its fields to every line logged while it is
set. ``note_seat`` is called where a seat token is found to be a seat (``SeatTokens``), so a
request's lines name the seat that made it, never its token. A task started by a request (a
bot's moves after a person's command) inherits the context: its lines carry the id of the request
that started it.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass


@dataclass
class RequestContext:
    request_id: str
    method: str
    route: str
    deal_id: str | None = None
    seat: int | None = None


current: ContextVar[RequestContext | None] = ContextVar("dealstream_request", default=None)


def note_seat(seat: int) -> None:
    """The request being served acts for ``seat`` (a no-op outside a request)."""
    context = current.get()
    if context is not None:
        context.seat = seat
