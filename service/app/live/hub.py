"""Live streams: one reader per service process fans each deal's new events out to every local
subscriber (docs/design.md, the event store, "live updates").

A subscriber holds no Redis connection. The hub holds two: a pub/sub connection on which the
append script rings a doorbell (the stream key as channel, the new version as message) for
every deal that has local subscribers, and one connection on which a single reader task
fetches, in one pipeline, whatever the rung deals appended since the hub last read them, plus
the backlog a new or lagging subscriber asks for. The doorbell only says "look"; the stream is
the truth: after the pub/sub connection was lost (a Redis restart, a stall) the reader reads
every subscribed stream again from the last version it delivered, and once a second it checks
every subscribed deal's recorded head, so a lost doorbell costs at most that second and a
stream never skips or repeats an event. A head that moved backwards (Redis came back with less
than was delivered) ends that deal's streams with a ``reset`` message, and the clients
reconnect from what they have.

A finished deal that the archiver moved out of Redis keeps its head: the store answers heads,
backlogs and reads of a deal Redis no longer holds from the archive, byte for byte, so a stream
of an archived deal goes on (and ends with ``deal-over``) as it would have in Redis; only a deal
neither Redis nor the archive holds as it was delivered is reset.

On Redis Cluster the same reader runs once per node over the deals whose slots that node owns
(the doorbell channel is the stream key, so it maps to the stream's slot); nothing here reads
across deals in one command except the pipeline, which a cluster client splits by node.

Dead clients: a subscriber whose connection closed is dropped by a sweep twice a second (it
is never waited on until its deal's next event); keep-alive comments go out at a fixed interval
so a half-open connection fails a write. A subscriber that falls more than ``queue_limit``
batches behind is closed, and reconnects with ``Last-Event-ID``.

Why one file of over 350 lines: the reader, the doorbell, the head checks and the subscriber
queues are one state machine over two connections; "never skip or repeat an event, reset on a
head that moved back" holds across all of it, so it is read in one place.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.envelope import StoredEvent, decode_record, record_hash
from domain.table.clock import recorded_ms
from service.app.state.folds import Folds
from service.metrics import Metrics
from service.store.doorbell import Doorbell
from service.store.event_store import MAX_BATCH, EventStore
from service.store.outages import STORE_OUTAGES

log = logging.getLogger("dealstream.streams")

CLOSE = object()  # put on a subscriber's queue to end it
# How often every subscribed deal's head is read, beside the doorbells. A doorbell is not lost
# on a connection that answers its pings (a lost connection reads every head when it is back),
# so this is a safety net; at a thousand tables each look is a thousand heads in one round trip
# (3 % of the process's CPU once a second, issue 46).
HEADS_INTERVAL_S = 5.0


class StreamsClosing(Exception):
    """The hub is closing (the service is stopping): the stream ends with a ``retry`` message."""


class TooManyStreams(Exception):
    """This process already serves its maximum of live streams (HTTP 503 + Retry-After)."""

    rule = "DS-14"

    def __init__(self, limit: int, retry_after: int, message: str | None = None) -> None:
        message = message or f"this server already serves {limit} live streams; retry in {retry_after} s"
        super().__init__(message)
        self.limit = limit
        self.retry_after = retry_after


class StreamShareSpent(TooManyStreams):
    """This address already holds its share of this process's streams, of spectators' or of
    seats' own (429)."""

    rule = "DS-31"

    def __init__(self, limit: int, retry_after: int) -> None:
        message = f"this address already holds {limit} such live streams here; retry in {retry_after} s"
        super().__init__(limit, retry_after, message)


@dataclass
class Batch:
    """Records a reader fetched for one deal, decoded once, shared by all its subscribers."""

    deal_id: str
    records: list[StoredEvent]
    events: list[Any]
    raws: list[bytes]
    memo: dict[Any, Any] = field(default_factory=dict)  # per-viewer messages, built once

    def view(self, viewer: Any, make: Callable[[], Any]) -> Any:
        """``viewer``'s view after the batch, made (``make``) once: the seat's stream and the
        answer to the seat's command share it."""
        key = ("view", viewer)
        shown = self.memo.get(key)
        if shown is None:
            shown = self.memo[key] = make()
        return shown

    @property
    def first(self) -> int:
        return self.records[0].version

    @property
    def last(self) -> int:
        return self.records[-1].version


