"""The names a replay in words uses: seats as the web table names them, cards and tiles by
kind (``s5``, ``b10``, ``W3``, ``H2``), hands laid out in groups, claim windows numbered from 1."""

from __future__ import annotations

from domain.mcr.tiles import code as mcr_code
from domain.paohuzi.cards import kind_name


def seat_names(kinds: list[str]) -> list[str]:
    bots = [i for i, k in enumerate(kinds) if k.startswith("bot:")]
    humans = [i for i, k in enumerate(kinds) if not k.startswith("bot:")]
    return [
        f"Computer {bots.index(i) + 1}" if i in bots else f"Player {humans.index(i) + 1}"
        for i in range(len(kinds))
    ]


def window_no(game: str, window: int) -> int:
    """Claim windows numbered from 1 in both games, as the web table numbers them."""
    return window + 1 if game == "mcr" else window


class Words:
    """Names of cards, tiles, seats and claims for one deal."""

    def __init__(self, game: str, kinds: list[str]) -> None:
        self.game = game
        self.names = seat_names(kinds)
        self.kinds = kinds

    def card(self, card: int | None) -> str:
        if card is None:
            return "a hidden card"
        return kind_name(card >> 2) if self.game == "paohuzi" else mcr_code(card)

    def cards(self, cards: list[int]) -> str:
        return " ".join(self.card(c) for c in cards)

    def grouped(self, cards: list[int]) -> str:
        """A hand laid out like the web table's: Paohuzi by rank (small before big), MCR by suit,
        groups apart."""
        if self.game == "paohuzi":
            ordered = sorted(cards, key=lambda c: ((c >> 2) % 10, c))
            key = lambda c: (c >> 2) % 10  # noqa: E731
        else:
            ordered = sorted(cards)
            key = lambda c: 99 if c >= 136 else (c >> 2) // 9 if c < 108 else 3 + ((c >> 2) >= 31)  # noqa: E731
        groups: list[list[int]] = []
        for c in ordered:
            if groups and key(groups[-1][-1]) == key(c):
                groups[-1].append(c)
            else:
                groups.append([c])
        return "  ".join(self.cards(g) for g in groups) or "-"

    def seat(self, seat: int | None) -> str:
        return "nobody" if seat is None else self.names[seat]
