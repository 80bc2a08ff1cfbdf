"""What every archive backend is: the ``Archive`` interface and the records it keeps.

The backends (``sqlite``, ``postgres``) import this module and the package's ``open_archive``
imports them, so the interface lives here, below both (the package hands its names on)."""

from __future__ import annotations

import abc
import hashlib

import msgspec

ChatMessages = list[bytes]  # a deal's kept chat messages as stored (JSON), oldest first
ChatCopy = tuple[int, ChatMessages]  # (messages ever said, the kept ones)


class ArchivedDeal(msgspec.Struct, frozen=True):
    """A finished deal as it left Redis.

    ``meta`` holds every field of the deal's meta hash (token digests included: the seats of a
    finished deal may still play it again); ``records`` the stored records in version order;
    ``head_hash`` the hash of the last record as the append script recorded it.
    """

    deal_id: str
    game: str
    created_ms: int
    finished_ms: int
    meta: dict[str, str]
    records: list[bytes]
    head_hash: str


class ArchivedListing(msgspec.Struct, frozen=True):
    """One row of the archive's deal list (what ``GET /deals`` shows of a deal)."""

    deal_id: str
    game: str
    created_ms: int
    finished_ms: int
    spectators: bool


class ArchiveConflict(Exception):
    """A put would change an archived deal: the archive keeps what it has."""

    def __init__(self, deal_id: str, what: str) -> None:
        super().__init__(f"deal {deal_id} is archived with other {what}; the archive keeps its copy")
        self.deal_id = deal_id
        self.what = what


def content_digest(deal: ArchivedDeal) -> str:
    """SHA-256 over everything of a deal that may never change once archived (meta aside)."""
    body = msgspec.msgpack.encode(
        [deal.deal_id, deal.game, deal.created_ms, deal.finished_ms, deal.head_hash, deal.records]
    )
    return hashlib.sha256(body).hexdigest()


def merge_meta(stored: dict[str, str], incoming: dict[str, str], deal_id: str) -> dict[str, str] | None:
    """The stored meta with the incoming fields it lacks; None if there is nothing to add.
    A field both hold with different values is a conflict: archived meta only grows."""
    added = {}
    for name, value in incoming.items():
        held = stored.get(name)
        if held is None:
            added[name] = value
        elif held != value:
            raise ArchiveConflict(deal_id, f"meta field {name!r}")
    return {**stored, **added} if added else None


def spectators_of(meta: dict[str, str]) -> bool:
    return meta.get("spectators") == "1"


class Archive(abc.ABC):
    """Finished deals, newest first. Every method is a coroutine; none blocks the event loop."""

    @abc.abstractmethod
    async def put(self, deal: ArchivedDeal) -> bool:
        """Store ``deal``; True if it was stored now, False if the archive held it already.
        Raises ``ArchiveConflict`` if the archived copy differs (nothing is changed then)."""

    @abc.abstractmethod
    async def get(self, deal_id: str) -> ArchivedDeal | None: ...

    @abc.abstractmethod
    async def records(self, deal_id: str) -> list[bytes] | None:
        """The stored records byte for byte, None if the deal is not archived."""

    @abc.abstractmethod
    async def list(self, offset: int = 0, count: int = 100) -> list[ArchivedListing]:
        """Archived deals, newest first by ``created_ms`` (ties: the larger deal id first, as
        Redis orders its index), from ``offset``."""

    @abc.abstractmethod
    async def count(self) -> int: ...

    async def meta(self, deal_id: str) -> dict[str, str] | None:
        """The meta fields of an archived deal (None if it is not archived); the backends
        answer it without reading the records."""
        deal = await self.get(deal_id)
        return None if deal is None else deal.meta

    @abc.abstractmethod
    async def claim_meta(self, deal_id: str, field: str, value: str) -> str | None:
        """Set a meta field of an archived deal unless it is set: the value it holds afterwards
        (so the caller whose value it is knows it won); None if the deal is not archived."""

    @abc.abstractmethod
    async def release_meta(self, deal_id: str, field: str, value: str) -> None:
        """Drop a field ``claim_meta`` set, if it still holds ``value`` (a claim rolled back)."""

    @abc.abstractmethod
    async def put_chat(self, deal_id: str, said: int, messages: ChatMessages) -> None:
        """Keep a finished deal's chat (its newest messages as stored, oldest first, and how
        many were ever said) beside the deal; a copy with fewer messages said never replaces
        one with more, so a late copy cannot take back what an earlier one kept."""

    @abc.abstractmethod
    async def chat(self, deal_id: str) -> ChatCopy | None:
        """(messages ever said, the kept messages) of an archived deal's chat; None if none."""

    @abc.abstractmethod
    def matches(self) -> Archive:
        """The same archive's shelf of finished matches (TB-5.1): this interface over a table
        of its own, so a match's log (records, head hash; no meta) leaves Redis as a deal's
        does and never shows in the deals' list. Closed with the archive it came from."""

    @abc.abstractmethod
    async def close(self) -> None: ...
