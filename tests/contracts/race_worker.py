"""One OS process of the store race: N asyncio tasks append notes to one deal until each is done.

Prints the acknowledged (process, task, seq) triples as JSON on stdout.
"""

from __future__ import annotations

import asyncio
import json
import sys

import msgspec

from service.store.connection import connect
from service.store.event_store import EventStore, VersionConflict


class Note(msgspec.Struct, frozen=True, tag=True):
    process: int
    task: int
    seq: int


async def run(url: str, prefix: str, deal: str, process: int, tasks: int, per_task: int) -> list:
    client = connect(url, max_connections=max(64, tasks + 2))
    await client.ping()  # a cluster client learns its slot map once, before the racers start
    store = EventStore(client, prefix)
    acknowledged: list[tuple[int, int, int]] = []

    async def racer(task: int) -> None:
        version = await store.version(deal)
        for seq in range(per_task):
            while True:
                try:
                    result = await store.append(
                        deal, version, [Note(process, task, seq)], command_id=f"p{process}t{task}s{seq}"
                    )
                except VersionConflict as conflict:
                    version = conflict.actual
                    continue
                acknowledged.append((process, task, seq))
                version = result.last_version
                break

    await asyncio.gather(*(racer(t) for t in range(tasks)))
    await client.aclose()
    return acknowledged


if __name__ == "__main__":
    url, prefix, deal, process, tasks, per_task = sys.argv[1:7]
    acked = asyncio.run(run(url, prefix, deal, int(process), int(tasks), int(per_task)))
    print(json.dumps(acked))
