"""Fixed decks for tests, tutorials and reproducing disputes (dev mode only, docs/design.md, the shuffle).

``deck_for`` turns hands and stock written as kinds (``"s5"``, ``"b10"``) into a deck of card ids
in the dealing order of PH-2.3. Unnamed places are filled with the remaining cards, spread so
that the filler adds no pair, kan or ti to a hand where it can avoid it.
"""

from __future__ import annotations

from domain.paohuzi.cards import SEATS, kind_from_name


def deck_for(dealer: int, hands: dict[int, list[str]], stock: list[str] = ()) -> list[int]:
    pool: dict[int, list[int]] = {k: [k * 4 + c for c in range(4)] for k in range(20)}

    def take(name: str) -> int:
        k = kind_from_name(name)
        if not pool[k]:
            raise ValueError(f"more than four {name}")
        return pool[k].pop(0)

    sizes = {dealer: 21, (dealer + 1) % SEATS: 20, (dealer + 2) % SEATS: 20}
    dealt: dict[int, list[int]] = {}
    for seat in range(SEATS):
        cards = [take(n) for n in hands.get(seat, [])]
        if len(cards) > sizes[seat]:
            raise ValueError(f"seat {seat} gets {len(cards)} cards, more than {sizes[seat]}")
        dealt[seat] = cards
    top = [take(n) for n in stock]
    for limit in (1, 2, 4):  # filler: prefer kinds the seat does not hold yet
        for seat in range(SEATS):
            cards = dealt[seat]
            while len(cards) < sizes[seat]:
                have = [0] * 20
                for c in cards:
                    have[c >> 2] += 1
                choices = [k for k in range(20) if pool[k] and have[k] + 1 <= limit]
                if not choices:
                    break
                k = max(choices, key=lambda x: (len(pool[x]), -have[x], x))
                cards.append(pool[k].pop(0))
    rest = [c for k in range(20) for c in pool[k]]
    order = [dealer, (dealer + 1) % SEATS, (dealer + 2) % SEATS]
    deck = dealt[order[0]] + dealt[order[1]] + dealt[order[2]] + top + rest
    assert sorted(deck) == list(range(80))
    return deck
