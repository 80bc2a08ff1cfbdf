"""The greedy bot's choices read straight off an aggregate ``State`` (no seat view).

Rollouts play thousands of moves per decision; building a ``SeatView`` for each would cost more
than the move. These functions give exactly the command ``GreedyBot.choose`` would give on the
view of the same state (a unit test compares them), so the simulated opponents are the bots the
strong bot actually meets.
"""

from __future__ import annotations

from typing import Any

from domain.paohuzi.basic_bots import keep_scores
from domain.paohuzi.cards import chi_huxi, kind_name, needs_discard
from domain.paohuzi.messages import Chi, Discard, Pao, Pass, Peng, Win
from domain.paohuzi.options import window_options
from domain.paohuzi.state import State

_DISCARD_MEMO: dict[bytes, int] = {}


def greedy_discard_kind(counts: list[int]) -> int:
    """The kind GreedyBot discards from a hand with these counts."""
    memo_key = bytes(counts)
    hit = _DISCARD_MEMO.get(memo_key)
    if hit is not None:
        return hit
    if len(_DISCARD_MEMO) > 200_000:
        _DISCARD_MEMO.clear()
    sc = keep_scores(counts)
    best = -1
    key = None
    for k in range(20):
        if counts[k]:
            kk = (sc[k], -k)
            if key is None or kk < key:
                key, best = kk, k
    _DISCARD_MEMO[memo_key] = best
    return best


def greedy_chi_value(
    counts: list[int], claimed: int, main: tuple[int, ...], bis: tuple[tuple[int, ...], ...]
) -> int:
    """GreedyBot's score of one chi choice (it takes the best one above zero)."""
    used: dict[int, int] = {}
    huxi = chi_huxi(main)
    for k in main:
        used[k] = used.get(k, 0) + 1
    for g in bis:
        huxi += chi_huxi(g)
        for k in g:
            used[k] = used.get(k, 0) + 1
    used[claimed] -= 1
    broken = 0
    for k, u in used.items():
        if u and counts[k] >= 2 and u < counts[k]:
            broken += 1
    return 2 + 2 * huxi - 4 * broken - 2 * len(bis)


def greedy_command(s: State, seat: int) -> Any:
    """GreedyBot's command for ``seat`` in ``s`` (the seat must be one the deal waits on)."""
    if s.phase == "discard":
        k = greedy_discard_kind(s.counts[seat])
        card = min(c for c in s.hands[seat] if c >> 2 == k)
        return Discard(seat=seat, card=card)
    o = window_options(s)[seat]
    w = s.window
    if o.win is not None:
        return Win(seat=seat, window=w)
    if o.pao is not None and (s.hands[seat] or not needs_discard(s.holding(seat) + 1, s.fours(seat) + 1)):
        return Pao(seat=seat, window=w)  # not the pao that kills the hand (PH-6.6), as GreedyBot
    if o.peng:
        return Peng(seat=seat, window=w)
    if o.chi:
        claimed = s.table >> 2
        best = None
        best_v = 0
        for main, bis in o.chi:
            v = greedy_chi_value(s.counts[seat], claimed, main, bis)
            if v > best_v:
                best, best_v = (main, bis), v
        if best is not None:
            return Chi(seat=seat, window=w, groups=[[kind_name(x) for x in g] for g in (best[0], *best[1])])
    return Pass(seat=seat, window=w)
