"""Event store throughput against raw XADD on the same Redis, in one run.

Prints raw XADD events/s (one connection, same payload), store appends/s at batch sizes 1 and 8,
and ``ratio_batch1`` = store batch-1 appends/s ÷ raw XADD/s (target ≥ 0.7). Blocks of 100 appends
alternate between the three modes so a noisy neighbour hurts them alike.
"""

from __future__ import annotations

import time
import uuid

import msgspec

from bench.common import emit, parser, run_on_redis
from service.store.connection import connect
from service.store.event_store import EventStore


class Discarded(msgspec.Struct, frozen=True, tag=True):
    seat: int
    card: int
    window: int


EVENT = Discarded(seat=1, card=42, window=7)


async def measure(url: str, appends: int, rounds: int) -> dict:
    client = connect(url, max_connections=4)
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    store = EventStore(client, prefix)
    payload = msgspec.json.encode(EVENT)
    block = 100
    elapsed = {"raw": 0.0, "b1": 0.0, "b8": 0.0}
    ops = {"raw": 0, "b1": 0, "b8": 0}
    version1 = version8 = 0
    try:
        # alternate small blocks of the three modes so load changes hit them alike
        for _ in range(rounds):
            for _ in range(max(1, appends // block)):
                start = time.perf_counter()
                for _ in range(block):
                    await client.xadd(f"{prefix}:raw", {"e": payload})
                elapsed["raw"] += time.perf_counter() - start
                ops["raw"] += block

                start = time.perf_counter()
                for _ in range(block):
                    await store.append("b1", version1, [EVENT], command_id=f"c{version1}")
                    version1 += 1
                elapsed["b1"] += time.perf_counter() - start
                ops["b1"] += block

                start = time.perf_counter()
                for _ in range(block // 8):
                    await store.append("b8", version8, [EVENT] * 8, command_id=f"c{version8}")
                    version8 += 8
                elapsed["b8"] += time.perf_counter() - start
                ops["b8"] += block // 8
    finally:
        keys = [k async for k in client.scan_iter(match=f"{prefix}:*", count=1000)]
        if keys:
            await client.delete(*keys)
        await client.aclose()
    raw = ops["raw"] / elapsed["raw"]
    b1 = ops["b1"] / elapsed["b1"]
    b8 = ops["b8"] / elapsed["b8"]
    return {
        "redis": url.split("@")[-1],
        "appends_per_mode": ops["raw"],
        "raw_xadd_events_per_s": round(raw, 1),
        "store_batch1_appends_per_s": round(b1, 1),
        "store_batch8_appends_per_s": round(b8, 1),
        "store_batch8_events_per_s": round(b8 * 8, 1),
        "ratio_batch1": round(b1 / raw, 3),
        "ratio_batch1_target": 0.7,
    }


def main() -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--redis", help="Redis URL (default: DEALSTREAM_REDIS_URL, else the embedded server)")
    p.add_argument("--appends", type=int, default=2000)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    figures = run_on_redis(args.redis, lambda url: measure(url, args.appends, args.rounds))
    emit(figures, args.json)


if __name__ == "__main__":
    main()
