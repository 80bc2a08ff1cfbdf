"""TB-4.2 on logs built here with chosen record times (time is data in the log): the audit proves
an honest timeout and finds, at its version, a ClockExpired recorded before its deadline, one
naming another deadline, a default move changed, and an answer recorded after its deadline."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec

from domain.envelope import GENESIS, NO_COMMAND, StoredEvent, encode_record, record_hash
from domain.game import StartDeal
from domain.mcr import GAME
from domain.mcr.messages import Discard, TileDiscarded
from domain.table.clock import ClockExpired, ClockSettings, Expire
from domain.table.seating import TABLE_RULES
from service.app.reads.audit import audit_log

CLOCK = ClockSettings(move_s=2, claim_s=2, bank_s=0)
T0 = 1_800_000_000_000  # ms since the epoch of the deal's first record
SEATS = ["human", "bot:greedy", "bot:greedy", "bot:greedy"]


def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f") + "Z"


def _records(batches: list[tuple[list, object, str | None, int]]) -> list[bytes]:
    """Stored records, chained, of (events, command, command id, recorded ms) batches."""
    raws: list[bytes] = []
    prev = GENESIS
    version = 0
    for events, command, command_id, at in batches:
        for i, event in enumerate(events):
            version += 1
            raw = encode_record(
                StoredEvent(
                    version=version,
                    type=type(event).__name__,
                    data=msgspec.Raw(msgspec.json.encode(event)),
                    prev=prev,
                    recorded_at=_iso(at),
                    command_id=command_id,
                    command=msgspec.Raw(msgspec.json.encode(command)) if i == 0 and command else NO_COMMAND,
                )
            )
            raws.append(raw)
            prev = record_hash(raw)
    return raws


def _started():
    """A deal of one person and three bots whose dealer (the person) must discard at T0 + 1 s."""
    created = GAME.create(
        deal_id="clocked", seats=SEATS, server_seed=bytes(32), fixed_dealer=0, table=TABLE_RULES, clock=CLOCK
    )
    state = GAME.fold(created)
    start = StartDeal(seat=0, client_seed="c")
    dealt, state = GAME.execute(state, start)
    return [(created, None, "create", T0), (dealt, start, "seat0:start", T0 + 1000)], state


def _clock_problems(raws: list[bytes]) -> list[tuple[str, int]]:
    return [(p.check, p.version) for p in audit_log(raws).problems if p.check in ("clock", "redecide")]


def _expiry(state, at: int, deadline: int = T0 + 3000):
    command = Expire(seat=0, deadline_ms=deadline, wait="move")
    events, _ = GAME.execute(state, command)
    return events, command, "clock:x:0", at


def test_an_honest_timeout_is_proved_from_the_log():
    batches, state = _started()
    events, command, command_id, at = _expiry(state, T0 + 3050)
    assert type(events[0]) is ClockExpired and type(events[1]) is TileDiscarded
    assert events[1].tile == state.last_tile  # TB-2.5: the tile just drawn
    report = audit_log(_records([*batches, (events, command, command_id, at)]))
    assert report.clocks_ok is True and report.redecided_ok is True, report.problems


def test_a_timeout_recorded_before_its_deadline_is_found_at_its_version():
    batches, state = _started()
    raws = _records([*batches, _expiry(state, T0 + 2900)])
    version = len(_records(batches)) + 1
    assert ("clock", version) in _clock_problems(raws)
    assert audit_log(raws).clocks_ok is False


def test_a_timeout_naming_another_deadline_is_found():
    batches, state = _started()
    raws = _records([*batches, _expiry(state, T0 + 3050, deadline=T0 + 2500)])
    assert ("clock", len(_records(batches)) + 1) in _clock_problems(raws)


def test_a_changed_default_move_is_found_by_deciding_the_expiry_again():
    batches, state = _started()
    events, command, command_id, at = _expiry(state, T0 + 3050)
    other = next(t for t in state.hands[0] if t != events[1].tile)
    forged = [events[0], TileDiscarded(seat=0, tile=other), *events[2:]]
    raws = _records([*batches, (forged, command, command_id, at)])
    assert ("redecide", len(_records(batches)) + 2) in _clock_problems(raws)


def test_an_answer_recorded_after_its_deadline_is_found_at_its_version():
    batches, state = _started()
    discard = Discard(seat=0, tile=state.last_tile)
    events, _ = GAME.execute(state, discard)
    raws = _records([*batches, (events, discard, "seat0:m1", T0 + 3500)])
    assert ("clock", len(_records(batches)) + 1) in _clock_problems(raws)
    on_time = _records([*batches, (events, discard, "seat0:m1", T0 + 2500)])
    assert _clock_problems(on_time) == [] and audit_log(on_time).clocks_ok is True
