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

    async def add(self, deal_id: str, message: ChatMessage) -> None:
        key = self.key(deal_id)
        raw = msgspec.json.encode(message)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.rpush(key, raw)
            pipe.ltrim(key, -KEPT, -1)
            await pipe.execute()
        await self.redis.publish(key, raw)

    async def messages(self, deal_id: str) -> list[ChatMessage]:
        return [_decode.decode(raw) for raw in await self.redis.lrange(self.key(deal_id), 0, -1)]

    async def raw(self, deal_id: str) -> list[bytes]:
        return list(await self.redis.lrange(self.key(deal_id), 0, -1))
