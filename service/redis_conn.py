"""Where the Redis connection comes from: ``DEALSTREAM_REDIS_URL`` or the embedded server."""

from __future__ import annotations

import os

import redis.asyncio as aioredis

from service.embedded import DEFAULT_DATA_DIR, EmbeddedRedis

# Blocking reads (XREAD BLOCK) must return before the socket times out.
SOCKET_TIMEOUT_S = 30.0


def connect(
    url: str, *, max_connections: int = 512, socket_timeout: float = SOCKET_TIMEOUT_S
) -> aioredis.Redis:
    """An asyncio client; its socket timeout must exceed every ``XREAD BLOCK`` the store issues
    (10 s for the event stream). A Redis that stops answering costs a request this long, then 503."""
    return aioredis.from_url(
        url,
        socket_timeout=socket_timeout,
        socket_connect_timeout=5.0,
        max_connections=max_connections,
        health_check_interval=15,
    )


def resolve_redis_url(
    explicit: str | None = None, data_dir: str | None = None
) -> tuple[str, EmbeddedRedis | None]:
    """The URL to use, plus the embedded server we started (to stop on exit), if any."""
    url = explicit or os.environ.get("DEALSTREAM_REDIS_URL")
    if url:
        return url, None
    embedded = EmbeddedRedis(data_dir or os.environ.get("DEALSTREAM_DATA_DIR", DEFAULT_DATA_DIR))
    return embedded.start(), embedded
