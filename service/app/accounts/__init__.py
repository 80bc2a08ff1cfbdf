"""Accounts: a name and a password, sessions, device codes, and the seats that follow an account.

An account is a name (the seat-name rule, TB-1.3, unique by its skeleton: ``names``) and an
Argon2id hash of its password. Hashing is deliberately slow, so it runs in a worker thread, never
on the event loop. Signing in makes a session: 256 random bits the browser keeps in an HttpOnly
cookie; the store keeps only its SHA-256, with an expiry. A device code (ten minutes, single
use) signs in a second device without the password. An account's games are a player list
(``service.store.player_index``) under ``account-<id>``; a seat taken while signed in is listed
there, and ``my_seat`` hands another device of the account a token of that seat: a new token,
random, of which the deal's meta keeps only the digest beside the seat's others (the token the
seat was taken with stays valid; a seat keeps the newest ``DEVICE_TOKENS`` of these).
Nothing here is logged with its secret: no password, session, device code or token.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from domain.errors import RuleViolation
from service.app.accounts.names import account_name, skeleton
from service.store.accounts import AccountStore, games_digest, sha256
from service.store.event_store import EventStore
from service.store.player_index import member

MIN_PASSWORD = 8
MAX_PASSWORD = 256  # characters; a longer one is refused before it is hashed (no slow-hash flood)
SESSION_S = 30 * 24 * 3600  # a session lives 30 days from its last use of GET /accounts/me
DEVICE_CODE_S = 600  # a device code signs in once within ten minutes
DEVICE_TOKENS = 4  # seat tokens handed to other devices kept per seat (the oldest dropped)
HASHING = 2  # Argon2id hashes computed at once (each takes 64 MiB and a core for a while)
# device codes: ten characters of an alphabet without look-alikes (50 bits), shown as XXXXX-XXXXX
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 10
ACCOUNT_FIELD = "account:"  # a deal meta field: the account that holds a seat
WRONG = "wrong name or password"  # one answer for both: a name's existence is not told


def _hasher() -> PasswordHasher:
    # Argon2id (the library's default type) with its recommended costs
    return PasswordHasher()


@dataclass(frozen=True)
class Account:
    id: str
    name: str


def check_password(raw: Any) -> str:
    if not isinstance(raw, str) or len(raw) < MIN_PASSWORD:
        raise RuleViolation("DS-37", f"a password has at least {MIN_PASSWORD} characters")
    if len(raw) > MAX_PASSWORD:
        raise RuleViolation("DS-37", f"a password has at most {MAX_PASSWORD} characters")
    return raw


def normal_code(raw: Any) -> str | None:
    """A device code as typed (any case, with or without its dash and spaces), or None."""
    if not isinstance(raw, str) or len(raw) > 64:
        return None
    code = "".join(c for c in raw.upper() if c not in "- ")
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


class Accounts:
    """Sign-up, sign-in, sessions, device codes and the account's seats."""

    def __init__(self, store: EventStore) -> None:
        self.events = store
        self.store = AccountStore(store.redis, store.prefix)
        self.hasher = _hasher()
        # a hash to verify when the name is unknown, so both wrong answers take as long
        self._decoy: str | None = None
        self._hashing = asyncio.Semaphore(HASHING)  # a burst of sign-ins queues, memory stays bounded

    async def _hash(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, hashed: str, password: str) -> bool:
        def check() -> bool:
            try:
                return self.hasher.verify(hashed, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False

        async with self._hashing:
            return await asyncio.to_thread(check)

    # accounts ------------------------------------------------------------------------
    async def sign_up(self, name: Any, password: Any) -> Account:
        shown = account_name(name)
        password = check_password(password)
        key = skeleton(shown)
        account_id = secrets.token_hex(12)
        hashed = await self._hash(password)
        if not await self.store.claim_name(key, account_id):
            raise RuleViolation("DS-36", "this name, or one that looks like it, is taken")
        fields = {
            "name": shown,
            "skeleton": key,
            "password": hashed,
            "created_ms": str(int(time.time() * 1000)),
        }
        await self.store.create(account_id, fields)
        return Account(account_id, shown)

    async def check_credentials(self, name: Any, password: Any) -> Account:
        """The account of a right name and password; DS-35 (the same words) otherwise."""
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > MAX_PASSWORD:
            raise RuleViolation("DS-35", WRONG)
        account_id = await self.store.by_name(skeleton(name)) if len(name) <= 64 else None
        fields = await self.store.get(account_id) if account_id else {}
        if not fields:
            if self._decoy is None:
                self._decoy = await self._hash(secrets.token_hex(16))
            await self._verify(self._decoy, password)  # as long as a real check
            raise RuleViolation("DS-35", WRONG)
        if not await self._verify(fields["password"], password):
            raise RuleViolation("DS-35", WRONG)
        assert account_id is not None
        return Account(account_id, fields["name"])

    def throttle_key(self, name: Any) -> str:
        """What a sign-in's per-account budget counts under (the name's skeleton's digest)."""
        return sha256(skeleton(name))[:32] if isinstance(name, str) and len(name) <= 64 else "?"

    async def delete(self, account: Account) -> None:
        fields = await self.store.get(account.id)
        await self.events.redis.delete(self.events.keys.player(games_digest(account.id)))
        await self.store.delete(account.id, fields.get("skeleton", skeleton(account.name)))

    # sessions ------------------------------------------------------------------------
    async def new_session(self, account: Account) -> str:
        session = secrets.token_urlsafe(32)
        await self.store.add_session(sha256(session), account.id, SESSION_S)
        return session

    async def of_session(self, session: str | None) -> Account | None:
        """The account a session cookie names; None for none, an unknown or an expired one."""
        if not session or len(session) > 128 or not session.isascii():
            return None
        account_id = await self.store.session_account(sha256(session))
        if account_id is None:
            return None
        fields = await self.store.get(account_id)
        return Account(account_id, fields["name"]) if fields.get("name") else None

    async def renew(self, session: str) -> bool:
        """Start the session's 30 days again (a person who keeps coming back stays signed in)."""
        return await self.store.renew_session(sha256(session), SESSION_S)

    async def sign_out(self, account: Account, session: str) -> None:
        await self.store.drop_session(sha256(session), account.id)

    async def sign_out_everywhere(self, account: Account) -> int:
        return await self.store.drop_all_sessions(account.id)

    # device codes ----------------------------------------------------------------------
    async def device_code(self, account: Account) -> str:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        await self.store.add_device_code(sha256(code), account.id, DEVICE_CODE_S)
        return f"{code[:5]}-{code[5:]}"

    async def redeem(self, raw: Any) -> Account:
        code = normal_code(raw)
        account_id = await self.store.take_device_code(sha256(code)) if code else None
        fields = await self.store.get(account_id) if account_id else {}
        if not fields:
            raise RuleViolation("DS-35", "this device code is unknown, used or expired")
        assert account_id is not None
        return Account(account_id, fields["name"])

    # the account's seats ------------------------------------------------------------------
    def games(self, account: Account) -> str:
        return games_digest(account.id)

    async def seat_in(self, account: Account, deal_id: str, seats: int = 8, kind: str = "deal") -> int | None:
        """The lowest seat of the deal (or, with ``kind`` "match", the match) the account sits
        in, or None."""
        key = self.events.keys.player(games_digest(account.id))
        names = [member(kind, deal_id, s) for s in range(seats)]
        scores = await self.events.redis.zmscore(key, names)
        held = [s for s, score in enumerate(scores or []) if score is not None]
        return held[0] if held else None

    async def hand_seat(self, deal_id: str, seat: int) -> str | None:
        """A new token of the seat for another device; None when the deal left Redis."""
        token = secrets.token_urlsafe(32)
        digest = hashlib.sha256(token.encode()).hexdigest()
        stored = await self.store.add_device_token(
            self.events.keys.meta(deal_id), seat, digest, DEVICE_TOKENS
        )
        return token if stored else None

    async def take_over(self, account: Account, rows: list[tuple[str, float]]) -> int:
        """Rows of a player key's list (members, scores) added to the account's."""
        if not rows:
            return 0
        key = self.events.keys.player(games_digest(account.id))
        await self.events.redis.zadd(key, {m: s for m, s in rows})
        return len(rows)

    async def mark_seats(self, deal_id: str, seats: list[int], account: Account) -> None:
        """Note in the deal's meta which account holds these seats (``account:<seat>``, the
        account's id: no secret, never in a read), so the deal that plays it again is listed
        under every account that sat at it, not only the one that asked (``carry_seats``)."""
        if seats:
            await self.events.indexes.put_meta(
                deal_id, {f"{ACCOUNT_FIELD}{seat}": account.id for seat in seats}
            )

    async def carry_seats(self, old: str, new: str, held: list[int]) -> int:
        """List the seats ``held`` of the deal ``new`` (which plays ``old`` again with the same
        people in the same seats) under each account that held that seat of ``old``."""
        meta = await self.events.reader.get_meta(old)
        now = int(time.time() * 1000)
        carried = 0
        for seat in held:
            account_id = meta.get(f"{ACCOUNT_FIELD}{seat}")
            if not account_id or not (await self.store.get(account_id)).get("name"):
                continue  # no account's seat, or an account deleted since
            key = self.events.keys.player(games_digest(account_id))
            await self.events.redis.zadd(key, {member("deal", new, seat): now}, nx=True)
            await self.events.indexes.put_meta(new, {f"{ACCOUNT_FIELD}{seat}": account_id})
            carried += 1
        return carried

    async def list_seat(self, account_id: str, deal_id: str, seat: int) -> None:
        """A seat the service gave the account (quick play): in its games and the deal's meta."""
        key = self.events.keys.player(games_digest(account_id))
        await self.events.redis.zadd(key, {member("deal", deal_id, seat): int(time.time() * 1000)}, nx=True)
        await self.events.indexes.put_meta(deal_id, {f"{ACCOUNT_FIELD}{seat}": account_id})
