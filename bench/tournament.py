"""A Swiss tournament of house bots on one service process, and the pairing of a big field.

``event``: 64 house bots (``--players``), 4 Swiss rounds (``--rounds``) of 1 deal at fast pace,
run by the tournament runner, the match service and the bots of one process on a real Redis:
the wall time, and the longest gap between a round's last table ending (its result recorded)
and the next round's deals being dealt (the last of them), as the deals' own logs recorded the
times; target <= 2 s. ``pairing``: the time to pair a round of 1,000 entrants (``--pair-entrants``), round 1
(a draw) and a Swiss round after it (by standings, with repeats mended); target <= 1 s each.
The game (default: the registry's with the most seats) and its seat count come from the
registry. ``python -m bench.tournament --json``.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from bench.common import emit, parser, registered, run_on_redis, seat_count


def pairing_times(entrants: int, game: str, seed: int = 7) -> dict[str, float]:
    from domain.tournament import plan, seeds
    from domain.tournament.events import DealResult, TableResult, TableStarted, TournamentCreated
    from domain.tournament.state import fold

    seats = seat_count(game)
    entrants -= entrants % seats
    created = TournamentCreated("bench", game, seats, "swiss", 2, 1)
    rng = random.Random(seed)
    entries = [(f"p{i:05d}", "person", seeds.seed_hash(str(i))) for i in range(entrants)]
    events: list[Any] = plan.opening(created, ["00" * 32, "00" * 32], entries)
    events += plan.start(fold(events), [])
    state = fold(events)
    began = time.perf_counter()
    events += plan.pairing(state, 1, b"round one")
    first_s = time.perf_counter() - began
    state = fold(events)
    for t in state.rounds[1].tables:
        events.append(TableStarted(1, t, f"m{t}"))
        pays = [rng.randint(-30, 30) for _ in range(seats - 1)]
        pays.append(-sum(pays))
        events.append(TableResult(1, t, [DealResult(f"d{t}", pays)], pays))
    state = fold(events)
    began = time.perf_counter()
    plan.pairing(state, 2, b"round two")
    swiss_s = time.perf_counter() - began
    return {"pair_entrants": entrants, "pair_round1_s": round(first_s, 4), "pair_swiss_s": round(swiss_s, 4)}


async def event(url: str, game: str, players: int, rounds: int, bot_delay: float) -> dict[str, Any]:
    from service.app.bots.runner import BotRunner
    from service.app.commands.deals import DealService
    from service.app.commands.matches import MatchService
    from service.app.state.match_log import MatchLog
    from service.app.tournaments import TournamentService
    from service.store.connection import connect
    from service.store.event_store import EventStore

    client = connect(url)
    prefix = f"bench-tournament-{random.randrange(1 << 30):x}"
    store = EventStore(client, prefix)
    deals = DealService(store, bots=BotRunner(bot_delay))
    matches = MatchService(deals, MatchLog(store), sweep_s=0.2)
    tournaments = TournamentService(matches)
    # what a service process runs beside them: the match sweep, the tournament runner and the
    # bot supervisor (which kicks a bot whose turn was missed)
    tasks = [
        asyncio.create_task(matches.run()),
        asyncio.create_task(tournaments.run()),
        asyncio.create_task(deals.bots.supervise(2.0)),
    ]
    try:
        body = {
            "game": game, "rounds": rounds, "players": ["bot:greedy"] * players, "pace": "fast",
            "fill_with_bots": True,
        }  # fmt: skip
        began = time.perf_counter()
        made = await tournaments.create(body)
        while True:
            state, _ = await tournaments.store.state(made["tournament_id"])
            if state.ended:
                break
            await asyncio.sleep(0.05)
        wall = time.perf_counter() - began
        gaps = await round_gaps(store, state)
        return {
            "event_game": game,
            "event_players": players,
            "event_rounds": rounds,
            "event_bot_delay_s": bot_delay,
            "event_wall_s": round(wall, 2),
            "event_round_gap_max_s": round(max(gaps), 3) if gaps else None,
            "event_round_gaps": len(gaps),
        }
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await matches.close()
        tournaments.close()
        await deals.close()
        keys = [k async for k in client.scan_iter(match=f"{prefix}:*", count=1000)]
        for start in range(0, len(keys), 500):
            await client.delete(*keys[start : start + 500])
        await client.aclose()


async def round_gaps(store: Any, state: Any) -> list[float]:
    """Per round after the first: seconds from the previous round's last deal ending (its last
    record) to the last of this round's first deals being dealt (its first record), as the
    deals' logs recorded them."""
    from datetime import datetime

    def at(record: Any) -> float:
        return datetime.fromisoformat(record.recorded_at.replace("Z", "+00:00")).timestamp()

    ends: dict[int, float] = {}
    starts: dict[int, float] = {}
    for r, rnd in state.rounds.items():
        for table in rnd.tables.values():
            assert table.result is not None
            first = await store.read(table.result.deals[0].deal_id)
            last = await store.read(table.result.deals[-1].deal_id)
            starts[r] = max(starts.get(r, 0.0), at(first[0]))
            ends[r] = max(ends.get(r, 0.0), at(last[-1]))
    return [starts[r] - ends[r - 1] for r in sorted(state.rounds) if r - 1 in ends]


def main() -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--redis", help="Redis URL (default: DEALSTREAM_REDIS_URL, else the embedded server)")
    widest = max(registered(), key=seat_count)  # the registry's game with the most seats
    p.add_argument("--game", default=widest, help=f"default: {widest}, the game with the most seats")
    p.add_argument("--players", type=int, default=64)
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--bot-delay", type=float, default=0.2, help="the bots' think time (fast pace: 0.3 of it)")
    p.add_argument("--pair-entrants", type=int, default=1000)
    p.add_argument("--quick", action="store_true", help="16 players, 2 rounds, 200 entrants to pair")
    args = p.parse_args()
    if args.quick:
        args.players, args.rounds, args.pair_entrants = 16, 2, 200
    figures: dict[str, Any] = pairing_times(args.pair_entrants, args.game)
    figures.update(
        run_on_redis(args.redis, lambda url: event(url, args.game, args.players, args.rounds, args.bot_delay))
    )
    emit(figures, args.json)


if __name__ == "__main__":
    main()
