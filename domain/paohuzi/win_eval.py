"""Paohuzi win evaluation (PH-4): the best winning split of a seat with a given card.

The split search itself (concealed cards into chi, kan-free triples and a pair) is in ``wins``;
here the seat's exposed melds, kans and the ways of taking the winning card (PH-4.4) are added,
and the best total of at least 15 huxi wins (PH-4.1, PH-4.5, PH-8.2).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .cards import FOUR_CARD, group_huxi
from .messages import WinGroup
from .state import State
from .wins import best_split


class WinEval:
    """The best split for one seat: total huxi and the groups with their card ids."""

    __slots__ = ("huxi", "groups")

    def __init__(self, huxi: int, groups: list[WinGroup]) -> None:
        self.huxi = huxi
        self.groups = groups


def meld_huxi(meld: tuple[str, tuple[int, ...]]) -> int:
    """Huxi of an exposed meld (PH-3, PH-8.1): a chi scores by all three of its kinds."""
    return group_huxi(meld[0], [card >> 2 for card in meld[1]])


def _split_if_fits(counts: list[int], groups_left: int, need_pair: bool, n: int) -> Any:
    """The best split of ``n`` free cards into ``groups_left`` groups, if the count allows one."""
    if groups_left < 0 or n != (3 * (groups_left - 1) + 2 if need_pair else 3 * groups_left):
        return None
    return best_split(counts, need_pair)


def take(pool: dict[int, list[int]], kinds: Iterable[int]) -> list[int]:
    """The first card id of each kind from ``pool`` (ids by kind, lowest first), taken out."""
    return [pool[k].pop(0) for k in kinds]


def evaluate_win(s: State, seat: int, card: int | None) -> WinEval | None:
    """Best winning split for ``seat`` with ``card`` (None: after a mandatory ti/wei, PH-4.4).

    ``card`` is a revealed card (PH-4.6); whether it was the seat's own reveal decides which
    ways of taking it are open (PH-4.4). ``None`` when there is no split of seven groups worth
    15 huxi or more (PH-4.1, PH-4.2, PH-8.2). A dead hand never wins (PH-4.7).
    """
    if s.dead[seat]:
        return None
    melds = s.melds[seat]
    kans = s.kans[seat]
    counts = s.counts[seat]
    left = 7 - len(melds) - len(kans)
    with_pair = any(m[0] in FOUR_CARD for m in melds)  # PH-4.2
    n_free = len(s.hands[seat])
    # every way of taking the card that splits completely: (variant, index, extra huxi, split);
    # most hands split no way at all, so the huxi of the melds is only added up after
    found: list[tuple[str, int, int, Any]] = []
    if card is None:
        sp = _split_if_fits(counts, left, with_pair, n_free)
        if sp is not None:
            found.append(("hand", -1, 0, sp))
    else:
        k = card >> 2
        own = s.table_seat == seat
        c2 = counts[:]
        c2[k] += 1
        sp = _split_if_fits(c2, left, with_pair, n_free + 1)
        if sp is not None:
            found.append(("hand", -1, 0, sp))
        if not own and counts[k] == 2:
            c3 = counts[:]
            c3[k] -= 2
            sp = _split_if_fits(c3, left - 1, with_pair, n_free - 2)
            if sp is not None:
                found.append(("peng", -1, group_huxi("peng", [k]), sp))
        if not own:
            for i, kan in enumerate(kans):
                if kan[0] >> 2 == k:
                    sp = _split_if_fits(counts, left, True, n_free)
                    if sp is not None:
                        extra = group_huxi("pao", [k]) - group_huxi("kan", [k])
                        found.append(("pao_kan", i, extra, sp))
        for i, m in enumerate(melds):
            if m[0] in ("wei", "peng") and m[1][0] >> 2 == k:
                sp = _split_if_fits(counts, left, True, n_free)
                if sp is not None:
                    extra = group_huxi("pao", [k]) - group_huxi(m[0], [k])
                    found.append(("pao_meld", i, extra, sp))
    if not found:
        return None
    base_huxi = sum(meld_huxi(m) for m in melds) + sum(group_huxi("kan", [kan[0] >> 2]) for kan in kans)
    best: tuple[int, str, int, Any] | None = None  # huxi, variant, index, split
    for variant, idx, extra, sp in found:
        h = base_huxi + extra + sp[0]
        if h >= 15 and (best is None or h > best[0]):
            best = (h, variant, idx, sp[1])
    if best is None:
        return None
    huxi, variant, idx, split = best
    groups: list[WinGroup] = []
    for i, m in enumerate(melds):
        if variant == "pao_meld" and i == idx:
            cards = list(m[1]) + [card]
            groups.append(WinGroup("pao", cards, group_huxi("pao", [card >> 2]), True))
        else:
            groups.append(WinGroup(m[0], list(m[1]), meld_huxi(m), True))
    for i, kan in enumerate(kans):
        if variant == "pao_kan" and i == idx:
            groups.append(WinGroup("pao", list(kan) + [card], group_huxi("pao", [card >> 2]), False))
        else:
            groups.append(WinGroup("kan", list(kan), group_huxi("kan", [kan[0] >> 2]), False))
    pool: dict[int, list[int]] = {}
    for c in sorted(s.hands[seat]):
        pool.setdefault(c >> 2, []).append(c)
    if variant == "hand" and card is not None:
        pool.setdefault(card >> 2, []).insert(0, card)
    if variant == "peng":
        pair = take(pool, (card >> 2, card >> 2))
        groups.append(WinGroup("peng", pair + [card], group_huxi("peng", [card >> 2]), False))
    for gtype, kinds in split:
        groups.append(WinGroup(gtype, take(pool, kinds), group_huxi(gtype, kinds), False))
    return WinEval(huxi, groups)
