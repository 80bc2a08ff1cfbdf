"""What a review would give and cost with every decision played out: no decision valued by the
strong bot's model alone (the shortcut of an evaluator that takes ``play_out_all``,
``projections/<game>/review.py``; ``--game``, by default the first registered game whose
evaluator takes it).

The deals, seats and review seed are ``bench.review``'s (seat 1 the random seat, 0 the strong
one); each seat's decisions are valued by the evaluator with ``play_out_all`` and judged as a
review judges them. Printed: the verdict counts, the agreement among the decisions that are not
``even`` (``bench.review``'s target for the random seat: at most 40 %), and the CPU seconds per
review on one core (the game's own target, ``REVIEW_TARGET_S``). ``--first-deal`` and
``--deals`` pick a slice, so a run can be split over processes and the per-deal lines added up.
"""

from __future__ import annotations

import hashlib
import inspect
import time
from functools import partial
from typing import Any

from bench.common import by_name, emit, own, parser
from bench.review import VERDICTS, _log, lineup
from projections import review as rv
from service.app.analysis.reviews import build
from service.app.games import kit


def playable(game: str) -> bool:
    """Whether the game's evaluator can be asked to play every decision out."""
    return "play_out_all" in inspect.signature(kit(game).review.evaluate).parameters


def measure(game: str, first: int, deals: int, seat: int) -> dict[str, Any]:
    k = kit(game)
    evaluate = partial(k.review.evaluate, play_out_all=True)
    per_deal: list[dict[str, Any]] = []
    for i in range(first, first + deals):
        records, events = _log(
            game, lineup(game), hashlib.sha256(f"bench-review:{game}:{i}".encode()).digest()
        )
        points = rv.points(k.game, k.projections.view_from_state, records, events, seat, k.review.same_play)
        started = time.process_time()
        scores = rv.evaluate_chunk(points, k.view_type, k.game.command_type, evaluate, 0)
        cpu = time.process_time() - started
        review = build(k.game.ruleset, "b", seat, 0, points, scores)
        counts = {v: sum(d.verdict == v for d in review.decisions) for v in VERDICTS}
        per_deal.append({"deal": i, "cpu_s": round(cpu, 2), "decisions": len(review.decisions), **counts})
    total = {v: sum(d[v] for d in per_deal) for v in VERDICTS}
    judged = sum(d["decisions"] for d in per_deal) - total["even"]
    times = [float(d["cpu_s"]) for d in per_deal]
    return {
        "game": game,
        "seat": seat,
        "per_deal": per_deal,
        "verdicts": total,
        "agrees_of_not_even": round(total["agrees"] / judged, 4) if judged else None,
        "review_cpu_s_mean": round(sum(times) / len(times), 2),
        "review_cpu_s_max": max(times),
        "target_s": own(game).REVIEW_TARGET_S,
    }


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__.splitlines()[0])
    games = [g for g in by_name() if playable(g)]
    p.add_argument("--game", default=games[0] if games else None, choices=games)
    p.add_argument("--deals", type=int, default=6)
    p.add_argument("--first-deal", type=int, default=0)
    p.add_argument("--seat", type=int, default=1, help="1: the random seat, 0: the strong one")
    args = p.parse_args(argv)
    emit({"method": rv.METHOD, **measure(args.game, args.first_deal, args.deals, args.seat)}, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
