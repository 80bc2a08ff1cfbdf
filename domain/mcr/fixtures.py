"""Fixed decks for tests, tutorials and dispute reproduction (``--dev`` only).

``build_deck`` lays tiles out so that, with the dealer given, each seat gets the listed tiles,
the front of the wall yields ``front`` in order and the back yields ``back`` in order (the
first replacement tile first). The remaining ids fill the middle, flowers last among them.
"""

from __future__ import annotations

import random

from domain.mcr.tiles import DECK_SIZE, FIRST_FLOWER, ids_of


def build_deck(
    hands: dict[int, list[str]],
    *,
    dealer: int = 0,
    front: list[str] = (),
    back: list[str] = (),
    seed: int = 0,
) -> list[int]:
    pool: dict[str, list[int]] = {}

    def take(code: str) -> int:
        if code not in pool:
            pool[code] = ids_of(code)
        if not pool[code]:
            raise ValueError(f"more than four copies of {code}")
        return pool[code].pop(0)

    order = [(dealer + i) % 4 for i in range(4)]
    given = {p: [take(c) for c in hands.get(p, [])] for p in order}
    head = [take(c) for c in front]
    tail = [take(c) for c in back]
    used = {t for ts in given.values() for t in ts} | set(head) | set(tail)
    rest = [t for t in range(DECK_SIZE) if t not in used]
    rng = random.Random(seed)
    plain = [t for t in rest if t < FIRST_FLOWER]
    rng.shuffle(plain)
    flowers = [t for t in rest if t >= FIRST_FLOWER]
    deck: list[int] = []
    for p in order:  # short hands are filled with plain tiles
        n = 14 if p == dealer else 13
        tiles = given[p]
        if len(tiles) > n:
            raise ValueError(f"seat {p} gets {n} tiles, {len(tiles)} given")
        while len(tiles) < n:
            tiles.append(plain.pop())
        deck.extend(tiles)
    middle = plain[: len(plain) // 2] + flowers + plain[len(plain) // 2 :]
    return deck + head + middle + tail[::-1]
