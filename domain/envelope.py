"""The stored event envelope and its hash chain.

Every stored record carries ``prev`` = SHA-256 of the previous record's exact stored bytes
(genesis: 64 zeros), so changing any byte of any record breaks the chain at the next version.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import msgspec

GENESIS = "0" * 64
NO_COMMAND = msgspec.Raw(b"")  # the default of StoredEvent.command; encoded as absent


class StoredEvent(msgspec.Struct, frozen=True, omit_defaults=True):
    """One record of a deal's log. ``data`` is the event's own JSON (with its ``type`` tag).

    The first record of each appended batch also carries the ``command`` that produced the batch,
    so an audit can decide the log again from its commands and compare.
    """

    version: int
    type: str
    data: msgspec.Raw
    prev: str
    recorded_at: str
    command_id: str | None = None
    command: msgspec.Raw = NO_COMMAND  # empty: not the first record of a batch


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(StoredEvent)


def encode_record(record: StoredEvent) -> bytes:
    return _encoder.encode(record)


def decode_record(raw: bytes) -> StoredEvent:
    return _decoder.decode(raw)


def record_hash(raw: bytes) -> str:
    """The hash the next record must carry as ``prev``."""
    return hashlib.sha256(raw).hexdigest()


class ChainBreak(msgspec.Struct, frozen=True):
    """Where and why a log stops verifying."""

    version: int
    reason: str


def verify_chain(
    raws: Iterable[bytes],
    start_prev: str = GENESIS,
    start_version: int = 1,
    records: list[StoredEvent] | None = None,
) -> ChainBreak | None:
    """Check versions run 1..N without gaps and each ``prev`` matches; ``None`` when intact.
    ``records``: the raws already decoded (each record is then decoded only once)."""
    prev = start_prev
    expected = start_version
    for i, raw in enumerate(raws):
        try:
            record = records[i] if records is not None else decode_record(raw)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            return ChainBreak(expected, f"record does not decode: {exc}")
        if record.version != expected:
            return ChainBreak(expected, f"record claims version {record.version}")
        if record.prev != prev:
            return ChainBreak(expected, "prev hash does not match the previous record")
        prev = record_hash(raw)
        expected += 1
    return None
