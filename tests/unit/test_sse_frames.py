"""A stream message framed as bytes at once is what aiohttp-sse's own ``send`` writes."""

from __future__ import annotations

import pytest
from aiohttp_sse import EventSourceResponse

from service.http.sse import RETRY_MS, frame


class Written(EventSourceResponse):
    """aiohttp-sse's ``send``, its bytes kept instead of written to a client."""

    def __init__(self) -> None:
        super().__init__(send_timeout=None)
        self.buffer = bytearray()

    async def write(self, data: bytes) -> None:  # type: ignore[override]
        self.buffer += data


CASES = [
    (
        b'{"version": 3, "event": {"type": "TileDiscarded", "seat": 1, "tile": "5m"}}',
        "3.0a1b2c3d",
        "deal-event",
    ),
    (b'{"seat": null, "hand": []}', 12, "view"),
    (b'{"version": 40}', None, "deal-over"),
    (b'{"version": 7}', None, "retry"),
    (b'{"version": 0}', None, "reset"),
    ('{"name": "\u5f20\u4e09"}'.encode(), "1.ffffffff", "deal-event"),  # text beyond ASCII
    (b"one\ntwo\r\nthree\rfour", "2.00000000", "view"),  # every kind of line end
    (b"", None, "view"),
]


@pytest.mark.parametrize(("data", "ident", "event"), CASES)
async def test_a_frame_is_what_aiohttp_sse_writes(data, ident, event):
    sent = Written()
    retry = RETRY_MS if event == "retry" else None
    await sent.send(data.decode(), id=None if ident is None else str(ident), event=event, retry=retry)
    assert frame(data, ident, event) == bytes(sent.buffer)
