"""MCR's matches (MC-6): rounds of four hands, the prevailing wind of each round, the deal passed
to the next seat after every hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.errors import RuleViolation
from domain.mcr.seats import SEATS

HANDS_PER_ROUND = 4
LENGTHS = {"round": HANDS_PER_ROUND, "game": 4 * HANDS_PER_ROUND}  # MC-6.1


class McrMatch:
    rule = "MC-6.1"

    def length(self, length: Any, target: Any) -> tuple[int, str | None]:
        if target is not None:
            raise RuleViolation("MC-6.1", "an MCR match is a number of hands: it takes no 'target'")
        if isinstance(length, str):
            if length not in LENGTHS:
                raise RuleViolation(
                    "MC-6.1", f"length is 'round', 'game' or a number of hands, not {length!r}"
                )
            return LENGTHS[length], length
        if isinstance(length, bool) or not isinstance(length, int):
            raise RuleViolation("MC-6.1", "length is 'round', 'game' or a number of hands")
        return length, None

    def round_of(self, index: int) -> int:
        """MC-6.2: hand k is played in the wind of round k // 4 (East, South, West, North)."""
        return (index // HANDS_PER_ROUND) % 4

    def next_dealer(self, last: Any, seats: int = SEATS) -> int:
        """MC-6.3: after every hand, won or drawn, the next seat deals."""
        return (last.dealer + 1) % seats

    def ends_early(self, created: Any, scores: Sequence[int]) -> bool:
        return False


MATCH = McrMatch()
