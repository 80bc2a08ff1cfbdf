"""The service's metrics: every metric object, in one registry per app.

``bootstrap`` makes one ``Metrics`` per app and hands it to the parts that record into it (the
command side, the bot runner, the clock keeper, the stream hub, the store's append pipeline, the
reviews, the HTTP middleware); a part made without one gets a fresh ``Metrics`` of its own that
nobody reads, so tests and tools that build parts directly need not care. The registry is the
app's own (never ``prometheus_client``'s global one), so several apps in one process (the tests)
do not collide.

Labels are bounded: a route is its template (``/deals/{deal_id}/view``), a status its code, a
game, a command type, a bot level or an outage kind one of a short fixed list. No deal id, seat
token, invite, player key or name is ever a label (``tests/e2e/test_http_metrics.py`` checks).

Gauges that describe a state (live deals, away seats, reviews, the archive backlog) are read at
scrape time by ``refresh`` callbacks (``add_refresher``): in-memory counts, and for the archive
backlog one ``ZRANGE … 0 0 WITHSCORES`` of the finished index, bounded by a timeout.
docs/operations.md ("Metrics") lists every metric.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any, get_args

import msgspec
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

log = logging.getLogger("dealstream.metrics")

__all__ = ["CONTENT_TYPE_LATEST", "Metrics", "UNMATCHED", "command_outcome", "command_type"]

UNMATCHED = "unmatched"  # the route label of a path no route matched
REFRESH_TIMEOUT_S = 2.0  # a scrape waits at most this long for a gauge read from Redis

_HTTP_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
_COMMAND_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
_APPEND_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0)
_BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
_LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
_BOT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0)

# a command's outcome by what it raised (names, since the command side imports this module)
_OUTCOMES = {
    "RuleViolation": "refused",
    "StaleVersion": "stale",
    "CommandIdReused": "reused",
    "DealNotFound": "not_found",
    "CancelledError": "cancelled",
}
_KNOWN_TYPES: dict[str, frozenset[str]] = {}

Refresher = Callable[[], Awaitable[None] | None]


class Metrics:
    """Every metric of one app, in ``registry`` (default: a fresh one)."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = r = registry if registry is not None else CollectorRegistry()
        self._refreshers: list[Refresher] = []
        self._children: dict[tuple[str, tuple[str, ...]], Any] = {}
        # HTTP
        self.http_requests = Counter(
            "dealstream_http_requests", "HTTP requests answered, by method, route template and status",
            ["method", "route", "status"], registry=r,
        )  # fmt: skip
        self.http_duration = Histogram(
            "dealstream_http_request_duration_seconds",
            "time from a request's arrival to its answer (a live stream: its whole life)",
            ["method", "route"], buckets=_HTTP_BUCKETS, registry=r,
        )  # fmt: skip
        # the command side
        self.commands = Counter(
            "dealstream_commands", "commands decided, by game, command type and outcome",
            ["game", "type", "outcome"], registry=r,
        )  # fmt: skip
        self.command_duration = Histogram(
            "dealstream_command_duration_seconds", "time to decide and append one command (any outcome)",
            ["game"], buckets=_COMMAND_BUCKETS, registry=r,
        )  # fmt: skip
        # the store's append pipeline
        self.appends_per_round_trip = Histogram(
            "dealstream_store_appends_per_round_trip",
            "commands of the append pipeline (append scripts, meta writes) sent in one round trip",
            buckets=_BATCH_BUCKETS, registry=r,
        )  # fmt: skip
        self.append_duration = Histogram(
            "dealstream_store_append_duration_seconds",
            "time from queueing a write on the append pipeline to its reply (queue wait included)",
            buckets=_APPEND_BUCKETS, registry=r,
        )  # fmt: skip
        self.append_round_trip = Histogram(
            "dealstream_store_append_round_trip_seconds", "time of one round trip of the append pipeline",
            buckets=_APPEND_BUCKETS, registry=r,
        )  # fmt: skip
        # live streams
        self.live_deals = Gauge(
            "dealstream_live_deals", "deals not over that this process holds a fold of, by game",
            ["game"], registry=r,
        )  # fmt: skip
        self.streams_open = Gauge("dealstream_streams_open", "live event streams open now", registry=r)
        self.streams_opened = Counter(
            "dealstream_streams_opened", "live event streams opened (reconnects included)", registry=r
        )
        self.stream_reconnects = Counter(
            "dealstream_stream_reconnects", "live event streams opened with Last-Event-ID (a reconnect)",
            registry=r,
        )  # fmt: skip
        self.hub_lag = Histogram(
            "dealstream_stream_delivery_lag_seconds",
            "time from a batch's recorded time in the store to the hub handing it to its subscribers",
            buckets=_LAG_BUCKETS, registry=r,
        )  # fmt: skip
        # bots
        self.bot_decisions = Counter(
            "dealstream_bot_decisions", "bot moves chosen, by game and level", ["game", "level"], registry=r
        )
        self.bot_decision_duration = Histogram(
            "dealstream_bot_decision_duration_seconds",
            "time a bot took to choose a move (a fallback included)",
            ["level"], buckets=_BOT_BUCKETS, registry=r,
        )  # fmt: skip
        self.bot_fallbacks = Counter(
            "dealstream_bot_fallbacks", "searches that played the greedy move instead, by level and why",
            ["level", "reason"], registry=r,
        )  # fmt: skip
        # clocks
        self.clock_expiries = Counter(
            "dealstream_clock_expiries",
            "clock actions this process appended: expired (a person's time ran out) or abandoned (TB-2.7)",
            ["kind"], registry=r,
        )  # fmt: skip
        self.away_seats = Gauge(
            "dealstream_away_seats", "seats marked away (a bot plays them) in live deals held here, by game",
            ["game"], registry=r,
        )  # fmt: skip
        # reviews
        self.reviews_running = Gauge(
            "dealstream_reviews_running", "reviews this process is evaluating now", registry=r
        )
        self.reviews_queued = Gauge(
            "dealstream_reviews_queued_decisions",
            "decisions of the running reviews still waiting to be evaluated by the workers", registry=r,
        )  # fmt: skip
        self.reviews = Counter(
            "dealstream_reviews", "reviews this process finished, by outcome (done, failed)", ["outcome"],
            registry=r,
        )  # fmt: skip
        # the archive
        self.archive_backlog = Gauge(
            "dealstream_archive_backlog_seconds",
            "age of the oldest finished deal still in Redis (0: none); read at scrape time", registry=r,
        )  # fmt: skip
        self.finished_in_redis = Gauge(
            "dealstream_archive_finished_in_redis", "finished deals still in Redis; read at scrape time",
            registry=r,
        )  # fmt: skip
        # outages
        self.store_outages = Counter(
            "dealstream_store_outages",
            "times a part found the event store out of reach, by part and kind of outage",
            ["part", "kind"], registry=r,
        )  # fmt: skip
        # what runs: always 1, the version in its label
        from service import __version__

        self.build_info = Gauge(
            "dealstream_build_info", "the service's version, in the label", ["version"], registry=r
        )
        self.build_info.labels(__version__).set(1)

        for kind in ("expired", "abandoned"):  # every series of a short fixed list, from 0
            self.clock_expiries.labels(kind)
        for outcome in ("done", "failed"):
            self.reviews.labels(outcome)

    # recording helpers -----------------------------------------------------------------
    def outage(self, part: str, exc: BaseException) -> None:
        from service.store.outages import outage_kind

        self.store_outages.labels(part, outage_kind(exc)).inc()

    def observe_append_batch(self, commands: int, seconds: float) -> None:
        self.appends_per_round_trip.observe(commands)
        self.append_round_trip.observe(seconds)

    def observe_append(self, seconds: float) -> None:
        self.append_duration.observe(seconds)

    def child(self, metric: Any, *labels: str) -> Any:
        """``metric.labels(*labels)``, looked up once: the client's own look-up validates the
        labels and takes a lock on every call, and the hot paths (each command, request and bot
        move) count a few times each. The label values are bounded (route templates, statuses,
        command types, levels), and so is this."""
        key = (metric._name, labels)  # noqa: SLF001 - the metric's own name keys its children
        found = self._children.get(key)
        if found is None:
            found = self._children[key] = metric.labels(*labels)
        return found

    def command(self, kit: Any, command: Any, outcome: str, seconds: float) -> None:
        """One command decided (``kit``: its deal's game kit, None when unknown)."""
        game = kit.name if kit is not None else "unknown"
        self.child(self.commands, game, command_type(kit, command), outcome).inc()
        self.child(self.command_duration, game).observe(seconds)

    # scraping ---------------------------------------------------------------------------
    def add_refresher(self, refresh: Refresher) -> None:
        """``refresh()`` (plain or async) runs before each scrape, to set the gauges of a state."""
        self._refreshers.append(refresh)

    async def refresh(self) -> None:
        for refresh in self._refreshers:
            try:
                result = refresh()
                if inspect.isawaitable(result):
                    async with asyncio.timeout(REFRESH_TIMEOUT_S):
                        await result
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - a scrape answers with what it has
                log.warning("a metric could not be read for this scrape: %s", type(exc).__name__)

    async def exposition(self) -> bytes:
        """The registry in the Prometheus text format, its gauges refreshed first."""
        await self.refresh()
        return generate_latest(self.registry)


def command_type(kit: Any, command: Any) -> str:
    """A command's type as a label: a typed command's class, a request's ``type`` only when it
    names one of the game's commands (anything a client sent otherwise is ``invalid``)."""
    if isinstance(command, msgspec.Struct):
        return type(command).__name__
    if kit is not None and isinstance(command, dict):
        known = _KNOWN_TYPES.get(kit.name)
        if known is None:
            known = _KNOWN_TYPES[kit.name] = frozenset(
                str(getattr(c.__struct_config__, "tag", None) or c.__name__)
                for c in get_args(kit.game.command_type)
            )
        if command.get("type") in known:
            return str(command["type"])
    return "invalid"


def command_outcome(exc: BaseException) -> str:
    """What a command that raised ``exc`` came to, as a label."""
    from service.store.outages import is_outage

    name = type(exc).__name__
    if name in _OUTCOMES:
        return _OUTCOMES[name]
    return "unavailable" if is_outage(exc) else "error"
