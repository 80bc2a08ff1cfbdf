"""A fast rollout engine: the rules of the aggregate on per-kind counts, without events.

A rollout plays a determinized deal to its end many hundred times per decision. The aggregate
(``aggregate.execute``) is exact but builds events, copies states and keeps card ids; this
module plays the same rules (PH-4 to PH-8) on kinds only and makes the same choices the
aggregate would let a seat make. A unit test plays whole greedy deals through both and checks
that every deal ends the same way, so the two cannot drift apart unnoticed.

Claim windows are answered in the order the aggregate asks (its eligible order) and close as soon
as nobody still to answer could beat the best claim (PH-6.4), so chou marks (PH-6.7) fall as they
do in the arena.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.claims import resolve
from domain.paohuzi.cards import CHI_WITH, HUXI_BY_KIND, SEATS, chi_huxi, target_for
from domain.paohuzi.options import (
    ASKED,
    LEVEL,
    RIGHTS,
    ChiChoice,
    chou_on_pass,
    claim_level,
    leaves_no_discard,
    mandatory_meld,
    needs_discard,
    step_after_meld,
)
from domain.paohuzi.options import chi_choices as chi_options  # the one chi search (PH-3.1, PH-6.5)
from domain.paohuzi.state import State
from domain.paohuzi.strong.policy import greedy_chi_value, greedy_discard_kind
from domain.paohuzi.wins import WIN_HUXI, best_win_way, meld_huxi, tun_for, win_shape

REVEAL = 0
DISCARD = 1


TI, PAO, WEI, KAN, PENG = (HUXI_BY_KIND[g] for g in ("ti", "pao", "wei", "kan", "peng"))

# the answers, named as the aggregate names them; their priority is ``options.LEVEL`` (PH-6.4)
WIN, PAO_A, PENG_A, CHI_A, PASS = "win", "pao", "peng", "chi", "pass"
assert set(LEVEL) == {WIN, PAO_A, PENG_A, CHI_A, PASS}

# the rules' window tables, indexed by this module's card source (REVEAL, DISCARD)
_ASKED = (ASKED[True], ASKED[False])  # the seats a window asks, in claim order (PH-6.4)
_RIGHTS = (RIGHTS[True], RIGHTS[False])  # the claims each seat's place allows (PH-6.2, PH-6.3)
_MELD = ("", "wei", "peng")  # ``Sim.wp`` codes as meld names

Answer = tuple[str, Any]  # (answer, chi choice or None)


class Opts:
    """One seat's options on the table card (``aggregate.compute_options`` on counts)."""

    __slots__ = ("win", "pao", "peng", "chi", "level")

    def __init__(self, win: int, pao: bool, peng: bool, chi: list[ChiChoice]) -> None:
        self.win = win  # huxi of the best win, -1 for none
        self.pao = pao
        self.peng = peng
        self.chi = chi
        self.level = claim_level(win >= 0, pao, peng, bool(chi))


def _cover_table(j: int) -> tuple[tuple[int, int], tuple[tuple[int, int], ...]]:
    """For kind ``j``: the mixed-size chi as (kind needed twice, other kind) and the runs as the
    two other kinds (PH-3.1)."""
    mixed = []
    runs = []
    for a, b, d in CHI_WITH[j]:
        if a == b:
            mixed.append((a, d))
        elif b == d:
            mixed.append((b, a))
        else:
            rest = [x for x in (a, b, d) if x != j]
            runs.append((rest[0], rest[1]))
    return tuple(mixed), tuple(runs)


_COVER = [_cover_table(j) for j in range(20)]


def _coverable(c: list[int], j: int, pair: bool) -> bool:
    """Some group of a complete split could hold kind ``j``: a pair, or a chi whose other
    cards are in ``c`` (a necessary condition only)."""
    if pair and c[j] >= 2:
        return True
    mixed, runs = _COVER[j]
    for t, o in mixed:
        if c[t] >= 2 and c[o]:
            return True
    for a, b in runs:
        if c[a] and c[b]:
            return True
    return False


# The memos below hold tuples, not lists: the garbage collector stops tracking tuples of
# numbers, so a worker that has played many decisions does not pay for them in every full
# collection (lists would be walked each time, and showed up as 100 ms pauses).
_STUCK: dict[tuple[bytes, bool], tuple[int, ...]] = {}
_MEMO_MAX = 200_000


def stuck_kinds(c: list[int], pair: bool) -> tuple[int, ...]:
    """Kinds of ``c`` that fit in no group of ``c``: one added card must rescue all of them.
    Memoised: every action of a decision replays the same sampled hands."""
    key = (bytes(c), pair)
    hit = _STUCK.get(key)
    if hit is None:
        if len(_STUCK) > _MEMO_MAX:
            _STUCK.clear()
        hit = _STUCK[key] = tuple(j for j in range(20) if c[j] and not _coverable(c, j, pair))
    return hit


