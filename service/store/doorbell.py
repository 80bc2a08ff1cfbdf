"""The stream hub's pub/sub connection: the doorbell the append script rings after each append.

On a plain TCP or unix-socket client this is a connection of our own (``service.store.resp``
opens it; hiredis parses), so its timeouts and its cancellation are exactly ours; on Redis
Cluster it is such a connection to one node (a ``PUBLISH`` reaches every node's subscribers; a new
doorbell after a lost one tries the next node); redis-py's ``PubSub`` is the fallback for other
clients (fakeredis, TLS). Either way the hub sees one small interface:
``subscribe``, ``unsubscribe`` and ``ping`` write a request, ``next`` waits for the next message.
"""

from __future__ import annotations

import asyncio
from typing import Any

import hiredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError

from service.store.resp import READ_CHUNK, RespConnection


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class Doorbell:
    """A pub/sub connection. ``next`` returns ("message", channel), ("subscribe", channel) once a
    subscription is in force, ("pong", ""), or None when nothing came within the timeout; a lost
    connection raises redis-py's ``ConnectionError``."""

    _turn = 0  # on a cluster, each new doorbell tries the next node (one may be down)

    def __init__(self, redis: Any) -> None:
        if isinstance(redis, RedisCluster):
            # PUBLISH on a cluster reaches every node's subscribers: any one node will do
            nodes = redis.get_nodes() or list(redis.nodes_manager.startup_nodes.values())
            node = nodes[Doorbell._turn % len(nodes)]
            Doorbell._turn += 1
            kwargs = getattr(redis, "connection_kwargs", {}) or {}
            self._resp: RespConnection | None = RespConnection(
                {
                    "host": node.host,
                    "port": node.port,
                    "socket_timeout": kwargs.get("socket_timeout"),
                    "socket_connect_timeout": kwargs.get("socket_connect_timeout"),
                    "username": kwargs.get("username"),
                    "password": kwargs.get("password"),
                    "client_name": kwargs.get("client_name"),
                }
            )
        else:
            self._resp = RespConnection.for_client(redis)
        self._pubsub = redis.pubsub() if self._resp is None else None
        self._parser = hiredis.Reader()
        self._pending: list[tuple[str, str]] = []  # redis-py messages read ahead
        self.rung: int | None = None  # the version the last "message" announced (None: unknown)

    async def open(self, channels: list[str]) -> None:
        if self._resp is not None:
            await self._resp.connect()
            self._write("SUBSCRIBE", *channels)
        else:
            await self._pubsub.subscribe(*channels)

    def _write(self, *args: Any) -> None:
        _reader, writer = self._resp.streams
        writer.write(hiredis.pack_command(args))

    async def subscribe(self, channels: list[str]) -> None:
        if self._resp is not None:
            self._write("SUBSCRIBE", *channels)
        else:
            await self._pubsub.subscribe(*channels)

    async def unsubscribe(self, channels: list[str]) -> None:
        if self._resp is not None:
            self._write("UNSUBSCRIBE", *channels)
        else:
            await self._pubsub.unsubscribe(*channels)

    async def ping(self) -> None:
        if self._resp is not None:
            self._write("PING")
        else:
            await self._pubsub.ping()

    async def next(self, timeout: float) -> tuple[str, str] | None:
        if self._resp is None:
            message = await self._pubsub.get_message(timeout=timeout)
            if message is None:
                return None
            self.rung = _version(message.get("data")) if message["type"] in ("message", b"message") else None
            return _text(message["type"]), _text(message.get("channel") or "")
        reader, _writer = self._resp.streams
        while True:
            reply = self._parser.gets()
            if reply is not False:
                if isinstance(reply, list) and reply:
                    kind = _text(reply[0])
                    if kind == "message":
                        self.rung = _version(reply[2] if len(reply) > 2 else None)
                        return "message", _text(reply[1])
                    if kind == "pong":
                        return "pong", ""
                    if kind == "subscribe":  # from here on this channel's doorbell reaches us
                        return "subscribe", _text(reply[1])
                    continue  # unsubscribe confirmations
                if isinstance(reply, hiredis.ReplyError):
                    raise RedisConnectionError(f"the doorbell connection was refused: {reply}")
                continue
            try:
                # asyncio.timeout, not wait_for: on 3.11 wait_for may swallow a cancellation that
                # arrives as its timeout fires, and the hub's listener would then never stop
                async with asyncio.timeout(timeout):
                    data = await reader.read(READ_CHUNK)
            except TimeoutError:
                return None
            except OSError as exc:
                raise RedisConnectionError(f"lost the doorbell connection: {exc}") from exc
            if not data:
                raise RedisConnectionError("Redis closed the doorbell connection")
            self._parser.feed(data)

    async def close(self) -> None:
        if self._resp is not None:
            self._resp.close()
        else:
            try:
                await self._pubsub.aclose()
            except Exception:  # noqa: BLE001 - closing a broken connection may fail again
                pass


def _version(data: object) -> int | None:
    """The version a doorbell announces (the append script publishes the new head's version)."""
    try:
        return int(data)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return None
