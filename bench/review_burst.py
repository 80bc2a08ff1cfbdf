"""Live strong tables beside a burst of review starts: the strong decisions that fell back to greedy.

Issue 26's probe: 50 review POSTs in half a second, with no token, were all accepted (535
decisions queued) and for about 13 minutes every strong bot of that process played its greedy
fallback, because reviews and live bots shared the workers first come, first served. Live tables
come first now (``service.app.analysis.review_workers``) and review starts are bounded (DS-29,
DS-30).

What runs: the real app (``bootstrap.application``: the bot runner and its worker pool, the review
pool) on a free loopback port, backed by a real Redis. First ``--finished`` deals of greedy bots
are played to their end (the reviews' material). Then ``--tables`` tables of strong bots play
throughout (a table that ends is followed by another), and three windows of ``--window-seconds``
each follow one another: ``quiet`` (no review), ``burst`` (``--posts`` review POSTs at once from
one address, 127.0.0.1) and ``spread`` (as many, shared among ``--addresses`` loopback addresses
127.0.0.2, 127.0.0.3, …: the service limits by the connection's address and trusts no
``X-Forwarded-For``). Each window counts the strong decisions, those that fell back to greedy (the
bot pool's own record: over the budget, or a worker died) and every answer's status. At the end
the tables stop and the accepted reviews are waited for, up to ``--drain-seconds``.

``--shared`` measures the service as the probe found it: reviews in the bot workers and no bounds.

Reported per window: strong decisions, fallbacks, fallback share, the review POSTs' statuses and
whether each refusal carried ``Retry-After``; then reviews accepted and finished, and the time
from the first accepted POST to the last review's end. The keys live under a unique prefix and
are deleted at the end.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from typing import Any

import aiohttp
from aiohttp import web

from bench.common import by_name, emit, parser, run_on_redis, seat_count
from service import bootstrap
from service.http.routes import REVIEWS
from service.store.connection import connect

WINDOWS = ("quiet", "burst", "spread")


class Tables:
    """Tables of strong bots, one after another in each slot, until ``stop``."""

    def __init__(self, session: aiohttp.ClientSession, base: str, slots: int, game: str) -> None:
        self.session, self.base, self.slots, self.game = session, base, slots, game
        self.stop = False
        self.deals = 0

    async def slot(self) -> None:
        seats = ["bot:strong"] * seat_count(self.game)
        while not self.stop:
            async with self.session.post(
                f"{self.base}/deals", json={"game": self.game, "seats": seats, "pace": "fast"}
            ) as resp:
                deal_id = (await resp.json())["deal_id"]
            self.deals += 1
            while not self.stop:
                await asyncio.sleep(0.5)
                async with self.session.get(f"{self.base}/deals/{deal_id}") as resp:
                    if (await resp.json())["over"]:
                        break

    def run(self) -> list[asyncio.Task]:
        return [asyncio.create_task(self.slot()) for _ in range(self.slots)]


async def finished_deals(session: aiohttp.ClientSession, base: str, count: int, game: str) -> list[str]:
    seats = ["bot:greedy"] * seat_count(game)

    async def one() -> str:
        async with session.post(f"{base}/deals", json={"game": game, "seats": seats}) as resp:
            deal_id = (await resp.json())["deal_id"]
        while True:
            async with session.get(f"{base}/deals/{deal_id}") as resp:
                if (await resp.json())["over"]:
                    return deal_id
            await asyncio.sleep(0.2)

    return list(await asyncio.gather(*(one() for _ in range(count))))


async def fire(
    sessions: list[aiohttp.ClientSession], base: str, targets: list[tuple[str, int, int]]
) -> tuple[Counter[str], list[tuple[str, int, int]]]:
    """One review POST per target at once, the sessions (addresses) taken in turn: the statuses
    (with rule) and the targets accepted."""

    async def one(i: int, target: tuple[str, int, int]) -> tuple[str, bool]:
        deal_id, seat, seed = target
        session = sessions[i % len(sessions)]
        async with session.post(f"{base}/deals/{deal_id}/reviews", json={"seat": seat, "seed": seed}) as resp:
            body = await resp.json(content_type=None)
            if resp.status in (200, 202):
                return str(resp.status), True
            waits = "Retry-After" in resp.headers
            return f"{resp.status} {body.get('rule')}{'' if waits else ' without Retry-After'}", False

    answers = await asyncio.gather(*(one(i, t) for i, t in enumerate(targets)))
    return Counter(a for a, _ in answers), [t for t, (_, ok) in zip(targets, answers, strict=True) if ok]


async def measure(
    url: str,
    *,
    tables: int = 2,
    posts: int = 50,
    addresses: int = 5,
    finished: int = 17,
    window_s: float = 30.0,
    drain_s: float = 600.0,
    shared: bool = False,
    bot_budget: float = 1.0,
    bot_delay: float = 0.25,
    queue_cap: int | None = None,
    review_limit: int | None = None,
    game: str | None = None,
    review_nice: int | None = None,
) -> dict[str, Any]:
    run_start = time.perf_counter()
    game = game or by_name()[-1]
    client = connect(url)
    prefix = f"bench-burst-{uuid.uuid4().hex[:8]}"
    settings = bootstrap.Settings(
        prefix=prefix, dev=True, create_limit=10**6, bot_delay=bot_delay, bot_budget=bot_budget,
        archive=False, review_limit=10**6 if shared else review_limit or bootstrap.Settings.review_limit,
        review_nice=bootstrap.Settings.review_nice if review_nice is None else review_nice,
    )  # fmt: skip
    app = bootstrap.application(client, settings)
    pool = app[bootstrap.DEALS].bots.pool
    reviews = app[REVIEWS]
    if shared:  # as the probe found it: reviews in the bot workers, unbounded
        reviews.pool, reviews.per_deal, reviews.queue_cap = pool, 10**6, 10**9
    elif queue_cap is not None:
        reviews.queue_cap = queue_cap
    runner = web.AppRunner(app, access_log=None)
    mode = "shared" if shared else "separate"
    out: dict[str, Any] = {"redis": url.split("@")[-1], "mode": mode, "game": game}
    sessions: list[aiohttp.ClientSession] = []
    try:
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        base = f"http://127.0.0.1:{runner.addresses[0][1]}"
        timeout = aiohttp.ClientTimeout(total=120)
        for i in range(addresses + 1):  # 127.0.0.1 for the one-address burst, then the others
            connector = aiohttp.TCPConnector(limit=0, local_addr=(f"127.0.0.{i + 1}", 0))
            sessions.append(aiohttp.ClientSession(connector=connector, timeout=timeout))
        deals = await finished_deals(sessions[0], base, finished, game)
        await pool.start()
        strong = Tables(sessions[0], base, tables, game)
        tasks = strong.run()
        seats = seat_count(game)
        accepted: list[tuple[str, int, int]] = []
        first_accepted: float | None = None
        for window in WINDOWS:
            decisions, fallbacks = pool.decisions, pool.fallbacks
            if window != "quiet":
                seed = WINDOWS.index(window)  # each window asks for reviews not asked before
                targets = [(deals[(i // seats) % len(deals)], i % seats, seed) for i in range(posts)]
                chosen = sessions[:1] if window == "burst" else sessions[1:]
                started = time.perf_counter()
                statuses, ok = await fire(chosen, base, targets)
                out[f"{window}_posts_seconds"] = round(time.perf_counter() - started, 2)
                out[f"{window}_statuses"] = dict(sorted(statuses.items()))
                out[f"{window}_review_decisions_queued"] = reviews.queued
                accepted += ok
                if ok and first_accepted is None:
                    first_accepted = started
            await asyncio.sleep(window_s)
            out[f"{window}_strong_decisions"] = pool.decisions - decisions
            out[f"{window}_fallbacks"] = pool.fallbacks - fallbacks
            out[f"{window}_fallback_share"] = round(
                (pool.fallbacks - fallbacks) / max(1, pool.decisions - decisions), 4
            )
        out["reviews_accepted"] = len(accepted)
        strong.stop = True  # the tables leave: the reviews have the machine
        await asyncio.gather(*tasks, return_exceptions=True)
        out["strong_tables_played"] = strong.deals
        deadline = time.perf_counter() + drain_s
        done: set[tuple[str, int, int]] = set()
        while len(done) < len(accepted) and time.perf_counter() < deadline:
            for target in accepted:
                if target in done:
                    continue
                deal_id, seat, seed = target
                path = f"{base}/deals/{deal_id}/reviews/{seat}"
                async with sessions[0].get(path, params={"seed": seed}) as r:
                    if (await r.json())["status"] != "running":
                        done.add(target)
            await asyncio.sleep(1.0)
        out["reviews_finished"] = len(done)
        out["reviews_seconds_from_first_post"] = (
            round(time.perf_counter() - first_accepted, 1)
            if first_accepted and len(done) == len(accepted)
            else None
        )
        out["bot_budget_s"] = bot_budget
        out["bot_workers"] = pool.workers
        out["reviews_restarted"] = reviews.restarted
    finally:
        for session in sessions:
            await session.close()
        await runner.cleanup()
        keys = [k async for k in client.scan_iter(match=f"{prefix}:*", count=1000)]
        for i in range(0, len(keys), 1000):
            await client.delete(*keys[i : i + 1000])
        await client.aclose()
    out["total_seconds"] = round(time.perf_counter() - run_start, 1)
    return out


def main() -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--redis", help="Redis URL (default: DEALSTREAM_REDIS_URL, else the embedded server)")
    p.add_argument("--tables", type=int, default=2, help="tables of strong bots playing throughout")
    p.add_argument("--posts", type=int, default=50, help="review POSTs in each burst")
    p.add_argument("--addresses", type=int, default=5, help="loopback addresses the spread burst comes from")
    p.add_argument("--finished", type=int, default=17, help="finished deals of greedy bots to review")
    p.add_argument("--window-seconds", type=float, default=30.0)
    p.add_argument("--drain-seconds", type=float, default=600.0, help="how long to wait for the reviews")
    p.add_argument("--shared", action="store_true", help="reviews in the bot workers, unbounded (as before)")
    p.add_argument("--game", choices=by_name(), help="the game of every table (default: the last by name)")
    args = p.parse_args()
    options = dict(
        tables=args.tables, posts=args.posts, addresses=args.addresses, finished=args.finished,
        window_s=args.window_seconds, drain_s=args.drain_seconds, shared=args.shared, game=args.game,
    )  # fmt: skip
    figures = run_on_redis(args.redis, lambda url: measure(url, **options))
    emit(figures, args.json)


if __name__ == "__main__":
    main()
