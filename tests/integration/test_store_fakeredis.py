"""The store and log recorder contracts on fakeredis (Lua through lupa), served over TCP by a
fakeredis server in a thread; the race spawns two writer processes against it. Here, not in
tests/unit, for that server and those processes (the race alone took 14 s of one core)."""

from __future__ import annotations

import socket
import threading

import fakeredis
import pytest

from tests.contracts.log_contract import LogRecorderContract
from tests.contracts.store_contract import EventStoreContract


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NoDelayFakeServer(fakeredis.TcpFakeServer):
    """fakeredis writes each reply of a pipeline on its own; without TCP_NODELAY, Nagle holds
    the next one until the client's delayed ACK (40 ms), which made a pipelined race 10x slower.
    A real Redis sets TCP_NODELAY itself."""

    def get_request(self):
        connection, address = super().get_request()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connection, address


@pytest.fixture(scope="module")
def fake_tcp_server():
    port = _free_port()
    server = NoDelayFakeServer(("127.0.0.1", port), server_type="redis")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server, f"redis://127.0.0.1:{port}/0"
    server.shutdown()
    server.server_close()


class TestFakeRedisEventStore(EventStoreContract):
    @pytest.fixture
    async def redis_client(self, fake_tcp_server):
        server, _url = fake_tcp_server
        client = fakeredis.FakeAsyncRedis(server=server.fake_server)
        yield client
        await client.aclose()

    @pytest.fixture
    def backend_url(self, fake_tcp_server):
        return fake_tcp_server[1]


class TestFakeRedisLogRecorder(LogRecorderContract):
    @pytest.fixture
    async def redis_client(self, fake_tcp_server):
        server, _url = fake_tcp_server
        client = fakeredis.FakeAsyncRedis(server=server.fake_server)
        yield client
        await client.aclose()
