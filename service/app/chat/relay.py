"""The live streams carry the chat: each process listens on the chat doorbell of every deal it
streams to a seat (``service.store.chat`` rings it with the message's number after keeping the
message) and hands each new message to those seats' subscriptions as a ``chat`` item;
``service.app.live.streams`` makes it a ``chat`` message. The spectators' room goes the same
way to the spectators' streams only: each room has its own relay (``_RoomRelay``), and a seat's
stream never gets the spectators' words nor a spectator's the seats'. Any process may keep a
message, so every process hears every deal's doorbell it needs."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

import msgspec

from service.app.live.hub import StreamHub
from service.store.chat import ChatStore
from service.store.doorbell import Doorbell
from service.store.outages import STORE_OUTAGES

log = logging.getLogger("dealstream.chat")
RECENT_MS = 10_000  # said this recently before the relay heard a deal: handed out once more
RECENT_COUNT = 20
LOOK_S = 0.1  # how often the relay looks at which deals have seats' streams here


@dataclass(frozen=True)
class ChatLine:
    """One chat message for a seat's stream: the message as stored (JSON)."""

    data: bytes


class _At(msgspec.Struct):
    at: int = 0


_read_at = msgspec.json.Decoder(_At)


def _at(raw: bytes) -> int:
    return _read_at.decode(raw).at


class ChatRelay:
    """The seats' room to the seats' streams and, given ``watch``, the spectators' room to the
    spectators' streams."""

    def __init__(self, hub: StreamHub, chat: ChatStore, watch: ChatStore | None = None) -> None:
        self.seats = _RoomRelay(hub, chat, for_seats=True)
        self.watchers = None if watch is None else _RoomRelay(hub, watch, for_seats=False)

    def listening(self, deal_id: str) -> bool:
        """Redis confirmed this process hears the deal's seats' chat doorbell (for tests)."""
        return self.seats.listening(deal_id)

    def listening_watchers(self, deal_id: str) -> bool:
        """Likewise for the deal's spectators' room (for tests)."""
        return self.watchers is not None and self.watchers.listening(deal_id)

    async def run(self) -> None:
        rooms = [self.seats] if self.watchers is None else [self.seats, self.watchers]
        await asyncio.gather(*(room.run() for room in rooms))

    def close(self) -> None:
        self.seats.close()
        if self.watchers is not None:
            self.watchers.close()


class _RoomRelay:
    def __init__(self, hub: StreamHub, chat: ChatStore, for_seats: bool) -> None:
        self.hub = hub
        self.chat = chat
        self.for_seats = for_seats
        self._seen: dict[str, int] = {}  # by deal: the number of the last message handed out
        self._closed = False

    def listening(self, deal_id: str) -> bool:
        """Redis confirmed this process hears the deal's chat doorbell (for tests)."""
        return deal_id in self._seen

    def _reader(self, sub: Any) -> bool:
        """Whether the subscription reads this room: a seat's the seats', a spectator's the
        spectators'."""
        return (sub.viewer.seat is not None) == self.for_seats

    def _read_here(self) -> set[str]:
        """The deals with a stream here that reads this room (the hub keeps both sets as streams
        come and go, so neither a feed nor a subscriber is looked at)."""
        return set(self.hub.seated_deals if self.for_seats else self.hub.watched_deals)

    async def run(self) -> None:
        backoff = 0.05
        idle = f"{self.chat.prefix}:chat-idle"  # pub/sub needs one channel before it reads
        while not self._closed:
            bell = Doorbell(self.chat.redis)
            self._seen.clear()
            try:
                await bell.open([idle])
                subscribed: dict[str, str] = {}  # channel -> deal
                channels: dict[str, str] = {}  # deal -> channel (the same, the other way)
                pending: dict[str, int] = {}  # by deal: messages said before its subscription
                backoff = 0.05
                looked = 0.0
                joins = -1  # the hub's count of subscriptions and leaves at the last look
                loop = asyncio.get_running_loop()
                while not self._closed:
                    # which deals have seats' streams here: looked at once per LOOK_S, not per
                    # message, and only when a stream came or went since (not a scan of every feed)
                    if loop.time() - looked >= LOOK_S and self.hub.joins != joins:
                        looked = loop.time()
                        joins = self.hub.joins
                        wanted = self._read_here()
                        new = {self.chat.key(d): d for d in wanted - channels.keys()}
                        gone = {channels[d]: d for d in channels.keys() - wanted}
                        # counted before: a message said meanwhile is read with the next
                        for joined in new.values():
                            pending[joined] = await self.chat.said(joined)
                        if new:
                            await bell.subscribe(sorted(new))
                        if gone:
                            await bell.unsubscribe(sorted(gone))
                            for key, left in gone.items():
                                self._seen.pop(left, None)
                                pending.pop(left, None)
                                del subscribed[key], channels[left]
                        for key, joined in new.items():
                            subscribed[key], channels[joined] = joined, key
                    message = await bell.next(LOOK_S)
                    if message is None:
                        continue
                    kind, channel = message
                    deal_id = subscribed.get(channel)
                    if deal_id is None:
                        continue
                    if kind == "subscribe" and deal_id in pending:  # from here on every ring reaches us
                        self._seen[deal_id] = pending.pop(deal_id)
                        await self._hand_out_recent(deal_id)
                        await self._hand_out(deal_id, None)
                    elif kind == "message" and deal_id in self._seen:
                        await self._hand_out(deal_id, bell.rung)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the relay must outlive any surprise
                if isinstance(exc, (*STORE_OUTAGES, TimeoutError)):
                    log.warning("chat doorbell lost (%s); reconnecting", exc)
                else:
                    log.exception("chat doorbell failed; reconnecting")
            finally:
                await bell.close()
            await asyncio.sleep(backoff)
            backoff = min(1.0, backoff * 2)

    async def _hand_out(self, deal_id: str, number: int | None) -> None:
        seen = self._seen[deal_id]
        if number is None:
            number = await self.chat.said(deal_id)
        if number <= seen:
            return
        self._seen[deal_id] = number
        self._give(deal_id, await self.chat.newest(deal_id, number - seen))

    def _give(self, deal_id: str, raws: list[bytes]) -> None:
        feed = self.hub.feeds.get(deal_id)
        if feed is None or not raws:
            return
        for sub in list(feed.subscribers):
            if self._reader(sub) and sub.reason is None:
                for raw in raws:
                    sub.queue.put_nowait(ChatLine(raw))

    async def _hand_out_recent(self, deal_id: str) -> None:
        """The messages of the last ``RECENT_MS`` up to the baseline: a seat's stream opened that
        long before this process heard the deal's doorbell, and a page may have read the chat
        before one of them was said. A client drops what it already has (same seat, time, text)."""
        said = self._seen[deal_id]
        since = int(time.time() * 1000) - RECENT_MS
        raws = await self.chat.newest(deal_id, min(said, RECENT_COUNT))
        kept = await self.chat.said(deal_id)
        raws = raws[: max(0, len(raws) - (kept - said))]  # those after the baseline come next
        recent = [raw for raw in raws if _at(raw) >= since]
        self._give(deal_id, recent)

    def close(self) -> None:
        self._closed = True
