"""The log recorder: what every backend that holds deal logs must honour.

A deal's log is a sequence of stored records, versions 1..n, each chained to the one before by
its hash. A recorder appends a batch iff the log is at the version the caller folded (else
``VersionConflict``, nothing written), answers a repeated command id with its first result,
and reads the records back byte for byte. That is the whole interface the command side relies
on; the meta, the indexes and the archive are other parts (``service.store.event_store``).

Kept apart and small so a second backend has one short list to implement and one contract
test base to pass (``tests/contracts/log_contract.py``).
"""

from __future__ import annotations

import abc
from collections.abc import Sequence

import msgspec

from domain.envelope import StoredEvent, decode_record

MAX_BATCH = 512


class VersionConflict(Exception):
    """The log moved on since the caller read it: re-fold and decide again, or answer 409."""

    def __init__(self, deal_id: str, expected: int, actual: int) -> None:
        super().__init__(f"deal {deal_id}: expected version {expected}, log is at {actual}")
        self.deal_id = deal_id
        self.expected = expected
        self.actual = actual


class AppendResult(msgspec.Struct, frozen=True):
    """Versions written (or, for a repeated command id, written the first time), and the hash
    of the record now at the head when this call wrote it (None for a repeated command id)."""

    first_version: int
    last_version: int
    duplicate: bool = False
    head_hash: str | None = None
    # the records this call wrote, as stored and as built (empty for a repeated command id, or
    # from a backend that does not keep them): the writer hands them to its own stream hub
    raws: tuple[bytes, ...] = ()
    records: tuple[StoredEvent, ...] = ()


class StreamHead(msgspec.Struct, frozen=True):
    """A deal's head as the append script recorded it: the version and the last record's hash."""

    version: int
    hash: str


def event_type_name(event: msgspec.Struct) -> str:
    tag = type(event).__struct_config__.tag
    return tag if isinstance(tag, str) else type(event).__name__


class LogRecorder(abc.ABC):
    """Deal logs in one backend. "No log" is an answer, never an error: a deal the backend does
    not hold reads as empty, version 0, no head, so a reader above can look elsewhere."""

    @abc.abstractmethod
    async def append_encoded(
        self,
        deal_id: str,
        expected_version: int,
        payloads: Sequence[tuple[str, bytes]],
        command_id: str | None = None,
        command: bytes | None = None,
        recorded_ns: int | None = None,
        head_hash: str | None = None,
    ) -> AppendResult:
        """Append events already encoded as (type, JSON) as versions expected+1.. iff the log is
        at ``expected_version``; ``command`` goes on the batch's first record. ``head_hash``: the
        hash of the record at ``expected_version`` as the caller folded it (a caller that read the
        log knows it, so the append needs no read of the head first); a wrong one is a conflict."""

    @abc.abstractmethod
    async def append_records(self, deal_id: str, raws: Sequence[bytes]) -> AppendResult:
        """Store already-encoded records verbatim (an import); the log must be empty. The
        command ids the records carry are restored too (``restore_command_ids``)."""

    @abc.abstractmethod
    async def restore_command_ids(self, deal_id: str, raws: Sequence[bytes]) -> int:
        """Record, for each command id the stored ``raws`` carry, the versions it produced (as
        its append did), so a client that retries a command after its deal moved between stores
        gets the first result, not a second move; how many ids. Idempotent."""

    @abc.abstractmethod
    async def read_raw(
        self, deal_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[bytes]:
        """Stored records exactly as written, versions ``from_version``..``to_version``."""

    @abc.abstractmethod
    async def read_many_raw(
        self, after: Sequence[tuple[str, int]], count: int = MAX_BATCH
    ) -> list[list[bytes]]:
        """For each (deal, version): the records after that version, at most ``count``."""

    @abc.abstractmethod
    async def version(self, deal_id: str) -> int:
        """The version of the log's last record (0: no log)."""

    @abc.abstractmethod
    async def head_hash(self, deal_id: str) -> str | None:
        """The hash of the last record as recorded at append time (None: no log)."""

    @abc.abstractmethod
    async def heads(self, deal_ids: Sequence[str]) -> list[StreamHead | None]:
        """Each deal's recorded head (None: no log), in one round trip where the backend can."""

    @abc.abstractmethod
    async def has_logs(self, deal_ids: Sequence[str]) -> list[bool]:
        """Whether the backend holds a log of each deal (an empty read alone cannot tell)."""

    async def has_log(self, deal_id: str) -> bool:
        return (await self.has_logs([deal_id]))[0]

    @abc.abstractmethod
    async def command_lookup(
        self, deal_id: str, command_id: str
    ) -> tuple[tuple[int, int] | None, int | None]:
        """(the versions ``command_id`` produced, or None; the log's version, or None when
        there is no log): one question, so a reader knows whether to look elsewhere."""

    async def command_result(self, deal_id: str, command_id: str) -> tuple[int, int] | None:
        """The versions a command id produced, if it was appended before."""
        return (await self.command_lookup(deal_id, command_id))[0]

    def forget(self, deal_id: str) -> None:  # noqa: B027 - a recorder without a cache has nothing to do
        """Drop what the recorder remembers of a deal whose log was removed behind it."""


def command_ranges(raws: Sequence[bytes]) -> dict[str, tuple[int, int]]:
    """Each command id in a log and the versions its batch holds: every record of a batch
    carries its command id, so a batch is a run of records with the same one (an id is appended
    once; a retry answers with the first run)."""
    ranges: dict[str, tuple[int, int]] = {}
    run: tuple[str, int, int] | None = None
    for raw in raws:
        record = decode_record(raw)
        if run is not None and record.command_id == run[0] and record.version == run[2] + 1:
            run = (run[0], run[1], record.version)
            continue
        if run is not None:
            ranges.setdefault(run[0], (run[1], run[2]))
        run = (record.command_id, record.version, record.version) if record.command_id else None
    if run is not None:
        ranges.setdefault(run[0], (run[1], run[2]))
    return ranges
