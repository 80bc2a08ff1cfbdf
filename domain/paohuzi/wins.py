"""Win evaluation (PH-4, PH-8): the best split of a concealed hand into chi groups and a pair.

The search works on per-kind counts (20 small integers) and is memoised, because the same
hands are evaluated again and again during a deal and across bot look-ahead.
"""

from __future__ import annotations

from domain.paohuzi.cards import CHI_BY_LOW, N_KINDS, chi_huxi

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
