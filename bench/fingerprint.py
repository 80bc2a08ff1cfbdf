"""One hash of many seeded deals of every registered game, bots at every level: a refactor that
changes no rule leaves it unchanged (the same seed and commands give the same events, byte for
byte).

    python -m bench.fingerprint --deals 40
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

import msgspec

from bench.common import registered
from domain.selfplay import play_deal
from service.app.games import kit

LEVELS = ("random", "greedy", "strong")


def fingerprint(game_name: str, level: str, deals: int) -> str:
    """sha256 over the encoded events of `deals` seeded deals whose seats all play `level`."""
    k = kit(game_name)
    digest = hashlib.sha256()
    encode = msgspec.json.Encoder().encode
    for n in range(deals):
        bots = [k.make_bot(level, n * 10 + s) for s in range(k.game.seat_count)]
        seed = hashlib.sha256(f"fingerprint:{game_name}:{level}:{n}".encode()).digest()
        view = k.projections.view_from_state
        events, _ = play_deal(k.game, view, bots, deal_id=f"f{n}", server_seed=seed, client_seed=f"c{n}")
        for event in events:
            digest.update(encode(event))
            digest.update(b"\n")
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40, help="deals per game and level (strong: a tenth)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    out: dict[str, object] = {}
    started = time.perf_counter()
    for game_name in registered():
        for level in LEVELS:
            n = max(1, args.deals // 10) if level == "strong" else args.deals
            out[f"{game_name}/{level}/{n}"] = fingerprint(game_name, level, n)
    out["seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(out))
    else:
        for key, value in out.items():
            print(f"{key:24} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
