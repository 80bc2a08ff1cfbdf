"""Taking a deal out of Redis: the archiver's snapshot and conditional removal, and deletion.

Kept together because these are the only writes that remove a deal's keys, and every one must
remove all of them and its index entries, and make the log recorder forget the head it cached
(else an append would chain onto a log that is gone). The removal script deletes a deal only
while it is still exactly what the archive holds (``remove_archived.lua``).
"""

from __future__ import annotations

import hashlib
from importlib.resources import files
from typing import Any

from redis.asyncio.cluster import RedisCluster
from redis.exceptions import NoScriptError

from service.store.deal_index import DealIndexes
from service.store.keys import StoreKeys
from service.store.redis_log import RedisLogRecorder, field_bytes, text

_REMOVE_LUA = files("service.store").joinpath("remove_archived.lua").read_text()
_REMOVE_SHA = hashlib.sha1(_REMOVE_LUA.encode()).hexdigest()


class DealRemoval:
    """Removes deals from Redis; the one place that lists the keys a deal leaves behind."""

    def __init__(self, redis: Any, keys: StoreKeys, log: RedisLogRecorder, indexes: DealIndexes) -> None:
        self.redis = redis
        self.keys = keys
        self.log = log
        self.indexes = indexes

    def _deal_keys(self, deal_id: str) -> list[str]:
        """Every key a deal owns that leaves Redis with it (presence expires on its own)."""
        keys = self.keys
        return [
            keys.events(deal_id), keys.meta(deal_id), keys.commands(deal_id), keys.archive_lease(deal_id),
            keys.chat(deal_id), keys.chat_said(deal_id),
            keys.watch_chat(deal_id), keys.watch_chat_said(deal_id),
        ]  # fmt: skip

    async def delete_deal(self, deal_id: str) -> None:
        """Remove a deal from Redis: its keys and every index entry (the finished index too, so
        the archiver does not look for it)."""
        await self.redis.delete(*self._deal_keys(deal_id))
        await self.indexes.forget_finished(deal_id)
        self.log.forget(deal_id)

    async def archive_snapshot(
        self, deal_id: str
    ) -> tuple[list[bytes], dict[str, str], int | None, str | None]:
        """(records, meta, recorded version, recorded head hash) of one deal, in one round trip.
        Not a transaction (a cluster client pipelines without one): the archiver checks the
        four agree, and the removal script checks them again before it deletes anything."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(self.keys.events(deal_id), "-", "+")
        pipe.hgetall(self.keys.meta(deal_id))
        pipe.hmget(self.keys.commands(deal_id), "v", "h")
        entries, meta, (version, head) = await pipe.execute()
        records = [field_bytes(fields, b"e") for _id, fields in entries]
        meta_text = {text(k): text(v) for k, v in meta.items()}
        return (
            records,
            meta_text,
            None if version is None else int(version),
            None if head is None else text(head),
        )

    async def chat_snapshot(self, deal_id: str, watch: bool = False) -> tuple[int, list[bytes]]:
        """(messages ever said, the kept messages as stored) of the deal's chat (``watch``: of
        its spectators' room), in one round trip; the removal script checks the count again
        before it deletes the room."""
        keys = self.keys
        said_key = keys.watch_chat_said(deal_id) if watch else keys.chat_said(deal_id)
        list_key = keys.watch_chat(deal_id) if watch else keys.chat(deal_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(said_key)
        pipe.lrange(list_key, 0, -1)
        said, messages = await pipe.execute()
        return int(said or 0), [m if isinstance(m, bytes) else m.encode() for m in messages]

    async def remove_archived(
        self,
        deal_id: str,
        lease_token: str,
        head_hash: str,
        count: int,
        meta: dict[str, str],
        chat_said: int = 0,
        watch_said: int = 0,
    ) -> int:
        """Delete the deal's keys and index entries iff the lease is ``lease_token``'s and the
        log, meta and both chat rooms are still the archived ones. 0 removed, 1 lease lost, 2 log
        changed, 3 meta changed, 4 a chat message (either room) came since the chat's copy
        (``remove_archived.lua``);
        nothing is written unless 0.

        On one server the index entries go in the same script. On Redis Cluster the indexes
        live in other slots, so the script deletes the deal's own keys and the entries follow
        (a crash in between leaves entries that the archiver's next round drops)."""
        on_cluster = isinstance(self.redis, RedisCluster)
        keys = self._deal_keys(deal_id)
        if not on_cluster:
            keys += [self.keys.index, self.keys.public_index, self.keys.finished_index]
        metas = (part for item in meta.items() for part in item)
        args = (lease_token, deal_id, head_hash, count, chat_said, watch_said, *metas)
        try:
            answer = int(await self.redis.evalsha(_REMOVE_SHA, len(keys), *keys, *args))
        except NoScriptError:
            answer = int(await self.redis.eval(_REMOVE_LUA, len(keys), *keys, *args))
        if answer == 0:
            self.log.forget(deal_id)
            if on_cluster:
                await self.indexes.forget_finished(deal_id)
        return answer
