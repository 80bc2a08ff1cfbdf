"""The duplicate arena (``service.arena``): interval maths, seatings, what a deal says about each
seat, and a report that depends on the seed only (never on ``--jobs``)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from domain.mcr.messages import HandWon
from domain.paohuzi.messages import CardDiscarded, CardRevealed, DealWon, MeldMade
from service.app.analysis.arena import (
    Chunk,
    Tally,
    Wall,
    bot_seed,
    check_lineup,
    lineup,
    mean_interval,
    percentile,
    report,
    run_arena,
    seatings,
    t_quantile,
    wall_seed,
)
from service.app.games import kit


def without_timing(r: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(r)
    del out["timing"]
    return out


# --- interval maths ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("df", "expected"),
    [(1, 12.7062), (2, 4.3027), (4, 2.7764), (9, 2.2622), (30, 2.0423), (100, 1.9840), (1999, 1.9612)],
)
def test_t_quantile_matches_the_tables(df: int, expected: float) -> None:
    assert t_quantile(0.95, df) == pytest.approx(expected, abs=1e-4)


def test_mean_interval_on_a_known_sample() -> None:
    # mean 3, sd sqrt(2.5), se sqrt(0.5); t(0.975, 4) = 2.77645 -> half width 1.96324
    mean, ci = mean_interval([1, 2, 3, 4, 5])
    assert mean == 3.0
    assert ci == pytest.approx([3 - 1.96324, 3 + 1.96324], abs=1e-5)
    assert mean_interval([2.0, 2.0, 2.0]) == (2.0, [2.0, 2.0])
    assert mean_interval([7.0]) == (7.0, None)
    assert mean_interval([]) == (0.0, None)


def test_percentile_is_nearest_rank() -> None:
    xs = [float(i) for i in range(1, 101)]
    assert (percentile(xs, 0.5), percentile(xs, 0.95), percentile(xs, 1.0)) == (50.0, 95.0, 100.0)
    assert percentile([3.0], 0.95) == 3.0 and percentile([], 0.5) == 0.0


def test_the_report_pairs_bots_over_walls_on_a_synthetic_input() -> None:
    """Two MCR walls of strong,greedy (4 rotations: strong 4 deals, greedy 12 per wall).

    Wall 0: strong nets +40 over its 4 deals (+10 a deal), greedy -40 over 12 (-10/3).
    Wall 1: strong -8 (-2 a deal), greedy +8 (+2/3). Per-wall edges 40/3 and -8/3: mean 16/3,
    sd = (40/3 + 8/3) / sqrt(2) = 16 / sqrt(2), interval 16/3 +- 12.7062 * 16 / sqrt(2) / sqrt(2).
    """

    def wall(i: int, strong_net: int) -> Wall:
        strong = Tally(deals=4, net=strong_net, wins=2, score=30, fed=1, draws=1, decisions=40)
        greedy = Tally(deals=12, net=-strong_net, wins=1, score=8, fed=2, draws=3, decisions=100)
        return Wall(i, f"seed{i}", [strong, greedy])

    part = Chunk([wall(0, 40), wall(1, -8)], times=[[0.001, 0.003, 0.002], [0.0005]])
    r = report("mcr", ["strong", "greedy"], "s", [part], jobs=1, seconds=2.0)
    strong, greedy = r["per_bot"]["strong"], r["per_bot"]["greedy"]
    assert r["lineup"] == ["strong", "greedy", "greedy", "greedy"]
    assert (r["walls"], r["rotations"], r["deals"]) == (2, 4, 8)
    assert strong["mean_net_per_deal"] == 4.0  # (10 + -2) / 2
    assert strong["ci95"] == pytest.approx([4 - 12.7062 * 6, 4 + 12.7062 * 6], abs=1e-3)  # sd 6 sqrt 2
    assert greedy["mean_net_per_deal"] == pytest.approx(-4 / 3, abs=1e-4)
    assert r["edge"]["mean_net_per_deal"] == pytest.approx(16 / 3, abs=1e-4)
    assert r["edge"]["ci95"] == pytest.approx([16 / 3 - 12.7062 * 8, 16 / 3 + 12.7062 * 8], abs=1e-3)
    assert (strong["seats"], strong["deals"], strong["win_rate"], strong["deal_in_rate"]) == (1, 8, 0.5, 0.25)
    assert (strong["mean_score_of_wins"], strong["draw_share"], strong["decisions"]) == (15.0, 0.25, 80)
    assert (greedy["seats"], greedy["deals"], greedy["deal_in_rate"], greedy["mean_score_of_wins"]) == (
        3,
        24,
        0.1667,
        8.0,
    )
    assert r["timing"]["decision_ms"]["strong"] == {"p50": 2.0, "p95": 3.0, "max": 3.0}


# --- seatings and seeds -------------------------------------------------------------
def test_a_short_lineup_is_padded_with_its_last_bot_and_every_rotation_moves_it_one_seat() -> None:
    assert lineup(["strong", "greedy"], 4) == [0, 1, 1, 1]
    assert seatings(["strong", "greedy"], 4) == [[0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0]]
    three = seatings(["a", "b", "c"], 3)
    assert three == [[0, 1, 2], [2, 0, 1], [1, 2, 0]]
    for seat in range(3):  # every bot holds every seat exactly once
        assert sorted(rot[seat] for rot in three) == [0, 1, 2]
    assert seatings(["a", "b", "c"], 4) == [[0, 1, 2, 2], [2, 0, 1, 2], [2, 2, 0, 1], [1, 2, 2, 0]]
    with pytest.raises(ValueError):
        lineup(["a", "b", "c", "d", "e"], 4)


def test_walls_depend_on_the_seed_and_index_and_bot_seeds_on_wall_rotation_and_seat() -> None:
    assert wall_seed("s", 3) == wall_seed("s", 3)
    assert len({wall_seed("s", 3), wall_seed("s", 4), wall_seed("t", 3)}) == 3
    seeds = {bot_seed("s", w, r, seat) for w in range(3) for r in range(4) for seat in range(4)}
    assert len(seeds) == 48 and bot_seed("s", 1, 2, 3) == bot_seed("s", 1, 2, 3)


def test_lineups_the_arena_refuses() -> None:
    assert check_lineup("mcr", ["greedy", "random"]) is None
    assert "unknown" in check_lineup("mcr", ["greedy", "nonesuch"])
    assert "2 to 4" in check_lineup("mcr", ["greedy"])
    assert "2 to 3" in check_lineup("paohuzi", ["greedy", "random", "greedy", "random"])
    assert "once" in check_lineup("paohuzi", ["greedy", "greedy"])
    with pytest.raises(ValueError):
        run_arena("mcr", ["greedy"], 2)


# --- what a deal says about each seat ---------------------------------------------
def test_mcr_deal_in_is_a_win_on_another_seats_discard_or_added_kong() -> None:
    def won(seat: int, from_seat: int | None, self_drawn: bool) -> HandWon:
        return HandWon(
            seat=seat, tile=0, from_seat=from_seat, self_drawn=self_drawn, robbing_kong=False,
            about_kong=False, wall_last=False, fourth_tile=False, hand=[], fans=[], fan_points=8,
            flower_points=0, total=8, payments=[0, 0, 0, 0],
        )  # fmt: skip

    faults = kit("mcr").summary.seat_faults
    assert faults([won(0, 2, False)], 4) == ([0, 0, 1, 0], [0, 0, 0, 0])
    assert faults([won(0, None, True)], 4) == ([0, 0, 0, 0], [0, 0, 0, 0])
    assert faults([], 4) == ([0, 0, 0, 0], [0, 0, 0, 0])


def test_paohuzi_feeding_and_discards_taken_by_the_next_seat() -> None:
    faults = kit("paohuzi").summary.seat_faults
    chi_by_next = [
        CardDiscarded(seat=0, card=5),
        MeldMade(seat=1, meld="chi", cards=[5, 9, 13], rule_id="PH-6.3", claimed=5, from_seat=0),
    ]
    peng_by_other = [
        CardDiscarded(seat=0, card=6),
        MeldMade(seat=2, meld="peng", cards=[6, 7, 4], rule_id="PH-6.3", claimed=6, from_seat=0),
    ]
    revealed = [
        CardRevealed(seat=2, card=40, stock_left=10),
        MeldMade(seat=0, meld="chi", cards=[40, 44, 48], rule_id="PH-6.2", claimed=40, from_seat=2),
    ]
    win_1 = DealWon(
        seat=1, card=70, from_seat=2, groups=[], huxi=15, tun=1, payments=[-1, 2, -1], heavenly=False,
        rule_id="PH-4.1",
    )  # fmt: skip
    # seat 0 fed seat 1 a chi, then seat 1 won: a feed, and one discard taken by the next seat
    assert faults([*chi_by_next, *revealed, win_1], 3) == ([1, 0, 0], [1, 0, 0])
    # a peng by the seat after next is no "taken by next", and feeds only if that seat wins
    assert faults([*peng_by_other, win_1], 3) == ([0, 0, 0], [0, 0, 0])
    # a revealed card taken is nobody's discard
    assert faults([*revealed, win_1], 3) == ([0, 0, 0], [0, 0, 0])


# --- whole runs ---------------------------------------------------------------------
@pytest.mark.parametrize(("game", "bots"), [("mcr", ["greedy", "random"]), ("paohuzi", ["random", "greedy"])])
def test_the_report_depends_on_the_seed_only(game: str, bots: list[str]) -> None:
    one = run_arena(game, bots, walls=3, seed="t", jobs=1)
    again = run_arena(game, bots, walls=3, seed="t", jobs=1)
    other = run_arena(game, bots, walls=3, seed="u", jobs=1)
    assert without_timing(one) == without_timing(again)
    assert without_timing(other) != without_timing(one)
    assert other["walls_digest"] != one["walls_digest"]
    seats = {"mcr": 4, "paohuzi": 3}[game]
    assert one["deals"] == 3 * seats and set(one["timing"]) == {
        "seconds",
        "jobs",
        "deals_per_s",
        "decision_ms",
    }
    # payments are zero-sum, so the seat-weighted means cancel
    assert sum(f["mean_net_per_deal"] * f["seats"] for f in one["per_bot"].values()) == pytest.approx(
        0, abs=1e-3
    )
    assert sum(f["deals"] for f in one["per_bot"].values()) == 3 * seats * seats
    for f in one["per_bot"].values():
        assert 0 <= f["win_rate"] <= 1 and f["decisions"] > 0


def test_jobs_change_the_timing_only() -> None:
    walls: list[int] = []
    serial = run_arena("paohuzi", ["greedy", "random"], walls=4, seed="j", jobs=1)
    parallel = run_arena("paohuzi", ["greedy", "random"], walls=4, seed="j", jobs=2, on_walls=walls.append)
    assert without_timing(parallel) == without_timing(serial)
    assert sum(walls) == 4 and parallel["timing"]["jobs"] == 2


# --- bench.arena ----------------------------------------------------------------------
def test_bench_line_skips_a_missing_level_and_the_results_file_keeps_what_was_measured() -> None:
    from bench.arena import line, results_file

    skipped = line("mcr", "nonesuch", walls=2, seed="b", jobs=1)
    assert set(skipped) == {"skipped"} and "not registered" in skipped["skipped"]
    measured = line("paohuzi", "random", walls=3, seed="b", jobs=1)
    assert measured["lineup"] == ["random", "greedy", "greedy"] and measured["walls"] == 3
    assert measured["edge"] == run_arena("paohuzi", ["random", "greedy"], 3, "b")["edge"]["mean_net_per_deal"]
    shipped = results_file(
        {"paohuzi": {"random": measured, "nonesuch": skipped}}, "python -m bench.arena", "b"
    )
    levels = shipped["games"]["paohuzi"]["levels"]
    assert set(levels) == {"greedy", "random"} and levels["greedy"]["baseline"] is True
    assert set(shipped["games"]["paohuzi"]["not_measured"]) == {"nonesuch"}
    assert levels["random"]["walls"] == 3 and levels["random"]["ci95"] == measured["random"]["ci95"]
    assert shipped["command"] == "python -m bench.arena" and shipped["date"]
