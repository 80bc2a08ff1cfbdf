"""Coach benchmark: ``python -m bench.coach --json`` prints one JSON object.

The coach answers one seat view (``domain/<game>/coach.py``). The views are those of seeded greedy
self-play (``domain.selfplay.play_deal``, collected by its per-step hook): after every command, the
view of every seat, as a live table would ask for them. Per game:

- ``warm``: answer time per view in the order the deals produce them, in one process whose caches
  fill as it goes (what a running service sees); p50 / p95 / max in ms.
- ``cold``: the same views, every coach and calculator cache emptied before each answer (the
  worst case: a view the process has never seen anything like); p50 / p95 / max in ms.
- ``acting_warm`` / ``acting_cold``: the same figures over the views of a seat that must act now
  (a discard or a claim window to weigh: the costly answers); ``acting_views`` how many.
- ``views``, ``deals``: how many were measured; ``target_p95_ms``: 50 (issue 15); ``p95_ok``: every
  p95 above is within it.

Times are per-call wall clock (``perf_counter``) of one process on one core; the machine is shared,
so compare figures of one run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections.abc import Callable
from typing import Any

from domain import selfplay
from domain.mcr import GAME as MCR
from domain.mcr import coach as mcr_coach
from domain.mcr import scoring
from domain.mcr.bots import make_bot as mcr_bot
from domain.paohuzi import GAME as PAOHUZI
from domain.paohuzi import aggregate, wins
from domain.paohuzi import coach as paohuzi_coach
from domain.paohuzi.bots import make_bot as paohuzi_bot
from projections.mcr import view_from_state as mcr_view
from projections.paohuzi import view_from_state as paohuzi_view

TARGET_P95_MS = 50.0


def collect(game: Any, view_fn: Callable, make_bot: Callable, deals: int, salt: bytes) -> list[Any]:
    """Every seat's view after every command of ``deals`` seeded greedy deals."""
    views: list[Any] = []
    seats = game.seat_count

    def hook(step: selfplay.Step) -> None:
        if game.is_over(step.after):
            return
        for seat in range(seats):
            views.append(view_fn(step.after, seat))

    for i in range(deals):
        seed = hashlib.sha256(salt + i.to_bytes(4, "big")).digest()
        bots = [make_bot("greedy", i * seats + p) for p in range(seats)]
        selfplay.play_deal(
            game, view_fn, bots, deal_id=f"c{i}", server_seed=seed, client_seed=str(i), on_step=hook
        )
    return views


def _clear_mcr() -> None:
    mcr_coach._VALUES.clear()
    scoring._shanten_cache.clear()
    scoring._waits_cache.clear()
    scoring._useful_cache.clear()


def _clear_paohuzi() -> None:
    wins._MEMO.clear()
    wins._PARTIAL.clear()
    aggregate._CHI_MEMO.clear()


def _figures(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    n = len(times)
    return {
        "p50_ms": round(times[n // 2] * 1e3, 3),
        "p95_ms": round(times[min(n - 1, int(n * 0.95))] * 1e3, 3),
        "max_ms": round(times[-1] * 1e3, 3),
    }


def measure(views: list[Any], coach: Callable, clear: Callable[[], None]) -> dict[str, Any]:
    """Warm and cold answer times over all views, and over the views of a seat that must act
    (the ones with claims or discards to weigh, the slowest kind)."""
    clear()
    warm = []
    for v in views:
        t0 = time.perf_counter()
        coach(v)
        warm.append(time.perf_counter() - t0)
    cold = []
    for v in views:
        clear()
        t0 = time.perf_counter()
        coach(v)
        cold.append(time.perf_counter() - t0)
    acting = [i for i, v in enumerate(views) if v.legal_actions]
    return {
        "views": len(views),
        "warm": _figures(warm),
        "cold": _figures(cold),
        "acting_views": len(acting),
        "acting_warm": _figures([warm[i] for i in acting]),
        "acting_cold": _figures([cold[i] for i in acting]),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--mcr-deals", type=int, default=12)
    ap.add_argument("--paohuzi-deals", type=int, default=30)
    args = ap.parse_args(argv)
    out: dict[str, Any] = {"target_p95_ms": TARGET_P95_MS}
    mv = collect(MCR, mcr_view, mcr_bot, args.mcr_deals, b"coach-mcr")
    out["mcr"] = {"deals": args.mcr_deals, **measure(mv, mcr_coach.coach, _clear_mcr)}
    pv = collect(PAOHUZI, paohuzi_view, paohuzi_bot, args.paohuzi_deals, b"coach-paohuzi")
    out["paohuzi"] = {"deals": args.paohuzi_deals, **measure(pv, paohuzi_coach.coach, _clear_paohuzi)}
    out["p95_ok"] = all(
        out[g][m]["p95_ms"] <= TARGET_P95_MS for g in ("mcr", "paohuzi") for m in ("warm", "cold")
    )
    if args.json:
        print(json.dumps(out))
    else:
        print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
