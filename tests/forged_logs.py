"""Deal logs forged for tests: a hash chain that verifies over events that do not replay (what a
hand-edited export is once its chain is computed again)."""

from __future__ import annotations

import json

import msgspec

from domain.envelope import GENESIS, StoredEvent, encode_record, record_hash
from domain.selfplay import play_stored
from service.app.games import kit

CLOCK = {"move_s": 20, "claim_s": 10, "bank_s": 60}


def chained(records: list[StoredEvent]) -> list[bytes]:
    """The records numbered 1..N, each with the hash of the one before: a chain that verifies."""
    raws: list[bytes] = []
    prev = GENESIS
    for version, record in enumerate(records, start=1):
        raw = encode_record(msgspec.structs.replace(record, version=version, prev=prev))
        raws.append(raw)
        prev = record_hash(raw)
    return raws


def unreplayable(deal_id: str, *, clock: bool = False) -> tuple[list[bytes], int]:
    """A finished MCR deal (greedy bots, a fixed seed) whose first discard was moved to the next
    seat, chained again: (the records, the version of that discard). Every record decodes and the
    chain verifies; the discard names a tile its seat does not hold, so the log stops folding
    there. ``clock``: the deal says it had a clock (people at every seat, times a second apart)."""
    k = kit("mcr")
    bots = [k.make_bot("greedy", seat) for seat in range(4)]
    records, _events = play_stored(
        k.game, k.projections.view_from_state, bots, deal_id=deal_id, server_seed=deal_id.encode()
    )
    records = [
        msgspec.structs.replace(r, recorded_at=f"2026-12-01T10:{i // 60 % 60:02d}:{i % 60:02d}.000000Z")
        for i, r in enumerate(records)
    ]
    if clock:
        created = json.loads(bytes(records[0].data))
        created.update(clock=CLOCK, seats=["human"] * 4)
        records[0] = msgspec.structs.replace(records[0], data=msgspec.Raw(json.dumps(created).encode()))
    at = next(i for i, r in enumerate(records) if r.type == "TileDiscarded")
    discard = json.loads(bytes(records[at].data))
    discard["seat"] = (discard["seat"] + 1) % 4
    records[at] = msgspec.structs.replace(records[at], data=msgspec.Raw(json.dumps(discard).encode()))
    return chained(records), at + 1
