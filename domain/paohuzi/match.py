"""Paohuzi's matches (PH-9): a number of deals, optionally ended early by a target score; the
winner deals the next deal, after a drawn deal the seat after the dealer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.errors import RuleViolation


class PaohuziMatch:
    rule = "PH-9.1"

    def length(self, length: Any, target: Any) -> tuple[int, str | None]:
        if isinstance(length, bool) or not isinstance(length, int):
            raise RuleViolation(
                "PH-9.1",
                f"a Paohuzi match is a number of deals ('round' and 'game' are MCR's), not {length!r}",
            )
        if target is not None and (isinstance(target, bool) or not isinstance(target, int) or target < 1):
            raise RuleViolation("PH-9.1", "target is a whole number of tun, 1 or more")
        return length, None

    def round_of(self, index: int) -> int:
        return 0

    def next_dealer(self, last: Any, seats: int = 3) -> int:
        """PH-9.2: the winner deals; after a drawn deal, the seat after the dealer."""
        if last.winner is not None:
            return last.winner
        return (last.dealer + 1) % seats

    def ends_early(self, created: Any, scores: Sequence[int]) -> bool:
        """PH-9.1: a seat's running score reached the target."""
        return created.target is not None and max(scores) >= created.target


MATCH = PaohuziMatch()
