"""The stored envelope and its hash chain, without any store."""

from __future__ import annotations

import msgspec

from domain.envelope import GENESIS, StoredEvent, decode_record, encode_record, record_hash, verify_chain


def _chain(n: int) -> list[bytes]:
    raws, prev = [], GENESIS
    for v in range(1, n + 1):
        raw = encode_record(
            StoredEvent(v, "Played", msgspec.Raw(b'{"type":"Played","card":%d}' % v), prev, "t")
        )
        raws.append(raw)
        prev = record_hash(raw)
    return raws


def test_envelope_round_trip_keeps_event_bytes():
    raw = _chain(1)[0]
    record = decode_record(raw)
    assert record.version == 1 and record.prev == GENESIS
    assert bytes(record.data) == b'{"type":"Played","card":1}'
    assert encode_record(record) == raw


def test_intact_chain_verifies():
    assert verify_chain(_chain(5)) is None


def test_changed_byte_is_located_at_the_next_version():
    raws = _chain(5)
    raws[2] = raws[2].replace(b'"card":3', b'"card":4')
    broken = verify_chain(raws)
    assert broken is not None and broken.version == 4


def test_changed_last_record_is_caught_by_an_anchor():
    raws = _chain(3)
    head = record_hash(raws[-1])
    raws[-1] = raws[-1].replace(b'"card":3', b'"card":9')
    assert verify_chain(raws) is None  # nothing follows it inside the log...
    assert record_hash(raws[-1]) != head  # ...so the audit also compares the head to a known hash


def test_gap_and_garbage_are_located():
    raws = _chain(4)
    assert verify_chain(raws[:1] + raws[2:]).version == 2
    assert verify_chain(raws[:2] + [b"not json"]).version == 3


def test_secrets_are_dropped_from_maps_keyed_by_seat_numbers_too():
    """A replay frame's view holds maps keyed by seat numbers (ints after ``to_builtins``): the
    secret fields inside them go, the numbers stay (a replay answered 500 on them)."""
    from domain.envelope import drop_secrets

    shown = {"scores": {0: 3, 1: -3}, "seats": {2: {"token_digest": "ab", "name": "Ana"}}}
    kept, gone = drop_secrets(shown)
    assert kept == {"scores": {0: 3, 1: -3}, "seats": {2: {"name": "Ana"}}}
    assert gone == ["token_digest"]
