"""Redis memory per deal before and after archiving, archive throughput, and a soak in which bot
deals finish and are archived while Redis memory is sampled.

    python -m bench.archive --json [--deals 300] [--game GAME] [--postgres URL]
    python -m bench.archive --json --soak 20000 [--live 20] [--older-than 5] [--wave 1000] [--archive URL]

Runs its own redis-server (no persistence) on a free loopback port, so ``used_memory`` holds
nothing but what this run wrote. Bot deals are played through the command side (all-bot
tables, no think time); a deal that ends is listed in the finished index, as the command side
does. Memory: ``used_memory`` before, after N finished deals, after archiving them, divided by
N. Throughput: ``archive_once`` over the same N deals into SQLite, then (put back into Redis as
``dealstream import`` would) into PostgreSQL. ``--game``: one game of ``domain.game.GAMES``, by
default the first it registers.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from bench.common import add_game, emit, parser, registered, seat_count

POSTGRES_URL = os.environ.get("DEALSTREAM_BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


class PrivateRedis:
    """A redis-server of this run's own on a free port, without persistence."""

    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.dir = tempfile.mkdtemp(prefix="ds-bench-archive-")
        binary = shutil.which("redis-server")
        if binary is None:
            from service.store.embedded import redis_server_binary

            binary = redis_server_binary()
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", self.dir],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
        )  # fmt: skip

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    async def ready(self, client: Any) -> None:
        for _ in range(200):
            try:
                if await client.ping():
                    return
            except OSError:
                pass
            except Exception:  # noqa: BLE001 - redis-py's connection errors while it starts
                pass
            await asyncio.sleep(0.05)
        raise RuntimeError("redis-server did not answer")

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


async def used_memory(client: Any) -> int:
    return int((await client.info("memory"))["used_memory"])


async def memory_parts(client: Any) -> tuple[int, int, int]:
    """(used_memory, of which client connection buffers, connected clients)."""
    memory = await client.info("memory")
    clients = await client.info("clients")
    return int(memory["used_memory"]), int(memory["mem_clients_normal"]), int(clients["connected_clients"])


async def play(deals: Any, store: Any, game: str, count: int, live: int, on_done: Any = None) -> list[str]:
    """``count`` all-bot deals, ``live`` at a time, each listed as finished when it ends."""
    from service.store.event_store import now_ms

    gate = asyncio.Semaphore(live)
    ids: list[str] = []

    async def one(i: int) -> None:
        async with gate:
            deal_id = (await deals.create(game, ["bot:greedy"] * seat_count(game), f"bench-{i}")).deal_id
            while not (await deals.load(deal_id)).over:
                await asyncio.sleep(0.02)
            await store.indexes.mark_finished(deal_id, now_ms())
            ids.append(deal_id)
            if on_done is not None:
                await on_done(len(ids))

    await asyncio.gather(*(one(i) for i in range(count)))
    return ids


async def put_back(store: Any, archive: Any, deal_ids: list[str]) -> None:
    """The archived deals into Redis again (records, meta, indexes), to archive them once more."""
    for deal_id in deal_ids:
        deal = await archive.get(deal_id)
        await store.indexes.put_meta(deal_id, deal.meta)
        await store.log.append_records(deal_id, deal.records)
        await store.indexes.put_meta(deal_id, {}, created_ms=deal.created_ms, public=True)
        await store.indexes.mark_finished(deal_id, deal.finished_ms)


async def measure(game: str, count: int, live: int, postgres_url: str | None) -> dict[str, Any]:
    from service.app.archive.archiver import Archiver
    from service.app.commands.deals import DealService
    from service.store.archive.postgres import PostgresArchive
    from service.store.archive.sqlite import SqliteArchive
    from service.store.connection import connect
    from service.store.event_store import EventStore

    server = PrivateRedis()
    client = connect(server.url)
    work = Path(tempfile.mkdtemp(prefix="ds-bench-archive-db-"))
    figures: dict[str, Any] = {"game": game, "deals": count}
    try:
        await server.ready(client)
        store = EventStore(client, "ds")
        deals = DealService(store)
        empty, empty_clients, _n = await memory_parts(client)
        empty_data = empty - empty_clients
        started = time.perf_counter()
        ids = await play(deals, store, game, count, live)
        figures["play_deals_per_s"] = round(count / (time.perf_counter() - started), 1)
        await deals.close()
        held = await used_memory(client)
        records = sum([await client.xlen(store.keys.events(d)) for d in ids])
        figures["records_per_deal"] = round(records / count, 1)
        figures["redis_bytes_per_finished_deal_in_redis"] = round((held - empty) / count)

        sqlite = SqliteArchive(work / "archive.sqlite3")
        counts = await Archiver(store, sqlite, older_than=0).archive_once()
        assert counts.archived == count and counts.failed == 0, counts
        await asyncio.sleep(1.0)  # Redis shrinks the tables the deleted keys left in its cron
        after, after_clients, connections = await memory_parts(client)
        # what is left beyond the empty server, less the connections' buffers (the same for one
        # deal or a million): what archived deals still cost Redis
        left = after - after_clients - empty_data
        figures["redis_bytes_left_after_archiving"] = left  # a fixed cost (the scripts, the indexes' shells)
        figures["redis_bytes_per_archived_deal"] = round(left / count, 2)
        figures["redis_used_memory_empty"] = empty
        figures["redis_used_memory_with_deals"] = held
        figures["redis_used_memory_after_archiving"] = after
        figures["redis_client_buffers_after_archiving"] = after_clients
        figures["redis_connections_after_archiving"] = connections
        figures["redis_keys_left"] = await client.dbsize()
        figures["sqlite_deals_per_s"] = counts.deals_per_s
        figures["sqlite_bytes_per_deal"] = round(os.path.getsize(work / "archive.sqlite3") / count)

        if postgres_url:
            schema = f"bench_{uuid.uuid4().hex[:10]}"
            sep = "&" if "?" in postgres_url else "?"
            pg = PostgresArchive(f"{postgres_url}{sep}schema={schema}")
            try:
                await put_back(store, sqlite, ids)
                counts = await Archiver(store, pg, older_than=0).archive_once()
                assert counts.archived == count and counts.failed == 0, counts
                figures["postgres_deals_per_s"] = counts.deals_per_s
            finally:
                await pg.drop_schema()
                await pg.close()
        await sqlite.close()
        store.close()
    finally:
        await client.aclose()
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return figures


