"""The Paohuzi aggregate: ``decide`` (validate + emit, forced steps included) and ``evolve``.

``decide`` never mutates its input: it works on a cheap scratch copy and applies each event it
emits with ``evolve``, so the forced steps that follow (mandatory ti/wei, window resolution, the
next reveal, the end of the deal) are computed from exactly the state the log will produce.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.claims import resolve
from domain.errors import RuleViolation
from domain.game import DealCreated, SeedRevealed, StartDeal
from domain.shuffle import combine_seeds, dealer_and_deck

from .cards import CHI_PATTERNS, CHI_WITH, FOUR_CARD, SEATS, group_huxi, kind_from_name, kind_name
from .messages import (
    CardDiscarded,
    CardRevealed,
    CardUnclaimed,
    Chi,
    ChouMarked,
    ClaimAnswered,
    ClaimWindowOpened,
    ClaimWindowResolved,
    DealDrawn,
    DealStarted,
    DealWon,
    Discard,
    DiscardRequired,
    HandDead,
    KanFormed,
    MeldMade,
    Pao,
    Pass,
    Peng,
    Win,
    WinGroup,
)
from .state import State
from .wins import best_split, tun_for

LEVEL = {"win": 3, "pao": 2, "peng": 2, "chi": 1, "pass": 0}


# =============================================================================================
# evolve
# =============================================================================================


def _remove_card(s: State, seat: int, card: int) -> None:
    hand = s.hands[seat]
    if card in hand:
        hand.remove(card)
        s.counts[seat][card >> 2] -= 1
        return
    kans = s.kans[seat]
    for i, kan in enumerate(kans):
        if card in kan:
            del kans[i]
            return
    raise ValueError(f"card {card} is not in seat {seat}'s concealed hand")


def _ev_created(s: State, e: DealCreated) -> None:
    s.created = e


def _ev_started(s: State, e: DealStarted) -> None:
    s.client_seed = e.client_seed
    s.dealer = e.dealer
    s.face_up = e.face_up
    s.stock = list(e.stock)
    s.stock_pos = 0
    for seat in range(SEATS):
        s.hands[seat] = list(e.hands[seat])
        c = [0] * 20
        for card in e.hands[seat]:
            c[card >> 2] += 1
        s.counts[seat] = c
    s.phase = "dealing"


def _ev_kan(s: State, e: KanFormed) -> None:
    hand = s.hands[e.seat]
    cnt = s.counts[e.seat]
    for card in e.cards:
        hand.remove(card)
        cnt[card >> 2] -= 1
    s.kans[e.seat].append(tuple(e.cards))


def _ev_meld(s: State, e: MeldMade) -> None:
    seat = e.seat
    kan_done = False
    for card in e.cards:
        if card == e.claimed:
            s.table = None
            continue
        if e.upgrades is not None:
            continue  # the other cards are the exposed meld being upgraded
        hand = s.hands[seat]
        if card in hand:
            hand.remove(card)
            s.counts[seat][card >> 2] -= 1
        elif not kan_done:
            _remove_card(s, seat, card)
            kan_done = True
    meld = (e.meld, tuple(e.cards))
    if e.upgrades is not None:
        s.melds[seat][e.upgrades] = meld
    else:
        s.melds[seat].append(meld)
        if e.rule_id == "PH-2.5":
            s.opening_fours[seat] += 1


def _ev_revealed(s: State, e: CardRevealed) -> None:
    s.stock_pos += 1
    s.table = e.card
    s.table_source = "reveal"
    s.table_seat = e.seat
    s.turn = e.seat
    s.phase = "reveal"


def _ev_discarded(s: State, e: CardDiscarded) -> None:
    s.hands[e.seat].remove(e.card)
    k = e.card >> 2
    s.counts[e.seat][k] -= 1
    s.chou[e.seat].add(k)
    s.table = e.card
    s.table_source = "discard"
    s.table_seat = e.seat
    s.phase = "discarded"


def _ev_unclaimed(s: State, e: CardUnclaimed) -> None:
    s.rows[e.seat].append(e.card)
    s.table = None


def _ev_opened(s: State, e: ClaimWindowOpened) -> None:
    s.window = e.window
    s.eligible = list(e.eligible)
    s.answers = {}
    s.phase = "claim"


def _ev_answered(s: State, e: ClaimAnswered) -> None:
    s.answers[e.seat] = (e.answer, e.groups)


def _ev_chou(s: State, e: ChouMarked) -> None:
    s.chou[e.seat].add(kind_from_name(e.kind))


def _ev_resolved(s: State, e: ClaimWindowResolved) -> None:
    res = dict(s.resolutions)
    res[e.window] = (e.seat, e.claim, e.rule_id)
    s.resolutions = res
    s.phase = "resolved"


def _ev_discard_required(s: State, e: DiscardRequired) -> None:
    s.phase = "discard"
    s.turn = e.seat


def _ev_dead(s: State, e: HandDead) -> None:
    s.dead[e.seat] = True


def _ev_end(s: State, e: Any) -> None:
    s.result = e
    s.phase = "over"


def _ev_seed(s: State, e: SeedRevealed) -> None:
    s.seed_revealed = True
    s.phase = "over"


_EVOLVE = {
    DealCreated: _ev_created,
    DealStarted: _ev_started,
    KanFormed: _ev_kan,
    MeldMade: _ev_meld,
    CardRevealed: _ev_revealed,
    CardDiscarded: _ev_discarded,
    CardUnclaimed: _ev_unclaimed,
    ClaimWindowOpened: _ev_opened,
    ClaimAnswered: _ev_answered,
    ChouMarked: _ev_chou,
    ClaimWindowResolved: _ev_resolved,
    DiscardRequired: _ev_discard_required,
    HandDead: _ev_dead,
    DealWon: _ev_end,
    DealDrawn: _ev_end,
    SeedRevealed: _ev_seed,
}


def evolve(state: State, event: Any) -> State:
    _EVOLVE[type(event)](state, event)
    state.version += 1
    return state


def fold(events: Iterable[Any]) -> State:
    s = State()
    table = _EVOLVE
    n = 0
    for e in events:
        table[type(e)](s, e)
        n += 1
    s.version = n
    return s


def initial_state() -> State:
    return State()


# =============================================================================================
# win evaluation (PH-4)
# =============================================================================================


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


def _take(pool: dict[int, list[int]], kinds: Iterable[int]) -> list[int]:
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
        pair = _take(pool, (card >> 2, card >> 2))
        groups.append(WinGroup("peng", pair + [card], group_huxi("peng", [card >> 2]), False))
    for gtype, kinds in split:
        groups.append(WinGroup(gtype, _take(pool, kinds), group_huxi(gtype, kinds), False))
    return WinEval(huxi, groups)


# =============================================================================================
# options of a seat on the table card (PH-6.2, PH-6.3, PH-6.5, PH-6.6, PH-6.7)
# =============================================================================================


class Options:
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
_CHI_MEMO: dict[tuple[bytes, int], list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]]] = {}
_CHI_MEMO_MAX = 100_000


def chi_choices(counts: list[int], k: int) -> list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]]:
    """Every chi on claimed kind ``k`` with its bi groups (PH-3.1, PH-6.5), canonical order.

    Memoised on the counts: a seat's hand stays the same while the others reveal card after
    card, so the same question comes back many times in a deal. Callers must not change the list.
    """
    if counts[k] == 0:
        # no copy of the kind in hand, so no bi (PH-6.5): each chi is one pattern whose two other
        # kinds the hand holds. The common case, answered without the search or the memo
        return [(pat, ()) for pat, a, b in _CHI_REST[k] if counts[a] and counts[b] > (a == b)]
    key = (bytes(counts), k)
    hit = _CHI_MEMO.get(key)
    if hit is None:
        if len(_CHI_MEMO) >= _CHI_MEMO_MAX:
            _CHI_MEMO.clear()
        hit = _CHI_MEMO[key] = _chi_search(counts, k)
    return hit


def _chi_search(counts: list[int], k: int) -> list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]]:
    found: set = set()
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
    return sorted(found)


def _needs_discard_after(s: State, seat: int, gained: int, new_fours: int) -> bool:
    q = s.fours(seat) + new_fours
    return s.holding(seat) + gained > 20 + max(0, q - 1)


def compute_options(s: State, seat: int) -> Options:
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


# =============================================================================================
# decide
# =============================================================================================


class _Ctx:
    __slots__ = ("s", "out")

    def __init__(self, s: State) -> None:
        self.s = s
        self.out: list[Any] = []

    def emit(self, e: Any) -> None:
        self.out.append(e)
        _EVOLVE[type(e)](self.s, e)
        self.s.version += 1


def _end(ctx: _Ctx, e: Any) -> None:
    s = ctx.s
    ctx.emit(e)
    seed = combine_seeds(bytes.fromhex(s.created.server_seed), s.client_seed)
    ctx.emit(SeedRevealed(server_seed=s.created.server_seed, client_seed=s.client_seed, seed=seed.hex()))


def _payments(seat: int, tun: int) -> list[int]:
    return [2 * tun if i == seat else -tun for i in range(SEATS)]


def _next_reveal(ctx: _Ctx, seat: int) -> None:
    s = ctx.s
    if s.stock_left() == 0:
        _end(ctx, DealDrawn())
        return
    card = s.stock[s.stock_pos]
    ctx.emit(CardRevealed(seat=seat, card=card, stock_left=s.stock_left() - 1))
    k = card >> 2
    for kan in s.kans[seat]:
        if kan[0] >> 2 == k:  # PH-6.1: own card onto a kan in hand -> ti
            ctx.emit(
                MeldMade(
                    seat=seat,
                    meld="ti",
                    cards=list(kan) + [card],
                    rule_id="PH-6.1",
                    claimed=card,
                    from_seat=seat,
                )
            )
            _after_mandatory(ctx, seat)
            return
    if not s.dead[seat] and s.counts[seat][k] == 2:  # PH-6.1: onto a pair -> wei
        pair = [c for c in s.hands[seat] if c >> 2 == k]
        ctx.emit(
            MeldMade(
                seat=seat,
                meld="wei",
                cards=sorted(pair) + [card],
                rule_id="PH-6.1",
                claimed=card,
                from_seat=seat,
            )
        )
        _after_mandatory(ctx, seat)
        return
    _open_window(ctx)


def _after_mandatory(ctx: _Ctx, seat: int) -> None:
    s = ctx.s
    if not s.dead[seat] and evaluate_win(s, seat, None) is not None:
        ctx.emit(
            ClaimWindowOpened(
                window=s.window + 1,
                card=s.melds[seat][-1][1][-1],
                source_seat=seat,
                source="reveal",
                eligible=[seat],
            )
        )
        return
    _after_meld(ctx, seat, mandatory=True)


def _after_meld(ctx: _Ctx, seat: int, mandatory: bool = False) -> None:
    """PH-5.2 / PH-5.4 / PH-6.6: discard if over target, else the next seat reveals."""
    s = ctx.s
    if not s.dead[seat] and s.holding(seat) > s.target(seat):
        if s.hands[seat]:
            ctx.emit(DiscardRequired(seat=seat))
            return
        ctx.emit(HandDead(seat=seat))
    _next_reveal(ctx, (seat + 1) % SEATS)


def _open_window(ctx: _Ctx) -> None:
    s = ctx.s
    src = s.table_source
    who = s.table_seat
    start = who if src == "reveal" else (who + 1) % SEATS
    order = [(start + i) % SEATS for i in range(SEATS)]
    # a discarder has no claim on its own discard (PH-6.3): only the other seats are asked
    seats = order if src == "reveal" else [seat for seat in order if seat != who]
    options = {seat: compute_options(s, seat) for seat in seats}
    eligible = [seat for seat in seats if options[seat].any()]
    if not eligible:
        ctx.emit(CardUnclaimed(seat=who, card=s.table, rule_id="PH-5.1" if src == "reveal" else "PH-5.4"))
        _next_reveal(ctx, (who + 1) % SEATS)
        return
    ctx.emit(
        ClaimWindowOpened(window=s.window + 1, card=s.table, source_seat=who, source=src, eligible=eligible)
    )
    # opening the window changed nothing the options depend on: keep them for window_options
    # (a new dict: the one this copy shares with the state it was copied from stays untouched)
    s._cache = {"opts": (s.window, {seat: options[seat] for seat in eligible})}


def _try_resolve(ctx: _Ctx) -> None:
    s = ctx.s
    opts = window_options(s)
    pending = [seat for seat in s.eligible if seat not in s.answers]
    answered = {seat: LEVEL[a[0]] for seat, a in s.answers.items()}
    verdict = resolve(claim_order(s), answered, {x: opts[x].level for x in pending})
    if not verdict.closed:
        return
    best_seat = verdict.seat
    claims = sum(1 for a in s.answers.values() if a[0] != "pass")
    mandatory_window = s.table is None
    if best_seat is None:
        rule = "PH-6.1" if mandatory_window else ("PH-5.1" if s.table_source == "reveal" else "PH-5.4")
    elif claims > 1 or pending:
        rule = "PH-6.4"
    elif mandatory_window:
        rule = "PH-6.1"
    else:
        rule = "PH-6.2" if s.table_source == "reveal" else "PH-6.3"
    claim = s.answers[best_seat][0] if best_seat is not None else None
    ctx.emit(ClaimWindowResolved(window=s.window, seat=best_seat, claim=claim, rule_id=rule))
    if best_seat is None:
        if mandatory_window:
            _after_meld(ctx, s.turn, mandatory=True)
        else:
            who = s.table_seat
            ctx.emit(
                CardUnclaimed(
                    seat=who,
                    card=s.table,
                    rule_id="PH-5.1" if s.table_source == "reveal" else "PH-5.4",
                )
            )
            _next_reveal(ctx, (who + 1) % SEATS)
        return
    _apply_claim(ctx, best_seat, claim, s.answers[best_seat][1], opts[best_seat])


def _apply_claim(ctx: _Ctx, seat: int, claim: str, groups: Any, o: Options) -> None:
    s = ctx.s
    card = s.table
    who = s.table_seat
    if claim == "win":
        w = o.win
        tun = tun_for(w.huxi)
        if card is None:  # PH-6.1: the revealed card already sits in the new ti/wei
            card = s.melds[seat][-1][1][-1]
        _end(
            ctx,
            DealWon(
                seat=seat,
                card=card,
                from_seat=who,
                groups=w.groups,
                huxi=w.huxi,
                tun=tun,
                payments=_payments(seat, tun),
                heavenly=False,
                rule_id="PH-4.1",
            ),
        )
        return
    rule = "PH-6.2" if s.table_source == "reveal" else "PH-6.3"
    k = card >> 2
    if claim == "pao":
        where, idx = o.pao
        if where == "kan":
            cards = list(s.kans[seat][idx]) + [card]
            ctx.emit(MeldMade(seat=seat, meld="pao", cards=cards, rule_id=rule, claimed=card, from_seat=who))
        else:
            cards = list(s.melds[seat][idx][1]) + [card]
            ctx.emit(
                MeldMade(
                    seat=seat,
                    meld="pao",
                    cards=cards,
                    rule_id=rule,
                    claimed=card,
                    from_seat=who,
                    upgrades=idx,
                )
            )
    elif claim == "peng":
        pair = sorted(c for c in s.hands[seat] if c >> 2 == k)
        ctx.emit(
            MeldMade(
                seat=seat,
                meld="peng",
                cards=pair + [card],
                rule_id=rule,
                claimed=card,
                from_seat=who,
            )
        )
    else:  # chi
        first = True
        for g in groups:
            ctx.emit(
                MeldMade(
                    seat=seat,
                    meld="chi",
                    cards=list(g),
                    rule_id=rule if first else "PH-6.5",
                    claimed=card if first else None,
                    from_seat=who if first else None,
                )
            )
            first = False
    _after_meld(ctx, seat)


def _chi_ids(s: State, seat: int, card: int, choice) -> list[list[int]]:
    pool: dict[int, list[int]] = {}
    for c in sorted(s.hands[seat]):
        pool.setdefault(c >> 2, []).append(c)
    main, bis = choice
    rest = list(main)
    rest.remove(card >> 2)
    groups = [[card] + _take(pool, rest)]
    for g in bis:
        groups.append(_take(pool, g))
    return groups


def _start(s: State, cmd: StartDeal) -> _Ctx:
    if s.created is None or s.phase != "new":
        raise RuleViolation("DS-2", "the deal is not created or already started")
    if not 0 <= cmd.seat < SEATS:
        raise RuleViolation("DS-3", f"unknown seat {cmd.seat}")
    ctx = _Ctx(s)
    created = s.created
    seed = combine_seeds(bytes.fromhex(created.server_seed), cmd.client_seed)
    dealer, deck = dealer_and_deck(seed, 80, SEATS)
    if created.fixed_deck is not None:
        deck = list(created.fixed_deck)
    if created.fixed_dealer is not None:
        dealer = created.fixed_dealer
    hands = [[] for _ in range(SEATS)]
    hands[dealer] = deck[0:21]
    hands[(dealer + 1) % SEATS] = deck[21:41]
    hands[(dealer + 2) % SEATS] = deck[41:61]
    ctx.emit(
        DealStarted(
            client_seed=cmd.client_seed,
            dealer=dealer,
            hands=hands,
            stock=deck[61:80],
            face_up=deck[20],
        )
    )
    order = [(dealer + i) % SEATS for i in range(SEATS)]
    for seat in order:  # PH-2.5
        byk: dict[int, list[int]] = {}
        for c in sorted(s.hands[seat]):
            byk.setdefault(c >> 2, []).append(c)
        for k in sorted(byk):
            if len(byk[k]) == 4:
                ctx.emit(MeldMade(seat=seat, meld="ti", cards=byk[k], rule_id="PH-2.5"))
            elif len(byk[k]) == 3:
                ctx.emit(KanFormed(seat=seat, cards=byk[k]))
    for seat in order:  # PH-2.6
        ti = [m for m in s.melds[seat] if m[0] == "ti"]
        kans = s.kans[seat]
        if len(ti) >= 3 or len(kans) >= 5:
            groups = [WinGroup("ti", list(m[1]), group_huxi("ti", [m[1][0] >> 2]), True) for m in ti]
            groups += [WinGroup("kan", list(kn), group_huxi("kan", [kn[0] >> 2]), False) for kn in kans]
            huxi = sum(g.huxi for g in groups)
            tun = tun_for(huxi)
            _end(
                ctx,
                DealWon(
                    seat=seat,
                    card=None,
                    from_seat=None,
                    groups=groups,
                    huxi=huxi,
                    tun=tun,
                    payments=_payments(seat, tun),
                    heavenly=True,
                    rule_id="PH-2.6",
                ),
            )
            return ctx
    if s.holding(dealer) > s.target(dealer):  # PH-2.7
        ctx.emit(DiscardRequired(seat=dealer, rule_id="PH-2.7"))
    else:
        _next_reveal(ctx, (dealer + 1) % SEATS)
    return ctx


def _reject_claim(s: State, seat: int, o: Options, claim: str) -> RuleViolation:
    src = s.table_source
    card = s.table
    if claim == "win":
        if s.dead[seat]:
            return RuleViolation("PH-4.7", "a dead hand cannot win")
        if card is not None and src == "discard":
            return RuleViolation("PH-4.6", "no win on a discarded card")
        return RuleViolation("PH-4.1", "no split into seven groups worth 15 huxi or more")
    k = card >> 2 if card is not None else -1
    name = kind_name(k) if k >= 0 else "?"
    if card is None:
        return RuleViolation("PH-6.1", "the card is already melded; only a win may be claimed")
    if claim == "pao":
        return RuleViolation(
            "PH-6.2" if src == "reveal" else "PH-6.3",
            f"no kan, exposed wei or peng of {name} to make a pao with",
        )
    if s.dead[seat]:
        return RuleViolation("PH-6.6", "a dead hand may not chi or peng")
    if k in s.chou[seat]:
        return RuleViolation("PH-6.7", f"chou: the seat may no longer chi or peng {name}")
    if claim == "peng":
        if seat == s.table_seat:
            return RuleViolation("PH-6.2", "the revealer cannot peng its own card")
        if s.counts[seat][k] != 2:
            return RuleViolation(
                "PH-6.2" if src == "reveal" else "PH-6.3",
                f"no pair of {name} in the concealed hand",
            )
        return RuleViolation("PH-6.6", "peng would leave no legal discard")
    # chi
    allowed = (seat == (s.table_seat + 1) % SEATS) or (src == "reveal" and seat == s.table_seat)
    if not allowed:
        return RuleViolation(
            "PH-6.2" if src == "reveal" else "PH-6.3",
            "only the revealer and the next seat (after a discard: the next seat) may chi",
        )
    return RuleViolation("PH-6.5", "no such chi with its bi groups")


def _claim_command(s: State, cmd: Any) -> _Ctx:
    seat = cmd.seat
    if s.phase != "claim" or cmd.window != s.window:
        raise RuleViolation("DS-3", "no open claim window with that id")
    if seat in s.answers or (seat not in s.eligible and isinstance(cmd, Pass)):
        raise RuleViolation("DS-3", "this seat has no open question in this window")
    if seat not in s.eligible:  # name the rule that gives this seat no such claim
        claim = {Win: "win", Pao: "pao", Peng: "peng", Chi: "chi"}[type(cmd)]
        raise _reject_claim(s, seat, compute_options(s, seat), claim)
    opts = window_options(s)
    o = opts[seat]
    groups = None
    if isinstance(cmd, Pass):
        answer = "pass"
    elif isinstance(cmd, Win):
        answer = "win"
        if o.win is None:
            raise _reject_claim(s, seat, o, "win")
    elif isinstance(cmd, Pao):
        answer = "pao"
        if o.pao is None:
            raise _reject_claim(s, seat, o, "pao")
    elif isinstance(cmd, Peng):
        answer = "peng"
        if not o.peng:
            raise _reject_claim(s, seat, o, "peng")
    else:
        answer = "chi"
        try:
            kinds = [tuple(sorted(kind_from_name(x) for x in g)) for g in cmd.groups]
        except KeyError as exc:
            raise RuleViolation("PH-1.2", f"unknown card kind {exc}") from None
        if not kinds:
            raise RuleViolation("PH-3.1", "a chi needs a group")
        for g in kinds:
            if g not in _CHI_SET_T:
                raise RuleViolation("PH-3.1", f"{[kind_name(x) for x in g]} is not a chi")
        choice = (kinds[0], tuple(sorted(kinds[1:])))
        if choice not in o.chi:
            if not o.chi:
                raise _reject_claim(s, seat, o, "chi")
            k = s.table >> 2
            if k not in kinds[0]:
                raise RuleViolation("PH-6.5", "the first group must hold the claimed card")
            free = s.counts[seat]
            need = [0] * 20
            for g in kinds:
                for x in g:
                    need[x] += 1
            need[k] -= 1
            if any(need[x] > free[x] for x in range(20)):
                raise RuleViolation(
                    "PH-6.5",
                    "the groups use cards not in the concealed hand (kan cards cannot be split)",
                )
            rest = s.counts[seat][k] - (need[k])
            if rest > 0:
                raise RuleViolation(
                    "PH-6.5",
                    f"bi: every copy of {kind_name(k)} in hand must go into a chi exposed at the same time",
                )
            raise RuleViolation("PH-6.6", "this chi leaves no legal discard")
        groups = _chi_ids(s, seat, s.table, choice)
    ctx = _Ctx(s.copy())
    ctx.emit(ClaimAnswered(window=s.window, seat=seat, answer=answer, groups=groups))
    if answer == "pass" and (o.peng or o.chi):
        ctx.emit(ChouMarked(seat=seat, kind=kind_name(s.table >> 2)))
    _try_resolve(ctx)
    return ctx


_CHI_SET_T = frozenset(CHI_PATTERNS)


def decide(state: State, command: Any) -> list[Any]:
    return execute(state, command)[0]


def execute(state: State, command: Any) -> tuple[list[Any], State]:
    """``decide``, plus the state those events lead to: the events are applied to a private
    copy as they are emitted, so it equals folding them onto ``state``, and it keeps what was
    worked out on the way (the options of a claim window just opened)."""
    if isinstance(command, StartDeal):
        ctx = _start(state.copy(), command)
        return ctx.out, ctx.s
    if state.phase == "new":
        raise RuleViolation("DS-2", "the deal has not started")
    if state.phase == "over":
        raise RuleViolation("DS-6", "the deal is over")
    seat = getattr(command, "seat", -1)
    if not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise RuleViolation("DS-3", f"unknown seat {seat!r}")
    if isinstance(command, Discard):
        if state.phase != "discard" or state.turn != seat:
            raise RuleViolation("DS-3", "it is not this seat's turn to discard")
        if command.card not in state.hands[seat]:
            if any(command.card in kan for kan in state.kans[seat]):
                raise RuleViolation("PH-5.3", "a kan cannot be split or discarded")
            raise RuleViolation("PH-5.3", f"card {command.card} is not in the concealed hand")
        ctx = _Ctx(state.copy())
        ctx.emit(CardDiscarded(seat=seat, card=command.card))
        _open_window(ctx)
        return ctx.out, ctx.s
    if isinstance(command, (Win, Pao, Peng, Chi, Pass)):
        ctx = _claim_command(state, command)
        return ctx.out, ctx.s
    raise RuleViolation("DS-3", f"unknown command {type(command).__name__}")


# =============================================================================================
# queries
# =============================================================================================


def legal_actions(state: State, seat: int) -> list[Any]:
    s = state
    if s.phase == "new":
        return [StartDeal(seat=seat)] if s.created is not None else []
    if s.phase == "discard":
        if seat != s.turn:
            return []
        return [Discard(seat=seat, card=c) for c in sorted(s.hands[seat])]
    if s.phase == "claim":
        if seat not in s.eligible or seat in s.answers:
            return []
        o = window_options(s)[seat]
        w = s.window
        out: list[Any] = []
        if o.win is not None:
            out.append(Win(seat=seat, window=w))
        if o.pao is not None:
            out.append(Pao(seat=seat, window=w))
        if o.peng:
            out.append(Peng(seat=seat, window=w))
        for main, bis in o.chi:
            out.append(Chi(seat=seat, window=w, groups=[[kind_name(x) for x in g] for g in (main, *bis)]))
        out.append(Pass(seat=seat, window=w))
        return out
    return []


def seats_to_act(state: State) -> list[int]:
    if state.phase == "discard":
        return [state.turn]
    if state.phase == "claim":
        return [seat for seat in state.eligible if seat not in state.answers]
    return []


def is_over(state: State) -> bool:
    return state.phase == "over"
