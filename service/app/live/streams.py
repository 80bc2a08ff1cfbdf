"""A live stream as the application gives it: the messages one viewer may receive, batch by batch.

``LiveStreams.open`` subscribes to the stream hub and gives a ``Live`` that yields, for each batch
of new records, one ``Part``: a ``deal-event`` message per event the viewer may see, the viewer's
view at that batch's version, and ``deal-over`` at the end (or one ``reset`` when the store holds
less than the viewer saw, or one ``retry`` when the service stops: the client reconnects, to
another process). The backlog after the viewer's position comes first; any gap between it
and what the hub delivers is filled from the store, so nothing is skipped or repeated. Everything
shown passes the visibility gate (``service.app.reads.gate``). The messages of a batch are built once
per viewer and shared by every subscriber with that viewer, and so is whatever the transport makes
of them (``Part.encoded``: the framed bytes, for the HTTP layer).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.envelope import decode_record, record_hash
from service.app import visibility
from service.app.chat.relay import ChatLine
from service.app.live.hub import CLOSE, Batch, StreamHub, StreamsClosing, Subscription
from service.app.reads import gate
from service.app.state.folds import Folds
from service.app.state.presence import Presence
from service.app.viewer import Viewer

TAG_IN_ID = 8  # hex digits of a record's tag in a stream message's id


def id_key(folded: Any) -> bytes:
    """What a deal's message ids are keyed with: its server seed, secret while the deal is
    live. A record's plain hash would not do: it covers the hidden cards of the record, so its
    prefix, shown to a spectator, would let one test guesses of a card against it."""
    created = folded.events[0] if folded.events else None
    seed = getattr(created, "server_seed", "") or ""
    try:
        return bytes.fromhex(seed)
    except ValueError:
        return seed.encode()


def record_tag(key: bytes, raw: bytes) -> str:
    """The record's tag in a stream message's id: the first hex digits of an HMAC of its hash."""
    return hmac.new(key, record_hash(raw).encode(), hashlib.sha256).hexdigest()[:TAG_IN_ID]


@dataclass(eq=False)
class Part:
    """What one viewer receives for one batch: (version, event name, data as JSON bytes) messages. Messages of
    the batch's events carry their version; the closing ones (view, deal-over, reset) carry the
    batch's last version or none. ``encoded`` holds the transport's form, built once."""

    events: list[tuple[int, str, bytes]]
    closing: list[tuple[int | None, str, bytes]]
    last: int
    over: bool = False
    encoded: dict[str, Any] = field(default_factory=dict)
    ids: dict[int, str] = field(default_factory=dict)  # a version's message id: "<version>.<hash>"


class Live:
    """One viewer's live stream of one deal."""

    def __init__(
        self, streams: LiveStreams, kit: Any, sub: Subscription | None, head: int, ended: str | None
    ) -> None:
        self._streams = streams
        self._kit = kit
        self.sub = sub
        self._head = head
        self._ended = ended
        self.presence: Any = None  # a seat's presence hold while the stream is open

    def close(self) -> None:
        if self.sub is not None:
            self._streams.hub.leave(self.sub)
        if self.presence is not None:
            self.presence.release()
            self.presence = None

    async def parts(self) -> AsyncIterator[tuple[Part, int]]:
        """Each part with the subscriber's position before it (what of it to send). A stream
        the service ends because it is stopping ends with ``retry``: the client reconnects from
        the last id it got (to another process)."""
        if self.sub is None:  # nothing will follow: one message, then the end
            yield Part([], [(None, self._ended, _version_json(self._head))], self._head), self._head
            return
        sub, hub = self.sub, self._streams.hub
        try:
            while sub.position < self._head:  # the backlog up to where the hub reads on from
                raws = [
                    r for r in await hub.read_after(sub.deal_id, sub.position) if _version(r) <= self._head
                ]
                if not raws:
                    break
                part = await self._part(self._batch(raws))
                yield part, sub.position
                sub.position = part.last
                if part.over:
                    return
            while True:
                item = await sub.queue.get()
                if isinstance(item, ChatLine):  # a word in the room this stream reads (``relay``)
                    yield Part([], [(None, "chat", item.data)], sub.position), sub.position
                    continue
                if item is CLOSE:
                    # shutdown: the service is stopping; shed: a seat's stream needed the place
                    if sub.reason in ("reset", "shutdown", "shed"):
                        yield _ending("reset" if sub.reason == "reset" else "retry", sub.position)
                    return
                batch: Batch = item
                if batch.last <= sub.position:
                    continue
                while batch.first > sub.position + 1:  # a gap: the hub read on before we joined
                    raws = [
                        r
                        for r in await hub.read_after(sub.deal_id, sub.position)
                        if _version(r) < batch.first
                    ]
                    if not raws:
                        break
                    part = await self._part(self._batch(raws))
                    yield part, sub.position
                    sub.position = part.last
                    if part.over:
                        return
                part = await self._part(batch)
                yield part, sub.position
                sub.position = part.last
                if part.over:
                    return
        except StreamsClosing:  # the service stopped while this stream read its backlog
            yield _ending("retry", sub.position)

    def _batch(self, raws: list[bytes]) -> Batch:
        assert self.sub is not None
        records = [decode_record(r) for r in raws]
        return Batch(self.sub.deal_id, records, [self._kit.decode_event(r.data) for r in records], raws)

    async def _part(self, batch: Batch) -> Part:
        assert self.sub is not None
        viewer = self.sub.viewer
        part = batch.memo.get(viewer)
        if part is None:
            part = batch.memo[viewer] = asyncio.ensure_future(self._streams.part_for(batch, viewer))
        return await part


