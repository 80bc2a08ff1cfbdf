"""Where the Redis connection comes from: ``DEALSTREAM_REDIS_URL`` or the embedded server."""

from __future__ import annotations

import os
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, RedisCluster

from service.store.embedded import DEFAULT_DATA_DIR, EmbeddedRedis

# No call the service makes blocks in Redis (the live streams wait on a pub/sub doorbell, not in
# XREAD BLOCK), so this is only how long a stalled Redis may hold a request before it gets 503.
SOCKET_TIMEOUT_S = 10.0
STREAMS_CLIENT_NAME = "dealstream-streams"  # the live streams' connections, as CLIENT LIST names them


CLUSTER_SCHEME = "redis+cluster://"


def is_cluster_url(url: str) -> bool:
    return url.startswith(CLUSTER_SCHEME)


def cluster_nodes(url: str) -> list[tuple[str, int]]:
    """``redis+cluster://host:port[,host:port…]`` → the startup nodes."""
    nodes = []
    for part in url[len(CLUSTER_SCHEME) :].split("/", 1)[0].split(","):
        host, _, port = part.strip().rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"a cluster URL lists host:port pairs, got {part!r}")
        nodes.append((host, int(port)))
    return nodes


def connect(
    url: str,
    *,
    max_connections: int = 512,
    socket_timeout: float = SOCKET_TIMEOUT_S,
    client_name: str | None = None,
) -> Any:
    """An asyncio client: redis-py's cluster client for ``redis+cluster://`` URLs, else a plain
    one. A Redis that stops answering costs a request ``socket_timeout``, then 503 (DS-12)."""
    if is_cluster_url(url):
        return RedisCluster(
            startup_nodes=[ClusterNode(host, port) for host, port in cluster_nodes(url)],
            socket_timeout=socket_timeout,
            socket_connect_timeout=min(5.0, socket_timeout),
            max_connections=max_connections,
            client_name=client_name,
        )
    return aioredis.from_url(
        url,
        socket_timeout=socket_timeout,
        socket_connect_timeout=min(5.0, socket_timeout),
        max_connections=max_connections,
        health_check_interval=15,
        client_name=client_name,
    )


def resolve_redis_url(
    explicit: str | None = None, data_dir: str | None = None, *, owner: bool = False
) -> tuple[str, EmbeddedRedis | None]:
    """The URL to use, plus the embedded server handle (to ``stop`` on exit), if any.

    ``owner``: this process is a service and must own the embedded data directory (a second
    service on the same directory gets ``DataDirInUse``); one-shot tools use a running server.
    """
    url = explicit or os.environ.get("DEALSTREAM_REDIS_URL")
    if url:
        return url, None
    embedded = EmbeddedRedis(data_dir or os.environ.get("DEALSTREAM_DATA_DIR", DEFAULT_DATA_DIR))
    return embedded.start(owner=owner), embedded
