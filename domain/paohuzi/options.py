"""Paohuzi claim options: what each seat may claim on the table card (PH-6.2, PH-6.3, PH-6.5,
PH-6.6, PH-6.7), the priority levels and the claim order of PH-6.4.

``legal_actions`` lists these options as commands and ``decide`` accepts exactly those, so this
module is where the claim rules are.
"""

from __future__ import annotations

from domain.paohuzi.cards import CHI_WITH, SEATS, needs_discard
from domain.paohuzi.state import State
from domain.paohuzi.wins import WinEval, evaluate_win

# The claim rules below are the only statement of them: the aggregate and the strong bot's rollout
# simulator (``strong.sim``, which plays them on kind counts) both call them.

LEVEL = {"win": 3, "pao": 2, "peng": 2, "chi": 1, "pass": 0}  # PH-6.4: higher beats lower
_WIN, _PAO, _PENG, _CHI, _PASS = (LEVEL[a] for a in ("win", "pao", "peng", "chi", "pass"))


def claim_level(win: bool, pao: bool, peng: bool, chi: bool) -> int:
    """PH-6.4: the level of the best claim a seat holds (0: none, it is not asked)."""
    return _WIN if win else _PAO if pao else _PENG if peng else _CHI if chi else _PASS


def asked_in_order(who: int, reveal: bool) -> tuple[int, ...]:
    """PH-6.4: the seats a window asks, in claim order: turn order from the revealer, or from
    the seat after the discarder, who has no claim on its own discard (PH-6.3)."""
    start = who if reveal else (who + 1) % SEATS
    order = tuple((start + i) % SEATS for i in range(SEATS))
    return order if reveal else tuple(seat for seat in order if seat != who)


def claim_rights(seat: int, who: int, reveal: bool) -> tuple[bool, bool, bool, bool, bool]:
    """Which claims the seat's place allows on a card ``who`` revealed or discarded (PH-6.2,
    PH-6.3, PH-6.5): pao onto a kan in hand, onto an exposed wei, onto an exposed peng, peng,
    and chi. The cards in hand decide the rest."""
    own = seat == who
    return (
        not own,  # a kan takes another seat's card only: an own reveal onto it is a ti (PH-6.1)
        not own or reveal,
        reveal,
        not own,
        seat == (who + 1) % SEATS or (reveal and own),
    )


# the two tables above for every window, looked up by the simulator's hot loop
ASKED = {reveal: tuple(asked_in_order(who, reveal) for who in range(SEATS)) for reveal in (True, False)}
RIGHTS = {
    reveal: tuple(tuple(claim_rights(seat, who, reveal) for seat in range(SEATS)) for who in range(SEATS))
    for reveal in (True, False)
}


def mandatory_meld(has_kan: bool, dead: bool, count: int) -> str | None:
    """PH-6.1: the meld an own revealed card makes at once: a ti onto a kan in hand, a wei onto
    a pair (not for a dead hand); None when the card goes to a window."""
    if has_kan:
        return "ti"
    if not dead and count == 2:
        return "wei"
    return None


def leaves_no_discard(must_discard: bool, free_cards: int, used: int) -> bool:
    """PH-6.6: a chi or peng that uses every free card cannot be followed by the discard it calls for."""
    return must_discard and free_cards == used


def step_after_meld(dead: bool, holding: int, fours: int, free_cards: int) -> str:
    """PH-5.2, PH-5.4, PH-6.6: after a meld the seat discards if over its target; with no free
    card left to discard its hand is dead; else the next seat reveals."""
    if not dead and needs_discard(holding, fours):
        return "discard" if free_cards else "dead"
    return "reveal"


def chou_on_pass(peng: bool, chi: bool) -> bool:
    """PH-6.7: passing a peng or chi the seat could make marks the kind chou for it."""
    return peng or chi


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
    for pat in CHI_WITH[k]:
        rest = list(pat)
        rest.remove(k)
        for x in rest:
            c[x] -= 1
        if c[rest[0]] >= 0 and c[rest[1]] >= 0:
            _bi(c, k, [pat], found)
        for x in rest:
            c[x] += 1
    return tuple(sorted(found))


def _bi(c: list[int], k: int, groups: list[tuple[int, ...]], found: set[ChiChoice]) -> None:
    """The bi groups that take the ``k`` still in hand (``c``), each way added to ``found``. A
    function of its own, not a closure that calls itself: such a closure is a reference cycle,
    garbage only the collector frees, made at every claim window (``service.gc_tuning``)."""
    if c[k] == 0:
        found.add((groups[0], tuple(sorted(groups[1:]))))
        return
    for pat in CHI_WITH[k]:
        for x in pat:
            c[x] -= 1
        if min(c[pat[0]], c[pat[1]], c[pat[2]]) >= 0:
            groups.append(pat)
            _bi(c, k, groups, found)
            groups.pop()
        for x in pat:
            c[x] += 1


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
            o.level = claim_level(o.win is not None, False, False, False)
        return o
    k = card >> 2
    dead = s.dead[seat]
    counts = s.counts[seat]
    reveal = src == "reveal"
    if reveal and not dead:
        o.win = evaluate_win(s, seat, card)
    onto_kan, onto_wei, onto_peng, may_peng, may_chi = RIGHTS[reveal][who][seat]
    if onto_kan:
        for i, kan in enumerate(s.kans[seat]):
            if kan[0] >> 2 == k:
                o.pao = ("kan", i)
    if o.pao is None:
        for i, m in enumerate(s.melds[seat]):
            if m[1][0] >> 2 == k and ((m[0] == "wei" and onto_wei) or (m[0] == "peng" and onto_peng)):
                o.pao = ("meld", i)
    may_peng = may_peng and counts[k] == 2
    if not dead and (may_peng or may_chi) and k not in s.chou[seat]:
        n_hand = len(s.hands[seat])
        need = needs_discard(s.holding(seat) + 1, s.fours(seat))
        if may_peng:
            o.peng = not leaves_no_discard(need, n_hand, 2)
        if may_chi:
            for ch in chi_choices(counts, k):
                if not leaves_no_discard(need, n_hand, 2 + 3 * len(ch[1])):
                    o.chi.append(ch)
    o.level = claim_level(o.win is not None, o.pao is not None, o.peng, bool(o.chi))
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
    """PH-6.4: the seats of the open window in claim order (``asked_in_order``); after a
    mandatory ti/wei only the revealer."""
    if s.table is None:
        return [s.turn]
    return list(ASKED[s.table_source == "reveal"][s.table_seat])
