"""A live stream whose client hung up ends quietly at its next write (``service.http.sse``).

Served as ``dealstream serve`` serves (``web.run_app``'s runner: a client that hangs up does not
cancel its handler, so the handler meets the hang-up at a write; the test client's server cancels
the handler instead and never gets there). Raised out of the handler, that failed write became an
error response aiohttp could not send, and the two exceptions, with the frames their tracebacks
hold, stayed in memory until the cycle collector ran: at a thousand tables, once every few
seconds. Ended at the write, nothing is left behind.
"""

from __future__ import annotations

import asyncio
import gc
import socket
import struct
from dataclasses import replace

import aiohttp
from aiohttp import web

from service import bootstrap
from tests.e2e.conftest import auth, wait_for


async def test_a_stream_whose_client_hung_up_ends_at_the_next_write_and_leaves_nothing(store):
    app = bootstrap.application(store.redis, replace(bootstrap.TEST_SETTINGS, prefix=store.prefix, dev=True))
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    port = runner.addresses[0][1]
    try:
        async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as http:
            seats = ["human", "bot:greedy", "bot:greedy", "bot:greedy"]
            created = await (await http.post("/deals", json={"game": "mcr", "seats": seats})).json()
            deal_id, token = created["deal_id"], created["tokens"]["0"]
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            path = f"/deals/{deal_id}/events/stream"
            writer.write(f"GET {path} HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            assert head.startswith(b"HTTP/1.1 200") and b"text/event-stream" in head
            await asyncio.wait_for(reader.readuntil(b"data:"), 10)  # the first part: the stream is live
            # hang up at once, with a reset (a closed tab, a phone that lost its network)
            linger = struct.pack("ii", 1, 0)
            writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
            writer.transport.abort()

            async def human_to_act():
                view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(token))).json()
                return view["legal_actions"]

            start = {"command_id": "start", "command": {"type": "StartDeal", "client_seed": "hang-up"}}
            gc.collect()
            gc.disable()  # what the hang-up leaves behind stays where the test can see it
            before = {id(o) for o in gc.get_objects() if isinstance(o, ConnectionError)}
            try:
                started = await http.post(f"/deals/{deal_id}/commands", json=start, headers=auth(token))
                assert started.status == 200
                await wait_for(human_to_act)  # the deal went on: parts the hung-up stream had to write
                await asyncio.sleep(0.3)
                found = [o for o in gc.get_objects() if isinstance(o, ConnectionError)]
                left = [repr(o) for o in found if id(o) not in before]
            finally:
                gc.enable()
            assert not left, left
            assert (await http.get("/health")).status == 200
    finally:
        await runner.cleanup()
