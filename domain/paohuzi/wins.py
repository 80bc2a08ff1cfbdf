"""Wins in Paohuzi (PH-4, PH-8): the best split of a concealed hand into chi groups and a pair,
the best winning split of a seat with a given card (its exposed melds, kans and the ways of taking
the winning card, PH-4.4; at least 15 huxi win, PH-4.1, PH-4.5, PH-8.2), and the payment.

The split search works on per-kind counts (20 small integers) and is memoised, because the same
hands are evaluated again and again during a deal and across bot look-ahead.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.paohuzi.cards import CHI_BY_LOW, FOUR_CARD, HUXI_BY_KIND, N_KINDS, chi_huxi, group_huxi
from domain.paohuzi.messages import WinGroup
from domain.paohuzi.state import State

Split = tuple[tuple[str, tuple[int, ...]], ...]

_MEMO: dict[tuple[bytes, bool], tuple[int, Split] | None] = {}
_MEMO_MAX = 400_000


def best_split(counts: list[int], need_pair: bool) -> tuple[int, Split] | None:
    """Best split of ``counts`` into chi groups (and exactly one pair when ``need_pair``).

    Returns ``(huxi, groups)`` with groups ``("chi", kinds)`` / ``("pair", kinds)``, or ``None``
    when no split uses every card (PH-4.2). Among valid splits the most huxi wins (PH-4.5).
    """
    n = sum(counts)
    if n % 3 != (2 if need_pair else 0):
        return None
    key = (bytes(counts), need_pair)
    hit = _MEMO.get(key, _MISS)
    if hit is not _MISS:
        return hit
    if len(_MEMO) > _MEMO_MAX:
        _MEMO.clear()
    res = _search(list(counts), need_pair)
    _MEMO[key] = res
    return res


_MISS = object()


def _search(c: list[int], need_pair: bool) -> tuple[int, Split] | None:
    i = 0
    while i < N_KINDS and c[i] == 0:
        i += 1
    if i == N_KINDS:
        return None if need_pair else (0, ())
    best: tuple[int, Split] | None = None
    if need_pair and c[i] >= 2:
        c[i] -= 2
        sub = best_split(c, False)
        c[i] += 2
        if sub is not None:
            best = (sub[0], (("pair", (i, i)),) + sub[1])
    for pat in CHI_BY_LOW[i]:
        a, b, d = pat
        c[a] -= 1
        c[b] -= 1
        c[d] -= 1
        if c[a] >= 0 and c[b] >= 0 and c[d] >= 0:
            sub = best_split(c, need_pair)
            if sub is not None:
                h = sub[0] + chi_huxi(pat)
                if best is None or h > best[0]:
                    best = (h, (("chi", pat),) + sub[1])
        c[a] += 1
        c[b] += 1
        c[d] += 1
    return best


WIN_HUXI = 15  # PH-4.1, PH-8.2: the least huxi a win needs


def tun_for(huxi: int) -> int:
    """PH-8.3: 15-17 huxi = 1 tun, then one more per 3 huxi."""
    return 1 + (huxi - 15) // 3


def payment(seat: int, winner: int, tun: int) -> int:
    """PH-8.4: what ``seat`` is paid when ``winner`` (-1: nobody, a draw) wins ``tun``: the
    winner gets the tun from each of the two others."""
    if winner < 0:
        return 0
    return 2 * tun if seat == winner else -tun


# ---- chi partners (two-card chi starts), used by the greedy bot ------------------------


def _partners(i: int) -> list[int]:
    """Kinds that form a two-card start of some chi with kind ``i`` (symmetric)."""
    base = 10 if i >= 10 else 0
    r = i - base
    out = [base + r + d for d in (-2, -1, 1, 2) if 0 <= r + d <= 9]
    out.append(i + 10 if i < 10 else i - 10)
    trio = (1, 6, 9)  # 2-7-10
    if r in trio:
        out += [base + x for x in trio if x != r and base + x not in out]
    return out


PARTNERS = [_partners(i) for i in range(N_KINDS)]


# ---- the best partial split of a hand that is not complete (the coach) -------------------------

PartialSplit = tuple[int, int, int, Split]  # huxi, cards in chi, pairs, groups (the rest are loose)

_PARTIAL: dict[bytes, PartialSplit] = {}
_PARTIAL_MAX = 200_000


def best_partial_split(counts: list[int]) -> PartialSplit:
    """The best way to lay out free cards that need not split completely (a hand between turns).

    Groups are chi and pairs; cards in no group are loose. Best means: the most huxi (PH-3, only
    chi 1-2-3 and 2-7-10 score among free cards), then the most cards in chi, then the most pairs
    (a pair can become a peng, a wei or the pair of PH-4.2). Returns ``(huxi, chi cards, pairs,
    groups)``; the loose cards are ``counts`` minus the groups. Memoised on the counts, bounded.
    """
    key = bytes(counts)
    hit = _PARTIAL.get(key)
    if hit is None:
        if len(_PARTIAL) >= _PARTIAL_MAX:
            _PARTIAL.clear()
        hit = _partial(list(counts))
        _PARTIAL[key] = hit
    return hit


def _partial(c: list[int]) -> PartialSplit:
    i = 0
    while i < N_KINDS and c[i] == 0:
        i += 1
    if i == N_KINDS:
        return (0, 0, 0, ())
    # the first card left loose (then the same choices for the rest)
    c[i] -= 1
    best = best_partial_split(c)
    c[i] += 1
    if c[i] >= 2:
        c[i] -= 2
        h, n, p, g = best_partial_split(c)
        c[i] += 2
        cand = (h, n, p + 1, (("pair", (i, i)),) + g)
        if cand[:3] > best[:3]:
            best = cand
    for pat in CHI_BY_LOW[i]:
        a, b, d = pat
        c[a] -= 1
        c[b] -= 1
        c[d] -= 1
        if c[a] >= 0 and c[b] >= 0 and c[d] >= 0:
            h, n, p, g = best_partial_split(c)
            cand = (h + chi_huxi(pat), n + 3, p, (("chi", pat),) + g)
            if cand[:3] > best[:3]:
                best = cand
        c[a] += 1
        c[b] += 1
        c[d] += 1
    return best


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
