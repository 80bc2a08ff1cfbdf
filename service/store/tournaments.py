"""Tournaments in Redis: each one's log beside the deals' (``<prefix>:tournament:{<id>}:events``),
its secrets in its meta hash, its runner's lease, and the index of live ones.

The log is the deals' machinery under another key space, as a match's is: an ``EventStore``
with the prefix ``<prefix>:tournament``, so a tournament gets the conditional append, command ids
and hash chain of a deal. Every key of one tournament carries its hash tag (Cluster-safe). The
meta hash holds what must never be published: the round seeds until their reveal, the digest of
the arbiter's token, the client seeds of the house entrants. The clock index
(``<prefix>:tournament:deals:clocks``) lists the live tournaments by when a runner should look.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from domain.tournament.events import TournamentEvent
from domain.tournament.state import TournamentState, fold
from service.store.event_store import AppendResult, EventStore, VersionConflict
from service.store.looks import LookAlarm

__all__ = ["TournamentStore", "TournamentNotFound", "VersionConflict", "token_digest"]

_decode = msgspec.json.Decoder(TournamentEvent).decode


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class TournamentNotFound(Exception):
    def __init__(self, tournament_id: str) -> None:
        super().__init__(f"no tournament {tournament_id!r}")
        self.tournament_id = tournament_id


class TournamentStore:
    def __init__(self, deals: EventStore) -> None:
        self.store = EventStore(deals.redis, f"{deals.prefix}:tournament", wait_replicas=deals.wait_replicas)
        self.redis = deals.redis
        self.alarm = LookAlarm()  # the looks scheduled here, for the runner's sleep

    def _lease_key(self, tournament_id: str) -> str:
        return f"{self.store.prefix}:{{{tournament_id}}}:lease"

    async def raw(self, tournament_id: str) -> list[bytes]:
        return await self.store.read_raw(tournament_id)

    async def state(self, tournament_id: str) -> tuple[TournamentState, int]:
        """The tournament folded and its log's version (``TournamentNotFound`` for none)."""
        records = await self.store.read(tournament_id)
        if not records:
            raise TournamentNotFound(tournament_id)
        return fold(_decode(r.data) for r in records), len(records)

    async def append(
        self, tournament_id: str, expected: int, events: list[Any], command_id: str
    ) -> AppendResult:
        return await self.store.append(tournament_id, expected, events, command_id=command_id)

    # secrets --------------------------------------------------------------------------------
    async def put_secrets(self, tournament_id: str, fields: dict[str, str]) -> None:
        await self.redis.hset(self.store.keys.meta(tournament_id), mapping=fields)

    async def secret(self, tournament_id: str, field: str) -> str | None:
        value = await self.redis.hget(self.store.keys.meta(tournament_id), field)
        return value.decode() if isinstance(value, bytes) else value

    async def claim(self, tournament_id: str, field: str, value: str) -> str:
        """Set ``field`` unless set; the value it holds after (one winner across processes)."""
        key = self.store.keys.meta(tournament_id)
        await self.redis.hsetnx(key, field, value)
        held = await self.redis.hget(key, field)
        return held.decode() if isinstance(held, bytes) else str(held)

    # a duplicate round's matches: whose board each deal of theirs is (one hash, read per deal)
    def _boards_key(self) -> str:
        return f"{self.store.prefix}:boards"

    async def map_board(self, match_id: str, tournament_id: str, round_no: int) -> None:
        await self.redis.hset(self._boards_key(), match_id, f"{tournament_id}:{round_no}")

    async def board_of(self, match_id: str) -> tuple[str, int] | None:
        held = await self.redis.hget(self._boards_key(), match_id)
        if held is None:
            return None
        tournament_id, _, round_no = (held.decode() if isinstance(held, bytes) else held).rpartition(":")
        return tournament_id, int(round_no)

    # every tournament table's match: its deals start for an absent person (TN-1.4)
    def _tables_key(self) -> str:
        return f"{self.store.prefix}:tables"

    async def map_table(self, match_id: str, tournament_id: str) -> None:
        await self.redis.hset(self._tables_key(), match_id, tournament_id)

    async def table_of(self, match_id: str) -> str | None:
        held = await self.redis.hget(self._tables_key(), match_id)
        return None if held is None else held.decode() if isinstance(held, bytes) else str(held)

    # the runner's lease and index -------------------------------------------------------------
    async def take_lease(self, tournament_id: str, holder: str, ttl_ms: int) -> bool:
        """One runner at a time per tournament (renewed by its holder, lapsing if it dies)."""
        key = self._lease_key(tournament_id)
        if await self.redis.set(key, holder, nx=True, px=ttl_ms):
            return True
        held = await self.redis.get(key)
        if (held.decode() if isinstance(held, bytes) else held) == holder:
            await self.redis.pexpire(key, ttl_ms)
            return True
        return False

    async def release_lease(self, tournament_id: str, holder: str) -> None:
        key = self._lease_key(tournament_id)
        held = await self.redis.get(key)
        if (held.decode() if isinstance(held, bytes) else held) == holder:
            await self.redis.delete(key)

    async def look_at(self, tournament_id: str, at_ms: int) -> None:
        await self.store.indexes.schedule_clock(tournament_id, at_ms)
        self.alarm.schedule(at_ms)

    async def done(self, tournament_id: str) -> None:
        await self.store.indexes.unschedule_clock(tournament_id)

    async def due(self, now_ms: int, count: int = 100) -> list[str]:
        return await self.store.indexes.clocks_due(now_ms, count)

    def close(self) -> None:
        self.store.close()
