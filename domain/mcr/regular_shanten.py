"""Regular-hand shanten and the tiles that lower it (four sets and a pair, MC-4.1), by suit.

The same numbers and tile sets as the fan calculator's regular-hand search, found faster: a hand
splits into four independent groups (three suits and the honours); each group's best
decompositions are tabled once per pattern of counts (how many blocks, with or without the pair,
for how many points), and a hand combines its four tables. A tile that might help changes one
group only, so it is tried against the other three groups' combined table, cached by both.

Shanten is 8 - 2 * sets - min(partial sets, 4 - sets) - pair (0: ready, -1: complete), where
sets include the hand's fixed packs; blocks beyond four never count, so a table keeps at most
four blocks per group.
"""

from __future__ import annotations

from operator import add
from typing import Any

NEG = -1000  # an impossible entry (below zero whatever is added to it)
_BLOCKS = 5  # 0..4 blocks
_SIZE = 2 * _BLOCKS  # index: blocks * 2 + pair

_tables: dict[tuple[int, ...], tuple[int, ...]] = {}
_useful_cache: dict[tuple, tuple[int, ...]] = {}
_CACHE_LIMIT = 60_000  # entries per memo (~20 MB each at most)


def _block(table: tuple[int, ...], points: int) -> list[int]:
    """A table with one more block worth ``points`` (the pair side unchanged)."""
    return [NEG, NEG, *[v + points for v in table[: _SIZE - 2]]]


def _paired(table: tuple[int, ...]) -> list[int]:
    """A table with the pair added to the entries without one."""
    out = [NEG] * _SIZE
    out[1::2] = [v + 1 for v in table[0::2]]
    return out


def _best(counts: tuple[int, ...], numbered: bool) -> tuple[int, ...]:
    """For each (blocks <= b, pair) the most points (2 per set, 1 per partial set, 1 for the pair)
    the group's tiles give; ``NEG`` where no decomposition fits."""
    key = counts if numbered else (-1, *counts)
    t = _tables.get(key)
    if t is not None:
        return t
    n = len(counts)
    i = 0
    while i < n and counts[i] == 0:
        i += 1
    if i == n:
        t = (0, NEG) * _BLOCKS
        _tables[key] = t
        return t
    head = counts[:i]
    ci = counts[i]
    c1 = counts[i + 1] if i + 1 < n else 0
    c2 = counts[i + 2] if i + 2 < n else 0
    alone = _best((*head, ci - 1, *counts[i + 1 :]), numbered)  # the tile left alone
    options: list[Any] = [alone]
    if ci >= 2:
        two = _best((*head, ci - 2, *counts[i + 1 :]), numbered)
        options.append(_paired(two))  # the pair
        options.append(_block(two, 1))  # two of a kind towards a pung
    if ci >= 3:
        options.append(_block(_best((*head, ci - 3, *counts[i + 1 :]), numbered), 2))  # a pung
    if numbered:
        if c1:
            row = (*head, ci - 1, c1 - 1, *counts[i + 2 :])
            options.append(_block(_best(row, numbered), 1))  # two in a row
            if c2:
                chow = (*head, ci - 1, c1 - 1, c2 - 1, *counts[i + 3 :])
                options.append(_block(_best(chow, numbered), 2))  # a chow
        if c2:
            gap = (*head, ci - 1, c1, c2 - 1, *counts[i + 3 :])
            options.append(_block(_best(gap, numbered), 1))  # a gap
    # each option's entries never fall as blocks are allowed more, so neither does their best;
    # an entry built on an impossible one stays below zero and is impossible again
    out = options[0] if len(options) == 1 else map(max, *options)
    t = tuple([v if v >= 0 else NEG for v in out])
    if len(_tables) > _CACHE_LIMIT:
        _tables.clear()
    _tables[key] = t
    return t


_combined: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}


def _combine(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The table of two groups together (blocks and pair shared); few distinct tables meet, so
    their combinations are remembered."""
    got = _combined.get((a, b))
    if got is not None:
        return got
    out = [NEG] * _SIZE
    for ba in range(_BLOCKS):
        for pa in (0, 1):
            va = a[2 * ba + pa]
            if va == NEG:
                continue
            for bb in range(_BLOCKS - ba):
                for pb in (0, 1 - pa):
                    vb = b[2 * bb + pb]
                    if vb == NEG:
                        continue
                    idx = 2 * (ba + bb) + pa + pb
                    if va + vb > out[idx]:
                        out[idx] = va + vb
    got = tuple(out)
    if len(_combined) > _CACHE_LIMIT:
        _combined.clear()
    _combined[a, b] = got
    return got


def _top(a: tuple[int, ...], budget: int) -> int:
    return max(a[2 * budget], a[2 * budget + 1])


def _groups(kinds: tuple[int, ...]) -> list[list[int]]:
    groups = [[0] * 9, [0] * 9, [0] * 9, [0] * 7]
    for k in kinds:
        if k < 27:
            groups[k // 9][k % 9] += 1
        else:
            groups[3][k - 27] += 1
    return groups


def regular_useful(kinds: tuple[int, ...]) -> tuple[int, frozenset[int]]:
    """(regular-hand shanten, kinds that lower it) of 13 - 3n concealed tiles, as the fan
    calculator's regular-hand search answers: a kind held four times counts only when the hand
    is ready (a fifth copy is then tried as it is)."""
    fixed = (13 - len(kinds)) // 3
    budget = 4 - fixed
    g = _groups(kinds)
    tables = [_best(tuple(g[0]), True), _best(tuple(g[1]), True), _best(tuple(g[2]), True)]
    tables.append(_best(tuple(g[3]), False))
    t01 = _combine(tables[0], tables[1])
    t23 = _combine(tables[2], tables[3])
    value = _top(_combine(t01, t23), budget)
    shanten = 8 - 2 * fixed - value
    ready = shanten <= 0
    rests = (
        _combine(tables[1], t23),
        _combine(tables[0], t23),
        _combine(t01, tables[3]),
        _combine(t01, tables[2]),
    )
    useful: list[int] = []
    for gi in range(4):
        rest = rests[gi][: 2 * budget + 2]
        key = (gi == 3, tuple(g[gi]), rest, ready)
        local = _useful_cache.get(key)
        if local is None:
            local = _useful_in_group(g[gi], gi != 3, rest, budget, value, ready)
            if len(_useful_cache) > _CACHE_LIMIT:
                _useful_cache.clear()
            _useful_cache[key] = local
        base = 9 * gi
        useful.extend(base + x for x in local)
    return shanten, frozenset(useful)


def _useful_in_group(
    counts: list[int], numbered: bool, rest: tuple[int, ...], budget: int, value: int, ready: bool
) -> tuple[int, ...]:
    """The kinds of one group whose extra copy raises the hand's points above ``value``."""
    n = len(counts)
    out = []
    # what the other groups add to this group's (blocks b, pair p): their best within the blocks
    # left, without a pair if this group has it; sums with an impossible side stay below zero
    partner: list[int] = []
    for b in range(budget + 1):
        r = budget - b
        partner += (max(rest[2 * r], rest[2 * r + 1]), rest[2 * r])
    width = len(partner)
    for x in range(n):
        cx = counts[x]
        if cx == 4 and not ready:
            continue
        if cx == 0:
            if not numbered:
                continue
            if not any(counts[y] for y in (x - 2, x - 1, x + 1, x + 2) if 0 <= y < n):
                continue
        counts[x] += 1
        t = _best(tuple(counts), numbered)
        counts[x] -= 1
        if max(map(add, t[:width], partner)) > value:
            out.append(x)
    return tuple(out)
