"""Issue 24, item 6: moves the table made for a person (the default move when its clock ran out,
TB-2.5, and the greedy bot's moves while the seat was away, TB-2.6) are marked in the review and
never counted as that person's decisions; a log with such moves reviews like any other."""

from __future__ import annotations

import functools
from datetime import UTC, datetime

import msgspec

from domain.envelope import GENESIS, NO_COMMAND, StoredEvent, encode_record, record_hash
from domain.game import StartDeal
from domain.table.absence import away_command_id
from domain.table.clock import ClockSettings, Expire
from domain.table.seating import TABLE_RULES
from projections import review as rv
from projections.mcr import review as mcr_review
from service.app.analysis.reviews import build, decision_points
from service.app.bots.runner import bot_command_id
from service.app.games import kit

CLOCK = ClockSettings(move_s=20, claim_s=10, bank_s=0)
T0 = 1_800_000_000_000


def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f") + "Z"


def _played(game_name: str) -> tuple[list[bytes], dict[str, list[int]]]:
    """A deal whose person (seat 0) lets its clock run out twice (the second time it is away),
    is played for by the greedy bot for a few turns, then plays itself to the end; every other
    seat a greedy bot. The log as stored, and the versions (before the move) of each kind of
    seat-0 move."""
    k = kit(game_name)
    game = k.game
    seats = ["human"] + ["bot:greedy"] * (game.seat_count - 1)
    created = game.create(
        deal_id="t", seats=seats, server_seed=bytes(32), fixed_dealer=0, table=TABLE_RULES, clock=CLOCK
    )
    bots = [k.make_bot("greedy", i) for i in range(game.seat_count)]
    batches: list[tuple[list, object, str | None]] = [(created, None, "create")]
    state = game.fold(created)
    version = len(created)
    events, state = game.execute(state, StartDeal(seat=0, client_seed="c"))
    batches.append((events, StartDeal(seat=0, client_seed="c"), "seat0:start"))
    version += len(events)
    moves: dict[str, list[int]] = {"clock": [], "away": [], "own": []}
    expiries = 0
    while not game.is_over(state):
        acting = game.seats_to_act(state)
        seat = acting[0]
        view = k.projections.view_from_state(state, seat)
        if seat != 0:
            command, command_id = bots[seat].choose(view), bot_command_id(seat, version)
        elif expiries < 2 and len(view.legal_actions) >= 2:
            expiries += 1
            wait = "claim" if view.prompt == "claim" else "move"
            command = Expire(seat=0, deadline_ms=T0, wait=wait, away=expiries == 2)
            command_id = f"clock:t:{version}"
            moves["clock"].append(version)
        elif len(moves["away"]) < 3 and expiries == 2:
            command, command_id = bots[0].choose(view), away_command_id(0, version)
            moves["away"].append(version)
        else:
            command, command_id = bots[0].choose(view), f"seat0:{version}"
            if len({repr(a) for a in view.legal_actions}) >= 2:
                moves["own"].append(version)
        events, state = game.execute(state, command)
        batches.append((events, command, command_id))
        version += len(events)
    raws, prev, v = [], GENESIS, 0
    for events, command, command_id in batches:
        for i, event in enumerate(events):
            v += 1
            raw = encode_record(
                StoredEvent(
                    version=v,
                    type=type(event).__name__,
                    data=msgspec.Raw(msgspec.json.encode(event)),
                    prev=prev,
                    recorded_at=_iso(T0 + v),
                    command_id=command_id,
                    command=msgspec.Raw(msgspec.json.encode(command)) if i == 0 and command else NO_COMMAND,
                )
            )
            raws.append(raw)
            prev = record_hash(raw)
    return raws, moves


# What is checked here is which moves a review judges, not its values: the MCR evaluator plays
# each option out on 8 paired deals, not the served review's up to 96 (as in test_review.py).
EVALUATORS = {"mcr": functools.partial(mcr_review.evaluate, samples=8)}


def _review(game_name: str, raws: list[bytes]) -> rv.Review:
    k = kit(game_name)
    ruleset, deal_id, points, moves = decision_points(raws, 0)
    evaluate = EVALUATORS.get(game_name, k.review.evaluate)
    scores = rv.evaluate_chunk(points, k.view_type, k.game.command_type, evaluate, 0)
    return build(ruleset, deal_id, 0, 0, points, scores, moves)


def test_the_tables_moves_are_marked_and_not_the_persons_decisions():
    for game_name in ("mcr", "paohuzi"):
        raws, moves = _played(game_name)
        assert len(moves["clock"]) == 2 and len(moves["away"]) >= 1, moves
        review = _review(game_name, raws)
        decided = {d.version for d in review.decisions}
        marked = {(m.version, m.by) for m in review.table_moves}
        assert decided.isdisjoint(moves["clock"]) and decided.isdisjoint(moves["away"]), game_name
        assert {(v, "clock") for v in moves["clock"]} <= marked, (game_name, marked)
        assert {(v, "away") for v in moves["away"]} <= marked, (game_name, marked)
        assert {v for v, _by in marked} <= set(moves["clock"]) | set(moves["away"])
        # the person's own choices after it came back are its decisions
        assert decided and decided <= set(moves["own"]), game_name
        assert all(m.action and m.action.get("type") for m in review.table_moves)
