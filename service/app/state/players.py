"""Who a player key is: its digest, and the seats listed under it ("My games").

The service mints player keys (``POST /players/keys``): 128 random bits and a tag, the first 128
bits of ``HMAC-SHA256(salt, "player-key:" + those bits)``, base64url, 44 characters. A browser
keeps its key and sends it as ``"player_key"`` when it creates or joins a deal or a match, and in
``X-Player-Key`` to read its own list. A key whose tag does not check was not minted here (a
guess, or a key a browser once made itself) and is refused (DS-26): nobody reads a list by
guessing its key. The salt is one random value per installation kept in Redis
(``service.store.player_index``), so every process on the store mints and checks alike, before
and after a restart, and nothing is kept per key. The service learns ``HMAC-SHA256(salt, key)``
to list seats under; the key itself is never stored, logged or put into an event, and the digest
never goes into a deal's log or meta (finished logs are public: a digest there would link a
person's deals). Shared by the command side (which lists a seat under its player) and the read
side (which reads a player's list), like the seat tokens.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
import secrets
from typing import Any

from domain.errors import RuleViolation
from service.store.player_index import PlayerIndex, PlayerRow

PLAYER_KEY_PATTERN = r"^[A-Za-z0-9_-]{16,128}$"
_PLAYER_KEY = re.compile(r"[A-Za-z0-9_-]{16,128}")
PLAYER_KEY_RULE = "16 to 128 characters of A-Z, a-z, 0-9, '_' and '-'"
KEY_BYTES = 16  # the random part of a minted key, and its tag
HALF = 22  # base64url characters of each
NOT_MINTED = "this player key was not issued by this server: get one from POST /players/keys"


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes | None:
    """The bytes of one half of a key, None unless it is their one base64url spelling."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None
    return raw if len(raw) == KEY_BYTES and _b64(raw) == text else None


def _tag(salt: bytes, random_part: bytes) -> bytes:
    return hmac.new(salt, b"player-key:" + random_part, hashlib.sha256).digest()[:KEY_BYTES]


def check_player_key(key: Any) -> str:
    """The key as given, or DS-26 (the message never repeats what was sent)."""
    if not isinstance(key, str) or not _PLAYER_KEY.fullmatch(key):
        raise RuleViolation("DS-26", f"a player key is {PLAYER_KEY_RULE}")
    return key


class Players:
    """Player keys to digests (the salt read once per process) and each digest's seats."""

    def __init__(self, index: PlayerIndex) -> None:
        """``index``: the store's part that lists each digest's seats (``EventStore.players``)."""
        self.index = index
        self._salt: bytes | None = None

    async def _installation_salt(self) -> bytes:
        if self._salt is None:
            self._salt = await self.index.salt()
        return self._salt

    async def mint(self) -> str:
        """A new player key: random bits and their tag (nothing is stored)."""
        random_part = secrets.token_bytes(KEY_BYTES)
        return _b64(random_part) + _b64(_tag(await self._installation_salt(), random_part))

    async def digest(self, key: Any) -> str:
        """``HMAC-SHA256(salt, key)`` of a key this service minted (DS-26 otherwise)."""
        key = check_player_key(key)
        salt = await self._installation_salt()
        random_part, tag = _unb64(key[:HALF]), _unb64(key[HALF:])
        minted = (
            len(key) == 2 * HALF
            and random_part is not None
            and tag is not None
            and hmac.compare_digest(_tag(salt, random_part), tag)
        )
        if not minted:
            raise RuleViolation("DS-26", NOT_MINTED)
        return hmac.new(salt, key.encode(), hashlib.sha256).hexdigest()

    async def seated(self, digest: str, kind: str, id_: str, seats: list[int], created_ms: int) -> None:
        """List the seats the player took in one deal or match."""
        for seat in seats:
            await self.index.add(digest, kind, id_, seat, created_ms)

    async def rows(self, digest: str, before_ms: int | None, count: int) -> list[PlayerRow]:
        return await self.index.rows(digest, before_ms, count)
