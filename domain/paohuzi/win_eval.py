"""Paohuzi win evaluation (PH-4): the best winning split of a seat with a given card.

The split search itself (concealed cards into chi, kan-free triples and a pair) is in ``wins``;
here the seat's exposed melds, kans and the ways of taking the winning card (PH-4.4) are added,
and the best total of at least 15 huxi wins (PH-4.1, PH-4.5, PH-8.2).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.paohuzi.cards import FOUR_CARD, HUXI_BY_KIND, group_huxi
from domain.paohuzi.messages import WinGroup
from domain.paohuzi.state import State
from domain.paohuzi.wins import WIN_HUXI, Split, best_split

_PAO, _KAN = HUXI_BY_KIND["pao"], HUXI_BY_KIND["kan"]


class WinEval:
    """The best split for one seat: total huxi and the groups with their card ids."""

    __slots__ = ("huxi", "groups")

    def __init__(self, huxi: int, groups: list[WinGroup]) -> None:
        self.huxi = huxi
        self.groups = groups


def meld_huxi(meld: tuple[str, tuple[int, ...]]) -> int:
    """Huxi of an exposed meld (PH-3, PH-8.1): a chi scores by all three of its kinds."""
    return group_huxi(meld[0], [card >> 2 for card in meld[1]])


def split_if_fits(counts: list[int], groups_left: int, need_pair: bool, n: int) -> Any:
    """The best split of ``n`` free cards into ``groups_left`` groups, if the count allows one."""
    if groups_left < 0 or n != (3 * (groups_left - 1) + 2 if need_pair else 3 * groups_left):
        return None
    return best_split(counts, need_pair)


def win_shape(groups_held: int, fours: int) -> tuple[int, bool]:
    """PH-4.2: a win is seven groups; the free cards must make the groups not yet held, with
    exactly one pair among them once the seat has a ti or pao."""
    return 7 - groups_held, fours > 0


WinWay = tuple[int, str, Split]  # huxi beyond the melds and kans held, way of taking, split


def best_win_way(
    counts: list[int],
    n_free: int,
    groups_left: int,
    with_pair: bool,
    k: int = -1,
    own: bool = True,
    kan_k: bool = False,
    meld_k: str = "",
    hand_way: bool = True,
) -> WinWay | None:
    """The best way for a seat to win with revealed kind ``k`` (PH-4.4, PH-4.5), on kind counts.

    ``k < 0``: the hand as it is, after a mandatory ti/wei. Otherwise the card joins the free
    cards ("hand"), makes a peng with a pair in hand ("peng", not on an own reveal), a pao onto
    the kan of ``k`` in hand ("pao_kan", not on an own reveal: PH-6.1 makes that a ti) or onto
    the exposed wei/peng of ``k``, ``meld_k`` ("pao_meld"). The huxi returned leaves out the melds
    and kans the seat held before, which the caller adds before the PH-4.1 test (``WIN_HUXI``);
    the first way with the most huxi wins ties. ``hand_way=False``: the caller has already ruled
    the first way out by a cheaper test. ``counts`` is changed on the way and restored.
    """
    if k < 0:
        sp = split_if_fits(counts, groups_left, with_pair, n_free)
        return None if sp is None else (sp[0], "hand", sp[1])
    best: WinWay | None = None
    if hand_way:
        counts[k] += 1
        sp = split_if_fits(counts, groups_left, with_pair, n_free + 1)
        counts[k] -= 1
        if sp is not None:
            best = (sp[0], "hand", sp[1])
    if not own and counts[k] == 2:
        counts[k] -= 2
        sp = split_if_fits(counts, groups_left - 1, with_pair, n_free - 2)
        counts[k] += 2
        if sp is not None:
            h = HUXI_BY_KIND["peng"][k] + sp[0]
            if best is None or h > best[0]:
                best = (h, "peng", sp[1])
    kan_way = kan_k and not own
    if kan_way or meld_k:
        sp = split_if_fits(counts, groups_left, True, n_free)  # the new pao brings the pair rule
        if sp is not None:
            if kan_way:
                h = _PAO[k] - _KAN[k] + sp[0]
                if best is None or h > best[0]:
                    best = (h, "pao_kan", sp[1])
            if meld_k:
                h = _PAO[k] - HUXI_BY_KIND[meld_k][k] + sp[0]
                if best is None or h > best[0]:
                    best = (h, "pao_meld", sp[1])
    return best


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
    left, with_pair = win_shape(len(melds) + len(kans), sum(1 for m in melds if m[0] in FOUR_CARD))
    idx = -1
    if card is None:
        way = best_win_way(s.counts[seat], len(s.hands[seat]), left, with_pair)
    else:
        k = card >> 2
        kan_k = next((i for i, kan in enumerate(kans) if kan[0] >> 2 == k), -1)
        meld_i = next((i for i, m in enumerate(melds) if m[0] in ("wei", "peng") and m[1][0] >> 2 == k), -1)
        meld_k = melds[meld_i][0] if meld_i >= 0 else ""
        own = s.table_seat == seat
        way = best_win_way(s.counts[seat], len(s.hands[seat]), left, with_pair, k, own, kan_k >= 0, meld_k)
        if way is not None:
            idx = kan_k if way[1] == "pao_kan" else meld_i
    if way is None:  # most hands split no way at all: the huxi of the melds is only added up now
        return None
    base_huxi = sum(meld_huxi(m) for m in melds) + sum(group_huxi("kan", [kan[0] >> 2]) for kan in kans)
    huxi = base_huxi + way[0]
    if huxi < WIN_HUXI:
        return None
    variant, split = way[1], way[2]
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
