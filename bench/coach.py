"""Coach benchmark: ``python -m bench.coach --json`` prints one JSON object.

The coach answers one seat view (``domain/<game>/coach.py``, the kit's ``coach``), for every game
of ``domain.game.GAMES`` (``--<game>-deals`` each; the default and the caches a cold answer empties
are the game's own: ``COACH_DEALS``, ``clear_coach_caches`` in ``bench/<game>.py``). The views are
those of seeded greedy self-play (``domain.selfplay.play_deal``, collected by its per-step hook):
after every command, the view of every seat, as a live table would ask for them. Per game:

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

from bench.common import by_name, own
from domain import selfplay
from service.app.games import kit

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
    for game in by_name():
        ap.add_argument(f"--{game}-deals", type=int, default=own(game).COACH_DEALS)
    args = ap.parse_args(argv)
    out: dict[str, Any] = {"target_p95_ms": TARGET_P95_MS}
    for game in by_name():
        k = kit(game)
        deals = getattr(args, f"{game}_deals")
        views = collect(k.game, k.projections.view_from_state, k.make_bot, deals, f"coach-{game}".encode())
        out[game] = {"deals": deals, **measure(views, k.coach.coach, own(game).clear_coach_caches)}
    out["p95_ok"] = all(out[g][m]["p95_ms"] <= TARGET_P95_MS for g in by_name() for m in ("warm", "cold"))
    if args.json:
        print(json.dumps(out))
    else:
        print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