def could_complete(c: list[int], k: int, pair: bool, stuck: list[int]) -> bool:
    """False when ``c`` plus one ``k`` can surely not split completely, because some card would
    fit in no group at all. Cheap, and rules out almost every card for a hand that is not close
    to a win, so the split search runs far less often."""
    if len(stuck) > 2:
        return False  # one card lies in one group: it can rescue at most two other kinds
    c[k] += 1
    ok = _coverable(c, k, pair) and all(_coverable(c, j, pair) for j in stuck)
    c[k] -= 1
    return ok


class Sim:
    """Per seat: free counts, kan kinds, exposed wei/peng kinds, meld figures, chou and dead."""

    __slots__ = (
        "cnt",
        "nfree",
        "kan",
        "nkan",
        "kanhx",
        "wp",
        "nmeld",
        "nfour",
        "exh",
        "held",
        "chou",
        "dead",
        "stock",
        "pos",
        "discard_policy",
        "claim_policy",
        "moves",
        "wcache",
    )

    def __init__(self) -> None:
        self.cnt: list[list[int]] = []
        self.nfree: list[int] = []
        self.kan: list[list[int]] = []
        self.nkan: list[int] = []
        self.kanhx: list[int] = []
        self.wp: list[list[int]] = []  # 0 none, 1 exposed wei, 2 exposed peng of the kind
        self.nmeld: list[int] = []
        self.nfour: list[int] = []
        self.exh: list[int] = []  # huxi of the exposed melds
        self.held: list[int] = []
        self.chou: list[list[bool]] = []
        self.dead: list[bool] = []
        self.stock: list[int] = []
        self.pos = 0
        self.discard_policy: list[Callable[[Sim, int], int]] = [greedy_discard] * SEATS
        self.claim_policy: list[Callable[[Sim, int, int, Opts], Answer]] = [greedy_claim] * SEATS
        self.moves = 0
        self.wcache: list[Any] = [None] * SEATS

    @classmethod
    def from_state(cls, s: State) -> Sim:
        m = cls()
        for seat in range(SEATS):
            m.cnt.append(s.counts[seat][:])
            m.nfree.append(len(s.hands[seat]))
            kan = [0] * 20
            for k in s.kans[seat]:
                kan[k[0] >> 2] = 1
            m.kan.append(kan)
            m.nkan.append(len(s.kans[seat]))
            m.kanhx.append(sum(KAN[k[0] >> 2] for k in s.kans[seat]))
            wp = [0] * 20
            for t, cards in s.melds[seat]:
                if t == "wei":
                    wp[cards[0] >> 2] = 1
                elif t == "peng":
                    wp[cards[0] >> 2] = 2
            m.wp.append(wp)
            m.nmeld.append(len(s.melds[seat]))
            m.nfour.append(sum(1 for t, _ in s.melds[seat] if t in ("ti", "pao")))
            m.exh.append(sum(meld_huxi(x) for x in s.melds[seat]))
            m.held.append(s.holding(seat))
            ch = [False] * 20
            for k in s.chou[seat]:
                ch[k] = True
            m.chou.append(ch)
            m.dead.append(bool(s.dead[seat]))
        m.stock = [c >> 2 for c in s.stock[s.stock_pos :]]
        m.pos = 0
        m.wcache = [None] * SEATS
        return m

    def copy(self) -> Sim:
        m = Sim.__new__(Sim)
        m.cnt = [c[:] for c in self.cnt]
        m.nfree = self.nfree[:]
        m.kan = [c[:] for c in self.kan]
        m.nkan = self.nkan[:]
        m.kanhx = self.kanhx[:]
        m.wp = [c[:] for c in self.wp]
        m.nmeld = self.nmeld[:]
        m.nfour = self.nfour[:]
        m.exh = self.exh[:]
        m.held = self.held[:]
        m.chou = [c[:] for c in self.chou]
        m.dead = self.dead[:]
        m.stock = self.stock
        m.pos = self.pos
        m.discard_policy = self.discard_policy[:]
        m.claim_policy = self.claim_policy[:]
        m.moves = 0
        m.wcache = self.wcache[:]
        return m

    # ---- rules -------------------------------------------------------------------------------
    def target(self, x: int) -> int:
        return target_for(self.nfour[x])

    def win_huxi(self, x: int, k: int, own: bool) -> int:
        """``aggregate.evaluate_win``'s huxi for seat ``x`` and revealed kind ``k`` (-1: none;
        ``k < 0``: the hand after a mandatory ti/wei), by the same ``wins.best_win_way``."""
        if self.dead[x]:
            return -1
        c = self.cnt[x]
        left, pair = win_shape(self.nmeld[x] + self.nkan[x], self.nfour[x])
        hand_way = True
        if k >= 0:
            wc = self.wcache[x]
            if wc is None:
                wc = self.wcache[x] = stuck_kinds(c, pair)
            hand_way = could_complete(c, k, pair, wc)  # a cheap test that rules most hands out
        w = self.wp[x][k] if k >= 0 else 0
        way = best_win_way(
            c, self.nfree[x], left, pair, k, own, k >= 0 and self.kan[x][k] == 1, _MELD[w], hand_way
        )
        if way is None:
            return -1
        h = self.exh[x] + self.kanhx[x] + way[0]
        return h if h >= WIN_HUXI else -1

    def options(self, x: int, k: int, src: int, who: int) -> Opts | None:
        """The seat's options on the table card, None when it has none (the common case, so
        the cheap tests come first)."""
        dead = self.dead[x]
        c = self.cnt[x]
        ck = c[k]
        kan = self.kan[x][k]
        w = self.wp[x][k]
        reveal = src == REVEAL
        own = x == who
        onto_kan, onto_wei, onto_peng, may_peng, may_chi = _RIGHTS[src][who][x]
        win = -1
        if reveal and not dead:
            if ck == 2 or kan or w:
                win = self.win_huxi(x, k, own)
            else:
                wc = self.wcache[x]
                if wc is None:
                    wc = self.wcache[x] = stuck_kinds(c, self.nfour[x] > 0)
                if len(wc) <= 2 and could_complete(c, k, self.nfour[x] > 0, wc):
                    win = self.win_huxi(x, k, own)
        pao = (onto_kan and kan == 1) or (onto_wei and w == 1) or (onto_peng and w == 2)
        peng = False
        chis: list[ChiChoice] = []
        may_peng = may_peng and ck == 2
        if (may_peng or may_chi) and not dead and not self.chou[x][k]:
            need = needs_discard(self.held[x] + 1, self.nfour[x])
            nf = self.nfree[x]
            if may_peng:
                peng = not leaves_no_discard(need, nf, 2)
            if may_chi:
                for ch in chi_options(c, k):
                    if not leaves_no_discard(need, nf, 2 + 3 * len(ch[1])):
                        chis.append(ch)
        if win < 0 and not pao and not peng and not chis:
            return None
        return Opts(win, pao, peng, chis)

    # ---- moves -------------------------------------------------------------------------------
    def _meld_chi(self, x: int, k: int, choice: ChiChoice) -> None:
        self.wcache[x] = None
        main, bis = choice
        c = self.cnt[x]
        skipped = False
        for g in main:
            if g == k and not skipped:
                skipped = True
                continue
            c[g] -= 1
        for grp in bis:
            for g in grp:
                c[g] -= 1
        self.nfree[x] -= 2 + 3 * len(bis)
        self.nmeld[x] += 1 + len(bis)
        self.exh[x] += chi_huxi(main) + sum(chi_huxi(g) for g in bis)
        self.held[x] += 1

    def _meld_pao(self, x: int, k: int) -> None:
        self.wcache[x] = None
        if self.kan[x][k]:
            self.kan[x][k] = 0
            self.nkan[x] -= 1
            self.kanhx[x] -= KAN[k]
            self.nmeld[x] += 1
            self.exh[x] += PAO[k]
        else:
            w = self.wp[x][k]
            self.wp[x][k] = 0
            self.exh[x] += PAO[k] - (WEI[k] if w == 1 else PENG[k])
        self.nfour[x] += 1
        self.held[x] += 1

    def _meld_peng(self, x: int, k: int) -> None:
        self.wcache[x] = None
        self.cnt[x][k] -= 2
        self.nfree[x] -= 2
        self.nmeld[x] += 1
        self.exh[x] += PENG[k]
        self.wp[x][k] = 2
        self.held[x] += 1

    def discard(self, x: int, k: int) -> None:
        self.wcache[x] = None
        self.cnt[x][k] -= 1
        self.nfree[x] -= 1
        self.held[x] -= 1
        self.chou[x][k] = True

    # ---- flow --------------------------------------------------------------------------------
    def _after_meld(self, x: int) -> tuple:
        """PH-5.2, PH-6.6: the next step after a meld by ``x``."""
        step = step_after_meld(self.dead[x], self.held[x], self.nfour[x], self.nfree[x])
        if step == "discard":
            return ("discard", x)
        if step == "dead":
            self.dead[x] = True
        return ("reveal", (x + 1) % SEATS)

    def _window(self, k: int, src: int, who: int, forced: tuple[int, Answer] | None) -> tuple:
        opts: list[Opts | None] = [None, None, None]
        eligible = []
        for x in _ASKED[src][who]:
            o = self.options(x, k, src, who)
            if o is not None:
                opts[x] = o
                eligible.append(x)
        if not eligible:
            return ("reveal", (who + 1) % SEATS)
        # the seats answer in claim order; the rules' resolver says when the window closes and
        # who takes the card (PH-6.4), as in the engine
        answers: dict[int, Answer] = {}
        levels: dict[int, int] = {}
        verdict = None
        for i, x in enumerate(eligible):
            o = opts[x]
            if forced is not None and forced[0] == x:
                ans = forced[1]
            else:
                ans = self.claim_policy[x](self, x, k, o)
            if ans[0] == PASS and chou_on_pass(o.peng, bool(o.chi)):
                self.chou[x][k] = True
            answers[x] = ans
            levels[x] = LEVEL[ans[0]]
            verdict = resolve(eligible, levels, {p: opts[p].level for p in eligible[i + 1 :]})
            if verdict.closed:
                break
        if verdict is None or verdict.seat is None:
            return ("reveal", (who + 1) % SEATS)
        x = verdict.seat
        best = answers[x]
        a = best[0]
        if a == WIN:
            return ("won", x, opts[x].win)
        if a == PAO_A:
            self._meld_pao(x, k)
        elif a == PENG_A:
            self._meld_peng(x, k)
        else:
            self._meld_chi(x, k, best[1])
        return self._after_meld(x)

    def _reveal(self, r: int, forced: tuple[int, Answer] | None) -> tuple:
        if self.pos >= len(self.stock):
            return ("drawn",)
        k = self.stock[self.pos]
        self.pos += 1
        meld = mandatory_meld(self.kan[r][k] == 1, self.dead[r], self.cnt[r][k])
        if meld is None:
            return self._window(k, REVEAL, r, forced)
        if meld == "ti":  # PH-6.1
            self.wcache[r] = None
            self.kan[r][k] = 0
            self.nkan[r] -= 1
            self.kanhx[r] -= KAN[k]
            self.nmeld[r] += 1
            self.nfour[r] += 1
            self.exh[r] += TI[k]
            self.held[r] += 1
            return self._after_mandatory(r)
        self.wcache[r] = None  # PH-6.1: wei
        self.cnt[r][k] -= 2
        self.nfree[r] -= 2
        self.nmeld[r] += 1
        self.exh[r] += WEI[k]
        self.wp[r][k] = 1
        self.held[r] += 1
        return self._after_mandatory(r)

    def _after_mandatory(self, r: int) -> tuple:
        if not self.dead[r]:
            h = self.win_huxi(r, -1, True)
            if h >= 0:  # every policy here takes a win
                return ("won", r, h)
        return self._after_meld(r)

    def run(self, step: tuple, forced: tuple[int, Any] | None = None) -> tuple[int, int]:
        """Play from ``step`` to the end: ``("discard", seat)``, ``("window", kind, src, who)`` or
        ``("reveal", seat)``. ``forced`` fixes the first choice of one seat: a discard kind, or a
        claim answer. Returns (winner or -1, tun)."""
        while True:
            self.moves += 1
            tag = step[0]
            if tag == "discard":
                x = step[1]
                if forced is not None and forced[0] == x:
                    k = forced[1]
                    forced = None
                else:
                    k = self.discard_policy[x](self, x)
                self.discard(x, k)
                step = self._window(k, DISCARD, x, None)
            elif tag == "window":
                step = self._window(step[1], step[2], step[3], forced)
                forced = None
            elif tag == "reveal":
                step = self._reveal(step[1], None)
            elif tag == "won":
                return step[1], tun_for(step[2])
            else:
                return -1, 0


# ---- the greedy bot on counts (same choices as ``basic_bots.GreedyBot``) -----------------------


def greedy_discard(sim: Sim, x: int) -> int:
    return greedy_discard_kind(sim.cnt[x])


def greedy_claim(sim: Sim, x: int, k: int, o: Opts) -> Answer:
    if o.win >= 0:
        return (WIN, None)
    if o.pao:
        return (PAO_A, None)
    if o.peng:
        return (PENG_A, None)
    best = None
    best_v = 0
    c = sim.cnt[x]
    for main, bis in o.chi:
        v = greedy_chi_value(c, k, main, bis)
        if v > best_v:
            best, best_v = (main, bis), v
    if best is not None:
        return (CHI_A, best)
    return (PASS, None)
