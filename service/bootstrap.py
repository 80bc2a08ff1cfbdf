"""The one place that wires the application together: for ``dealstream serve``, the benches and
the tests alike.

``application(redis, settings)`` builds the store, the command side (with its fold cache and bot
runner), the stream hub and the HTTP app over a Redis client the caller owns; ``app[DEALS]`` and
``app[HUB]`` give a caller the parts it wants to look at. ``serve(url, settings)`` also makes the
clients (one for commands and reads, a small named one for the live streams), checks that Redis
answers, tunes the garbage collector and closes the clients with the app.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from aiohttp import web

from service.app.bots import BotPool
from service.app.deals import DealService
from service.app.reviews import Reviews
from service.app.streams import StreamHub
from service.gc_tuning import tune_gc
from service.http.routes import HUB, build_app
from service.store.connection import STREAMS_CLIENT_NAME, connect
from service.store.event_store import EventStore

DEALS = web.AppKey("deals", DealService)
__all__ = ["DEALS", "HUB", "Settings", "application", "serve"]


@dataclass(frozen=True)
class Settings:
    """What ``dealstream serve`` takes on its command line (the tests' defaults differ)."""

    prefix: str = "ds"
    dev: bool = False
    bot_delay: float = 1.0
    create_limit: int = 120
    max_streams: int = 10_000
    keepalive: float = 15.0
    redis_timeout: float = 10.0
    bot_budget: float = 1.0  # seconds a searching bot may think before its seat plays greedy
    bot_workers: int | None = None  # worker processes for searching bots (default: up to 2)
    bot_supervisor_s: float = 2.0
    wait_replicas: int | None = None  # replicas that must confirm an append (default: 1 on a cluster, 0 else)


TEST_SETTINGS = Settings(bot_delay=0.0, create_limit=10_000)


def application(
    redis: Any, settings: Settings = TEST_SETTINGS, *, streams_redis: Any | None = None
) -> web.Application:
    """The app over ``redis`` (a redis-py asyncio client the caller closes); the live streams use
    ``streams_redis`` when given, else ``redis``."""
    pool = BotPool(settings.bot_workers, settings.bot_budget)
    deals = DealService(
        EventStore(redis, settings.prefix, wait_replicas=settings.wait_replicas),
        dev=settings.dev,
        bot_delay=settings.bot_delay,
        bot_pool=pool,
    )
    hub = StreamHub(deals, redis=streams_redis, max_streams=settings.max_streams)
    app = build_app(
        deals,
        create_limit=settings.create_limit,
        hub=hub,
        reviews=Reviews(deals.store, pool),
        keepalive=settings.keepalive,
        bot_supervisor_s=settings.bot_supervisor_s,
    )
    app[DEALS] = deals
    return app


async def serve(url: str, settings: Settings) -> web.Application:
    """The app ``dealstream serve`` runs, with its own Redis clients."""
    client = connect(url, socket_timeout=settings.redis_timeout)
    await client.ping()
    # the live streams' connections (doorbell and reader) come from a client of their own with a
    # short timeout, so a stalled Redis is noticed in seconds
    streams_client = connect(url, max_connections=4, socket_timeout=2.0, client_name=STREAMS_CLIENT_NAME)
    app = application(client, settings, streams_redis=streams_client)
    tune_gc()

    async def close_clients(_app: web.Application) -> None:
        await client.aclose()
        await streams_client.aclose()

    app.on_cleanup.append(close_clients)
    return app
