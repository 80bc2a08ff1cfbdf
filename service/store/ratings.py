"""The rated results, in Redis, in the order they were recorded; the ratings are their fold.

- ``<prefix>:{ratings:<game>}`` a sorted set whose members all score 0, so Redis keeps them in
  byte order: ``<recorded_at>\\t<kind>:<id>\\t<the result as JSON>``, i.e. by the time of the
  record that ended the result, then its id: the order ``projections.ratings`` folds in.
  Adding a result again adds nothing (the same member), so two processes, or one that
  restarted, that both saw a deal end count it once.

The ratings are not stored: each process folds this index (``projections.ratings``), keeps the
fold, and on a read folds in only the members that came after the last one it applied; a
member that sorts before it (a process that recorded late) makes it fold from the start. So
the live ratings are exactly what ``dealstream ratings rebuild`` computes from the logs, as long
as the index holds every rated result the logs hold (a process that died between a deal's
last append and this index leaves the result to the next rebuild, ``--write``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec

from projections.ratings import RatedResult, Ratings, fold

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(RatedResult).decode


def member(result: RatedResult) -> bytes:
    return f"{result.at}\t{result.kind}:{result.result_id}\t".encode() + _encode(result)


def _result(raw: bytes | str) -> RatedResult:
    data = raw.encode() if isinstance(raw, str) else raw
    return _decode(data.split(b"\t", 2)[2])


class RatingStore:
    """The per-game index of rated results and this process's fold of it."""

    def __init__(self, redis: Any, prefix: str, games: list[str]) -> None:
        self.redis = redis
        self.prefix = prefix
        self.games = sorted(games)
        self._folds: dict[str, tuple[Ratings, bytes | None, int]] = {}
        self._lock = asyncio.Lock()

    def key(self, game: str) -> str:
        return f"{self.prefix}:{{ratings:{game}}}"

    async def record(self, result: RatedResult) -> None:
        await self.redis.zadd(self.key(result.game), {member(result): 0})

    async def replace(self, results: list[RatedResult]) -> None:
        """Every game's index made to hold exactly ``results`` (``ratings rebuild --write``)."""
        for game in self.games:
            members = {member(r): 0 for r in results if r.game == game}
            pipe = self.redis.pipeline(transaction=True)
            pipe.delete(self.key(game))
            if members:
                pipe.zadd(self.key(game), members)
            await pipe.execute()

    async def ratings(self, game: str) -> Ratings:
        """The fold of ``game``'s results as the index holds them now."""
        async with self._lock:
            held, last, count = self._folds.get(game, (Ratings(), None, 0))
            key = self.key(game)
            fresh = [] if last is None else await self.redis.zrangebylex(key, b"(" + last, b"+")
            total = await self.redis.zcard(key)
            # nothing folded yet, or one came in before the last applied: fold anew
            if last is None or total != count + len(fresh):
                everything = await self.redis.zrange(key, 0, -1)
                # a long fold runs off the event loop (a new process's first read folds them all)
                held = await asyncio.to_thread(fold, [_result(m) for m in everything])
                members = [m if isinstance(m, bytes) else m.encode() for m in everything]
                if members:  # an empty index is asked again next time (cheap)
                    self._folds[game] = (held, members[-1], len(members))
                return held
            if fresh:  # on the loop: the fold others hold is never changed from another thread
                held.extend(_result(m) for m in fresh)
                tail = fresh[-1]
                last = tail if isinstance(tail, bytes) else tail.encode()
            self._folds[game] = (held, last, count + len(fresh))
            return held
