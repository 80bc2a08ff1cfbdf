"""The work a table at human pace costs the service, without its I/O: a fixed load to compare two
versions of the code by instruction counts, which a loaded machine does not blur.

    python -m bench.table_work --deals 8
    valgrind --tool=callgrind --callgrind-out-file=/tmp/tw.out python -m bench.table_work --deals 8

Seeded deals of every registered game whose seats all play the ``greedy`` bot (the capacity
bench's bots: each move is a view of the seat and a choice on it, then the rules executing it),
and for each batch what the live streams do with it: every seat's and a spectator's events
through the gate (redaction, secrets dropped) and encoded, each of those viewers' views at the
batch encoded, and the message id of each record. Run it under callgrind once with ``--deals 0``
as well: the difference is the workload's own instructions, without the interpreter's start and
the imports.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from types import SimpleNamespace
from typing import Any

import msgspec

from bench.common import registered
from domain.selfplay import Step, play_deal
from service.app.games import kit
from service.app.live.streams import record_tag
from service.app.reads import gate

LEVEL = "greedy"
TAG_KEY = b"table-work" * 3


def play(game_name: str, deals: int) -> int:
    """Play ``deals`` seeded deals of one game with the streams' work on every batch; the batches."""
    k = kit(game_name)
    encode = msgspec.json.Encoder().encode
    folded: Any = SimpleNamespace(kit=k, spectators=True)  # what the gate reads of a deal
    viewers: list[Any] = [SimpleNamespace(seat=s) for s in range(k.game.seat_count)]
    viewers.append(SimpleNamespace(seat=None))
    batches = 0

    def on_step(step: Step) -> None:
        nonlocal batches
        batches += 1
        first = len(step.log) - len(step.events) + 1
        pairs = [(first + i, event) for i, event in enumerate(step.events)]
        for event in step.events:
            record_tag(TAG_KEY, encode(event))
        for viewer in viewers:
            for version, shown in gate.stream_events(folded, pairs, viewer):
                encode({"version": version, "event": shown})
            encode(k.projections.view_from_state(step.after, viewer.seat))

    for n in range(deals):
        bots = [k.make_bot(LEVEL, n * 10 + s) for s in range(k.game.seat_count)]
        seed = hashlib.sha256(f"table-work:{game_name}:{n}".encode()).digest()
        play_deal(
            k.game,
            k.projections.view_from_state,
            bots,
            deal_id=f"w{n}",
            server_seed=seed,
            client_seed=f"c{n}",
            on_step=on_step,
        )
    return batches


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=8, help="deals per game")
    args = ap.parse_args(argv)
    started = time.process_time()
    batches = {game_name: play(game_name, args.deals) for game_name in registered()}
    print(json.dumps({"deals_per_game": args.deals, "batches": batches,
                      "cpu_s": round(time.process_time() - started, 3)}))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