@dataclass(eq=False)
class Subscription:
    """One live stream: where it stands (the last version it sent) and its queue of batches."""

    deal_id: str
    viewer: Any
    position: int
    alive: Callable[[], bool]
    abort: Callable[[], None] | None = None  # drop the client's connection (a write may be stuck)
    queue: asyncio.Queue = field(default_factory=asyncio.Queue)
    reason: str | None = None  # why the hub closed it: "reset", "slow", "gone", "shutdown", "shed"
    owner: str | None = None  # the address: its share of the process's streams
    seated: bool = False  # a seat's own stream (else a spectator's)

    def close(self, reason: str) -> None:
        if self.reason is None:
            self.reason = reason
            self.queue.put_nowait(CLOSE)
            if reason == "slow" and self.abort is not None:
                self.abort()  # a client that stopped reading: its handler may wait in a write


@dataclass(eq=False)
class Feed:
    """The hub's reading position on one deal with local subscribers."""

    deal_id: str
    kit: Any  # the game's kit, to decode the records
    channel: str
    version: int
    head_hash: str | None
    subscribers: set[Subscription] = field(default_factory=set)
    seated: int = 0  # of the subscribers, the seats' own streams (the rest are spectators')
    confirmed: bool = False  # Redis confirmed the doorbell's subscription to its channel


