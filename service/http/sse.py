"""Server-sent events on the wire: a live stream's parts framed by aiohttp-sse and written.

Each part (a batch as one viewer may see it) is framed once, by aiohttp-sse's own ``send``
captured as bytes, and the same bytes go to every subscriber with that viewer, in one write per
subscriber and batch. The response keeps aiohttp-sse's keep-alive comments and its socket send
timeout, so a dead client fails a write.

A client that hung up ends its stream quietly: the failed write is the stream's end, not an
error (raised out of the handler it became an error response aiohttp could not send, whose
exception chain held the stream's frames until the garbage collector found the cycle; at a
thousand tables, one stream ends that way every few seconds).
"""

from __future__ import annotations

from typing import Any

from aiohttp import web
from aiohttp_sse import EventSourceResponse, sse_response

from service.app.live.streams import Live, Part

SEND_TIMEOUT_S = 30  # a client that acknowledges nothing for this long is cut off by the kernel
RETRY_MS = 250  # the ``retry`` message (the service is stopping) sets EventSource's reconnection delay


class _FrameCapture(EventSourceResponse):
    """aiohttp-sse's own ``send`` framing, captured as bytes instead of written."""

    def __init__(self) -> None:
        super().__init__(send_timeout=None)
        self.buffer = bytearray()

    async def write(self, data: bytes) -> None:  # type: ignore[override]
        self.buffer += data


_capture: _FrameCapture | None = None  # one for the process: ``send`` never yields into another frame


async def frame(data: str, ident: int | str | None, event: str) -> bytes:
    global _capture
    if _capture is None:
        _capture = _FrameCapture()
    capture = _capture
    capture.buffer.clear()
    retry = RETRY_MS if event == "retry" else None  # a retry: field, for clients reconnecting alone
    await capture.send(data, id=None if ident is None else str(ident), event=event, retry=retry)
    return bytes(capture.buffer)


async def _framed(part: Part) -> tuple[list[tuple[int, bytes]], bytes]:
    cached = part.encoded.get("sse")
    if cached is None:
        ids = part.ids
        events = [(v, await frame(data, ids.get(v, v), name)) for v, name, data in part.events]
        closing = b"".join(
            [await frame(data, None if v is None else ids.get(v, v), name) for v, name, data in part.closing]
        )
        cached = part.encoded["sse"] = (events, closing)
    return cached


async def relay(request: web.Request, live: Live, keepalive: float) -> web.StreamResponse:
    """Write the live stream to the client until it ends (the deal's end, a reset, the hub
    closing it, or the client hanging up)."""
    try:
        async with sse_response(request, ping_interval=keepalive, send_timeout=SEND_TIMEOUT_S) as resp:
            async for part, position in live.parts():
                events, closing = await _framed(part)
                shown: Any = (
                    events
                    if not events or events[0][0] > position
                    else [e for e in events if e[0] > position]
                )
                try:
                    await resp.write(b"".join(f for _v, f in shown) + closing)
                except ConnectionResetError:  # the client hung up: its stream is over
                    break
    finally:
        live.close()
    return resp
