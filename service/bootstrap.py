"""The one place that wires the application together: for ``dealstream serve``, the benches and
the tests alike.

``application(redis, settings)`` builds every long-lived part over a Redis client the caller
owns and hands each what it needs: the store (with the archive behind it), the parts the command
and read sides share (the fold cache, the seat tokens, the presence, the player keys), the bot
runner and the command side, the read side, the stream hub and the live streams, the chat, the
matches, the reviews, the clock keeper, the rate limits, the stream tickets and the accounts; the
HTTP layer gets them whole (``Api``) and ``build_app`` only mounts the routes and the hooks;
``app[DEALS]`` and ``app[HUB]`` give a caller the parts it wants to look at. ``serve(url,
settings)`` also makes the clients (one for commands and reads, a small named one for the live
streams), checks that Redis answers, tunes the garbage collector and closes the clients with the app.

With ``Settings.archive`` (the default) the app opens the archive of finished deals
(``DEALSTREAM_ARCHIVE_URL``, else ``archive.sqlite3`` in the data directory), reads deals that
left Redis from it, and runs the archiver as a background task: every ``archive_interval_s`` it
moves deals finished more than ``archive_after_s`` ago from Redis to the archive. Any number of
processes may run it at once (a lease per deal keeps them apart).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from service.app.accounts import Accounts
from service.app.analysis.review_workers import ReviewPool
from service.app.analysis.reviews import Reviews
from service.app.archive.archiver import DEFAULT_OLDER_THAN_S, Archiver
from service.app.bots.runner import BotPool, BotRunner
from service.app.chat.relay import ChatRelay
from service.app.commands.clocks import ClockKeeper
from service.app.commands.deals import DealService
from service.app.commands.matches import MatchService
from service.app.follow import FollowOn
from service.app.live.hub import StreamHub
from service.app.live.streams import LiveStreams
from service.app.reads.boards import Boards
from service.app.reads.matches import MatchReads
from service.app.reads.side import ReadSide
from service.app.seeks import QuickPlay
from service.app.state.folds import Folds
from service.app.state.players import Players
from service.app.state.presence import Presence
from service.app.state.seats import SeatTokens
from service.app.state.tickets import StreamTickets
from service.app.status import ServiceStatus
from service.app.tournaments import TournamentService
from service.gc_tuning import Collector, tune_gc
from service.http import observe
from service.http.client_address import ClientAddress
from service.http.routes import CLOCKS, HUB, STATUS, Api, Limiters, build_app
from service.metrics import Metrics
from service.store.archive import Archive, open_archive
from service.store.chat import ChatStore
from service.store.connection import STREAMS_CLIENT_NAME, connect
from service.store.embedded import DEFAULT_DATA_DIR
from service.store.event_store import EventStore, now_ms

log = logging.getLogger("dealstream.bootstrap")
DEALS = web.AppKey("deals", DealService)
ARCHIVE = web.AppKey("archive", Archive)
METRICS = web.AppKey("metrics", Metrics)
DEFAULT_METRICS_PORT = 9464  # GET /metrics, on --metrics-host (127.0.0.1 unless set)
__all__ = ["ARCHIVE", "CLOCKS", "DEALS", "HUB", "METRICS", "Settings", "application", "serve"]


@dataclass(frozen=True)
class Settings:
    """What ``dealstream serve`` takes on its command line (the tests' defaults differ).

    The archive of finished deals:

    * ``archive``: open it: deals that left Redis are read from it, and (with
      ``archive_after_s``) this process archives. False: Redis only, as before the archive
      existed (``TEST_SETTINGS``; a test that wants the archive turns it on).
    * ``archive_url``: ``postgresql://…`` or ``sqlite:///path``; None: ``DEALSTREAM_ARCHIVE_URL``,
      else the prefix's own SQLite file in ``data_dir`` (``archive.sqlite3`` for ``ds``).
    * ``data_dir``: None: ``DEALSTREAM_DATA_DIR``, else ``./dealstream-data`` (as the embedded Redis).
    * ``archive_after_s``: a finished deal leaves Redis this long after its end (default 10
      minutes: a table's Play again and a last look at the result are served by Redis). None:
      this process reads the archive but does not archive (another one, or ``dealstream
      archive``, does).
    * ``archive_interval_s``: the time between two archiver rounds.
    """

    prefix: str = "ds"
    dev: bool = False
    bot_delay: float = 1.0
    create_limit: int = 120
    # proxies whose X-Forwarded-For names the client the per-address limits count (addresses or
    # networks; none: every limit counts the connection's own address)
    trusted_proxies: tuple[str, ...] = ()
    list_limit: int = 120  # reads of a player's list per address per minute (DS-28)
    review_limit: int = 10  # new reviews one address may start per minute (DS-29)
    review_workers: int = 1  # review worker processes, at the idle CPU class (live tables first)
    review_nice: int = 19  # their niceness: 19 lets every bot search go first
    max_streams: int = 10_000
    streams_per_address: int = 100  # spectator (and seat) streams of one address in a process (DS-31)
    # bot program seats of live deals, in all (DS-33; also the processes one process runs at
    # once) and of one address's deals (DS-32)
    program_processes: int = 32
    program_processes_per_address: int = 8
    keepalive: float = 15.0
    redis_timeout: float = 10.0
    bot_budget: float = 1.0  # seconds a searching bot may think before its seat plays greedy
    bot_workers: int | None = None  # worker processes for searching bots (default: up to 2)
    bot_supervisor_s: float = 2.0
    clock_sweep_s: float = 0.05  # how often the clock keeper looks for deadlines that passed (TB-2.5)
    wait_replicas: int | None = None  # replicas that must confirm an append (default: 1 on a cluster, 0 else)
    archive: bool = True
    archive_url: str | None = None
    data_dir: str | None = None
    archive_after_s: float | None = DEFAULT_OLDER_THAN_S
    archive_interval_s: float = 30.0
    # GET /metrics on 127.0.0.1:metrics_port (None: not served); with metrics_required a port
    # that cannot be bound stops the start, else it is logged and the service runs without it
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    metrics_required: bool = False

    def open_archive(self) -> Archive | None:
        """The archive these settings name (None without ``archive``); it connects on first use."""
        if not self.archive:
            return None
        data_dir = self.data_dir or os.environ.get("DEALSTREAM_DATA_DIR") or DEFAULT_DATA_DIR
        return open_archive(self.archive_url, Path(data_dir), prefix=self.prefix)


# no archive: the tests' deals stay in Redis under their own prefix (tests of the archive turn it on)
TEST_SETTINGS = Settings(
    bot_delay=0.0, create_limit=10_000, list_limit=10_000, review_limit=10_000, archive=False,
    review_nice=0,  # a test waits for its reviews: never behind whatever else the machine runs
)  # fmt: skip


def application(
    redis: Any, settings: Settings = TEST_SETTINGS, *, streams_redis: Any | None = None
) -> web.Application:
    """The app over ``redis`` (a redis-py asyncio client the caller closes); the live streams use
    ``streams_redis`` when given, else ``redis``."""
    # the store, with the archive of finished deals behind it
    archive = settings.open_archive()
    store = EventStore(redis, settings.prefix, wait_replicas=settings.wait_replicas, archive=archive)
    metrics = Metrics()  # this app's own registry: GET /metrics on the metrics port
    store.observe_appends(metrics)
    # the parts the command side and the read side share, made once
    folds = Folds(store)
    seats = SeatTokens(store, folds)
    presence = Presence(store.indexes)
    players = Players(store.players)
    # the command side, with the runner that moves its bot seats
    bots = BotRunner(settings.bot_delay, BotPool(settings.bot_workers, settings.bot_budget), metrics=metrics)
    bots.programs.max_processes = settings.program_processes
    deals = DealService(
        store,
        dev=settings.dev,
        bots=bots,
        folds=folds,
        seats=seats,
        presence=presence,
        players=players,
        metrics=metrics,
    )
    deals.program_seats.in_all = settings.program_processes
    deals.program_seats.per_address = settings.program_processes_per_address
    # the read side and the live streams
    reads = ReadSide(store, folds=folds, seats=seats, presence=presence, players=players)
    hub = StreamHub(
        store, folds, redis=streams_redis, max_streams=settings.max_streams,
        streams_per_address=settings.streams_per_address, metrics=metrics,
    )  # fmt: skip
    deals.own_batches = hub  # the batches this process appends reach its streams without a read
    live = LiveStreams(folds, presence, hub)
    chat = ChatStore(redis, settings.prefix, store.reader.archived)
    watch_chat = ChatStore(redis, settings.prefix, store.reader.archived, room="watch")
    # the seats' streams carry their chat, the spectators' streams their room
    chat_relay = ChatRelay(hub, chat, watch_chat)
    # matches (TB-5), reviews, and the clock keeper that acts for seats whose time ran out (TB-2.5)
    matches = MatchService(deals, reads.match_log)
    reviews = Reviews(store, ReviewPool(settings.review_workers, settings.review_nice), metrics)
    keeper = ClockKeeper(deals, settings.clock_sweep_s)
    accounts = Accounts(store)
    tournaments = TournamentService(matches, accounts)
    # a duplicate board stays sealed until its round ends at every table (TN-3.6)
    reads.boards = live.boards = deals.boards = Boards(tournaments.store)
    api = Api(
        deals=deals,
        reads=reads,
        live=live,
        hub=hub,
        reviews=reviews,
        matches=matches,
        match_reads=MatchReads(matches.log, reads),
        limiters=Limiters.over(
            redis,
            settings.prefix,
            create_limit=settings.create_limit,
            list_limit=settings.list_limit,
            review_limit=settings.review_limit,
        ),
        tickets=StreamTickets(store),
        chat=chat,
        watch_chat=watch_chat,
        accounts=accounts,
        client_address=ClientAddress(settings.trusted_proxies),
        follow=FollowOn(deals, accounts.hand_seat, lambda: bool(hub.closing)),
        quick=QuickPlay(deals, accounts),
        tournaments=tournaments,
        keepalive=settings.keepalive,
    )
    app = build_app(api, keeper=keeper, chat_relay=chat_relay, bot_supervisor_s=settings.bot_supervisor_s)
    app[DEALS] = deals
    app[METRICS] = metrics
    app[STATUS] = ServiceStatus(archive="off" if archive is None else "ok")  # /health, /ready
    observe.install(app, metrics)
    _gauges(metrics, store, folds, hub)
    if archive is not None:
        _run_archive(app, store, reads.match_log.store, archive, settings)
    return app


def _gauges(metrics: Metrics, store: EventStore, folds: Folds, hub: StreamHub) -> None:
    """The gauges read at scrape time: open streams, live deals and away seats (from this
    process's fold cache), and the archive backlog (one read of the finished index)."""
    from domain.game import GAMES

    metrics.streams_open.set_function(lambda: hub.subscribers)

    def deals_here() -> None:
        live = dict.fromkeys(GAMES, 0)
        away = dict.fromkeys(GAMES, 0)
        for deal_id in folds.deal_ids():
            folded = folds.cached(deal_id)
            if folded is None or folded.over:
                continue
            game = folded.kit.name
            live[game] = live.get(game, 0) + 1
            seating = getattr(folded.state, "seating", None)
            away[game] = away.get(game, 0) + sum(1 for a in (seating.away if seating else None) or () if a)
        for game, n in live.items():
            metrics.live_deals.labels(game).set(n)
        for game, n in away.items():
            metrics.away_seats.labels(game).set(n)

    async def backlog() -> None:
        oldest = await store.indexes.oldest_finished()
        metrics.archive_backlog.set(0.0 if oldest is None else max(0.0, (now_ms() - oldest) / 1000))
        metrics.finished_in_redis.set(await store.indexes.finished_count())

    metrics.add_refresher(deals_here)
    metrics.add_refresher(backlog)


def _run_archive(
    app: web.Application, store: EventStore, match_store: EventStore, archive: Archive, settings: Settings
) -> None:
    """The archivers of deals and of match logs as background tasks of ``app`` (with
    ``archive_after_s``), stopped when the app shuts down; the archive closed at cleanup, after
    every reader is done."""
    app[ARCHIVE] = archive
    tasks: list[asyncio.Task] = []

    async def archiving(archiver: Archiver, listing: Callable[[], Awaitable[int]]) -> None:
        try:
            # a service that died between a log's last append and its listing as finished (or
            # that ran before match logs were archived) left it out of the finished index:
            # list such logs first
            added = await listing()
            if added:
                log.info("%d finished %s logs were not in the finished index; listed", added, archiver.kind)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - archiving goes on; the next start tries again
            log.exception("listing finished %s logs missing from the finished index failed", archiver.kind)
        await archiver.run(settings.archive_interval_s)

    async def start(_app: web.Application) -> None:
        if settings.archive_after_s is not None:
            older_than = settings.archive_after_s or 0.0
            deals = Archiver(store, archive, older_than=older_than)
            matches = Archiver.of_matches(match_store, archive, older_than=older_than)
            tasks.append(asyncio.create_task(archiving(deals, deals.backfill), name="archiver"))
            matching = archiving(matches, matches.backfill_by_keys)
            tasks.append(asyncio.create_task(matching, name="match-archiver"))

    async def stop(_app: web.Application) -> None:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        tasks.clear()

    async def close(_app: web.Application) -> None:
        await stop(_app)
        await archive.close()

    app.on_startup.append(start)
    app.on_shutdown.append(stop)
    app.on_cleanup.append(close)


async def serve(url: str, settings: Settings, startup: Any = None) -> web.Application:
    """The app ``dealstream serve`` runs, with its own Redis clients; ``startup``: what the
    start-up checks found (``service.startup_checks.StartupReport``), for ``/health``."""
    client = connect(url, socket_timeout=settings.redis_timeout)
    await client.ping()
    # the live streams' connections (doorbell and reader) come from a client of their own with a
    # short timeout, so a stalled Redis is noticed in seconds
    streams_client = connect(url, max_connections=4, socket_timeout=2.0, client_name=STREAMS_CLIENT_NAME)
    app = application(client, settings, streams_redis=streams_client)
    tune_gc()
    collector = Collector()
    collecting: list[asyncio.Task] = []

    async def start_collector(_app: web.Application) -> None:
        collecting.append(asyncio.create_task(collector.run(), name="gc"))

    async def close_clients(_app: web.Application) -> None:
        for task in collecting:
            task.cancel()
        await asyncio.gather(*collecting, return_exceptions=True)
        await client.aclose()
        await streams_client.aclose()

    app.on_startup.append(start_collector)
    app.on_cleanup.append(close_clients)
    _watch_status(app, startup)
    if settings.metrics_port:
        _serve_metrics(app, settings)
    return app


def _serve_metrics(app: web.Application, settings: Settings) -> None:
    """``GET /metrics`` on ``metrics_host:metrics_port``, a site of its own beside the public one."""
    runner = web.AppRunner(observe.metrics_app(app[METRICS]), access_log=None)

    async def start(_app: web.Application) -> None:
        await runner.setup()
        try:
            await web.TCPSite(runner, settings.metrics_host, settings.metrics_port).start()
        except OSError as exc:
            if settings.metrics_required:
                raise
            log.warning("metrics not served: %s:%s: %s", settings.metrics_host, settings.metrics_port, exc)
            return
        log.info("metrics on http://%s:%s/metrics", settings.metrics_host, settings.metrics_port)

    async def stop(_app: web.Application) -> None:
        await runner.cleanup()

    app.on_startup.append(start)
    app.on_cleanup.append(stop)


def _watch_status(app: web.Application, startup: Any) -> None:
    """What the start-up checks found goes to ``/health``; the archive is asked again while the
    service runs (an archive that comes back makes it ok again)."""
    status = app[STATUS]
    if startup is not None:
        status.durability = startup.durability
        if status.archive != "off":
            status.archive = startup.archive
    archive = app.get(ARCHIVE)
    if archive is None:
        return
    tasks: list[asyncio.Task] = []

    async def start(_app: web.Application) -> None:
        tasks.append(asyncio.create_task(status.watch_archive(archive), name="archive-probe"))

    async def stop(_app: web.Application) -> None:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    app.on_startup.append(start)
    app.on_shutdown.append(stop)
