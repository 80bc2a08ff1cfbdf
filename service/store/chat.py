"""A deal's chat in Redis: ``<prefix>:{<deal>}:chat``, a list of the newest messages (JSON,
oldest first), in the deal's hash slot beside its log but never in it, so it has no part in the
hash chain. Each message is also published on the same name, for the live streams of every
process. The spectators' room is a second store of this kind (``room="watch"``) under
``…:chat:watch`` and ``…:chat:watch:n``, in the same slot, never mixed with the seats'. When
the archiver moves a finished deal out of Redis, its chat goes with it into the archive
(``Archive.put_chat``; the room under ``<deal_id>#watch``) and is read from there; a deal that
left Redis takes no more messages (DS-43), so nothing said is left behind."""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
from redis.exceptions import NoScriptError

from domain.errors import RuleViolation
from service.app.chat import KEPT, WATCH_SUFFIX, ChatMessage, WatcherMessage
from service.store.archive import ArchivedLogs
from service.store.keys import StoreKeys

_decode = msgspec.json.Decoder(ChatMessage)
_decode_watcher = msgspec.json.Decoder(WatcherMessage)

# push, trim and count one message, only while the deal's log is still in Redis (an archived
# deal's chat is closed: a message pushed after the archiver's removal would be left behind)
_ADD = """
if redis.call('EXISTS', KEYS[3]) == 0 then
  return -1
end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
return redis.call('INCR', KEYS[2])
"""
_ADD_SHA = hashlib.sha1(_ADD.encode()).hexdigest()


class ChatStore:
    """One room of every deal: the seats' (``room="seats"``) or the spectators' (``"watch"``)."""

    def __init__(
        self, redis: Any, prefix: str, archive: ArchivedLogs | None = None, room: str = "seats"
    ) -> None:
        if room not in ("seats", "watch"):
            raise ValueError(f"no chat room {room!r}")
        self.redis = redis
        self.prefix = prefix
        self.keys = StoreKeys(prefix)
        self.archive = archive
        self.room = room

    def key(self, deal_id: str) -> str:
        return self.keys.chat(deal_id) if self.room == "seats" else self.keys.watch_chat(deal_id)

    def counter(self, deal_id: str) -> str:
        """How many messages the room was ever said (the list keeps the newest ``KEPT``)."""
        if self.room == "seats":
            return self.keys.chat_said(deal_id)
        return self.keys.watch_chat_said(deal_id)

    def archive_key(self, deal_id: str) -> str:
        """The room's row in the archive's chat table."""
        return deal_id if self.room == "seats" else deal_id + WATCH_SUFFIX

    async def add(self, deal_id: str, message: ChatMessage | WatcherMessage) -> int:
        """Keep the message and ring the deal's chat doorbell with its number (the channel is the
        list's name; ``service.app.chat.relay`` listens). DS-43 once the deal is archived."""
        key = self.key(deal_id)
        raw = msgspec.json.encode(message)
        keys = (key, self.counter(deal_id), self.keys.events(deal_id))
        try:
            number = int(await self.redis.evalsha(_ADD_SHA, len(keys), *keys, raw, KEPT))
        except NoScriptError:
            number = int(await self.redis.eval(_ADD, len(keys), *keys, raw, KEPT))
        if number < 0:
            raise RuleViolation("DS-43", "this deal has been archived: its chat is kept, and closed")
        await self.redis.publish(key, number)
        return number

    async def said(self, deal_id: str) -> int:
        return int(await self.redis.get(self.counter(deal_id)) or 0)

    async def newest(self, deal_id: str, count: int) -> list[bytes]:
        """The newest ``count`` messages as stored (JSON), oldest first."""
        if count <= 0:
            return []
        return list(await self.redis.lrange(self.key(deal_id), -min(count, KEPT), -1))

    async def messages(self, deal_id: str) -> list[ChatMessage]:
        return [_decode.decode(raw) for raw in await self.raw(deal_id)]

    async def watcher_messages(self, deal_id: str) -> list[WatcherMessage]:
        return [_decode_watcher.decode(raw) for raw in await self.raw(deal_id)]

    async def raw(self, deal_id: str) -> list[bytes]:
        """The kept messages as stored: from Redis while the deal is there, else the archive's."""
        kept = list(await self.redis.lrange(self.key(deal_id), 0, -1))
        if kept or self.archive is None:
            return kept
        archived = await self.archive.chat(self.archive_key(deal_id))
        return [] if archived is None else archived[1]
