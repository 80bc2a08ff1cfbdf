"""A bare RESP connection for pipelines of plain commands (the append path's hot loop).

redis-py spends most of a pipelined command's client CPU on per-command bookkeeping: a packer
that checks every argument's type in Python, and a timeout, a future and a parse call per reply.
Here a batch is packed by hiredis in C, written at once, and its replies are parsed by one
``hiredis.Reader`` under one timeout. It speaks to the server ``redis-py`` was configured for
(TCP or unix socket, password, database) and nothing else: no TLS, no cluster, no RESP3. Any
failure closes the connection (the stream may hold half a reply) and raises redis-py's own
``ConnectionError`` or ``TimeoutError``, so callers handle it as they would from redis-py.
"""

from __future__ import annotations

import asyncio
from typing import Any

import hiredis
from redis.asyncio.connection import Connection, UnixDomainSocketConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from service.store.outages import reply_error

READ_CHUNK = 1 << 16


class RespConnection:
    """One connection, one batch at a time (the caller serialises batches)."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.settings = settings
        self.timeout: float | None = settings.get("socket_timeout")
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._parser = hiredis.Reader()

    @classmethod
    def for_client(cls, redis: Any) -> RespConnection | None:
        """A connection to where ``redis`` (a redis-py asyncio client) points, if it is a plain
        TCP or unix-socket client; None for anything else (fakeredis, TLS, cluster, RESP3)."""
        pool = getattr(redis, "connection_pool", None)
        kind = getattr(pool, "connection_class", None)
        if kind not in (Connection, UnixDomainSocketConnection):
            return None
        settings = dict(pool.connection_kwargs)
        if settings.get("protocol") not in (None, 2, "2") or settings.get("credential_provider"):
            return None  # RESP3, or a password only a provider knows: redis-py keeps those
        return cls(settings)

    async def connect(self) -> None:
        """Open the connection now (AUTH and SELECT done); a pipeline opens it when needed."""
        await self._connect()

    @property
    def streams(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """The open connection's reader and writer (for a connection that leaves request and
        reply, such as pub/sub)."""
        assert self._reader is not None and self._writer is not None, "not connected"
        return self._reader, self._writer

    async def _connect(self) -> None:
        s = self.settings
        connect_timeout = s.get("socket_connect_timeout") or self.timeout
        try:
            async with asyncio.timeout(connect_timeout):
                if s.get("path"):
                    self._reader, self._writer = await asyncio.open_unix_connection(s["path"])
                else:
                    self._reader, self._writer = await asyncio.open_connection(
                        s.get("host", "localhost"), s.get("port", 6379)
                    )
                self._parser = hiredis.Reader()
                setup: list[tuple[Any, ...]] = []
                if s.get("password"):
                    user = s.get("username")
                    setup.append(("AUTH", user, s["password"]) if user else ("AUTH", s["password"]))
                if s.get("db"):
                    setup.append(("SELECT", s["db"]))
                if s.get("client_name"):  # as redis-py names its own connections
                    setup.append(("CLIENT", "SETNAME", s["client_name"]))
                if setup:
                    for reply in await self._exchange(setup):
                        if isinstance(reply, Exception):
                            raise reply
        except TimeoutError:
            self.close()
            raise RedisTimeoutError("timed out connecting to Redis") from None
        except (OSError, ResponseError) as exc:
            self.close()
            raise RedisConnectionError(f"cannot connect to Redis: {exc}") from exc
        except BaseException:
            self.close()
            raise

    async def _exchange(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        assert self._reader is not None and self._writer is not None
        self._writer.write(b"".join(hiredis.pack_command(args) for args in commands))
        replies: list[Any] = []
        parser = self._parser
        while len(replies) < len(commands):
            reply = parser.gets()
            if reply is False:
                data = await self._reader.read(READ_CHUNK)
                if not data:
                    raise RedisConnectionError("Redis closed the connection")
                parser.feed(data)
                continue
            replies.append(reply_error(str(reply)) if isinstance(reply, hiredis.ReplyError) else reply)
        return replies

    async def pipeline(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        """Send ``commands`` and return their replies in order; an error reply is returned as a
        ``ResponseError`` in its place, a failed connection raises for the whole batch."""
        if self._writer is None:
            await self._connect()
        try:
            async with asyncio.timeout(self.timeout):
                return await self._exchange(commands)
        except TimeoutError:
            self.close()
            raise RedisTimeoutError("timed out waiting for Redis") from None
        except (OSError, hiredis.ProtocolError) as exc:
            self.close()
            raise RedisConnectionError(f"lost the connection to Redis: {exc}") from exc
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None