async def soak(
    game: str, count: int, live: int, older_than: float, wave: int, archive_url: str | None
) -> dict[str, Any]:
    """``count`` deals finish, ``live`` at a time, in waves of ``wave``, while the archiver runs
    (a round a second, deals finished more than ``older_than`` s ago). After each wave, once the
    archiver has caught up and Redis's cron has shrunk its emptied tables, ``used_memory`` is
    read; during the waves it is sampled too (live deals and the not yet due ones included)."""
    from service.app.archive.archiver import Archiver
    from service.app.commands.deals import DealService
    from service.store.archive import open_archive
    from service.store.connection import connect
    from service.store.event_store import EventStore

    server = PrivateRedis()
    client = connect(server.url)
    work = Path(tempfile.mkdtemp(prefix="ds-bench-soak-"))
    if archive_url and archive_url.startswith("postgres") and "schema=" not in archive_url:
        archive_url += ("&" if "?" in archive_url else "?") + f"schema=bench_{uuid.uuid4().hex[:10]}"
    archive = open_archive(archive_url, work, prefix="ds")
    try:
        await server.ready(client)
        store = EventStore(client, "ds")
        deals = DealService(store)
        task = asyncio.create_task(Archiver(store, archive, older_than=older_than).run(interval=1.0))
        quiet: list[tuple[int, int, int]] = []  # memory_parts after each wave, nothing left in Redis
        during: list[int] = []  # sampled while deals play
        started = time.perf_counter()
        played = 0

        async def sample(done: int) -> None:
            if done % max(1, wave // 10) == 0:
                during.append(await used_memory(client))

        while played < count:
            n = min(wave, count - played)
            await play(deals, store, game, n, live, sample)
            played += n
            for _ in range(int(older_than * 20) + 1200):
                if await client.dbsize() == 0:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(1.0)
            quiet.append(await memory_parts(client))
        elapsed = time.perf_counter() - started
        await deals.close()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        archived = await archive.count()
        keys_left = await client.dbsize()
        store.close()
        used = [m for m, _c, _n in quiet]
        data = [m - c for m, c, _n in quiet]
        return {
            "game": game,
            "deals": count,
            "live_at_once": live,
            "older_than_s": older_than,
            "seconds": round(elapsed, 1),
            "deals_per_s": round(count / elapsed, 1),
            "archived": archived,
            "redis_keys_left": keys_left,
            "used_memory_after_each_wave": [m for m, _c, _n in quiet],
            "client_buffers_after_each_wave": [c for _m, c, _n in quiet],
            "connections_after_each_wave": [n for _m, _c, n in quiet],
            "used_memory_change_first_to_last_wave_pct": round(100 * (used[-1] - used[0]) / used[0], 2),
            "used_memory_spread_over_waves_pct": round(100 * (max(used) - min(used)) / used[0], 2),
            "used_memory_less_client_buffers_change_pct": round(100 * (data[-1] - data[0]) / data[0], 2),
            "used_memory_while_playing_min": min(during) if during else None,
            "used_memory_while_playing_max": max(during) if during else None,
        }
    finally:
        if hasattr(archive, "drop_schema"):
            await archive.drop_schema()
        await archive.close()
        await client.aclose()
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__.splitlines()[0])
    add_game(p, "--game", registered()[0], "the game whose bot deals are played and archived")
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--live", type=int, default=20, help="deals played at once")
    p.add_argument("--postgres", default=POSTGRES_URL, help="PostgreSQL for the throughput ('' to skip)")
    p.add_argument("--soak", type=int, default=0, help="instead: this many deals finish while archiving")
    p.add_argument("--older-than", type=float, default=5.0, help="soak: archive deals finished this long ago")
    p.add_argument("--wave", type=int, default=1000, help="soak: deals between two quiet memory readings")
    p.add_argument("--archive", default=None, help="soak: archive URL (default SQLite in a temp dir)")
    args = p.parse_args(argv)
    if args.soak:
        run = soak(args.game, args.soak, args.live, args.older_than, args.wave, args.archive)
        figures = asyncio.run(run)
    else:
        figures = asyncio.run(measure(args.game, args.deals, args.live, args.postgres or None))
    emit(figures, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
