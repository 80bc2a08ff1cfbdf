"""``regular_useful`` gives exactly the fan calculator's regular-hand shanten and useful tiles.

The greedy bot's choices, the coach's counts and the wins' waits read these answers, so the
table search must agree with the calculator on every hand: here on every hand met in seeded
self-play deals (each seat, each decision, each discard it weighed) and on generated hands with
0-4 fixed packs, random and near-complete (where a fifth copy of a kind held four times is tried).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

import pytest

from domain.mcr import scoring
from domain.mcr.regular_shanten import regular_useful
from domain.selfplay import play_deal
from service.app.games import kit

SELFPLAY_DEALS = 50
RANDOM_HANDS = 15_000
NEAR_COMPLETE_HANDS = 15_000


def _mismatches(hands: set[tuple[int, ...]]) -> list[tuple[tuple[int, ...], Any, Any]]:
    out = []
    for kinds in sorted(hands):
        want = scoring.calculator_regular_useful(kinds)
        got = regular_useful(kinds)
        if got != want:
            out.append((kinds, want, got))
    return out


def _without_one(kinds: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    for i in range(len(kinds)):
        if i == 0 or kinds[i] != kinds[i - 1]:
            yield kinds[:i] + kinds[i + 1 :]


def _selfplay_hands(level: str, deals: int) -> set[tuple[int, ...]]:
    """Every concealed hand of 13 - 3n tiles the seats held or weighed in seeded deals."""
    k = kit("mcr")
    hands: set[tuple[int, ...]] = set()

    class Recording:
        def __init__(self, bot: Any) -> None:
            self.bot = bot

        def choose(self, view: Any) -> Any:
            kinds = tuple(sorted(t >> 2 for t in view.hand))
            if len(kinds) % 3 == 1:
                hands.add(kinds)
            else:
                hands.update(_without_one(kinds))
            return self.bot.choose(view)

    original = scoring.useful, scoring.shanten

    def useful(kinds: tuple[int, ...]) -> tuple[int, frozenset[int]]:
        hands.add(kinds)
        return original[0](kinds)

    def shanten(kinds: tuple[int, ...]) -> int:
        hands.add(kinds)
        return original[1](kinds)

    mp = pytest.MonkeyPatch()
    mp.setattr(scoring, "useful", useful)
    mp.setattr(scoring, "shanten", shanten)
    try:
        for n in range(deals):
            bots = [Recording(k.make_bot(level, 1000 + n * 10 + s)) for s in range(4)]
            play_deal(
                k.game,
                k.projections.view_from_state,
                bots,
                deal_id=f"rs{n}",
                server_seed=hashlib.sha256(f"regular-shanten:{level}:{n}".encode()).digest(),
                client_seed=f"c{n}",
            )
    finally:
        mp.undo()
    return hands


def random_hands(count: int, seed: int) -> set[tuple[int, ...]]:
    """Legal concealed hands: 0-4 fixed packs' tiles taken from the same wall first."""
    rng = random.Random(seed)
    out = set()
    for _ in range(count):
        wall = [k for k in range(34) for _ in range(4)]
        if rng.random() < 0.5:  # a hand crowded into one suit and the honours
            suit = rng.randrange(3)
            wall = [k for k in wall if k // 9 == suit or k >= 27 or rng.random() < 0.2]
        rng.shuffle(wall)
        packs = rng.randrange(5)
        del wall[: 3 * packs]
        out.add(tuple(sorted(wall[: 13 - 3 * packs])))
    return out


def near_complete_hands(count: int, seed: int) -> set[tuple[int, ...]]:
    """Four sets and a pair (at most four copies of a kind) less 0-4 fixed packs, less one tile,
    sometimes with one or two tiles swapped for others: ready and nearly ready hands."""
    rng = random.Random(seed)
    out = set()
    while len(out) < count:
        copies = [4] * 34
        tiles: list[int] = []
        packs = rng.randrange(5)
        for _ in range(4 - packs):
            for _attempt in range(20):
                if rng.random() < 0.6:
                    lo = 9 * rng.randrange(3) + rng.randrange(7)
                    need = [lo, lo + 1, lo + 2]
                else:
                    need = [rng.randrange(34)] * 3
                if all(copies[x] >= need.count(x) for x in need):
                    for x in need:
                        copies[x] -= 1
                    tiles += need
                    break
        pair = [x for x in range(34) if copies[x] >= 2]
        x = rng.choice(pair)
        copies[x] -= 2
        tiles += [x, x]
        rng.shuffle(tiles)
        tiles.pop()
        for _ in range(rng.choice((0, 0, 1, 2))):
            spare = [x for x in range(34) if copies[x]]
            tiles[rng.randrange(len(tiles))] = y = rng.choice(spare)
            copies[y] -= 1
        if len(tiles) == 13 - 3 * packs and max(tiles.count(x) for x in set(tiles)) <= 4:
            out.add(tuple(sorted(tiles)))
    return out


def test_regular_useful_equals_the_calculator_on_every_greedy_self_play_hand() -> None:
    hands = _selfplay_hands("greedy", SELFPLAY_DEALS)
    assert len(hands) > 5_000
    assert _mismatches(hands) == []


def test_regular_useful_equals_the_calculator_on_a_strong_self_play_deal() -> None:
    hands = _selfplay_hands("strong", 1)
    assert len(hands) > 200
    assert _mismatches(hands) == []


def test_regular_useful_equals_the_calculator_on_random_hands_with_0_to_4_packs() -> None:
    hands = random_hands(RANDOM_HANDS, 1)
    assert {len(h) for h in hands} == {13, 10, 7, 4, 1}
    assert _mismatches(hands) == []


def test_regular_useful_equals_the_calculator_on_ready_and_nearly_ready_hands() -> None:
    hands = near_complete_hands(NEAR_COMPLETE_HANDS, 2)
    shantens = {scoring.calculator_regular_useful(h)[0] for h in hands}
    assert {0, 1, 2} <= shantens
    assert any(max(h.count(x) for x in h) == 4 and regular_useful(h)[0] == 0 for h in hands)
    assert _mismatches(hands) == []
