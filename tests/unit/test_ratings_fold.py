"""The ratings fold on its own: ranks by payments with ties, the order results were recorded in
(not the order they are handed over), a result counted once, and the incremental path equal to
a fold from the start."""

from __future__ import annotations

import random

from openskill.models import PlackettLuce

from projections.ratings import RatedResult, Ratings, fold, ranks_by_payments, shown

PLAYERS = ["Ann", "Bo", "bot:greedy", "bot:strong", "bot:random"]


def _results(n: int, seed: int) -> list[RatedResult]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        players = rng.sample(PLAYERS, 3)
        payments = [rng.randint(-5, 5) for _ in range(2)]
        payments.append(-sum(payments))
        at = f"2026-01-01T00:{i // 60:02d}:{i % 60:02d}.000000Z"
        out.append(RatedResult("paohuzi", "deal", f"d{i:05d}", at, players, ranks_by_payments(payments)))
    return out


def test_ranks_follow_payments_and_ties_share_a_rank():
    assert ranks_by_payments([10, -5, -5]) == [1, 2, 2]
    assert ranks_by_payments([0, 0, 0, 0]) == [1, 1, 1, 1]
    assert ranks_by_payments([-3, 6, -3, 0]) == [3, 1, 3, 2]


def test_one_result_is_the_model_applied_once():
    result = RatedResult("mcr", "deal", "x", "2026-01-01T00:00:00.000000Z", ["Ann", "bot:greedy"], [2, 1])
    got = fold([result]).games["mcr"]
    model = PlackettLuce()
    [[ann], [bot]] = model.rate([[model.rating()], [model.rating()]], ranks=[2.0, 1.0])
    assert abs(got["Ann"].mu - ann.mu) <= 1e-12 and abs(got["Ann"].sigma - ann.sigma) <= 1e-12
    assert got["bot:greedy"].mu > got["Ann"].mu and got["Ann"].games == 1
    assert got["Ann"].rating == shown(ann.mu, ann.sigma) == ann.mu - 3 * ann.sigma


def test_the_order_recorded_not_the_order_handed_over():
    results = _results(300, seed=7)
    shuffled = results[:]
    random.Random(1).shuffle(shuffled)
    assert fold(shuffled).table() == fold(results).table()
    reordered = results[1:] + [results[0]]  # the same results applied in another order differ
    step = Ratings()
    for r in reordered:
        step.apply(r)
    assert step.table() != fold(results).table()


def test_incremental_batches_equal_the_fold_and_an_earlier_result_is_refused():
    results = _results(500, seed=11)
    live = Ratings()
    for start in range(0, 500, 37):
        assert live.extend(results[start : start + 37])
    assert live.table() == fold(results).table()
    live.apply(results[3])  # counted once
    assert live.table() == fold(results).table()
    late = RatedResult("paohuzi", "deal", "late", "2025-01-01T00:00:00.000000Z", PLAYERS[:3], [1, 2, 3])
    assert live.extend([late]) is False
    assert live.table() == fold(results).table()


def test_a_seat_open_at_the_creation_is_rated_as_whoever_took_it():
    from domain.table.seating import SeatFilled, SeatJoined
    from projections.ratings import rated_players

    taken = [
        SeatJoined(0, "Bo", "", False),
        SeatJoined(1, "Ana", "d" * 64, True),
        SeatFilled(2, "bot:strong"),
    ]
    assert rated_players(["Bo", "", ""], taken) == ["Bo", "Ana", "bot:strong"]
    # the first taker counts (a later event of the seat changes nothing), the creator's own naming too
    assert rated_players(["Bo", "", ""], [*taken, SeatJoined(1, "Mallory", "e" * 64, False)]) == [
        "Bo", "Ana", "bot:strong",
    ]  # fmt: skip
    assert rated_players(["Bo", "", ""], taken[:2]) is None  # a seat never taken: not rated
    assert rated_players(["Bo", "", "bot:greedy"], [SeatJoined(1, "Bo", "d" * 64, True)]) is None  # Bo twice
    assert (
        rated_players(["Bo", "", "bot:greedy"], [SeatFilled(1, "bot:program-x")]) is None
    )  # not a house bot
