"""Server-sent events on the wire: a live stream's parts framed and written on aiohttp-sse's response.

Each part (a batch as one viewer may see it) is framed once, as bytes, the way aiohttp-sse's
own ``send`` frames a message (a test holds the two to the same bytes), and the same bytes go
to every subscriber with that viewer, in one write per subscriber and batch. The response keeps
aiohttp-sse's keep-alive comments and its socket send timeout, so a dead client fails a write.

A client that hung up ends its stream quietly: the failed write is the stream's end, not an
error (raised out of the handler it became an error response aiohttp could not send, whose
exception chain held the stream's frames until the garbage collector found the cycle; at a
thousand tables, one stream ends that way every few seconds).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from aiohttp_sse import sse_response

from service.app.live.streams import Live, Part

SEND_TIMEOUT_S = 30  # a client that acknowledges nothing for this long is cut off by the kernel
RETRY_MS = 250  # the ``retry`` message (the service is stopping) sets EventSource's reconnection delay


_LINES = re.compile(rb"\r\n|\r|\n")  # what ends a line of a message's data (as aiohttp-sse splits it)
_SEP = b"\r\n"  # aiohttp-sse's line separator


def frame(data: bytes, ident: int | str | None, event: str) -> bytes:
    """One message as aiohttp-sse's ``send`` frames it (``id``, ``event``, a ``data`` line per
    line of ``data``, ``retry`` for a ``retry`` message, a blank line), built as bytes at once:
    the data is the JSON the part holds, never decoded to text and encoded again."""
    out = [] if ident is None else [b"id: ", str(ident).encode(), _SEP]
    out += [b"event: ", event.encode(), _SEP]
    if b"\n" in data or b"\r" in data:
        for chunk in _LINES.split(data):
            out += [b"data: ", chunk, _SEP]
    else:  # one line (JSON as the parts hold it has no line break): no split to make
        out += [b"data: ", data, _SEP]
    if event == "retry":  # a retry: field, for clients reconnecting alone
        out += [b"retry: ", str(RETRY_MS).encode(), _SEP]
    out.append(_SEP)
    return b"".join(out)


def _framed(part: Part) -> tuple[list[tuple[int, bytes]], bytes]:
    cached = part.encoded.get("sse")
    if cached is None:
        ids = part.ids
        events = [(v, frame(data, ids.get(v, v), name)) for v, name, data in part.events]
        closing = b"".join(
            [frame(data, None if v is None else ids.get(v, v), name) for v, name, data in part.closing]
        )
        cached = part.encoded["sse"] = (events, closing)
    return cached


async def relay(
    request: web.Request,
    live: Live,
    keepalive: float,
    after_end: Callable[[], Awaitable[tuple[str, bytes] | None]] | None = None,
) -> web.StreamResponse:
    """Write the live stream to the client until it ends (the deal's end, a reset, the hub
    closing it, or the client hanging up). ``after_end``: what a seat's stream waits for after
    ``deal-over`` (``service.app.follow``), one last message or None; the stream has left the
    hub by then (it counts as no live stream)."""
    ended = False
    left = False

    def leave() -> None:
        nonlocal left
        if not left:
            left = True
            live.close()

    try:
        async with sse_response(request, ping_interval=keepalive, send_timeout=SEND_TIMEOUT_S) as resp:
            async for part, position in live.parts():
                events, closing = _framed(part)
                shown: Any = (
                    events
                    if not events or events[0][0] > position
                    else [e for e in events if e[0] > position]
                )
                try:
                    await resp.write(b"".join(f for _v, f in shown) + closing)
                except ConnectionResetError:  # the client hung up: its stream is over
                    break
                ended = part.over or any(name == "deal-over" for _v, name, _d in part.closing)
            leave()
            last = await after_end() if ended and after_end is not None else None
            if last is not None:
                try:
                    await resp.write(frame(last[1], None, last[0]))
                except ConnectionResetError:
                    pass
    finally:
        leave()
    return resp
