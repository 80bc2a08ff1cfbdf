"""The names a replay in words uses: seats as the web table names them, cards and tiles by
kind (``s5``, ``b10``, ``W3``, ``H2``), hands laid out in groups, claim windows numbered from 1."""

from __future__ import annotations

from types import ModuleType


def seat_names(kinds: list[str]) -> list[str]:
    bots = [i for i, k in enumerate(kinds) if k.startswith("bot:")]
    humans = [i for i, k in enumerate(kinds) if not k.startswith("bot:")]
    return [
        f"Computer {bots.index(i) + 1}" if i in bots else f"Player {humans.index(i) + 1}"
        for i in range(len(kinds))
    ]


class Words:
    """Names of cards, tiles, seats and claims for one deal."""

    def __init__(self, text: ModuleType, kinds: list[str]) -> None:
        """``text``: the game's ``projections/<game>/text.py`` (its piece names and layout)."""
        self.text = text
        self.names = seat_names(kinds)
        self.kinds = kinds

    def card(self, card: int | None) -> str:
        if card is None:
            return "a hidden card"
        return self.text.piece_name(card)

    def cards(self, cards: list[int]) -> str:
        return " ".join(self.card(c) for c in cards)

    def grouped(self, cards: list[int]) -> str:
        """A hand laid out like the web table's: Paohuzi by rank (small before big), MCR by suit,
        groups apart."""
        ordered = sorted(cards, key=self.text.hand_order)
        key = self.text.hand_group
        groups: list[list[int]] = []
        for c in ordered:
            if groups and key(groups[-1][-1]) == key(c):
                groups[-1].append(c)
            else:
                groups.append([c])
        return "  ".join(self.cards(g) for g in groups) or "-"

    def window_no(self, window: int) -> int:
        """Claim windows numbered from 1 in both games, as the web table numbers them."""
        return window + self.text.WINDOW_OFFSET

    def seat(self, seat: int | None) -> str:
        return "nobody" if seat is None else self.names[seat]
