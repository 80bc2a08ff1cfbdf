"""Who a player key is: its digest, and the seats listed under it (issue 24, "My games").

A browser makes a player key (``crypto.getRandomValues``, base64url) and sends it as
``"player_key"`` when it creates or joins a deal or a match, and in ``X-Player-Key`` to read its
own list. The service learns only ``HMAC-SHA256(salt, key)``, the salt one random value per
installation kept in Redis (``service.store.player_index``); the key itself is never stored,
logged or put into an event, and the digest never goes into a deal's log or meta (finished logs
are public: a digest there would link a person's deals). Shared by the command side (which lists
a seat under its player) and the read side (which reads a player's list), like the seat tokens.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import Any

from domain.errors import RuleViolation
from service.store.event_store import EventStore
from service.store.player_index import PlayerRow

PLAYER_KEY_PATTERN = r"^[A-Za-z0-9_-]{16,128}$"
_PLAYER_KEY = re.compile(r"[A-Za-z0-9_-]{16,128}")
PLAYER_KEY_RULE = "16 to 128 characters of A-Z, a-z, 0-9, '_' and '-'"


def check_player_key(key: Any) -> str:
    """The key as given, or DS-26 (the message never repeats what was sent)."""
    if not isinstance(key, str) or not _PLAYER_KEY.fullmatch(key):
        raise RuleViolation("DS-26", f"a player key is {PLAYER_KEY_RULE}")
    return key


class Players:
    """Player keys to digests (the salt read once per process) and each digest's seats."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._salt: bytes | None = None

    async def digest(self, key: Any) -> str:
        """``HMAC-SHA256(salt, key)`` of a well-formed key (DS-26 otherwise)."""
        key = check_player_key(key)
        if self._salt is None:
            self._salt = await self.store.players.salt()
        return hmac.new(self._salt, key.encode(), hashlib.sha256).hexdigest()

    async def seated(self, digest: str, kind: str, id_: str, seats: list[int], created_ms: int) -> None:
        """List the seats the player took in one deal or match."""
        for seat in seats:
            await self.store.players.add(digest, kind, id_, seat, created_ms)

    async def rows(self, digest: str, before_ms: int | None, count: int) -> list[PlayerRow]:
        return await self.store.players.rows(digest, before_ms, count)
