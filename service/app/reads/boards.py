"""Whether a finished deal is a duplicate board whose round still plays at another table
(TN-3.6): the facts the gate's ``sealed`` decides from, read from the tournament's record."""

from __future__ import annotations

from typing import Any

from service.app.lru import LRUCache
from service.store.tournaments import TournamentNotFound, TournamentStore


class Boards:
    """Reads, for a finished deal of a match, whether it is a duplicate board and whether its
    round is over. A match is mapped to its board before it is made, and a round once over stays
    over: both answers are kept once known, so only a board still sealed is looked up again."""

    def __init__(self, tournaments: TournamentStore, cache_size: int = 4096) -> None:
        self.tournaments = tournaments  # the tournament service's store (it closes it)
        self._settled: LRUCache[str, bool] = LRUCache(cache_size)  # match ids that seal nothing

    async def round_over(self, folded: Any) -> bool | None:
        """None: the deal is no duplicate board still to decide (not over: nothing to seal yet;
        no board; a round known over); else whether its round is over at every table (its seed
        revealed, TN-2.1)."""
        if not folded.events or not folded.over:
            return None
        place = getattr(folded.events[0], "match", None)
        return None if place is None else await self._round_over_of(place.match_id)

    async def match_sealed(self, match_id: str) -> bool:
        """Whether the match is a duplicate round's table whose round still plays (TN-3.6): its
        deals' results, scores and standings say how the board went, so they wait for the round."""
        return await self._round_over_of(match_id) is False

    async def _round_over_of(self, match_id: str) -> bool | None:
        """None: the match plays no duplicate board, or its round is known over (kept); else
        whether the round is over now (a record that cannot be read keeps it sealed)."""
        if self._settled.get(match_id):
            return None
        where = await self.tournaments.board_of(match_id)
        if where is None:
            self._settled.put(match_id, True)
            return None
        tournament_id, round_no = where
        try:
            state, _ = await self.tournaments.state(tournament_id)
        except TournamentNotFound:
            return False
        rnd = state.rounds.get(round_no)
        over = rnd is not None and rnd.seed is not None
        if over:
            self._settled.put(match_id, True)
        return over
