"""MCR benchmark: ``python -m bench.mcr --json`` prints one JSON object.

- greedy_deals_per_s: four greedy bots, whole deals through decide + seat views, one process
  (CPU time of the process, as the machine is shared; ``_wall`` is the wall-clock figure).
- adapter_ratio: the domain's scoring adapter (scoring.score) / the raw PyMahjongGB call with
  the same arguments, on the winning hands of the measured deals (ratio of best-of-N times);
  adapter_with_facts_ratio also counts building the facts from the state (win_facts).
- tournament: seeded four-greedy deals (win share, draw share, mean points, self-drawn share),
  and greedy (seats 0, 2) against random (seats 1, 3).

``python -m bench.mcr --regular-shanten 8 --warm-deals 32`` times only the regular-hand
useful-tile search, the fan calculator's against the suit tables' (``regular_shanten``), in one
process: greedy deals (``bench.table_work``'s seeds) record every hand the bots asked
``scoring.useful`` about, in order; both searches answer them, timed in CPU seconds: ``cold`` with
the tables emptied first (a fresh process), ``warm`` with them filled by ``--warm-deals`` other
deals' hands first (a process that has served a while). The answers must be equal.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections.abc import Callable

from domain.mcr import GAME, regular_shanten, scoring
from domain.mcr.messages import HandWon
from domain.mcr.wins import win_facts
from domain.selfplay import play_deal as play_seated_deal
from projections.mcr.selfplay import play_deal
from service.app.games import kit

# --- what the shared benches use of MCR alone (read through ``bench.common.own``) -----------------
TITLE = "MCR"
# bench.arena: walls of strong vs greedy and of every other level vs greedy (the sanity line: the
# edge is ten times larger), full and with --quick; issue 14's target for strong: its edge over
# greedy (points per deal) and the floor of its interval
ARENA_WALLS = {"strong": 600, "sanity": 100}
ARENA_QUICK_WALLS = {"strong": 24, "sanity": 12}
ARENA_TARGET = {"edge": 3.0, "low": 1.0}
COACH_DEALS = 12  # bench.coach's seeded deals (--mcr-deals); bench.all --quick plays COACH_QUICK_DEALS
COACH_QUICK_DEALS = 3
REVIEW_TARGET_S = 20.0  # bench.review: CPU seconds per review
QUICK = ["--speed-deals", "20", "--deals", "60", "--mixed-deals", "20"]  # bench.all --quick


def calibration_sampler(view):
    """bench.review_calibration: the hidden tiles of ``view`` dealt again (rules of new deals)."""
    from domain.mcr import GAME
    from domain.mcr.strong.sample import Sampler

    return Sampler(view, GAME.ruleset)


def clear_coach_caches() -> None:
    """Empty every cache the coach's answers fill (bench.coach's cold answers)."""
    from domain.mcr import coach

    coach._VALUES.clear()
    scoring._shanten_cache.clear()
    scoring._waits_cache.clear()
    scoring._useful_cache.clear()


def _seed(i: int, salt: int = 0) -> bytes:
    return (salt * 1_000_003 + i).to_bytes(32, "big")


def speed(n: int) -> tuple[float, float, list]:
    """(deals/s by CPU time of this process, deals/s by wall clock, logs); fresh caches."""
    logs = []
    c0 = time.process_time()
    t0 = time.perf_counter()
    for i in range(n):
        events, _ = play_deal(_seed(i, 7))
        logs.append(events)
    return n / (time.process_time() - c0), n / (time.perf_counter() - t0), logs


def winning_facts(logs) -> list[tuple]:
    """(state-before-win, seat, tile, self_drawn, robbing) and calculator args per win."""
    out = []
    for events in logs:
        won = events[-2]
        if not isinstance(won, HandWon):
            continue
        state = GAME.fold(events[:-2])
        out.append((state, won, win_facts(state, won.seat, won.tile, won.self_drawn, won.robbing_kong)))
    return out


def _best(fn, reps: int = 5) -> float:
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def adapter_ratio(wins) -> dict:
    facts = [f for _, _, f in wins] * max(1, 2000 // max(1, len(wins)))
    raw = scoring.raw_fans
    score = scoring.score

    def run_raw():
        for f in facts:
            raw(*f)

    def run_adapter():
        for f in facts:
            score(*f)

    items = [(s, w) for s, w, _ in wins] * max(1, 2000 // max(1, len(wins)))

    def run_full():
        for s, w in items:
            score(*win_facts(s, w.seat, w.tile, w.self_drawn, w.robbing_kong))

    t_raw = _best(run_raw)
    t_ad = _best(run_adapter)
    t_full = _best(run_full)
    n = len(facts)
    return {
        "winning_hands": len(wins),
        "calls": n,
        "raw_us": round(t_raw / n * 1e6, 2),
        "adapter_us": round(t_ad / n * 1e6, 2),
        "adapter_ratio": round(t_ad / t_raw, 3),
        "adapter_with_facts_us": round(t_full / n * 1e6, 2),
        "adapter_with_facts_ratio": round(t_full / t_raw, 3),
    }


def tournament(n: int, levels=("greedy",) * 4, salt: int = 1) -> dict:
    wins = draws = self_drawn = 0
    points = 0
    by_level: dict[str, int] = {}
    t0 = time.perf_counter()
    for i in range(n):
        _, state = play_deal(_seed(i, salt), levels, bot_seed=i)
        r = state.result
        if r is None:
            draws += 1
            continue
        wins += 1
        points += r.total
        self_drawn += r.self_drawn
        by_level[levels[r.seat]] = by_level.get(levels[r.seat], 0) + 1
    out = {
        "deals": n,
        "seats": list(levels),
        "win_share": round(wins / n, 4),
        "draw_share": round(draws / n, 4),
        "mean_points": round(points / wins, 2) if wins else 0.0,
        "self_drawn_share_of_wins": round(self_drawn / wins, 4) if wins else 0.0,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    if len(set(levels)) > 1:
        out["win_share_by_bot"] = {k: round(by_level.get(k, 0) / n, 4) for k in sorted(set(levels))}
    return out


def asked_hands(first: int, deals: int) -> list[tuple[int, ...]]:
    """The hands ``scoring.useful`` is asked about in deals ``first``.. of greedy self-play."""
    k = kit("mcr")
    asked: list[tuple[int, ...]] = []
    original = scoring.useful

    def recording(kinds: tuple[int, ...]) -> tuple[int, frozenset[int]]:
        asked.append(kinds)
        return original(kinds)

    scoring.useful = recording  # type: ignore[assignment]
    try:
        for n in range(first, first + deals):
            play_seated_deal(
                k.game,
                k.projections.view_from_state,
                [k.make_bot("greedy", n * 10 + s) for s in range(4)],
                deal_id=f"w{n}",
                server_seed=hashlib.sha256(f"table-work:mcr:{n}".encode()).digest(),
                client_seed=f"c{n}",
            )
    finally:
        scoring.useful = original  # type: ignore[assignment]
    return asked


def _forget_tables() -> None:
    regular_shanten._tables.clear()
    regular_shanten._combined.clear()
    regular_shanten._useful_cache.clear()


Search = Callable[[tuple[int, ...]], tuple[int, frozenset[int]]]


def _timed(hands: list[tuple[int, ...]], search: Search) -> tuple[float, list[tuple[int, frozenset[int]]]]:
    started = time.process_time()
    answers = [search(h) for h in hands]
    return time.process_time() - started, answers


def regular_shanten_ratio(deals: int, warm_deals: int) -> dict:
    """The calculator's regular-hand search against the suit tables' over the same hands."""
    hands = asked_hands(0, deals)
    warm_hands = asked_hands(deals, warm_deals)
    old_s, old = _timed(hands, scoring.calculator_regular_useful)
    _forget_tables()
    cold_s, cold = _timed(hands, regular_shanten.regular_useful)
    _forget_tables()
    for h in warm_hands:
        regular_shanten.regular_useful(h)
    warm_s, warm = _timed(hands, regular_shanten.regular_useful)
    if not old == cold == warm:
        raise SystemExit("the searches disagree")
    return {
        "hands": len(hands),
        "distinct": len(set(hands)),
        "calculator_us": round(old_s / len(hands) * 1e6, 1),
        "tables_cold_us": round(cold_s / len(hands) * 1e6, 1),
        "tables_warm_us": round(warm_s / len(hands) * 1e6, 1),
        "cold_over_calculator": round(cold_s / old_s, 3),
        "warm_over_calculator": round(warm_s / old_s, 3),
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--speed-deals", type=int, default=200)
    ap.add_argument("--deals", type=int, default=1000, help="tournament size")
    ap.add_argument("--mixed-deals", type=int, default=200, help="greedy vs random deals")
    ap.add_argument(
        "--regular-shanten", type=int, default=0, metavar="DEALS", help="time only the regular-hand search"
    )
    ap.add_argument("--warm-deals", type=int, default=32, help="deals filling the tables first")
    args = ap.parse_args(argv)
    if args.regular_shanten:
        print(json.dumps(regular_shanten_ratio(args.regular_shanten, args.warm_deals)))
        return
    dps, wall_dps, logs = speed(args.speed_deals)
    result = {
        "game": "mcr",
        "greedy_deals_per_s": round(dps, 2),
        "greedy_deals_per_s_wall": round(wall_dps, 2),
        "greedy_deals_per_s_target": 30,
        "adapter": adapter_ratio(winning_facts(logs)),
        "adapter_ratio_target": 1.5,
        "tournament_greedy": tournament(args.deals),
        "tournament_greedy_vs_random": tournament(
            args.mixed_deals, ("greedy", "random", "greedy", "random"), 2
        ),
        "win_share_target": 0.85,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
