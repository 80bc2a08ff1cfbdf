"""Cards, kinds and the chi patterns of Paohuzi (PH-1, PH-3).

A card id is 0..79 (PH-1.3); its kind is ``id // 4``: kinds 0..9 are s1..s10, 10..19 are b1..b10.
"""

from __future__ import annotations

N_CARDS = 80
N_KINDS = 20
SEATS = 3


def kind_of(card: int) -> int:
    return card >> 2


def is_big(kind: int) -> bool:
    return kind >= 10


def kind_name(kind: int) -> str:
    return ("b" if kind >= 10 else "s") + str(kind % 10 + 1)


_NAME_TO_KIND = {kind_name(k): k for k in range(N_KINDS)}


def kind_from_name(name: str) -> int:
    """``s1`` -> 0, ``b10`` -> 19; ``KeyError`` for anything else."""
    return _NAME_TO_KIND[name]


def card_id(big: bool, rank: int, copy: int) -> int:
    """PH-1.3: id = (size*10 + rank-1)*4 + copy."""
    return ((10 if big else 0) + rank - 1) * 4 + copy


# Huxi per group type, (small, big) -- PH-3.
HUXI = {
    "ti": (9, 12),
    "pao": (6, 9),
    "wei": (3, 6),
    "kan": (3, 6),
    "peng": (1, 3),
    "chi": (0, 0),
    "pair": (0, 0),
}
FOUR_CARD = frozenset(("ti", "pao"))
# the same figures per kind, for code that works on kind counts: HUXI_BY_KIND["peng"][k]
HUXI_BY_KIND = {g: tuple(hx[1 if k >= 10 else 0] for k in range(N_KINDS)) for g, hx in HUXI.items()}


def target_for(fours: int) -> int:
    """PH-5.2: a seat with ``fours`` four-card groups holds 20 + max(0, fours - 1) cards between turns."""
    return 20 + max(0, fours - 1)


def needs_discard(holding: int, fours: int) -> bool:
    """PH-5.2: a seat holding more than its target must discard."""
    return holding > target_for(fours)


def group_huxi(gtype: str, kinds: tuple[int, ...] | list[int]) -> int:
    """Huxi of one group (PH-3, PH-8.1). Chi 1-2-3 and 2-7-10 of one size score 3/6."""
    if gtype == "chi":
        return chi_huxi(tuple(sorted(kinds)))
    return HUXI[gtype][1 if kinds[0] >= 10 else 0]


def _build_chi_patterns() -> list[tuple[int, int, int]]:
    pats: list[tuple[int, int, int]] = []
    for base in (0, 10):
        for i in range(8):  # 1-2-3 .. 8-9-10
            pats.append((base + i, base + i + 1, base + i + 2))
        pats.append((base + 1, base + 6, base + 9))  # 2-7-10
    for r in range(10):  # one rank, mixed size (PH-3.1)
        pats.append((r, r, r + 10))
        pats.append((r, r + 10, r + 10))
    return pats


CHI_PATTERNS: list[tuple[int, int, int]] = _build_chi_patterns()
_SCORING = {(0, 1, 2): 3, (1, 6, 9): 3, (10, 11, 12): 6, (11, 16, 19): 6}


def chi_huxi(kinds: tuple[int, ...]) -> int:
    return _SCORING.get(kinds, 0)


def is_chi(kinds: list[int] | tuple[int, ...]) -> bool:
    return tuple(sorted(kinds)) in _CHI_SET


_CHI_SET = frozenset(CHI_PATTERNS)
# patterns indexed by their lowest kind, used by the split search
CHI_BY_LOW: list[list[tuple[int, int, int]]] = [[] for _ in range(N_KINDS)]
for _p in CHI_PATTERNS:
    CHI_BY_LOW[_p[0]].append(_p)
# patterns containing a given kind
CHI_WITH: list[list[tuple[int, int, int]]] = [[p for p in CHI_PATTERNS if k in p] for k in range(N_KINDS)]