class StreamHub:
    def __init__(
        self,
        store: EventStore,
        folds: Folds,
        *,
        redis: Any | None = None,
        max_streams: int = 10_000,
        streams_per_address: int | None = None,
        retry_after: int = 5,
        poll_interval: float = 1.0,
        heads_interval: float = HEADS_INTERVAL_S,
        sweep_interval: float = 0.5,
        queue_limit: int = 256,
        pong_timeout: float = 2.0,
        metrics: Metrics | None = None,
    ) -> None:
        """``store``: the service's event store, whose prefix and archive the hub reads with;
        ``folds``: the fold cache the records the hub reads are folded into (shared with the
        command and read sides); ``redis``: the client the hub's two connections come from
        (default: the store's); ``metrics``: where the delivery lag and outages are counted."""
        self.folds = folds
        self.metrics = metrics if metrics is not None else Metrics()
        client = redis if redis is not None else store.redis
        self.redis = client
        # reads only, on the hub's own client; a deal that left Redis reads from the archive
        # (its head is the archived head, so archiving a deal never looks like lost data here)
        self.store = EventStore(client, store.prefix, archive=store.reader.archived)
        self.max_streams = max_streams
        # spectator streams one address may hold here (None: no share, only the process's cap)
        self.streams_per_address = streams_per_address
        self.retry_after = retry_after
        self.poll_interval = poll_interval  # the doorbell connection's ping
        self.heads_interval = heads_interval  # every subscribed head checked (``_tick``)
        self.sweep_interval = sweep_interval
        self.queue_limit = queue_limit
        self.pong_timeout = pong_timeout
        self.feeds: dict[str, Feed] = {}
        # counts every subscription and leave: who reads which deal changed only when it moved
        self.joins = 0
        # the deals with a seat's own stream here, and those with a spectator's (the chat relay
        # reads these instead of looking at every feed)
        self.seated_deals: set[str] = set()
        self.watched_deals: set[str] = set()
        self._by_channel: dict[str, str] = {}
        self._count = 0
        # spectator streams by address, newest last: the share, and whom to shed for a seat
        self._watching: dict[str | None, list[Subscription]] = {}
        self._seated: dict[str | None, int] = {}  # seats' own streams by address
        self._dirty: set[str] = set()
        self._in_flight: set[str] = set()  # deals the reader is reading now
        self._backlog: list[tuple[str, int, asyncio.Future[list[bytes]]]] = []
        self._check_heads = False
        self._wake = asyncio.Event()
        self._channels_changed = asyncio.Event()
        self._tasks: list[asyncio.Task] = []
        self._closed = False
        self.connected = False  # the pub/sub connection is up and answering
        self.reads_ok = True  # the reader's last round trip worked
        self.delivered = 0  # batches handed to subscribers (for benchmarks)
        self.head_checks = 0  # the reader's checks of every subscribed head (for tests)
        self.reads = 0  # the reader's reads of deals' records (XRANGE), for tests and benchmarks
        self.fetched = 0  # the records those reads brought
        self.own = 0  # batches this process appended and delivered without reading them back
        # this process's appends in flight, by deal, and the highest version a doorbell
        # announced meanwhile (read once the append is back, if its own batch did not cover it)
        self._writing: dict[str, int] = {}
        self._rung_while_writing: dict[str, int] = {}

    # --- lifecycle ------------------------------------------------------------------------
    def start(self) -> None:
        if not self._tasks and not self._closed:
            self._tasks = [
                asyncio.create_task(self._listen(), name="streams-listen"),
                asyncio.create_task(self._read(), name="streams-read"),
                asyncio.create_task(self._tick(), name="streams-tick"),
            ]

    async def close(self) -> None:
        """End every subscription and pending read (the service is shutting down)."""
        self._closed = True
        for feed in self.feeds.values():
            for sub in list(feed.subscribers):
                sub.close("shutdown")
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        for _deal, _after, future in self._backlog:
            future.cancel()
        self._backlog = []

    async def wait_connected(self, timeout: float = 5.0) -> bool:
        """Wait (at start-up) until the doorbell connection is up; False after ``timeout``."""
        self.start()
        deadline = time.monotonic() + timeout
        while not self.connected and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        return self.connected

    @property
    def closing(self) -> bool:
        """The service is stopping: streams end with ``retry`` and no new one starts here."""
        return self._closed

    @property
    def healthy(self) -> bool:
        return self.connected and self.reads_ok

    @property
    def subscribers(self) -> int:
        return self._count

    # --- subscribers ----------------------------------------------------------------------
    def open(
        self,
        folded: Any,
        deal_id: str,
        viewer: Any,
        after: int,
        alive: Callable[[], bool],
        abort: Callable[[], None] | None = None,
        owner: str | None = None,
    ) -> Subscription:
        """A subscription from ``after`` to a deal folded as ``folded`` (the hub reads on from
        its version; the subscriber fetches its own backlog first).

        The process serves at most ``max_streams``. A stream also counts against its address
        (``owner``): at most ``streams_per_address`` spectator streams (viewers without a seat),
        and as many seats' own streams (``StreamShareSpent``, 429). A seat's own stream is never
        refused for spectators' sake: when the process is full, the newest spectator stream of
        the address holding the most ends (with ``retry``) to make room; only a process full of
        seats' streams refuses one."""
        if self._closed:
            raise TooManyStreams(self.max_streams, self.retry_after)
        seat = getattr(viewer, "seat", None) is not None
        share = self.streams_per_address
        if share is not None and owner is not None:
            held = self._seated.get(owner, 0) if seat else len(self._watching.get(owner, ()))
            if held >= share:
                raise StreamShareSpent(share, self.retry_after)
        if not seat:
            if self._count >= self.max_streams:
                raise TooManyStreams(self.max_streams, self.retry_after)
        elif self._count >= self.max_streams and not self._shed_a_spectator():
            raise TooManyStreams(self.max_streams, self.retry_after)
        self.start()
        sub = Subscription(deal_id, viewer, after, alive, abort, owner=owner, seated=seat)
        feed = self.feeds.get(deal_id)
        if feed is None:
            channel = self.store.keys.events(deal_id)
            feed = self.feeds[deal_id] = Feed(deal_id, folded.kit, channel, folded.version, folded.head_hash)
            self._by_channel[channel] = deal_id
            self._channels_changed.set()
            self._mark(deal_id)  # whatever came between the fold and the doorbell's subscription
        feed.subscribers.add(sub)
        feed.seated += int(seat)
        (self.seated_deals if seat else self.watched_deals).add(deal_id)
        self.joins += 1
        self._count += 1
        if seat:
            self._seated[owner] = self._seated.get(owner, 0) + 1
        else:
            self._watching.setdefault(owner, []).append(sub)
        return sub

    def _shed_a_spectator(self) -> bool:
        """End the newest spectator stream of the address that holds the most (a seat needs its
        place); False when no spectator stream is left to end."""
        if not self._watching:
            return False
        most = max(self._watching.values(), key=len)
        sub = most[-1]
        sub.close("shed")
        self.leave(sub)  # its place is free now; its handler's own leave later finds nothing
        return True

    def leave(self, sub: Subscription) -> None:
        feed = self.feeds.get(sub.deal_id)
        if feed is None or sub not in feed.subscribers:
            return
        feed.subscribers.discard(sub)
        feed.seated -= sub.seated
        if not feed.seated:
            self.seated_deals.discard(sub.deal_id)
        if len(feed.subscribers) == feed.seated:
            self.watched_deals.discard(sub.deal_id)
        self.joins += 1
        self._count -= 1
        if sub.seated:
            left = self._seated.get(sub.owner, 1) - 1
            if left > 0:
                self._seated[sub.owner] = left
            else:
                self._seated.pop(sub.owner, None)
        watching = self._watching.get(sub.owner)
        if watching is not None and sub in watching:
            watching.remove(sub)
            if not watching:
                del self._watching[sub.owner]
        if not feed.subscribers:
            del self.feeds[sub.deal_id]
            self._by_channel.pop(feed.channel, None)
            self._dirty.discard(sub.deal_id)
            self._channels_changed.set()

    async def read_after(self, deal_id: str, version: int) -> list[bytes]:
        """Records after ``version`` (up to a batch's worth), fetched by the hub's reader, so a
        backlog costs no connection of its own. Waits out a store that cannot be reached."""
        future: asyncio.Future[list[bytes]] = asyncio.get_running_loop().create_future()
        if self._closed:
            future.cancel()
        self._backlog.append((deal_id, version, future))
        self._wake.set()
        self.start()
        try:
            return await future
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if self._closed and task is not None and not task.cancelling():
                raise StreamsClosing() from None  # the hub closed, not the caller: tell it to retry
            raise

    # --- this process's own appends -------------------------------------------------------
    def writing(self, deal_id: str) -> None:
        """This process starts an append to ``deal_id``: its doorbell is held until ``written``
        (the writer hands its batch over then, and nothing is read back)."""
        self._writing[deal_id] = self._writing.get(deal_id, 0) + 1

    def written(
        self,
        deal_id: str,
        raws: Sequence[bytes] = (),
        records: Sequence[StoredEvent] = (),
        events: Sequence[Any] = (),
        folded: Any = None,
    ) -> Batch | None:
        """The append ``writing`` announced is done: ``raws`` (as stored), their ``records``
        and typed ``events`` (empty: nothing was written, or the writer cannot hand them over),
        and ``folded``, the writer's fold after them (None: unknown). The batch goes to the local
        subscribers as the reader would have delivered it, if it follows what they got;
        otherwise, and for a doorbell rung meanwhile past it, the reader reads the store.
        Returns the batch handed over (None: none was)."""
        left = self._writing.get(deal_id, 1) - 1
        if left > 0:
            self._writing[deal_id] = left
            rung = 0
        else:
            self._writing.pop(deal_id, None)
            rung = self._rung_while_writing.pop(deal_id, 0)
        feed = self.feeds.get(deal_id)
        if feed is None:
            return None
        batch = None
        if records and records[0].version == feed.version + 1:
            batch = Batch(deal_id, list(records), list(events), list(raws))
            if folded is not None and folded.version == batch.last:
                batch.memo["state"] = self.folds.share_state(folded)
            self.own += 1
            self._hand_out(feed, batch)
        elif records and records[-1].version > feed.version:
            rung = max(rung, records[-1].version)  # it does not follow what was delivered: read
        if rung > feed.version:
            self._mark(deal_id)
        return batch

    def settled(self, deal_id: str) -> bool:
        """The deal's feed is in force: its doorbell subscription confirmed and no read of it
        pending (from here on only a doorbell or a moved head makes the reader read it)."""
        feed = self.feeds.get(deal_id)
        return (
            feed is not None
            and feed.confirmed
            and deal_id not in self._dirty
            and deal_id not in self._in_flight
            and not self._check_heads
        )

    def _mark(self, deal_id: str) -> None:
        self._dirty.add(deal_id)
        self._wake.set()

    # --- the doorbell ---------------------------------------------------------------------
    async def _listen(self) -> None:
        backoff = 0.05
        idle = f"{self.store.prefix}:streams-idle"  # pub/sub needs one channel before it reads
        while not self._closed:
            bell = Doorbell(self.redis)
            try:
                subscribed = {idle, *self._by_channel}
                self._channels_changed.clear()
                async with asyncio.timeout(self.pong_timeout + 1):
                    await bell.open(sorted(subscribed))
                    await bell.ping()
                    while (await bell.next(self.pong_timeout)) not in (("pong", ""), None):
                        pass  # the subscription's confirmations, then the pong
                self.connected = True
                backoff = 0.05
                self._check_heads = True  # read everything since the last delivery
                for deal_id in list(self.feeds):
                    self._mark(deal_id)
                last_pong = last_ping = time.monotonic()
                while not self._closed:
                    if self._channels_changed.is_set():
                        self._channels_changed.clear()
                        wanted = {idle, *self._by_channel}
                        if wanted - subscribed:
                            await bell.subscribe(sorted(wanted - subscribed))
                        if subscribed - wanted:
                            await bell.unsubscribe(sorted(subscribed - wanted))
                        subscribed = wanted
                    message = await bell.next(0.1)
                    now = time.monotonic()
                    if message is not None:
                        kind, channel = message
                        if kind in ("message", "subscribe"):
                            # a subscription in force: read once more, since an append made
                            # between the feed's first read and now rang no doorbell of ours
                            deal_id = self._by_channel.get(channel)
                            if deal_id is not None and kind == "subscribe":
                                self.feeds[deal_id].confirmed = True
                            if deal_id is not None:
                                self._rung(deal_id, bell.rung if kind == "message" else None)
                        elif kind == "pong":
                            last_pong = now
                    if now - last_ping >= self.poll_interval:
                        await bell.ping()
                        last_ping = now
                    if now - last_pong > self.poll_interval + self.pong_timeout:
                        raise ConnectionError("the pub/sub connection stopped answering")
            except asyncio.CancelledError:
                raise
            except (*STORE_OUTAGES, TimeoutError) as exc:
                self.metrics.outage("streams", exc)
                if self.connected:
                    log.warning("stream doorbell lost (%s); reconnecting", exc)
                self.connected = False
            except Exception:  # noqa: BLE001 - the listener must outlive any surprise
                log.exception("stream doorbell failed; reconnecting")
                self.connected = False
            finally:
                await bell.close()
            await asyncio.sleep(backoff)
            backoff = min(1.0, backoff * 2)

    def _rung(self, deal_id: str, version: int | None) -> None:
        """A doorbell for ``deal_id`` announcing ``version`` (None: read anyway). A version
        already delivered (this process's own batch, handed over) is not read again; while this
        process's append to the deal is in flight, the read waits for its batch."""
        feed = self.feeds.get(deal_id)
        if version is not None and feed is not None and version <= feed.version:
            return
        if version is not None and deal_id in self._writing:
            self._rung_while_writing[deal_id] = max(self._rung_while_writing.get(deal_id, 0), version)
            return
        self._mark(deal_id)

    async def _tick(self) -> None:
        """Once a ``heads_interval``: check every subscribed head; every ``sweep_interval``: drop
        the subscribers whose clients hung up."""
        last_poll = time.monotonic()
        while True:
            await asyncio.sleep(self.sweep_interval)
            for feed in list(self.feeds.values()):
                for sub in list(feed.subscribers):
                    if not sub.alive():
                        sub.close("gone")
                        self.leave(sub)
            if time.monotonic() - last_poll >= self.heads_interval:
                last_poll = time.monotonic()
                if self.feeds:
                    self._check_heads = True
                    self._wake.set()

    # --- the reader -----------------------------------------------------------------------
    async def _read(self) -> None:
        backoff = 0.05
        while True:
            await self._wake.wait()
            self._wake.clear()
            dirty, self._dirty = self._dirty, set()
            backlog, self._backlog = self._backlog, []
            check = self._check_heads
            self._check_heads = False
            feeds = [self.feeds[d] for d in dirty if d in self.feeds]
            try:
                if check:
                    feeds = await self._changed_heads(feeds)
                requests = [(f.deal_id, f.version) for f in feeds]
                self.reads += len(feeds)
                requests += [(deal_id, after) for deal_id, after, fut in backlog if not fut.done()]
                self._in_flight = {f.deal_id for f in feeds}
                try:
                    replies = await self.store.reader.read_many_raw(requests) if requests else []
                finally:
                    self._in_flight = set()
            except asyncio.CancelledError:
                for _d, _a, fut in backlog:
                    fut.cancel()
                raise
            except Exception as exc:  # noqa: BLE001 - the one reader must outlive any read's trouble
                if isinstance(exc, STORE_OUTAGES):
                    self.metrics.outage("streams", exc)
                if not isinstance(exc, STORE_OUTAGES):
                    log.exception("stream reader failed a read; retrying")
                elif self.reads_ok:
                    log.warning("stream reader cannot reach the event store (%s); retrying", exc)
                self.reads_ok = False
                self._dirty |= dirty
                self._backlog = backlog + self._backlog
                self._check_heads = self._check_heads or check
                await asyncio.sleep(backoff)
                backoff = min(1.0, backoff * 2)
                self._wake.set()
                continue
            self.reads_ok = True
            backoff = 0.05
            for feed, raws in zip(feeds, replies, strict=False):
                self.fetched += len(raws)
                self._deliver(feed, raws)
            open_backlog = [fut for _d, _a, fut in backlog if not fut.done()]
            for fut, raws in zip(open_backlog, replies[len(feeds) :], strict=True):
                fut.set_result(raws)

    async def _changed_heads(self, feeds: list[Feed]) -> list[Feed]:
        """The dirty feeds plus every feed whose recorded head moved; a head that moved
        backwards resets that deal's streams."""
        self.head_checks += 1
        wanted = {f.deal_id: f for f in feeds}
        everyone = list(self.feeds.values())
        asked_at = [(f.version, f.head_hash) for f in everyone]
        heads = await self.store.reader.heads([f.deal_id for f in everyone])
        for feed, head, at in zip(everyone, heads, asked_at, strict=True):
            if (feed.version, feed.head_hash) != at:
                continue  # a batch of this process's own was handed over meanwhile: ask again later
            version = head.version if head is not None else 0
            if version < feed.version or (
                version == feed.version
                and feed.head_hash
                and head is not None
                and head.hash != feed.head_hash
            ):
                self._reset(feed, version)
            elif version > feed.version and feed.deal_id not in self._writing:
                wanted[feed.deal_id] = feed  # (an append of ours in flight: its batch comes)
        return [f for f in wanted.values() if f.deal_id in self.feeds]

    def _reset(self, feed: Feed, version: int) -> None:
        log.error(
            "deal %s: the event store's head went back from version %d to %d (data lost or restored "
            "from an older append-only file); its streams are reset and reconnect",
            feed.deal_id, feed.version, version,
        )  # fmt: skip
        for sub in list(feed.subscribers):
            sub.close("reset")
            self.leave(sub)

    def _deliver(self, feed: Feed, raws: list[bytes]) -> None:
        if not raws or feed.deal_id not in self.feeds:
            return
        records = [decode_record(raw) for raw in raws]
        fresh = [(raw, r) for raw, r in zip(raws, records, strict=True) if r.version > feed.version]
        if len(raws) >= MAX_BATCH:
            self._mark(feed.deal_id)  # there is more: read on at once
        if not fresh:
            return
        raws = [raw for raw, _ in fresh]
        records = [r for _, r in fresh]
        folded = self.folds.absorb(feed.deal_id, raws, records)
        events = [feed.kit.decode_event(r.data) for r in records]
        batch = Batch(feed.deal_id, records, events, raws)
        if folded is not None and folded.version == batch.last:
            batch.memo["state"] = self.folds.share_state(folded)
        self._hand_out(feed, batch)

    def _hand_out(self, feed: Feed, batch: Batch) -> None:
        """Give ``batch`` (it follows ``feed``'s version) to the feed's subscribers."""
        records = batch.records
        feed.version = batch.last
        feed.head_hash = record_hash(batch.raws[-1])
        self.delivered += 1
        try:  # how far behind the store this delivery is (its last record's recorded time)
            self.metrics.hub_lag.observe(max(0.0, time.time() - recorded_ms(records[-1].recorded_at) / 1000))
        except ValueError:  # a record whose time does not parse (an imported log): not measured
            pass
        for sub in list(feed.subscribers):
            if sub.queue.qsize() >= self.queue_limit:
                sub.close("slow")
                self.leave(sub)
            else:
                sub.queue.put_nowait(batch)
