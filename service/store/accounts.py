"""Accounts, their sessions and device codes, in Redis.

Keys (each its own hash tag, so any of them may live on any Cluster shard; no command touches two
tags at once):

- ``<prefix>:{account:<id>}`` a hash: ``name`` (as shown), ``skeleton`` (what must be unique,
  ``service.app.accounts.names``), ``password`` (the Argon2id hash, never the password),
  ``created_ms``. Ratings, once they exist, are folds of the finished logs and may be cached in
  a key of their own beside it; nothing here needs to change for them.
- ``<prefix>:{account:<id>}:sessions`` a set: the digests of the account's live sessions (for
  "sign out everywhere" and for deleting the account).
- ``<prefix>:{account-name:<sha256 of the skeleton>}`` the account id holding that name.
- ``<prefix>:{session:<sha256 of the session>}`` the account id, with the session's lifetime.
- ``<prefix>:{device-code:<sha256 of the code>}`` the account id, for at most ten minutes; taken
  with ``GETDEL``, so a code signs in once.

The account's games are a player list of the player index (``service.store.player_index``)
under the digest ``account-<id>``: the same rows, the same reads, the same export.
A session, a device code and a password are never stored: only their digests (a password's
Argon2id hash). The export carries the account hashes and name keys, never a session or a code.
"""

from __future__ import annotations

import hashlib
from typing import Any

from service.store.redis_log import text

# appends a seat token's digest to a deal's ``device:<seat>`` meta field (comma-separated, the
# newest last, at most ARGV[3]); nothing when the deal's meta is gone (archived): answers 1 or 0
_ADD_DEVICE = """
if redis.call('HEXISTS', KEYS[1], 'game') == 0 then return 0 end
local held = redis.call('HGET', KEYS[1], ARGV[1])
local list = {}
if held then for d in string.gmatch(held, '[^,]+') do table.insert(list, d) end end
table.insert(list, ARGV[2])
while #list > tonumber(ARGV[3]) do table.remove(list, 1) end
redis.call('HSET', KEYS[1], ARGV[1], table.concat(list, ','))
return 1
"""


def sha256(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def games_digest(account_id: str) -> str:
    """The player-index digest an account's games are listed under."""
    return f"account-{account_id}"


class AccountStore:
    def __init__(self, redis: Any, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix

    # key names -------------------------------------------------------------------
    def account(self, account_id: str) -> str:
        return f"{self.prefix}:{{account:{account_id}}}"

    def sessions_of(self, account_id: str) -> str:
        return f"{self.prefix}:{{account:{account_id}}}:sessions"

    def name_key(self, skeleton: str) -> str:
        return f"{self.prefix}:{{account-name:{sha256(skeleton)}}}"

    def session(self, digest: str) -> str:
        return f"{self.prefix}:{{session:{digest}}}"

    def device_code(self, digest: str) -> str:
        return f"{self.prefix}:{{device-code:{digest}}}"

    # accounts ----------------------------------------------------------------------
    async def claim_name(self, skeleton: str, account_id: str) -> bool:
        """Take the name for ``account_id``; False when another account holds it."""
        return bool(await self.redis.set(self.name_key(skeleton), account_id, nx=True))

    async def create(self, account_id: str, fields: dict[str, str]) -> None:
        await self.redis.hset(self.account(account_id), mapping=fields)

    async def by_name(self, skeleton: str) -> str | None:
        held = await self.redis.get(self.name_key(skeleton))
        return None if held is None else text(held)

    async def get(self, account_id: str) -> dict[str, str]:
        raw = await self.redis.hgetall(self.account(account_id))
        return {text(k): text(v) for k, v in raw.items()}

    async def delete(self, account_id: str, skeleton: str) -> None:
        """The account, its name, its sessions and its list of games."""
        for digest in await self.session_digests(account_id):
            await self.redis.delete(self.session(digest))
        await self.redis.delete(self.sessions_of(account_id))
        held = await self.by_name(skeleton)
        if held == account_id:
            await self.redis.delete(self.name_key(skeleton))
        await self.redis.delete(self.account(account_id))

    # sessions ----------------------------------------------------------------------
    async def add_session(self, digest: str, account_id: str, ttl_s: int) -> None:
        await self.redis.set(self.session(digest), account_id, ex=ttl_s)
        await self.redis.sadd(self.sessions_of(account_id), digest)

    async def renew_session(self, digest: str, ttl_s: int) -> bool:
        """Give a live session its whole lifetime again; False if it is gone."""
        return bool(await self.redis.expire(self.session(digest), ttl_s))

    async def session_account(self, digest: str) -> str | None:
        held = await self.redis.get(self.session(digest))
        return None if held is None else text(held)

    async def drop_session(self, digest: str, account_id: str) -> None:
        await self.redis.delete(self.session(digest))
        await self.redis.srem(self.sessions_of(account_id), digest)

    async def session_digests(self, account_id: str) -> list[str]:
        return sorted(text(d) for d in await self.redis.smembers(self.sessions_of(account_id)))

    async def drop_all_sessions(self, account_id: str) -> int:
        digests = await self.session_digests(account_id)
        for digest in digests:
            await self.drop_session(digest, account_id)
        return len(digests)

    # device codes -------------------------------------------------------------------
    async def add_device_code(self, digest: str, account_id: str, ttl_s: int) -> None:
        await self.redis.set(self.device_code(digest), account_id, ex=ttl_s)

    async def take_device_code(self, digest: str) -> str | None:
        """The account of a code, once: the code is gone after this."""
        held = await self.redis.getdel(self.device_code(digest))
        return None if held is None else text(held)

    # a seat reopened on another device ------------------------------------------------
    async def add_device_token(self, meta_key: str, seat: int, digest: str, keep: int) -> bool:
        """A new seat token's digest beside the seat's others (the oldest beyond ``keep``
        dropped); False when the deal's meta is not in Redis (an archived deal)."""
        done = await self.redis.eval(_ADD_DEVICE, 1, meta_key, f"device:{seat}", digest, keep)
        return bool(int(done))

    # moving between stores -------------------------------------------------------------
    async def export(self) -> dict[str, dict[str, str]]:
        """Every account hash by id (sessions and device codes stay behind)."""
        head = f"{self.prefix}:{{account:"
        found: dict[str, dict[str, str]] = {}
        async for key in self.redis.scan_iter(match=f"{head}*}}", count=500):
            name = text(key)
            account_id = name[len(head) : -1]
            if "}" in account_id:
                continue
            fields = await self.get(account_id)
            if fields:
                found[account_id] = fields
        return dict(sorted(found.items()))

    async def import_one(self, account_id: str, fields: dict[str, str]) -> str:
        """``stored``, ``skipped`` (the same account is there) or ``refused`` (its name is taken
        by another account of the target)."""
        skeleton = fields.get("skeleton", "")
        if not skeleton or not fields.get("name") or not fields.get("password"):
            return "refused"
        if await self.claim_name(skeleton, account_id):
            await self.create(account_id, fields)
            return "stored"
        return "skipped" if await self.by_name(skeleton) == account_id else "refused"
