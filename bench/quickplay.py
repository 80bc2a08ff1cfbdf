"""Quick play under load on one process: how long seekers wait for a seat.

``seekers`` simulated people (seeded arrivals spread over ``arrive_s``, ratings drawn around a
mean, so not everyone fits together at once) each ask for a table of one game with
``bots_after_s`` and read their seek every ``poll_s``, as the web page does, against one
``QuickPlay`` of one ``DealService`` on a real Redis (the embedded one unless ``--redis-url``).
The time to a seat is from the seek to the first read that answers ``seated`` with a token. The
accounts are not signed up (hashing a thousand passwords is not what is measured); each seeker's
rating is given, not read from rated results. It reports p50 / p99 / max of the time to a seat,
how many tables were made and how many of them took bots, and whether every seeker got exactly
one seat (no seat twice).
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from typing import Any


async def measure(
    url: str, seekers: int, bots_after_s: float, arrive_s: float, poll_s: float, seed: int, game: str
) -> dict[str, Any]:
    from service.app.accounts import Account, Accounts
    from service.app.bots.runner import BotRunner
    from service.app.commands.deals import DealService
    from service.app.seeks import QuickPlay
    from service.store.connection import connect
    from service.store.event_store import EventStore

    client = connect(url)
    prefix = f"ds-bench-quick-{secrets.token_hex(4)}"
    store = EventStore(client, prefix)
    deals = DealService(store, bots=BotRunner(0.0))
    rng = random.Random(seed)
    ratings = {f"acct{i:05d}": rng.gauss(10.0, 6.0) for i in range(seekers)}

    class Benched(QuickPlay):
        async def _rating(self, game: str, name: str) -> float:  # given, not folded from results
            return ratings[name]

    quick = Benched(deals, Accounts(store))
    arrivals = sorted(rng.uniform(0, arrive_s) for _ in range(seekers))
    waits: list[float] = []
    places: list[tuple[str, int]] = []
    started = time.monotonic()

    async def seeker(i: int) -> None:
        name = f"acct{i:05d}"
        account = Account(f"bench{i:05d}", name)
        await asyncio.sleep(max(0.0, started + arrivals[i] - time.monotonic()))
        t0 = time.monotonic()
        from service.app.seeks import SeekRequest

        seek_id = await quick.seek(account, SeekRequest(game=game, bots_after_s=bots_after_s))
        while True:
            state = await quick.read(account, seek_id)
            if state.status == "seated" and state.token:
                waits.append(time.monotonic() - t0)
                assert state.deal_id is not None and state.seat is not None
                places.append((state.deal_id, state.seat))
                return
            await asyncio.sleep(poll_s)

    try:
        await asyncio.gather(*(seeker(i) for i in range(seekers)))
        tables: dict[str, int] = {}
        for deal_id, _seat in places:
            tables[deal_id] = tables.get(deal_id, 0) + 1
        seats = (await deals.load(places[0][0])).seats if places else []
        with_bots = sum(1 for people in tables.values() if people < len(seats))
    finally:
        await deals.close()
        async for key in client.scan_iter(match=f"{prefix}:*", count=1000):
            await client.delete(key)
        await client.aclose()
    waits.sort()

    def pct(p: float) -> float:
        return round(waits[min(len(waits) - 1, int(p * len(waits)))], 3)

    return {
        "quick_play_game": game,
        "quick_play_seekers": seekers,
        "quick_play_bots_after_s": bots_after_s,
        "quick_play_arrive_s": arrive_s,
        "quick_play_p50_to_seat_s": pct(0.50),
        "quick_play_p99_to_seat_s": pct(0.99),
        "quick_play_max_to_seat_s": round(waits[-1], 3),
        "quick_play_tables": len(tables),
        "quick_play_tables_with_bots": with_bots,
        "quick_play_seated_once": len(places) == seekers and len(set(places)) == seekers,
    }
