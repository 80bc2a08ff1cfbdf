"""``dealstream ratings rebuild``: every rating recomputed from the deal logs alone (Redis and
the archive), in the order the results were recorded; ``--write`` also makes the service's
index of rated results hold exactly what the logs hold."""

from __future__ import annotations

import argparse
import json
from typing import Any

from service.cli.stores import with_store


def cmd_ratings(args: argparse.Namespace) -> int:
    from domain.game import GAMES
    from projections.ratings import fold
    from service.app.ratings import results_in_store
    from service.store.ratings import RatingStore

    async def work(store: Any) -> dict[str, Any]:
        results = await results_in_store(store)
        if args.write:
            await RatingStore(store.redis, store.prefix, sorted(GAMES)).replace(results)
        return fold(results).table()

    table = with_store(args, work)
    if args.json:
        print(json.dumps(table, sort_keys=True))
    else:
        for game, players in table.items():
            print(game)
            for name, held in sorted(
                players.items(), key=lambda kv: kv[1]["mu"] - 3 * kv[1]["sigma"], reverse=True
            ):
                shown = held["mu"] - 3 * held["sigma"]
                print(
                    f"  {name}: {shown:.2f} (mu {held['mu']:.3f}, sigma {held['sigma']:.3f},"
                    f" {held['games']} games)"
                )
    return 0
