"""The stored event envelope and its hash chain.

Every stored record carries ``prev`` = SHA-256 of the previous record's exact stored bytes
(genesis: 64 zeros), so changing any byte of any record breaks the chain at the next version.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

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
    # only in a published copy with a secret left out (a token digest): the hash of the stored
    # record it was made from, which the next record's ``prev`` names. Never in a stored record.
    redacted_from: str | None = None
    # with ``redacted_from``: the parts ("data", "command") whose secret field was left out while
    # it held a value; one left out that was empty is not named
    left_out: list[str] | None = None


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(StoredEvent)


def encode_record(record: StoredEvent) -> bytes:
    return _encoder.encode(record)


def decode_record(raw: bytes) -> StoredEvent:
    return _decoder.decode(raw)


def record_hash(raw: bytes) -> str:
    """The hash the next record must carry as ``prev``."""
    return hashlib.sha256(raw).hexdigest()


def is_secret_key(key: Any) -> bool:
    """A field that recognises a token or an invite (``token_digest``, ``invite_digest``): kept
    in the store to authenticate, left out of every copy the service publishes. A view's maps
    may be keyed by numbers (seats), which name no field."""
    return isinstance(key, str) and key.endswith("digest")


def drop_secrets(shown: Any) -> tuple[Any, list[str]]:
    """``shown`` (JSON builtins) without its secret fields at any depth, and the ones left out,
    each once, named with a "!" before it when it was empty (an empty one told nothing)."""
    if not _may_hold_secret(shown):
        return shown, []
    gone: set[str] = set()
    return _without_secrets(shown, gone), sorted(gone)


_SECRET_KEY_END = b'digest":'  # how any key ending in "digest" ends once encoded


def _may_hold_secret(shown: Any) -> bool:
    """False only when no key at any depth ends in "digest": one encoding and a byte search,
    where most events and views hold no secret and a walk in Python would copy them all."""
    if not isinstance(shown, (dict, list)):
        return False
    try:
        return _SECRET_KEY_END in _encoder.encode(shown)
    except Exception:  # noqa: BLE001 - not encodable as JSON (a huge int, an odd type): walk it
        return True


def _without_secrets(shown: Any, gone: set[str]) -> Any:
    """A copy of ``shown`` without its secret fields, their names added to ``gone``. Every read
    passes here, so scalars are copied in place rather than through a call each."""
    if isinstance(shown, dict):
        out = {}
        for key, value in shown.items():
            if isinstance(key, str) and key.endswith("digest"):  # is_secret_key, inlined
                gone.add(key if value else f"!{key}")
            elif isinstance(value, (dict, list)):
                out[key] = _without_secrets(value, gone)
            else:
                out[key] = value
        return out
    if isinstance(shown, list):
        return [_without_secrets(item, gone) if isinstance(item, (dict, list)) else item for item in shown]
    return shown


def chained_hash(record: StoredEvent, raw: bytes) -> str:
    """The hash the next record names: of these bytes, or, for a published copy with a secret
    left out, of the stored record it was made from."""
    return record.redacted_from if record.redacted_from is not None else record_hash(raw)


class ChainBreak(msgspec.Struct, frozen=True):
    """Where and why a log stops verifying."""

    version: int
    reason: str


def verify_chain(
    raws: Iterable[bytes],
    start_prev: str = GENESIS,
    start_version: int = 1,
    records: list[StoredEvent] | None = None,
    published: bool = False,
) -> ChainBreak | None:
    """Check versions run 1..N without gaps and each ``prev`` matches; ``None`` when intact.
    ``records``: the raws already decoded (each record is then decoded only once). ``published``:
    a log as the service publishes it, where a record may stand in for a stored one with a
    secret left out (``redacted_from``); a stored log (``False``) never holds one."""
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
        if record.redacted_from is not None and not published:
            return ChainBreak(expected, "a published copy of a record, not a stored one")
        prev = chained_hash(record, raw)
        expected += 1
    return None
