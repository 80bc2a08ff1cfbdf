"""A deal's chat in Redis: ``<prefix>:{<deal>}:chat``, a list of the newest messages (JSON,
oldest first), in the deal's hash slot beside its log but never in it, so it has no part in the
hash chain. Each message is also published on the same name, for the seats' live streams of
every process."""

from __future__ import annotations

from typing import Any

import msgspec

from service.app.chat import KEPT, ChatMessage

_decode = msgspec.json.Decoder(ChatMessage)


class ChatStore:
    def __init__(self, redis: Any, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix

    def key(self, deal_id: str) -> str:
        return f"{self.prefix}:{{{deal_id}}}:chat"

    def counter(self, deal_id: str) -> str:
        """How many messages the deal was ever said (the list keeps the newest ``KEPT``)."""
        return f"{self.prefix}:{{{deal_id}}}:chat:n"

    async def add(self, deal_id: str, message: ChatMessage) -> int:
        """Keep the message and ring the deal's chat doorbell with its number (the channel is the
        list's name; ``service.app.chat.relay`` listens)."""
        key = self.key(deal_id)
        raw = msgspec.json.encode(message)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.rpush(key, raw)
            pipe.ltrim(key, -KEPT, -1)
            pipe.incr(self.counter(deal_id))
            number = int((await pipe.execute())[2])
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
        return [_decode.decode(raw) for raw in await self.redis.lrange(self.key(deal_id), 0, -1)]

    async def raw(self, deal_id: str) -> list[bytes]:
        return list(await self.redis.lrange(self.key(deal_id), 0, -1))