class LiveStreams:
    """Opens live streams (through the hub) and builds each batch's part for each viewer."""

    def __init__(self, folds: Folds, presence: Presence, hub: StreamHub) -> None:
        self.folds = folds
        self.presence = presence
        self.hub = hub
        self.boards: Any = None  # ``Boards``: whether a finished deal is a sealed board (TN-3.6)

    async def open(
        self,
        deal_id: str,
        viewer: Viewer,
        after: int,
        alive: Callable[[], bool],
        abort: Callable[[], None],
        seen_tag: str | None = None,
        owner: str | None = None,
    ) -> Live:
        """A stream from ``after``; ``TooManyStreams`` when the process serves its maximum, or
        ``StreamShareSpent`` when a spectator's address (``owner``) holds its share of them.
        ``seen_tag`` (the id's part after the version, ``record_tag``) names the record the client
        saw at ``after``: when the store holds another record there (a rollback made that version
        again), the client's history is not the store's and it gets ``reset``."""
        folded = await self.folds.load(deal_id)
        gate.may_watch(folded, viewer)  # a live deal nobody may watch streams to its seats only
        if after <= folded.version and not await self._same_record(deal_id, folded, after, seen_tag):
            return Live(
                self, folded.kit, None, folded.version, "reset"
            )  # the store holds another record where the client saw one
        if after >= folded.version and folded.over:
            return Live(
                self, folded.kit, None, folded.version, "deal-over"
            )  # a finished deal read to its end
        if after > folded.version:
            return Live(
                self, folded.kit, None, folded.version, "reset"
            )  # the store holds less than the client saw
        if self.hub.closing:  # the service is stopping: ask the client to come back (elsewhere)
            return Live(self, folded.kit, None, after, "retry")
        sub = self.hub.open(folded, deal_id, viewer, after, alive, abort, owner)
        live = Live(self, folded.kit, sub, folded.version, None)
        if viewer.seat is not None:  # the seat is connected while its stream is open
            try:
                live.presence = await self.presence.hold(deal_id, viewer.seat)
            except BaseException:  # cancelled meanwhile: the stream never starts
                live.close()
                raise
        return live

    async def _same_record(self, deal_id: str, folded: Any, version: int, seen_tag: str | None) -> bool:
        if seen_tag is None or version < 1:
            return True
        raws = await self.folds.store.read_raw(deal_id, version, version)
        return bool(raws) and record_tag(id_key(folded), raws[0]) == seen_tag

    async def part_for(self, batch: Batch, viewer: Viewer) -> Part:
        """The viewer's messages for a batch, through the gate: its events, then its view at the
        batch's version (mjai-style: a seat's legal actions when it must act, so a client never
        polls; a spectator's public table), then ``deal-over`` if the deal ended."""
        folded = self.folds.cached(batch.deal_id)
        if folded is None or folded.version < batch.last:
            folded = await self.folds.load(batch.deal_id)
        pairs = list(zip((r.version for r in batch.records), batch.events, strict=True))
        round_over = await self.boards.round_over(folded) if self.boards is not None else None
        sealed = visibility.sealed_fold(folded) if visibility.sealed(folded.over, round_over) else None
        shown_events = (
            gate.sealed_stream_events(sealed, pairs, viewer)
            if sealed is not None
            else gate.stream_events(folded, pairs, viewer)
        )
        events = [
            (version, "deal-event", msgspec.json.encode({"version": version, "event": event}))
            for version, event in shown_events
        ]
        over = any(type(e).__name__ == "SeedRevealed" for e in batch.events)
        state = batch.memo.get("state")  # handed over with the batch, or worked out once
        if state is None:  # the fold may have moved on (a backlog): forward from the nearest state
            state = batch.memo["state"] = Folds.state_at(folded, batch.last)
        connected = batch.memo.get("connected")
        if connected is None:
            connected = batch.memo["connected"] = await self.presence.seats(batch.deal_id)
        if sealed is not None and batch.last > sealed.version:  # the end stays shut (TN-3.6)
            shown = visibility.sealed_view(sealed, viewer, connected)
        else:
            shown = batch.view(viewer, lambda: visibility.view_of_state(folded, state, viewer, connected))
        view = msgspec.json.encode(shown)
        closing: list[tuple[int | None, str, bytes]] = [(batch.last, "view", view)]
        if over:
            closing.append((None, "deal-over", _version_json(batch.last)))
        return Part(events, closing, batch.last, over, ids=message_ids(batch, id_key(folded)))


def message_ids(batch: Batch, key: bytes) -> dict[int, str]:
    """Each version's stream message id, ``<version>.<tag>`` (``record_tag``): a client resuming
    from it is known to have seen that very record (built once a batch)."""
    ids = batch.memo.get("ids")
    if ids is None:
        ids = batch.memo["ids"] = {
            r.version: f"{r.version}.{record_tag(key, raw)}"
            for r, raw in zip(batch.records, batch.raws, strict=True)
        }
    return ids


def _ending(name: str, position: int) -> tuple[Part, int]:
    """The one message that ends a stream early (``reset``, ``retry``), with where it stood."""
    return Part([], [(None, name, _version_json(position))], position), position


def _version(raw: bytes) -> int:
    return decode_record(raw).version


def _version_json(version: int) -> bytes:
    """``{"version": N}`` as ``json.dumps`` writes it (the data of the ending messages)."""
    return b'{"version": %d}' % version
