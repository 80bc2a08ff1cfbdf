"""Paohuzi claim options: what each seat may claim on the table card (PH-6.2, PH-6.3, PH-6.5,
PH-6.6, PH-6.7), the priority levels and the claim order of PH-6.4.

``legal_actions`` lists these options as commands and ``decide`` accepts exactly those, so this
module is where the claim rules are.
"""

from __future__ import annotations

from .cards import CHI_WITH, SEATS
from .state import State
from .win_eval import WinEval, evaluate_win

LEVEL = {"win": 3, "pao": 2, "peng": 2, "chi": 1, "pass": 0}  # PH-6.4: higher beats lower


class Options:
    """What one seat may claim on the table card: the win (with its split), a pao (onto a kan:
    ``("kan", index)``, onto an exposed wei or peng: ``("meld", index)``), peng, every chi with
    its bi groups as kinds, and the priority level of the best of them (PH-6.4)."""

    __slots__ = ("win", "pao", "peng", "chi", "level")

    def __init__(self) -> None:
        self.win: WinEval | None = None
        self.pao: tuple[str, int] | None = None  # ("kan"|"meld", index)
        self.peng = False
        self.chi: list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]] = []
        self.level = 0

    def any(self) -> bool:
        return self.level > 0


def _rest_of(pat: tuple[int, int, int], k: int) -> tuple[int, int]:
    rest = list(pat)
    rest.remove(k)
    return rest[0], rest[1]


# per kind: every chi pattern holding it, sorted, with the two kinds the hand must add
_CHI_REST: list[list[tuple[tuple[int, int, int], int, int]]] = [
    [(pat, *_rest_of(pat, k)) for pat in sorted(CHI_WITH[k])] for k in range(20)
]
ChiChoice = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]  # (the chi's kinds, its bi groups)
_CHI_MEMO: dict[tuple[bytes, int], tuple[ChiChoice, ...]] = {}
_CHI_MEMO_MAX = 100_000


def chi_choices(counts: list[int], k: int) -> tuple[ChiChoice, ...]:
    """Every chi on claimed kind ``k`` with its bi groups (PH-3.1, PH-6.5), canonical order.

    Memoised on the counts: a seat's hand stays the same while the others reveal card after
    card, so the same question comes back many times in a deal (and the strong bot's rollouts
    ask it millions of times). The memo holds tuples only: the collector stops walking a tuple
    of tuples of ints once it has seen it, where a memo of lists would be walked on every
    collection (a serving process's pauses, a rollout's 100 ms stalls).
    """
    if counts[k] == 0:
        # no copy of the kind in hand, so no bi (PH-6.5): each chi is one pattern whose two other
        # kinds the hand holds. The common case, answered without the search or the memo
        return tuple((pat, ()) for pat, a, b in _CHI_REST[k] if counts[a] and counts[b] > (a == b))
    key = (bytes(counts), k)
    hit = _CHI_MEMO.get(key)
    if hit is None:
        if len(_CHI_MEMO) >= _CHI_MEMO_MAX:
            _CHI_MEMO.clear()
        hit = _CHI_MEMO[key] = _chi_search(counts, k)
    return hit


def _chi_search(counts: list[int], k: int) -> tuple[ChiChoice, ...]:
    """Each chi holding the claimed ``k`` with bi groups that take every other ``k`` in hand."""
    found: set[ChiChoice] = set()
    c = counts[:]

    def bi(groups: list[tuple[int, ...]]) -> None:
        if c[k] == 0:
            found.add((groups[0], tuple(sorted(groups[1:]))))
            return
        for pat in CHI_WITH[k]:
            for x in pat:
                c[x] -= 1
            if min(c[pat[0]], c[pat[1]], c[pat[2]]) >= 0:
                groups.append(pat)
                bi(groups)
                groups.pop()
            for x in pat:
                c[x] += 1

    for pat in CHI_WITH[k]:
        rest = list(pat)
        rest.remove(k)
        for x in rest:
            c[x] -= 1
        if c[rest[0]] >= 0 and c[rest[1]] >= 0:
            bi([pat])
        for x in rest:
            c[x] += 1
    return tuple(sorted(found))


def _needs_discard_after(s: State, seat: int, gained: int, new_fours: int) -> bool:
    q = s.fours(seat) + new_fours
    return s.holding(seat) + gained > 20 + max(0, q - 1)


def compute_options(s: State, seat: int) -> Options:
    """The seat's options on the table card now (PH-6.1 to PH-6.7); no chi or peng for a dead
    hand, on a chou kind, or when it would leave no legal discard."""
    o = Options()
    card = s.table
    src = s.table_source
    who = s.table_seat
    if card is None:
        # the window after a mandatory ti/wei: only the revealer's win (PH-6.1, PH-4.4)
        if seat == s.turn:
            o.win = evaluate_win(s, seat, None)
            if o.win is not None:
                o.level = 3
        return o
    k = card >> 2
    dead = s.dead[seat]
    counts = s.counts[seat]
    if src == "reveal" and not dead:
        o.win = evaluate_win(s, seat, card)
    if seat != who:
        for i, kan in enumerate(s.kans[seat]):
            if kan[0] >> 2 == k:
                o.pao = ("kan", i)
    if o.pao is None and (seat != who or src == "reveal"):
        for i, m in enumerate(s.melds[seat]):
            if m[1][0] >> 2 == k and (m[0] == "wei" or (m[0] == "peng" and src == "reveal")):
                o.pao = ("meld", i)
    may_peng = seat != who and counts[k] == 2
    may_chi = seat == (who + 1) % SEATS or (src == "reveal" and seat == who)
    if not dead and (may_peng or may_chi) and k not in s.chou[seat]:
        n_hand = len(s.hands[seat])
        need = _needs_discard_after(s, seat, 1, 0)
        if may_peng:
            o.peng = not (need and n_hand - 2 == 0)
        if may_chi:
            for ch in chi_choices(counts, k):
                used = 2 + 3 * len(ch[1])
                if need and n_hand - used == 0:
                    continue  # PH-6.6
                o.chi.append(ch)
    if o.win is not None:
        o.level = 3
    elif o.pao is not None or o.peng:
        o.level = 2
    elif o.chi:
        o.level = 1
    return o


def window_options(s: State) -> dict[int, Options]:
    """The options of every seat asked in the open window, worked out once per window (the
    state keeps them, and its copies share them until the next window)."""
    key = s.window
    cached = s._cache.get("opts")
    if cached is not None and cached[0] == key:
        return cached[1]
    opts = {seat: compute_options(s, seat) for seat in s.eligible}
    s._cache = {"opts": (key, opts)}
    return opts


def claim_order(s: State) -> list[int]:
    """PH-6.4: turn order from the revealer, or from the seat after the discarder."""
    start = s.table_seat if s.table_source == "reveal" else (s.table_seat + 1) % SEATS
    if s.table is None:
        start = s.turn
    return [(start + i) % SEATS for i in range(SEATS)]
