"""What acknowledging an append only after a replica has it costs, on a real Redis Cluster.

On a cluster an append is acknowledged after ``WAIT 1`` (``--wait-replicas``, default 1 there), so
a master's failover loses no acknowledged command. This bench measures that price: the same
appends through the store on the same cluster, in alternating blocks with ``wait_replicas`` 1
and 0, one at a time (the latency a command pays) and from ``--concurrency`` deals at once (what
the auto-pipeline makes of it: a batch shares its ``WAIT``). Printed: per mode the append latency
p50/p99 and appends/s, and the ratios wait ÷ no-wait.

Without ``--redis redis+cluster://…`` it starts a 3-master, 3-replica cluster of its own on free
loopback ports (``tests/cluster.py``, Debian's ``redis-server``) and stops it at the end.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import msgspec

from bench.common import emit, median, parser
from bench.service import percentile
from service.store.connection import connect
from service.store.event_store import EventStore


class Discarded(msgspec.Struct, frozen=True, tag=True):
    seat: int
    card: int
    window: int


EVENT = Discarded(seat=1, card=42, window=7)
MODES = {"wait": 1, "no_wait": 0}


async def measure(url: str, appends: int, rounds: int, concurrency: int) -> dict[str, Any]:
    client = connect(url)
    await client.ping()
    prefix = f"bench-cl-{uuid.uuid4().hex[:8]}"
    stores = {mode: EventStore(client, prefix, wait_replicas=n) for mode, n in MODES.items()}
    versions: dict[str, int] = {}
    single: dict[str, list[float]] = {mode: [] for mode in MODES}
    together: dict[str, tuple[int, float]] = {mode: (0, 0.0) for mode in MODES}

    async def one(mode: str, deal: str) -> float:
        version = versions.get(deal, 0)
        start = time.perf_counter()
        await stores[mode].append(deal, version, [EVENT], command_id=f"c{version}")
        versions[deal] = version + 1
        return time.perf_counter() - start

    try:
        for r in range(rounds):
            for mode in MODES:
                for i in range(appends):  # one at a time, over deals on every master
                    single[mode].append(await one(mode, f"{mode}-s{i % 30}"))
                start = time.perf_counter()
                deals = [f"{mode}-c{r}-{i}" for i in range(concurrency)]
                for _ in range(max(1, appends // concurrency)):
                    await asyncio.gather(*(one(mode, d) for d in deals))
                count, seconds = together[mode]
                done = concurrency * max(1, appends // concurrency)
                together[mode] = (count + done, seconds + time.perf_counter() - start)
    finally:
        for store in stores.values():
            store.close()
        keys = [k async for k in client.scan_iter(match=f"{prefix}:*", count=1000)]
        for key in keys:
            await client.delete(key)
        await client.aclose()
    out: dict[str, Any] = {"redis": url, "appends_per_block": appends, "rounds": rounds}
    for mode in MODES:
        ms = [x * 1000 for x in single[mode]]
        out[f"{mode}_p50_ms"] = round(median(ms), 3)
        out[f"{mode}_p99_ms"] = round(percentile(ms, 99), 3)
        count, seconds = together[mode]
        out[f"{mode}_appends_per_s_at_{concurrency}"] = round(count / seconds, 1) if seconds else None
    out["ratio_p50_wait_vs_no_wait"] = round(out["wait_p50_ms"] / out["no_wait_p50_ms"], 3)
    out["ratio_p99_wait_vs_no_wait"] = round(out["wait_p99_ms"] / out["no_wait_p99_ms"], 3)
    key = f"_appends_per_s_at_{concurrency}"
    out["ratio_throughput_wait_vs_no_wait"] = round(out["wait" + key] / out["no_wait" + key], 3)
    return out


def main() -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--redis", help="a redis+cluster:// URL (default: start a loopback cluster)")
    p.add_argument("--appends", type=int, default=300, help="appends per mode per round")
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--concurrency", type=int, default=20)
    args = p.parse_args()
    if args.redis:
        figures = asyncio.run(measure(args.redis, args.appends, args.rounds, args.concurrency))
    else:
        from tests.cluster import Cluster

        with tempfile.TemporaryDirectory(prefix="bench-cluster-") as root:
            cluster = Cluster(Path(root)).start()
            try:
                figures = asyncio.run(measure(cluster.url, args.appends, args.rounds, args.concurrency))
            finally:
                cluster.stop()
    emit(figures, args.json)


if __name__ == "__main__":
    main()
