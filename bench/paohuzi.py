"""Paohuzi benchmark: ``python -m bench.paohuzi --json`` prints one JSON object.

- greedy self-play deals/s on one core (decide + evolve + seat view + bot per command)
- win evaluations/s on random opening hands with a random revealed card
- whole-deal fold time / msgspec decode time of the same events (both per deal, summed)
- a seeded 1,000-deal tournament: greedy vs random seats
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time

import msgspec

from domain.paohuzi import GAME
from domain.paohuzi.bots import make_bot
from domain.paohuzi.changes import fold
from domain.paohuzi.messages import DealWon, Event
from domain.paohuzi.state import State
from domain.paohuzi.wins import evaluate_win
from domain.selfplay import play_deal
from projections.paohuzi import view_from_state

# --- what the shared benches use of Paohuzi alone (read through ``bench.common.own``) -------------
TITLE = "Paohuzi"
# bench.arena: walls of strong vs greedy and of every other level vs greedy (the sanity line: the
# edge is ten times larger), full and with --quick; issue 14's target for strong: its edge over
# greedy (tun per deal) and the floor of its interval
ARENA_WALLS = {"strong": 2000, "sanity": 200}
ARENA_QUICK_WALLS = {"strong": 48, "sanity": 24}
ARENA_TARGET = {"edge": 0.25, "low": 0.0}
COACH_DEALS = 30  # bench.coach's seeded deals (--paohuzi-deals); bench.all --quick plays COACH_QUICK_DEALS
COACH_QUICK_DEALS = 6
REVIEW_TARGET_S = 10.0  # bench.review: CPU seconds per review
QUICK = ["--deals", "40", "--tournament", "100", "--win-evals", "4000"]  # bench.all --quick


def calibration_sampler(view):
    """bench.review_calibration: the hidden cards of ``view`` dealt again."""
    from domain.paohuzi.strong.sample import Sampler

    return Sampler(view)


def clear_coach_caches() -> None:
    """Empty every cache the coach's answers fill (bench.coach's cold answers)."""
    from domain.paohuzi import wins
    from domain.paohuzi.options import _CHI_MEMO

    wins._MEMO.clear()
    wins._PARTIAL.clear()
    _CHI_MEMO.clear()


def play(deal_no: int, kinds: list[str], base: bytes = b"bench") -> list:
    server_seed = hashlib.sha256(base + deal_no.to_bytes(8, "big")).digest()
    bots = [make_bot(k, deal_no * 3 + i) for i, k in enumerate(kinds)]
    events, _state = play_deal(
        GAME,
        view_from_state,
        bots,
        deal_id=f"b{deal_no}",
        seats=kinds,
        server_seed=server_seed,
        client_seed=str(deal_no),
    )
    return events


def bench_self_play(n: int) -> tuple[float, list[list]]:
    t0 = time.perf_counter()
    logs = [play(i, ["greedy"] * 3) for i in range(n)]
    return n / (time.perf_counter() - t0), logs


def bench_win_eval(n: int) -> tuple[float, float]:
    rng = random.Random(7)
    states = []
    for _ in range(n):
        deck = list(range(80))
        rng.shuffle(deck)
        s = State()
        hand = deck[:20]
        byk: dict[int, list[int]] = {}
        for c in hand:
            byk.setdefault(c >> 2, []).append(c)
        for cards in byk.values():
            if len(cards) == 4:
                s.melds[0].append(("ti", tuple(cards)))
            elif len(cards) == 3:
                s.kans[0].append(tuple(cards))
            else:
                s.hands[0].extend(cards)
                for c in cards:
                    s.counts[0][c >> 2] += 1
        s.table = deck[20]
        s.table_seat = 1
        s.table_source = "reveal"
        states.append(s)
    t0 = time.perf_counter()
    wins = sum(1 for s in states if evaluate_win(s, 0, s.table) is not None)
    return n / (time.perf_counter() - t0), wins / n


def bench_fold_vs_decode(logs: list[list]) -> dict:
    enc = msgspec.json.Encoder()
    dec = msgspec.json.Decoder(list[Event])
    blobs = [enc.encode(log) for log in logs]
    decoded = [dec.decode(b) for b in blobs]
    best_dec = best_fold = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for b in blobs:
            dec.decode(b)
        best_dec = min(best_dec, time.perf_counter() - t0)
        t0 = time.perf_counter()
        for evs in decoded:
            fold(evs)
        best_fold = min(best_fold, time.perf_counter() - t0)
    n_events = sum(len(x) for x in decoded)
    return {
        "fold_over_decode": round(best_fold / best_dec, 3),
        "fold_us_per_deal": round(best_fold / len(logs) * 1e6, 1),
        "decode_us_per_deal": round(best_dec / len(logs) * 1e6, 1),
        "events_per_deal": round(n_events / len(logs), 1),
    }


def tournament(n: int) -> dict:
    """Seat kinds rotate so every seat plays both kinds: deal i has greedy at seat i % 3 and,
    on odd deals, also at seat (i + 1) % 3; the other seats are random."""
    wins = {"greedy": 0, "random": 0}
    seats_played = {"greedy": 0, "random": 0}
    draws = 0
    tun_sum = 0
    won = 0
    t0 = time.perf_counter()
    for i in range(n):
        kinds = ["random"] * 3
        kinds[i % 3] = "greedy"
        if i % 2:
            kinds[(i + 1) % 3] = "greedy"
        for k in kinds:
            seats_played[k] += 1
        log = play(i, kinds, base=b"tournament")
        end = log[-2]
        if isinstance(end, DealWon):
            wins[kinds[end.seat]] += 1
            tun_sum += end.tun
            won += 1
        else:
            draws += 1
    return {
        "deals": n,
        "win_share": {k: round(v / n, 4) for k, v in wins.items()},
        "win_rate_per_seat": {k: round(wins[k] / seats_played[k], 4) for k in wins},
        "draw_share": round(draws / n, 4),
        "mean_tun": round(tun_sum / won, 3) if won else 0.0,
        "seconds": round(time.perf_counter() - t0, 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--deals", type=int, default=300, help="self-play deals to time")
    ap.add_argument("--tournament", type=int, default=1000)
    ap.add_argument("--win-evals", type=int, default=20000)
    args = ap.parse_args()
    dps, logs = bench_self_play(args.deals)
    wps, win_frac = bench_win_eval(args.win_evals)
    out = {
        "game": "paohuzi",
        "greedy_self_play_deals_per_s": round(dps, 1),
        "win_evaluations_per_s": round(wps, 1),
        "random_hands_that_win": round(win_frac, 4),
        **bench_fold_vs_decode(logs),
        "tournament": tournament(args.tournament),
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
