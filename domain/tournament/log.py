"""The tournament's records: the deal log's envelope and hash chain (``domain.envelope``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from domain.envelope import GENESIS, StoredEvent, decode_record, encode_record, record_hash
from domain.tournament.events import event_decoder, event_encoder


def chain(
    events: Sequence[Any],
    version: int,
    prev: str = GENESIS,
    recorded_at: str = "",
    command_id: str | None = None,
) -> list[bytes]:
    """The records of ``events`` appended after record ``version`` whose hash is ``prev``;
    ``recorded_at`` comes in as data (the domain reads no clock)."""
    raws: list[bytes] = []
    for i, event in enumerate(events):
        record = StoredEvent(
            version=version + 1 + i,
            type=type(event).__name__,
            data=msgspec.Raw(event_encoder.encode(event)),
            prev=prev,
            recorded_at=recorded_at,
            command_id=command_id if i == 0 else None,
        )
        raw = encode_record(record)
        raws.append(raw)
        prev = record_hash(raw)
    return raws


def head(raws: Sequence[bytes]) -> str:
    return record_hash(raws[-1]) if raws else GENESIS


def events_of(raws: Iterable[bytes]) -> list[Any]:
    """The events of stored records (``msgspec`` errors for a record that is not one)."""
    return [event_decoder.decode(decode_record(raw).data) for raw in raws]
