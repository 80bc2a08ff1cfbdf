"""Bot program seats in use, so the program processes anyone can make the service start have a
bound per address and in all (docs/bots.md, "Limits"; ``DS-32``, ``DS-33``).

Each seat a registered program plays at a live deal (or match: its deals follow one another) is
one member ``<holder>#<seat>#<owner>`` of one sorted set, scored by when it was reserved:
``holder`` is the deal's id, or the match's; ``owner`` the digest of the address that made it.
A creation reserves its program seats before the deal exists (under a reservation id), in one
script that counts and adds at once, so a burst gets no more than the bounds; once made, the
seats are moved to the deal or match, and they are given back when it ends (or when the creation
failed). The set never holds more than the bound in all (a few dozen members), so reading it
whole is cheap, and it is one key (one slot on a Redis Cluster). A member older than
``LEASE_MS`` is dropped: a process that died between a reservation and its release does not
hold a place for good.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from typing import Any

LEASE_MS = 2 * 3600 * 1000  # the longest a reserved program seat counts

_RESERVE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
local suffix = '#' .. ARGV[5]
local wanted = #ARGV - 6
local mine = 0
for _, member in ipairs(members) do
  if string.sub(member, -#suffix) == suffix then mine = mine + 1 end
end
if mine + wanted > tonumber(ARGV[3]) then return 1 end
if #members + wanted > tonumber(ARGV[4]) then return 2 end
for i = 7, #ARGV do
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[6] .. '#' .. ARGV[i] .. suffix)
end
return 0
"""
_MOVE = """
local members = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local from = ARGV[1] .. '#'
for i = 1, #members, 2 do
  local member = members[i]
  if string.sub(member, 1, #from) == from then
    redis.call('ZREM', KEYS[1], member)
    if ARGV[2] ~= '' then
      redis.call('ZADD', KEYS[1], members[i + 1], ARGV[2] .. '#' .. string.sub(member, #from + 1))
    end
  end
end
return 0
"""


class ProgramSeatsFull(Exception):
    """No room: ``per_address`` True for this address's share (429), else the bound in all (503)."""

    def __init__(self, per_address: bool, limit: int) -> None:
        whose = "this address's deals already seat" if per_address else "the service already runs"
        super().__init__(f"{whose} {limit} bot program processes; retry once a deal with one ends")
        self.per_address = per_address
        self.limit = limit


class ProgramSeats:
    """``reserve`` before a creation, ``move`` to its deal or match once made, ``release`` at its
    end (or when the creation failed)."""

    def __init__(self, redis: Any, prefix: str, per_address: int = 8, in_all: int = 32) -> None:
        self.redis = redis
        self.key = f"{prefix}:programs:seats"
        self.per_address = per_address
        self.in_all = in_all

    async def reserve(self, owner: str, seats: list[int], holder: str | None = None) -> str:
        """Take places for ``seats`` (of one deal) against ``owner``'s share and the bound in all;
        the holder they are kept under (a new reservation id unless ``holder`` is given).
        ``ProgramSeatsFull`` when there is no room."""
        holder = holder or f"reserved-{secrets.token_hex(8)}"
        if not seats:
            return holder
        now = int(time.time() * 1000)
        digest = hashlib.sha256(owner.encode()).hexdigest()[:24]
        args = (now, now - LEASE_MS, self.per_address, self.in_all, digest, holder, *seats)
        answer = int(await self.redis.eval(_RESERVE, 1, self.key, *args))
        if answer:
            raise ProgramSeatsFull(answer == 1, self.per_address if answer == 1 else self.in_all)
        return holder

    async def move(self, holder: str, to: str) -> None:
        """The seats reserved under ``holder`` now belong to the deal or match ``to``."""
        await self.redis.eval(_MOVE, 1, self.key, holder, to)

    async def release(self, holder: str) -> None:
        """Give back every seat ``holder`` (a reservation, a deal or a match) holds."""
        await self.redis.eval(_MOVE, 1, self.key, holder, "")

    async def in_use(self) -> int:
        return int(await self.redis.zcard(self.key))
